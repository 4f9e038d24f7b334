"""The Priffe JSON and text notation: round trips, the schema, and errors that name the field."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings

from scoring.jsonio import JsonFormatError
from scoring.notation_lexer import NotationError
from scoring.priffe import jsonio, notation
from scoring.priffe.protocol import PriffeSheet
from scoring.variants import read_text_document

from .strategies import protocols, sheets

SCHEMA = json.loads((Path(jsonio.__file__).parent / "protocol.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


@settings(deadline=None, max_examples=150)
@given(protocols(), sheets)
def test_json_round_trip_and_schema(protocol, sheet) -> None:
    data = jsonio.to_dict(protocol, sheet)
    VALIDATOR.validate(data)
    assert jsonio.loads_with_sheet(json.dumps(data)) == (protocol, sheet)


@settings(deadline=None, max_examples=150)
@given(protocols(), sheets)
def test_text_round_trip(protocol, sheet) -> None:
    expected = (protocol, None if sheet == PriffeSheet() else sheet)  # an empty sheet is none
    text = notation.format(protocol, sheet)
    assert notation.parse_with_sheet(text) == expected
    ascii_text = notation.format(protocol, sheet, ascii=True)
    assert notation.parse_with_sheet(ascii_text) == expected


@settings(deadline=None, max_examples=60)
@given(protocols())
def test_documents_are_told_apart_by_format(protocol) -> None:
    variant, read, _ = read_text_document(notation.format(protocol))
    assert variant.key == "priffe" and read == protocol
    variant, read, _ = read_text_document(jsonio.dumps(protocol))
    assert variant.key == "priffe" and read == protocol


def _doc(**changes) -> dict:
    data = {
        "format": "pulka-priffe-protocol",
        "version": 1,
        "players": ["A", "B", "C", "D"],
        "target": 3,
        "sittings": [[0, 1, 2, 3]],
        "deals": [{"type": "hand", "sits": 0, "contract": "hjärter", "declarer": 1,
                   "tricks": [4, 9]}],
    }  # fmt: skip
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"players": ["A", "B", "C"]}, "$.players"),
        ({"players": ["A", "B", "C", "a"]}, "$.players"),
        ({"sittings": [[0, 1, 2, 2]]}, "$.sittings[0]"),
        ({"sittings": []}, "$.sittings"),
        ({"target": 0}, "$.target"),
        ({"version": 2}, "$.version"),
        ({"format": "pulka-protocol"}, "$.format"),
        ({"deals": [{"type": "hand", "sits": 1, "contract": "pref", "declarer": 0,
                     "tricks": [7, 6]}]}, "$.deals[0].sits"),
        ({"deals": [{"type": "hand", "sits": 0, "contract": "trumf", "declarer": 0,
                     "tricks": [7, 6]}]}, "$.deals[0].contract"),
        ({"deals": [{"type": "hand", "sits": 0, "contract": "pref", "declarer": 0,
                     "tricks": [14, 6]}]}, "$.deals[0].tricks[0]"),
        ({"deals": [{"type": "hand", "sits": 0, "contract": "pref", "declarer": 0,
                     "tricks": [7, 6], "honours": [{"holder": 0, "pattern": "2"}]}]},
         "$.deals[0].honours[0].pattern"),
        ({"deals": [{"type": "hand", "sits": 0, "contract": "pref", "declarer": 0,
                     "tricks": [7, 6], "bids": ["tvångsnoll"]}]}, "$.deals[0].bids[0]"),
        ({"deals": [{"type": "hand", "sits": 0, "contract": "pref", "declarer": 4,
                     "tricks": [7, 6]}]}, "$.deals[0].declarer"),
        ({"deals": [{"type": "deal"}]}, "$.deals[0].type"),
        ({"colour": "red"}, "$.colour"),
    ],
)  # fmt: skip
def test_json_errors_name_the_field(changes, path) -> None:
    with pytest.raises(JsonFormatError) as caught:
        jsonio.from_dict(_doc(**changes))
    assert caught.value.path == path


def test_json_extensions_are_ignored() -> None:
    protocol, _ = jsonio.from_dict(_doc(**{"x-club": "Uppsala"}))
    assert protocol.deals[0].tricks == (4, 9)


HEAD = "format: priffe 1\nplayers: Anna, Bertil, Cecilia, David\nsits 1: Anna, Bertil, Cecilia, David\n"


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        (HEAD + "Bertil trumf 8\n", 4, "unknown contract 'trumf'"),
        (HEAD + "Erik pref 8\n", 4, "expected a player"),
        (HEAD + "Bertil pref 14\n", 4, "the tricks of the side"),
        (HEAD + "Bertil pref 11 lillslam\n", 4, "lillslam at pref is 12 tricks, not 11"),
        (HEAD + "tvångsnoll Anna storslam\n", 4, "tvångsnoll has no slam"),
        (HEAD + "Bertil pref 8 honnörer Anna 2\n", 4, "how the honours lie"),
        (HEAD + "Bertil pref 8 {pass tvångsnoll}\n", 4, "tvångsnoll is never bid"),
        (HEAD + "2. Bertil pref 8\n", 4, "deal number 1."),
        (HEAD + "sits 3: Anna, Bertil, Cecilia, David\n", 4, "expected sits 2"),
        (HEAD + "sits 2: Anna, Bertil, Cecilia, Anna\n", 4, "four players clockwise"),
        ("format: priffe 1\nplayers: Anna, Bertil, Cecilia, David\nAnna pref 8\n", 3, "'sits 1: …'"),
        ("format: priffe 1\nplayers: Anna, Bertil, Cecilia\n", 2, "four different players"),
        ("format: priffe 2\n", 1, "'priffe 1'"),
        (HEAD + "ending: later\n", 4, "expected a player"),
        (HEAD + "Bertil pref 8 colour=red\n", 4, "dealer=, sits= or end of line"),
    ],
)  # fmt: skip
def test_notation_errors_name_line_and_what_was_expected(text, line, says) -> None:
    with pytest.raises(NotationError) as caught:
        notation.parse(text)
    assert caught.value.line == line and says in str(caught.value)


def test_players_words_are_read() -> None:
    text = HEAD + (
        "1. Bertil spelut 9/4 honnörer Anna 4 {pass pref pass pass} dealer=Anna\n"
        "2. Cecilia nollissimo lillslam\n"
        "3. tvangsnoll David 8 {klover pass pass pass}\n"
        "4. straff Anna 50 rule=revoke note=\"fel färg\"\n"
        "sheet 1: under 0 30, över 50 0\nsheet 2: under 60 0, över 10 0, utgång\n"
        "sheet sits 1: 120 30\nsheet result: 120, 30, 120, 30\n"
    )
    protocol, sheet = notation.parse_with_sheet(text)
    a, b, c, p = protocol.deals
    assert (a.contract, a.declarer, a.tricks, a.dealer) == ("pref", 1, (4, 9), 0)
    assert (b.contract, b.tricks) == ("noll", (1, 12))
    assert (c.contract, c.declarer, c.tricks, c.bids) == ("tvångsnoll", None, (5, 8),
                                                          ("klöver", "pass", "pass", "pass"))
    assert (p.player, p.points, p.rule, p.note) == (0, 50, "revoke", "fel färg")
    assert sheet is not None and sheet.entries[1].game and sheet.result == (120, 30, 120, 30)
