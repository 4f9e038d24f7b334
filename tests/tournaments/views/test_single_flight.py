"""Single flight for the anonymous pages' misses (issue 28; views.caching): while one request
renders a page under the current versions, another miss of that page waits briefly for it and
serves what it stored, never a page stored under other versions, and renders it itself when
the render ends without storing it or takes too long.

The "other request" is simulated: the miss under test finds the page's render taken, and the
wait's sleep runs what the other request does meanwhile."""

from __future__ import annotations

import random
import time
import types

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.selectors import standings as sel
from tournaments.services.standings import standings_recompute
from tournaments.views import caching

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cache(settings):
    settings.PULKA_PAGE_CACHE = True
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def url(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        event, entries = make_event(players=9, slug="flight-cup")
        play_round(event, entries, 1, rng=random.Random(28))
        standings_recompute(event_id=event.pk)
    return reverse("standings", args=[event.slug])


@pytest.fixture
def renders(monkeypatch) -> list[int]:
    """How many times the standings page was rendered from the database."""
    count: list[int] = []
    view = sel.standings_view

    def counted(**kwargs):
        count.append(1)
        return view(**kwargs)

    monkeypatch.setattr(sel, "standings_view", counted)
    return count


def taken_by_another(monkeypatch, meanwhile) -> list[tuple[str, str]]:
    """The next miss finds the page's render taken; each of its waits runs ``meanwhile(key,
    version)`` (what the other request does) instead of sleeping. Returns the misses seen."""
    real = caching._flight
    seen: list[tuple[str, str]] = []

    def taken(key, version):
        seen.append((key, version))
        monkeypatch.setattr(caching, "_flight", real)  # the other request takes it for real
        cache.set(caching._flight_key(key, version), 1, 10)  # held by the other request
        return None

    monkeypatch.setattr(caching, "_flight", taken)
    monkeypatch.setattr(
        caching,
        "time",
        types.SimpleNamespace(monotonic=time.monotonic, sleep=lambda s: meanwhile(*seen[-1])),
    )
    return seen


def test_a_miss_waits_for_the_render_under_way_and_serves_its_page(
    client, url, renders, monkeypatch
):
    others = []

    def other_request_renders(key, version):
        if not others:
            cache.delete(caching._flight_key(key, version))  # its own flight, taken anew
            others.append(Client().get(url))  # renders and stores the page

    taken_by_another(monkeypatch, other_request_renders)
    response = client.get(url)
    assert response.status_code == 200 and "Игрок 0001" in response.content.decode()
    assert len(others) == 1 and others[0].status_code == 200
    assert renders == [1]  # one render for both requests: the other one's
    assert response.headers["ETag"] == others[0].headers["ETag"]


def test_a_page_stored_under_other_versions_is_never_served_by_a_waiting_miss(
    client, url, renders, monkeypatch
):
    monkeypatch.setattr(caching, "FLIGHT_WAIT", 0.2)

    def other_request_stores_an_older_page(key, version):
        cache.set(key, ("older versions", 200, [("Content-Type", "text/html")], b"stale", False))
        time.sleep(0.01)

    taken_by_another(monkeypatch, other_request_stores_an_older_page)
    response = client.get(url)
    assert response.status_code == 200 and response.content != b"stale"
    assert "Игрок 0001" in response.content.decode()
    assert renders == [1]  # rendered itself once the wait was over


def test_a_render_that_ends_without_storing_lets_the_waiting_miss_render(
    client, url, renders, monkeypatch
):
    monkeypatch.setattr(caching, "FLIGHT_WAIT", 60.0)  # not waited for: the flight has landed

    def other_request_fails(key, version):
        cache.delete(caching._flight_key(key, version))

    seen = taken_by_another(monkeypatch, other_request_fails)
    started = time.monotonic()
    response = client.get(url)
    assert response.status_code == 200 and renders == [1] and len(seen) == 1
    assert time.monotonic() - started < 30
    # and its page is stored: the next viewer reads no database
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    assert ctx.captured_queries == [] and renders == [1]


def test_the_flight_is_freed_after_the_render(client, url, renders):
    client.get(url)
    assert renders == [1]
    assert not [k for k in cache._cache if ":flight:" in str(k)]  # locmem: its keys
