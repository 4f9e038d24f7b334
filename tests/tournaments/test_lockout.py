"""Failed logins and key guesses slow down and lock out per account and per address, with a
clear message, 429 and ``Retry-After``, and a logged event (issue 25, item 6)."""

from __future__ import annotations

import logging
import uuid

import pytest
import redis
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.protocols.conftest import make_table
from tournaments.access import lockout

pytestmark = pytest.mark.django_db


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(lockout, "time", clock)
    return clock


def login(client: Client, username: str, password: str, url: str = "/accounts/login/"):
    return client.post(url, {"username": username, "password": password})


def test_the_waits_grow_then_lock(settings):
    allowed = 10
    waits = [lockout._wait(n, allowed) for n in range(1, 12)]
    assert waits == [0, 0, 0, 0, 0, 1, 2, 4, 8, settings.LOCKOUT_SECONDS, settings.LOCKOUT_SECONDS]
    assert [lockout._wait(n, 30) for n in range(15, 31)] == [
        0, 1, 2, 4, 8, 16, 32, 60, 60, 60, 60, 60, 60, 60, 60, settings.LOCKOUT_SECONDS
    ]  # fmt: skip


def test_login_failures_slow_down_then_lock_the_account(client, clock, caplog, settings):
    user = UserFactory(username="referee")
    caplog.set_level(logging.INFO, logger="pulka.security")
    for _ in range(5):  # the first half of the allowance: no wait
        r = login(client, "referee", "wrong")
        assert r.status_code == 200 and "Retry-After" not in r
    r = login(client, "referee", "wrong")  # 6th: wait a second
    assert r.status_code == 429 and r["Retry-After"] == "1"
    assert "Too many failed attempts. Try again in 1 second" in r.content.decode()
    # while waiting, even the right password is refused unchecked
    r = login(client, "Referee", "pw")
    assert r.status_code == 429 and not r.wsgi_request.user.is_authenticated
    for expected in ("2", "4", "8", str(settings.LOCKOUT_SECONDS)):
        clock.now += 1000
        r = login(client, "referee", "wrong")
        assert (r.status_code, r["Retry-After"]) == (429, expected)
    assert "Try again in 15 minutes" in r.content.decode()
    clock.now += settings.LOCKOUT_SECONDS - 1
    assert login(client, "referee", "pw").status_code == 429
    clock.now += 2
    r = login(client, "referee", "pw")
    assert r.status_code == 302 and r.wsgi_request.user == user
    # a success forgets the account's failures
    assert login(Client(), "referee", "wrong").status_code == 200
    events = [r for r in caplog.records if r.name == "pulka.security"]
    assert any(r.levelno == logging.WARNING and "lockout scope=login" in r.message for r in events)
    assert any("failed scope=login address=127.0.0.1" in r.message for r in events)
    assert all("referee" not in r.message for r in events)  # the account only as a digest


def test_the_admin_login_shares_the_lock(client, clock):
    UserFactory(username="boss", is_staff=True)
    for _ in range(10):
        clock.now += 1000  # sit out each wait
        login(client, "boss", "wrong", "/admin/login/")
    r = login(client, "boss", "pw", "/admin/login/")
    assert r.status_code == 429 and "Too many failed attempts" in r.content.decode()
    assert login(client, "boss", "pw").status_code == 429  # the other login page too


def test_login_failures_lock_the_address(client, clock, monkeypatch):
    monkeypatch.setattr(lockout, "LOGIN", lockout.Policy("login", per_account=10, per_address=4))
    UserFactory(username="anna")
    for name in ("x1", "x2", "x3", "x4"):  # one failure each: only the address adds up
        login(client, name, "wrong")
        clock.now += 100
    assert login(client, "anna", "pw").status_code == 429
    elsewhere = Client(REMOTE_ADDR="10.1.2.3")
    assert login(elsewhere, "anna", "pw").status_code == 302


def test_a_right_password_of_a_user_the_admin_refuses_is_not_a_failure(client, clock):
    UserFactory(username="organiser")  # not staff: the admin says no, the password was right
    for _ in range(12):
        assert login(client, "organiser", "pw", "/admin/login/").status_code == 200
    assert login(client, "organiser", "pw").status_code == 302


