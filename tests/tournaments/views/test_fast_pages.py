"""The anonymous viewer's public pages without the database (issue 28; views.caching.public_page,
tournaments/web_cache/versions.py): a cached page costs no query, a refresh naming its ETag is a 304
without a query, every kind of change is visible on the next GET, a cache miss or an
unreachable cache falls back to the database, and a logged-in viewer keeps his own header.

The tests run in a transaction whose commit never happens; the changes are made inside
``django_capture_on_commit_callbacks(execute=True)`` so that the commit hooks that replace the
pages' versions run as they do after a real commit."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.views.page_helpers import fine, one_round_played, swap_first_and_last
from tournaments.models import Entry, Event, Player, Round
from tournaments.services.entries import entry_update
from tournaments.services.rounds import (
    round_close,
    round_create,
    round_draw,
    round_publish,
    round_start,
)
from tournaments.services.standings import standings_recompute
from tournaments.views import caching
from tournaments.web_cache import versions as page_cache
from tournaments.web_cache.kept import Kept

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PULKA_PAGE_CACHE = True


@pytest.fixture
def cup(django_capture_on_commit_callbacks):
    """A published event of 9 players: round 1 played (standings computed), round 2 drawn and
    published."""
    with django_capture_on_commit_callbacks(execute=True):
        event = one_round_played(players=9, slug="fast-cup")
        round_ = round_create(event=event)
        round_draw(round_=round_, seed="28")
        round_publish(round_=round_)
    return event


def pages(event: Event) -> dict[str, str]:
    entry = event.entries_list[0].pk
    return {
        "event": reverse("event", args=[event.slug]),
        "round": reverse("round-seating", args=[event.slug, 2]),
        "standings": reverse("standings", args=[event.slug]),
        "standings page 1": reverse("standings", args=[event.slug]) + "?page=1",
        "round results": reverse("standings-round", args=[event.slug, 1]),
        "cross-table": reverse("standings-cross", args=[event.slug]),
        "standings CSV": reverse("standings-csv", args=[event.slug]),
        "cross-table CSV": reverse("standings-cross-csv", args=[event.slug]),
        "player": reverse("standings-player", args=[event.slug, entry]),
        "standings API": reverse("api:standings", args=[event.slug]),
    }


PAGES = [
    "event",
    "round",
    "standings",
    "standings page 1",
    "round results",
    "cross-table",
    "standings CSV",
    "cross-table CSV",
    "player",
    "standings API",
]

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[A-Za-z0-9]+"')


def same_page(a: bytes, b: bytes) -> bool:
    """Equal but for the CSRF token of the language form (masked anew for each response)."""
    return _TOKEN.sub("", a.decode()) == _TOKEN.sub("", b.decode())


@pytest.mark.parametrize("name", PAGES)
def test_a_cached_page_costs_no_query_and_its_refresh_is_a_304(
    client, cup, name, django_assert_num_queries, django_assert_max_num_queries
):
    url = pages(cup)[name]
    with django_assert_max_num_queries(12):  # a miss: the database path, bounded
        first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200 and same_page(again.content, first.content)
    assert again.headers["ETag"] == etag
    assert again.headers["Content-Type"] == first.headers["Content-Type"]
    assert "no-cache" in again.headers["Cache-Control"]
    with django_assert_num_queries(0):
        refresh = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert refresh.status_code == 304 and refresh.content == b""
    assert refresh.headers["ETag"] == etag


def test_another_language_is_another_page(client, cup):
    url = pages(cup)["round"]
    english = client.get(url)
    russian = client.get("/ru" + url, HTTP_IF_NONE_MATCH=english.headers["ETag"])
    assert russian.status_code == 200 and "По столам" in russian.content.decode()
    assert russian.headers["ETag"] != english.headers["ETag"]


def test_a_search_is_served_without_the_database(client, cup, django_assert_num_queries):
    """``?q=``: from the cached rows and the page's skeleton (views.standings_search;
    tests/tournaments/views/test_fast_search.py)."""
    url = pages(cup)["standings"]
    client.get(url, {"q": "0001"})
    with django_assert_num_queries(0):
        second = client.get(url, {"q": "0002"})
    assert "Игрок 0002" in second.content.decode() and "Игрок 0001" not in second.content.decode()


def test_a_logged_in_viewer_sees_his_header_not_the_cached_page(client, cup):
    url = pages(cup)["standings"]
    anonymous = client.get(url)
    assert "Log in" in anonymous.content.decode()
    client.force_login(UserFactory())
    mine = client.get(url, HTTP_IF_NONE_MATCH=anonymous.headers["ETag"])
    assert mine.status_code == 200
    assert "Log out" in mine.content.decode() and "Log in" not in mine.content.decode()
    client.logout()
    again = Client().get(url)
    assert "Log in" in again.content.decode() and "Log out" not in again.content.decode()


def test_a_cached_page_carries_no_csrf_token_and_sets_no_cookie(cup):
    """The language form is a GET form (views.language): the stored page holds no viewer's
    token, and serving it sets no CSRF cookie."""
    url = pages(cup)["event"]
    Client().get(url)  # stored by another viewer
    viewer = Client(enforce_csrf_checks=True)
    for _ in range(2):
        page = viewer.get(url)
        assert page.status_code == 200
        assert "csrfmiddlewaretoken" not in page.content.decode()
        assert "csrftoken" not in page.cookies
    switched = viewer.get(reverse("language"), {"language": "ru", "next": url})
    assert switched.status_code == 302 and switched["Location"] == "/ru" + url


def test_a_cache_miss_goes_to_the_database_and_stores_again(client, cup, django_assert_num_queries):
    url = pages(cup)["round"]
    first = client.get(url)
    cache.clear()  # evicted, or Redis restarted without its data
    second = client.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert second.status_code == 200 and same_page(second.content, first.content)
    with django_assert_num_queries(0):
        assert client.get(url).status_code == 200


def _page_reads(monkeypatch) -> list[tuple[str, ...]]:
    """The stored pages' keys each request reads with the versions (``page_cache.tokens``)."""
    reads: list[tuple[str, ...]] = []
    tokens = page_cache.tokens

    def spy(slug, parts, also=()):
        reads.append(tuple(also))
        return tokens(slug, parts, also)

    monkeypatch.setattr(page_cache, "tokens", spy)
    return reads


