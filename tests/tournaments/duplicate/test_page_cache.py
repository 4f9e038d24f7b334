"""A duplicate event's public pages from the page cache (docs/page-cache.md): the duplicate
standings, a board's traveller (with its hand record) and their API answers cost an anonymous
viewer no query once stored, and every change they show — a result entered, a referee's
adjusted score, the scores the rescoring job writes, the round closed (the hand record) —
is on the next GET.

The tests run in a transaction whose commit never happens; changes are made inside
``django_capture_on_commit_callbacks(execute=True)`` so that the hooks replacing the pages'
versions (and the rescoring job) run as after a real commit."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.duplicate.factories import nine_player_event, seat_duplicate_round
from tournaments.models import Board, Round
from tournaments.services.duplicate import (
    board_count_makeable,
    board_result_adjust,
    board_result_enter,
    duplicate_deal_boards,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PULKA_PAGE_CACHE = True


@pytest.fixture
def evening(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        event = nine_player_event(slug="dup-cache")
        duplicate_deal_boards(event=event, seed="snowfall")
        round_ = seat_duplicate_round(event, 1)
    return event, round_


def _urls(event) -> dict[str, str]:
    return {
        "standings": reverse("duplicate", args=[event.slug]),
        "traveller": reverse("duplicate-board", args=[event.slug, 1]),
        "API": reverse("api:duplicate", args=[event.slug]),
        "board API": reverse("api:duplicate-board", args=[event.slug, 1]),
    }


def _get(client, url: str) -> str:
    answer = client.get(url, HTTP_ACCEPT_ENCODING="identity")
    assert answer.status_code == 200, url
    return answer.content.decode()


def test_stored_pages_cost_no_query(client, evening, django_assert_num_queries) -> None:
    event, _round = evening
    for name, url in _urls(event).items():
        first = _get(client, url)
        with django_assert_num_queries(0):
            assert _get(client, url) == first, name


def test_a_result_entered_and_scored_is_on_the_next_get(
    client, evening, django_capture_on_commit_callbacks, django_assert_num_queries
) -> None:
    event, round_ = evening
    urls = _urls(event)
    before = {name: _get(client, url) for name, url in urls.items()}
    assert "ровно" not in before["traveller"] and "Anna" not in before["standings"]
    t1, t2, t3 = round_.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):  # the entry and the rescoring job
        board_result_enter(table=t1, board_number=1, text="1 6S ровно w/p")
        board_result_enter(table=t2, board_number=1, text="2 6S ровно w/p")
    after = {name: _get(client, url) for name, url in urls.items()}
    assert after["traveller"].count("ровно") == 2
    assert "Anna" in after["standings"] and '"deal":"Anna 6♠ / ровно w/p"' in after["board API"]
    assert "Anna" in after["API"]
    with django_assert_num_queries(0):  # stored again under the new versions
        assert _get(client, urls["traveller"]) == after["traveller"]

    with django_capture_on_commit_callbacks(execute=True):
        board_result_adjust(table=t3, board_number=1, adjusted=["plus", "minus", "average"],
                            reason="fouled board")
    assert "Adjusted by a referee: fouled board" in _get(client, urls["traveller"])
    assert "fouled board" in _get(client, urls["standings"])

    # the hand record is shown once the round is closed (the round's save replaces the version)
    assert "Talon" not in _get(client, urls["traveller"])
    with django_capture_on_commit_callbacks(execute=True):
        round_.state = Round.State.CLOSED
        round_.save()
    assert "Talon" in _get(client, urls["traveller"])
    assert '"cards":null' not in _get(client, urls["board API"])


def test_a_referee_keeps_the_database_path(client, evening) -> None:
    """Logged-in viewers are never served a stored page (the referee's traveller carries the
    correction and adjustment forms, with a CSRF token)."""
    from tests.factories import UserFactory
    from tournaments.models import EventRole

    event, _round = evening
    url = _urls(event)["traveller"]
    assert 'value="adjust"' not in _get(client, url)
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    client.force_login(referee)
    assert 'value="adjust"' in _get(client, url)


def test_the_count_made_after_the_page_was_stored_is_on_the_next_get(
    client, evening, django_capture_on_commit_callbacks
) -> None:
    """The makeable contracts' job may write after the traveller was stored (issue 43): the
    stored hand record says "not counted yet" until the job keeps the count, then the next GET
    prints it."""
    event, round_ = evening
    # the hand record shown (a closed round), the count not made yet; no page stored so far
    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    board = Board.objects.get(event=event, number=1)
    Board.objects.filter(pk=board.pk).update(makeable=None)
    url = _urls(event)["traveller"]
    assert "not counted yet" in _get(client, url)
    assert "not counted yet" in _get(client, url)  # now from the cache
    with django_capture_on_commit_callbacks(execute=True):
        assert board_count_makeable(board.pk)
    page = _get(client, url)
    assert "not counted yet" not in page and 'class="makeable"' in page
