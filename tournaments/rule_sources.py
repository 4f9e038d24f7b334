"""The rule texts as a referee knows them: the one map from a rule source to the name a person
reads, in the reader's language.

Code and tests cite a rule by the rule text's number and its own rule number or section
heading (``001 §3.2.21``, ``002 "Kontra"``: ``docs/sources.md``, "How a citation reads");
pages, PDFs, form errors and messages never show those file numbers. They cite the same rule
through :func:`cite` ("Kodeks 1996, 3.2.21", "Croatian rules, “Kontra”", "Priffe rules"), or
:func:`cite_code` for a citation stored in the code's form (:attr:`scoring.findings.Finding.
citation`, a ruling's rule), and :func:`with_rule` for a message that carries its rule as
``%(rule)s``. Every translated page, PDF and message goes through here, so that a source is
renamed in one place.

It imports only Django's translation (no model, no family), so that everything may use it.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext_lazy

__all__ = ["SECTIONS", "SOURCES", "cite", "cite_code", "cited_in", "source_name", "with_rule"]


#: rule source (the rule text's number, ``docs/sources.md``) → its name as a referee knows it
SOURCES: dict[str, Any] = {
    # the Kodeks of Preference, adopted in Moscow in January 1996
    "001": pgettext_lazy("rule source", "Kodeks 1996"),
    # "Croatian / Serbian / Slovenian Preference" (pagat.com)
    "002": pgettext_lazy("rule source", "Croatian rules"),
    # "Préférence", a variant from Vienna (in Swedish)
    "000": pgettext_lazy("rule source", "Viennese rules"),
    # "Préférence", the German one-page rules
    "003": pgettext_lazy("rule source", "German rules"),
    # "Priffe regler"
    "004": pgettext_lazy("rule source", "Priffe rules"),
}

#: the sections and phrases of the rule texts a citation names (``002 "Ending the Game"``), in the
#: reader's language (issue 36): keyed by the rule source and the words as the text writes them
#: (as the code cites them); the msgid is the English rendering (an English page reads it: no
#: Swedish or German heading there either), every other language its catalogue's
SECTIONS: dict[tuple[str, str], Any] = {
    ("000", "Betalning"): pgettext_lazy("a section of the Viennese rules", "Payment"),
    ("000", "Budgivningen"): pgettext_lazy("a section of the Viennese rules", "The bidding"),
    ("000", "Efterköp"): pgettext_lazy("a section of the Viennese rules", "Buying on (efterköp)"),
    ("000", "Förberedelser"): pgettext_lazy("a section of the Viennese rules", "Preparations"),
    ("000", "Förhandling"): pgettext_lazy("a section of the Viennese rules", "Negotiation"),
    ("000", "Giv"): pgettext_lazy("a section of the Viennese rules", "The deal"),
    ("000", "Gå med eller stanna hemma"): pgettext_lazy("a section of the Viennese rules", "Going along or staying home"),
    ("000", "Gå med…"): pgettext_lazy("a section of the Viennese rules", "Going along…"),
    ("000", "Kontrakten"): pgettext_lazy("a section of the Viennese rules", "The contracts"),
    ("000", "Köp och spelangivelse"): pgettext_lazy("a section of the Viennese rules", "Buying and naming the game"),
    ("000", "Premiekontrakt"): pgettext_lazy("a section of the Viennese rules", "Premium contracts"),
    ("000", "Spel"): pgettext_lazy("a section of the Viennese rules", "Games without the talon (spel)"),
    ("000", "Spel på fyra personer"): pgettext_lazy("a section of the Viennese rules", "Playing with four"),
    ("000", "Trumfkontrakt med köp"): pgettext_lazy("a section of the Viennese rules", "Trump contracts with the talon"),
    ("000", "Varianter"): pgettext_lazy("a section of the Viennese rules", "Variants"),
    ("001", "Очки за игры"): pgettext_lazy("a section of the Kodeks 1996", "Points for the games"),
    ("002", "Bettel"): pgettext_lazy("a section of the Croatian rules", "Bettel"),
    ("002", "Bid / Value"): pgettext_lazy("a section of the Croatian rules", "Bid / Value"),
    ("002", "Ending the Game"): pgettext_lazy("a section of the Croatian rules", "Ending the Game"),
    ("002", "Final Calculation"): pgettext_lazy("a section of the Croatian rules", "Final Calculation"),
    ("002", "Idea of the Game"): pgettext_lazy("a section of the Croatian rules", "Idea of the Game"),
    ("002", "Kontra"): pgettext_lazy("a section of the Croatian rules", "Kontra"),
    ("002", "Players and Deal"): pgettext_lazy("a section of the Croatian rules", "Players and Deal"),
    ("002", "Refa"): pgettext_lazy("a section of the Croatian rules", "Refa"),
    ("002", "Scoring"): pgettext_lazy("a section of the Croatian rules", "Scoring"),
    ("002", "The Bidding"): pgettext_lazy("a section of the Croatian rules", "The Bidding"),
    ("002", "The Contract"): pgettext_lazy("a section of the Croatian rules", "The Contract"),
    ("002", "The Defenders' Decisions"): pgettext_lazy("a section of the Croatian rules", "The Defenders' Decisions"),
    ("002", "variations played in Serbia"): pgettext_lazy("a section of the Croatian rules", "variations played in Serbia"),
    ("002", "variations played in Slovenia"): pgettext_lazy("a section of the Croatian rules", "variations played in Slovenia"),
    ("003", "Der Ablauf des Spiels"): pgettext_lazy("a section of the German rules", "The course of the game"),
    ("003", "Eins"): pgettext_lazy("a section of the German rules", "Eins (one)"),
    ("003", "Einsatz"): pgettext_lazy("a section of the German rules", "The stake"),
    ("003", "Prämie"): pgettext_lazy("a section of the German rules", "Prämie (a game in hearts)"),
    ("003", "Spieler: 3"): pgettext_lazy("a section of the German rules", "Players: 3"),
    ("003", "Vorhand … Mittelhand … Der"): pgettext_lazy("a section of the German rules", "Forehand … middlehand … the dealer"),
    ("003", "aus der Hand"): pgettext_lazy("a section of the German rules", "without the talon (aus der Hand)"),
    ("003", "ausgelost"): pgettext_lazy("a section of the German rules", "drawn by lot"),
    ("003", "mitgehen"): pgettext_lazy("a section of the German rules", "going along"),
    ("003", "pro Stich ein Zehntel des Einsatzes"): pgettext_lazy("a section of the German rules", "a tenth of the stake per trick"),
    ("004", "Antal kort"): pgettext_lazy("a section of the Priffe rules", "Number of cards"),
    ("004", "Antal spelare"): pgettext_lazy("a section of the Priffe rules", "Number of players"),
    ("004", "Budgivning"): pgettext_lazy("a section of the Priffe rules", "Bidding"),
    ("004", "De olika buden är från högre till lägre"): pgettext_lazy("a section of the Priffe rules", "The bids from higher to lower"),
    ("004", "Enklare variant av Priffe"): pgettext_lazy("a section of the Priffe rules", "A simpler variant of Priffe"),
    ("004", "Poängräkning"): pgettext_lazy("a section of the Priffe rules", "Scoring"),
    ("004", "Poängräkning (det moderna sättet)"): pgettext_lazy("a section of the Priffe rules", "Scoring (the modern way)"),
    ("004", "Priffe i gammaldags variant"): pgettext_lazy("a section of the Priffe rules", "Priffe the old-fashioned way"),
    ("004", "Som honnörer räknas"): pgettext_lazy("a section of the Priffe rules", "What counts as honours"),
    ("004", "Spelet"): pgettext_lazy("a section of the Priffe rules", "The play"),
    ("004", "Utgång"): pgettext_lazy("a section of the Priffe rules", "Game"),
    ("004", "poäng för att ha fått honnörerna"): pgettext_lazy("a section of the Priffe rules", "points for holding the honours"),
    ("004", "tre sitsar"): pgettext_lazy("a section of the Priffe rules", "three sits"),
}

_NOTE = re.compile(r"^note\s+(?P<n>.+)$")
#: one rule in the code's form: ``§3.8.6``, ``3.8.6``, ``note 58``, ``"Kontra"``, ``Kontra``
_CODE = re.compile(r"^(?P<source>\d{3})(?:\s*,?\s*(?P<rules>.*))?$")


def source_name(source: str) -> str:
    """The name of rule source ``source`` ("001") in the reader's language; the rule texts'
    name for an unknown one (never its number)."""
    name = SOURCES.get(str(source))
    return str(name) if name is not None else gettext("the rules")


def _rule(rule: str, source: str = "") -> str:
    rule = rule.strip().removeprefix("§").strip()
    if not rule:
        return ""
    if m := _NOTE.match(rule):
        return gettext("note %(n)s") % {"n": m.group("n")}
    if rule[0].isdigit():
        return rule
    heading = rule.strip('"“”„').strip()
    heading = str(SECTIONS.get((str(source), heading), heading))  # in the reader's language
    return gettext("“%(heading)s”") % {"heading": heading}


def cite(source: str, *rules: str) -> str:
    """Rule(s) ``rules`` of source ``source`` as a person reads them: "Kodeks 1996, 3.2.21",
    "Kodeks 1996, 3.8.6, note 58", "Croatian rules, “Kontra”", or the source's name alone
    (no rule given). A rule is a number (``3.2.21``, ``§3.2.21``), a note (``note 8``) or a
    section heading (``Kontra``)."""
    shown = [r for r in (_rule(rule, source) for rule in rules) if r]
    name = source_name(source)
    if not shown:
        return name
    return gettext("%(source)s, %(rules)s") % {"source": name, "rules": ", ".join(shown)}


def _split(rules: str) -> list[str]:
    """``§3.8.11, §3.8.12`` → its rules; a heading's comma (inside quotes) does not split."""
    return [part for part in re.findall(r'"[^"]*"|“[^”]*”|[^,]+', rules) if part.strip()]


