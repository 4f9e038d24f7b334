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
