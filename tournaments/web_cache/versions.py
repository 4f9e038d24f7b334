"""The versions of an event's public pages, kept in the cache so that an anonymous viewer's
page is served without the database (issue 28; the serving side is ``views.caching``).

Two versions per event, each a random token under a key named by the event's slug (a page's URL
names the slug, so one cache read finds both):

- ``EVENT`` — anything the event's page, a round's public page or a player's page shows
  besides the standings: the event's fields and publication, its rounds (draw, publication,
  start, close, seed commitments, seating corrections), tables and seats, entries (checked in,
  withdrawn, substitute), players (a rename or any edit, in the admin too) and penalties;
- ``STANDINGS`` — the stored standings: a recomputation asked for (the pages say "pending"),
  running, stored or failed.

A duplicate event's pages (issue 43: the duplicate standings and the boards' travellers with
their hand records) depend on ``EVENT`` (the rounds' states reveal the hand records and the
seed; the tables and names) and on one more:

- ``DUPLICATE`` — the event's duplicate option and shares, its boards (dealt or read), a
  table's or a referee's result on a board (entered, corrected, adjusted) and the comparison
  scores the rescoring job stores (``services.duplicate`` calls :func:`changed` for the writes
  in bulk; the receivers below catch the saves of the option and of a result, in the admin
  too).

Two more for the leagues and cups (issue 39), under the series' slug and the person's id:

- ``SERIES`` — a series' page and CSV: its stored table and the state of its recomputation
  (``services.series`` after each), its name, rules and publication, the names of its events
  (an event saved) and of its persons (a person saved or deleted: renamed, shown by initials,
  erased, merged);
- ``PERSON`` — a person's page across events: the person saved or deleted, entries moved to or
  from him (a registration linking him, a merge: the services call :func:`persons_changed`),
  the stored standings of an event he entered (``services.standings``, after the job stored
  them: :func:`event_persons_changed`), an event of his saved (its name, its publication), his
  row in a series' table (``services.series``, the rows that moved).

A change replaces the token **after its transaction commits** (``changed``): the receivers below
catch every ``save()`` and ``delete()`` of those models (services, the admin, the archive
import; a seat's ``save()`` only: the services that delete seats call ``round_changed``, and the
admin saves the table whose seats it deletes), and the services that write with ``QuerySet.update()`` call ``changed`` themselves
(``services.rounds.round_changed``, the standings' scheduling and running,
``entries_check_in_all``, a ruling reversed). A reader takes the tokens **before** it reads the
database (``tokens``), and a page rendered from the database is stored under the tokens read
before it: a change committed meanwhile has replaced them, so that page is never served for the
newer state. A token that is missing (evicted, Redis restarted) is made afresh, which sends
every page of that event back to the database once. If the cache cannot be reached when a change
commits, the token is not replaced: tokens expire after ``TOKEN_SECONDS`` so that such a page is
stale at most that long (the error is logged).

The cache must be shared by every process that changes or serves pages (Redis: ``CACHE_URL``);
``PULKA_PAGE_CACHE`` (default: on unless the cache is the process's memory) switches the
anonymous fast path on; the embedded demo (one process) switches it on with its memory cache.
Switched off, no token is replaced either (nobody reads them): switch every process alike.

A rename also bumps ``Round.public_version`` of the player's events (the round page's fragment
and the logged-in viewers' ETag are keyed by it) and asks for the standings to be recomputed
(their rows carry the names they were computed with): ``services.standings.connect``, beside
:func:`connect` in the app's ``ready()`` (this module imports no service).
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Q
from django.db.models.signals import post_delete, post_save, pre_save
from django.utils import timezone

from tournaments.models import (
    Board,
    BoardResult,
    DuplicateEvent,
    Entry,
    Event,
    EventPenalty,
    Person,
    Round,
    Seat,
    Series,
    StandingsSnapshot,
    Table,
)
from tournaments.web_cache.backend import unreachable

log = logging.getLogger("pulka.page_cache")

__all__ = [
    "DUPLICATE",
    "EVENT",
    "PERSON",
    "SERIES",
    "STANDINGS",
    "Unreachable",
    "changed",
    "connect",
    "enabled",
    "event_persons_changed",
    "persons_changed",
    "series_changed",
    "tokens",
]

EVENT = "e"
STANDINGS = "s"
#: a duplicate event's boards, results and comparison scores (issue 43)
DUPLICATE = "d"
#: a series' page and CSV (the token under the series' slug) and a person's page (under his id)
SERIES = "r"
PERSON = "p"
#: how long a token lives without a change (bounds the staleness of a change whose cache write
#: failed; an expired token only sends the pages back to the database once)
TOKEN_SECONDS = 600

_pending = threading.local()


class Unreachable(Exception):
    """The cache's server is out of reach: no version can be read (the database path)."""


