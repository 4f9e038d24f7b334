"""Standings: scheduling and running a recomputation (writes only; pages read the snapshot).

``standings_schedule`` is called after every change that can move the standings (a protocol
approved, reopened or changed, a ruling, a penalty): it counts the request and enqueues the
Celery task after the transaction commits. ``standings_recompute`` (what the task runs) is
idempotent and serialised per event by a PostgreSQL row lock on the event's snapshot.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tournaments import page_cache
from tournaments.models import Event, Job
from tournaments.models.standings import StandingsSnapshot

__all__ = [
    "standings_schedule",
    "standings_recompute",
    "standings_mark_failed",
    "snapshot_for",
    "jobs_queue",
    "standings_configure",
]

#: how many runs the snapshot keeps in its ``runs`` log
RUNS_KEPT = 20


def jobs_queue() -> str | None:
    """The Celery queue of the standings and PDF jobs (``PULKA_JOBS_QUEUE``; None: the
    default queue). The worker tests point it at their own worker."""
    return getattr(settings, "PULKA_JOBS_QUEUE", None) or None


def snapshot_for(*, event_id: int) -> StandingsSnapshot:
    """The event's snapshot row, created on first use (no lock; other fields load on access:
    ``data`` and ``protocol_stats`` are large)."""
    snapshot, _ = StandingsSnapshot.objects.only("id", "event_id").get_or_create(event_id=event_id)
    return snapshot


def standings_schedule(*, event_id: int) -> Job:
    """Ask for a recomputation of the event's standings; the job runs after the commit.

    Safe to call often and inside or outside a transaction: every call counts one request and
    writes one job row in the caller's transaction (``services.jobs.job_enqueue``: sent to the
    broker after the commit, or by the sweep once the broker is back); the task, when it runs,
    computes from the data committed by then; several requests queued at once cost one real
    computation each but store the same rows (the recomputation is idempotent). Returns the
    job (``state`` ``queued`` after the commit: the broker could not be reached yet).
    """
    from tournaments.services.jobs import job_enqueue

    snapshot = snapshot_for(event_id=event_id)
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(
        requested=F("requested") + 1, requested_at=timezone.now()
    )
    # the public pages say "pending" (page_cache: after the commit)
    page_cache.changed(event_id=event_id, parts=(page_cache.STANDINGS,))
    return job_enqueue(
        task="tournaments.standings_recompute",
        args=[event_id],
        queue=jobs_queue(),
        event_id=event_id,
    )


def _append_run(runs: list[dict[str, Any]], run: dict[str, Any]) -> list[dict[str, Any]]:
    return [*runs, run][-RUNS_KEPT:]


def _inputs_hash(payload: dict[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


#: first key of the PostgreSQL advisory lock of a standings recomputation (the second: event id)
LOCK_CLASS = 0x5354  # "ST"


def _lock_event(event_id: int) -> None:
    """Serialise the recomputations of one event across processes and machines.

    PostgreSQL: a transaction-level advisory lock, held until the computing transaction ends
    (a second worker waits here, then computes from the newer data). The snapshot row itself is
    locked only for the final write, so ``standings_schedule`` never waits for a computation.
    Other databases (the embedded SQLite default, one process): the snapshot row lock.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, event_id])
    else:
        StandingsSnapshot.objects.select_for_update().filter(event_id=event_id).exists()


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: a recompute allocates millions of small containers
    (no cycles among them), and the collector's passes over them cost a large share of the time
    (memory is still freed by reference counting; the collector resumes afterwards)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: deal statistics per protocol version already read or computed by this process (a version
#: never changes, so they stay valid); bounded, dropped whole when full
_known_stats: dict[str, Any] = {}
KNOWN_STATS_KEPT = 50_000


def _stats_cache(event_id: int, wanted: list[str]) -> tuple[dict[str, Any], bool]:
    """The statistics of the ``wanted`` protocol versions: from this process's memory when it
    knows them all (a worker's usual recompute, after one approval), else the stored cache
    (``protocol_stats``, decoded: about 1 MB at 1,000 players x 12 rounds); and whether they
    came from memory."""
    if all(pid in _known_stats for pid in wanted):
        return {pid: _known_stats[pid] for pid in wanted}, True
    stored = (
        StandingsSnapshot.objects.filter(event_id=event_id)
        .values_list("protocol_stats", flat=True)
        .get()
    )
    return stored or {}, False


def _remember_stats(stats: dict[str, Any]) -> None:
    if len(_known_stats) + len(stats) > KNOWN_STATS_KEPT:
        _known_stats.clear()
    _known_stats.update(stats)


def standings_recompute(*, event_id: int) -> StandingsSnapshot:
    """Recompute and store the event's standings; returns the snapshot.

    Two recomputations of one event never interleave (:func:`_lock_event`). Running it twice on
    unchanged data stores the same rows and the same ``inputs_hash`` (the second run reads only
    what the fingerprint needs and writes nothing but its run record).
    """
    from tournaments.selectors.standings import standings_inputs, standings_sources
    from tournaments.standings.table import compute_standings

    snapshot_for(event_id=event_id)
    # visible to the pages at once (autocommit)
    StandingsSnapshot.objects.filter(event_id=event_id).update(
        status=StandingsSnapshot.Status.RUNNING, started_at=timezone.now()
    )
    page_cache.changed(event_id=event_id, parts=(page_cache.STANDINGS,))
    with transaction.atomic():
        _lock_event(event_id)
        started = timezone.now()
        seen, old_hash = (
            StandingsSnapshot.objects.filter(event_id=event_id)
            .values_list("requested", "inputs_hash")
            .get()
        )
        event = Event.objects.get(pk=event_id)
        sources = standings_sources(event=event)
        digest = _inputs_hash(sources.fingerprint())
        fields = ["status", "computed", "computed_at", "started_at", "error", "attempts", "runs"]
        changes: dict[str, Any] = {}
        if digest != old_hash:
            with _no_cyclic_gc():
                cache, known = _stats_cache(
                    event_id, [str(p["id"]) for p in sources.chosen.values()]
                )
                inputs = standings_inputs(event=event, stats_cache=cache, sources=sources)
                _remember_stats(inputs.stats_cache)
                standings = compute_standings(
                    inputs.rows,
                    inputs.config,
                    inputs.adjustments,
                    inputs.entries,
                    inputs.no_result,
                )
                changes = {
                    "data": {**standings.as_json(), "meta": inputs.meta},
                    "inputs_hash": digest,
                }
            # stored again when new statistics were computed (or, read from the database, when
            # it holds others than the chosen versions'); what memory knew was stored before
            if inputs.stats_cache.keys() - cache.keys() or (
                not known and inputs.stats_cache.keys() != cache.keys()
            ):
                changes["protocol_stats"] = inputs.stats_cache
            outcome = "computed"
        else:
            outcome = "unchanged"
        snapshot = (
            StandingsSnapshot.objects.select_for_update()
            .only("id", "event_id", "requested", "computed", "runs")
            .get(event_id=event_id)
        )
        for name, value in changes.items():
            setattr(snapshot, name, value)
            fields.append(name)
        finished = timezone.now()
        snapshot.status = (
            StandingsSnapshot.Status.OK
            if snapshot.requested <= seen
            else StandingsSnapshot.Status.PENDING
        )
        snapshot.computed = max(snapshot.computed, seen)
        snapshot.computed_at = finished
        snapshot.started_at = started
        snapshot.error = ""
        snapshot.attempts = 0
        snapshot.runs = _append_run(
            snapshot.runs,
            {
                "started": started.isoformat(),
                "finished": finished.isoformat(),
                "pid": os.getpid(),
                "outcome": outcome,
            },
        )
        snapshot.save(update_fields=fields)
    return snapshot


def standings_mark_failed(*, event_id: int, error: str, final: bool) -> None:
    """Record a failed attempt, shown on the organiser's pages (``final``: no retry left)."""
    snapshot = snapshot_for(event_id=event_id)
    now = timezone.now()
    with transaction.atomic():
        locked = StandingsSnapshot.objects.select_for_update().get(pk=snapshot.pk)
        locked.attempts += 1
        locked.error = error[:4000]
        locked.status = (
            StandingsSnapshot.Status.FAILED if final else StandingsSnapshot.Status.PENDING
        )
        locked.runs = _append_run(
            locked.runs,
            {
                "started": (locked.started_at or now).isoformat(),
                "finished": now.isoformat(),
                "pid": os.getpid(),
                "outcome": "failed: " + error.splitlines()[0][:200] if error else "failed",
            },
        )
        locked.save()


@transaction.atomic
def standings_configure(*, event: Event, tiebreaks: list[Any], by=None) -> Event:
    """Set the event's tie-break chain (and round score) and recompute.

    :raises UserFacingError: naming the bad key (field ``tiebreaks``, rule 001 §4.1.3).
    """
    from django.utils.translation import gettext as _

    from tournaments.errors import UserFacingError
    from tournaments.services.audit import audit_log
    from tournaments.services.events import _tiebreaks_of, round_scores_of
    from tournaments.standings import config_from_json

    try:
        config_from_json(
            tiebreaks, allowed=_tiebreaks_of(event.variant), scores=round_scores_of(event.variant)
        )
    except ValueError as error:
        raise UserFacingError(
            _("Invalid tie-break chain: %(error)s") % {"error": error},
            {"field": "tiebreaks", "rule": "001 §4.1.3"},
        ) from error
    event = Event.objects.select_for_update().get(pk=event.pk)
    before = event.tiebreaks
    event.tiebreaks = list(tiebreaks)
    event.save(update_fields=["tiebreaks"])
    audit_log(
        event=event,
        action="standings.tiebreaks",
        by=by,
        data={"before": before, "after": event.tiebreaks},
    )
    standings_schedule(event_id=event.pk)
    return event
