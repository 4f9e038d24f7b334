"""Readable but impossible protocol documents are refused where they enter (issue 29): a seat
that is not at the table, two players of the same name; the error names the JSON path and
the rule."""

from __future__ import annotations

import json

import pytest

from scoring.russian.jsonio import JsonFormatError, loads


def doc(*deals: dict, players: tuple[str, ...] = ("Anna", "Boris", "Vera")) -> str:
    return json.dumps({"format": "pulka-protocol", "version": 1, "players": list(players),
                       "target": 10, "ending": "in-progress", "deals": list(deals)})


GAME = {"type": "game", "declarer": 0, "contract": "6S", "calls": ["pass", "pass"]}


@pytest.mark.parametrize(("deal", "path"), [
    (dict(GAME, declarer=7), "$.deals[0].declarer"),
    (dict(GAME, declarer=3), "$.deals[0].declarer"),
    (dict(GAME, dealer=4), "$.deals[0].dealer"),
    (dict(GAME, auction=[[0, "6S"], [5, "pass"]]), "$.deals[0].auction[1][0]"),
    ({"type": "raspasy", "tricks": [4, 3, 3], "dealer": 3}, "$.deals[0].dealer"),
    ({"type": "penalty", "player": 3, "rule": "3.2.21", "gora": 5}, "$.deals[0].player"),
    ({"type": "penalty", "player": 0, "whists": [[9, 10]]}, "$.deals[0].whists[0][0]"),
])
def test_a_seat_not_at_the_table_is_refused_naming_the_field(deal, path):
    with pytest.raises(JsonFormatError) as caught:
        loads(doc(GAME, deal))
    assert caught.value.path == path.replace("[0]", "[1]", 1)
    assert "from 0 to 2" in caught.value.reason and "001 §3.2.10" in caught.value.reason


def test_a_fourth_seat_is_there_with_four_players():
    protocol = loads(doc(dict(GAME, declarer=3, dealer=0),
                         players=("Anna", "Boris", "Vera", "Gleb")))
    assert protocol.deals[0].declarer == 3


def test_raspasy_needs_a_count_per_seat():
    with pytest.raises(JsonFormatError) as caught:
        loads(doc({"type": "raspasy", "tricks": [4, 3, 2, 1]}))
    assert caught.value.path == "$.deals[0].tricks"
    assert "3 trick counts" in caught.value.reason


@pytest.mark.parametrize("players", [("Anna", "Boris", "Anna"), ("Anna", "Boris", " anna ")])
def test_two_players_of_the_same_name_are_refused(players):
    with pytest.raises(JsonFormatError) as caught:
        loads(doc(players=players))
    assert caught.value.path == "$.players[2]"
    assert "$.players[0]" in caught.value.reason and "001 §4.2.1" in caught.value.reason


def test_an_empty_name_is_refused():
    with pytest.raises(JsonFormatError) as caught:
        loads(doc(players=("Anna", " ", "Vera")))
    assert caught.value.path == "$.players[1]"
