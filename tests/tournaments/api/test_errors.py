"""The API answers JSON errors everywhere (issue 25, item 8): URLs under ``/api/`` that match no
route, exceptions (500), a database out of connections (503 with ``Retry-After``), and request
bodies over the limit (413, item 7)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import psycopg
import pytest
from django.db import OperationalError
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import ROOT
from tests.factories import UserFactory
from tests.tournaments.protocols.conftest import make_table
from tournaments.api.views.events import EventListApi
from tournaments.models import Protocol

pytestmark = pytest.mark.django_db


def _envelope(response) -> dict:
    assert response["Content-Type"] == "application/json", response.content[:200]
    body = response.json()
    assert set(body) == {"message", "extra"}
    return body


@pytest.mark.parametrize(
    "url", ["/api/", "/api/nothing", "/api/v1/nope/", "/api/v2/events/", "/api/v1/events/x/y/z/"]
)
def test_an_api_url_that_matches_no_route_is_a_json_404(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert _envelope(response)["message"] == "Not found."
    assert client.post(url, {}).status_code == 404


def test_pages_keep_their_html_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "application/json" not in response["Content-Type"]


def test_an_exception_in_the_api_is_a_json_500(monkeypatch):
    def boom(self, request, *args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(EventListApi, "get", boom)
    response = Client(raise_request_exception=False).get("/api/v1/events/")
    assert response.status_code == 500
    assert _envelope(response)["message"] == "Internal server error."
    assert b"a bug" not in response.content


@pytest.mark.parametrize(
    ("cause", "status"),
    [
        (psycopg.OperationalError("connection failed: connection refused"), 503),
        (psycopg.errors.TooManyConnections("sorry, too many clients already"), 503),
        (psycopg.errors.AdminShutdown("terminating connection"), 503),
        (psycopg.errors.QueryCanceled("canceling statement due to statement timeout"), 500),
    ],
)
def test_a_database_out_of_reach_is_a_503_with_retry_after(monkeypatch, settings, cause, status):
    def down(self, request, *args, **kwargs):
        raise OperationalError(str(cause)) from cause

    monkeypatch.setattr(EventListApi, "get", down)
    response = Client(raise_request_exception=False).get("/api/v1/events/")
    assert response.status_code == status
    body = _envelope(response)
    if status == 503:
        assert response["Retry-After"] == str(settings.PULKA_RETRY_AFTER_SECONDS)
        assert body["extra"] == {"retry_after": settings.PULKA_RETRY_AFTER_SECONDS}
    else:
        assert "Retry-After" not in response


def test_a_request_body_over_the_limit_is_refused_unread(client, settings):
    settings.MAX_REQUEST_BODY = 1000
    big = json.dumps({"name": "x" * 2000})
    response = client.post(
        "/api/v1/events/e/entries/register", big, content_type="application/json"
    )
    assert response.status_code == 413
    assert _envelope(response)["extra"] == {"limit": 1000}
    page = client.post("/accounts/login/", {"username": "x" * 2000, "password": "y"})
    assert page.status_code == 413
    small = client.post("/api/v1/events/e/entries/register", "{}", content_type="application/json")
    assert small.status_code != 413


@pytest.mark.parametrize(
    "body",
    ["[" * 100_000, '{"protocol": ' + "[" * 100_000 + "]" * 100_000 + "}", '{"a": ' * 50_000],
)
def test_a_json_body_nested_too_deeply_is_a_400_naming_it(body):
    """Issue 25 item 7 on the API: a body under the size limit but deeper than the decoder goes
    is a JSON 400, not a RecursionError answered 500 — on the table key's protocol submission,
    a referee's approval and the entries import (its own parsers)."""
    setup = make_table(slug="deep-json")
    table = APIClient(raise_request_exception=False)
    table.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    referee = APIClient(raise_request_exception=False)
    referee.force_authenticate(setup.chief)
    organiser = APIClient(raise_request_exception=False)
    organiser.force_authenticate(UserFactory(is_superuser=True))
    tables = "/api/v1/events/deep-json/rounds/1/tables/1/protocols"
    for api, url in (
        (table, tables),
        (referee, tables + "/approve"),
        (organiser, "/api/v1/events/deep-json/entries/import"),
    ):
        response = api.generic("POST", url, body, content_type="application/json")
        assert response.status_code == 400, (url, response.content[:300])
        assert _envelope(response)["message"] == "The JSON body is nested too deeply."
    assert not Protocol.objects.exists()


def test_the_default_limit_is_two_megabytes(settings):
    assert settings.MAX_REQUEST_BODY == settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 2 * 1024 * 1024


@pytest.mark.django_db(transaction=True)
def test_out_of_connections_for_real_is_a_503(tmp_path):
    """A role allowed no connections: PostgreSQL refuses it as it refuses anyone when
    ``max_connections`` is used up (SQLSTATE 53300); the API and the pages answer 503."""
    from django.db import connection

    role = f"pulka_noconn_{uuid.uuid4().hex[:10]}"
    settings_dict = connection.settings_dict
    admin_url = (
        f"postgres://{settings_dict['USER']}@{settings_dict['HOST']}:{settings_dict['PORT']}"
    )
    with psycopg.connect(admin_url + "/postgres", autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 0")
    try:
        script = (
            "import django, json\n"
            "django.setup()\n"
            "from django.test import Client\n"
            "c = Client(raise_request_exception=False)\n"
            "api = c.get('/api/v1/events/')\n"
            "page = c.get('/e/some-event/')\n"
            "print(json.dumps({'api': [api.status_code, api.get('Retry-After'), api.json()],\n"
            "  'page': [page.status_code, page.get('Retry-After')]}))\n"
        )
        env = {
            "PATH": os.environ["PATH"],
            "PYTHONPATH": str(ROOT),
            "PULKA_VAR_DIR": str(tmp_path),
            "DJANGO_SETTINGS_MODULE": "tournaments.settings.base",
            "DATABASE_URL": f"{admin_url}/{settings_dict['NAME']}".replace(
                f"//{settings_dict['USER']}@", f"//{role}@"
            ),
            "ALLOWED_HOSTS": "testserver",
            "LOG_LEVEL": "CRITICAL",
        }
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout.strip().splitlines()[-1])
        assert out["api"][:2] == [503, "10"]
        assert out["api"][2]["message"].startswith("The database is busy or unreachable")
        assert out["page"] == [503, "10"]
    finally:
        with psycopg.connect(admin_url + "/postgres", autocommit=True) as admin:
            admin.execute(f"DROP ROLE IF EXISTS {role}")
