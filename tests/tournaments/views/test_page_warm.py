"""The pages a hall opens first rendered ahead after a change (issue 28; tournaments/web_cache/warm.py):
after the standings job or a round's publication, the next anonymous GET of each of them reads
no database; nothing is rendered ahead with the page cache off; the job is sent after the
commit, once per burst; a change committed while the pages are rendered leaves no stale page
served; errors in rendering ahead are logged and never fail the standings job.

The tests run in a transaction whose commit never happens: the changes are made inside
``django_capture_on_commit_callbacks(execute=True)`` so that the commit hooks (the pages'
versions replaced, then the job sent: eager here, so it runs inline) run as after a commit."""

from __future__ import annotations

import logging
import random

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.jobs.result_tasks import public_pages_warm as warm_task
from tournaments.models import Event, Round
from tournaments.services.rounds import round_create, round_draw, round_publish
from tournaments.services.standings import standings_recompute
from tournaments.web_cache import warm as page_warm

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _warm(settings):
    settings.PULKA_PAGE_CACHE = True
    settings.PULKA_PAGE_WARM = True
    settings.PULKA_PAGE_WARM_LANGUAGES = ["en", "ru"]  # two of the six: the tests stay short
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def hall(django_capture_on_commit_callbacks, settings):
    """A published event of 9 players: round 1 played, round 2 drawn (not yet published); its
    standings not yet computed. Nothing rendered ahead while it is built."""
    settings.PULKA_PAGE_WARM = False
    with django_capture_on_commit_callbacks(execute=True):
        event, entries = make_event(players=9, slug="warm-cup")
        play_round(event, entries, 1, rng=random.Random(28))
        round_ = round_create(event=event)
        round_draw(round_=round_, seed="28")
    settings.PULKA_PAGE_WARM = True
    cache.clear()
    event.round_2 = round_
    return event


def get(client, page):
    path, accept = page
    return client.get(path, **({"HTTP_ACCEPT": accept} if accept else {}))


def test_the_pages_are_those_a_hall_opens_first_in_each_language(hall):
    Round.objects.filter(pk=hall.round_2.pk).update(state=Round.State.PUBLISHED)
    pages = page_warm.pages_to_warm(event_id=hall.pk)
    paths = [p for p, _accept in pages]
    for prefix in ("", "/ru"):
        assert prefix + reverse("event", args=[hall.slug]) in paths
        assert prefix + reverse("standings", args=[hall.slug]) in paths
        assert prefix + reverse("round-seating", args=[hall.slug, 2]) in paths  # the latest
        assert prefix + reverse("standings-round", args=[hall.slug, 1]) in paths  # played
        assert prefix + reverse("standings-cross", args=[hall.slug]) in paths
    assert ("/de" + reverse("event", args=[hall.slug])) not in paths  # not asked for
    api = reverse("api:standings", args=[hall.slug])
    assert [(p, a) for p, a in pages if p == api] == [
        (api, "application/json"),
        (api, "*/*"),
    ]
    Event.objects.filter(pk=hall.pk).update(published=False)
    assert page_warm.pages_to_warm(event_id=hall.pk) == []


def test_the_standings_pages_are_rendered_ahead_up_to_a_bound(hall, monkeypatch):
    from tournaments.selectors import standings as sel

    with_pages = [p for p, _a in page_warm.pages_to_warm(event_id=hall.pk) if "?page=" in p]
    assert with_pages == []  # 9 players: one page
    monkeypatch.setattr(sel, "STANDINGS_PAGE_SIZE", 2)  # 9 rows: five pages
    monkeypatch.setattr(page_warm, "_send", lambda event_id: None)  # not rendered here
    standings_recompute(event_id=hall.pk)
    standings = reverse("standings", args=[hall.slug])
    with_pages = [p for p, _a in page_warm.pages_to_warm(event_id=hall.pk) if "?page=" in p]
    assert with_pages[:4] == [f"{standings}?page={n}" for n in (2, 3, 4, 5)]
    monkeypatch.setattr(page_warm, "STANDINGS_PAGES", 3)
    with_pages = [p for p, _a in page_warm.pages_to_warm(event_id=hall.pk) if "?page=" in p]
    assert with_pages[:2] == [f"{standings}?page={n}" for n in (2, 3)] and len(with_pages) == 4


