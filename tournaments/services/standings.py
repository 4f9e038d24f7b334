"""Standings: scheduling and running a recomputation (writes only; pages read the snapshot).

``standings_schedule`` is called after every change that can move the standings (a protocol
approved, reopened or changed, a ruling, a penalty): it counts the request and enqueues the
Celery task after the transaction commits. ``standings_recompute`` (what the task runs) is
idempotent and serialised per event by a PostgreSQL row lock on the event's snapshot.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.db.models.signals import post_save
from django.utils import timezone

from tournaments.jobs.outbox import job_enqueue, jobs_queue
from tournaments.models import Entry, Event, Job, Player, ProtocolStats, Round, StandingsPart
from tournaments.models.standings import StandingsSnapshot
from tournaments.selectors.standings import load_stored
from tournaments.selectors.standings_inputs import (
    counts_as_chosen,
    facts_of,
    players_part,
    standings_sources,
    table_rows,
)
from tournaments.services.ratings import ratings_schedule_for_event
from tournaments.services.series import series_schedule_for_event
from tournaments.standings.book import StandingsBook, no_cyclic_gc
from tournaments.web_cache import versions as page_cache
from tournaments.web_cache import warm as page_warm

__all__ = [
    "standings_schedule",
    "standings_sweep",
    "standings_recompute",
    "standings_mark_failed",
    "snapshot_for",
    "jobs_queue",
    "connect",
]

#: how many runs the snapshot keeps in its ``runs`` log
RUNS_KEPT = 20


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
    transaction (``jobs.outbox.job_enqueue``: sent to the broker after the commit, or by the
    sweep once the broker is back). The recomputation is idempotent, so an extra job costs a
    quick "unchanged" run, never a wrong result. Returns the job (``state`` ``queued`` after the
    commit: the broker could not be reached yet).
    """
    snapshot = snapshot_for(event_id=event_id)
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(
        requested=F("requested") + 1, requested_at=timezone.now()
    )
    # the public pages say "pending" (page_cache: after the commit)
    page_cache.changed(event_id=event_id, parts=(page_cache.STANDINGS,))
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


#: facts (results and deal statistics) per protocol version already read or computed by this
#: process (a version never changes, so they stay valid); bounded, dropped whole when full
_known_facts: dict[int, Any] = {}
KNOWN_FACTS_KEPT = 50_000


def _remember_facts(facts: dict[int, Any]) -> None:
    if len(_known_facts) + len(facts) > KNOWN_FACTS_KEPT:
        _known_facts.clear()
    _known_facts.update(facts)


@dataclass
class _Kept:
    """What this process's last computation of an event stored: valid for the next one while
    the snapshot still has its ``inputs_hash`` (no other process computed since)."""

    snapshot_id: int
    inputs_hash: str
    globals_key: tuple[Any, ...]
    sources: Any  # StandingsSources: its tables, seats and chosen protocols
    book: Any  # StandingsBook
    head: dict[str, Any]
    parts: dict[str, Any]


#: the last computation per event in this process (a worker's usual job reads one table)
_kept: dict[int, _Kept] = {}
KEPT_EVENTS = 4


def _table_part(sources, book, table_id: int, p: dict[str, Any], warnings: list[Any]) -> dict:
    _, round_number, table_number = sources.tables[table_id]
    return {
        **book.table_part(table_id),
        "round": round_number,
        "table": table_id,
        "table_number": table_number,
        "protocol": {"id": p["id"], "approved": p["approved"], "version": p["version"]},
        "warnings": warnings,
    }


