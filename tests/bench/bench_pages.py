"""Benchmark (not a timed test): the public pages served by gunicorn, beside a trivial view.

Run (the quick form, then the national final; loopback only, bounded in count and time)::

    .venv/bin/python tests/bench/bench_pages.py --players 150 --rounds 9
    .venv/bin/python tests/bench/bench_pages.py --players 1000 --rounds 12
    .venv/bin/python tests/bench/bench_pages.py --season --season-only --interleave

``--season`` also builds a federation's season as ``bench_series`` does (issue 39: 100 events
of 150 players from 2,000 persons, nine leagues and a national cup, published) and measures the
cup's page, its CSV and the page of the person with the most events.

It creates the PostgreSQL database ``pulka_bench_pages`` (``BENCH_DATABASE_URL`` to change it;
dropped and made again each run), builds the event the way ``bench_standings`` does (random legal
pulkas, all approved) with a draw record per round of realistic size (synthetic: about 0.6 KB a
player, as the seating engine's report is), computes the standings, starts gunicorn on
127.0.0.1 with two workers (``tests.bench.bench_settings``: Pulka's settings, DEBUG off, plus a
trivial view; database connections kept, ``CONN_MAX_AGE`` 60 as in ``docker/compose.yaml``) and
runs, for each page, ``--clients`` concurrent clients (processes × threads,
a new connection per request as gunicorn's sync workers close them) for at most ``--seconds``
and ``--requests``. It prints requests/s, p50 and p99 per page and each page's throughput as a
ratio to the trivial view's in the same run. The rows marked "refresh (304)" send the ETag
the page answered with (a phone refreshing a page it has) and count only 304 answers. On a
shared machine the absolute figures are noisy
and the client competes with the server for the CPU: compare the ratios.

The clients send ``Accept-Encoding: gzip, deflate, br, zstd`` as browsers do (Chromium's), so
the stored pages come compressed (``views.caching``); they read the body without decompressing
it, as a browser does that on its own CPU. Once per page, before the load, the compressed answer
is decompressed and checked equal to the page asked for without ``Accept-Encoding``; the table
gives the page's size and what one answer transfers. ``--identity`` sends no
``Accept-Encoding`` (the measurement before the pages were stored compressed).

The cache is Redis, as in production (``docker/compose.yaml``): ``BENCH_CACHE_URL`` (default
``redis://127.0.0.1:6379/13``), under a key prefix of its own for each run. The clients send no
cookie, so they are the anonymous viewers that ``views.caching.public_page`` serves without the
database; ``--no-page-cache`` (``PULKA_PAGE_CACHE=false``) measures the database path instead.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def _client(
    port: int,
    path: str | list[str],
    deadline: float,
    budget: int,
    threads: int,
    out,
    headers: dict[str, str],
    expect: int,
) -> None:
    """One client process: ``threads`` threads requesting ``path`` (with ``headers``) until the
    deadline or the budget; returns the latencies (s) and the failures (a status other than
    ``expect``). ``path`` a list: each request the next of them (this process starting at a
    place of its own), so that requests in a row ask for different ones."""
    paths = [path] if isinstance(path, str) else path
    offset = random.Random(os.getpid()).randrange(len(paths))
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    count = [0]

    def run() -> None:
        while time.monotonic() < deadline:
            with lock:
                if count[0] >= budget:
                    return
                count[0] += 1
                asked = paths[(offset + count[0]) % len(paths)]
            t0 = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                conn.request("GET", asked, headers=headers)
                response = conn.getresponse()
                response.read()
                ok = response.status == expect
                conn.close()
            except OSError:
                ok = False
            with lock:
                if ok:
                    latencies.append(time.perf_counter() - t0)
                else:
                    failures[0] += 1

    workers = [threading.Thread(target=run) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    out.put((latencies, failures[0]))


def load(
    port: int,
    path: str | list[str],
    *,
    clients: int,
    seconds: float,
    requests: int,
    headers: dict[str, str] | None = None,
    expect: int = 200,
) -> dict:
    processes = min(4, clients)
    per = [clients // processes + (1 if i < clients % processes else 0) for i in range(processes)]
    queue: multiprocessing.Queue = multiprocessing.Queue()
    started = time.monotonic()
    deadline = started + seconds
    procs = [
        multiprocessing.Process(
            target=_client,
            args=(port, path, deadline, requests // processes + 1, n, queue, headers or {}, expect),
        )
        for n in per
    ]
    for p in procs:
        p.start()
    latencies: list[float] = []
    failures = 0
    for _ in procs:
        got, failed = queue.get()
        latencies += got
        failures += failed
    for p in procs:
        p.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else latencies * 99
    return {
        "requests": len(latencies),
        "failures": failures,
        "rps": len(latencies) / elapsed,
        "p50": q[49] if q else float("nan"),
        "p99": q[98] if q else float("nan"),
    }


#: what Chromium sends; the benchmark's clients send it unless ``--identity``
BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd"


def fetch(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def warm(port: int, paths: str | list[str], headers: dict[str, str]) -> tuple[int, int, str | None]:
    """Warm both workers (their decoded standings, the cache) and check the compressed answer
    against the identity one; the page's size, what one answer transfers, its ETag. ``paths``:
    a page, or the pages a row cycles through (the first four warmed, the fourth checked)."""
    for i in range(4):
        path = paths if isinstance(paths, str) else paths[i % len(paths)]
        status, got, body = fetch(port, path, headers)
        assert status == 200, (path, status)
    status, _plain_headers, plain = fetch(port, path, {})
    assert status == 200, (path, status)
    if got.get("content-encoding") == "gzip":
        assert gzip.decompress(body) == plain, f"{path}: the gzip body differs once decompressed"
    else:
        assert "content-encoding" not in got, (path, got["content-encoding"])
    return len(plain), len(body), got.get("etag")


def database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def build(players: int, rounds: int) -> tuple[str, int, list[str]]:
    """The event (slug, one entry's id, its players' names), committed."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from tests.tournaments.standings.factories import make_event, play_round
    from tournaments.models import Entry, Round
    from tournaments.services.standings import standings_recompute

    t0 = time.perf_counter()
    event, entries = make_event(
        players=players, slug="bench", tiebreaks=["raspasy_won", "remizes", "head_to_head"]
    )
    rng = random.Random(2026)
    for n in range(1, rounds + 1):
        round_, _ = play_round(event, entries, n, rng=rng, approve=True, target=10)
        why = "met in round 1 (forced by the fours); seat balance 1/1/1; " * 8
        Round.objects.filter(pk=round_.pk).update(
            draw_params={
                "input": {"players": [e.pk for e in entries], "not_checked_in": []},
                "tables": [[e.pk for e in entries[i : i + 3]] for i in range(0, players, 3)],
            },
            draw_report={
                "players": [{"id": e.pk, "why": why, "repeats": 0} for e in entries],
                "summary": {"repeats": 0},
            },
        )
    t1 = time.perf_counter()
    standings_recompute(event_id=event.pk)
    print(
        f"[bench_pages] built {players} players x {rounds} rounds in {t1 - t0:.1f} s; "
        f"standings computed in {time.perf_counter() - t1:.2f} s",
        flush=True,
    )
    names = [e.player.name for e in Entry.objects.filter(event=event).select_related("player")]
    return event.slug, entries[len(entries) // 2].pk, names


def build_season() -> tuple[str, int]:
    """A federation's season (issue 39) as ``bench_series`` builds it: 100 events × 150
    players of 2,000 persons, nine leagues and a national cup, every table computed and the
    series published; returns the cup's slug and the person with the most events."""
    from django.db.models import Count

    from tests.bench import bench_series
    from tournaments.models import Person, Series
    from tournaments.services.series import series_standings_recompute

    t0 = time.perf_counter()
    series, _events, _entries = bench_series.season()
    Series.objects.update(published=True)
    for s in series:
        series_standings_recompute(series_id=s.pk)
    person = (
        Person.objects.annotate(events=Count("entries")).order_by("-events", "pk").first()
    )
    cup = Series.objects.get(slug="cup")
    print(
        f"[bench_pages] season built in {time.perf_counter() - t0:.1f} s: the cup's table "
        f"{len(cup.standings_snapshot.data['rows'])} persons; person {person.pk} in "
        f"{person.events} events",
        flush=True,
    )
    return cup.slug, person.pk


def searches(slug: str, names: list[str]) -> list[str]:
    """A hall searching the standings, each phone another text: every player's whole name, its
    number alone and the name in lower case (real names and parts of them), shuffled."""
    texts = [t for name in names for t in (name, name.split()[-1], name.lower())]
    random.Random(28).shuffle(texts)
    return [f"/e/{slug}/standings/?q={quote(t)}" for t in texts]


def serve(port: int, env: dict[str, str]) -> subprocess.Popen:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tournaments.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "2",
            "--timeout",
            "300",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    for _ in range(200):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/bench/trivial/")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("gunicorn did not answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--port", type=int, default=18028)
    parser.add_argument(
        "--interleave",
        action="store_true",
        help="measure the trivial view again just before each page and give each page's ratio "
        "to that run (a shared machine's load moves between pages)",
    )
    parser.add_argument(
        "--identity",
        action="store_true",
        help="the clients send no Accept-Encoding: uncompressed answers (the old measurement)",
    )
    parser.add_argument(
        "--no-page-cache",
        action="store_true",
        help="serve every page from the database (PULKA_PAGE_CACHE=false)",
    )
    parser.add_argument(
        "--season",
        action="store_true",
        help="also build a federation's season (issue 39: 2,000 persons, 100 events, 10 "
        "series) and measure the cup's page, its CSV and a person's page",
    )
    parser.add_argument(
        "--season-only",
        action="store_true",
        help="with --season: measure only the trivial view and the season's pages",
    )
    args = parser.parse_args()

    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pulka_bench_pages"
    )
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "tests.bench.bench_settings",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "REDIS_URL": "",
        # the cache as in production (Redis), under a prefix of this run's own
        "CACHE_URL": os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13"),
        "BENCH_CACHE_PREFIX": f"bench-pages-{os.getpid()}-{int(time.time())}",
        "PULKA_PAGE_CACHE": "false" if args.no_page_cache else "true",
        "STATIC_ROOT": os.environ.get("STATIC_ROOT", "/tmp/pulka-bench-static"),
        "CELERY_BROKER_URL": "",
        # as docker/compose.yaml: each gunicorn worker keeps its database connection
        "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "60"),
    }
    os.environ.update(env)
    database(url)
    slug, entry, names = build(args.players, args.rounds)
    pages = [
        ("trivial view", "/bench/trivial/"),
        ("standings", f"/e/{slug}/standings/"),
        ("a player's page", f"/e/{slug}/standings/players/{entry}/"),
        ("the event's page", f"/e/{slug}/"),
        ("a round's public page", f"/e/{slug}/rounds/{args.rounds}/"),
        ("a round's results", f"/e/{slug}/standings/rounds/{args.rounds}/"),
        ("standings API", f"/api/v1/events/{slug}/standings"),
        ("standings API, a page of 100", f"/api/v1/events/{slug}/standings?page=2&page_size=100"),
        ("cross-table", f"/e/{slug}/standings/cross/"),
        # a phone's refresh: the ETag of the page it has, answered 304 (issue 28)
        ("standings, refresh (304)", f"/e/{slug}/standings/"),
        ("a round's public page, refresh (304)", f"/e/{slug}/rounds/{args.rounds}/"),
        ("standings API, refresh (304)", f"/api/v1/events/{slug}/standings"),
        ("the event's page, refresh (304)", f"/e/{slug}/"),
        ("a player's page, refresh (304)", f"/e/{slug}/standings/players/{entry}/"),
        ("standings, a search (name)", f"/e/{slug}/standings/?q=0042"),
        ("standings, a search (a different name each request)", searches(slug, names)),
        ("standings CSV (the whole list)", f"/e/{slug}/standings.csv"),
    ]
    if args.season:
        cup, person = build_season()
        season_pages = [
            ("a series' page (the cup, 2,000 persons)", f"/s/{cup}/"),
            ("a series' CSV (the cup)", f"/s/{cup}/standings.csv"),
            ("a person's page (his events and series)", f"/people/{person}/"),
            ("a series' page, refresh (304)", f"/s/{cup}/"),
            ("a person's page, refresh (304)", f"/people/{person}/"),
        ]
        pages = [pages[0], *season_pages] if args.season_only else [*pages, *season_pages]
    encoding = {} if args.identity else {"Accept-Encoding": BROWSER_ACCEPT_ENCODING}
    proc = serve(args.port, env)
    try:
        rows = []
        for name, path in pages:
            size, sent, etag = warm(args.port, path, encoding)
            refresh = "(304)" in name
            if refresh:
                if not etag:  # the database path of a page without an ETag (the event's page)
                    print(f"[bench_pages] {name}: no ETag, not measured", flush=True)
                    continue
                size = sent = 0
            r = load(
                args.port,
                path,
                clients=args.clients,
                seconds=args.seconds,
                requests=args.requests,
                headers={**encoding, "If-None-Match": etag} if refresh else encoding,
                expect=304 if refresh else 200,
            )
            base_now = None
            if args.interleave and name != "trivial view":
                base_now = load(
                    args.port,
                    pages[0][1],
                    clients=args.clients,
                    seconds=args.seconds,
                    requests=args.requests,
                )
            rows.append((name, size, sent, r, base_now))
            print(
                f"[bench_pages] {name}: {r['rps']:.1f} req/s, p50 {r['p50'] * 1000:.1f} ms, "
                f"p99 {r['p99'] * 1000:.1f} ms ({r['requests']} requests, "
                f"{r['failures']} failed)",
                flush=True,
            )
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    first = rows[0][3]["rps"]
    print(
        f"\n[bench_pages] {args.players} players x {args.rounds} rounds, gunicorn 2 sync workers, "
        f"{args.clients} clients, {args.seconds:.0f} s per page, {os.cpu_count()} CPUs, "
        f"page cache {'off' if args.no_page_cache else 'on'}, "
        f"Accept-Encoding: {encoding.get('Accept-Encoding', '(none)')}, load {os.getloadavg()}"
    )
    print(
        "| page | HTML/JSON | sent (body) | requests/s | p50 | p99 | ratio to the trivial view |"
        + (" trivial view just after: req/s |" if args.interleave else "")
    )
    print("|---|---:|---:|---:|---:|---:|---:|" + ("---:|" if args.interleave else ""))
    for name, size, sent, r, base_now in rows:
        base = base_now["rps"] if base_now else first
        print(
            f"| {name} | {size / 1024:.0f} KiB | {sent / 1024:.0f} KiB | {r['rps']:.1f} | "
            f"{r['p50'] * 1000:.1f} ms | "
            f"{r['p99'] * 1000:.1f} ms | {r['rps'] / base:.3f} |"
            + (f" {base:.1f} |" if args.interleave else "")
        )


if __name__ == "__main__":
    main()