def test_the_standings_job_renders_the_pages_ahead(
    client, hall, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(event_id=hall.pk)
    pages = page_warm.pages_to_warm(event_id=hall.pk)
    # round 2 drawn, not public: round 1 is the latest public round and the latest played
    assert len(pages) == 2 * 5 + 2
    for page in pages:
        with django_assert_num_queries(0):
            response = get(client, page)
        assert response.status_code == 200, page
    # a page not rendered ahead (a player's) is read from the database
    entry = hall.entries.first()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        client.get(reverse("standings-player", args=[hall.slug, entry.pk]))
    assert len(ctx.captured_queries) > 0


def test_a_published_round_is_rendered_ahead(
    client, hall, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(event_id=hall.pk)
        round_publish(round_=hall.round_2)
    for prefix in ("", "/ru"):
        with django_assert_num_queries(0):
            response = client.get(prefix + reverse("round-seating", args=[hall.slug, 2]))
        assert response.status_code == 200
    with django_assert_num_queries(0):  # the event's page lists the published round
        response = client.get(reverse("event", args=[hall.slug]))
    assert reverse("round-seating", args=[hall.slug, 2]) in response.content.decode()


@pytest.mark.parametrize("switch", ["PULKA_PAGE_CACHE", "PULKA_PAGE_WARM"])
def test_nothing_is_rendered_ahead_when_switched_off(
    client, hall, django_capture_on_commit_callbacks, settings, monkeypatch, switch
):
    sent = []
    monkeypatch.setattr(warm_task, "apply_async", lambda *a, **k: sent.append((a, k)))
    setattr(settings, switch, False)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        standings_recompute(event_id=hall.pk)
        round_publish(round_=hall.round_2)
    assert sent == []
    assert not [c for c in callbacks if getattr(c, "__qualname__", "").startswith("public_pages")]


def test_the_job_is_sent_after_the_commit_once_per_burst(
    hall, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr(warm_task, "apply_async", lambda *a, **k: sent.append(k["args"]))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        round_publish(round_=hall.round_2)
        standings_recompute(event_id=hall.pk)
    assert sent == []  # the change's transaction renders nothing and sends nothing
    for callback in callbacks:
        callback()
    assert sent == [[hall.pk]]  # one job for the burst: the second found it waiting
    page_warm.public_pages_warm(event_id=hall.pk)  # the job starts: a new change sends again
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(event_id=hall.pk)
    assert sent == [[hall.pk], [hall.pk]]


def test_a_change_while_the_pages_are_rendered_leaves_no_stale_page(
    client, hall, django_capture_on_commit_callbacks, monkeypatch
):
    """The event's page is rendered from the event read before the rename committed: it is
    stored under the versions read before that, so the next viewer gets the new name."""
    from tournaments.services.events import event_update
    from tournaments.views import public

    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(event_id=hall.pk)
    cache.clear()  # nothing stored yet: the job below renders every page
    read = public.rounds_for_event
    renamed = []

    def rename_meanwhile(**kwargs):
        rows = read(**kwargs)
        if not renamed:
            with django_capture_on_commit_callbacks(execute=True):  # committed meanwhile
                event_update(event=Event.objects.get(pk=hall.pk), name="Renamed Cup")
            renamed.append(True)
        return rows

    monkeypatch.setattr(public, "rounds_for_event", rename_meanwhile)
    done = page_warm.public_pages_warm(event_id=hall.pk)
    assert renamed and done["failed"] == 0
    monkeypatch.setattr(public, "rounds_for_event", read)
    page = client.get(reverse("event", args=[hall.slug])).content.decode()
    assert "Renamed Cup" in page and "Winter Cup" not in page


def test_errors_in_rendering_ahead_are_logged_and_never_fail_the_standings_job(
    client, hall, django_capture_on_commit_callbacks, monkeypatch, caplog, django_assert_num_queries
):
    from tournaments.views import public

    def broken(**kwargs):
        raise RuntimeError("the event page is broken")

    monkeypatch.setattr(public, "rounds_for_event", broken)
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        snapshot = standings_recompute(event_id=hall.pk)
    assert snapshot.status == "ok"
    assert any("render ahead of" in r.getMessage() for r in caplog.records)
    with django_assert_num_queries(0):  # the other pages were rendered ahead
        assert client.get(reverse("standings", args=[hall.slug])).status_code == 200

    # the job itself failing (the pages cannot even be listed) is logged as well
    def unlisted(**kwargs):
        raise RuntimeError("no pages")

    monkeypatch.setattr(page_warm, "pages_to_warm", unlisted)
    caplog.clear()
    with django_capture_on_commit_callbacks(execute=True):
        snapshot = standings_recompute(event_id=hall.pk)
    assert snapshot.status == "ok"
    assert any("could not be listed" in r.getMessage() for r in caplog.records)


@pytest.fixture
def unbuilt_static(monkeypatch):
    """The worker started next serves static files unhashed (no ``collectstatic`` manifest in a
    worktree; the production image has one)."""
    monkeypatch.setenv("DEBUG", "true")


@pytest.mark.django_db(transaction=True)
def test_the_worker_renders_the_pages_ahead_after_its_standings_job(
    unbuilt_static, celery_worker_process, settings, client, monkeypatch
):
    """On a real worker over Redis (the cache shared with this process, as in production): the
    standings job, then the render ahead it sends; this process's views are broken meanwhile,
    so a 200 can only be a page the worker stored."""
    import os
    import time
    import uuid

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.conftest import eager_off
    from tournaments.selectors import standings as sel
    from tournaments.services.standings import standings_schedule

    settings.PULKA_JOBS_QUEUE = celery_worker_process
    settings.CACHES = {
        "default": {"BACKEND": "tournaments.web_cache.backend.RedisCache", "LOCATION": os.environ["REDIS_URL"]}
    }
    event, entries = make_event(players=9, slug=f"warm-{uuid.uuid4().hex[:8]}")
    play_round(event, entries, 1, rng=random.Random(28))

    def broken(**kwargs):
        raise AssertionError("rendered by the test process")

    monkeypatch.setattr(sel, "standings_view", broken)
    url = reverse("standings", args=[event.slug])
    russian = "/ru" + url  # rendered ahead after the English pages
    with eager_off():
        standings_schedule(event_id=event.pk)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if client.get(russian).status_code == 200:
                    break
            except AssertionError:
                pass
            time.sleep(0.3)
        else:
            raise AssertionError("the worker rendered nothing ahead within 90 s")
    with CaptureQueriesContext(connection) as ctx:
        english = client.get(url)
    assert english.status_code == 200 and ctx.captured_queries == []
    assert "Игрок 0001" in english.content.decode()