def _compute(event_id: int, snapshot_id: int, old_hash: str, sources, digest: str):
    """The new head and parts of the event's standings: ``(kept, writes, deletes, mode)``.

    Incremental when this process computed the stored version and only tables changed
    (protocols approved, reopened or changed, seats): those tables' rows are replaced in the
    book (:class:`~tournaments.standings.book.StandingsBook`), their players' records
    recomputed, everyone re-sorted; only the parts that differ are written. Otherwise
    (another process computed meanwhile, a new worker, the tie-break chain, an entry, a
    round's state or a penalty changed) every table is read again, and still only the parts
    that differ from the stored ones are written.
    """
    kept = _kept.pop(event_id, None)  # taken: put back only after a successful commit
    if kept is not None and (kept.snapshot_id != snapshot_id or kept.inputs_hash != old_hash):
        kept = None
    globals_key = sources.globals_key()
    if kept is not None and kept.globals_key == globals_key:
        mode = "incremental"
        book, old_head, old_parts = kept.book, kept.head, kept.parts
        changed = sources.tables_changed(kept.sources)
    else:
        mode = "full"
        book = StandingsBook(sources.config, sources.adjustments, [e[0] for e in sources.entries])
        if kept is not None:
            old_head, old_parts = kept.head, kept.parts
        else:
            old_head, old_parts = load_stored(snapshot_id)
        changed = list(sources.tables)
    ids = [sources.chosen[t]["id"] for t in changed if t in sources.chosen]
    facts, computed = facts_of(ids, _known_facts)
    if computed:
        ProtocolStats.objects.bulk_create(
            [ProtocolStats(protocol_id=pid, data=f) for pid, f in computed.items()],
            ignore_conflicts=True,
            batch_size=1000,
        )
    _remember_facts(facts)
    ranked_entries = {e[0] for e in sources.entries}
    closed = {n for n, state in sources.rounds.items() if state == Round.State.CLOSED}
    new: dict[str, Any] = {}
    gone: set[str] = set()
    for t in sorted(changed):
        key = f"t:{t}"
        p = sources.chosen.get(t)
        f = facts.get(p["id"]) if p else None
        if t not in sources.tables:
            book.remove_table(t)
            gone.add(key)
        elif counts_as_chosen(p, f):
            rows, warnings = table_rows(sources, t, f, ranked_entries)
            book.set_table(t, rows)
            new[key] = _table_part(sources, book, t, p, warnings)
        else:
            _, round_number, _n = sources.tables[t]
            if round_number in closed:
                seated = sources.seats.get(t, {}).values()
                book.set_table(t, [], no_result=[(e, round_number) for e in seated])
            else:
                book.remove_table(t)
            gone.add(key)
    ranked = book.standings()
    by_entry = {r.entry: r for r in ranked}
    for e in book.take_changed():
        if e in by_entry:
            new[f"r:{e}"] = book.row_part(by_entry[e])
    new["order"] = book.order_part()
    if mode == "full":
        new["players"] = players_part(sources)
        gone |= old_parts.keys() - new.keys()
    else:
        gone |= {k for k in old_parts if k.startswith("r:") and int(k[2:]) not in by_entry}
    gone -= new.keys()
    head = {
        **book.head_part(),
        "round_states": {str(k): v for k, v in sources.rounds.items()},
    }
    writes = {k: v for k, v in new.items() if old_parts.get(k) != v}
    deletes = gone & old_parts.keys()
    parts = dict(old_parts) if mode == "full" else old_parts
    parts.update(writes)
    for k in deletes:
        del parts[k]
    result = _Kept(snapshot_id, digest, globals_key, sources, book, head, parts)
    return result, writes, deletes, head if head != old_head else None, mode


def _store_parts(snapshot_id: int, writes: dict[str, Any], deletes: set[str]) -> int:
    """Write the changed parts (one upsert statement per 500) and delete the gone ones. Plain
    SQL on PostgreSQL: Django's bulk insert sends each column as one array literal, and
    quoting the JSON texts into it cost more than the whole incremental recomputation."""
    size = 0
    if writes and connection.vendor == "postgresql":
        table = StandingsPart._meta.db_table
        items = [(k, json.dumps(v, separators=(",", ":"))) for k, v in sorted(writes.items())]
        size = sum(len(text) for _k, text in items)
        with connection.cursor() as cursor:
            for start in range(0, len(items), 500):
                chunk = items[start : start + 500]
                cursor.execute(
                    f"INSERT INTO {table} (snapshot_id, key, data) VALUES "
                    + ", ".join(["(%s, %s, %s::jsonb)"] * len(chunk))
                    + " ON CONFLICT (snapshot_id, key) DO UPDATE SET data = EXCLUDED.data",
                    [x for k, text in chunk for x in (snapshot_id, k, text)],
                )
    elif writes:
        StandingsPart.objects.bulk_create(
            [StandingsPart(snapshot_id=snapshot_id, key=k, data=v) for k, v in writes.items()],
            update_conflicts=True,
            unique_fields=["snapshot", "key"],
            update_fields=["data"],
            batch_size=500,
        )
    if deletes:
        StandingsPart.objects.filter(snapshot_id=snapshot_id, key__in=sorted(deletes)).delete()
    return size