def enabled() -> bool:
    return bool(getattr(settings, "PULKA_PAGE_CACHE", False))


def _key(slug: str, part: str) -> str:
    return f"pulka:pv:{part}:{slug}"


def tokens(slug: str, parts: Iterable[str], also: Iterable[str] = ()) -> tuple[dict, dict]:
    """The current token of each of ``parts`` for the event ``slug`` (made where missing), and
    the values found under the keys ``also`` (a stored page), in one cache read when the tokens
    exist. Raises what the cache raises when it cannot be reached, or :class:`Unreachable`
    when the cache answered as an empty one because its server is out of reach (``.backend``):
    the caller renders from the database."""
    keys = {_key(slug, p): p for p in parts}
    extra = list(also)
    found = cache.get_many([*keys, *extra])
    missing = [k for k in keys if k not in found]
    if missing:
        for k in missing:
            cache.add(k, secrets.token_hex(8), TOKEN_SECONDS)
        found.update(cache.get_many(missing))
    if unreachable(cache):
        raise Unreachable("the cache's server is out of reach")
    return {keys[k]: found.get(k, "") for k in keys}, {k: found[k] for k in extra if k in found}


def changed(
    *,
    event_id: int | None = None,
    slug: str | None = None,
    round_id: int | None = None,
    parts: Iterable[str] = (EVENT,),
    rounds: bool = False,
) -> None:
    """What the public pages of an event show has changed: its tokens in ``parts`` are replaced
    after the current transaction commits (at once outside one). The event is named by its id,
    its slug or one of its rounds. With ``rounds``, ``Round.public_version`` is bumped too (of
    that round, or of every round of the event), in one query after the commit."""
    if not rounds and not enabled():
        return  # nobody reads the tokens (every process must switch the cache alike)
    state = _pending.__dict__.setdefault("items", set())
    first = not state
    for part in parts:
        state.add((event_id, slug, round_id, part))
    if rounds:
        state.add((event_id, None, round_id, "db"))
    # one callback per transaction, registered with its first change (and again when a
    # savepoint rolled back took it)
    connection = transaction.get_connection()
    if first or not any(hook[1] is _flush for hook in connection.run_on_commit):
        transaction.on_commit(_flush)


def _flush() -> None:
    items = _pending.__dict__.pop("items", set())
    if not items:
        return
    if not enabled():
        items = {i for i in items if i[3] == "db"}
    db_events = {e for e, _s, r, p in items if p == "db" and r is None and e is not None}
    db_rounds = {r for _e, _s, r, p in items if p == "db" and r is not None}
    if db_events or db_rounds:
        Round.objects.filter(Q(event_id__in=db_events) | Q(pk__in=db_rounds)).update(
            public_version=F("public_version") + 1, public_changed_at=timezone.now()
        )
    items = {i for i in items if i[3] != "db"}
    by_slug: dict[str, set[str]] = {}
    ids = {e for e, _s, _r, _p in items if e is not None}
    round_ids = {r for _e, _s, r, _p in items if r is not None}
    slug_of = dict(Event.objects.filter(pk__in=ids).values_list("pk", "slug")) if ids else {}
    round_slug = (
        dict(Round.objects.filter(pk__in=round_ids).values_list("pk", "event__slug"))
        if round_ids
        else {}
    )
    for event_id, slug, round_id, part in items:
        for s in (slug, slug_of.get(event_id), round_slug.get(round_id)):
            if s:
                by_slug.setdefault(s, set()).add(part)
    if not by_slug:
        return
    try:
        cache.set_many(
            {_key(s, p): secrets.token_hex(8) for s, ps in by_slug.items() for p in ps},
            TOKEN_SECONDS,
        )
    except Exception:  # the change is committed; the pages catch up when the tokens expire
        log.exception("public pages' versions not replaced: %s", sorted(by_slug))


def series_changed(*, slugs: Iterable[str]) -> None:
    """The pages of these series (by slug) changed: their tokens are replaced after the commit."""
    for slug in slugs:
        changed(slug=slug, parts=(SERIES,))


def persons_changed(*, person_ids: Iterable[int | None]) -> None:
    """The pages of these persons changed: their tokens are replaced after the commit."""
    for person_id in person_ids:
        if person_id is not None:
            changed(slug=str(person_id), parts=(PERSON,))


def event_persons_changed(*, event_id: int) -> None:
    """What an event shows of its players changed (its stored standings, its name or
    publication): the pages of its entries' persons (one query; none when nobody reads the
    tokens)."""
    if enabled():
        persons_changed(
            person_ids=Entry.objects.filter(event_id=event_id, person__isnull=False)
            .values_list("person_id", flat=True)
            .distinct()
        )


# --- what changes the public pages -----------------------------------------------------------


