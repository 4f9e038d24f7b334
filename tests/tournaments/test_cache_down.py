"""Redis down must not stop the hall (issue 38): with the cache out of reach every door answers
(2xx, 3xx or 4xx, never 5xx), the public pages come from the database, the lockouts count in
the process with a conservative limit, and a dead Redis costs milliseconds, not seconds.

Two ways to take Redis away: the cache pointed at a closed port of loopback, and a private
``redis-server`` (on a free port this test starts itself, never the shared one) stopped in the
middle of a test."""

from __future__ import annotations

import logging
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.russian.jsonio import to_dict
from tests.tournaments.protocols.conftest import make_table
from tests.tournaments.protocols.test_protocol_services import closed_protocol
from tournaments.access import lockout
from tournaments.models import Round
from tournaments.web_cache.backend import RedisCache, unreachable

pytestmark = pytest.mark.django_db


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_caches(port: int, **options) -> dict:
    return {
        "default": {
            "BACKEND": "tournaments.web_cache.backend.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "KEY_PREFIX": f"pulka-test-{port}",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 1.0, **options},
        }
    }


@contextmanager
def cache_at(port: int, **options) -> Iterator[None]:
    """The cache in Redis on ``port`` (as in production) and the public pages served from it."""
    lockout._local.clear()
    lockout._local_logged[0] = -float("inf")
    with override_settings(CACHES=redis_caches(port, **options), PULKA_PAGE_CACHE=True):
        yield
    lockout._local.clear()


@pytest.fixture
def private_redis() -> Iterator[tuple[int, subprocess.Popen]]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is needed (the test command installs it)")
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "the private redis-server did not start"
            time.sleep(0.05)
    try:
        yield port, proc
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def every_door(setup, token: str, based_on: int | None = None) -> dict[str, int]:
    """One request through each door of the hall: logins, keys, token, pages and the API."""
    slug = setup.event.slug
    statuses = {}
    statuses["login right"] = (
        Client()
        .post("/accounts/login/", {"username": setup.referee.username, "password": "pw"})
        .status_code
    )
    statuses["login wrong"] = (
        Client()
        .post("/accounts/login/", {"username": setup.referee.username, "password": "nope"})
        .status_code
    )
    statuses["table page"] = Client().get(f"/t/{setup.table.url_key}/").status_code
    statuses["player page"] = Client().get(f"/p/{setup.entries[0].url_key}/").status_code
    statuses["wrong key"] = Client().get("/t/0123456789abcdef/").status_code
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    statuses["api token"] = api.get("/api/v1/events/").status_code
    url = f"/api/v1/events/{slug}/rounds/1/tables/1/protocols"
    table = APIClient()
    table.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    statuses["table-key save"] = table.post(
        url, {"protocol": to_dict(closed_protocol(setup)), "based_on_version": based_on},
        format="json",
    ).status_code  # fmt: skip
    for name, path in (
        ("event page", f"/e/{slug}/"),
        ("round page", f"/e/{slug}/rounds/1/"),
        ("standings page", f"/e/{slug}/standings/"),
        ("standings API", f"/api/v1/events/{slug}/standings"),
        ("hall screen", f"/e/{slug}/hall/"),
    ):
        statuses[name] = Client().get(path).status_code
    return statuses


def published_table():
    setup = make_table()
    Round.objects.filter(pk=setup.round.pk).update(published_at=setup.event.created_at)
    return setup