def test_api_token_guessing_is_locked_per_address(clock, monkeypatch, settings, caplog):
    caplog.set_level(logging.INFO, logger="pulka.security")
    monkeypatch.setattr(lockout, "API_TOKEN", lockout.Policy("api-token", 0, per_address=6))
    token = Token.objects.create(user=UserFactory())
    api = APIClient()
    for _ in range(3):
        api.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
        r = api.get("/api/v1/events/")
        assert r.status_code == 403  # DRF's answer to a wrong token next to session auth
        assert set(r.json()) == {"message", "extra"}
    r = api.get("/api/v1/events/")  # 4th wrong token: wait a second
    assert r.status_code == 429 and r["Retry-After"] == "1"
    assert r.json()["extra"] == {"retry_after": 1}
    assert r.json()["message"].startswith("Too many failed attempts")
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/events/").status_code == 429  # the right token waits too
    clock.now += 2
    assert api.get("/api/v1/events/").status_code == 200
    assert APIClient().get("/api/v1/events/").status_code == 200  # no token: nothing counted
    events = [r.message for r in caplog.records if r.name == "pulka.security"]
    assert sum(m.startswith("failed scope=api-token address=127.0.0.1") for m in events) == 4


def test_private_key_guessing_is_locked_per_address(clock, settings, caplog):
    caplog.set_level(logging.INFO, logger="pulka.security")
    setup = make_table()
    key = setup.table.url_key
    guesser = Client()
    for i in range(30):
        clock.now += 100  # sit out each wait: the lock still comes at the limit
        url = ("/t/{}/", "/p/{}/", "/p/{}/protocols/")[i % 3].format(f"guess{i}")
        assert guesser.get(url).status_code == 404
    r = guesser.get(f"/t/{key}/")  # the right key, from the locked address
    assert r.status_code == 429 and r["Retry-After"] == str(settings.LOCKOUT_SECONDS)
    assert "Too many failed attempts. Try again in 15 minutes" in r.content.decode()
    assert guesser.get(f"/p/{setup.entries[0].url_key}/").status_code == 429
    assert Client(REMOTE_ADDR="10.9.9.9").get(f"/t/{key}/").status_code == 200
    events = [r.message for r in caplog.records if r.name == "pulka.security"]
    assert sum("failed scope=key address=127.0.0.1" in m for m in events) >= 14
    assert any(m.startswith("lockout scope=key address=127.0.0.1") for m in events)


def test_a_wrong_table_key_on_the_api_locks_that_table(clock, settings):
    setup = make_table()
    other = make_table(slug="other-cup")
    url = f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols"
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY="wrong")
    for _ in range(10):
        clock.now += 100
        assert api.get(url).status_code == 403
    r = api.get(url)
    assert r.status_code == 429 and r["Retry-After"] == str(settings.LOCKOUT_SECONDS)
    assert r.json()["extra"] == {"retry_after": settings.LOCKOUT_SECONDS}
    # the table is locked from any address; another table is not
    right = APIClient(REMOTE_ADDR="10.0.0.7")
    right.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    assert right.get(url).status_code == 429
    right.credentials(HTTP_X_TABLE_KEY=other.table.url_key)
    assert right.get(url.replace(setup.event.slug, "other-cup")).status_code == 200


def test_proxies_are_believed_only_when_trusted(rf, settings):
    request = rf.get("/", HTTP_X_FORWARDED_FOR="1.1.1.1, 2.2.2.2", REMOTE_ADDR="10.0.0.1")
    assert lockout.client_address(request) == "10.0.0.1"
    settings.TRUSTED_PROXIES = 1
    assert lockout.client_address(request) == "2.2.2.2"


def test_the_counts_live_in_redis_across_processes(rf, clock, settings):
    """Production counts in Redis (CACHE_URL), shared by every web process."""
    prefix = f"pulka-test-{uuid.uuid4().hex[:8]}"
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": settings.CELERY_BROKER_URL,
            "KEY_PREFIX": prefix,
        }
    }
    request = rf.get("/", REMOTE_ADDR="10.5.5.5")
    try:
        with override_settings(CACHES=caches):
            for _ in range(10):
                lockout.failure(lockout.LOGIN, request, account="anna")
            assert lockout.locked_for(lockout.LOGIN, request, account="anna") == 900
            keys = redis.Redis.from_url(settings.CELERY_BROKER_URL).keys(f"{prefix}:*")
            assert len(keys) == 3  # the account's count and lock, the address's count
            lockout.success(lockout.LOGIN, request, account="anna")
            assert lockout.locked_for(lockout.LOGIN, request, account="anna") == 0
            assert len(redis.Redis.from_url(settings.CELERY_BROKER_URL).keys(f"{prefix}:*")) == 1
    finally:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        for key in client.keys(f"{prefix}:*"):
            client.delete(key)
