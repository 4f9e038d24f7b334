"""/healthz reports the database and the broker and fails when a configured one is unreachable;
anonymous callers learn only up or down, staff see the details (issue 25, item 9)."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import override_settings

from tests.conftest import ROOT


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("ops", is_staff=True))
    return client


@pytest.mark.django_db
def test_anonymous_callers_learn_only_up_or_down(client, django_user_model):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        down = client.get("/healthz")
    assert down.status_code == 503
    assert down["Retry-After"] == str(settings.PULKA_RETRY_AFTER_SECONDS)  # issue 38
    assert "Retry-After" not in response
    assert down.json() == {"status": "fail"}
    assert b"127.0.0.1" not in down.content and b"redis" not in down.content
    client.force_login(django_user_model.objects.create_user("referee"))  # not staff
    assert client.get("/healthz").json() == {"status": "ok"}


@pytest.mark.django_db
def test_healthz_ok_on_postgresql_and_redis(staff_client):
    response = staff_client.get("/healthz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    services = {s["name"]: s for s in body["services"]}
    assert services["database"] == {"name": "database", "ok": True, "detail": "postgresql"}
    assert services["broker"]["ok"] is True
    assert services["broker"]["detail"].startswith("redis://")


@pytest.mark.django_db
def test_healthz_fails_when_the_broker_is_unreachable(staff_client):
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        response = staff_client.get("/healthz")
    assert response.status_code == 503
    services = {s["name"]: s for s in response.json()["services"]}
    assert services["broker"]["ok"] is False
    assert services["database"]["ok"] is True


def test_healthz_fails_when_the_database_is_unreachable(tmp_path):
    script = (
        "import django, json\n"
        "django.setup()\n"
        "from django.test import Client\n"
        "from tournaments.services.health import health_check\n"
        "r = Client().get('/healthz')\n"
        "print(json.dumps({'status': r.status_code, 'body': r.json(),\n"
        "  'services': [s.as_dict() for s in health_check()]}))\n"
    )
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(ROOT),
        "PULKA_VAR_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "tournaments.settings.base",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:1/nowhere",
        "ALLOWED_HOSTS": "testserver",
    }
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["status"] == 503
    assert result["body"] == {"status": "fail"}  # no host or port for an anonymous caller
    services = {s["name"]: s for s in result["services"]}
    assert services["database"]["ok"] is False
    assert "postgresql" in services["database"]["detail"]
    assert services["broker"]["ok"] is True  # none configured: eager mode is healthy


def test_settings_come_from_the_environment(tmp_path):
    script = (
        "import django, json\n"
        "django.setup()\n"
        "from django.conf import settings as s\n"
        "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'],\n"
        "  'name': s.DATABASES['default']['NAME'], 'broker': s.CELERY_BROKER_URL,\n"
        "  'eager': s.CELERY_TASK_ALWAYS_EAGER, 'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS,\n"
        "  'key': s.SECRET_KEY}))\n"
    )
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(ROOT),
        "PULKA_VAR_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "tournaments.settings.base",
        "DATABASE_URL": "postgres://u:p@db.example:5433/pulkadb",
        "REDIS_URL": "redis://cache.example:6379/2",
        "SECRET_KEY": "from-env",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "pulka.example,localhost",
    }
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["engine"] == "django.db.backends.postgresql"
    assert s["name"] == "pulkadb"
    assert s["broker"] == "redis://cache.example:6379/2"
    assert s["eager"] is False
    assert s["debug"] is False
    assert s["hosts"] == ["pulka.example", "localhost"]
    assert s["key"] == "from-env"
    assert not (tmp_path / "secret_key").exists()


def test_every_environment_variable_the_settings_read_is_documented():
    import re
    from pathlib import Path

    settings_text = (ROOT / "tournaments" / "settings" / "base.py").read_text()
    readme = Path(ROOT / "docs" / "configuration.md").read_text()
    names = set(re.findall(r'env\.(?:str|int|bool|list|db_url)\("([A-Z_]+)"', settings_text))
    assert {
        "DATABASE_URL",
        "REDIS_URL",
        "CELERY_BROKER_URL",
        "SECRET_KEY",
        "DEBUG",
        "ALLOWED_HOSTS",
    } <= names
    undocumented = sorted(n for n in names if f"`{n}`" not in readme)
    assert not undocumented, f"add these to docs/configuration.md: {undocumented}"