def test_a_process_serves_its_own_copy_of_the_current_version_only(
    client, cup, monkeypatch, django_assert_num_queries, django_capture_on_commit_callbacks
):
    """The process keeps a copy of what it stored: the next viewer reads only the versions from
    the cache (not the page), and the copy is never served once a change replaced them."""
    monkeypatch.setattr(caching, "_kept", Kept(512, max_bytes=1 << 20))
    reads = _page_reads(monkeypatch)
    url = pages(cup)["standings API"]
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert reads[0] and reads[1] == ()  # the first read the page from the cache, the second not
    assert again.content == first.content and again.headers["ETag"] == first.headers["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        Player.objects.filter(pk=cup.entries_list[0].player_id).update(name="Renamed Anna")
        page_cache.changed(event_id=cup.pk, parts=(page_cache.STANDINGS,))
        standings_recompute(event_id=cup.pk)
    changed = client.get(url)
    assert "Renamed Anna" in changed.content.decode()
    assert changed.headers["ETag"] != first.headers["ETag"]


def test_without_a_process_copy_every_viewer_reads_the_stored_page(client, cup, monkeypatch):
    monkeypatch.setattr(caching, "_kept", Kept(512, max_bytes=0))
    reads = _page_reads(monkeypatch)
    url = pages(cup)["round"]
    client.get(url)
    client.get(url)
    assert reads[0] and reads[1] == reads[0]


def test_an_unreachable_cache_serves_from_the_database(client, cup, monkeypatch):
    url = pages(cup)["standings"]

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(page_cache, "tokens", down)
    response = client.get(url)
    assert response.status_code == 200 and "Игрок" in response.content.decode()


def _round(event: Event, number: int = 2) -> Round:
    return Round.objects.get(event=event, number=number)


def _rename_by_service(event):
    entry = Entry.objects.select_related("player").get(pk=event.entries_list[0].pk)
    entry_update(entry=entry, name="Renamed Player", club=entry.player.club)


def _rename_in_the_admin(event):
    player = Player.objects.get(entries__pk=event.entries_list[0].pk)
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = admin.post(
        reverse("admin:tournaments_player_change", args=[player.pk]),
        {"name": "Renamed Player", "club": player.club, "city": player.city, "rating": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def _swap(event):
    swap_first_and_last(_round(event))


def _rename_event(event):
    event.name = "Summer Cup"
    event.save(update_fields=["name"])


def _start(event):
    round_start(round_=_round(event))


def _close(event):
    round_ = _round(event)
    round_start(round_=round_)
    round_close(round_=round_, unfinished_reason="the tables did not finish")


def _third_round(event):
    round_ = round_create(event=event)
    round_draw(round_=round_, seed="29")
    round_publish(round_=round_)


NAMED = [p for p in PAGES if p != "event"]  # the pages that show players' names
CLOSED = r'closed at|rounds/2/">Round 2</a> <span class="state state-closed"'

CHANGES = {
    # change: (what it does, the pages that must show it, what they show; None: a new page)
    "player renamed (service)": (_rename_by_service, NAMED, "Renamed Player"),
    "player renamed (admin)": (_rename_in_the_admin, NAMED, "Renamed Player"),
    "event renamed": (
        _rename_event,
        ["event", "round", "standings", "round results", "cross-table", "player"],
        "Summer Cup",
    ),
    "seats swapped": (_swap, ["round"], "Corrections after the draw"),
    "round started": (_start, ["round"], "Play started at"),
    "round closed": (_close, ["round", "event"], CLOSED),
    "round published": (_third_round, ["event"], "Round 3"),
    "penalty": (fine, ["player"], "Fined at the desk"),
    "penalty (the totals)": (fine, ["standings", "standings API", "standings CSV"], None),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_each_change_is_on_the_next_get(client, cup, change, django_capture_on_commit_callbacks):
    make, names, shown = CHANGES[change]
    urls = {name: pages(cup)[name] for name in names}
    before = {}
    for name, url in urls.items():
        client.get(url)
        before[name] = client.get(url)  # served from the cache
        assert shown is None or not re.search(shown, before[name].content.decode()), name
    with django_capture_on_commit_callbacks(execute=True):
        make(cup)
    for name, url in urls.items():
        after = client.get(url, HTTP_IF_NONE_MATCH=before[name].headers["ETag"])
        assert after.status_code == 200, name
        assert after.headers["ETag"] != before[name].headers["ETag"], name
        if shown is None:
            assert not same_page(after.content, before[name].content), name
        else:
            assert re.search(shown, after.content.decode()), name


def test_a_change_without_its_commit_is_not_shown_early_nor_lost(
    client, cup, django_capture_on_commit_callbacks
):
    """The version is replaced after the commit, not before: a page rendered from the database
    between the change and its commit is stored under the old version, and the commit's hook
    replaces it."""
    url = pages(cup)["event"]
    client.get(url)
    with django_capture_on_commit_callbacks(execute=False) as hooks:
        _rename_event(cup)
    stale = client.get(url)  # the old version (the test's transaction sees the new name)
    assert "Winter Cup" in stale.content.decode()
    for hook in hooks:
        hook()
    assert "Summer Cup" in client.get(url).content.decode()


def test_unpublishing_hides_the_cached_pages(client, cup, django_capture_on_commit_callbacks):
    url = pages(cup)["standings"]
    assert client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        cup.published = False
        cup.save(update_fields=["published"])
    assert client.get(url).status_code == 404


def test_a_rename_bumps_the_round_pages_version(cup, django_capture_on_commit_callbacks):
    """Logged-in viewers' round page is keyed by ``Round.public_version`` (their ETag and the
    seating's fragment): a rename, in the admin too, changes it."""
    before = _round(cup).public_version
    with django_capture_on_commit_callbacks(execute=True):
        _rename_in_the_admin(cup)
    assert _round(cup).public_version > before


def test_a_logged_in_viewer_sees_a_rename(client, cup, django_capture_on_commit_callbacks):
    client.force_login(UserFactory())
    url = pages(cup)["round"]
    first = client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        _rename_by_service(cup)
    after = client.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert after.status_code == 200 and "Renamed Player" in after.content.decode()


def test_the_pages_are_served_from_redis_as_in_production(
    client, cup, settings, django_assert_num_queries, django_capture_on_commit_callbacks
):
    """Production keeps the versions and the pages in Redis (CACHE_URL), shared by every web
    process and the workers, through ``tournaments.web_cache.backend.RedisCache`` (one client per pool)."""
    import uuid

    import redis
    from django.core.cache import caches
    from django.test import override_settings

    prefix = f"pulka-test-{uuid.uuid4().hex[:8]}"
    redis_cache = {
        "default": {
            "BACKEND": "tournaments.web_cache.backend.RedisCache",
            "LOCATION": settings.CELERY_BROKER_URL,
            "KEY_PREFIX": prefix,
        }
    }
    url = pages(cup)["standings"]
    try:
        with override_settings(CACHES=redis_cache):
            backend = caches["default"]._cache
            assert backend.get_client() is backend.get_client()
            first = client.get(url)
            with django_assert_num_queries(0):
                again = client.get(url)
                refresh = client.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
                packed = client.get(url, HTTP_ACCEPT_ENCODING=BROWSER)
            assert same_page(again.content, first.content) and refresh.status_code == 304
            assert gzip.decompress(packed.content) == first.content
            assert redis.Redis.from_url(settings.CELERY_BROKER_URL).keys(f"{prefix}:*")
            with django_capture_on_commit_callbacks(execute=True):
                _rename_event(cup)
            assert "Summer Cup" in client.get(url).content.decode()
    finally:
        server = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        for key in server.keys(f"{prefix}:*"):
            server.delete(key)


# --- the stored pages compressed once, served as gzip to the clients that accept it ----------

BROWSER = "gzip, deflate, br, zstd"  # what Chromium sends
#: pages of the 9-player cup long enough to be stored compressed (the test checks they are):
#: all but the CSVs
LONG = [p for p in PAGES if "CSV" not in p]


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",")}


@pytest.mark.parametrize("name", PAGES)
def test_a_browser_gets_the_stored_page_gzipped_and_equal_once_decompressed(
    client, cup, name, django_assert_num_queries
):
    url = pages(cup)[name]
    first = client.get(url, HTTP_ACCEPT_ENCODING=BROWSER)  # a miss: rendered, stored, served
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_ACCEPT_ENCODING=BROWSER)
        plain = client.get(url)  # a client that sends no Accept-Encoding
    assert plain.status_code == 200 and not plain.has_header("Content-Encoding")
    assert plain.headers["Content-Length"] == str(len(plain.content))
    for answer in (first, again):
        assert answer.status_code == 200
        assert answer.headers["Content-Type"] == plain.headers["Content-Type"]
        assert answer.headers["Content-Length"] == str(len(answer.content))
        assert {"accept-encoding", "cookie", "accept-language"} <= vary(answer)
        if len(plain.content) < caching.GZIP_MIN_BYTES:
            assert not answer.has_header("Content-Encoding") and answer.content == plain.content
            assert answer.headers["ETag"] == plain.headers["ETag"]
            continue
        assert answer.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(answer.content) == plain.content
        assert len(answer.content) < len(plain.content) / 2
        assert answer.headers["ETag"] == plain.headers["ETag"][:-1] + '-gz"'
    assert (len(plain.content) >= caching.GZIP_MIN_BYTES) == (name in LONG)
    assert {"accept-encoding"} <= vary(plain)


def test_the_api_s_json_is_compressed_too(client, cup):
    url = pages(cup)["standings API"]
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed.headers["Content-Type"] == "application/json"
    assert packed.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed.content)) == plain.json()


