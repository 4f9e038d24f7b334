"""Failed logins and key guesses slow down and lock out, with a clear message, 429 and
``Retry-After``, and a logged event (issue 25, item 6); guesses slow the guesser, never the
players: a valid key is never locked out, an account is locked per pair first and for every
address only from many, and an organiser lifts it (issue 38)."""

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
from tournaments.errors import UserFacingError
from tournaments.middleware import UntrustedProxyMiddleware
from tournaments.models import AuditLogEntry, EventRole
from tournaments.services.events import event_lockout_lift

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


def test_login_failures_from_one_address_over_many_accounts_only_slow_it(client, clock,
                                                                         monkeypatch):  # fmt: skip
    monkeypatch.setattr(lockout, "LOGIN", lockout.Policy("login", per_account=10, per_address=4))
    UserFactory(username="anna")
    for name in ("x1", "x2", "x3", "x4"):  # one failure each: only the address adds up
        login(client, name, "wrong")
    r = login(client, "anna", "pw")
    assert r.status_code == 429 and int(r["Retry-After"]) <= 60  # slowed, not locked
    elsewhere = Client(REMOTE_ADDR="10.1.2.3")
    assert login(elsewhere, "anna", "pw").status_code == 302
    clock.now += 61
    assert login(client, "anna", "pw").status_code == 302


def test_an_account_is_locked_per_pair_first_then_only_from_many_addresses(clock, settings):
    """Issue 38: ten wrong passwords from one address lock that address out of the account
    (the pair), not the chief referee on her own phone; failures from three addresses lock the
    account for every address."""
    UserFactory(username="chief")
    guesser = Client(REMOTE_ADDR="10.6.6.6")
    for _ in range(10):
        clock.now += 1000  # sit out each wait
        login(guesser, "chief", "wrong")
    r = login(guesser, "chief", "pw")
    assert r.status_code == 429 and r["Retry-After"] == str(settings.LOCKOUT_SECONDS)
    assert login(Client(REMOTE_ADDR="10.0.0.2"), "chief", "pw").status_code == 302  # her phone
    # a spread guess: failures from three addresses, ten in all, lock the account itself
    for i in range(10):
        clock.now += 1000
        login(Client(REMOTE_ADDR=f"10.7.7.{i % 3}"), "chief", "wrong")
    r = login(Client(REMOTE_ADDR="10.0.0.2"), "chief", "pw")
    assert r.status_code == 429 and r["Retry-After"] == str(settings.LOCKOUT_SECONDS)
    assert lockout.account_locks(lockout.LOGIN, ["chief", "other"]) == {
        "chief": settings.LOCKOUT_SECONDS
    }
    assert lockout.lift(lockout.LOGIN, "Chief") is True  # an organiser lifts it
    assert login(Client(REMOTE_ADDR="10.0.0.2"), "chief", "pw").status_code == 302
    assert lockout.account_locks(lockout.LOGIN, ["chief"]) == {}


def test_a_right_password_of_a_user_the_admin_refuses_is_not_a_failure(client, clock):
    UserFactory(username="organiser")  # not staff: the admin says no, the password was right
    for _ in range(12):
        assert login(client, "organiser", "pw", "/admin/login/").status_code == 200
    assert login(client, "organiser", "pw").status_code == 302


def test_api_token_guessing_slows_the_sender_and_never_refuses_a_right_token(clock, monkeypatch,
                                                                               caplog):  # fmt: skip
    caplog.set_level(logging.INFO, logger="pulka.security")
    monkeypatch.setattr(
        lockout, "API_TOKEN", lockout.Policy("api-token", 0, per_address=6, secret=True)
    )
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
    assert api.get("/api/v1/events/").status_code == 200  # a right token is never refused
    for _ in range(20):  # however many wrong ones: a minute's wait at most, never a lock
        api.credentials(HTTP_AUTHORIZATION="Token " + "1" * 40)
        r = api.get("/api/v1/events/")
    assert r.status_code == 429 and int(r["Retry-After"]) <= 60
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/events/").status_code == 200
    assert APIClient().get("/api/v1/events/").status_code == 200  # no token: nothing counted
    events = [r.message for r in caplog.records if r.name == "pulka.security"]
    assert sum(m.startswith("failed scope=api-token address=127.0.0.1") for m in events) == 24


