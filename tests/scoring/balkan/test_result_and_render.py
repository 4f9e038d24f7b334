"""The result document (pulka-balkan-result) and the readable sheet."""

import json

import pytest

from scoring.balkan import result_json
from scoring.balkan.protocol import AllPass, BalkanProtocol, Hand
from scoring.balkan.render import render_sheet
from scoring.balkan.score import score

from .worked_example import PROTOCOL


@pytest.fixture
def no_jsonio(monkeypatch):
    """The protocol document comes from scoring.balkan.jsonio (the formats work, merged apart)."""
    monkeypatch.setattr(result_json, "to_dict",
                        lambda protocol, sheet=None: {"format": "pulka-balkan-protocol"})


def test_result_document_carries_every_listed_value(no_jsonio):
    data = json.loads(result_json.dumps_result(score(PROTOCOL)))
    assert data["format"] == "pulka-balkan-result" and data["version"] == 1
    assert data["protocol"] == {"format": "pulka-balkan-protocol"}
    assert data["convention"] == "croatian" and data["bula"] == 30 and data["refa_limit"] == 1
    assert data["options"]["end_cap"] is True and data["options"]["defender_quota"] == "team"
    assert data["settlement"] == [506, -496, -10] and data["zero_sum"] is True
    assert data["ended"] is True and data["ended_at"] == 14 and data["stopped_early"] is False
    assert data["final"] == {"columns": [42, -24, -18],
                             "soups": [[0, 166, 132], [24, 0, 54], [188, 168, 0]],
                             "refas": [0, 0, 0]}
    last = data["deals"][14]
    assert (last["base_value"], last["multiplier"], last["value"], last["capped_value"],
            last["capped"], last["made"]) == (10, 1, 10, 6, True, True)
    g = data["deals"][5]  # note (g)
    assert g["failed"] == [1] and g["host"] == 1 and g["kontra"] == 1
    assert g["columns"] == [-2, -28, -4] and g["soups"][1] == [24, 0, 12]
    assert data["deals"][2]["refa_given"] and data["deals"][2]["refas"] == [1, 1, 1]
    assert data["deals"][3]["refa_used"] and data["deals"][3]["refa_used_from"] == 2
    assert data["deals"][7]["hats"] == [{"player": 2, "hat": "up"}]
    assert data["findings"] == []


def test_undefined_and_stopped_early_are_said(no_jsonio):
    p = BalkanProtocol(("A", "B", "C"), 30, (Hand(0, 8, tricks=(9, 1, 0)), AllPass()),
                       convention="serbian", options=(("preferans", True),), ending="time-limit")
    data = result_json.result_to_dict(score(p))
    assert data["deals"][0]["kind"] == "not-scored" and data["deals"][0]["outcome"] == "undefined"
    assert data["stopped_early"] and not data["zero_sum"]
    codes = {f["code"]: f for f in data["findings"]}
    assert codes["UNDEFINED"]["rule"] == "variations played in Serbia" and codes["UNDEFINED"]["source"] == "002"
    assert codes["STOPPED_EARLY"]["severity"] == "warning"


def test_render_sheet():
    s = score(PROTOCOL)
    text = render_sheet(s)
    assert "A: 298 − 212 + 10 × 42 = +506" in text
    assert "B: 78 − 334 + 10 × −24 = −496" in text and "C: 356 − 186 + 10 × −18 = −10" in text
    assert "value 6 capped from 10" in text and "The game ended at deal 15" in text
    assert "rekontra by C" in text and "8∩" in text and "−2∪" in text
    ascii_text = render_sheet(s, ascii=True)
    assert ascii_text.isascii() and "8^" in ascii_text


def test_render_findings():
    p = BalkanProtocol(("A", "B", "C"), 30, (Hand(0, 2, tricks=(6, 2, 2)),), ending="agreement")
    s = score(p)
    text = render_sheet(s, s.findings)
    assert "NOT SCORED" in text and "KONTRA_MISSING" in text and "not zero-sum" in text
