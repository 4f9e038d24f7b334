"""Series (issue 39): writing a series and its events, and recomputing its table in a job.

``series_schedule`` is called after every change that can move a series' table: an event's
standings recomputed (``services.standings.standings_recompute`` calls
:func:`series_schedule_for_event`), an event added to or removed from the series, its rules
changed, two persons merged. A burst of requests runs one job, as the event's standings jobs
do: a request made while a job of the series waits joins it. ``series_standings_recompute``
(what the job runs) reads the events' stored standings, computes the table with the pure
``tournaments.standings.series`` and stores it in the series' snapshot; it is idempotent and
serialised per series by a PostgreSQL advisory lock. Never run inside a request.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules.variants import FAMILIES
from tournaments.errors import UserFacingError
from tournaments.jobs.outbox import job_enqueue, jobs_queue
from tournaments.models import (
    Event,
    Job,
    Organisation,
    Series,
    SeriesEvent,
    SeriesStandingsRow,
    SeriesStandingsSnapshot,
)
from tournaments.models.series import table_lines
from tournaments.selectors.series import series_inputs, series_of_event, series_rules
from tournaments.services.audit import audit_log
from tournaments.standings.series import SeriesComputation, SeriesRulesError
from tournaments.web_cache import versions as page_cache

__all__ = [
    "TASK",
    "series_create",
    "series_event_add",
    "series_event_remove",
    "series_mark_failed",
    "series_schedule",
    "series_schedule_for_event",
    "series_standings_recompute",
    "series_update",
]

#: the Celery task of a series' recomputation (its ``Job`` rows carry ``key`` "series:<id>")
TASK = "tournaments.series_standings_recompute"
#: first key of the PostgreSQL advisory lock of a series' recomputation (the second: its id)
LOCK_CLASS = 0x5345  # "SE"


def _job_key(series_id: int) -> str:
    return f"series:{series_id}"


def _snapshot_for(series_id: int) -> SeriesStandingsSnapshot:
    snapshot, _created = SeriesStandingsSnapshot.objects.only("id", "series_id").get_or_create(
        series_id=series_id
    )
    return snapshot


def _waiting_job(series_id: int) -> Job | None:
    return (
        Job.objects.filter(
            task=TASK, key=_job_key(series_id), state__in=(Job.State.QUEUED, Job.State.SENT)
        )
        .order_by("created_at", "pk")
        .first()
    )


def _follow_up(series_id: int, number: int) -> None:
    """After the commit of a request that joined a waiting job: a new job only when the waiting
    one started before this commit and no computation has counted this request
    (``services.standings._follow_up``, for a series)."""
    computed = (
        SeriesStandingsSnapshot.objects.filter(series_id=series_id)
        .values_list("computed", flat=True)
        .first()
    )
    if (computed is not None and computed >= number) or _waiting_job(series_id) is not None:
        return
    job_enqueue(task=TASK, args=[series_id], queue=jobs_queue(), key=_job_key(series_id))


def _pages_changed(series_id: int, person_ids: set[int] | frozenset[int] = frozenset()) -> None:
    """The series' public page and CSV changed (and the pages of ``person_ids``, whose rows
    in its table moved): their versions are replaced after the commit."""
    if page_cache.enabled():
        page_cache.series_changed(
            slugs=Series.objects.filter(pk=series_id).values_list("slug", flat=True)
        )
        page_cache.persons_changed(person_ids=sorted(person_ids))


def _moved_rows(old: dict[str, Any], new: dict[str, Any]) -> set[int]:
    """The persons whose row of a series' table differs between two stored heads (a person's
    page shows his place and total)."""

    def rows(head: dict[str, Any]) -> dict[int, tuple[Any, Any]]:
        if "order" in head:  # [person, place, place_label, shared, total, ...]
            return {line[0]: (line[2], line[4]) for line in head["order"]}
        return {r["person"]: (r["place_label"], r["total"]) for r in head.get("rows", [])}

    before, after = rows(old), rows(new)
    return {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}


def series_schedule(*, series_id: int) -> Job:
    """Ask for a recomputation of the series' table; the job runs after the commit. A request
    made while a job of the series waits joins it (one job for a burst)."""
    snapshot = _snapshot_for(series_id)
    SeriesStandingsSnapshot.objects.filter(pk=snapshot.pk).update(
        requested=F("requested") + 1, requested_at=timezone.now()
    )
    number = (
        SeriesStandingsSnapshot.objects.filter(pk=snapshot.pk)
        .values_list("requested", flat=True)
        .get()
    )
    _pages_changed(series_id)  # its page says "pending"
    waiting = _waiting_job(series_id)
    if waiting is not None:
        transaction.on_commit(lambda: _follow_up(series_id, number))
        return waiting
    return job_enqueue(task=TASK, args=[series_id], queue=jobs_queue(), key=_job_key(series_id))


def series_schedule_for_event(*, event_id: int) -> list[Job]:
    """An event's standings changed: recompute every series it belongs to."""
    return [series_schedule(series_id=s) for s in series_of_event(event_id=event_id)]


