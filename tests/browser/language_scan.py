"""What a person reading Pulka in their language must not meet (issue 36, "Done when"): an
English word of the UI catalogue, an internal code or a Python repr, a rule cited by our file
numbers, or a seat number standing for a player's name. The browser tests that play an event
through in its language (``test_event_in_its_language.py``) run every page and PDF they meet
through :func:`problems`.

The English words are those of the catalogue's msgids (the words Pulka writes in English),
less every word the language's own translations use too ("Team", "Bula", "Sits", "die") and
the names that stay as they are in every language (:data:`SAME_IN_EVERY_LANGUAGE`)."""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

from tests.tournaments.views.test_words_not_codes import leaks, shown_text

LOCALE = Path(__file__).resolve().parents[2] / "tournaments" / "locale"

#: names and marks that are the same in every language: the product, the rule families' and
#: contracts' own names, formats and units (none is a sentence's word)
SAME_IN_EVERY_LANGUAGE = frozenset(
    w.casefold()
    for w in (
        "Pulka", "Preference", "Préférence", "Priffe", "Kodeks", "Redoc", "CSV", "PDF", "JSON",
        "QR", "API", "REST", "HTML", "UTF", "Windows", "English", "Deutsch", "Svenska",
        "Hrvatski", "Srpski", "Русский", "Elo", "FIDE", "URL", "OK",
    )
)  # fmt: skip

_PLACEHOLDER = re.compile(r"%\([^)]*\)[sdif]|%[sdif]|\{[^}]*\}|<[^>]*>|&\w+;")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(_PLACEHOLDER.sub(" ", text))}


@cache
def english_words(language: str) -> frozenset[str]:
    """The English words of the UI catalogue a page in ``language`` must not show: words of
    three letters or more of the msgids that no translation into ``language`` uses."""
    mo = LOCALE / language.replace("-", "_") / "LC_MESSAGES" / "django.mo"
    if not mo.exists():
        mo = LOCALE / language / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as f:
        catalogue = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    english: set[str] = set()
    translated: set[str] = set()
    for key, text in catalogue.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid:  # the header
            continue
        english |= _words(msgid.split("\x04")[-1])  # a context's msgid: the text after it
        translated |= _words(text)
    return frozenset(w for w in english - translated - SAME_IN_EVERY_LANGUAGE if len(w) >= 3)


#: a seat's number where a player's name belongs: "kontra 3", "straff 4 50", "first dealer:
#: seat 1" (a player's own seat, "table 1, seat 2", is a place, not a name)
SEAT_FOR_NAME = re.compile(
    r"\b(?:kontra|refa|straff|penalty|strafe|kazna|штраф)\s+[0-4]\b(?!\s*[.:)/])"
    r"|(?:dealer|сдающий|dijeli|deli|Geber|givare)\W{1,3}(?:seat|место|mjesto|mesto|Platz|plats)"
    r"\s*\d",
    re.I,
)

#: The rule texts' own game words, for the pages in their language only (issue 36: the Swedish
#: words of the Viennese game and of Priffe are for /sv/, the German game's for /de/; a Viennese
#: club in Vienna or Zagreb, a Priffe evening read in English, say the reader's words). A word
#: inside “…” is the notation's, quoted for typing (the referee's box's examples, a notation
#: error quoting what was typed), and passes.
GAME_WORDS: dict[str, tuple[str, ...]] = {
    "sv": (
        "hjärter", "spader", "klöver", "honnörer", "tvångsnoll", "tvång", "efterköp",
        "efterköpa", "utan köp", "går med", "stannar hemma", "bjuder in", "inbjuden", "rundpass",
        "pott", "lillslam", "storslam", "utgång", "strecket", "förhandling", "budgivning",
    ),
    "de": ("mitgehen", "daheim bleiben", "aus der Hand", "Prämie", "alle passen"),
}  # fmt: skip
_GAME_WORD = {
    lang: re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)", re.I)
    for lang, words in GAME_WORDS.items()
}
_QUOTED = re.compile(r"“[^”]*”")


def game_words(text: str, language: str, allowed: set[str] = frozenset()) -> list[str]:
    """The rule texts' game words of ``text`` (:data:`GAME_WORDS`) a reader in ``language``
    should not meet, each with its context; ``allowed``: the event's own words, casefolded (a
    player named Pott)."""
    text = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    return [
        f"a {'Swedish' if own == 'sv' else 'German'} game word {m.group(0)!r}: {_around(text, m)}"
        for own, pattern in _GAME_WORD.items()
        if language.split("-")[0] != own
        for m in pattern.finditer(text)
        if m.group(0).casefold() not in allowed
    ]


#: the draw engine's name and version, the draw report's "program" (a name, like WeasyPrint)
_KEYS = re.compile(r"\S*[\d/]\S*")
_PROGRAM = re.compile(r"\bpulka-seating \d+(?:\.\d+)*")
#: an address (a table's or a player's link, printed on the blank protocol and the links PDF)
_ADDRESS = re.compile(r"\bhttps?://\S+")


def problems(
    text: str,
    language: str,
    *,
    codes: set[str] = frozenset(),
    actions: set[str] = frozenset(),
    allowed: set[str] = frozenset(),
) -> list[str]:
    """What of ``text`` (a page's or a PDF's) a reader in ``language`` should not meet, each
    with its context; ``allowed``: words of the event's own data (names, clubs, venue)."""
    text = _PROGRAM.sub("", text)
    # an address a page or PDF prints is read by a browser, not a person: a table's random key
    # in it ("…/de/t/AR_GE-6ux1E79Td5PjODog/", seen on the blank protocol) is no code
    found = [f"{what}: {context}" for what, context in leaks(_ADDRESS.sub(" ", text), codes, actions)]
    english = english_words(language)
    ok = {w.casefold() for w in allowed for w in _WORD.findall(w)}
    # a token with a digit or a slash is a key, an address or a number, not words: a player's
    # random link key ("cWUg8Out0tsp…") holds "Out" by chance (seen in the PDF of links)
    for m in _WORD.finditer(_KEYS.sub(lambda k: " " * len(k.group(0)), text)):
        word = m.group(0).casefold()
        if word in english and word not in ok:
            found.append(f"the English word {m.group(0)!r}: {_around(text, m)}")
    found += [
        f"a seat for a name: {_around(text, m)}" for m in SEAT_FOR_NAME.finditer(text)
    ]
    found += game_words(text, language, allowed=ok)
    return found


#: the referee's box: the protocol in the family's text notation, whose keywords are the rule
#: text's (Swedish for the Viennese game, German for the German one): a format to type, read
#: for seat numbers only
_NOTATION_BOX = re.compile(r'<textarea[^>]*id="notation"[^>]*>(.*?)</textarea>', re.S)

def page_problems(html: str, language: str, **kwargs) -> list[str]:
    """:func:`problems` of a page's shown text (text, tooltips, labels; not its scripts); the
    notation box only for seat numbers standing for names."""
    found = [
        f"a seat for a name in the notation box: {_around(box, m)}"
        for box in _NOTATION_BOX.findall(html)
        for m in SEAT_FOR_NAME.finditer(box)
    ]
    return found + problems(shown_text(_NOTATION_BOX.sub("", html)), language, **kwargs)


def _around(text: str, m: re.Match) -> str:
    return "…" + text[max(0, m.start() - 40) : m.end() + 40].replace("\n", " ¶ ") + "…"
