"""Benchmark (not a timed test): the archive of a 300-player, 6-round event, written and read
back (issue 29).

Run: ``.venv/bin/python -m pytest --no-migrations -p no:cacheprovider -s tests/bench/bench_archive.py``
(with the test command's environment) — prints the figures: the time to write the document,
its size, the time to import it as a new event (one transaction, every protocol read by the
scoring module), and the size above which the pages hand the export to a job.
"""

from __future__ import annotations

import json
import random
import time

import pytest

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.archive.export import event_archive_json
from tournaments.archive.files import archive_size, inline_limit
from tournaments.archive.load import event_archive_import_json

PLAYERS, ROUNDS = 300, 6


@pytest.mark.django_db
def test_bench_archive_300_players_6_rounds():
    event, entries = make_event(players=PLAYERS, slug="bench-archive")
    rng = random.Random(7)
    for number in range(1, ROUNDS + 1):
        play_round(event, entries, number, rng=rng, target=20)
    t0 = time.perf_counter()
    data = event_archive_json(event=event)
    t_export = time.perf_counter() - t0
    t0 = time.perf_counter()
    copy = event_archive_import_json(
        text=data, by=UserFactory(is_superuser=True), slug="bench-copy"
    )
    t_import = time.perf_counter() - t0
    assert copy.rounds.count() == ROUNDS
    document = json.loads(data)
    versions = sum(len(t["protocols"]) for r in document["rounds"] for t in r["tables"])
    print(
        f"\narchive of {PLAYERS} players × {ROUNDS} rounds ({versions} protocol versions): "
        f"export {t_export:.2f} s, {len(data) / 1e6:.1f} MB; import {t_import:.2f} s; "
        f"size {archive_size(event)} against the inline limit {inline_limit()}"
    )