#: the series' tables kept in this process (a worker's), updated after an event's change
#: from the changed events' persons only; at most :data:`TABLES_KEPT` series
_tables: dict[int, SeriesComputation] = {}
TABLES_KEPT = 64


def _kept_table(series_id: int) -> SeriesComputation:
    table = _tables.get(series_id)
    if table is None:
        if len(_tables) >= TABLES_KEPT:
            _tables.clear()
        table = _tables[series_id] = SeriesComputation()
    return table


#: the table this process last wrote of each series: (the inputs' hash stored with it, each
#: person's cells as written, the head); while the stored hash is still that one, only the
#: rows whose cells differ are written again, and the stored head is not read again
_written: dict[int, tuple[str, dict[int, list[Any]], dict[str, Any]]] = {}


def _stored_head(snapshot: SeriesStandingsSnapshot, stored_hash: str) -> dict[str, Any]:
    """The head stored before this computation: as this process wrote it while the stored
    hash is the one written with it, else read."""
    written = _written.get(snapshot.series_id)
    if written is not None and stored_hash and written[0] == stored_hash:
        return written[2]
    return (
        SeriesStandingsSnapshot.objects.filter(pk=snapshot.pk).values_list("head", flat=True).get()
        or {}
    )


def _write_rows(
    snapshot: SeriesStandingsSnapshot,
    stored_hash: str,
    digest: str,
    head: dict[str, Any],
    cells: dict[int, list[Any]],
) -> int:
    """Store the table's rows (``SeriesStandingsRow``): only those whose cells changed when
    this process wrote the stored ones, all of them else. Returns how many were written."""
    series_id = snapshot.series_id
    written = _written.pop(series_id, None)
    rows = SeriesStandingsRow.objects.filter(snapshot=snapshot)
    if written is None or written[0] != stored_hash or not stored_hash:
        rows.delete()
        changed = list(cells)
    else:
        before = written[1]
        changed = [
            p for p, mine in cells.items() if (old := before.get(p)) is not mine and old != mine
        ]
        gone = [p for p in before if p not in cells]
        stale = [p for p in changed if p in before] + gone
        if stale:
            rows.filter(person_id__in=stale).delete()
    SeriesStandingsRow.objects.bulk_create(
        [SeriesStandingsRow(snapshot=snapshot, person_id=p, cells=cells[p]) for p in changed],
        batch_size=1000,
    )
    if len(_written) >= TABLES_KEPT:
        _written.clear()
    # kept at once: should the transaction roll back, the stored hash stays the old one, not
    # ``digest``, and the next write writes every row
    _written[series_id] = (digest, cells, head)
    return len(changed)


def _lock_series(series_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, series_id])
    else:
        SeriesStandingsSnapshot.objects.select_for_update().filter(series_id=series_id).exists()


def series_standings_recompute(*, series_id: int) -> SeriesStandingsSnapshot:
    """Recompute and store the series' table; returns the snapshot. Running it again on
    unchanged inputs stores nothing new (the inputs' hash is the same)."""
    _snapshot_for(series_id)
    SeriesStandingsSnapshot.objects.filter(series_id=series_id).update(
        status=SeriesStandingsSnapshot.Status.RUNNING
    )
    with transaction.atomic():
        _lock_series(series_id)
        seen, old_hash = (
            SeriesStandingsSnapshot.objects.filter(series_id=series_id)
            .values_list("requested", "inputs_hash")
            .get()
        )
        series = Series.objects.get(pk=series_id)
        inputs = series_inputs(series=series)
        digest = inputs.digest
        snapshot = (
            SeriesStandingsSnapshot.objects.select_for_update()
            .defer("head")
            .get(series_id=series_id)
        )
        moved: set[int] = set()
        if digest != old_hash:  # else nothing changed: no event's standings are read
            events, event_info, unlinked = inputs.events()
            table = _kept_table(series_id)
            standings = table.update(events, inputs.rules)
            head, cells = standings.as_parts(table.cells_stored)
            head["event_info"] = {str(k): v for k, v in event_info.items()}
            head["unlinked"] = unlinked
            moved = _moved_rows(_stored_head(snapshot, old_hash), head)
            _write_rows(snapshot, old_hash, digest, head, cells)
            snapshot.head = head
            snapshot.inputs_hash = digest
        snapshot.status = (
            SeriesStandingsSnapshot.Status.OK
            if snapshot.requested <= seen
            else SeriesStandingsSnapshot.Status.PENDING
        )
        snapshot.computed = max(snapshot.computed, seen)
        snapshot.computed_at = timezone.now()
        snapshot.error = ""
        snapshot.save()
        _pages_changed(series_id, moved)  # its state at least: "pending" no more
    return snapshot


def series_mark_failed(*, series_id: int, error: str) -> None:
    """Record a failed recomputation (shown on the organiser's series page)."""
    _snapshot_for(series_id)
    SeriesStandingsSnapshot.objects.filter(series_id=series_id).update(
        status=SeriesStandingsSnapshot.Status.FAILED, error=error[:4000]
    )
    _pages_changed(series_id)


# --- writing a series --------------------------------------------------------------------------

