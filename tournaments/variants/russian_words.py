"""Russian Preference's records in words, in the page's language (issue 29): a deal as the
Kodeks' tournament sheet writes it ("6♠ / made", "8♦ / one down", 001 §4.2.11), a penalty or a
ruling's entry ("Сергей Морозов: 5 into the gora (3.2.21, looked at the talon)"), and the
checker's findings as sentences with players' names — never a seat number or a code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import get_language, gettext, gettext_lazy, ngettext, pgettext

from rules.contracts import Contract
from rules.penalties import CATALOGUE
from scoring.russian.protocol import Call, Game, Penalty, Raspasy
from scoring.russian.writing import whisting_order

__all__ = [
    "FINDING_TITLES",
    "call_words",
    "column_words",
    "contract_words",
    "deal_words",
    "down",
    "finding_sentence",
    "penalty_words",
    "rule_name",
]

#: A heading in the user's language for each finding code of Russian scoring.russian.check (the scorer's
#: own message, with the exact numbers, follows it); each family's adapter gives its own.
FINDING_TITLES = {
    "TRICKS": gettext_lazy("Tricks out of range"),
    "TRICKS_SUM": gettext_lazy("The tricks do not make ten"),
    "SPLIT_NEEDED": gettext_lazy("Each defender's tricks are needed"),
    "CALLS": gettext_lazy("The defenders' calls are missing"),
    "HALF_WHIST": gettext_lazy("Half-whist not allowed here"),
    "MISERE_WHISTED": gettext_lazy("A misère is not whisted"),
    "RASPASY_TRICKS": gettext_lazy("Raspasy tricks out of range"),
    "RASPASY_EXIT": gettext_lazy("Contract too low after raspasy"),
    "DEALER_OUT_OF_TURN": gettext_lazy("Dealer out of turn"),
    "DEALER_DECLARES": gettext_lazy("The dealer sits out with four players"),
    "BAD_SEAT": gettext_lazy("No such seat at the table"),
    "NOT_CLOSED": gettext_lazy("Marked closed, but not every pulya reached the target"),
    "ALREADY_CLOSED": gettext_lazy("The pulka had already closed"),
    "DEAL_AFTER_CLOSE": gettext_lazy("A deal after the pulka closed"),
    "UNPLAYED_TRICKS": gettext_lazy("Tricks given for a deal not played"),
    "MULTIPLIER": gettext_lazy("Multiplier not allowed"),
    "TALON_PREMIUM": gettext_lazy("Talon premium not allowed"),
    "SHEET_MISMATCH": gettext_lazy("The sheet differs from the computed pulka"),
    "SHEET_ROWS": gettext_lazy("More written rows than deals"),
    "SHEET_SHAPE": gettext_lazy("A written row has the wrong shape"),
    "RESULT_MISMATCH": gettext_lazy("Written result differs"),
    "PENALTY_RULE": gettext_lazy("Penalty without a known rule"),
    "PENALTY_AMOUNT": gettext_lazy("Penalty amount differs from the rule"),
    "CONTRACT_BELOW_BID": gettext_lazy("Contract below the final bid"),
    "DECLARER_NOT_BIDDER": gettext_lazy("The declarer did not win the auction"),
}


_SUITS = "♠♣♦♥"


def contract_words(contract: Contract) -> str:
    """``6♠``, ``7NT`` (``7БК`` in Russian), ``misère`` (``мизер``)."""
    if contract.is_misere:
        return gettext("misère")
    denomination = contract.denomination
    if denomination is not None and denomination < len(_SUITS):
        return f"{contract.level}{_SUITS[denomination]}"
    return f"{contract.level}" + pgettext("no trumps, after the level", "NT")


def call_words(call: Call) -> str:
    return {
        Call.WHIST: gettext("whist"),
        Call.PASS: gettext("pass"),
        Call.HALF: gettext("half-whist"),
        Call.HALF_RETURNED: gettext("half, returned"),
    }[call]


def down(n: int) -> str:
    """Undertricks as the sheet says them: one down, two down … (без одной, без двух …)."""
    words = {1: gettext("one down"), 2: gettext("two down"), 3: gettext("three down")}
    return words.get(n) or gettext("%(n)d down") % {"n": n}


def deal_words(protocol: Any, index: int, dealer: int | None = None) -> str:
    """One deal (or penalty entry) of ``protocol`` in words, with the players' names."""
    deal = protocol.deals[index]
    names = protocol.players
    if type(deal) is Penalty:
        return penalty_words(deal, names)
    if type(deal) is Raspasy:
        counts = ", ".join(f"{names[p]} {c}" for p, c in enumerate(deal.tricks) if c is not None)
        return gettext("raspasy: %(tricks)s") % {"tricks": counts}
    assert type(deal) is Game
    who = names[deal.declarer] if 0 <= deal.declarer < len(names) else "?"
    contract = contract_words(deal.contract)
    tricks = deal.declarer_tricks
    if deal.contract.is_misere:
        if tricks is None:
            outcome = "?"
        elif tricks == 0:
            outcome = gettext("made")
        else:
            outcome = ngettext("%(n)d trick", "%(n)d tricks", tricks) % {"n": tricks}
        return f"{who}: {contract} / {outcome}"
    calls = list(deal.calls)
    if len(calls) == 2 and dealer is not None:
        defenders = whisting_order(deal.declarer, len(names), dealer)
        said = ", ".join(
            f"{names[d]} {call_words(c)}" for d, c in zip(defenders, calls, strict=True)
        )
    else:
        said = ", ".join(call_words(c) for c in calls)
    if Call.WHIST not in calls or Call.HALF in calls:
        outcome = gettext("not played")
    elif tricks is None:
        outcome = "?"
    elif tricks >= deal.contract.level:
        over = tricks - deal.contract.level
        outcome = gettext("made") if not over else (gettext("made, %(n)d over") % {"n": over})
    else:
        outcome = down(deal.contract.level - tricks)
    text = f"{who}: {contract} / {outcome}"
    return f"{text} — {said}" if said else text


