"""docs/protocol-format.md stays true: its examples are read and its error messages produced."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from rules.conventions import SOCHI
from scoring.russian import jsonio, notation

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol-format.md").read_text("utf-8")
BLOCKS = re.findall(r"```(pulka|json)\n(.*?)```", DOC, re.S)
SCHEMA = json.loads(
    (Path(jsonio.__file__).parent / "protocol.schema.json").read_text(encoding="utf-8")
)


def test_the_doc_has_its_examples() -> None:
    assert [kind for kind, _ in BLOCKS] == ["pulka", "pulka", "json", "json"]


@pytest.mark.parametrize("body", [body for kind, body in BLOCKS if kind == "pulka"])
def test_notation_examples_parse_and_round_trip(body: str) -> None:
    protocol = notation.parse(body)
    assert protocol.deals
    assert notation.parse(notation.format(protocol)) == protocol


def test_json_example_is_the_notation_example() -> None:
    first_text = BLOCKS[0][1]
    data = json.loads(BLOCKS[2][1])
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    protocol, sheet = jsonio.from_dict(data)
    assert (protocol, sheet) == notation.parse_with_sheet(first_text)
    assert sheet is not None and sheet.final is not None and sheet.result is not None
    from scoring.russian.check import check

    assert check(protocol, sheet).ok  # the sheet in the doc is what the scorer writes


def test_sheet_document_example() -> None:
    sheet = jsonio.loads_sheet(BLOCKS[3][1])
    assert sheet.final is not None and len(sheet.final) == 3


@pytest.mark.parametrize(
    "text",
    [
        "players: Anna, Boris, Vera\ntarget: 10\nAnna 6♠ / почти\n",
        "players: Anna, Boris, Vera\ntarget: 10\n\n\nDmitry 6♠\n",
        "players: Anna, Boris, Vera\ntarget: 10\n" + "\n" * 6 + "raspasy 4-3\n",
    ],
)
def test_documented_notation_errors(text: str) -> None:
    with pytest.raises(notation.NotationError) as caught:
        notation.parse(text)
    assert str(caught.value) in DOC


def test_documented_json_errors() -> None:
    data = json.loads(BLOCKS[2][1])
    data["deals"][3]["contract"] = "11S"
    with pytest.raises(jsonio.JsonFormatError) as caught:
        jsonio.from_dict(data)
    assert str(caught.value) in DOC
    data = json.loads(BLOCKS[2][1]) | {"version": 2}
    with pytest.raises(jsonio.JsonFormatError) as caught:
        jsonio.from_dict(data)
    assert str(caught.value) in DOC


def test_the_option_table_lists_every_option_with_its_default_and_source() -> None:
    """The "Convention options" table: one row per option of rules/conventions.py, Sochi's
    value, and the rule it comes from (D21: 001 §3.8.8, §3.8.14, §3.8.13, §3.8.1.2)."""
    rows = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^\| `(\w+)` \| [^|]+ \| `([^`]+)` \|.*\| ([^|]+) \|$", DOC, re.M)
    }
    shown = {
        name: ("true" if value else "false") if isinstance(value, bool) else str(value)
        for name, value in SOCHI.options().items()
    }
    assert {name: default for name, (default, _) in rows.items()} == shown
    assert all(source.strip() for _, source in rows.values())
    assert rows["returned_half_consolation"][1] == "001 §3.8.8, §3.8.14, §3.8.13, §3.8.1.2; D21"