RULE_FIELDS = ("points", "place_points", "best_of", "min_events", "tiebreaks")


def _check_rules(series: Series) -> None:
    try:
        series_rules(series)
    except SeriesRulesError as error:
        raise UserFacingError(
            _("The series' rule %(field)s cannot be applied: %(error)s")
            % {"field": error.field, "error": error},
            {"field": error.field},
        ) from error


def _check_family(family: str) -> None:
    if family not in FAMILIES:
        raise UserFacingError(
            _("Unknown rule family %(family)s.") % {"family": family}, {"field": "family"}
        )


@transaction.atomic
def series_create(
    *,
    organisation: Organisation,
    slug: str,
    name: str,
    family: str,
    season: str = "",
    by=None,
    **rules: Any,
) -> Series:
    """A new series of ``organisation`` (its rules: :data:`RULE_FIELDS`, the defaults when not
    given).

    :raises UserFacingError: naming the field (a slug taken, an unknown family, a rule that
        cannot be applied).
    """
    unknown = sorted(set(rules) - set(RULE_FIELDS))
    if unknown:
        raise UserFacingError(
            _("Unknown field %(field)s.") % {"field": unknown[0]}, {"field": unknown[0]}
        )
    if not name.strip():
        raise UserFacingError(_("A series needs a name."), {"field": "name"})
    if Series.objects.filter(slug=slug).exists():
        raise UserFacingError(
            _("The short name %(slug)s is taken.") % {"slug": slug}, {"field": "slug"}
        )
    _check_family(family)
    series = Series(
        organisation=organisation, slug=slug, name=name.strip(), family=family, season=season
    )
    for key, value in rules.items():
        setattr(series, key, value)
    _check_rules(series)
    series.save()
    series_schedule(series_id=series.pk)
    return series


@transaction.atomic
def series_update(*, series: Series, by=None, **fields: Any) -> Series:
    """Change a series' name, season, publication or rules; its table is recomputed."""
    allowed = {"name", "season", "published", *RULE_FIELDS}
    unknown = sorted(set(fields) - allowed)
    if unknown:
        raise UserFacingError(
            _("Unknown field %(field)s.") % {"field": unknown[0]}, {"field": unknown[0]}
        )
    series = Series.objects.select_for_update().get(pk=series.pk)
    shown_before = (series.name, series.published)
    for key, value in fields.items():
        setattr(series, key, value)
    _check_rules(series)
    series.save()
    if (series.name, series.published) != shown_before:  # its events' pages link it
        for event_id in series.series_events.values_list("event_id", flat=True):
            page_cache.changed(event_id=event_id)
        # and its persons' pages name it (when it is published)
        stored = (
            SeriesStandingsSnapshot.objects.filter(series=series)
            .values_list("head", flat=True)
            .first()
        )
        _pages_changed(series.pk, {r["person"] for r in table_lines(stored or {})})
    elif page_cache.enabled():
        page_cache.series_changed(slugs=[series.slug])
    series_schedule(series_id=series.pk)
    return series


def _weight(value: Any) -> Decimal:
    try:
        weight = Decimal(str(value))
    except InvalidOperation:
        weight = Decimal(-1)
    if not weight.is_finite() or weight < 0 or weight >= 1000:
        raise UserFacingError(
            _("The weight %(value)s is not a number from 0 to 999.") % {"value": value},
            {"field": "weight"},
        )
    return weight


@transaction.atomic
def series_event_add(
    *, series: Series, event: Event, category: str = "", weight: Any = 1, by=None
) -> SeriesEvent:
    """Add an event to a series (or change its category and weight). The event must play the
    series' rule family; an event may belong to several series.

    :raises UserFacingError: naming the field.
    """
    if event.family.key != series.family:
        language = (get_language() or "en").split("-")[0]
        raise UserFacingError(
            _("%(event)s plays %(family)s; the series counts events of %(series_family)s only.")
            % {
                "event": event.name,
                "family": event.family.name_in(language),
                "series_family": FAMILIES[series.family].name_in(language),
            },
            {"field": "event"},
        )
    link, _created = SeriesEvent.objects.update_or_create(
        series=series,
        event=event,
        defaults={"category": category.strip()[:40], "weight": _weight(weight)},
    )
    page_cache.changed(event_id=event.pk)  # its page links the series
    audit_log(
        event=event,
        action="series.event_added",
        by=by,
        data={"series": series.pk, "category": link.category, "weight": str(link.weight)},
    )
    series_schedule(series_id=series.pk)
    return link


@transaction.atomic
def series_event_remove(*, series: Series, event: Event, by=None) -> None:
    """Take an event out of a series; its table is recomputed without it."""
    deleted, _kinds = SeriesEvent.objects.filter(series=series, event=event).delete()
    if not deleted:
        raise UserFacingError(
            _("%(event)s is not an event of %(series)s.")
            % {"event": event.name, "series": series.name},
            {"field": "event"},
        )
    page_cache.changed(event_id=event.pk)
    audit_log(event=event, action="series.event_removed", by=by, data={"series": series.pk})
    series_schedule(series_id=series.pk)
