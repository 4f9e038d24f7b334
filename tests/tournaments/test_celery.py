"""Celery: the embedded default runs tasks eagerly; the test stack runs them on a real worker."""

import json
import os
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests.conftest import ROOT, eager_off
from tournaments.jobs.tasks import system_ping


@pytest.mark.django_db(transaction=True)
def test_task_runs_on_a_real_worker_over_redis(celery_worker_process):
    get_user_model().objects.create_user("seen-by-worker")
    with eager_off():
        result = system_ping.apply_async(queue=celery_worker_process)
        answer = result.get(timeout=60)
    assert answer["pid"] != os.getpid(), "the task ran in this process, not on the worker"
    assert answer["database"] == connection.settings_dict["NAME"]
    assert answer["vendor"] == "postgresql"
    assert answer["users"] == 1


def test_embedded_default_runs_tasks_eagerly_without_services(tmp_path):
    """With no environment at all: SQLite file, no broker, and a task still runs (inline)."""
    script = (
        "import json, django\n"
        "django.setup()\n"
        "from django.conf import settings\n"
        "from django.core.management import call_command\n"
        "call_command('migrate', verbosity=0)\n"
        "from tournaments.jobs.tasks import system_ping\n"
        "r = system_ping.delay().get()\n"
        "print(json.dumps({'eager': settings.CELERY_TASK_ALWAYS_EAGER,\n"
        "  'broker': settings.CELERY_BROKER_URL, 'vendor': r['vendor'], 'pid': r['pid']}))\n"
    )
    env = {
        "PATH": os.environ["PATH"],
        "PULKA_VAR_DIR": str(tmp_path),
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "tournaments.settings.base",
    }
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["eager"] is True
    assert result["broker"] == ""
    assert result["vendor"] == "sqlite"
    assert (tmp_path / "pulka.sqlite3").exists()
    assert (tmp_path / "secret_key").exists()
