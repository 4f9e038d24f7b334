"""Property-based fuzz of every parser (issue 25): whatever the input, the text notation's
readers raise nothing but ``NotationError`` and the JSON readers nothing but ``JsonFormatError``
(both ``ValueError``s naming where the input went wrong) — no ``IndexError``, ``KeyError``,
``RecursionError``, ``ZeroDivisionError`` … from deep inside. Inputs are arbitrary text, token
soups of the notation's own words, and valid documents with random edits (the inputs most
likely to reach deep into the readers).

A longer run: ``PULKA_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/scoring/test_fuzz.py``."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.jsonio import JsonFormatError
from scoring.notation_lexer import NotationError
from scoring.russian import jsonio, notation

from .strategies import protocols, sheets

FUZZ = settings(
    max_examples=int(os.environ.get("PULKA_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

#: Words, numbers and marks of the notation, to build lines that get past the first token.
VOCABULARY = [
    "players:", "target:", "convention:", "options:", "first dealer:", "ending:", "format:",
    "pulka", "1", "Anna", "Boris", "Vera", "Gleb", "A", "B", "C", "D", "sochi", "rostov",
    "leningrad", "classic", "lviv", "6♠", "7♣", "8♦", "9♥", "10", "6БК", "misere", "мизер",
    "w/p", "w/w", "p/p", "h", "half", "=", "+1", "-2", "/", ";", ",", ":", ".", "1.", "2.",
    "raspasy", "распасы", "penalty", "sheet", "final", "result", "запись", "итог", "0", "-0",
    "99999999999999999999", "10000000", "1/0", "12.5", "-80/3", "dealer=", "open", "x",
    "whist_style=gentleman", "rounding=exact", "closed", "time", "#", "'", '"', "\t", "ровно",
    "чуть", "без", "одной", "двух", "all", "tricks",
]  # fmt: skip


def only(errors: tuple[type[Exception], ...], read, text: str) -> None:
    try:
        read(text)
    except errors:
        pass


@st.composite
def token_soup(draw: st.DrawFn) -> str:
    lines = draw(
        st.lists(
            st.lists(st.sampled_from(VOCABULARY) | st.text(max_size=4), max_size=12),
            max_size=12,
        )
    )
    return "\n".join(" ".join(words) for words in lines)


@st.composite
def edited(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few random edits: a span cut, text or a vocabulary word inserted, a
    line doubled or dropped."""
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        insert = draw(st.sampled_from(VOCABULARY) | st.text(max_size=6) | st.just(""))
        text = text[:i] + insert + text[j:]
        lines = text.split("\n")
        k = draw(st.integers(0, len(lines) - 1))
        if draw(st.booleans()):
            lines.insert(k, lines[k])
        elif len(lines) > 1 and draw(st.booleans()):
            del lines[k]
        text = "\n".join(lines)
    return text


documents = protocols().flatmap(
    lambda p: st.tuples(st.just(p), sheets(len(p.players), len(p.deals)))
)


# --- the text notation -------------------------------------------------------------------


@FUZZ
@given(st.text())
def test_any_text_is_read_or_a_notation_error(text: str) -> None:
    only((NotationError,), notation.parse_with_sheet, text)
    only((NotationError,), lambda t: notation.parse_sheet(t, ("A", "B", "C")), text)


@FUZZ
@given(token_soup())
def test_any_line_of_notation_words_is_read_or_a_notation_error(text: str) -> None:
    only((NotationError,), notation.parse_with_sheet, "players: A, B, C\ntarget: 10\n" + text)
    only((NotationError,), notation.parse_with_sheet, text)
    only((NotationError,), lambda t: notation.parse_sheet(t, ("A", "B", "C", "D")), text)


@FUZZ
@given(documents.flatmap(lambda ps: edited(notation.format(*ps))))
def test_an_edited_protocol_is_read_or_a_notation_error(text: str) -> None:
    only((NotationError,), notation.parse, text)
    only((NotationError,), notation.parse_with_sheet, text)


@FUZZ
@given(
    documents.flatmap(
        lambda ps: st.tuples(
            st.just(ps[0].players), edited(notation.format_sheet(ps[1], ps[0].players))
        )
    )
)
def test_edited_sheet_lines_are_read_or_a_notation_error(pair: tuple[tuple[str, ...], str]) -> None:
    players, text = pair
    only((NotationError,), lambda t: notation.parse_sheet(t, players), text)


# --- JSON --------------------------------------------------------------------------------

JSON_READERS = (jsonio.loads, jsonio.loads_with_sheet, jsonio.loads_sheet)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def read_all(text: str) -> None:
    for read in JSON_READERS:
        only((JsonFormatError,), read, text)


@FUZZ
@given(st.text())
def test_any_text_is_json_read_or_a_format_error(text: str) -> None:
    read_all(text)


@FUZZ
@given(
    st.sampled_from(["pulka-protocol", "pulka-sheet", "pulka-result", None, 1]),
    st.sampled_from([1, 0, 2, -1, "1", None, 1.0, True]),
    st.dictionaries(
        st.sampled_from(
            ["players", "target", "deals", "convention", "options", "first_dealer", "ending",
             "sheet", "running", "final", "result", "x-note", "unknown"]
        ),
        json_values,
    ),
)  # fmt: skip
def test_any_document_shape_is_read_or_a_format_error(kind: Any, version: Any, body: dict) -> None:
    read_all(json.dumps({"format": kind, "version": version, **body}))


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


