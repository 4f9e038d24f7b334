"""Versioned Balkan protocol JSON (scoring.balkan.jsonio): round trips, the schema, errors naming
the path."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings

from rules.balkan import OPTION_NAMES
from scoring.balkan import jsonio
from scoring.balkan.notation import parse_with_sheet
from scoring.balkan.protocol import AllPass, BalkanProtocol, BalkanSheet, Defence, Hand, Penalty
from scoring.jsonio import JsonFormatError
from scoring.russian import jsonio as russian_jsonio
from scoring.variants import read_json_document

from .strategies import protocols, protocols_with_sheets

DATA = Path(__file__).resolve().parents[1] / "data" / "balkan"
SCHEMA = json.loads(
    (Path(jsonio.__file__).parent / "protocol.schema.json").read_text(encoding="utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SHEET_VALIDATOR = jsonschema.Draft202012Validator(
    {"$defs": SCHEMA["$defs"], "$ref": "#/$defs/sheetDocument"}
)


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "seed-example.json").read_text("utf-8"))
    return data


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert set(SCHEMA["properties"]["options"]["properties"]) == set(OPTION_NAMES)
    bids = SCHEMA["$defs"]["hand"]["properties"]["auction"]["oneOf"][0]["items"]["prefixItems"]
    assert tuple(bids[1]["enum"]) == jsonio.BIDS


def test_example_json_is_the_example_text() -> None:
    text = (DATA / "seed-example.balkan").read_text(encoding="utf-8")
    assert jsonio.from_dict(example()) == parse_with_sheet(text)
    VALIDATOR.validate(example())
    assert (DATA / "seed-example.json").read_text("utf-8") == jsonio.dumps(*parse_with_sheet(text))


def test_the_registry_reads_balkan_documents() -> None:
    variant, protocol, sheet = read_json_document(example())
    assert variant.key == "balkan" and (protocol, sheet) == jsonio.from_dict(example())


@settings(max_examples=300, deadline=None)
@given(protocols())
def test_any_protocol_round_trips_and_matches_the_schema(p: BalkanProtocol) -> None:
    text = jsonio.dumps(p)
    assert jsonio.loads(text) == p
    VALIDATOR.validate(json.loads(text))
    assert jsonio.loads(jsonio.dumps(p, indent=None)) == p


@settings(max_examples=150, deadline=None)
@given(protocols_with_sheets())
def test_protocols_with_sheets_round_trip(pair: tuple[BalkanProtocol, BalkanSheet]) -> None:
    p, sheet = pair
    text = jsonio.dumps(p, sheet)
    VALIDATOR.validate(json.loads(text))
    assert jsonio.loads_with_sheet(text) == (p, sheet)
    assert jsonio.loads_sheet(text) == sheet
    alone = jsonio.dumps_sheet(sheet)
    SHEET_VALIDATOR.validate(json.loads(alone))
    assert jsonio.loads_sheet(alone) == sheet


def test_minimal_document_uses_defaults_and_ignores_extensions() -> None:
    p, sheet = jsonio.loads_with_sheet(
        '{"format": "pulka-balkan-protocol", "version": 1, "players": ["A", "B", "C"],'
        ' "bula": 30, "deals": [{"type": "hand", "declarer": 1, "contract": 5, "x-seen": 1},'
        ' {"type": "all-pass"}, {"type": "penalty", "player": 2}],'
        ' "x-source": "club sheet scan"}'
    )
    assert sheet is None
    assert (p.convention, p.first_dealer, str(p.ending), p.options) == ("croatian", 0, "closed", ())
    assert p.deals == (Hand(1, 5, False, (Defence.PLAY, Defence.PLAY)), AllPass(), Penalty(2))


def test_options_are_validated_and_sorted() -> None:
    data = example() | {"options": {"preferans": True, "end_cap": False}}
    p, _ = jsonio.from_dict(data)
    assert p.options == (("end_cap", False), ("preferans", True))
    assert jsonio.to_dict(p)["options"] == {"end_cap": False, "preferans": True}


def test_russian_and_balkan_documents_are_told_apart() -> None:
    russian = {"format": "pulka-protocol", "version": 1, "players": ["A", "B", "C"], "target": 10}
    with pytest.raises(JsonFormatError, match=r"^\$\.format: expected 'pulka-balkan-protocol'"):
        jsonio.from_dict(russian)
    with pytest.raises(JsonFormatError, match=r"^\$\.format: expected 'pulka-protocol'"):
        russian_jsonio.from_dict(example())


# --- versioning ----------------------------------------------------------------------------


def test_newer_version_is_refused_not_guessed() -> None:
    with pytest.raises(JsonFormatError, match=r"^\$\.version: version 2 is newer .* \(up to 1\)"):
        jsonio.from_dict(example() | {"version": 2})
    with pytest.raises(JsonFormatError, match=r"^\$\.version: version 3 is newer"):
        jsonio.loads_sheet('{"format": "pulka-balkan-sheet", "version": 3}')


def test_migrations_run_from_old_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    # How a version 2 will read version 1: MIGRATIONS[1] rewrites a v1 document into v2.
    def rename(doc: dict[str, Any]) -> dict[str, Any]:
        doc = dict(doc)
        doc["players"] = [name.lower() for name in doc["players"]]
        doc["version"] = 2
        return doc

    monkeypatch.setattr(jsonio, "VERSION", 2)
    monkeypatch.setitem(jsonio.MIGRATIONS, 1, rename)
    p, _ = jsonio.from_dict(example())
    assert p.players == ("a", "b", "c")
    assert russian_jsonio.VERSION == 1  # the Russian documents keep their own version


# --- errors name the JSON path -------------------------------------------------------------

_DELETE = object()


def _with(path: list[str | int], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(example())
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


# Deal 0 is a hand (C bundeva), 2 the all-pass, 5 the kontra hand (g); a penalty is added as 15.
@pytest.mark.parametrize(
    ("path", "value", "where", "expected", "schema_too"),
    [
        (["format"], "pulka-protocol", "$.format", "'pulka-balkan-protocol'", True),
        (["version"], "1", "$.version", "a version number", True),
        (["version"], 0, "$.version", "a version number", True),
        (["bula"], 0, "$.bula", "a whole number from 1", True),
        (["bula"], 30.5, "$.bula", "a whole number from 1", True),
        (["bula"], True, "$.bula", "a whole number from 1", True),
        (["bula"], _DELETE, "$", "missing key 'bula'", True),
        (["players"], ["A", "B", "C", "D"], "$.players", "a list of 3 names", True),
        (["players", 1], 7, "$.players[1]", "a string", True),
        (["first_dealer"], 3, "$.first_dealer", "a seat number from 0 to 2", True),
        (["ending"], "over", "$.ending", "'closed'", True),
        (["convention"], "sochi", "$.convention", "croatian, serbian, slovenian", False),
        (["convention"], 5, "$.convention", "a string", True),
        (["options"], [], "$.options", "an object", True),
        (["options", "colour"], "red", "$.options.colour", "unknown option", True),
        (["options", "end_cap"], "maybe", "$.options.end_cap", "not true or false", True),
        (["options", "plain_two"], "never", "$.options.plain_two", "is not one of", True),
        (
            ["options", "refa_limit"],
            99,
            "$.options.refa_limit",
            "not an integer from 0 to 20",
            True,
        ),
        (["deals"], {}, "$.deals", "a list", True),
        (["deals", 0], 5, "$.deals[0]", "a deal object", True),
        (["deals", 0, "type"], "game", "$.deals[0].type", "'hand', 'all-pass' or 'penalty'", True),
        (["deals", 0, "declarer"], 7, "$.deals[0].declarer", "a seat number from 0 to 2", True),
        (["deals", 0, "declarer"], -1, "$.deals[0].declarer", "a seat number", True),
        (["deals", 0, "declarer"], _DELETE, "$.deals[0]", "missing key 'declarer'", True),
        (["deals", 0, "contract"], 9, "$.deals[0].contract", "a contract number from 2 to 8", True),
        (["deals", 0, "contract"], "5", "$.deals[0].contract", "a contract number", True),
        (["deals", 0, "game"], "yes", "$.deals[0].game", "true or false", True),
        (["deals", 0, "defence"], ["play"], "$.deals[0].defence", "the two defenders'", True),
        (["deals", 0, "defence", 1], "pass", "$.deals[0].defence[1]", "'play', 'drop'", True),
        (["deals", 0, "kontra"], -1, "$.deals[0].kontra", "a doubling level from 0 to 20", True),
        (["deals", 0, "kontra"], 21, "$.deals[0].kontra", "a doubling level", True),
        (["deals", 5, "kontra_by"], 3, "$.deals[5].kontra_by", "a seat number", True),
        (["deals", 0, "tricks"], [6, 4], "$.deals[0].tricks", "3 trick counts", True),
        (["deals", 0, "tricks", 2], 11, "$.deals[0].tricks[2]", "a trick count from 0", True),
        (["deals", 0, "auction"], [[0]], "$.deals[0].auction[0]", "a [seat, bid] pair", True),
        (["deals", 0, "auction"], [[5, "2"]], "$.deals[0].auction[0][0]", "a seat", True),
        (["deals", 0, "auction"], [[0, "kontra"]], "$.deals[0].auction[0][1]", "a bid", True),
        (["deals", 0, "auction"], [[0, 2]], "$.deals[0].auction[0][1]", "a bid", True),
        (["deals", 0, "dealer"], 3, "$.deals[0].dealer", "a seat number", True),
        (["deals", 0, "bomb"], 2, "$.deals[0].bomb", "unknown key", True),
        (["deals", 2, "tricks"], [4, 3, 3], "$.deals[2].tricks", "unknown key", True),
        (["deals", 2, "dealer"], "A", "$.deals[2].dealer", "a seat number", True),
        (["colour"], "red", "$.colour", "unknown key", True),
        (["sheet"], [], "$.sheet", "a sheet object", True),
        (["sheet", "final", 0], {"column": 1}, "$.sheet.final[0]", "missing key 'soups'", True),
        (["sheet", "final", 1, "soups"], [1, 2], "$.sheet.final[1].soups", "3 soups", True),
        (["sheet", "final", 1, "refas"], -1, "$.sheet.final[1].refas", "a number of refas", True),
        (["sheet", "final"], [], "$.sheet.final", "one object per player", True),
        (["sheet", "result"], [1, 2], "$.sheet.result", "3 results", True),
        (["sheet", "result", 0], "506", "$.sheet.result[0]", "a whole number of points", True),
        (["sheet", "running"], [None, 5], "$.sheet.running[1]", "one object per player", True),
    ],
)
def test_errors_name_the_path(
    path: list[str | int], value: Any, where: str, expected: str, schema_too: bool
) -> None:
    data = _with(path, value)
    with pytest.raises(JsonFormatError) as caught:
        jsonio.from_dict(data)
    error = caught.value
    assert error.path == where, str(error)
    assert expected in str(error), str(error)
    assert str(error).startswith(f"{where}: ")
    if schema_too:
        assert not VALIDATOR.is_valid(data)  # the schema rejects it too


@pytest.mark.parametrize(
    ("deal", "where", "expected"),
    [
        ({"type": "penalty"}, "$.deals[15]", "missing key 'player'"),
        ({"type": "penalty", "player": 4}, "$.deals[15].player", "a seat number from 0 to 2"),
        ({"type": "penalty", "player": 0, "column": "10"}, "$.deals[15].column", "points"),
        ({"type": "penalty", "player": 0, "soups": [[1]]}, "$.deals[15].soups[0]", "pair"),
        ({"type": "penalty", "player": 0, "soups": [[3, 5]]}, "$.deals[15].soups[0][0]", "seat"),
        ({"type": "penalty", "player": 0, "note": 5}, "$.deals[15].note", "a string"),
        ({"type": "penalty", "player": 0, "gora": 5}, "$.deals[15].gora", "unknown key"),
    ],
)
def test_penalty_errors_name_the_path(deal: dict[str, Any], where: str, expected: str) -> None:
    data = example()
    data["deals"].append(deal)
    with pytest.raises(JsonFormatError) as caught:
        jsonio.from_dict(data)
    assert caught.value.path == where and expected in str(caught.value), str(caught.value)
    assert not VALIDATOR.is_valid(data)


def test_not_json_wrong_documents_and_deep_nesting() -> None:
    with pytest.raises(JsonFormatError, match=r"^\$: not JSON: .* line 1, column 2"):
        jsonio.loads("{nope")
    with pytest.raises(JsonFormatError, match=r"^\$: expected a JSON object"):
        jsonio.loads("[1, 2]")
    with pytest.raises(JsonFormatError, match=r"^\$\.sheet: missing key 'sheet'"):
        jsonio.loads_sheet(json.dumps(example() | {"sheet": None}))
    with pytest.raises(JsonFormatError, match=r"^\$\.format: expected 'pulka-balkan-sheet'"):
        jsonio.loads_sheet('{"format": "pulka-sheet", "version": 1}')
    deep = "[" * 200_000 + "]" * 200_000
    with pytest.raises(JsonFormatError, match=r"^\$: JSON nested too deeply"):
        jsonio.loads(deep)
    nested = json.dumps(example())[:-1] + ', "x-deep": ' + "[" * 200_000 + "]" * 200_000 + "}"
    with pytest.raises(JsonFormatError, match=r"^\$: JSON nested too deeply"):
        jsonio.loads(nested)
    inner = "[" * 500 + "]" * 500
    with pytest.raises(JsonFormatError, match=r"^\$\.deals\[0\]: expected a deal object"):
        jsonio.loads(
            json.dumps(example() | {"deals": []})[:-1].replace('"deals": []', f'"deals": [{inner}]')
            + "}"
        )


def test_sheet_document_alone() -> None:
    doc = {"format": "pulka-balkan-sheet", "version": 1, "result": [506, -496, -10],
           "final": [{"column": 42, "soups": [0, 166, 132]},
                     {"column": -24, "soups": [24, 0, 54], "refas": 0},
                     {"column": -18, "soups": [188, 168, 0], "x-hat": True}]}  # fmt: skip
    SHEET_VALIDATOR.validate(doc)
    sheet = jsonio.loads_sheet(json.dumps(doc))
    assert sheet == jsonio.from_dict(example())[1]
    assert sheet.running == ()


def test_docstring_examples() -> None:
    import doctest

    result = doctest.testmod(jsonio, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
