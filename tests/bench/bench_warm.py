"""Benchmark (not a timed test): rendering ahead the pages a hall opens first
(``tournaments.web_cache.warm``, issue 28) — what the job costs after a change, and what it saves.

Run (loopback only; the 150-player event by default)::

    .venv/bin/python tests/bench/bench_warm.py --players 150 --rounds 9

It builds the event as ``bench_pages`` does (in the PostgreSQL database ``pulka_bench_warm``,
``BENCH_DATABASE_URL`` to change it: dropped and made again each run; the cache in Redis,
``BENCH_CACHE_URL``, under a key prefix of this run's own) and times, in one process:

1. the job with nothing stored (every page rendered from the database, as the first viewers
   after a change would each render it);
2. the job again at once (every page already stored: a cache read each);
3. the job after a recomputation of the standings (the pages that show them rendered again, the
   event's and the round's public pages read from the cache);
4. an anonymous viewer's GET of each page afterwards (through the WSGI handler, as gunicorn
   calls it), which must be answered from the cache.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_pages import build, database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pulka_bench_warm"
    )
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "tests.bench.bench_settings",
            "CELERY_TASK_ALWAYS_EAGER": "true",
            "CELERY_BROKER_URL": "",
            "REDIS_URL": "",
            "CACHE_URL": os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13"),
            "BENCH_CACHE_PREFIX": f"bench-warm-{os.getpid()}-{int(time.time())}",
            "PULKA_PAGE_CACHE": "true",
            "PULKA_PAGE_WARM": "false",  # the build renders nothing ahead: the runs below do
            "STATIC_ROOT": os.environ.get("STATIC_ROOT", "/tmp/pulka-bench-static"),
        }
    )
    database(url)
    slug, _entry = build(args.players, args.rounds)

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Event, StandingsSnapshot
    from tournaments.services.standings import standings_recompute
    from tournaments.web_cache.warm import languages, pages_to_warm, public_pages_warm

    event_id = Event.objects.get(slug=slug).pk
    pages = pages_to_warm(event_id=event_id)
    print(f"[bench_warm] {len(pages)} pages in {len(languages())} languages", flush=True)

    def timed(label: str) -> None:
        t0 = time.perf_counter()
        done = public_pages_warm(event_id=event_id)
        print(
            f"[bench_warm] {label}: {done['pages']} pages ({done['failed']} failed) in "
            f"{time.perf_counter() - t0:.2f} s",
            flush=True,
        )

    timed("nothing stored (every page rendered)")
    timed("again at once (every page stored)")
    StandingsSnapshot.objects.filter(event_id=event_id).update(inputs_hash="")
    t0 = time.perf_counter()
    standings_recompute(event_id=event_id)  # a new standings version (PULKA_PAGE_WARM off)
    print(f"[bench_warm] recomputed in {time.perf_counter() - t0:.2f} s", flush=True)
    timed("after a recomputation (the standings' pages rendered again)")
    client = Client(HTTP_HOST="localhost")
    client.get("/")  # the jobs sweep's check (once a minute per process) out of the way
    slow = []
    t0 = time.perf_counter()
    for path, accept in pages:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(path, **({"HTTP_ACCEPT": accept} if accept else {}))
        if response.status_code != 200 or ctx.captured_queries:
            slow.append((path, response.status_code, len(ctx.captured_queries)))
    print(
        f"[bench_warm] a viewer's GET of each page after it: {len(pages)} in "
        f"{time.perf_counter() - t0:.2f} s; not from the cache: {slow or 'none'}",
        flush=True,
    )


if __name__ == "__main__":
    main()
