"""docs/balkan-format.md stays true: its examples are read and its error messages produced."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from scoring.balkan import jsonio, notation
from scoring.jsonio import JsonFormatError

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "balkan-format.md").read_text("utf-8")
BLOCKS = re.findall(r"```(balkan|json)\n(.*?)```", DOC, re.S)
SCHEMA = json.loads(
    (Path(jsonio.__file__).parent / "protocol.schema.json").read_text(encoding="utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SEED = ROOT / "tests" / "scoring" / "data" / "balkan" / "seed-example.balkan"


def test_the_doc_has_its_examples() -> None:
    assert [kind for kind, _ in BLOCKS] == ["balkan", "balkan", "balkan", "json", "json"]


@pytest.mark.parametrize("body", [body for kind, body in BLOCKS if kind == "balkan"])
def test_notation_examples_parse_and_round_trip(body: str) -> None:
    protocol, sheet = notation.parse_with_sheet(body)
    assert protocol.deals
    assert notation.parse_with_sheet(notation.format(protocol, sheet)) == (protocol, sheet)


def test_json_example_is_the_notation_example() -> None:
    data = json.loads(BLOCKS[3][1])
    VALIDATOR.validate(data)
    protocol, sheet = jsonio.from_dict(data)
    assert (protocol, sheet) == notation.parse_with_sheet(BLOCKS[0][1])
    assert sheet is not None and sheet.final is not None and sheet.result is not None


def test_the_seed_example_in_the_doc_is_the_test_file() -> None:
    assert notation.parse_with_sheet(BLOCKS[2][1]) == notation.parse_with_sheet(
        SEED.read_text(encoding="utf-8")
    )


def test_sheet_document_example() -> None:
    sheet = jsonio.loads_sheet(BLOCKS[4][1])
    written = jsonio.from_dict(json.loads(BLOCKS[3][1]))[1]
    assert written is not None
    assert (sheet.running, sheet.final, sheet.result) == ((), written.final, written.result)


def test_the_sheets_in_the_doc_are_what_the_scorer_writes() -> None:
    from scoring.variants import find_variant

    variant = find_variant("balkan")
    for body in (BLOCKS[0][1], BLOCKS[2][1]):
        protocol, sheet = notation.parse_with_sheet(body)
        report = variant.check(protocol, sheet)
        assert report.ok, [str(f) for f in report.findings]


@pytest.mark.parametrize(
    "text",
    [
        "bula: 30\nplayers: Ana, Boris, Cvita\nAna 9 ide/ide\n",
        "bula: 30\nplayers: Ana, Boris, Cvita\n\nAna žir ide\n",
        "bula: 30\nplayers: Ana, Boris, Cvita\nAna žir ide/ide štihovi 6-4\n",
    ],
)
def test_documented_notation_errors(text: str) -> None:
    with pytest.raises(notation.NotationError) as caught:
        notation.parse(text)
    assert str(caught.value) in DOC


def test_documented_json_errors() -> None:
    def error(change: dict[str, object], *path: str | int) -> str:
        data = json.loads(BLOCKS[3][1])
        node = data
        for key in path[:-1]:
            node = node[key]
        if path:
            node[path[-1]] = change["value"]
        else:
            data.update(change)
        with pytest.raises(JsonFormatError) as caught:
            jsonio.from_dict(data)
        return str(caught.value)

    assert error({"value": 7}, "deals", 0, "declarer") in DOC
    assert error({"value": "pass"}, "deals", 1, "defence", 0) in DOC
    assert error({"value": {"end_cap": "maybe"}}, "options") in DOC
    assert error({"version": 2}) in DOC
