"""A private Pulka stack on loopback for the load scenarios: its own PostgreSQL database, its
own ``redis-server`` on a free port (never the shared one on 6379), gunicorn, Celery workers
and beat, all bound to 127.0.0.1 and stopped by :meth:`Stack.close`."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG = os.environ.get("PULKA_LOAD_PG", "postgres://postgres@127.0.0.1:5432")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float, what: str, every: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise TimeoutError(f"{what}: not within {timeout:.0f} s")


class Stack:
    """``web`` gunicorn masters (``threads`` threads each), ``workers`` Celery workers (solo
    pool: one process each, so killing one kills its job), one beat, one private Redis."""

    def __init__(
        self,
        *,
        db: str,
        web: int = 1,
        workers: int = 1,
        log_dir: Path,
        gunicorn_workers: int = 2,
        threads: int = 4,
        env: dict | None = None,
    ) -> None:
        self.db, self.log_dir = db, log_dir
        self.redis_port = free_port()
        self.web_ports = [free_port() for _ in range(web)]
        self.gunicorn_workers, self.threads = gunicorn_workers, threads
        self.procs: dict[str, subprocess.Popen] = {}
        self.n_workers = workers
        log_dir.mkdir(parents=True, exist_ok=True)
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tournaments.settings.base",
            "DATABASE_URL": f"{PG}/{db}",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "CELERY_RESULT_BACKEND": f"redis://127.0.0.1:{self.redis_port}/1",
            # the cache in Redis as docker/compose.yaml configures it (issue 38): the lockouts'
            # counts and the public pages' versions stop with Redis in an outage
            "CACHE_URL": f"redis://127.0.0.1:{self.redis_port}/2",
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "PULKA_VAR_DIR": str(log_dir / "var"),
            "STATIC_ROOT": str(log_dir / "static"),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONPATH": str(ROOT),
            "CONN_MAX_AGE": "60",
            # short lease and resend so a scenario sees the sweep act within seconds
            "PULKA_JOBS_SWEEP_EVERY": "2",
            "PULKA_JOB_HEARTBEAT": "1",
            "PULKA_JOB_LEASE": "6",
            "PULKA_JOB_RESEND_AFTER": "8",
            **(env or {}),
        }

    # --- processes -------------------------------------------------------------------------

    def _start(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "ab")
        proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # its own group: killed whole
        self.procs[name] = proc
        return proc

    def _kill(self, name: str, sig=signal.SIGTERM, wait: float = 20) -> None:
        proc = self.procs.pop(name, None)
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def start_redis(self) -> None:
        self._start(
            "redis",
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.redis_port),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
        )
        wait_until(lambda: self.redis_up(), 20, "redis")

    def stop_redis(self) -> None:
        self._kill("redis")

    def redis_up(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def manage(self, *args: str, timeout: float = 300) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if out.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)}: {out.stderr[-2000:]}")
        return out.stdout

    def create_database(self) -> None:
        admin = f"{PG}/postgres"
        subprocess.run(
            ["psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)'],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            ["psql", admin, "-qc", f'CREATE DATABASE "{self.db}"'], check=True, capture_output=True
        )
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")

    def drop_database(self) -> None:
        subprocess.run(
            ["psql", f"{PG}/postgres", "-qc", f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)'],
            capture_output=True,
        )

    def start_web(self) -> None:
        for i, port in enumerate(self.web_ports):
            self._start(
                f"web{i}",
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "tournaments.wsgi",
                    "-b",
                    f"127.0.0.1:{port}",
                    "-w",
                    str(self.gunicorn_workers),
                    "--threads",
                    str(self.threads),
                    "--timeout",
                    "60",
                ],
            )
        for port in self.web_ports:
            wait_until(lambda p=port: self._http_ok(p), 60, f"gunicorn on {port}")

    def _http_ok(self, port: int) -> bool:
        try:
            return (
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).status < 500
            )
        except Exception:
            return False

    def start_worker(self, i: int) -> None:
        self._start(
            f"worker{i}",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "tournaments",
                "worker",
                "--pool=solo",
                "-n",
                f"load{i}@%h",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
            ],
        )

    def kill_worker(self, i: int) -> None:
        """The whole worker process (its group), at once: what a crashed host does."""
        self._kill(f"worker{i}", signal.SIGKILL)

    def worker_pid(self, i: int) -> int | None:
        proc = self.procs.get(f"worker{i}")
        return proc.pid if proc else None

    def start_beat(self) -> None:
        self._start(
            "beat",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "tournaments",
                "beat",
                "--loglevel=INFO",
                "-s",
                str(self.log_dir / "celerybeat-schedule"),
            ],
        )

    def start(self) -> None:
        self.start_redis()
        self.create_database()
        self.start_web()
        for i in range(self.n_workers):
            self.start_worker(i)
        self.start_beat()
        # every worker takes the event's jobs from the start: on a busy machine a worker that is
        # still loading would leave them all to the other (the scale-out scenario's check)
        wait_until(
            lambda: all(self.worker_ready(i) for i in range(self.n_workers)), 120, "workers ready"
        )

    def worker_ready(self, i: int) -> bool:
        """Whether worker ``i`` has said it is ready (Celery's "ready." line in its log)."""
        path = self.log_dir / f"worker{i}.log"
        return path.exists() and b" ready." in path.read_bytes()

    def close(self) -> None:
        for name in list(self.procs):
            self._kill(name)
        shutil.rmtree(self.log_dir / "static", ignore_errors=True)

    def finish(self, keep_db: bool = False) -> None:
        """Stops the stack and, unless ``keep_db``, drops its database: this process's own
        connections to it (a scenario sets Django up once the database exists) closed first."""
        self.close()
        if keep_db:
            return
        if "django" in sys.modules and sys.modules["django"].apps.apps.ready:
            sys.modules["django.db"].connections.close_all()
        self.drop_database()


def latency_ms(latencies: list[float]) -> dict:
    """p50, p95 and the longest of the answers' times in seconds, as whole milliseconds (None
    before any answer)."""
    lat = sorted(latencies)
    return {
        "p50": round(1000 * lat[len(lat) // 2]) if lat else None,
        "p95": round(1000 * lat[int(len(lat) * 0.95)]) if lat else None,
        "max": round(1000 * lat[-1]) if lat else None,
    }


def scenario_main(run, parser, argv=None) -> int:
    """A scenario's command line: runs it, prints its report as JSON, exits 1 unless it held."""
    report = run(parser.parse_args(argv))
    print(json.dumps(report, indent=1, default=str))
    return 0 if report.get("ok") else 1
