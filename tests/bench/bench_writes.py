"""Benchmark (not a timed test): the event-day write path, a table-key save under concurrent
tables, beside a trivial write (issue 38, "The event-day write path, measured").

Run on an idle machine (the figures of a shared one mean little; on this project's shared
development machine run only the smoke form)::

    .venv/bin/python tests/bench/bench_writes.py --tables 3 --versions 2 --readers 0   # smoke
    .venv/bin/python tests/bench/bench_writes.py --tables 50 150 --readers 1000

For each count of tables it starts the load scenarios' stack (``tests/load/stack.py``: its own
``redis-server`` on a free port, PostgreSQL database ``pulka_bench_writes``, gunicorn with the
benchmark's settings ``tests.bench.bench_settings``, a Celery worker and beat, the cache in
Redis as in production), makes an event of ``3 × tables`` players with one round drawn and
started (``tests/load/event_day.setup_events``), and then every table saves ``--versions``
protocol versions through its key (``POST …/protocols`` with ``X-Table-Key``, each based on the
last), all tables at once, while ``--readers`` clients read the standings and the round page
(anonymous phones). Then the same number of clients each make as many trivial writes
(``/bench/trivial-write/``: one row inserted in a transaction). It prints, per count of tables,
the saves' p50 and p99, the trivial writes' p50 and p99, and their ratio, as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.load.stack import Stack  # noqa: E402


def _post(url: str, body: dict | None, headers: dict) -> tuple[int, float, dict | None]:
    data = json.dumps(body).encode() if body is not None else b""
    request = urllib.request.Request(
        url, data=data, method="POST", headers={"Content-Type": "application/json", **headers}
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            code, payload = r.status, r.read()
    except urllib.error.HTTPError as e:
        code, payload = e.code, e.read()
    took = time.monotonic() - started
    try:
        return code, took, json.loads(payload) if payload[:1] == b"{" else None
    except ValueError:
        return code, took, None


def _quantiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50_ms": round(1000 * statistics.median(ordered), 1),
        "p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1),
    }


def measure(tables: int, args) -> dict:
    log_dir = Path(args.log_dir or ROOT / "var" / f"bench-writes-{os.getpid()}") / str(tables)
    stack = Stack(
        db=args.db,
        log_dir=log_dir,
        gunicorn_workers=args.gunicorn_workers,
        threads=args.threads,
        env={"DJANGO_SETTINGS_MODULE": "tests.bench.bench_settings"},
    )
    try:
        stack.start()
        for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL",
                    "PULKA_VAR_DIR", "CELERY_TASK_ALWAYS_EAGER", "STATIC_ROOT"):  # fmt: skip
            os.environ[key] = stack.env[key]
        os.environ["DJANGO_SETTINGS_MODULE"] = "tournaments.settings.base"
        # Django is set up here, once the stack's services (ports, database) are known; so are
        # the modules that need it (as tests/load/event_day.py does)
        import django
        from django.db import connections

        django.setup()
        from tests.load.event_day import setup_events

        _token, made = setup_events(1, 3 * tables, args.versions, args.seed)
        connections.close_all()
        base = f"http://127.0.0.1:{stack.web_ports[0]}"
        saves: list[float] = []
        refused: list[int] = []
        lock = threading.Lock()
        reading = threading.Event()
        reading.set()

        def table_saves(table) -> None:
            url = f"{base}/api/v1/events/{table.event}/rounds/1/tables/{table.number}/protocols"
            based_on = None
            for document in table.documents:
                code, took, body = _post(
                    url, {"protocol": document, "based_on_version": based_on},
                    {"X-Table-Key": table.key},
                )  # fmt: skip
                with lock:
                    (saves.append(took) if code == 201 else refused.append(code))
                if code == 201 and body:
                    based_on = body["version"]

        def reader(i: int) -> None:
            rng = random.Random(i)
            slug = made[0].event
            while reading.is_set():
                path = rng.choice([f"/e/{slug}/standings/", f"/e/{slug}/rounds/1/"])
                try:
                    urllib.request.urlopen(base + path, timeout=60).read()
                except OSError:
                    pass
                time.sleep(args.think)

        readers = [threading.Thread(target=reader, args=(i,), daemon=True)
                   for i in range(args.readers)]  # fmt: skip
        for r in readers:
            r.start()
        writers = [threading.Thread(target=table_saves, args=(t,)) for t in made]
        started = time.monotonic()
        for w in writers:
            w.start()
        for w in writers:
            w.join()
        save_seconds = time.monotonic() - started
        reading.clear()
        trivial: list[float] = []

        def trivial_writes() -> None:
            for _ in range(args.versions):
                code, took, _body = _post(f"{base}/bench/trivial-write/", None, {})
                if code == 201:
                    with lock:
                        trivial.append(took)

        writers = [threading.Thread(target=trivial_writes) for _ in made]
        for w in writers:
            w.start()
        for w in writers:
            w.join()
        out = {
            "tables": tables,
            "readers": args.readers,
            "save": _quantiles(saves),
            "refused": refused,
            "trivial_write": _quantiles(trivial),
            "seconds": round(save_seconds, 1),
        }
        if saves and trivial:
            out["ratio_p50"] = round(statistics.median(saves) / statistics.median(trivial), 1)
            out["ratio_p99"] = round(out["save"]["p99_ms"] / out["trivial_write"]["p99_ms"], 1)
        return out
    finally:
        stack.close()
        if "django" in sys.modules and sys.modules["django"].apps.apps.ready:
            sys.modules["django.db"].connections.close_all()
        stack.drop_database()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, nargs="+", default=[50, 150])
    p.add_argument("--versions", type=int, default=3, help="versions each table saves")
    p.add_argument("--readers", type=int, default=150, help="phones reading meanwhile")
    p.add_argument("--think", type=float, default=1.0, help="seconds between a reader's GETs")
    p.add_argument("--gunicorn-workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--seed", type=int, default=38)
    p.add_argument("--db", default="pulka_bench_writes")
    p.add_argument("--log-dir", default="")
    args = p.parse_args(argv)
    if len(args.tables) == 1:
        results = [measure(args.tables[0], args)]
    else:  # one process per count: Django is set up once per process, on one stack's services
        results = []
        for n in args.tables:
            rest = [a for a in (argv if argv is not None else sys.argv[1:])]
            at = rest.index("--tables") if "--tables" in rest else None
            if at is not None:  # drop the counts given, keep the other options
                end = at + 1
                while end < len(rest) and not rest[end].startswith("--"):
                    end += 1
                rest = rest[:at] + rest[end:]
            done = subprocess.run(
                [sys.executable, __file__, "--tables", str(n), *rest],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            results += json.loads(done.stdout)["results"]
    print(json.dumps({"machine": f"{os.uname().nodename} {os.cpu_count()} cpu",
                      "results": results}, indent=1))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