@st.composite
def mutated_documents(draw: st.DrawFn) -> str:
    """A valid protocol document (with its sheet) with values swapped for random ones at a
    few random places, keys dropped or added."""
    p, sheet = draw(documents)
    data = jsonio.to_dict(p, sheet)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(data)[1:] or [()]))
        if not path:
            break
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "drop", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(json_values)
        elif action == "drop":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(json_values)
        else:
            parent.append(draw(json_values))
    return json.dumps(data)


@FUZZ
@given(mutated_documents())
def test_a_mutated_document_is_read_or_a_format_error(text: str) -> None:
    read_all(text)


@FUZZ
@given(documents.flatmap(lambda ps: edited(jsonio.dumps(*ps, indent=None))))
def test_an_edited_json_text_is_read_or_a_format_error(text: str) -> None:
    read_all(text)


@pytest.mark.parametrize(
    ("family", "line", "players"),
    [
        ("balkan", "sheet 10000000: A -30 0 0 0; B -30 0 0 0; C -30 0 0 0", ("A", "B", "C")),
        ("pot", "kassa 10000000: 0, 0, 0; pott 0", ("A", "B", "C")),
        ("priffe", "sheet 10000000: under 0 0, över 0 0", ("A", "B", "C", "D")),
    ],
)
def test_every_family_bounds_a_sheet_rows_number(family, line, players):
    """Issue 25 item 7, in every family: a row number past any deal is an error naming the line,
    never ten million rows allocated."""
    from scoring.notation_lexer import NotationError
    from scoring.variants import VARIANTS

    with pytest.raises(NotationError, match=r"^line 1, column \d+: .*1000"):
        VARIANTS[family].parse_sheet(line, players)


# --- every family's readers ------------------------------------------------------------------

#: The Balkan, pot and Priffe readers (the Russian ones are fuzzed above): their text notation,
#: their JSON text and their sheet lines, each with the error it documents.
FAMILIES = ("balkan", "pot", "priffe")
#: Words of those notations, to build lines that get past the first token.
FAMILY_VOCABULARY = [
    "format:", "balkan", "pot", "priffe", "convention:", "bula:", "target:", "players:",
    "first dealer:", "ending:", "croatian", "serbian", "viennese", "german", "modern", "Ana",
    "Branko", "Vesna", "Anna", "Bertil", "Cecilia", "David", "ide", "ne ide", "igra", "list",
    "betl", "sans", "srce", "kontra", "refa", "štihovi", "giv", "går med", "stannar hemma",
    "efterköp", "sex", "rundpass", "tvång", "kassa", "pott", "sits", "sits 1:", "ruter",
    "spader", "hjärter", "klöver", "trumf", "pass", "honnörer", "straff", "tvångsnoll", "{",
    "}", "/", "-", "+", "0", "1", "4/9", "3-1-6", "99999999999999999999", "10000000", "sheet",
    "sheet 1:", "under", "över", ";", ",", ":", "1.", "2.", "=", "#",
]  # fmt: skip


def family_json_reader(family: str):
    import importlib

    module = importlib.import_module(f"scoring.{family}.jsonio")
    return module.loads_with_ledger if family == "pot" else module.loads_with_sheet


def family_protocol(family: str, seed: int):
    import random

    from scoring.variants import VARIANTS

    players = 4 if family == "priffe" else 3
    return VARIANTS[family].random_protocol(random.Random(seed), players=players)


@FUZZ
@given(st.sampled_from(FAMILIES), st.text())
def test_any_text_is_a_familys_protocol_or_its_documented_error(family: str, text: str) -> None:
    from scoring.variants import VARIANTS

    only((NotationError,), VARIANTS[family].parse_text, text)
    only((JsonFormatError,), family_json_reader(family), text)


@FUZZ
@given(
    st.sampled_from(FAMILIES),
    st.lists(
        st.lists(st.sampled_from(FAMILY_VOCABULARY) | st.text(max_size=4), max_size=12),
        max_size=12,
    ),
)
def test_a_soup_of_a_familys_words_is_read_or_a_notation_error(family, lines) -> None:
    from scoring.variants import VARIANTS

    text = "\n".join(" ".join(words) for words in lines)
    variant = VARIANTS[family]
    only((NotationError,), variant.parse_text, text)
    players = ("A", "B", "C", "D") if family == "priffe" else ("A", "B", "C")
    only((NotationError,), lambda t: variant.parse_sheet(t, players, deals=5), text)


@FUZZ
@given(st.sampled_from(FAMILIES), st.integers(0, 2**32), st.data())
def test_a_familys_edited_protocol_and_json_are_read_or_their_errors(family, seed, data) -> None:
    """A valid protocol of the family, written as its text and as its JSON, with random edits:
    the edits most likely to reach deep into the readers."""
    from scoring.variants import VARIANTS

    variant = VARIANTS[family]
    protocol = family_protocol(family, seed)
    text = data.draw(edited(variant.format_text(protocol)))
    only((NotationError,), variant.parse_text, text)
    document = json.dumps(variant.to_dict(protocol), ensure_ascii=False)
    only((JsonFormatError,), family_json_reader(family), data.draw(edited(document)))


@FUZZ
@given(st.sampled_from(FAMILIES), st.integers(0, 2**32), st.data())
def test_a_familys_document_with_a_value_replaced_is_read_or_a_format_error(
    family, seed, data
) -> None:
    from scoring.variants import VARIANTS

    variant = VARIANTS[family]
    document = variant.to_dict(family_protocol(family, seed))
    node: Any = document
    while True:  # walk down to a random value and replace it
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        if isinstance(node[key], dict | list) and node[key] and data.draw(st.booleans()):
            node = node[key]
            continue
        node[key] = data.draw(json_values)
        break
    only((JsonFormatError,), variant.from_dict, document)
