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
the saves' p50 and p99, the trivial writes' p50 and p99, and their ratio, as JSON, then one
Markdown row per count for docs/performance.md.

The readers are phones' browsers: they accept gzip (the stored pages are sent as stored, never
decompressed for them), keep their connection open and revalidate a page they have with its ETag
(``Cache-Control: no-cache``: a 304 while it has not changed), as ``bench_pages`` measures them
(``--plain-readers``: no ``Accept-Encoding``, no ETag, a new connection per request, the
readers of the first measurement). They run in ``--reader-processes`` processes of their own,
so that the writers' timings are not taken in a process whose interpreter lock a thousand
reading threads share. The report gives the load average before and after the saves and the CPU
seconds spent while they ran: gunicorn, the database's backends, the readers, the benchmark
itself, and the rest of the machine (other work on a shared machine).
"""

from __future__ import annotations

import argparse
import http.client
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


# --- the readers (phones), in processes of their own -------------------------------------------

BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd"  # Chromium's, as bench_pages sends


def _phone(port: int, paths: list[str], seed: int, think: float, plain: bool, stop, tally) -> None:
    """One phone: GETs a random page of ``paths`` every ``think`` seconds until ``stop``."""
    rng = random.Random(seed)
    etags: dict[str, str] = {}
    conn = None
    while not stop.is_set():
        path = rng.choice(paths)
        headers = {} if plain else {"Accept-Encoding": BROWSER_ACCEPT_ENCODING}
        if not plain and path in etags:
            headers["If-None-Match"] = etags[path]
        started = time.monotonic()
        code = None
        for _attempt in range(2):  # a kept connection the server closed: open a new one
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("GET", path, headers=headers)
                r = conn.getresponse()
                r.read()
                code = r.status
                if not plain and r.getheader("ETag"):
                    etags[path] = r.getheader("ETag")
                if plain or (r.getheader("Connection") or "").lower() == "close":
                    conn.close()
                    conn = None
                break
            except (OSError, http.client.HTTPException):
                if conn is not None:
                    conn.close()
                conn = None
        tally(code, time.monotonic() - started)
        stop.wait(think)


def _read_as_phones(argv: list[str]) -> int:
    """``--read-as-phones PORT PATHS THREADS SEED THINK PLAIN``: phones until stdin closes; prints
    what they saw as JSON."""
    port, paths, threads, seed, think, plain = argv
    stop = threading.Event()
    lock = threading.Lock()
    codes: dict[str, int] = {}
    took: list[float] = []

    def tally(code, seconds: float) -> None:
        with lock:
            codes[str(code)] = codes.get(str(code), 0) + 1
            took.append(seconds)

    phones = [
        threading.Thread(
            target=_phone,
            args=(
                int(port),
                paths.split(","),
                int(seed) + i,
                float(think),
                plain == "1",
                stop,
                tally,
            ),
            daemon=True,
        )  # fmt: skip
        for i in range(int(threads))
    ]
    for t in phones:
        t.start()
    sys.stdin.read()  # the benchmark closes it when the saves are done
    stop.set()
    for t in phones:
        t.join(timeout=70)
    print(json.dumps({"codes": codes, "took": took}))
    return 0


def _readers_start(args, port: int, slug: str) -> list[subprocess.Popen]:
    paths = f"/e/{slug}/standings/,/e/{slug}/rounds/1/"
    procs = []
    n = max(1, min(args.reader_processes, args.readers)) if args.readers else 0
    for k in range(n):
        threads = args.readers // n + (1 if k < args.readers % n else 0)
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--read-as-phones",
                    str(port),
                    paths,
                    str(threads),
                    str(1000 * k),
                    str(args.think),
                    "1" if args.plain_readers else "0",
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )  # fmt: skip
        )
    return procs


def _readers_stop(procs: list[subprocess.Popen]) -> dict:
    codes: dict[str, int] = {}
    took: list[float] = []
    for p in procs:
        out, _err = p.communicate(input="", timeout=120)
        seen = json.loads(out)
        for code, n in seen["codes"].items():
            codes[code] = codes.get(code, 0) + n
        took += seen["took"]
    return {"answers": dict(sorted(codes.items())), **_quantiles(took)}


# --- where the CPU went -------------------------------------------------------------------------

_HZ = os.sysconf("SC_CLK_TCK")


def _cpu_of(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / _HZ


def _cpu_split(stack, readers: list[subprocess.Popen], db: str) -> dict[str, float]:
    """CPU seconds so far: gunicorn (its process group), the database's backends for ``db``, the
    readers' processes, this process, and the whole machine."""
    web_groups = {p.pid for name, p in stack.procs.items() if name.startswith("web")}
    reader_pids = {p.pid for p in readers}
    out = {"web": 0.0, "database": 0.0, "readers": 0.0, "bench": 0.0}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        pid = int(entry)
        try:
            group = os.getpgid(pid)
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if group in web_groups:
            out["web"] += _cpu_of(pid)
        elif cmd.startswith(b"postgres") and f" {db} ".encode() in cmd:
            out["database"] += _cpu_of(pid)
        elif pid in reader_pids:
            out["readers"] += _cpu_of(pid)
    out["bench"] = sum(os.times()[:2])
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    out["machine"] = (sum(ticks) - ticks[3] - ticks[4]) / _HZ  # all but idle and iowait
    return out


