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

from tournaments.models import Event, Job
from tournaments.models.standings import StandingsSnapshot

__all__ = [
    "standings_schedule",
    "standings_sweep",
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


#: the Celery task of a standings recomputation (its ``Job`` rows)
TASK = "tournaments.standings_recompute"


def standings_schedule(*, event_id: int) -> Job:
    """Ask for a recomputation of the event's standings; the job runs after the commit.

    Safe to call often and inside or outside a transaction: every call counts one request
    (``requested``). A burst of requests runs one recomputation (issue 28): when a job of the
    event is already waiting (``queued`` or ``sent``, not started by a worker), it is returned
    and no new job is written; it reads the data when it starts, after this commit. A job that a
    worker started meanwhile may have read the data before this commit, so after the commit
    :func:`_follow_up` checks again and writes a new job when none is waiting any more and no
    computation has included this request. Otherwise one job row is written in the caller's
    transaction (``services.jobs.job_enqueue``: sent to the broker after the commit, or by the
    sweep once the broker is back). The recomputation is idempotent, so an extra job costs a
    quick "unchanged" run, never a wrong result. Returns the job (``state`` ``queued`` after the
    commit: the broker could not be reached yet).
    """
    from tournaments.services.jobs import job_enqueue

    snapshot = snapshot_for(event_id=event_id)
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(
        requested=F("requested") + 1, requested_at=timezone.now()
    )
    # this request's number: unique (the update above holds the row until the commit)
    number = StandingsSnapshot.objects.filter(pk=snapshot.pk).values_list("requested", flat=True)
    number = number.get()
    waiting = _waiting_job(event_id)
    if waiting is not None:
        transaction.on_commit(lambda: _follow_up(event_id, number))
        return waiting
    return job_enqueue(task=TASK, args=[event_id], queue=jobs_queue(), event_id=event_id)


def _waiting_job(event_id: int) -> Job | None:
    """The event's standings job that no worker has started yet (the oldest), if any."""
    return (
        Job.objects.filter(
            task=TASK, event_id=event_id, state__in=(Job.State.QUEUED, Job.State.SENT)
        )
        .order_by("created_at", "pk")
        .first()
    )


def _follow_up(event_id: int, number: int) -> None:
    """After the commit of request ``number`` that joined a waiting job: nothing to do when a
    job still waits (it starts after this commit, so it reads this request's data) or when a
    computation already counted this request (``computed >= number``: it read the request
    counter after this commit); else the job was started before the commit, and a new one is
    written and sent."""
    from tournaments.services.jobs import job_enqueue

    computed = (
        StandingsSnapshot.objects.filter(event_id=event_id).values_list("computed", flat=True)
    ).first()
    if (computed is not None and computed >= number) or _waiting_job(event_id) is not None:
        return
    job_enqueue(task=TASK, args=[event_id], queue=jobs_queue(), event_id=event_id)


def standings_sweep(*, now=None, grace: float = 60.0) -> int:
    """Ask again for the recomputations that a request asked for but no job carries (the
    process stopped between a request's commit and its :func:`_follow_up`): events whose
    snapshot has ``requested > computed`` for more than ``grace`` seconds, not failed, with no
    standings job queued, sent or running. Returns how many were asked for (the job sweep
    calls it)."""
    from datetime import timedelta

    from tournaments.services.jobs import job_enqueue

    now = now or timezone.now()
    active = Job.objects.filter(
        task=TASK, state__in=(Job.State.QUEUED, Job.State.SENT, Job.State.RUNNING)
    ).values("event_id")
    stale = (
        StandingsSnapshot.objects.filter(
            requested__gt=F("computed"), requested_at__lt=now - timedelta(seconds=grace)
        )
        .exclude(status=StandingsSnapshot.Status.FAILED)
        .exclude(event_id__in=active)
        .values_list("event_id", flat=True)[:200]
    )
    events = list(stale)
    for event_id in events:
        job_enqueue(task=TASK, args=[event_id], queue=jobs_queue(), event_id=event_id)
    return len(events)


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
