"""docs/pot-format.md stays true: its examples are read, round-trip, check clean and score as shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from rules.pot import GERMAN_OPTIONS, VIENNESE_OPTIONS
from scoring.pot import jsonio, notation
from scoring.pot.check import check
from scoring.pot.result_json import result_to_dict
from scoring.pot.score import score

DOC = (Path(__file__).resolve().parents[3] / "docs" / "pot-format.md").read_text("utf-8")
BLOCKS = re.findall(r"```(pot|json)\n(.*?)```", DOC, re.S)
SCHEMA = json.loads((Path(jsonio.__file__).parent / "protocol.schema.json").read_text("utf-8"))
TEXTS = [body for kind, body in BLOCKS if kind == "pot"]


def test_the_doc_has_its_examples() -> None:
    assert [kind for kind, _ in BLOCKS] == ["pot", "pot", "pot", "json", "json"]


@pytest.mark.parametrize("body", TEXTS)
def test_notation_examples_parse_round_trip_and_check_clean(body: str) -> None:
    protocol, ledger = notation.parse(body)
    assert protocol.deals
    assert notation.parse(notation.format(protocol, ledger)) == (protocol, ledger)
    report = check(protocol, ledger)
    assert report.ok, [str(f) for f in report.findings]
    jsonschema.validate(jsonio.to_dict(protocol, ledger), SCHEMA)


def test_the_json_example_is_the_first_text_example() -> None:
    data = json.loads(BLOCKS[3][1])
    jsonschema.validate(data, SCHEMA)
    assert jsonio.from_dict(data) == notation.parse(TEXTS[0])


def test_the_result_excerpt_is_what_score_prints() -> None:
    protocol, _ = notation.parse(TEXTS[0])
    assert result_to_dict(score(protocol))["deals"][0] == json.loads(BLOCKS[4][1])


def test_the_options_table_lists_every_option() -> None:
    for name in {*VIENNESE_OPTIONS, *GERMAN_OPTIONS}:
        assert f"| `{name}` |" in DOC, name
