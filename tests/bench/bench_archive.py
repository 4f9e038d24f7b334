"""Benchmark (not a timed test): the archive of a 300-player, 6-round event, written and read
back (issue 29).

Run: ``.venv/bin/python -m pytest --no-migrations -p no:cacheprovider -s tests/bench/bench_archive.py``
(with the test command's environment) — prints the figures: the time to write the document,
its size, the time to import it as a new event (one transaction, every protocol read by the
scoring module), the time the import page's request takes to check and store the file before
its job imports it (issue 25, item 12), and the export's inline limit (0 by default: every
export is a job).
"""

from __future__ import annotations

import json
import random
import time

import pytest
from django.db import transaction

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.archive.export import event_archive_json
from tournaments.archive.files import archive_size, inline_limit
from tournaments.archive.imports import archive_import_request
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
    t0 = time.perf_counter()
    with transaction.atomic():  # the job is not sent: only the request's part is timed
        job = archive_import_request(text=data, by=UserFactory(is_staff=True), slug="bench-2")
        transaction.set_rollback(True)
    t_check = time.perf_counter() - t0
    from django.core.files.storage import default_storage

    default_storage.delete(job.args[0])
    document = json.loads(data)
    versions = sum(len(t["protocols"]) for r in document["rounds"] for t in r["tables"])
    print(
        f"\narchive of {PLAYERS} players × {ROUNDS} rounds ({versions} protocol versions): "
        f"export {t_export:.2f} s, {len(data) / 1e6:.1f} MB; import {t_import:.2f} s "
        f"(the import page's request: check and store {t_check:.2f} s); "
        f"size {archive_size(event)} against the inline limit {inline_limit()}"
    )