def test_the_backend_answers_as_an_empty_cache_when_redis_is_out_of_reach(caplog):
    caplog.set_level(logging.WARNING, logger="pulka.cache")
    backend = RedisCache(f"redis://127.0.0.1:{free_port()}/0",
                         {"OPTIONS": {"socket_connect_timeout": 0.25, "RETRY_SECONDS": 30}})  # fmt: skip
    assert not backend.unreachable()
    assert backend.get("k", "default") == "default"
    assert backend.unreachable() and unreachable(backend)
    assert backend.get_many(["a", "b"]) == {}
    assert backend.add("k", 1) is False and backend.touch("k") is False
    assert backend.set("k", 1) is None and backend.set_many({"k": 1}) == ["k"]
    with pytest.raises(ValueError):
        backend.incr("k")
    warnings = [r for r in caplog.records if r.name == "pulka.cache"]
    assert len(warnings) == 1 and "cache unreachable" in warnings[0].message  # once an outage


def test_a_dead_redis_is_not_tried_again_within_the_retry_window(monkeypatch):
    backend = RedisCache(f"redis://127.0.0.1:{free_port()}/0", {"OPTIONS": {"RETRY_SECONDS": 30}})
    backend.get("k")
    tried = []
    monkeypatch.setattr(backend, "_cache", type("Spy", (), {"get": lambda *a: tried.append(a)})())
    started = time.monotonic()
    for _ in range(1000):
        assert backend.get("k") is None
    assert tried == [] and time.monotonic() - started < 0.5


def test_the_connect_timeout_is_short_by_default():
    from tournaments.settings import base  # the production settings' module (not the tests')

    if base.CACHES["default"]["BACKEND"] != "tournaments.web_cache.backend.RedisCache":
        pytest.skip("the production settings read no CACHE_URL naming Redis here")
    options = base.CACHES["default"]["OPTIONS"]
    assert options["socket_connect_timeout"] <= 0.5 and options["socket_timeout"] <= 2


def test_sessions_live_in_the_database(settings):
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


def test_every_door_answers_with_the_cache_at_a_closed_port():
    setup = published_table()
    token = Token.objects.create(user=setup.chief).key
    with cache_at(free_port()):
        statuses = every_door(setup, token)
        assert unreachable(cache)
    assert statuses == {
        "login right": 302,
        "login wrong": 200,
        "table page": 200,
        "player page": 200,
        "wrong key": 404,
        "api token": 200,
        "table-key save": 201,
        "event page": 200,
        "round page": 200,
        "standings page": 200,
        "standings API": 200,
        "hall screen": 200,
    }


def test_the_lockout_fails_open_to_a_conservative_count_in_the_process(caplog):
    caplog.set_level(logging.INFO, logger="pulka.security")
    setup = make_table()
    with cache_at(free_port()):
        for _ in range(5):  # half the allowance of 10, counted in this process
            r = Client().post("/accounts/login/", {"username": setup.chief.username,
                                                   "password": "wrong"})  # fmt: skip
            assert r.status_code in (200, 429)
        r = Client().post("/accounts/login/", {"username": setup.chief.username, "password": "pw"})
        assert r.status_code == 429 and "Too many failed attempts" in r.content.decode()
        # another account is not locked by these failures
        r = Client().post(
            "/accounts/login/", {"username": setup.referee.username, "password": "pw"}
        )
        assert r.status_code == 302
    events = [r.message for r in caplog.records if r.name == "pulka.security"]
    assert "lockout counts in this process: the shared cache is out of reach" in events


def test_redis_stopped_in_the_middle_every_door_still_answers(private_redis, caplog):
    port, proc = private_redis
    setup = published_table()
    token = Token.objects.create(user=setup.chief).key
    with cache_at(port, RETRY_SECONDS=1):
        before = every_door(setup, token)
        assert not unreachable(cache)
        assert cache.get_many([f"pulka:pv:e:{setup.event.slug}"])  # the versions in Redis
        proc.terminate()
        proc.wait(timeout=20)
        started = time.monotonic()
        during = every_door(setup, token, based_on=1)
        took = time.monotonic() - started
        assert unreachable(cache)
    assert before["table-key save"] == during["table-key save"] == 201
    assert before == during, (before, during)
    assert all(code < 500 for code in during.values())
    assert took < 30  # no request waited out Redis (each would be seconds on a long timeout)
