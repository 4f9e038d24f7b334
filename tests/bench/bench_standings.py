"""Benchmark (not a timed test): recompute the standings of 1,000 players × 12 rounds.

Run: ``.venv/bin/python -m pytest --no-migrations -p no:cacheprovider -s
tests/bench/bench_standings.py`` — prints the figures; targets (issue 28): a full recompute
under 1 s, an incremental one after one protocol under 100 ms.

Protocols are random legal pulkas from ``scoring.russian.generate`` (tables of three and four), stored
as the protocol service stores them. The figures, each the wall time of
``standings_recompute`` (and the CPU time of this process, steadier on a shared machine):

- *first computation*: nothing stored yet: every pulka is read and scored for its deal
  statistics (stored once per protocol version), every part written;
- *full, a new worker*: nothing in the process's memory, one protocol changed: every table's
  statistics read from their rows, every player recomputed, the stored parts read and only
  the changed ones written;
- *full, tie-break chain changed*: the same worker, every player recomputed and re-ranked,
  every player's row written;
- *incremental*: the usual job, one protocol approved or reopened: its table's players
  recomputed, everyone re-sorted, the changed parts written (median and worst of 10);
- *unchanged*: a repeated job.

``PULKA_BENCH_PROFILE=1`` prints a profile of the incremental runs.
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import random
import statistics
import time

import pytest

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Protocol, ProtocolStats, StandingsPart, StandingsSnapshot
from tournaments.selectors.standings_inputs import standings_inputs
from tournaments.services import standings as service
from tournaments.standings import compute_standings

PLAYERS, ROUNDS = 1000, 12


def timed(event_id: int) -> tuple[float, float, dict]:
    t0, c0 = time.perf_counter(), time.process_time()
    snapshot = service.standings_recompute(event_id=event_id)
    return time.perf_counter() - t0, time.process_time() - c0, snapshot.runs[-1]


def line(label: str, wall: float, cpu: float, run: dict) -> str:
    what = (
        f"{run.get('mode', run['outcome'])}, {run.get('written', 0)} parts written, "
        f"{run.get('bytes', 0) / 1000:.0f} kB"
    )
    return f"[bench_standings] {label:<46} {wall:6.3f} s (cpu {cpu:.3f} s; {what}; {run['ms']} ms)"


@pytest.mark.django_db
def test_bench_standings_1000_players_12_rounds():
    t0 = time.perf_counter()
    event, entries = make_event(
        players=PLAYERS, slug="bench", tiebreaks=["raspasy_won", "remizes", "head_to_head"]
    )
    rng = random.Random(2026)
    for n in range(1, ROUNDS + 1):
        play_round(event, entries, n, rng=rng, approve=True, target=10)
    setup = time.perf_counter() - t0
    protocols = Protocol.objects.filter(table__round__event=event).count()
    out = []

    service._kept.clear()
    service._known_facts.clear()
    out.append(line("first computation (every pulka parsed)", *timed(event.pk)))
    stored = StandingsPart.objects.filter(snapshot__event=event)
    parts, size = (
        stored.count(),
        sum(len(json.dumps(d)) for d in stored.values_list("data", flat=True)),
    )

    last = list(Protocol.objects.filter(table__round__event=event, table__round__number=ROUNDS))
    service._kept.clear()
    service._known_facts.clear()
    Protocol.objects.filter(pk=last[0].pk).update(approved=False)
    full_new = timed(event.pk)
    out.append(line("full, a new worker (one protocol changed)", *full_new))

    event.tiebreaks = ["raspasy_won", "head_to_head", "remizes"]
    event.save(update_fields=["tiebreaks"])
    full_chain = timed(event.pk)
    out.append(line("full, tie-break chain changed (same worker)", *full_chain))

    profile = cProfile.Profile() if os.environ.get("PULKA_BENCH_PROFILE") else None
    incremental = []
    for p in last[1:11]:  # each a protocol of the last round reopened (a real change)
        Protocol.objects.filter(pk=p.pk).update(approved=False)
        if profile:
            profile.enable()
        incremental.append(timed(event.pk))
        if profile:
            profile.disable()
    assert all(r["mode"] == "incremental" for _w, _c, r in incremental)
    walls = sorted(w for w, _c, _r in incremental)
    cpus = sorted(c for _w, c, _r in incremental)
    worst = max(incremental, key=lambda x: x[0])
    median_run = sorted(incremental, key=lambda x: x[0])[len(incremental) // 2]
    out.append(line("incremental, one protocol (median of 10)", *median_run))
    out.append(line("incremental, one protocol (worst of 10)", *worst))
    same = timed(event.pk)
    out.append(line("unchanged (a repeated job)", *same))
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)

    # what a page process does once per new version: read and decode the stored standings
    from tournaments.selectors import standings as selectors

    reads = []
    for _ in range(3):
        selectors._decoded_cache.clear()
        t0 = time.perf_counter()
        selectors.decoded_standings(selectors.standings_header(event=event))
        reads.append(time.perf_counter() - t0)
    out.append(
        f"[bench_standings] {'a page reading a new version (decoded, indexed)':<46} "
        f"{statistics.median(reads):6.3f} s (median of 3)"
    )

    # what the pages read equals the computation from scratch
    stats = {str(k): v for k, v in ProtocolStats.objects.values_list("protocol", "data")}
    inputs = standings_inputs(event=event, stats_cache=stats)
    reference = compute_standings(
        inputs.rows, inputs.config, inputs.adjustments, inputs.entries, inputs.no_result
    )
    data = StandingsSnapshot.objects.get(event=event).data
    assert json.loads(json.dumps(data)) == json.loads(
        json.dumps({**reference.as_json(), "meta": inputs.meta}, default=str)
    )
    assert len(data["rows"]) == PLAYERS

    print(
        f"\n[bench_standings] {PLAYERS} players x {ROUNDS} rounds, {protocols} protocols "
        f"(setup {setup:.1f} s); stored: {parts} parts, {size / 1e6:.1f} MB of JSON"
    )
    for text in out:
        print(text)
    print(
        f"[bench_standings] incremental: median {statistics.median(walls) * 1000:.0f} ms, "
        f"worst {walls[-1] * 1000:.0f} ms (cpu median {statistics.median(cpus) * 1000:.0f} ms)"
    )
