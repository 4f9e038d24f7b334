"""Versioned protocol JSON (scoring.jsonio): round trips, the schema, errors naming the path."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings

from scoring.jsonio import JsonFormatError
from scoring.russian import jsonio, result_json
from scoring.russian.check import check
from scoring.russian.generate import random_protocol
from scoring.russian.notation import parse
from scoring.russian.protocol import Protocol, Sheet, SheetLine
from scoring.russian.pulka import score

from .strategies import protocols

DATA = Path(__file__).parent / "data"
HEAD_TEXT = "players: Anna, Boris, Vera\ntarget: 10\nending: in-progress\n"
SCHEMA = json.loads(
    (Path(jsonio.__file__).parent / "protocol.schema.json").read_text(encoding="utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SHEET_VALIDATOR = jsonschema.Draft202012Validator(
    {"$defs": SCHEMA["$defs"], "$ref": "#/$defs/sheetDocument"}
)


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "sochi" / "example.json").read_text("utf-8"))
    return data


def test_example_json_is_the_example_text() -> None:
    text = (DATA / "sochi" / "example.pulka").read_text(encoding="utf-8")
    assert jsonio.from_dict(example()) == (parse(text), None)
    VALIDATOR.validate(example())


@settings(max_examples=200, deadline=None)
@given(protocols())
def test_any_protocol_round_trips_and_matches_the_schema(p: Protocol) -> None:
    text = jsonio.dumps(p)
    assert jsonio.loads(text) == p
    VALIDATOR.validate(json.loads(text))
    assert jsonio.loads(jsonio.dumps(p, indent=None)) == p


def test_generated_protocols_with_their_sheets_round_trip() -> None:
    for seed in range(12):
        p = random_protocol(random.Random(seed), players=3 + seed % 2, target=10)
        scored = score(p)
        sheet = Sheet(
            running=tuple(scored.row(i) for i in range(len(p.deals))),
            final=scored.final_row(),
            result=scored.settlement.totals,
        )
        text = jsonio.dumps(p, sheet)
        VALIDATOR.validate(json.loads(text))
        assert jsonio.loads_with_sheet(text) == (p, sheet)
        assert jsonio.loads_sheet(text) == sheet
        alone = jsonio.dumps_sheet(sheet)
        SHEET_VALIDATOR.validate(json.loads(alone))
        assert jsonio.loads_sheet(alone) == sheet


def test_minimal_document_uses_defaults() -> None:
    p = jsonio.loads(
        '{"format": "pulka-protocol", "version": 1, "players": ["A", "B", "C"], "target": 10,'
        ' "deals": [{"type": "game", "declarer": 1, "contract": "7♦"},'
        ' {"type": "raspasy", "tricks": [4, 3, 3]}, {"type": "penalty", "player": 2}],'
        ' "x-source": "club sheet scan"}'
    )
    assert (p.convention, p.first_dealer, str(p.ending), p.options) == ("sochi", 0, "closed", ())
    assert [type(d).__name__ for d in p.deals] == ["Game", "Raspasy", "Penalty"]


def test_fractions_in_results_are_exact() -> None:
    sheet = Sheet(result=(Fraction(-80, 3), Fraction(40, 3), Fraction(40, 3)))
    data = json.loads(jsonio.dumps_sheet(sheet))
    assert data["result"] == ["-80/3", "40/3", "40/3"]
    assert jsonio.loads_sheet(json.dumps(data)) == sheet
    assert jsonio.number(Fraction(4, 2)) == 2


def test_result_document() -> None:
    p = parse((DATA / "sochi" / "example.pulka").read_text(encoding="utf-8"))
    scored = score(p)
    data = json.loads(result_json.dumps_result(scored))
    assert (data["format"], data["version"]) == ("pulka-result", 1)
    assert jsonio.from_dict(data["protocol"])[0] == p
    assert len(data["deals"]) == len(p.deals)
    last = data["deals"][-1]["totals"]
    assert [line["pulya"] for line in last] == [x.pulya for x in scored.row(len(p.deals) - 1)]
    totals = [Fraction(x) for x in data["settlement"]["totals"]]
    assert sum(totals) == 0 and totals == list(scored.settlement.totals)
    assert data["findings"] == [] or all("code" in f for f in data["findings"])


def test_result_document_carries_findings() -> None:
    p = parse(HEAD_TEXT + "Anna 6♠ / без одной w3/w0\nBoris мизер / ровно w/p\n")
    report = check(p)
    data = json.loads(result_json.dumps_result(score(p), report.findings))
    codes = [f["code"] for f in data["findings"]]
    assert codes == [f.code for f in report.findings] and "MISERE_WHISTED" in codes
    first = data["findings"][0]
    assert set(first) == {
        "code", "severity", "message", "rule", "source", "deal", "player", "column", "written", "expected"
    }  # fmt: skip
    assert all(isinstance(f["message"], str) and f["severity"] in ("error", "warning")
               for f in data["findings"])  # fmt: skip
    json.dumps(data)  # every value is plain JSON


# --- versioning ----------------------------------------------------------------------------


def test_newer_version_is_refused_not_guessed() -> None:
    data = example() | {"version": 2}
    with pytest.raises(JsonFormatError, match=r"^\$\.version: version 2 is newer"):
        jsonio.from_dict(data)


def test_migrations_run_from_old_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    # How a version 2 will read version 1: MIGRATIONS[1] rewrites a v1 document into v2.
    def rename(doc: dict[str, Any]) -> dict[str, Any]:
        doc = dict(doc)
        doc["players"] = [name.upper() for name in doc["players"]]
        doc["version"] = 2
        return doc

    monkeypatch.setattr(jsonio, "VERSION", 2)
    monkeypatch.setitem(jsonio.MIGRATIONS, 1, rename)
    p, _ = jsonio.from_dict(example())
    assert p.players == ("ANNA", "BORIS", "VERA")


# --- errors name the JSON path -------------------------------------------------------------


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


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "where", "expected"),
    [
        (["format"], "pulka", "$.format", "'pulka-protocol'"),
        (["version"], "1", "$.version", "a version number"),
        (["version"], 0, "$.version", "a version number"),
        (["target"], 0, "$.target", "a whole number ≥ 1"),
        (["target"], True, "$.target", "a whole number ≥ 1"),
        (["target"], _DELETE, "$", "missing key 'target'"),
        (["players"], ["A", "B"], "$.players", "3 or 4 names"),
        (["players", 1], 7, "$.players[1]", "a string"),
        (["first_dealer"], 3, "$.first_dealer", "a seat number"),
        (["ending"], "over", "$.ending", "'closed'"),
        (["options"], [], "$.options", "an object"),
        (["options", "help"], 1.5, "$.options.help", "a string, whole number"),
        (["deals"], {}, "$.deals", "a list"),
        (["deals", 0], 5, "$.deals[0]", "a deal object"),
        (["deals", 0, "type"], "slam", "$.deals[0].type", "'game', 'raspasy' or 'penalty'"),
        (["deals", 0, "contract"], "11S", "$.deals[0].contract", "a contract such as"),
        (["deals", 0, "contract"], 6, "$.deals[0].contract", "a contract such as"),
        (["deals", 0, "declarer"], -1, "$.deals[0].declarer", "a seat number"),
        (["deals", 0, "calls", 1], "double", "$.deals[0].calls[1]", "one of 'whist'"),
        (["deals", 0, "declarer_tricks"], 11, "$.deals[0].declarer_tricks", "0 to 10"),
        (["deals", 0, "auction", 0], [0], "$.deals[0].auction[0]", "a [seat, call] pair"),
        (["deals", 0, "auction", 0, 1], None, "$.deals[0].auction[0][1]", "a string"),
        (["deals", 0, "open"], "yes", "$.deals[0].open", "true or false"),
        (["deals", 0, "multiplier"], 0, "$.deals[0].multiplier", "a whole number ≥ 1"),
        (["deals", 0, "bomb"], 2, "$.deals[0].bomb", "unknown key"),
        (["deals", 2, "tricks", 0], "4", "$.deals[2].tricks[0]", "a trick count"),
        (["deals", 6, "whists"], [[0]], "$.deals[6].whists[0]", "a [seat, whists] pair"),
        (["deals", 6, "player"], _DELETE, "$.deals[6]", "missing key 'player'"),
        (["colour"], "red", "$.colour", "unknown key"),
        (["sheet"], {"final": [{"pulya": 1}]}, "$.sheet.final[0]", "missing key 'gora'"),
        (["sheet"], {"result": ["1/0"]}, "$.sheet.result[0]", "an exact fraction"),
        (
            ["sheet"],
            {"running": [[{"pulya": 1, "gora": 0, "whists": [0, "1", 0]}]]},
            "$.sheet.running[0][0].whists[1]",
            "a whole number",
        ),  # fmt: skip
    ],
)
def test_errors_name_the_path(path: list[str | int], value: Any, where: str, expected: str) -> None:
    data = _with(path, value)
    with pytest.raises(JsonFormatError) as caught:
        jsonio.from_dict(data)
    error = caught.value
    assert error.path == where, str(error)
    assert expected in str(error)
    assert str(error).startswith(f"{where}: ")
    if where != "$.first_dealer":  # a seat beyond the players is past what a schema can say
        assert not VALIDATOR.is_valid(data)  # the schema rejects it too


def test_not_json_and_wrong_documents() -> None:
    with pytest.raises(JsonFormatError, match=r"^\$: not JSON: .* line 1, column 2"):
        jsonio.loads("{nope")
    with pytest.raises(JsonFormatError, match=r"^\$: expected a JSON object"):
        jsonio.loads("[1, 2]")
    with pytest.raises(JsonFormatError, match=r"^\$\.sheet: missing key 'sheet'"):
        jsonio.loads_sheet(json.dumps(example()))
    with pytest.raises(JsonFormatError, match=r"^\$\.format: expected 'pulka-sheet'"):
        jsonio.loads_sheet('{"format": "pulka-result", "version": 1}')


def _decodes(text: str) -> bool:
    try:
        json.loads(text)
    except RecursionError:
        return False
    return True


@pytest.mark.parametrize("read", [jsonio.loads, jsonio.loads_sheet, jsonio.loads_with_sheet])
def test_deeply_nested_json_is_a_format_error(read: Any) -> None:
    """Nesting the decoder refuses, and nesting it takes but too deep to print, are
    JsonFormatErrors quoting a short preview, never a RecursionError (issue 25, item 7)."""
    for text in ("[" * 100_000, '{"a": ' * 100_000 + "1" + "}" * 100_000):
        with pytest.raises(JsonFormatError, match=r"^\$: JSON nested too deeply"):
            read(text)
    # As deep as the decoder takes here: printing it whole from deeper in the stack would recurse.
    deep = next(t for d in range(1000, 0, -5) if _decodes(t := "[" * d + "]" * d))
    document = f'{{"format": "pulka-protocol", "version": 1, "players": {deep[1:-1]}}}'
    with pytest.raises(
        JsonFormatError, match=r"^\$\.players\[0\]: expected a string, found \[\[\["
    ):
        read(document)
    with pytest.raises(JsonFormatError, match=r"^\$: expected a JSON object, found \[\[\[\[") as e:
        read(deep)
    assert len(str(e.value)) < 100


def test_a_huge_wrong_value_is_quoted_briefly() -> None:
    big = {"format": "pulka-protocol", "version": 1, "players": ["A", "B", "C"],
           "target": {"x": list(range(100_000)), "y": "z" * 100_000}}  # fmt: skip
    with pytest.raises(JsonFormatError) as caught:
        jsonio.loads(json.dumps(big))
    quoted = json.dumps(big["target"])[:37] + "..."  # the first characters, as ever
    assert str(caught.value) == f"$.target: expected a whole number ≥ 1, found {quoted}"


def test_written_sheet_line_is_read() -> None:
    doc = {"format": "pulka-sheet", "version": 1, "final": [
        {"pulya": 10, "gora": 4, "whists": [0, 12, 30]},
        {"pulya": 10, "gora": 0, "whists": [2, 0, 0]},
        {"pulya": 10, "gora": 8, "whists": [0, 4, 0]},
    ]}  # fmt: skip
    sheet = jsonio.loads_sheet(json.dumps(doc))
    assert sheet.final is not None and sheet.final[0] == SheetLine(10, 4, (0, 12, 30))
    assert sheet.running == () and sheet.result is None
