"""docs/priffe-format.md stays true: its examples are read, checked and computed as shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from rules.priffe import OPTION_NAMES
from scoring.jsonio import JsonFormatError
from scoring.notation_lexer import NotationError
from scoring.priffe import jsonio, notation
from scoring.priffe.check import check
from scoring.priffe.result_json import result_to_dict
from scoring.priffe.score import score

DOC = (Path(__file__).resolve().parents[3] / "docs" / "priffe-format.md").read_text("utf-8")
BLOCKS = re.findall(r"```(priffe|json)\n(.*?)```", DOC, re.S)
TEXTS = [body for kind, body in BLOCKS if kind == "priffe"]
JSONS = [json.loads(body) for kind, body in BLOCKS if kind == "json"]
SCHEMA = json.loads((Path(jsonio.__file__).parent / "protocol.schema.json").read_text("utf-8"))


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_doc_has_its_examples() -> None:
    assert [kind for kind, _ in BLOCKS] == ["priffe", "priffe", "json", "priffe", "json"]


@pytest.mark.parametrize("text", TEXTS)
def test_text_examples_read_round_trip_and_check_clean(text: str) -> None:
    protocol, sheet = notation.parse_with_sheet(text)
    assert protocol.deals
    assert notation.parse_with_sheet(notation.format(protocol, sheet)) == (protocol, sheet)
    report = check(protocol, sheet)
    assert report.ok and not report.findings, [str(f) for f in report.findings]


def test_the_json_example_is_the_second_text_example() -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(JSONS[0])
    assert jsonio.from_dict(JSONS[0]) == notation.parse_with_sheet(TEXTS[1])


def test_the_result_example_is_what_score_json_computes() -> None:
    protocol = notation.parse(TEXTS[2])
    assert JSONS[1] == result_to_dict(score(protocol), check(protocol).findings)


def test_the_quoted_errors_are_the_errors() -> None:
    for old, new in (("Bertil hjärter 8/5", "Bertil trumf 8/5"),
                     ("Anna pref 12/1 lillslam", "Anna pref 11 lillslam")):  # fmt: skip
        with pytest.raises(NotationError) as caught:
            notation.parse(TEXTS[0].replace(old, new))
        assert f"`{caught.value}`" in _flat(DOC)
    data = json.loads(json.dumps(JSONS[0]))
    data["deals"][3]["tricks"][0] = 14
    with pytest.raises(JsonFormatError) as caught:
        jsonio.from_dict(data)
    assert f"`{caught.value}`" in _flat(DOC)


def test_every_option_is_documented() -> None:
    for name in OPTION_NAMES:
        assert f"| `{name}` |" in DOC