@pytest.mark.parametrize(
    ("accept_encoding", "gzipped"),
    [
        ("gzip", True),
        ("GZIP;q=0.5, identity", True),
        ("x-gzip", True),
        ("*", True),
        ("br, *;q=0.1", True),
        ("gzip;q=0", False),
        ("gzip;q=0.000, deflate", False),
        ("gzip;q=0, *", False),  # gzip named and refused: the wildcard does not bring it back
        ("*;q=0", False),
        ("deflate, br", False),
        ("identity", False),
        ("gzip;q=nonsense", False),
        ("", False),
    ],
)
def test_accept_encoding_is_read_with_its_q_values(client, cup, accept_encoding, gzipped):
    assert caching.accepts_gzip(accept_encoding) is gzipped
    url = pages(cup)["round"]
    plain = client.get(url)
    answer = client.get(url, HTTP_ACCEPT_ENCODING=accept_encoding)
    assert answer.has_header("Content-Encoding") is gzipped
    body = gzip.decompress(answer.content) if gzipped else answer.content
    assert body == plain.content


def test_a_refresh_naming_either_etag_is_a_304(client, cup, django_assert_num_queries):
    url = pages(cup)["standings"]
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING=BROWSER)
    assert plain.headers["ETag"] != packed.headers["ETag"]
    with django_assert_num_queries(0):
        for etag in (plain.headers["ETag"], packed.headers["ETag"]):
            for accept_encoding in ("", BROWSER):
                refresh = client.get(
                    url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_ENCODING=accept_encoding
                )
                assert refresh.status_code == 304 and refresh.content == b""
                assert refresh.headers["ETag"] == etag  # the representation the client holds
                assert "accept-encoding" in vary(refresh)
    stale = client.get(url, HTTP_IF_NONE_MATCH='"a0123-gz"', HTTP_ACCEPT_ENCODING=BROWSER)
    assert stale.status_code == 200 and stale.headers["ETag"] == packed.headers["ETag"]


