"""Issue 36: German addresses the reader as "Sie" on every page — the organisers' and referees'
pages and the players' phone alike (``players.de.po-fragment``'s header, CONTRIBUTING's
language section) — so no German string of the catalogue says "du", "dein", "dich" or "dir", nor
gives a du-imperative ("Gib …", "Wähle …")."""

from __future__ import annotations

import re

from django.utils.translation import trans_real

DU = re.compile(r"\b(?:[Dd]u|[Dd]ein(?:e[mnrs]?)?|[Dd]ich|[Dd]ir)\b")
#: du-imperatives at the start of a sentence (the Sie form is "Geben Sie …", "Wählen Sie …")
DU_IMPERATIVE = re.compile(
    r"(?:^|[.!?:;]\s+|[„“(]\s*)(?:Gib|Wähle|Tippe|Trage|Klicke|Melde|Prüfe|Drücke|Schreibe|Öffne|"
    r"Lege|Nimm|Sieh|Setze|Nutze|Sag|Speichere|Bestätige|Korrigiere|Füge|Scanne|Zeige|Warte|"
    r"Versuche|Gehe|Ändere|Entferne|Lies|Sende|Schick|Achte)\b"
)


def test_every_german_string_says_sie():
    catalog = trans_real.translation("de")._catalog
    # what a page shows for each message: Pulka's own words before the libraries' (Django's and
    # DRF's, tournaments/forms/library_words.py)
    shown = {msgid: catalog[msgid] for msgid in dict(catalog.items()) if msgid}
    said = [
        (msgid, text)
        for msgid, text in shown.items()
        if isinstance(text, str) and (DU.search(text) or DU_IMPERATIVE.search(text))
    ]
    assert not said, said[:20]
    # the catalogue is the German one, and it does address the reader
    assert sum(1 for text in shown.values() if isinstance(text, str) and " Sie " in text) > 20


def test_the_scan_finds_du():
    for text in ("Gib die Stiche an.", "Wähle das Spiel.", "Dein Platz", "Melde dich an"):
        assert DU.search(text) or DU_IMPERATIVE.search(text), text
    for text in ("Geben Sie die Stiche an.", "Wählen Sie das Spiel.", "Ihr Platz", "Dublin"):
        assert not (DU.search(text) or DU_IMPERATIVE.search(text)), text