def cite_code(citation: str) -> str:
    """A citation in the code's form (``001 §3.2.21``, ``002 "Kontra"``, ``001 §3.8.11,
    §3.8.12``, ``003``) as a person reads it (:func:`cite`); any other text (an event's own
    penalty reference, "reg. 5") unchanged."""
    m = _CODE.match(str(citation or "").strip())
    if not m:
        return str(citation or "")
    return cite(m.group("source"), *_split(m.group("rules") or ""))


def _with_rule(message: Any, source: str, rules: tuple[str, ...], params: dict) -> str:
    return str(message) % {**params, "rule": cite(source, *rules)}


_with_rule_lazy = lazy(_with_rule, str)


def with_rule(message: Any, source: str, *rules: str, **params: Any) -> Any:
    """``message`` (a translated string, lazy or not, whose ``%(rule)s`` stands for a rule) with
    the rule cited by :func:`cite`, evaluated when read (so a label defined at import time
    follows the reader's language); ``params`` fill its other fields."""
    return _with_rule_lazy(message, source, tuple(rules), params)


#: a citation in the code's form inside a sentence of the pure packages (``scoring``, ``rules``:
#: English, with no translation), such as a JSON reader's "… (3 players, 001 §3.2.10)"
_IN_TEXT = re.compile(
    r'\b(?P<source>00[0-4])(?P<rules>(?: §[\d.]+(?: [А-Я])?(?:, §[\d.]+(?: [А-Я])?)*)'
    r'| "[^"]+"| note \S+?(?=[),;]|$))'
)


def cited_in(text: str) -> str:
    """``text`` with each citation in the code's form (``001 §3.2.10``, ``002 "Kontra"``)
    written as a referee knows it (:func:`cite`): for the messages of the pure packages, which
    cite rules as the code does and reach a person as a form error."""
    return _IN_TEXT.sub(
        lambda m: cite(m.group("source"), *_split(m.group("rules").strip())), str(text)
    )
