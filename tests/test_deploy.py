"""``manage.py check --deploy`` is clean with the production settings behind HTTPS, and those
settings do what the checks stand for: HTTP redirected to HTTPS (the health check excepted),
HSTS on secure responses, secure cookies (issue 25, item 6)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def _production_env(tmp_path, **extra: str) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(ROOT),
        "PULKA_VAR_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "tournaments.settings.base",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "false",
        "ALLOWED_HOSTS": "pulka.example",
        "DATABASE_URL": "postgres://pulka:secret@127.0.0.1:1/pulka",
        "CELERY_BROKER_URL": "redis://127.0.0.1:1/0",
        "SECURE_COOKIES": "true",
        **extra,
    }


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_the_production_settings(tmp_path):
    done = _run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        _production_env(tmp_path),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_check_deploy_warns_without_https(tmp_path):
    """The control: without SECURE_COOKIES the same checks fail (HSTS, redirect, cookies)."""
    done = _run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        _production_env(tmp_path, SECURE_COOKIES="false"),
    )
    assert done.returncode != 0
    for code in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert code in done.stderr + done.stdout


def test_production_settings_redirect_to_https_and_send_hsts(tmp_path):
    script = (
        "import django, json\n"
        "django.setup()\n"
        "from django.conf import settings as s\n"
        "from django.test import Client\n"
        "c = Client(HTTP_HOST='pulka.example', raise_request_exception=False)\n"
        "plain = c.get('/api/v1/events/')\n"
        "health = c.get('/healthz')\n"
        "secure = c.get('/healthz', secure=True)\n"
        "print(json.dumps({'plain': [plain.status_code, plain.get('Location')],\n"
        "  'health': health.status_code, 'hsts': secure.get('Strict-Transport-Security'),\n"
        "  'cookies': [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE]}))\n"
    )
    done = _run([sys.executable, "-c", script], _production_env(tmp_path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["plain"] == [301, "https://pulka.example/api/v1/events/"]
    assert out["health"] == 503  # answered over HTTP (the database is unreachable here)
    assert out["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert out["cookies"] == [True, True]


def test_the_placeholder_secret_key_of_the_example_env_is_refused(tmp_path):
    """Issue 38: a site started with ``docker/.env.example``'s SECRET_KEY would sign its
    sessions with a key anybody can read."""
    example = (ROOT / "docker" / ".env.example").read_text()
    placeholder = next(
        line.split("=", 1)[1] for line in example.splitlines() if line.startswith("SECRET_KEY=")
    )
    done = _run(
        [sys.executable, "manage.py", "check"],
        _production_env(tmp_path, SECRET_KEY=placeholder),
    )
    assert done.returncode != 0
    assert "SECRET_KEY is the placeholder of docker/.env.example" in done.stderr


@pytest.mark.django_db
def test_every_answer_carries_a_content_security_policy(client):
    """Issue 38: no third-party origin, no inline script (the language switcher's handler is in
    a script file)."""
    for path in ("/", "/api/v1/events/", "/healthz", "/accounts/login/"):
        policy = client.get(path)["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self';" in policy
        assert "frame-ancestors 'none'" in policy
    page = client.get("/accounts/login/").content.decode()
    assert "onchange=" not in page and "data-autosubmit" in page
