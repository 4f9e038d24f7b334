"""The standings search without the database (issue 28; views.standings_search): an anonymous
viewer's ``?q=`` is answered from the cached rows and the page's skeleton, exactly as the
database path answers it, with no query once they are cached, a rename on the next GET, and
logged-in viewers on the database path with their own header."""

from __future__ import annotations

import random
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Entry, Player
from tournaments.services.entries import entry_update
from tournaments.services.standings import standings_recompute
from tournaments.views import standings_search

pytestmark = pytest.mark.django_db

NAMES = {
    0: ("Иванов Пётр", "Сочи ПК", "Сочи"),
    1: ("Ana Kovač", "Zagreb PK", "Zagreb"),
    2: ("Åsa Öberg", "Malmö Priffe", "Malmö"),
    3: ("Jürgen Straße", "Skat & Co", "Köln"),
    4: ('Ivan "Ivo" Petrović', "<b>Beograd</b>", "Beograd"),
}

#: (query, page): Cyrillic, accents, case, a club, a city, spaces, no match, empty, a long
#: text, markup and the characters a URL or HTML escapes, a page of a broad search
QUERIES = [
    ("иванов", None),
    ("ИВАНОВ ПЁТР", None),
    ("игрок 001", None),
    ("kovač", None),
    ("KOVAČ", None),
    ("kovac", None),
    ("petrovic", None),
    ("иванов петр", None),
    ("malmo", None),
    ("åsa", None),
    ("STRASSE", None),
    ("  zagreb   pk ", None),
    ("club 3", None),
    ("malmö", None),
    ("sochi", None),
    ("сочи", None),
    ('"ivo"', None),
    ("<b>", None),
    ("skat & co", None),
    ("nobody-like-this", None),
    ("", None),
    ("   ", None),
    ("i" * 150, None),
    ("игрок", 2),
    ("игрок", 9),
    ("", 2),
]

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[A-Za-z0-9]+"')


def same_page(a: bytes, b: bytes) -> bool:
    return _TOKEN.sub("", a.decode()) == _TOKEN.sub("", b.decode())


def players_on(html: str) -> list[int]:
    if "<tbody>" not in html:
        return []
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [int(n) for n in re.findall(r"/standings/players/(\d+)/", body)]


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PULKA_PAGE_CACHE = True


@pytest.fixture
def hall(django_capture_on_commit_callbacks):
    """A published event of 130 players (two pages), some with names in other scripts."""
    with django_capture_on_commit_callbacks(execute=True):
        event, entries = make_event(players=130, slug="search-cup")
        for i, (name, club, city) in NAMES.items():
            Player.objects.filter(pk=entries[i].player_id).update(name=name, club=club, city=city)
        play_round(event, entries, 1, rng=random.Random(28))
        standings_recompute(event_id=event.pk)
    event.entries_list = entries
    return event


def search(client: Client, event, query: str, page: int | None = None, language: str = ""):
    params = {"q": query} if page is None else {"q": query, "page": page}
    with translation.override("en"):
        path = reverse("standings", args=[event.slug])
    return client.get(language + path, params)


@pytest.mark.parametrize("language", ["", "/ru"])
def test_a_search_answers_as_the_database_does(client, hall, settings, language):
    fast = {}
    for query, page in QUERIES:
        search(client, hall, query, page, language)  # the first: the skeleton is built
        fast[query, page] = search(client, hall, query, page, language)
    settings.PULKA_PAGE_CACHE = False  # every request on the database path
    for (query, page), answer in fast.items():
        slow = search(client, hall, query, page, language)
        assert answer.status_code == slow.status_code == 200
        assert same_page(answer.content, slow.content), (query, page)
        assert answer.headers["Last-Modified"] == slow.headers["Last-Modified"]
        assert answer.headers["Content-Type"] == slow.headers["Content-Type"]
    html = {q: a.content.decode() for q, a in fast.items()}
    # what each found (the pages above are equal to the database's: these say they are right)
    entries = [e.pk for e in hall.entries_list]
    assert players_on(html["иванов", None]) == [entries[0]]
    assert players_on(html["ИВАНОВ ПЁТР", None]) == [entries[0]]
    assert players_on(html["KOVAČ", None]) == [entries[1]]
    assert players_on(html["kovac", None]) == [entries[1]]  # without accents
    assert players_on(html["petrovic", None]) == [entries[4]]
    assert players_on(html["иванов петр", None]) == [entries[0]]  # ё is е
    assert players_on(html["malmo", None]) == [entries[2]]
    assert players_on(html["STRASSE", None]) == [entries[3]]  # case-folded: ß is ss
    assert players_on(html["  zagreb   pk ", None]) == [entries[1]]
    assert players_on(html["<b>", None]) == [entries[4]]
    assert "<b>Beograd" not in html["<b>", None]
    assert len(players_on(html["игрок", 2])) == 125 - 100
    assert players_on(html["игрок", 9]) == players_on(html["игрок", 2])  # the last page
    assert len(players_on(html["", None])) == 100 and len(players_on(html["   ", None])) == 100
    assert "No player matches." in html["nobody-like-this", None] or language
    # the page's own path in the login link and the language form
    page = html["skat & co", None]
    assert "q=skat%20%26%20co" in page or "q=skat+%26+co" in page