def test_a_valid_key_is_never_locked_out_by_guesses_behind_the_same_address(clock, settings):
    """Issue 38: a hall behind one NAT is one address; guesses from it slow the guesser (a
    minute at most) and never block the tables' and players' own links."""
    setup = make_table()
    key = setup.table.url_key
    guesser = Client()
    for i in range(40):
        url = ("/t/{}/", "/p/{}/", "/p/{}/protocols/")[i % 3].format(f"guess{i}")
        r = guesser.get(url)
        assert r.status_code in (404, 429)
        assert r.status_code == 404 or int(r["Retry-After"]) <= 60
    assert r.status_code == 429  # the guesser waits
    assert guesser.get(f"/t/{key}/").status_code == 200  # the right key, from that address
    assert guesser.get(f"/p/{setup.entries[0].url_key}/").status_code == 200


def test_a_wrong_table_key_on_the_api_never_locks_the_table_out(clock, settings):
    setup = make_table()
    url = f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols"
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY="wrong")
    codes = [api.get(url).status_code for _ in range(40)]
    assert set(codes) == {403, 429} and codes[-1] == 429  # the guesser is slowed
    for address in ("127.0.0.1", "10.0.0.7"):  # the table's own phone, from anywhere
        right = APIClient(REMOTE_ADDR=address)
        right.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
        assert right.get(url).status_code == 200


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
            # the pair's count and lock, the account's count, its addresses (one seen), the
            # address's count
            assert len(keys) == 6
            lockout.success(lockout.LOGIN, request, account="anna")
            assert lockout.locked_for(lockout.LOGIN, request, account="anna") == 0
            # the address's count stays, and the account's address seen (until it expires)
            assert len(redis.Redis.from_url(settings.CELERY_BROKER_URL).keys(f"{prefix}:*")) == 2
    finally:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        for key in client.keys(f"{prefix}:*"):
            client.delete(key)


def test_the_desk_shows_a_lockout_and_an_organiser_lifts_it(client, clock, settings):
    """Issue 38: the organiser's desk shows the event's accounts locked out, and lifts one (the
    event's log says who did); an account outside the event is not the organiser's to lift."""
    setup = make_table()
    organiser = UserFactory(username="org")
    EventRole.objects.create(event=setup.event, user=organiser, role=EventRole.Role.ORGANISER)
    chief = setup.chief.username
    for i in range(10):  # a spread guess at the chief referee's password
        clock.now += 1000
        login(Client(REMOTE_ADDR=f"10.8.8.{i % 3}"), chief, "wrong")
    assert login(Client(), chief, "pw").status_code == 429
    client.force_login(organiser)
    desk = client.get(f"/e/{setup.event.slug}/manage/").content.decode()
    assert 'id="desk-lockouts"' in desk and f"{chief}: 15 minutes left" in desk
    r = client.post(f"/e/{setup.event.slug}/manage/staff/",
                    {"action": "lift", "user": chief, "from": "desk"})  # fmt: skip
    assert r.status_code == 302 and r["Location"] == f"/e/{setup.event.slug}/manage/"
    assert login(Client(), chief, "pw").status_code == 302
    assert 'id="desk-lockouts"' not in client.get(f"/e/{setup.event.slug}/manage/").content.decode()
    entry = AuditLogEntry.objects.get(event=setup.event, action="lockout.lifted")
    assert entry.data == {"user": chief} and entry.user == organiser
    with pytest.raises(UserFacingError, match="holds no role in this event"):
        event_lockout_lift(event=setup.event, username="stranger", by=organiser)
    with pytest.raises(UserFacingError, match="is not locked out"):
        event_lockout_lift(event=setup.event, username=chief, by=organiser)
    # a referee sees no lockouts and cannot lift one
    client.force_login(setup.referee)
    assert 'id="desk-lockouts"' not in client.get(f"/e/{setup.event.slug}/manage/").content.decode()
    assert client.post(f"/e/{setup.event.slug}/manage/staff/",
                       {"action": "lift", "user": chief}).status_code == 403  # fmt: skip


def test_a_request_through_an_untrusted_proxy_is_warned_about_once(client, settings, caplog,
                                                                   monkeypatch):  # fmt: skip
    monkeypatch.setattr(UntrustedProxyMiddleware, "warned", False)
    caplog.set_level(logging.WARNING, logger="pulka.security")
    client.get("/healthz")
    assert not caplog.records  # no proxy: nothing to say
    for _ in range(3):
        client.get("/healthz", HTTP_X_FORWARDED_FOR="203.0.113.9")
    warnings = [r.message for r in caplog.records if r.name == "pulka.security"]
    assert len(warnings) == 1 and "TRUSTED_PROXIES is 0" in warnings[0]
    monkeypatch.setattr(UntrustedProxyMiddleware, "warned", False)
    settings.TRUSTED_PROXIES = 1
    client.get("/healthz", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert len([r for r in caplog.records if r.name == "pulka.security"]) == 1  # trusted: quiet