def test_if_modified_since_and_if_match_know_both_representations(client, cup):
    url = pages(cup)["standings"]
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING=BROWSER)
    since = packed.headers["Last-Modified"]
    for accept_encoding, answer in (("", plain), (BROWSER, packed)):
        refresh = client.get(
            url, HTTP_IF_MODIFIED_SINCE=since, HTTP_ACCEPT_ENCODING=accept_encoding
        )
        assert refresh.status_code == 304
        assert refresh.headers["ETag"] == answer.headers["ETag"]  # what this client holds
    for etag in (plain.headers["ETag"], packed.headers["ETag"]):
        assert client.get(url, HTTP_IF_MATCH=etag).status_code == 200
    assert client.get(url, HTTP_IF_MATCH='"a0123-gz"').status_code == 412


@pytest.mark.parametrize("name", ["round", "standings", "standings API", "player"])
def test_a_change_shows_on_the_next_get_in_both_encodings(
    client, cup, name, django_capture_on_commit_callbacks
):
    url = pages(cup)[name]
    before = {ae: client.get(url, HTTP_ACCEPT_ENCODING=ae) for ae in ("", BROWSER)}
    assert before[BROWSER].headers["Content-Encoding"] == "gzip"
    with django_capture_on_commit_callbacks(execute=True):
        _rename_by_service(cup)
    for ae, old in before.items():
        after = client.get(url, HTTP_IF_NONE_MATCH=old.headers["ETag"], HTTP_ACCEPT_ENCODING=ae)
        assert after.status_code == 200 and after.headers["ETag"] != old.headers["ETag"]
        body = gzip.decompress(after.content) if ae else after.content
        assert "Renamed Player" in body.decode()
        again = client.get(url, HTTP_ACCEPT_ENCODING=ae)  # served from the cache, the new page
        assert again.content == after.content


