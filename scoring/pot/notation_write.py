"""Writing the pot-game notation (:mod:`scoring.pot.notation`) in each game's own words: the
canonical text that reads back to the same protocol and ledger."""

from __future__ import annotations

import json

from rules.conventions import InvalidConventionError
from rules.pot import find_convention
from scoring.model import Ending, OptionValue
from scoring.notation_lexer import Cursor, quote, tokenize

from .notation_read import option_value
from .notation_words import DECISION_WORDS, FORMAT_LINE, WORDS, bid_text, strip_accents
from .protocol import Ledger, Penalty, PotProtocol, Rundpass

__all__ = ["format", "format_ledger", "deal_text"]


def _language(protocol: PotProtocol) -> tuple[str, str]:
    try:
        conv = find_convention(protocol.convention)
    except InvalidConventionError:
        return "sv", "viennese"
    return conv.language, conv.game


def _option_text(value: OptionValue) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    reads_back = isinstance(option_value(Cursor(tokenize(value, 0), 0, len(value))), str)
    return quote(value, word=True) if reads_back else json.dumps(value, ensure_ascii=False)


def deal_text(protocol: PotProtocol, index: int, *, ascii: bool = False) -> str:
    """One deal as the notation writes it (without its number)."""
    lang, game = _language(protocol)
    words = {k: strip_accents(v) if ascii else v for k, v in WORDS[lang].items()}
    names = [quote(n, word=True) for n in protocol.players]
    deal = protocol.deals[index]
    parts: list[str] = []
    if isinstance(deal, Penalty):
        parts = [words["penalty"], names[deal.player]]
        if deal.to_pot:
            parts.append(f"{words['pot']}={deal.to_pot}")
        parts += [f"{names[s]}={a}" for s, a in deal.to_players]
        if deal.rule:
            parts.append(f"{words['rule']}={quote(deal.rule, word=True)}")
        if deal.note:
            parts.append(f"{words['note']}={quote(deal.note, word=True)}")
        return " ".join(parts)
    if deal.dealer is not None:
        parts += [words["dealer"], names[deal.dealer]]
    if isinstance(deal, Rundpass):
        parts.append(words["rundpass"])
        if deal.tricks is not None:
            parts.append("-".join(map(str, deal.tricks)))
    else:
        parts += [names[deal.declarer], deal.contract.name(game, ascii=ascii)]
        for seat, contract in deal.efterkop:
            parts += [words["efterkop"], names[seat], contract.name(game, ascii=ascii)]
        if deal.defence:
            said = [DECISION_WORDS[lang][d] for d in deal.defence]
            parts += ["/", ", ".join(strip_accents(w) if ascii else w for w in said)]
        if deal.tricks is not None:
            parts += ["/", "-".join(map(str, deal.tricks))]
        if deal.negotiated:
            parts.append(words["negotiated"])
    if deal.auction is not None:
        bids = ", ".join(f"{names[s]} {bid_text(b, game, ascii=ascii)}" for s, b in deal.auction)
        parts += [words["auction"], "{", bids, "}"] if bids else [words["auction"], "{", "}"]
    return " ".join(parts)


def format_ledger(protocol: PotProtocol, ledger: Ledger) -> str:
    lang, _ = _language(protocol)
    words = WORDS[lang]
    lines = []
    for i, row in enumerate(ledger.running, 1):
        if row is not None:
            nets = ", ".join(str(x) for x in row.nets)
            lines.append(f"{words['ledger']} {i}: {nets}; {words['pot']} {row.pot}")
    if ledger.final is not None:
        lines.append(f"{words['result']}: " + ", ".join(str(x) for x in ledger.final))
    return "\n".join(lines) + ("\n" if lines else "")


def format(protocol: PotProtocol, ledger: Ledger | None = None, *, ascii: bool = False) -> str:
    """The canonical text: ``parse(format(p)) == (p, ledger)``."""
    names = [quote(n, word=True) for n in protocol.players]
    lines = [FORMAT_LINE, f"convention: {quote(protocol.convention)}"]
    if protocol.options:
        lines.append("options: " + ", ".join(f"{k}={_option_text(v)}" for k, v in protocol.options))
    lines.append("players: " + ", ".join(names))
    lines.append(f"first dealer: {names[protocol.first_dealer]}")
    if protocol.opening_pot:
        lines.append(f"opening pot: {protocol.opening_pot}")
    lines += [f"ending: {Ending(protocol.ending).value}", ""]
    lines += [f"{i + 1}. {deal_text(protocol, i, ascii=ascii)}" for i in range(len(protocol.deals))]
    text = "\n".join(lines) + "\n"
    if ledger is not None:
        text += format_ledger(protocol, ledger)
    return text
