"""Ratings (issue 41): writing rating lists, marking an event unrated, and recomputing a rating
in a job.

``ratings_schedule_for_event`` is called after an event's standings were recomputed with new
inputs (``services.standings.standings_recompute``), and when an organiser marks an event
unrated or rated again: every rating list whose scope holds the event (the family's own list is
made the first time) notes the event as changed and asks for its job. A burst of requests runs
one job, as the series' jobs do. ``ratings_recompute`` (what the job runs) rates from the
earliest changed event on: it skips the events whose rated inputs did not change (a provisional
protocol saved changes nothing a rating reads), takes every person's state before the first
changed one from the stored changes, deletes the changes from there on and stores the new ones
(PostgreSQL's COPY) and every person's current rating. A change of the model's version or
parameters rates everything again from scratch. Serialised per list by a PostgreSQL advisory
lock; never run inside a request.
"""

from __future__ import annotations

import gc
import json
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.variants import FAMILIES
from tournaments.errors import UserFacingError
from tournaments.jobs.outbox import job_enqueue, jobs_queue
from tournaments.models import (
    Entry,
    Event,
    Job,
    Organisation,
    PersonEventRating,
    PersonRating,
    Player,
    RatingList,
    Series,
    UnratedEvent,
)
from tournaments.ratings import MODELS, EventChanges, Packer, PlayerState, model_for, rate_events
from tournaments.selectors.ratings import (
    PAGE_PART,
    EventKey,
    event_family_key,
    rated_events,
    rated_inputs,
    rating_lists_of_event,
    ratings_at_entry,
    states_before,
)
from tournaments.services.audit import audit_log
from tournaments.web_cache import versions as page_cache

__all__ = [
    "TASK",
    "entries_seed_from_ratings",
    "event_mark_rated",
    "event_mark_unrated",
    "family_rating_list",
    "rating_list_create",
    "ratings_mark_failed",
    "ratings_recompute",
    "ratings_schedule",
    "ratings_schedule_for_event",
]

#: the Celery task of a rating's recomputation (its ``Job`` rows carry ``key`` "rating:<id>")
TASK = "tournaments.ratings_recompute"
#: first key of the PostgreSQL advisory lock of a rating's recomputation (the second: its id)
LOCK_CLASS = 0x5241  # "RA"


def _job_key(list_id: int) -> str:
    return f"rating:{list_id}"


def _waiting_job(list_id: int) -> Job | None:
    return (
        Job.objects.filter(
            task=TASK, key=_job_key(list_id), state__in=(Job.State.QUEUED, Job.State.SENT)
        )
        .order_by("created_at", "pk")
        .first()
    )


def _follow_up(list_id: int, number: int) -> None:
    """After the commit of a request that joined a waiting job: a new job only when no
    computation has counted this request and none waits (``services.series._follow_up``)."""
    computed = RatingList.objects.filter(pk=list_id).values_list("computed", flat=True).first()
    if (computed is not None and computed >= number) or _waiting_job(list_id) is not None:
        return
    job_enqueue(task=TASK, args=[list_id], queue=jobs_queue(), key=_job_key(list_id))


def ratings_schedule(
    *, list_id: int, key: EventKey | None = None, from_scratch: bool = False
) -> Job:
    """Ask for a recomputation of the rating from the event ``key`` on (from scratch with
    ``from_scratch``); the job runs after the commit, one job for a burst."""
    with transaction.atomic():
        row = RatingList.objects.select_for_update().get(pk=list_id)
        row.requested = F("requested") + 1
        fields = ["requested"]
        if from_scratch:
            row.from_scratch = True
            fields.append("from_scratch")
        if key is not None and (
            row.dirty_date is None or (key.date, key.event) < (row.dirty_date, row.dirty_event or 0)
        ):
            row.dirty_date, row.dirty_event = key.date, key.event
            fields += ["dirty_date", "dirty_event"]
        if row.status != RatingList.Status.RUNNING:
            row.status = RatingList.Status.PENDING
            fields.append("status")
        row.save(update_fields=fields)
        number = RatingList.objects.filter(pk=list_id).values_list("requested", flat=True).get()
        waiting = _waiting_job(list_id)
        if waiting is not None:
            transaction.on_commit(lambda: _follow_up(list_id, number))
            return waiting
        return job_enqueue(task=TASK, args=[list_id], queue=jobs_queue(), key=_job_key(list_id))


