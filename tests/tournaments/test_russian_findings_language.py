"""Issue 36: the Russian pulka's findings of the deals' order and the raspasy read in the page's
language, as the other families' do: each finding of :mod:`scoring.russian.pulka` and
:mod:`scoring.russian.raspasy` carries a template and its values (the command line's English
message unchanged), and every template has its words in every language."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

from scoring.findings import Finding
from scoring.russian.check import check
from scoring.russian.notation import parse
from tournaments.variants.russian_words import finding_sentence
from tournaments.words.protocols import finding_message

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]

TEXT = """players: Anna, Boris, Vera
convention: sochi
pulka: 10
ending: agreement
1. raspasy 4-3-2
"""


def _stored():
    return [
        {"code": f.code, "message": f.message, "source": f.source, "text": f.text,
         "params": dict(f.params), "deal": f.deal, "written": f.written}  # fmt: skip
        for f in check(parse(TEXT)).findings
    ]


def test_a_raspasy_finding_keeps_its_english_message_and_has_a_template():
    found = {f["code"]: f for f in _stored()}
    assert found["TRICKS_SUM"]["message"] == "raspasy tricks sum to 9, not 10"
    assert found["TRICKS_SUM"]["text"] == "raspasy tricks sum to {n}, not 10"


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "распасах"), ("hr", "raspasima"), ("de", "Raspasy"), ("sv", "raspasy blir")],
)
def test_a_raspasy_finding_reads_in_the_pages_language(language, words):
    with translation.override(language):
        said = [finding_message(f) for f in _stored() if f["code"] == "TRICKS_SUM"]
    assert said and words in said[0] and "9" in said[0], said
    assert not re.search(r"\b(?:tricks|sum|not)\b", said[0]), said


@pytest.mark.parametrize("language", ["ru", "de"])
def test_the_russian_sentence_of_a_templated_finding_is_its_words(language):
    """The Russian page's sentence (:func:`finding_sentence`) says a templated finding in the
    page's language, not its heading alone."""
    f = {"code": "DEAL_AFTER_CLOSE", "message": "the pulka closed at deal 3", "source": "001",
         "text": "the pulka closed at deal {n}", "params": {"n": 3}}  # fmt: skip
    with translation.override(language):
        said = finding_sentence(dict(f, message=finding_message(f)), ["A", "B", "C"], "title")
    assert "3" in said and "closed" not in said, said


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_russian_finding_template_has_its_words(language):
    catalog = trans_real.translation(language)._catalog
    templates = set()
    for name in ("pulka.py", "raspasy.py", "writing.py", "check.py"):
        source = (Path(settings.BASE_DIR) / "scoring/russian" / name).read_text(encoding="utf-8")
        templates |= {
            node.args[0].value
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop"
        }
    assert len(templates) >= 13
    missing = [t for t in sorted(templates) if not catalog.get(t)]
    assert not missing, missing


AUCTION = """players: Anna, Boris, Vera
convention: sochi
pulka: 10
first dealer: Vera
ending: agreement

1. Anna 6♠ / ровно w/p {Anna 6♠; Vera 7♠; Boris pass; Vera pass}
"""


def test_an_auctions_finding_names_the_players_in_the_pages_language():
    """The Kodeks' auction rules (rules.bidding) broken: the English message keeps "seat n"
    (the command line's), the page says the player's name in its language."""
    found = [
        {"code": f.code, "message": f.message, "source": f.source, "text": f.text,
         "params": dict(f.params)}  # fmt: skip
        for f in check(parse(AUCTION)).findings
        if f.code.startswith("AUCTION_")
    ]
    assert found and all(f["text"] for f in found), found
    assert any("seat 3" in f["message"] for f in found), found
    for language in ("ru", "de", "hr", "sv", "en"):
        with translation.override(language):
            said = " | ".join(finding_message(f) for f in found)
        assert "Vera" in said and "seat" not in said, (language, said)


def test_an_unreadable_call_and_a_misere_call_are_said_in_the_readers_words():
    """Issue 36: the Russian 'auction not readable: …' finding was English on every page, and
    a call's "мизер" Russian on every other language's page."""
    unreadable = Finding("AUCTION", "auction not readable: …", "3.3", 0,
                         text="“{call}” is not a call (a bid such as 6♠, pass, misère, здесь or take)",
                         params=(("call", "6x"),))  # fmt: skip
    stored = {"code": unreadable.code, "message": unreadable.message, "text": unreadable.text,
              "params": dict(unreadable.params), "source": "001"}  # fmt: skip
    with translation.override("ru"):
        assert finding_message(stored).startswith("«6x» — не заявка")
    with translation.override("hr"):
        assert finding_message(stored).startswith("„6x” nije licitacija")
    misere = {"code": "AUCTION_AFTER_END", "message": "Ana says мизер after the auction ended",
              "text": "{player} says {call} after the auction ended",
              "params": {"player": "Ana", "call": "мизер"}, "source": "001"}  # fmt: skip
    with translation.override("hr"):
        assert "мизер" not in finding_message(misere) and "betl" in finding_message(misere)
    with translation.override("ru"):
        assert "мизер" in finding_message(misere)
