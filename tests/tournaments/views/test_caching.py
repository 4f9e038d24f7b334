"""Public pages served from a cache keyed by their version, with ETag / Last-Modified so that a
phone's refresh costs a 304 (issue 28, views.caching): the round's public page (its
``public_version``: a draw, a publication, the start or close, a correction), the standings
pages and the standings API (the stored standings' version)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.factories import EntryFactory, EventFactory, UserFactory
from tests.tournaments.views.page_helpers import fine, one_round_played, swap_first_and_last
from tournaments.api.views.standings import StandingsListApi
from tournaments.models import Round
from tournaments.services.rounds import (
    round_close,
    round_create,
    round_draw,
    round_publish,
    round_start,
    seat_move,
    table_redraw,
    table_seat_as_drawn,
)

pytestmark = pytest.mark.django_db


def sql_of(run) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        run()
    return [q["sql"] for q in ctx.captured_queries]


@pytest.fixture
def published_round():
    event = EventFactory(published=True, name="Open")
    for _ in range(7):  # a table of four and one of three
        EntryFactory(event=event)
    round_ = round_create(event=event)
    round_draw(round_=round_, seed="28")
    round_publish(round_=round_)
    round_.refresh_from_db()
    return event, round_


def url_of(round_: Round) -> str:
    return reverse("round-seating", args=[round_.event.slug, round_.number])


def test_a_refresh_of_the_round_page_costs_a_304(client, published_round):
    _event, round_ = published_round
    first = client.get(url_of(round_))
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert first.headers["Last-Modified"]
    assert "no-cache" in first.headers["Cache-Control"]
    assert "private" in first.headers["Cache-Control"]
    responses = []
    sql = sql_of(lambda: responses.append(client.get(url_of(round_), HTTP_IF_NONE_MATCH=etag)))
    assert responses[0].status_code == 304
    assert responses[0].content == b""
    assert responses[0].headers["ETag"] == etag
    assert len(sql) <= 2, sql  # the event and the round
    # a client that only knows when the page changed
    since = client.get(url_of(round_), HTTP_IF_MODIFIED_SINCE=first.headers["Last-Modified"])
    assert since.status_code == 304


def test_the_round_page_renders_its_seating_once_per_version(client, published_round):
    _event, round_ = published_round
    html = client.get(url_of(round_)).content.decode()
    sql = sql_of(lambda: client.get(url_of(round_)))
    assert not [q for q in sql if '"tournaments_seat"' in q or '"tournaments_table"' in q], sql
    again = client.get(url_of(round_)).content.decode()
    assert again[again.index("<main") :] == html[html.index("<main") :]


def names_at_tables(html: str) -> list[str]:
    tables = html[html.index('<div class="tables">') : html.index("</div>")]
    return [line.strip() for line in tables.splitlines() if line.strip().startswith("<li")]


@pytest.mark.parametrize("change", ["swap", "move", "redraw", "as_drawn", "start", "close"])
def test_each_change_of_the_round_shows_at_once(client, published_round, change):
    """The version changes with each event that changes the page, so the cached seating is
    written again and the old ETag gets the new page, not a 304."""
    _event, round_ = published_round
    first = client.get(url_of(round_))
    before = first.content.decode()
    four = next(t for t in round_.tables.all() if t.seats.count() == 4)
    three = next(t for t in round_.tables.all() if t.seats.count() == 3)
    if change == "swap":
        swap_first_and_last(round_)
    elif change == "move":
        mover = four.seats.first().entry_id
        seat_move(round_=round_, entry=mover, table=three.number, reason="wheelchair")
    elif change == "redraw":
        table_redraw(round_=round_, table=four.number, reason="dropped card")
    elif change == "as_drawn":
        order = [s.entry_id for s in four.seats.order_by("-position")]
        table_seat_as_drawn(
            round_=round_, table=four.number, order=order, first_dealer=order[1], reason="тираж"
        )
    elif change == "start":
        round_start(round_=round_)
    else:
        round_start(round_=round_)
        round_close(round_=round_, unfinished_reason="the tables did not finish")
    again = client.get(url_of(round_), HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert again.status_code == 200
    assert again.headers["ETag"] != first.headers["ETag"]
    after = again.content.decode()
    if change in ("start", "close"):
        assert "Play started at" in after and "Play started at" not in before
        assert ("closed at" in after) == (change == "close")
    else:
        assert 'id="corrections"' in after and 'id="corrections"' not in before
        if change != "redraw":  # a redraw may shuffle a table back into its order
            assert names_at_tables(after) != names_at_tables(before)


def test_the_etag_depends_on_the_viewer_and_the_language(client, published_round):
    event, round_ = published_round
    url = url_of(round_)
    anonymous = client.get(url).headers["ETag"]
    with translation.override("ru"):
        russian_url = url_of(round_)
    russian = client.get(russian_url, HTTP_IF_NONE_MATCH=anonymous)
    assert russian.status_code == 200
    assert russian.headers["ETag"] != anonymous
    assert "По столам" in russian.content.decode()
    client.force_login(UserFactory())
    logged_in = client.get(url, HTTP_IF_NONE_MATCH=anonymous)
    assert logged_in.status_code == 200
    assert "Log out" in logged_in.content.decode()
    event.name = "Open Final"
    event.save(update_fields=["name"])
    renamed = client.get(url, HTTP_IF_NONE_MATCH=logged_in.headers["ETag"])
    assert renamed.status_code == 200 and "Open Final" in renamed.content.decode()


@pytest.fixture
def standings_event():
    return one_round_played(players=9)


@pytest.mark.parametrize(
    "name", ["standings", "standings-cross", "standings-round", "api:standings"]
)
def test_standings_pages_answer_a_refresh_with_a_304_until_recomputed(
    client, standings_event, name
):
    event = standings_event
    args = [event.slug, 1] if name == "standings-round" else [event.slug]
    url = reverse(name, args=args)
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    responses = []
    sql = sql_of(lambda: responses.append(client.get(url, HTTP_IF_NONE_MATCH=etag)))
    assert responses[0].status_code == 304 and responses[0].content == b""
    assert len(sql) <= 3, sql  # the event, (the round,) the snapshot's header
    fine(event)
    after = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after.headers["ETag"] != etag
    assert after.content != first.content


def test_the_standings_api_serves_its_rows_from_the_cache(client, standings_event, monkeypatch):
    event = standings_event
    url = reverse("api:standings", args=[event.slug])
    first = client.get(url)
    body = first.json()
    assert first.headers["Content-Type"] == "application/json"
    snapshot = event.standings_snapshot
    snapshot.refresh_from_db()
    assert [r["entry"] for r in body["rows"]] == [r["entry"] for r in snapshot.data["rows"]]
    assert body["event"] == event.slug and body["rounds"] == [1]
    assert set(body["rows"][0]) == set(StandingsListApi.OutputSerializer().fields)

    class Broken(StandingsListApi.OutputSerializer):
        def __init__(self, *args, **kwargs):
            raise AssertionError("the rows were serialised again")

    monkeypatch.setattr(StandingsListApi, "OutputSerializer", Broken)
    again = client.get(url)
    assert again.status_code == 200 and json.loads(again.content) == body
    monkeypatch.undo()
    fine(event)
    fined = client.get(url).json()
    row = next(r for r in fined["rows"] if r["entry"] == event.entries_list[0].pk)
    old = next(r for r in body["rows"] if r["entry"] == event.entries_list[0].pk)
    assert row["total"] == old["total"] - 40