def family_rating_list(*, family: str) -> RatingList:
    """The family's own rating list (every event of the family, Pulka's default model), made
    the first time it is asked for."""
    found = (
        RatingList.objects.filter(
            family=family,
            organisation__isnull=True,
            series__isnull=True,
            model=RatingList.Model.WENG_LIN,
        )
        .order_by("pk")
        .first()
    )
    if found is not None:
        return found
    name = FAMILIES[family].name if family in FAMILIES else family
    return RatingList.objects.create(
        slug=family, name=str(name), family=family, model=RatingList.Model.WENG_LIN
    )


def ratings_schedule_for_event(*, event_id: int) -> list[Job]:
    """An event's rated results may have changed: every rating holding it rates again from
    it on."""
    event = (
        Event.objects.filter(pk=event_id)
        .only("pk", "variant", "starts_on", "organisation_id")
        .first()
    )
    if event is None:
        return []
    family = event_family_key(event)
    if family is None:
        return []
    # nothing to rate and nothing rated: no entry linked to a person (an event before persons)
    if (
        not Entry.objects.filter(event_id=event_id, person__isnull=False).exists()
        and not PersonEventRating.objects.filter(event_id=event_id).exists()
    ):
        return []
    family_rating_list(family=family)
    key = EventKey(event.starts_on, event.pk)
    return [ratings_schedule(list_id=i, key=key) for i in rating_lists_of_event(event=event)]


def ratings_persons_changed(*, person_ids) -> None:
    """A person's name or record changed (merged, erased, chosen for an entry): the pages of the
    rating lists that hold them are served again (names are read live; the numbers follow from
    the job that :func:`ratings_schedule_for_event` asks for)."""
    for slug in (
        RatingList.objects.filter(ratings__person_id__in=list(person_ids))
        .values_list("slug", flat=True)
        .distinct()
    ):
        page_cache.changed(slug=slug, parts=(PAGE_PART,))


def _check(family: str, model: str) -> None:
    if family not in FAMILIES:
        raise UserFacingError(
            _("Unknown rule family %(family)s.") % {"family": family}, {"field": "family"}
        )
    if model not in MODELS:
        raise UserFacingError(
            _("Unknown rating model %(model)s.") % {"model": model}, {"field": "model"}
        )


@transaction.atomic
def rating_list_create(
    *,
    slug: str,
    name: str,
    family: str,
    model: str = RatingList.Model.WENG_LIN,
    organisation: Organisation | None = None,
    series: Series | None = None,
    by=None,
) -> RatingList:
    """A new rating: a family, a model (prefko's formula is for the Balkan family's tables of
    three) and a scope (an organisation's events, a series' events, or all of the family's).

    :raises UserFacingError: naming the field (a slug taken, an unknown family or model, a
        series of another family).
    """
    _check(family, model)
    if not name.strip():
        raise UserFacingError(_("A rating needs a name."), {"field": "name"})
    if slug in FAMILIES or RatingList.objects.filter(slug=slug).exists():  # a family's own
        raise UserFacingError(
            _("The short name %(slug)s is taken.") % {"slug": slug}, {"field": "slug"}
        )
    if series is not None and series.family != family:
        raise UserFacingError(_("The series plays another rule family."), {"field": "series"})
    made = RatingList.objects.create(
        slug=slug,
        name=name.strip(),
        family=family,
        model=model,
        organisation=organisation,
        series=series,
    )
    ratings_schedule(list_id=made.pk, from_scratch=True)
    return made


@transaction.atomic
def event_mark_unrated(*, event: Event, by=None, reason: str = "") -> UnratedEvent:
    """Mark the event unrated: no rating counts its tables (logged); the ratings holding it
    rate again from it on."""
    mark, made = UnratedEvent.objects.get_or_create(
        event=event,
        defaults={
            "reason": reason[:300],
            "marked_by": by if getattr(by, "is_authenticated", False) else None,
        },
    )
    if made:
        audit_log(event=event, action="event.unrated", by=by, reason=reason)
        ratings_schedule_for_event(event_id=event.pk)
    return mark


@transaction.atomic
def event_mark_rated(*, event: Event, by=None, reason: str = "") -> None:
    """Count the event in the ratings again (logged)."""
    deleted, _n = UnratedEvent.objects.filter(event=event).delete()
    if deleted:
        audit_log(event=event, action="event.rated", by=by, reason=reason)
        ratings_schedule_for_event(event_id=event.pk)