#: the notes the scorer writes as codes (scoring.russian.penalties), in words
NOTE_WORDS = {"ADJUSTED": gettext_lazy("adjusted result")}


def rule_name(rule: str, code: str = "") -> str:
    """The name of a Kodeks penalty in the page's language ("looked at the talon"): the
    catalogue's ``code`` (a ruling's entry notes it), else the first penalty of ``rule``."""
    entries = [e for e in CATALOGUE if e.code == code] or [e for e in CATALOGUE if e.rule == rule]
    for entry in entries:
        name = gettext(entry.name_en)
        if (get_language() or "").startswith("de"):
            return name  # German nouns keep their capital letter
        return name[:1].lower() + name[1:]
    return ""


def penalty_words(entry: Penalty | Mapping[str, Any], names: Sequence[str]) -> str:
    """A penalty entry in words: "Сергей Морозов: 5 into the gora (3.2.21, looked at the
    talon)"; ``entry`` a scoring Penalty or its JSON (a ruling's entry)."""
    if isinstance(entry, Penalty):
        player, rule, gora, pulya, whists, note = (
            entry.player,
            entry.rule,
            entry.gora,
            entry.pulya,
            entry.whists,
            entry.note,
        )
    else:
        player = int(entry.get("player", 0))
        rule = str(entry.get("rule", ""))
        gora, pulya = int(entry.get("gora", 0)), int(entry.get("pulya", 0))
        whists = tuple((int(s), int(w)) for s, w in entry.get("whists", ()))
        note = str(entry.get("note", ""))

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    parts = []
    if gora:
        parts.append(gettext("%(n)d into the gora") % {"n": gora})
    if pulya:
        parts.append(gettext("%(n)d off the pulya") % {"n": pulya})
    for writer, amount in whists:
        parts.append(
            gettext("%(writer)s writes %(n)d whists on him") % {"writer": name(writer), "n": amount}
        )
    if not parts:
        parts.append(gettext("nothing written"))
    rule = rule.strip().removeprefix("001").strip().removeprefix("§").strip()
    # a note the scorer writes as a code (an adjusted result's) in words, never the code
    said = str(NOTE_WORDS[note]) if note in NOTE_WORDS else rule_name(rule, note) or note
    why = ", ".join(x for x in (rule, said) if x)
    return f"{name(player)}: {', '.join(parts)}" + (f" ({why})" if why else "")


def column_words(column: str, names: Sequence[str]) -> str:
    """A sheet column: the pulya, the gora, whists on a player, the result."""
    if column.startswith("whists:"):
        q = int(column.split(":")[1])
        return gettext("whists on %(name)s") % {"name": names[q] if q < len(names) else "?"}
    return {
        "pulya": gettext("pulya"),
        "gora": gettext("gora"),
        "result": gettext("result"),
    }.get(column, column)


def finding_sentence(finding: Mapping[str, Any], names: Sequence[str], title: str) -> str:
    """A finding of the Russian checker as a sentence for people, after its heading ``title``
    (the rule is cited beside it): "Boris: whists on Anna written 29, should be 28"; "Tricks
    add up to 11: a deal has 10"."""
    code = finding.get("code", "")
    player = finding.get("player")
    who = names[player] if isinstance(player, int) and 0 <= player < len(names) else ""
    written, expected = finding.get("written"), finding.get("expected")
    column = finding.get("column") or ""
    if code in ("SHEET_MISMATCH", "RESULT_MISMATCH") and who:
        where = column_words(column, names)
        if code == "SHEET_MISMATCH" and finding.get("deal") is None:
            where = gettext("final %(column)s") % {"column": where}
        return gettext("%(name)s: %(column)s written %(written)s, should be %(expected)s") % {
            "name": who,
            "column": where,
            "written": written,
            "expected": expected,
        }
    if code == "TRICKS_SUM" and isinstance(written, int):
        return gettext("Tricks add up to %(n)d: a deal has 10") % {"n": written}
    if code == "DEALER_OUT_OF_TURN" and isinstance(written, int) and isinstance(expected, int):
        return gettext("%(written)s dealt; it was %(expected)s's turn") % {
            "written": names[written] if written < len(names) else "?",
            "expected": names[expected] if expected < len(names) else "?",
        }
    # a finding with a template: its sentence in the page's language (finding_message, done
    # before: ``message`` holds it); otherwise the checker's own message where the page is in
    # English, the heading alone (translated) in other languages
    if finding.get("text") or (get_language() or "en").startswith("en"):
        return str(finding.get("message", ""))
    return who