def standings_recompute(*, event_id: int) -> StandingsSnapshot:
    """Recompute and store the event's standings; returns the snapshot.

    Two recomputations of one event never interleave (:func:`_lock_event`). Running it twice on
    unchanged data stores the same rows and the same ``inputs_hash`` (the second run reads only
    what the fingerprint needs and writes nothing but its run record). A change writes only the
    parts it changes (:func:`_compute`).
    """
    # visible to the pages at once (autocommit); the snapshot is created on first use
    running = {"status": StandingsSnapshot.Status.RUNNING, "started_at": timezone.now()}
    if not StandingsSnapshot.objects.filter(event_id=event_id).update(**running):
        snapshot_for(event_id=event_id)
        StandingsSnapshot.objects.filter(event_id=event_id).update(**running)
    page_cache.changed(event_id=event_id, parts=(page_cache.STANDINGS,))
    kept = None
    with no_cyclic_gc(), transaction.atomic():
        _lock_event(event_id)
        started = timezone.now()
        snapshot_id, seen, old_hash = (
            StandingsSnapshot.objects.filter(event_id=event_id)
            .values_list("pk", "requested", "inputs_hash")
            .get()
        )
        t0 = time.perf_counter()
        event = Event.objects.get(pk=event_id)
        sources = standings_sources(event=event)
        digest = sources.digest()
        t1 = time.perf_counter()
        fields = ["status", "computed", "computed_at", "started_at", "error", "error_words", "attempts", "runs"]
        run: dict[str, Any] = {}
        if digest != old_hash:
            kept, writes, deletes, head, mode = _compute(
                event_id, snapshot_id, old_hash, sources, digest
            )
            t2 = time.perf_counter()
            size = _store_parts(snapshot_id, writes, deletes)
            t3 = time.perf_counter()
            # what the run did and where its time went (milliseconds): reading the sources,
            # computing (with the protocols' facts and, without a kept state, the stored
            # parts), writing the parts that changed
            run = {
                "outcome": "computed",
                "mode": mode,
                "written": len(writes) + len(deletes),
                "bytes": size,
                "ms": {
                    "read": round(1000 * (t1 - t0)),
                    "compute": round(1000 * (t2 - t1)),
                    "write": round(1000 * (t3 - t2)),
                },
            }
        else:
            run = {"outcome": "unchanged", "ms": {"read": round(1000 * (t1 - t0))}}
            head = None
        snapshot = (
            StandingsSnapshot.objects.select_for_update()
            .only("id", "event_id", "requested", "computed", "runs")
            .get(event_id=event_id)
        )
        if digest != old_hash:
            snapshot.inputs_hash = digest
            fields.append("inputs_hash")
        if head is not None:
            snapshot.head = head
            fields.append("head")
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
        snapshot.error_words = None
        snapshot.attempts = 0
        snapshot.runs = _append_run(
            snapshot.runs,
            {
                "started": started.isoformat(),
                "finished": finished.isoformat(),
                "pid": os.getpid(),
                **run,
            },
        )
        snapshot.save(update_fields=fields)
    if digest != old_hash:  # the series of the event follow (issue 39), in a job of their own
        series_schedule_for_event(event_id=event_id)
        page_cache.event_persons_changed(event_id=event_id)  # their pages show the places
        # and its ratings (issue 41): their job skips an event whose approved tables are the same
        ratings_schedule_for_event(event_id=event_id)
    if kept is not None:  # committed (or part of the caller's transaction: checked next time)
        while len(_kept) >= KEPT_EVENTS:
            del _kept[next(iter(_kept))]
        _kept[event_id] = kept
    # the pages a hall opens first, rendered ahead under the new versions (a job of its own,
    # after the commit: its errors never fail this one)
    page_warm.public_pages_warm_schedule(event_id=event_id)
    return snapshot


def standings_mark_failed(
    *, event_id: int, error: str, final: bool, words: dict[str, Any] | None = None
) -> None:
    """Record a failed attempt, shown on the organiser's pages (``final``: no retry left):
    ``error`` in English (the API, the logs), ``words`` said again in the reader's language
    (:func:`tournaments.errors.error_words`)."""
    snapshot = snapshot_for(event_id=event_id)
    now = timezone.now()
    with transaction.atomic():
        locked = StandingsSnapshot.objects.select_for_update().get(pk=snapshot.pk)
        locked.attempts += 1
        locked.error = error[:4000]
        locked.error_words = words
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


# --- a player edited -------------------------------------------------------------------------


def _player_saved(sender, instance, raw=False, created=False, **kwargs) -> None:
    """A player edited (a rename, a club; in the admin too): every event he entered."""
    if raw or created:
        return
    events = list(Entry.objects.filter(player=instance).values_list("event_id", flat=True))
    for event_id in events:
        page_cache.changed(event_id=event_id, rounds=True)
    # the stored standings carry the names they were computed with
    for event_id in StandingsSnapshot.objects.filter(event_id__in=events).values_list(
        "event_id", flat=True
    ):
        standings_schedule(event_id=event_id)


def connect() -> None:
    """Called by the app's ``ready()``, beside ``web_cache.versions.connect``."""
    post_save.connect(_player_saved, sender=Player, dispatch_uid="pulka.page_cache.player")
