"""The standings API in pages (issue 28): ``?page=`` and ``?page_size=`` give a page of the rows
with ``count``, ``next`` and ``previous``; without them the answer is the whole list as before.
Bad values are 400s naming the parameter, a page past the last a 404; each page has its own
ETag, and an anonymous client's page is served from the cache like the whole list."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import EventRole
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

PAGED = {"count", "next", "previous"}


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PULKA_PAGE_CACHE = True


@pytest.fixture
def cup(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        event, entries = make_event(players=9, slug="paged-cup")
        play_round(event, entries, 1, rng=random.Random(28))
        standings_recompute(event_id=event.pk)
    return event


def url(event) -> str:
    return f"/api/v1/events/{event.slug}/standings"


def test_without_paging_the_answer_is_the_whole_list_as_before(cup):
    body = APIClient().get(url(cup)).json()
    assert len(body["rows"]) == 9 and not PAGED & set(body)
    assert list(body)[-1] == "rows"


def test_the_pages_cut_the_list_in_order(cup):
    api = APIClient()
    whole = api.get(url(cup)).json()
    first = api.get(url(cup), {"page": 1, "page_size": 4}).json()
    assert first["count"] == 9 and first["previous"] is None
    assert first["next"] == f"{url(cup)}?page=2&page_size=4"
    # the head is the whole list's
    assert {k: v for k, v in first.items() if k not in PAGED | {"rows"}} == {
        k: v for k, v in whole.items() if k != "rows"
    }
    rows, page = [], first
    while True:
        rows += page["rows"]
        if page["next"] is None:
            break
        page = api.get(page["next"]).json()
    assert rows == whole["rows"]
    assert page["previous"] == f"{url(cup)}?page=2&page_size=4" and len(page["rows"]) == 1
    # ``page`` alone: 100 rows a page; ``page_size`` alone: the first page
    alone = api.get(url(cup), {"page": 1}).json()
    assert alone["rows"] == whole["rows"] and alone["next"] is None
    sized = api.get(url(cup), {"page_size": 2}).json()
    assert sized["rows"] == whole["rows"][:2] and sized["next"].endswith("?page=2&page_size=2")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"page": 0}, "page"),
        ({"page": -1}, "page"),
        ({"page": "x"}, "page"),
        ({"page": ""}, "page"),
        ({"page": "²"}, "page"),
        ({"page": 10**7}, "page"),
        ({"page_size": 0}, "page_size"),
        ({"page_size": 501}, "page_size"),
        ({"page_size": "1e3"}, "page_size"),
        ({"page": 1, "page_size": "many"}, "page_size"),
    ],
)
def test_a_bad_page_is_a_400_naming_the_parameter(cup, query, field):
    response = APIClient().get(url(cup), query)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["message"] == "validation error" and list(body["extra"]["fields"]) == [field]


def test_a_page_past_the_last_is_a_404_saying_how_many_there_are(cup):
    response = APIClient().get(url(cup), {"page": 4, "page_size": 3})
    assert response.status_code == 404
    assert response.json() == {"message": "no such page", "extra": {"field": "page", "pages": 3}}
    assert APIClient().get(url(cup), {"page": 3, "page_size": 3}).status_code == 200


def test_each_page_has_its_etag_and_is_served_from_the_cache(
    cup, django_assert_num_queries, django_capture_on_commit_callbacks
):
    api = APIClient()
    one = api.get(url(cup), {"page": 1, "page_size": 4})
    two = api.get(url(cup), {"page": 2, "page_size": 4})
    assert one.headers["ETag"] != two.headers["ETag"]
    with django_assert_num_queries(0):
        again = api.get(url(cup), {"page": 2, "page_size": 4})
        refresh = api.get(url(cup), {"page": 1, "page_size": 4}, HTTP_IF_NONE_MATCH=one["ETag"])
        other = api.get(url(cup), {"page": 1, "page_size": 4}, HTTP_IF_NONE_MATCH=two["ETag"])
    assert again.content == two.content and again.headers["ETag"] == two.headers["ETag"]
    assert refresh.status_code == 304 and refresh.content == b""
    assert other.status_code == 200 and other.content == one.content
    # a recomputation is a new version: the page's ETag changes
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(event_id=cup.pk)
    after = api.get(url(cup), {"page": 1, "page_size": 4}, HTTP_IF_NONE_MATCH=one["ETag"])
    assert after.status_code == 200 and after.headers["ETag"] != one.headers["ETag"]


def test_a_referees_pages_come_from_the_database_with_their_own_etags(cup):
    user = UserFactory()
    EventRole.objects.create(event=cup, user=user, role="referee")
    api = APIClient()
    api.force_authenticate(user)
    one = api.get(url(cup), {"page": 1, "page_size": 4})
    two = api.get(url(cup), {"page": 2, "page_size": 4})
    assert one.status_code == two.status_code == 200
    assert "attempts" in one.json() and one.json()["rows"] != two.json()["rows"]
    assert one.headers["ETag"] != two.headers["ETag"]
    refresh = api.get(url(cup), {"page": 1, "page_size": 4}, HTTP_IF_NONE_MATCH=one["ETag"])
    assert refresh.status_code == 304
    other = api.get(url(cup), {"page": 2, "page_size": 4}, HTTP_IF_NONE_MATCH=one["ETag"])
    assert other.status_code == 200
