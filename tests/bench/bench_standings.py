"""Benchmark (not a timed test): recompute the standings of 1,000 players × 12 rounds.

Run: ``.venv/bin/python -m pytest --no-migrations -p no:cacheprovider -s
tests/bench/bench_standings.py`` — prints the figures; target under 2 s (issue 6).

Protocols are random legal pulkas from ``scoring.generate`` (tables of three and four), stored
as the protocol service stores them. Three figures: *cold* (no statistics cached: every pulka is
read and scored for its deal statistics), *after one approval* (the usual job: one protocol
changed, the other statistics cached) and *unchanged* (a repeated job).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import random
import time

import pytest

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Protocol
from tournaments.services.standings import standings_recompute

PLAYERS, ROUNDS = 1000, 12


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

    t0, c0 = time.perf_counter(), time.process_time()
    cold = standings_recompute(event_id=event.pk)
    t_cold, c_cold = time.perf_counter() - t0, time.process_time() - c0

    one = Protocol.objects.filter(table__round__event=event, table__round__number=12).first()
    Protocol.objects.filter(pk=one.pk).update(approved=False)
    profile = cProfile.Profile() if os.environ.get("PULKA_BENCH_PROFILE") else None
    t0, c0 = time.perf_counter(), time.process_time()
    if profile:
        profile.enable()
    warm = standings_recompute(event_id=event.pk)
    t_warm, c_warm = time.perf_counter() - t0, time.process_time() - c0
    if profile:  # PULKA_BENCH_PROFILE=1: where the usual job spends its time
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)

    t0 = time.perf_counter()
    standings_recompute(event_id=event.pk)
    t_same = time.perf_counter() - t0

    assert len(cold.data["rows"]) == PLAYERS and warm.data != cold.data
    print(
        f"\n[bench_standings] {PLAYERS} players x {ROUNDS} rounds, {protocols} protocols "
        f"(setup {setup:.1f} s)"
    )
    # the CPU time of this process (not the database's): steadier on a shared machine
    print(
        f"[bench_standings] cold recompute (all statistics computed): {t_cold:.2f} s "
        f"(cpu {c_cold:.2f} s)"
    )
    print(
        f"[bench_standings] recompute after one approval change:     {t_warm:.2f} s "
        f"(cpu {c_warm:.2f} s)"
    )
    print(f"[bench_standings] recompute with nothing changed:          {t_same:.2f} s")
