"""Benchmark (not a timed test): the CPU one table-key save costs its web process (issue 38, "The
event-day write path" in docs/performance.md), and the statements it runs.

Run (one process, the test settings' PostgreSQL)::

    .venv/bin/python -m pytest -p no:cacheprovider -s tests/bench/bench_save.py
    BENCH_SAVE_PROFILE=1 .venv/bin/python -m pytest -p no:cacheprovider -s tests/bench/bench_save.py

A table of three (the protocol tests' table, a Sochi pulka to 10) saves ``BENCH_SAVES`` versions
(default 200) through its key (``POST …/protocols`` with ``X-Table-Key``, the whole Django and
DRF stack in the process, each based on the last), alternating an earlier, shorter record and the
finished one as bench_writes.py's tables do; then as many sends of the phone's outbox
(``/t/<key>/send``, a deal added each, a client id each). The figure is the process's CPU time
(``time.process_time``) per save, the first ten left out (warm-up): on a shared machine the CPU
time per save is the figure, not the wall time; compare two trees in one run
(``docs/performance.md``). ``BENCH_SAVE_PROFILE=1`` also prints cProfile's top functions on the
CPU clock. Where PostgreSQL runs on the same machine, the CPU its backend spent on the same
saves is printed beside (``/proc``, in clock ticks of 10 ms: about 2 % over 200 saves).
"""

from __future__ import annotations

import cProfile
import dataclasses
import io
import os
import pstats
import random
import time
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.model import Ending
from scoring.russian.generate import random_protocol
from scoring.russian.jsonio import to_dict
from tests.tournaments.protocols.conftest import make_table
from tournaments.services.protocols import table_header

SAVES = int(os.environ.get("BENCH_SAVES", "200"))
WARM = 10


def _documents(setup) -> list[dict]:
    final = random_protocol(random.Random(3), target=setup.event.pulka_target)
    setup.table.first_dealer = final.first_dealer
    setup.table.save(update_fields=["first_dealer"])
    final = dataclasses.replace(final, players=table_header(setup.table).players)
    early = dataclasses.replace(
        final.with_deals(final.deals[: len(final.deals) * 2 // 3]), ending=Ending.AGREEMENT
    )
    return [to_dict(early), to_dict(final)]


def _backend_cpu() -> float | None:
    """The CPU seconds PostgreSQL's backend of this connection has used (``/proc``, when the
    database runs on this machine), else None: a save's cost to the database beside the web's."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:  # the database on another machine
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _db_ms(started: float | None, n: int) -> str:
    ended = _backend_cpu()
    if started is None or ended is None:
        return "the database's CPU not measured (not on this machine)"
    return f"the database's backend {(ended - started) * 1000 / n:.2f} ms of CPU"


def _profiled(run, label: str) -> None:
    if not os.environ.get("BENCH_SAVE_PROFILE"):
        return
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    run()
    profile.disable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(45)
    for name in os.environ.get("BENCH_SAVE_CALLEES", "").split(","):
        if name:
            stats.print_callees(name)
    print(f"--- cProfile, {label} ---\n{out.getvalue()}")


def _statements(run) -> tuple[int, Counter]:
    with CaptureQueriesContext(connection) as ctx:
        run()
    sql = [q["sql"] for q in ctx.captured_queries]
    if os.environ.get("BENCH_SAVE_SQL"):
        print("\n".join(s[:300] for s in sql))
    return len(sql), Counter(s.split(None, 1)[0] for s in sql)


@pytest.mark.django_db(transaction=True)
def test_save_cpu():
    setup = make_table(slug="bench-save")
    documents = _documents(setup)
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    url = f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols"
    state = {"version": None, "n": 0}

    def one() -> None:
        body = {"protocol": documents[state["n"] % 2], "based_on_version": state["version"]}
        r = api.post(url, body, format="json")
        assert r.status_code == 201, r.content
        state["version"] = r.json()["version"]
        state["n"] += 1

    for _ in range(WARM):
        one()
    count, kinds = _statements(one)
    db_started = _backend_cpu()
    started = time.process_time()
    for _ in range(SAVES):
        one()
    api_ms = (time.process_time() - started) * 1000 / SAVES
    api_db = _db_ms(db_started, SAVES)
    _profiled(lambda: [one() for _ in range(50)], "50 API saves")

    phone = Client()
    send = f"/t/{setup.table.url_key}/send"
    deal = {"action": "add", "kind": "raspasy", "tricks_0": "4", "tricks_1": "3", "tricks_2": "3"}

    def sent() -> None:
        state["n"] += 1
        r = phone.post(
            send,
            {**deal, "based_on_version": str(state["version"]), "client_id": f"s{state['n']}"},
        )
        assert r.status_code == 200 and r.json()["state"] == "saved", r.content
        state["version"] = r.json()["version"]

    r = api.post(url, {"protocol": documents[0], "based_on_version": state["version"]}, "json")
    state["version"] = r.json()["version"]
    for _ in range(WARM):
        sent()
    send_count, send_kinds = _statements(sent)
    sends = SAVES // 4  # each send adds a deal: the record grows
    db_started = _backend_cpu()
    started = time.process_time()
    for _ in range(sends):
        sent()
    send_ms = (time.process_time() - started) * 1000 / sends
    send_db = _db_ms(db_started, sends)
    print(
        f"\nAPI save (X-Table-Key): {api_ms:.2f} ms of CPU a save ({SAVES} saves), "
        f"{count} statements {dict(kinds)}; {api_db}"
        f"\nphone's send (/t/<key>/send): {send_ms:.2f} ms of CPU a send ({sends} sends), "
        f"{send_count} statements {dict(send_kinds)}; {send_db}"
    )
