"""The duplicate API: the option, the seed's commitment (the seed itself only once every round
is closed), the standings, a board's traveller (its cards once its round is closed)."""

from __future__ import annotations

import pytest

from scoring.duplicate.boards import generate_boards, seed_sha256
from tests.factories import EventFactory
from tests.tournaments.duplicate.factories import nine_player_event, seat_duplicate_round
from tournaments.models import Round
from tournaments.services.duplicate import (
    board_result_enter,
    duplicate_commit_seed,
    duplicate_deal_boards,
)

pytestmark = pytest.mark.django_db


def test_the_duplicate_api(client, django_capture_on_commit_callbacks):
    event = nine_player_event()
    duplicate_commit_seed(event=event, seed_hash=seed_sha256("frost"))
    duplicate_deal_boards(event=event, seed="frost")
    rounds = [seat_duplicate_round(event, n) for n in (1, 2, 3)]
    with django_capture_on_commit_callbacks(execute=True):
        for table in rounds[0].tables.all():
            board_result_enter(table=table, board_number=1, text="1 6S ровно w/p")
    data = client.get(f"/api/v1/events/{event.slug}/duplicate").json()
    assert data["method"] == "matchpoints" and data["boards"] == 9
    assert data["seed_sha256"] == seed_sha256("frost") and data["seed"] == ""
    assert len(data["standings"]) == 9 and data["standings"][0]["total"] == "2"
    board = client.get(f"/api/v1/events/{event.slug}/duplicate/boards/1").json()
    assert board["round"] == 1 and board["cards"] is None
    assert [t["seats"][0]["score"] for t in board["tables"]] == ["2", "2", "2"]
    assert board["tables"][0]["deal"] == "Anna 6♠ / ровно w/p"
    Round.objects.filter(event=event).update(state=Round.State.CLOSED)
    board = client.get(f"/api/v1/events/{event.slug}/duplicate/boards/1").json()
    assert board["cards"] == generate_boards("frost", 1)[0].cards
    assert client.get(f"/api/v1/events/{event.slug}/duplicate").json()["seed"] == "frost"
    other = EventFactory()
    assert client.get(f"/api/v1/events/{other.slug}/duplicate").status_code == 404


def test_a_table_enters_its_board_result_by_the_api(client, django_capture_on_commit_callbacks):
    """As the protocols API for ordinary events: the table's key, the version it was based on
    (409 for another), a clear 400 naming the field for bad input, nothing saved then."""
    event = nine_player_event()
    duplicate_deal_boards(event=event, seed="frost")
    round_ = seat_duplicate_round(event, 1)
    t1, t2 = round_.tables.get(number=1), round_.tables.get(number=2)
    url = f"/api/v1/events/{event.slug}/rounds/1/tables/1/boards/1"
    key = {"HTTP_X_TABLE_KEY": t1.url_key}

    def post(body, headers=key):
        return client.post(url, body, content_type="application/json", **headers)

    assert post({"deal": "1 6S ровно w/p", "based_on_version": None}, {}).status_code == 403
    wrong_key = {"HTTP_X_TABLE_KEY": t2.url_key}
    assert post({"deal": "1 6S ровно w/p", "based_on_version": None}, wrong_key).status_code == 403
    # bad input: each refusal names its field
    answer = post({"deal": "1 6S ровно w/p"})
    assert answer.status_code == 400 and "based_on_version" in answer.json()["extra"]
    answer = post({"based_on_version": None})
    assert answer.status_code == 400 and "non_field_errors" in answer.json()["extra"]
    answer = post({"deal": "1 9Z ровно w/p", "based_on_version": None})
    assert answer.status_code == 400 and answer.json()["extra"]["field"] == "deal"
    answer = client.post(
        f"/api/v1/events/{event.slug}/rounds/1/tables/1/boards/4",
        {"deal": "1 6S ровно w/p", "based_on_version": None},
        content_type="application/json", **key,
    )
    assert answer.status_code == 400 and answer.json()["extra"]["field"] == "board"
    answer = post({"adjusted": ["plus", "minus", "average"], "reason": "x", "based_on_version": None})
    assert answer.status_code == 403  # an adjusted score is a referee's
    assert client.get(url, **key).status_code == 404  # nothing saved
    with django_capture_on_commit_callbacks(execute=True):
        answer = post({"deal": "1 6S ровно w/p", "based_on_version": None})
    assert answer.status_code == 201
    saved = answer.json()
    assert saved["version"] == 1 and saved["values"] == ["16/3", "4/3", "-20/3"]
    assert saved["entered_by"] == "table" and saved["adjusted"] == []
    # a second write based on no version (or an old one) is stale: 409 with the current one
    answer = post({"deal": "1 6S -1 w/p", "based_on_version": None})
    assert answer.status_code == 409
    assert answer.json()["extra"] == {"field": "based_on_version", "current_version": 1}
    with django_capture_on_commit_callbacks(execute=True):
        answer = post({"deal": "1 6S -1 w/p", "based_on_version": 1})
    assert answer.status_code == 201 and answer.json()["version"] == 2
    assert client.get(url, **key).json()["version"] == 2

    # a referee adjusts it, with a reason; a closed round takes no more from the table's key
    from tests.factories import UserFactory
    from tournaments.models import EventRole

    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    answer = post({"deal": "1 6S ровно w/p", "based_on_version": 2})
    assert answer.status_code == 400 and answer.json()["extra"]["field"] == "board"
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    client.force_login(referee)
    answer = post({"adjusted": ["plus", "better", "average"], "reason": "x", "based_on_version": 2}, {})
    assert answer.status_code == 400 and "adjusted" in answer.json()["extra"]
    answer = post({"adjusted": ["plus", "minus", "average"], "reason": "", "based_on_version": 2}, {})
    assert answer.status_code == 400 and answer.json()["extra"]["field"] == "reason"
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(
            {"adjusted": ["plus", "minus", "average"], "reason": "fouled", "based_on_version": 2}, {}
        )
    assert answer.status_code == 201
    assert answer.json()["adjusted"] == ["plus", "minus", "average"] and answer.json()["deal"] == ""
    board = client.get(f"/api/v1/events/{event.slug}/duplicate/boards/1").json()
    assert board["tables"][0]["adjusted"] == ["plus", "minus", "average"]
    assert board["tables"][0]["adjusted_reason"] == "fouled"