@transaction.atomic
def entries_seed_from_ratings(*, event: Event, by=None) -> int:
    """Seed the event's draws from Pulka's rating: each entry's rating (what the Swiss draw and
    its first round order the players by, ``Player.rating``) becomes his rating in the
    family's list as it stood when the event began, rounded; an entry without one keeps his.
    Logged; returns how many were set."""
    found = ratings_at_entry(event=event)
    players = dict(Entry.objects.filter(pk__in=found).values_list("pk", "player_id"))
    for entry, (shown, _spread, _provisional) in found.items():
        Player.objects.filter(pk=players[entry]).update(rating=round(shown))
    audit_log(
        event=event,
        action="entries.rated_from_pulka",
        by=by,
        data={"entries": len(found)},
    )
    return len(found)


def _lock(list_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, list_id])
    else:
        RatingList.objects.select_for_update().filter(pk=list_id).exists()


_RECORD_COLUMNS = (
    "rating_list_id", "person_id", "event_id", "event_date", "seq", "mu_before",
    "sigma_before", "tables_before", "shown_before", "mu_after", "sigma_after", "tables_after",
    "shown_after", "spread_after", "changes",
)  # fmt: skip
_NULL = "\\N"


def _copy_lines(list_id: int, date_of: dict[int, Any], rows: list[EventChanges]) -> str:
    """The records as lines of COPY's text format (``\\N`` for null; the JSON text holds no tab,
    newline or backslash: numbers, the models' keys and null only); the columns are
    :data:`_RECORD_COLUMNS`, a float written as ``repr`` writes it, exactly."""
    return "".join(
        [
            f"{list_id}\t{r.person}\t{r.event}\t{date_of[r.event]}\t{r.seq}\t{b.mu!r}\t"
            f"{b.sigma!r}\t{b.tables}\t{r.shown_before!r}\t{a.mu!r}\t{a.sigma!r}\t{a.tables}\t"
            f"{r.shown_after!r}\t{_NULL if r.spread_after is None else repr(r.spread_after)}\t"
            f"[{','.join(r.tables)}]\n"
            for r in rows
            for b, a in ((r.before, r.after),)
        ]
    )


