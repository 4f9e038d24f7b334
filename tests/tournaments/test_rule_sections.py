"""Issue 36: a citation names the rule text's section in the reader's language. Every section
or phrase the code cites by its heading (``002 "Ending the Game"``, ``cite("004", "Utgång")``)
is in :data:`tournaments.rule_sources.SECTIONS`, which the catalogues translate, so that no
English, Swedish or German heading is left inside a sentence in another language."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

from tournaments.rule_sources import SECTIONS, cite

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(
    r"""\b(00[0-4]),? \\?["“]([^"”\\\n]{2,60})\\?["”]"""
    r"""|["'](00[0-4])["'],\s*["']([^"'\d\n§][^"'\n]*)["']"""  # cite("002", "…"), with_rule
)


def _cited() -> set[tuple[str, str]]:
    found = set()
    for folder, pattern in (("scoring", "*.py"), ("rules", "*.py"), ("tournaments", "*.py"),
                            ("templates", "*.html")):  # fmt: skip
        for path in (ROOT / folder).rglob(pattern):
            if "locale" in path.parts or path.name == "rule_sources.py":
                continue
            for m in CITED.finditer(path.read_text(encoding="utf-8")):
                source, heading = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
                if not heading.startswith("note "):  # a note's number, not a section
                    found.add((source, heading.strip()))
    return found


def test_every_section_the_code_cites_has_its_words_in_every_language():
    cited = _cited()
    assert ("002", "Ending the Game") in cited and ("004", "Utgång") in cited  # the scan works
    missing = sorted(cited - set(SECTIONS))
    assert not missing, f"add to rule_sources.SECTIONS and the sections36 fragments: {missing}"


def test_a_section_reads_in_the_readers_language():
    for language, words in (("hr", "Kraj igre"), ("sv", "Spelets slut"), ("de", "Spielende")):
        with translation.override(language):
            assert words in cite("002", "Ending the Game"), language
    with translation.override("de"):
        assert "Budgivning" not in cite("004", "Budgivning")


def test_an_english_reader_reads_the_sections_in_english():
    """Issue 36: the Viennese, German and Priffe texts' sections are Swedish and German; an
    English page names them in English ("Priffe rules, “Bidding”"), as every other language
    does in its own words."""
    with translation.override("en"):
        for (source, heading), _words in SECTIONS.items():
            if source != "002":  # the Croatian rules are English already
                # a term may follow in brackets ("Eins (one)"), not stand alone
                assert f"“{heading}”" not in cite(source, heading), (source, heading)
        assert cite("004", "Budgivning") == "Priffe rules, “Bidding”"
        assert cite("000", "Spel på fyra personer") == "Viennese rules, “Playing with four”"