def test_a_short_body_is_stored_and_served_as_it_is(client, cup, monkeypatch):
    monkeypatch.setattr(caching, "GZIP_MIN_BYTES", 10**9)
    url = pages(cup)["round"]
    plain = client.get(url)
    for _ in range(2):  # the miss, then the stored page
        answer = client.get(url, HTTP_ACCEPT_ENCODING=BROWSER)
        assert not answer.has_header("Content-Encoding") and answer.content == plain.content
        assert answer.headers["ETag"] == plain.headers["ETag"]
        assert "accept-encoding" in vary(answer)


def test_a_page_holding_a_csrf_token_is_never_stored():
    """A viewer's token is his own: such a page is not kept (nor compressed beside the page's
    text, which BREACH would read it from)."""
    page = HttpResponse(
        '<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="abc"></form>'
        * 100,
        content_type="text/html; charset=utf-8",
    )
    assert caching._stored(page) is None
    assert caching._stored(HttpResponse("<p>a page</p>" * 100))[3] is True


def test_a_logged_in_viewer_gets_the_database_page_uncompressed(client, cup):
    """The database path keeps identity bodies: a logged-in viewer's page carries the CSRF
    token of his logout form (BREACH)."""
    client.force_login(UserFactory())
    answer = client.get(pages(cup)["standings"], HTTP_ACCEPT_ENCODING=BROWSER)
    assert answer.status_code == 200 and not answer.has_header("Content-Encoding")
    assert "csrfmiddlewaretoken" in answer.content.decode()
    assert "accept-encoding" in vary(answer)