def _event_saving(sender, instance, raw=False, **kwargs) -> None:
    if raw or instance.pk is None:
        return
    old = sender.objects.filter(pk=instance.pk).values_list("slug", flat=True).first()
    if old and old != instance.slug:
        changed(slug=old, parts=(EVENT, STANDINGS))


def _event_changed(sender, instance, raw=False, **kwargs) -> None:
    if raw:
        return
    changed(slug=instance.slug, parts=(EVENT, STANDINGS))
    if enabled() and instance.pk is not None:  # its series and its persons show its name
        series_changed(
            slugs=Series.objects.filter(series_events__event_id=instance.pk).values_list(
                "slug", flat=True
            )
        )
        if kwargs.get("signal") is post_save:
            event_persons_changed(event_id=instance.pk)


def _person_changed(sender, instance, raw=False, **kwargs) -> None:
    """A person saved or deleted (renamed, shown by initials, erased, merged): his page and the
    pages of the series whose tables show him."""
    if raw or not enabled():
        return
    persons_changed(person_ids=[instance.pk])
    if kwargs.get("signal") is post_save and not kwargs.get("created"):
        series_changed(
            slugs=Series.objects.filter(series_events__event__entries__person_id=instance.pk)
            .values_list("slug", flat=True)
            .distinct()
        )


#: fields of an entry that a round's public page shows (its player, a substitute seated)
_ENTRY_SHOWN = {"player", "player_id", "substitute"}


def _entry_changed(sender, instance, raw=False, **kwargs) -> None:
    if raw:
        return
    fields = kwargs.get("update_fields")
    if fields is not None and set(fields) <= {"url_key"}:
        return  # a new private link: no public page shows it
    shown = fields is None or bool(set(fields) & _ENTRY_SHOWN)
    changed(event_id=instance.event_id, rounds=shown)


#: fields of a round that no public page shows (a draw job's progress)
_ROUND_PRIVATE = {"draw_job_id", "draw_job_started_at", "draw_job_error", "draw_job_progress"}


def _round_changed(sender, instance, raw=False, **kwargs) -> None:
    if raw:
        return
    fields = kwargs.get("update_fields")
    if fields is not None and set(fields) <= _ROUND_PRIVATE | {"public_version"}:
        return
    changed(event_id=instance.event_id)
    if kwargs.get("signal") is post_save:
        changed(round_id=instance.pk, parts=(), rounds=True)


def _seating_changed(sender, instance, raw=False, **kwargs) -> None:
    """A table or a seat saved, a table deleted (the admin; the services also call
    ``services.rounds.round_changed``)."""
    if raw:
        return
    changed(round_id=instance.round_id, rounds=True)


def _penalty_changed(sender, instance, raw=False, **kwargs) -> None:
    if raw:
        return
    changed(event_id=instance.event_id, parts=(EVENT, STANDINGS))


def _snapshot_changed(sender, instance, raw=False, **kwargs) -> None:
    if raw:
        return
    changed(event_id=instance.event_id, parts=(STANDINGS,))


def _duplicate_changed(sender, instance, raw=False, **kwargs) -> None:
    """A duplicate option or a board's result saved or deleted (services, admin)."""
    if raw or not enabled():
        return
    event_id = getattr(instance, "event_id", None)
    if event_id is None:  # a board's result: its board's event
        event_id = Board.objects.filter(pk=instance.board_id).values_list("event_id", flat=True).first()
    if event_id is not None:
        changed(event_id=event_id, parts=(DUPLICATE,))


def connect() -> None:
    """Called by the app's ``ready()`` (a player's edit: ``services.standings.connect``)."""
    uid = "pulka.page_cache"
    pre_save.connect(_event_saving, sender=Event, dispatch_uid=f"{uid}.event.pre")
    post_save.connect(_event_changed, sender=Event, dispatch_uid=f"{uid}.event")
    post_delete.connect(_event_changed, sender=Event, dispatch_uid=f"{uid}.event.del")
    # a seat only saved: a signal per deleted seat would slow a redraw down (the services that
    # delete seats call round_changed, and the admin saves the table whose seats it deletes)
    post_save.connect(_seating_changed, sender=Seat, dispatch_uid=f"{uid}.seat")
    for model, receiver in (
        (Entry, _entry_changed),
        (Round, _round_changed),
        (Table, _seating_changed),
        (EventPenalty, _penalty_changed),
        (StandingsSnapshot, _snapshot_changed),
        (Person, _person_changed),
        (DuplicateEvent, _duplicate_changed),
        (BoardResult, _duplicate_changed),
    ):
        name = model.__name__.lower()
        post_save.connect(receiver, sender=model, dispatch_uid=f"{uid}.{name}")
        post_delete.connect(receiver, sender=model, dispatch_uid=f"{uid}.{name}.del")