def _store_records(list_id: int, date_of: dict[int, Any], rows: list[EventChanges]) -> None:
    """The new records, by PostgreSQL's COPY in its text format (a season's 15,000 written as
    a few large blocks)."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        columns = ", ".join(f'"{c}"' for c in _RECORD_COLUMNS)
        with connection.cursor() as cursor:
            with cursor.cursor.copy(
                f"COPY {PersonEventRating._meta.db_table} ({columns}) FROM STDIN"
            ) as copy:
                for at in range(0, len(rows), 2000):
                    copy.write(_copy_lines(list_id, date_of, rows[at : at + 2000]))
        return
    PersonEventRating.objects.bulk_create(
        [
            PersonEventRating(
                rating_list_id=list_id,
                person_id=r.person,
                event_id=r.event,
                event_date=date_of[r.event],
                seq=r.seq,
                mu_before=r.before.mu,
                sigma_before=r.before.sigma,
                tables_before=r.before.tables,
                shown_before=r.shown_before,
                mu_after=r.after.mu,
                sigma_after=r.after.sigma,
                tables_after=r.after.tables,
                shown_after=r.shown_after,
                spread_after=r.spread_after,
                changes=r.changes_json(),
            )  # fmt: skip
            for r in rows
        ],
        batch_size=1000,
    )


def ratings_recompute(*, list_id: int) -> RatingList:
    """Rate the list from its earliest changed event on and store it; returns the list.
    Running it again with nothing changed stores nothing new."""
    RatingList.objects.filter(pk=list_id).update(status=RatingList.Status.RUNNING)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # the job's own commit need not wait for the disk: a crash loses at most this
            # computation, whose request stays marked and is asked again (a consistent state)
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        _lock(list_id)  # the list's row is not locked: a request may ask again meanwhile
        row = RatingList.objects.get(pk=list_id)
        seen = row.requested
        model = model_for(row.model)
        spec = json.loads(json.dumps(model.spec()))
        scratch = row.from_scratch or row.spec != spec
        keys = rated_events(rating_list=row)
        digests = {} if scratch else dict(row.event_digests)
        if scratch:
            start = 0
        elif row.dirty_date is None:
            start = len(keys)
        else:
            dirty = (row.dirty_date, row.dirty_event or 0)
            start = next((i for i, (k, _s) in enumerate(keys) if k.as_tuple() >= dirty), len(keys))
        inputs = rated_inputs(keys=keys[start:])
        # events rated before that left the scope (marked unrated, left the series)
        gone = set(digests) - {str(k.event) for k, _s in keys}
        first_gone = min(
            Event.objects.filter(pk__in=[int(x) for x in gone]).values_list("starts_on", "pk"),
            default=None,
        )
        # skip the leading events whose inputs did not change (not past an event gone)
        skip = 0
        for item in inputs:
            if digests.get(str(item.key.event)) != item.digest:
                break
            if first_gone is not None and item.key.as_tuple() > tuple(first_gone):
                break
            skip += 1
        inputs = inputs[skip:]
        if scratch:
            _rate_from(row, model, None, inputs, scratch=True)
        elif inputs or first_gone is not None:
            from_key = inputs[0].key if inputs else None
            if first_gone is not None and (
                from_key is None or tuple(first_gone) < from_key.as_tuple()
            ):
                from_key = EventKey(*first_gone)
            _rate_from(row, model, from_key, inputs, scratch=False)
        for e in gone:
            digests.pop(e, None)
        digests.update({str(i.key.event): i.digest for i in inputs})
        now = timezone.now()
        common = {
            "event_digests": digests,
            "spec": spec,
            "computed": seen,
            "computed_at": now,
            "error": "",
        }
        done = RatingList.objects.filter(pk=list_id, requested=seen).update(
            **common,
            from_scratch=False,
            dirty_date=None,
            dirty_event=None,
            status=RatingList.Status.OK,
        )
        if not done:  # asked again meanwhile: its job follows (the marks stay)
            RatingList.objects.filter(pk=list_id).update(**common, status=RatingList.Status.PENDING)
        page_cache.changed(slug=row.slug, parts=(PAGE_PART,))  # the list's pages, after commit
    return RatingList.objects.get(pk=list_id)


def _rate_from(
    row: RatingList, model: Any, key: EventKey | None, inputs: list[Any], *, scratch: bool
) -> None:
    """Delete the stored changes from ``key`` on (all of them when ``scratch``), rate
    ``inputs`` from the states before it and store the changes and the current ratings."""
    changes = PersonEventRating.objects.filter(rating_list=row)
    ratings = PersonRating.objects.filter(rating_list=row)
    if scratch or key is None:
        start: dict[int, Any] = {}
        redo: set[int] | None = None  # every person's rating is stored again
    else:
        changes = changes.filter(
            Q(event_date__gt=key.date) | Q(event_date=key.date, event_id__gte=key.event)
        )
        # the persons whose stored rating counts an event from ``key`` on: their state before
        # it from their last change before it; the others who play now: their stored rating
        touched = set(changes.values_list("person_id", flat=True).distinct())
        playing = {r.person for i in inputs for t in i.rated.tables for r in t.results}
        start = states_before(rating_list=row, key=key, persons=touched)
        for person, mu, sigma, tables, event, played_on in ratings.filter(
            person_id__in=playing - touched
        ).values_list("person_id", "mu", "sigma", "tables", "last_event_id", "last_played"):
            start[person] = (mu, sigma, tables, event, played_on)
        redo = touched | playing
        ratings = ratings.filter(person_id__in=redo)
    changes._raw_delete(changes.db)  # no signals, no cascades: a plain DELETE
    states = {
        p: PlayerState(mu, sigma, tables, event)
        for p, (mu, sigma, tables, event, _d) in start.items()
    }
    played = {p: d for p, (*_x, d) in start.items()}
    # the season's input lives until the job ends: frozen, the garbage collector does not scan
    # its 180,000 objects at every collection while the rating allocates (a second of a season)
    gc.freeze()
    try:
        run = rate_events([i.rated for i in inputs], model, states, packer=Packer())
    finally:
        gc.unfreeze()
    date_of = {i.key.event: i.key.date for i in inputs}
    records = run.records
    for r in records:
        played[r.person] = date_of[r.event]
    _store_records(row.pk, date_of, records)
    ratings._raw_delete(ratings.db)
    PersonRating.objects.bulk_create(
        [
            PersonRating(
                rating_list=row,
                person_id=person,
                mu=s.mu,
                sigma=s.sigma,
                shown=model.shown(s),
                spread=model.spread(s),
                tables=s.tables,
                provisional=model.provisional(s),
                last_event_id=s.last_event,
                last_played=played[person],
            )
            for person, s in run.states.items()
        ],
        batch_size=2000,
    )


def ratings_mark_failed(*, list_id: int, error: str) -> None:
    """Record a failed recomputation (shown on the rating's page to its organisers)."""
    RatingList.objects.filter(pk=list_id).update(
        status=RatingList.Status.FAILED, error=error[:4000]
    )
