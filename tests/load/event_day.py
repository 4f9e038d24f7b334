"""An event day against a real stack on loopback (issue 25, "Proof, scripted").

Each table saves protocol versions through its key (the API, ``X-Table-Key``) while readers
fetch the standings and round pages; then a referee approves every table. The cache is in Redis
as in production (``CACHE_URL``, ``tests/load/stack.py``). Optionally Redis is stopped in the
middle (``--redis-outage``: meanwhile tables save, referees log in through the login page,
players and tables open their private pages, readers read) and a worker is killed while it
runs a job (``--kill-worker``). Afterwards: every acknowledged version is stored, no answer
was a 5xx (in the outage neither: ``outage_doors_answered``),
every job ended, and each event's stored standings equal a recomputation from its approved
protocols (and were computed from the final data: no recomputation lost). Prints a JSON
report; exit status 1 when a check fails.

    python tests/load/event_day.py --players 150 --readers 200            # (a)
    python tests/load/event_day.py --players 150 --readers 200 \\
        --redis-outage 20 --kill-worker                                     # (b)
    python tests/load/event_day.py --players 150 --readers 50 --events 2 \\
        --web 2 --workers 2                                                 # (c)

Every loop is bounded in count and in time (``--max-seconds``).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import hashlib
import json
import os
import platform
import random
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.load.stack import Stack, latency_ms, scenario_main, wait_until  # noqa: E402


@dataclasses.dataclass
class Table:
    event: str
    number: int
    key: str
    documents: list[dict]


@dataclasses.dataclass
class Tally:
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    statuses: Counter = dataclasses.field(default_factory=Counter)
    server_errors: list = dataclasses.field(default_factory=list)
    unreachable: int = 0
    acked: set = dataclasses.field(default_factory=set)
    reads: int = 0
    latencies: list = dataclasses.field(default_factory=list)

    def note(self, method: str, url: str, code: int, took: float) -> None:
        with self.lock:
            self.statuses[code] += 1
            self.latencies.append(took)
            if code >= 500:
                self.server_errors.append(f"{method} {url} {code}")


def http(tally: Tally, method: str, url: str, body=None, headers=None, timeout=60.0):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            code, payload = r.status, r.read()
    except urllib.error.HTTPError as e:
        code, payload = e.code, e.read()
    except OSError:
        with tally.lock:
            tally.unreachable += 1
        return None, None
    tally.note(method, url, code, time.monotonic() - started)
    try:
        return code, json.loads(payload) if payload[:1] in (b"{", b"[") else None
    except ValueError:
        return code, None


_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the redirect is the answer (urllib raises it as an HTTPError)


def login(tally: Tally, base: str, username: str, password: str) -> int | None:
    """The login page as a browser uses it: its form (with the CSRF token and cookie), then the
    POST; the POST's status (302: logged in, 200: the form again; None: no answer)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(CookieJar()), _NoRedirect()
    )
    url = f"{base}/accounts/login/"
    try:
        started = time.monotonic()
        with opener.open(url, timeout=60) as r:
            page = r.read().decode("utf-8", "replace")
        tally.note("GET", url, r.status, time.monotonic() - started)
        token = _CSRF.search(page)
        form = urllib.parse.urlencode(
            {"username": username, "password": password,
             "csrfmiddlewaretoken": token.group(1) if token else ""}
        ).encode()  # fmt: skip
        started = time.monotonic()
        with opener.open(urllib.request.Request(url, data=form, method="POST"), timeout=60) as r:
            r.read()
            code = r.status
    except urllib.error.HTTPError as e:
        code = e.code
    except OSError:
        with tally.lock:
            tally.unreachable += 1
        return None
    tally.note("POST", url, code, time.monotonic() - started)
    return code


# --- setup (in this process, on the stack's database) ----------------------------------------