def _cpu_spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    spent = {k: after[k] - before[k] for k in before}
    spent["others"] = spent.pop("machine") - sum(spent.values())
    return {k: round(v, 1) for k, v in spent.items()}


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

        readers = _readers_start(args, stack.web_ports[0], made[0].event)
        time.sleep(args.warm_up if readers else 0)  # the readers at their pace before the saves
        writers = [threading.Thread(target=table_saves, args=(t,)) for t in made]
        load_before = os.getloadavg()[0]
        cpu_before = _cpu_split(stack, readers, args.db)
        started = time.monotonic()
        for w in writers:
            w.start()
        for w in writers:
            w.join()
        save_seconds = time.monotonic() - started
        cpu = _cpu_spent(cpu_before, _cpu_split(stack, readers, args.db))
        load_after = os.getloadavg()[0]
        read = _readers_stop(readers) if readers else {}
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
            "reads": read,
            "load_average": [round(load_before, 1), round(load_after, 1)],
            "cpu_seconds": cpu,
            "gunicorn": f"{args.gunicorn_workers} workers x {args.threads} threads",
        }
        if saves and trivial:
            out["ratio_p50"] = round(statistics.median(saves) / statistics.median(trivial), 1)
            out["ratio_p99"] = round(out["save"]["p99_ms"] / out["trivial_write"]["p99_ms"], 1)
        return out
    finally:
        stack.finish()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, nargs="+", default=[50, 150])
    p.add_argument("--versions", type=int, default=3, help="versions each table saves")
    p.add_argument("--readers", type=int, default=150, help="phones reading meanwhile")
    p.add_argument("--think", type=float, default=1.0, help="seconds between a reader's GETs")
    p.add_argument("--gunicorn-workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--reader-processes", type=int, default=2, help="processes of the readers")
    p.add_argument(
        "--plain-readers",
        action="store_true",
        help="readers without gzip, ETag or kept connections (the first measurement)",
    )
    p.add_argument("--warm-up", type=float, default=3.0, help="seconds of reading before saves")
    p.add_argument("--json-only", action="store_true", help="no Markdown rows after the JSON")
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
                [sys.executable, __file__, "--tables", str(n), "--json-only", *rest],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            results += json.loads(done.stdout)["results"]
    machine = f"{os.uname().nodename} {os.cpu_count()} cpu"
    print(json.dumps({"machine": machine, "results": results}, indent=1))
    if not args.json_only:
        print()
        print(f"<!-- {machine}, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC -->")
        for r in results:
            print(_row(r, args))
    return 0


def _row(r: dict, args) -> str:
    """The result as a row of docs/performance.md's table ("The event-day write path")."""
    save, trivial = r["save"], r["trivial_write"]
    command = f"`.venv/bin/python tests/bench/bench_writes.py --tables {r['tables']} --readers {r['readers']}`"
    cpu = ", ".join(f"{k} {v}" for k, v in r.get("cpu_seconds", {}).items())
    return (
        f"| {r['tables']} | {r['readers']:,} | {save.get('p50_ms', 0):,.0f} / "
        f"{save.get('p99_ms', 0):,.0f} ms | {trivial.get('p50_ms', 0):,.0f} / "
        f"{trivial.get('p99_ms', 0):,.0f} ms | {r.get('ratio_p50', '—')} / "
        f"{r.get('ratio_p99', '—')} | {save['n']} saves in {r['seconds']} s; load "
        f"{r['load_average'][0]} → {r['load_average'][1]}; CPU s: {cpu}; gunicorn "
        f"{r['gunicorn']}; reads {r['reads'].get('answers', {})} | {command} |"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--read-as-phones"]:
        sys.exit(_read_as_phones(sys.argv[2:]))
    sys.exit(main())
