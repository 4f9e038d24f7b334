"""The load scenarios' short forms (issue 25, "Proof, scripted"): each runs
``tests/load/event_day.py`` against its own stack on loopback (PostgreSQL database, private
``redis-server`` on a free port, gunicorn, Celery workers and beat) and asserts its checks.
The long forms and their figures are in docs/reliability.md."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SMALL = [
    "--players",
    "15",
    "--versions",
    "3",
    "--writers",
    "2",
    "--pause",
    "1",
    "--readers",
    "4",
    "--reads-per-client",
    "40",
    "--max-seconds",
    "300",
]

pytestmark = pytest.mark.load


def scenario(tmp_path, name: str, *args: str) -> dict:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is needed (the test command installs it)")
    from django.conf import settings

    # after the test database's name (PULKA_TEST_DB_NAME, or test_ and DATABASE_URL's)
    db = f"{settings.DATABASES['default']['TEST']['NAME']}_load_{name}"
    out = subprocess.run(
        [
            sys.executable,
            "tests/load/event_day.py",
            *SMALL,
            *args,
            "--db",
            db,
            "--log-dir",
            str(tmp_path / name),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.stdout.strip(), out.stderr[-3000:]
    report = json.loads(out.stdout)
    failed = [k for k, ok in report["checks"].items() if not ok]
    assert report["ok"] and out.returncode == 0, (failed, report, out.stderr[-2000:])
    return report


@pytest.fixture(scope="module")
def faults_run(tmp_path_factory):
    """(a) and (b): the event day, with Redis stopped for 5 s in the middle and a worker
    killed while it holds a job; one worker, one gunicorn."""
    return scenario(
        tmp_path_factory.mktemp("load"),
        "faults",
        "--redis-outage",
        "5",
        "--fault-at",
        "2",
        "--kill-worker",
        "--kill-at",
        "1",
    )


def test_an_event_day_with_redis_down_and_a_worker_killed(faults_run):
    r = faults_run
    assert r["versions_acknowledged"] == r["versions_stored"] == 15
    assert r["statuses"].get("201") == 15 and not r["server_errors"]
    # with the cache in Redis (CACHE_URL), logins and private pages answered in the outage
    assert r["checks"]["outage_doors_answered"], r["faults"].get("outage_doors")
    assert r["faults"]["killed"]["attempts"] >= 2  # the killed job ran again, elsewhere
    assert r["jobs"]["states"] == {"done": r["jobs"]["total"]}


def test_scale_out_two_web_processes_two_workers_two_events(faults_run, tmp_path):
    """(c): the same day for two events at once on two gunicorns and two workers: the jobs
    spread over both workers and the standings are those of the single-worker run."""
    r = scenario(tmp_path, "scale", "--events", "2", "--web", "2", "--workers", "2")
    assert r["checks"]["jobs_spread_over_workers"]
    assert r["standings_digest"]["load-0"] == faults_run["standings_digest"]["load-0"]
    assert r["jobs"]["states"] == {"done": r["jobs"]["total"]}