def setup_events(count: int, players: int, versions: int, seed: int):
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring.model import Ending
    from scoring.russian.generate import random_protocol
    from scoring.russian.jsonio import to_dict
    from tournaments.models import Entry, EventRole, Player
    from tournaments.services.events import event_create
    from tournaments.services.protocols import table_header
    from tournaments.services.rounds import round_create, round_draw, round_publish, round_start

    user = get_user_model().objects.create_user("load-referee", password="x")
    token = Token.objects.create(user=user).key
    rng = random.Random(seed)
    tables = []
    for i in range(count):
        event = event_create(
            slug=f"load-{i}",
            name=f"Load cup {i}",
            starts_on=dt.date.today(),
            ends_on=dt.date.today(),
            variant="sochi",
            pulka_target=10,
            rounds_planned=3,
            published=True,
            table_size_policy="3",
            by=user,
        )
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.CHIEF_REFEREE)
        for n in range(players):
            Entry.objects.create(event=event, player=Player.objects.create(name=f"P{i}-{n:03d}"))
        round_ = round_create(event=event, by=user)
        round_draw(round_=round_, by=user, seed=f"load {seed} {i}")
        round_publish(round_=round_, by=user)
        round_start(round_=round_, by=user)
        for table in round_.tables.order_by("number"):
            final = random_protocol(rng, target=10)
            table.first_dealer = final.first_dealer
            table.save(update_fields=["first_dealer"])
            final = dataclasses.replace(final, players=table_header(table).players)
            docs = []
            for v in range(1, versions):  # earlier versions: stopped by agreement, shorter
                cut = max(1, len(final.deals) * v // versions)
                early = dataclasses.replace(
                    final.with_deals(final.deals[:cut]), ending=Ending.AGREEMENT
                )
                docs.append(to_dict(early))
            docs.append(to_dict(final))
            tables.append(Table(event.slug, table.number, table.url_key, docs))
    return token, tables


def fresh_standings(event) -> dict:
    """The standings recomputed here, from scratch, from the stored protocols."""
    from tournaments.selectors.standings_inputs import standings_inputs, standings_sources
    from tournaments.standings.table import compute_standings

    sources = standings_sources(event=event)
    inputs = standings_inputs(event=event, stats_cache={}, sources=sources)
    standings = compute_standings(inputs.rows, inputs.config, inputs.adjustments, inputs.entries)
    return json.loads(json.dumps(standings.as_json(), default=str))


def fingerprint_hash(event) -> str:
    from tournaments.selectors.standings_inputs import standings_sources

    return standings_sources(event=event).digest()


# --- the day -----------------------------------------------------------------------------------


def run(args) -> dict:
    log_dir = Path(args.log_dir or ROOT / "var" / f"load-{os.getpid()}")
    stack = Stack(
        db=args.db,
        web=args.web,
        workers=args.workers,
        log_dir=log_dir,
        gunicorn_workers=args.gunicorn_workers,
        threads=args.threads,
    )
    report: dict = {
        "args": vars(args),
        "machine": f"{platform.node()} {os.cpu_count()} cpu",
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "checks": {},
    }
    t0 = time.monotonic()
    deadline = t0 + args.max_seconds
    try:
        stack.start()
        os.environ.update(
            {
                k: stack.env[k]
                for k in (
                    "DATABASE_URL",
                    "CELERY_BROKER_URL",
                    "CELERY_RESULT_BACKEND",
                    "CACHE_URL",
                    "PULKA_VAR_DIR",
                    "CELERY_TASK_ALWAYS_EAGER",
                    "STATIC_ROOT",
                )
            }
        )
        os.environ["DJANGO_SETTINGS_MODULE"] = "tournaments.settings.base"
        import django

        django.setup()
        from django.utils import timezone

        from tournaments.models import Entry, Event, Job, Protocol, StandingsSnapshot

        token, tables = setup_events(args.events, args.players, args.versions, args.seed)
        report["setup_seconds"] = round(time.monotonic() - t0, 1)
        report["tables"] = len(tables)
        bases = [f"http://127.0.0.1:{p}" for p in stack.web_ports]
        tally = Tally()
        writing = threading.Event()
        writing.set()
        faults: dict = {}

        redis_down = threading.Event()

        def fault_thread():
            if args.redis_outage:
                # in the middle of the day: once a quarter of the tables are approved (or
                # --fault-at seconds into the writes, whichever comes later)
                time.sleep(args.fault_at)
                limit = time.monotonic() + args.max_seconds / 2
                while approved < len(tables) // 4 and time.monotonic() < limit:
                    time.sleep(0.2)
                stack.stop_redis()
                redis_down.set()
                stopped = time.monotonic()
                faults["redis_stopped_wall"] = timezone.now()
                faults["redis_stopped_at"] = round(stopped - t0, 1)
                time.sleep(min(1.0, args.redis_outage / 2))

                def ask():  # a referee asks for a recomputation while Redis is down
                    faults["recompute_during_outage"] = [
                        http(
                            tally,
                            "POST",
                            f"{bases[0]}/api/v1/events/{slug}/standings/recompute",
                            None,
                            {"Authorization": f"Token {token}"},
                        )[0]
                        for slug in sorted({t.event for t in tables})
                    ]
                    faults["recompute_answered_at"] = round(time.monotonic() - t0, 1)

                asking = threading.Thread(target=ask, daemon=True)
                asking.start()  # its answer may be slow under load: Redis comes back on time
                doors = threading.Thread(target=outage_doors, daemon=True)
                doors.start()  # referees log in, players and tables open their pages
                time.sleep(max(0.0, stopped + args.redis_outage - time.monotonic()))
                # the jobs written meanwhile (approvals, the recomputation) wait for Redis; a
                # sweep may be trying to send one at this instant (state "sent"), so this
                # snapshot is for the report only; the check reads the jobs' times at the end
                faults["jobs_waiting_at_restart"] = Job.objects.filter(
                    state__in=("queued", "sent")
                ).count()
                faults["redis_back_wall"] = timezone.now()
                stack.start_redis()
                redis_down.clear()
                faults["redis_back_at"] = round(time.monotonic() - t0, 1)
                asking.join(timeout=120)
                doors.join(timeout=120)

        player_keys = list(
            Entry.objects.filter(event__slug__in={t.event for t in tables})
            .order_by("pk")
            .values_list("url_key", flat=True)[:50]
        )

        def outage_doors():
            """While Redis is down: a referee logs in through the login page (its CSRF form),
            players and tables open their private pages; every answer is counted by door."""
            answered: Counter = Counter()
            rng = random.Random(args.seed)
            while redis_down.is_set() and time.monotonic() < deadline:
                base = rng.choice(bases)
                answered["login", login(tally, base, "load-referee", "x")] += 1
                table = rng.choice(tables)
                answered["table page", http(tally, "GET", f"{base}/t/{table.key}/")[0]] += 1
                if player_keys:
                    key = rng.choice(player_keys)
                    answered["player page", http(tally, "GET", f"{base}/p/{key}/")[0]] += 1
                time.sleep(0.3)
            faults["outage_doors"] = {f"{door} {code}": n for (door, code), n in answered.items()}

        def kill_thread():
            """Hold the first event's standings lock (as a long recomputation does), ask for a
            recomputation, and when a worker holds that job (waiting inside its transaction),
            kill the worker's whole process; let go of the lock, restart the worker later."""
            from django.db import connection

            from tournaments.services.standings import LOCK_CLASS

            time.sleep(args.kill_at)
            event = Event.objects.get(slug=tables[0].event)
            with connection.cursor() as c:
                c.execute("SELECT pg_advisory_lock(%s, %s)", [LOCK_CLASS, event.pk])
            try:
                url = f"{bases[0]}/api/v1/events/{event.slug}/standings/recompute"
                http(tally, "POST", url, None, {"Authorization": f"Token {token}"})
                job, limit = None, time.monotonic() + args.max_seconds / 2
                while job is None and time.monotonic() < limit:
                    job = Job.objects.filter(
                        state="running", event=event, task="tournaments.standings_recompute"
                    ).first()
                    time.sleep(0.1)
                if job is not None:
                    time.sleep(1)
                    pid = int(job.worker.rsplit(":", 1)[1])
                    victim = next(
                        (i for i in range(args.workers) if stack.worker_pid(i) == pid), None
                    )
                    if victim is not None:
                        stack.kill_worker(victim)
                        faults["killed"] = {
                            "worker": victim,
                            "job": job.task_id,
                            "task": job.task,
                            "at": round(time.monotonic() - t0, 1),
                        }
            finally:
                with connection.cursor() as c:
                    c.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_CLASS, event.pk])
                connection.close()
            if "killed" in faults:
                time.sleep(args.restart_after)
                stack.start_worker(faults["killed"]["worker"])
                faults["restarted_at"] = round(time.monotonic() - t0, 1)

        # approvals: the referee approves the last version each table saved
        auth = {"Authorization": f"Token {token}"}
        approved = 0
        done: set = set()

        def approve(table: Table):
            nonlocal approved
            with tally.lock:
                if (table.event, table.number) in done:
                    return
            version = max(v for (e, n, v) in tally.acked if (e, n) == (table.event, table.number))
            base = bases[table.number % len(bases)]
            url = (
                f"{base}/api/v1/events/{table.event}/rounds/1/tables/{table.number}"
                "/protocols/approve"
            )
            for _attempt in range(5):
                code, _ = http(
                    tally, "POST", url, {"version": version, "confirm_missing": True}, auth
                )
                if code == 200:
                    with tally.lock:
                        approved += 1
                        if redis_down.is_set():
                            faults["approved_while_redis_down"] = (
                                faults.get("approved_while_redis_down", 0) + 1
                            )
                        done.add((table.event, table.number))
                    return
                time.sleep(0.5)

        def writer(table: Table):
            base = bases[table.number % len(bases)]
            url = f"{base}/api/v1/events/{table.event}/rounds/1/tables/{table.number}/protocols"
            based_on = None
            for doc in table.documents:
                for _attempt in range(5):  # bounded: a refused save is retried a few times
                    if time.monotonic() > deadline:
                        return
                    code, body = http(
                        tally,
                        "POST",
                        url,
                        {"protocol": doc, "based_on_version": based_on},
                        {"X-Table-Key": table.key},
                    )
                    if code == 201:
                        based_on = body["version"]
                        with tally.lock:
                            tally.acked.add((table.event, table.number, based_on))
                        break
                    time.sleep(0.2)
                time.sleep(args.pause)
            if based_on is not None:  # the referee approves the table as it finishes
                approve(table)

        def reader(i: int):
            rng = random.Random(i)
            events = sorted({t.event for t in tables})
            for _n in range(args.reads_per_client):
                if not writing.is_set() or time.monotonic() > deadline:
                    return
                base = rng.choice(bases)
                slug = rng.choice(events)
                path = rng.choice(
                    [
                        f"/e/{slug}/standings/",
                        f"/e/{slug}/rounds/1/",
                        f"/api/v1/events/{slug}/standings",
                    ]
                )
                code, _ = http(tally, "GET", base + path)
                if code is not None:
                    with tally.lock:
                        tally.reads += 1
                time.sleep(args.think)

        faulter = threading.Thread(target=fault_thread, daemon=True)
        faulter.start()
        killer = threading.Thread(target=kill_thread, daemon=True)
        if args.kill_worker:
            killer.start()
        readers = [
            threading.Thread(target=reader, args=(i,), daemon=True) for i in range(args.readers)
        ]
        for r in readers:
            r.start()
        w0 = time.monotonic()
        with ThreadPoolExecutor(max_workers=args.writers) as pool:
            list(pool.map(writer, tables))
        report["write_and_approve_seconds"] = round(time.monotonic() - w0, 1)
        writing.clear()
        for r in readers:
            r.join(timeout=60)
        faulter.join(timeout=max(0, deadline - time.monotonic()))
        if args.kill_worker:
            killer.join(timeout=max(0, deadline - time.monotonic()))
        # a table whose approval did not go through is approved now (bounded retries)
        with ThreadPoolExecutor(max_workers=args.writers) as pool:
            list(
                pool.map(
                    approve,
                    [
                        t
                        for t in tables
                        if any((e, n) == (t.event, t.number) for (e, n, _v) in tally.acked)
                    ],
                )
            )
        # everything catches up by itself: no job left, standings from the final data
        c0 = time.monotonic()
        events = list(Event.objects.filter(slug__in={t.event for t in tables}))

        def settled():
            if Job.objects.filter(state__in=["queued", "sent", "running"]).exists():
                return False
            for e in events:
                s = StandingsSnapshot.objects.get(event=e)
                if s.pending or s.inputs_hash != fingerprint_hash(e):
                    return False
            return True

        try:
            wait_until(settled, max(5.0, deadline - time.monotonic()), "catching up", every=1)
            report["caught_up_seconds"] = round(time.monotonic() - c0, 1)
        except TimeoutError:
            report["caught_up_seconds"] = None
        # --- checks ---
        stored = set(
            Protocol.objects.filter(table__round__event__in=events, entry_kind="table").values_list(
                "table__round__event__slug", "table__number", "version"
            )
        )
        checks = report["checks"]
        checks["acknowledged_stored"] = tally.acked <= stored
        checks["no_5xx"] = not tally.server_errors
        checks["all_approved"] = approved == len(tables)
        checks["caught_up"] = report["caught_up_seconds"] is not None
        checks["standings_equal_recomputation"] = True
        digests = {}
        for e in events:
            s = StandingsSnapshot.objects.get(event=e)
            mine = {k: v for k, v in s.data.items() if k != "meta"}
            fresh = fresh_standings(e)
            if json.loads(json.dumps(mine, default=str)) != fresh:
                checks["standings_equal_recomputation"] = False
            digests[e.slug] = hashlib.sha256(
                json.dumps(fresh["rows"], sort_keys=True).encode()
            ).hexdigest()[:16]
            runs = sorted(
                (r["started"], r["finished"])
                for r in s.runs
                if r["outcome"] in ("computed", "unchanged")
            )
            if any(b[0] < a[1] for a, b in zip(runs, runs[1:], strict=False)):
                checks["no_interleaved_recomputation"] = False
        checks.setdefault("no_interleaved_recomputation", True)
        jobs = Job.objects.exclude(task="tournaments.jobs_sweep")
        by_worker = Counter(
            w.rsplit(":", 1)[1] for w in jobs.exclude(worker="").values_list("worker", flat=True)
        )
        report["jobs"] = {
            "total": jobs.count(),
            "states": dict(Counter(jobs.values_list("state", flat=True))),
            "sent_more_than_once": jobs.filter(sends__gt=1).count(),
            "started_more_than_once": jobs.filter(attempts__gt=1).count(),
            "worker_processes": len(by_worker),
            "per_worker_process": sorted(by_worker.values(), reverse=True),
        }
        if args.workers > 1:
            checks["jobs_spread_over_workers"] = len(by_worker) >= args.workers
        if args.redis_outage:
            # a write that asks for a job was answered while Redis was down: an approval, or
            # the recomputation asked for during the outage (answered 202 before it came back)
            asked = faults.get("recompute_during_outage") == [202] * args.events and faults.get(
                "recompute_answered_at", 1e9
            ) < faults.get("redis_back_at", 0)
            # the doors that take a secret answered while Redis was down (a login logged in,
            # 302; the private pages 200) and none with a 5xx
            doors = faults.get("outage_doors", {})
            checks["outage_doors_answered"] = (
                doors.get("login 302", 0) > 0
                and doors.get("table page 200", 0) > 0
                and doors.get("player page 200", 0) > 0
                and not any(k.split()[-1].startswith("5") for k in doors)
            )
            checks["writes_during_outage_answered"] = (
                asked or faults.get("approved_while_redis_down", 0) > 0
            )
            # every job that carried the requests made while Redis was down waited for it
            # (none started before it came back: the broker is the only way to a worker) and
            # none was lost: the jobs written meanwhile, and those waiting when it stopped (a
            # request for the standings joins a standings job that waits, issue 28)
            down, back = faults.get("redis_stopped_wall"), faults.get("redis_back_wall")
            written = (
                Job.objects.filter(created_at__lt=back).exclude(started_at__lt=down)
                if down and back
                else Job.objects.none()
            )
            if faults.get("killed"):  # the job killed on purpose is checked below
                written = written.exclude(task_id=faults["killed"]["job"])
            faults["jobs_written_during_outage"] = {
                "count": written.count(),
                "states": dict(Counter(written.values_list("state", flat=True))),
                "started_before_redis_back": written.filter(started_at__lt=back).count(),
            }
            checks["jobs_queued_during_outage"] = (
                written.exists()
                and not written.filter(started_at__lt=back).exists()
                and not written.exclude(state="done").exists()
            )
            for key in ("redis_stopped_wall", "redis_back_wall"):
                faults.pop(key, None)  # the report is JSON
        if args.kill_worker:
            killed = faults.get("killed")
            checks["worker_killed_mid_job"] = killed is not None
            if killed:
                job = Job.objects.get(task_id=killed["job"])
                faults["killed"]["ended"] = job.state
                faults["killed"]["attempts"] = job.attempts
                checks["killed_job_ended"] = job.state in ("done", "failed")
        report.update(
            {
                "faults": faults,
                "standings_digest": digests,
                "versions_acknowledged": len(tally.acked),
                "versions_stored": len(stored),
                "reads": tally.reads,
                "requests": sum(tally.statuses.values()),
                "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
                "unreachable": tally.unreachable,
                "server_errors": tally.server_errors[:20],
                "latency_ms": latency_ms(tally.latencies),
                "seconds": round(time.monotonic() - t0, 1),
            }
        )
        report["ok"] = all(checks.values())
        return report
    finally:
        stack.finish(keep_db=args.keep_db)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=150, help="per event (tables of three)")
    p.add_argument("--events", type=int, default=1)
    p.add_argument("--versions", type=int, default=3, help="protocol versions per table")
    p.add_argument("--readers", type=int, default=200)
    p.add_argument("--reads-per-client", type=int, default=200)
    p.add_argument("--think", type=float, default=0.2, help="seconds between a reader's GETs")
    p.add_argument("--writers", type=int, default=25, help="tables saving at once")
    p.add_argument("--pause", type=float, default=0.5, help="seconds between a table's saves")
    p.add_argument("--web", type=int, default=1, help="gunicorn processes (masters)")
    p.add_argument("--gunicorn-workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    p.add_argument("--redis-outage", type=float, default=0, help="seconds Redis is stopped")
    p.add_argument("--fault-at", type=float, default=3, help="seconds into the writes")
    p.add_argument("--kill-worker", action="store_true")
    p.add_argument("--kill-at", type=float, default=2, help="seconds into the writes")
    p.add_argument("--restart-after", type=float, default=3)
    p.add_argument("--seed", type=int, default=25)
    p.add_argument("--max-seconds", type=float, default=900)
    p.add_argument("--db", default=f"pulka_load_{os.getpid()}")
    p.add_argument("--log-dir", default="")
    p.add_argument("--keep-db", action="store_true")
    return p


def main(argv=None) -> int:
    return scenario_main(run, parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
