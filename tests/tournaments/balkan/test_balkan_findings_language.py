"""A Balkan protocol's findings in the reader's language (issue 24 §4: the table's page and the
PDFs in Croatian and Serbian): the scorer keeps each finding as a template and its parameters
(``scoring.findings.templated``), the pages translate the template and fill it in; the rule is
cited as seed 002's section, as every Balkan finding is."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.balkan.protocol import Hand
from tournaments import rule_sources
from tournaments.pdf import protocol_contexts as pdf_protocols
from tournaments.services.protocols import protocol_save, table_header
from tournaments.words.protocols import finding_message

from .test_balkan_event import balkan_table

pytestmark = pytest.mark.django_db

#: a hand whose tricks make 11 (002 "Idea of the Game": ten tricks)
ELEVEN = Hand(1, 3, tricks=(3, 6, 2))

SENTENCES = {
    "en": "tricks sum to 11, not 10 (or a defence of 5 when play stopped)",
    "hr": "štihova je ukupno 11, a ne 10 (ili 5 obrane kad je igra stala)",
    "sr-latn": "štihova je ukupno 11, a ne 10 (ili 5 odbrane kad je igra stala)",
    "ru": "взяток в сумме 11, а не 10 (или 5 у защиты, когда игра остановлена)",
    "de": "die Stiche ergeben 11, nicht 10 (oder 5 der Verteidigung, wenn das Spiel endete)",
    "sv": "sticken blir 11, inte 10 (eller 5 för försvaret när spelet avbröts)",
}


def _saved():
    event, (table,), _ = balkan_table()
    version = protocol_save(
        table=table, protocol=table_header(table).with_deals((ELEVEN,)), based_on_version=None
    )
    return table, version


@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_the_table_page_shows_the_finding_in_the_readers_language(client, language):
    table, version = _saved()
    (finding,) = [f for f in version.findings if f["code"] == "TRICKS_SUM"]
    assert finding["message"] == SENTENCES["en"]  # stored in English, with its template
    assert finding["params"] == {"total": 11}
    with translation.override(language):
        url = reverse("protocol-table", args=[table.url_key])
    page = html.unescape(client.get(url).content.decode())
    assert SENTENCES[language] in page
    if language != "en":
        assert SENTENCES["en"] not in page
    with translation.override(language):
        cited = rule_sources.cite("002", "Idea of the Game")  # "Croatian rules, “Idea of the Game”"
    assert f"[{cited}]" in page and '[002 "' not in page and "§Idea" not in page


def test_the_filled_pdf_shows_the_finding_in_the_readers_language():
    table, _ = _saved()
    with translation.override("hr"):
        context = pdf_protocols.filled_protocol_context(table=table)
    (finding,) = [f for f in context["findings"] if "11" in f["message"]]
    assert finding["message"] == SENTENCES["hr"]
    assert finding["citation"] == "Hrvatska pravila, „Zamisao igre“"  # the section in Croatian


def test_a_stored_finding_without_a_template_keeps_its_message():
    # versions stored before findings carried templates, and the Russian checker's findings
    stored = {"code": "TRICKS_SUM", "message": "tricks sum to 9", "rule": "3.2.8"}
    with translation.override("hr"):
        assert finding_message(stored) == "tricks sum to 9"
        # a translation that does not fit the parameters falls back to the stored message
        broken = {"message": "m", "text": SENTENCES["en"].replace("11", "{total}"), "params": {}}
        assert finding_message(broken) == "m"


def _codes() -> set[str]:
    """Every finding code the Balkan scorer and checkers write (read from their source)."""
    import re
    from pathlib import Path

    import scoring.balkan

    found: set[str] = set()
    for path in Path(scoring.balkan.__file__).parent.glob("*.py"):
        found |= set(re.findall(r'(?:_f|_err|templated|Finding)\(\s*"([A-Z_]+)"', path.read_text()))
    return found


@pytest.mark.parametrize("language", ["hr", "sr-latn", "ru", "de", "sv"])
def test_every_balkan_finding_has_a_heading_in_the_readers_language(language):
    from tournaments.variants import ui_for
    from tournaments.words.protocols import finding_title

    titles = ui_for("croatian").finding_titles
    codes = _codes()
    assert {"TRICKS_SUM", "KONTRA_MISSING", "SHEET_CELL", "PASS_FINAL"} <= codes
    for code in sorted(codes):
        english = finding_title(code, titles)
        assert english != code, code  # a heading, not the bare code
        with translation.override(language):
            assert finding_title(code, titles) != english, (language, code)


def test_a_table_that_cannot_be_scored_and_a_kept_ruling_speak_the_readers_language():
    from scoring.balkan.check import check
    from scoring.balkan.protocol import BalkanProtocol
    from tournaments.words.protocols import finding_title

    (table,) = check(BalkanProtocol(("A", "B"), 30, ())).findings  # two players
    assert table.code == "TABLE" and table.message.startswith("the table cannot be scored: ")
    stored = {"text": table.text, "params": dict(table.params), "message": table.message}
    kept = {  # tournaments.services.protocols: a ruling that no longer applies
        "code": "RULING_NOT_RECOMPUTED",
        "text": "ruling #{ruling} kept as made: {reason}",
        "params": {"ruling": 4, "reason": "x"},
    }
    with translation.override("hr"):
        assert finding_message(stored).startswith("stol se ne može obračunati: ")
        assert finding_message(kept) == "odluka br. 4 ostaje kakva je donesena: x"
        assert finding_title("RULING_NOT_RECOMPUTED") == "Odluka ostaje kakva je donesena"


@pytest.mark.parametrize(
    ("language", "cited"),
    [
        ("hr", "Hrvatska pravila, „Kraj igre“"),
        ("de", "Kroatische Regeln, „Spielende“"),
        ("sv", "Kroatiska regler, ”Spelets slut”"),
        ("ru", "Хорватские правила, «Окончание игры»"),
        ("en", "Croatian rules, “Ending the Game”"),
    ],
)
def test_a_rule_texts_section_is_named_in_the_readers_language(language, cited):
    """Issue 36: a citation names the rule text's section in the reader's language, not the
    English (or Swedish, German) heading inside a Croatian sentence; every section the code
    cites has its words in every language (``rule_sources.SECTIONS``)."""
    with translation.override(language):
        assert rule_sources.cite("002", "Ending the Game") == cited
        assert rule_sources.cited_in('(002 "Ending the Game")') == f"({cited})"
