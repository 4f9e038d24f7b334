"""Issue 36: the Russian sheet's words in the page's language. The filled sheet writes each deal
as the notation does, and the notation's own words are Russian ("6♠ / ровно", "без одной",
"распасы", "штраф"): a sheet read in Croatian, Serbian, German, Swedish or English says them in
that language, a Russian one as the players write them; so does the blank sheet's column."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from scoring.russian.notation import parse
from tournaments.variants import ui_of_protocol

TEXT = """players: Anna, Boris, Vera
target: 10
Anna 6♠ / ровно w/p
Boris 8♦ / без одной w/w
Vera мизер / ровно
распасы 4-3-3
штраф Boris §3.2.21 gora=5
"""

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _texts(language: str) -> list[str]:
    protocol = parse(TEXT)
    ui = ui_of_protocol(protocol)
    with translation.override(language):
        sheet = ui.filled_sheet(protocol, list(range(len(protocol.deals))))
    return [d["text"] for d in sheet["deals"]]


@pytest.mark.parametrize(
    ("language", "exactly", "down"),
    [
        ("hr", "točno", "bez jednog"),
        ("sr-latn", "tačno", "bez jednog"),
        ("de", "genau", "einer zu wenig"),
        ("sv", "jämnt", "en bet"),
        ("en", "exactly", "one down"),
    ],
)
def test_the_filled_sheet_says_the_notations_words_in_the_pages_language(language, exactly, down):
    texts = _texts(language)
    assert not [t for t in texts if CYRILLIC.search(t)], texts
    assert texts[0] == f"Anna 6♠ / {exactly} w/p" if language == "en" else exactly in texts[0]
    assert down in texts[1], texts


def test_a_russian_sheet_keeps_the_players_words():
    texts = _texts("ru")
    assert "ровно" in texts[0] and "без одной" in texts[1] and "мизер" in texts[2]
    assert texts[3].startswith("распасы") and texts[4].startswith("штраф")


def test_the_blank_sheets_column_says_its_example_in_the_pages_language():
    source = (Path(settings.BASE_DIR) / "templates/pdf/blank_background.html").read_text()
    assert "ровно" not in source and '"(4.2.11: 6♠ / exactly; 8 / one down)"' in source
    for language, word in (("de", "genau"), ("hr", "točno"), ("sv", "jämnt"), ("ru", "ровно")):
        with translation.override(language):
            said = translation.gettext("(4.2.11: 6♠ / exactly; 8 / one down)")
        assert word in said and (language == "ru" or not CYRILLIC.search(said)), (language, said)