def test_a_search_costs_no_query_once_the_page_is_cached(
    client, hall, django_assert_num_queries, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12):
        first = search(client, hall, "Игрок 0010")
    assert players_on(first.content.decode()) == [hall.entries_list[10].pk]
    with django_assert_num_queries(0):
        for i in range(11, 40):  # a hall, each searching another name
            answer = search(client, hall, f"игрок {i:04d}")
            assert players_on(answer.content.decode()) == [hall.entries_list[i].pk]
        refresh = search(client, hall, "Игрок 0010").headers["ETag"]
        assert refresh == first.headers["ETag"]
        again = client.get(
            reverse("standings", args=[hall.slug]), {"q": "Игрок 0010"}, HTTP_IF_NONE_MATCH=refresh
        )
    assert again.status_code == 304 and again.content == b""
    # another process (nothing kept in its memory): from the cache, still no query
    standings_search._kept.clear()
    with django_assert_num_queries(0):
        assert players_on(search(client, hall, "kovač").content.decode()) == [
            hall.entries_list[1].pk
        ]


def test_the_search_text_is_normalised_before_it_names_an_answer(client, hall):
    one = search(client, hall, "Ana KOVAČ")
    other = search(client, hall, "   ana   kovač ")
    assert one.headers["ETag"] == other.headers["ETag"]
    assert players_on(one.content.decode()) == players_on(other.content.decode())
    assert 'value="Ana KOVAČ"' in one.content.decode()  # the box shows what was typed
    longer = search(client, hall, "x" * 100 + "tail")
    assert longer.headers["ETag"] == search(client, hall, "x" * 100).headers["ETag"]
    keys = list(cache._cache) if hasattr(cache, "_cache") else []
    assert not any("kov" in str(k).lower() for k in keys)


def test_a_rename_shows_on_the_next_search(client, hall, django_capture_on_commit_callbacks):
    url_old = search(client, hall, "Ana Kovač")
    assert players_on(url_old.content.decode()) == [hall.entries_list[1].pk]
    entry = Entry.objects.select_related("player").get(pk=hall.entries_list[1].pk)
    with django_capture_on_commit_callbacks(execute=True):
        entry_update(entry=entry, name="Ana Horvat", club=entry.player.club)
    assert players_on(search(client, hall, "horvat").content.decode()) == [entry.pk]
    after = client.get(
        reverse("standings", args=[hall.slug]),
        {"q": "Ana Kovač"},
        HTTP_IF_NONE_MATCH=url_old.headers["ETag"],
    )
    assert after.status_code == 200 and players_on(after.content.decode()) == []


def test_a_logged_in_viewer_searches_the_database_with_his_header(client, hall):
    search(client, hall, "kovač")  # the anonymous skeleton is cached
    client.force_login(UserFactory())
    with CaptureQueriesContext(connection) as queries:
        mine = search(client, hall, "kovač")
    assert len(queries.captured_queries) > 0
    html = mine.content.decode()
    assert "Log out" in html and "Log in" not in html
    assert players_on(html) == [hall.entries_list[1].pk]


def test_a_search_of_an_unpublished_event_is_not_found(
    client, hall, django_capture_on_commit_callbacks
):
    assert search(client, hall, "kovač").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        hall.published = False
        hall.save(update_fields=["published"])
    assert search(client, hall, "kovač").status_code == 404


def test_the_language_form_of_a_search_goes_back_to_it(hall):
    """The skeleton's path slot is the searching viewer's own path: the language switcher (a GET
    form, no CSRF token) takes him back to his search in the new language."""
    search(Client(), hall, "kovač")  # the skeleton built by another viewer
    viewer = Client(enforce_csrf_checks=True)
    page = viewer.get(reverse("standings", args=[hall.slug]), {"q": "zagreb"})
    html = page.content.decode()
    assert "csrfmiddlewaretoken" not in html and "csrftoken" not in page.cookies
    next_url = re.search(r'name="next" type="hidden" value="([^"]+)"', html)
    assert next_url.group(1) == reverse("standings", args=[hall.slug]) + "?q=zagreb"
    switched = viewer.get(reverse("language"), {"language": "ru", "next": next_url.group(1)})
    assert switched.status_code == 302
    assert switched["Location"] == "/ru" + reverse("standings", args=[hall.slug]) + "?q=zagreb"


def test_a_search_before_any_result_answers_as_the_database_does(client, settings):
    event, _entries = make_event(players=6, slug="empty-cup")
    fast = search(client, event, "игрок")
    assert fast.status_code == 200 and "No results yet." in fast.content.decode()
    settings.PULKA_PAGE_CACHE = False
    assert same_page(fast.content, search(client, event, "игрок").content)
