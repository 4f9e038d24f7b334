"""Checking a Priffe protocol and the sheet the players wrote: every finding, citing seed 004.

The checker reports everything at once (STYLE.md): impossible records (an information bid as
the contract, a fourth sits, the same partnership twice, tricks not summing to 13, two hands
with three honours, an illegal auction, deals after a sits was won …) and, cell by cell, what
the players wrote below and above the line, the game lines, the sits totals and the players'
totals against what the scorer computes.

>>> from scoring.priffe.protocol import Hand, PriffeProtocol, Contract
>>> p = PriffeProtocol(players=("A", "B", "C", "D"), sittings=((0, 1, 2, 3),),
...                    ending="in-progress",
...                    deals=(Hand(0, Contract.SPADER, 0, (9, 3)),))
>>> for f in check(p).findings: print(f)
deal 1: spader is only an information bid and cannot be the contract [004 "Budgivning"] (INFORMATION_BID_CONTRACT)
deal 1: tricks sum to 12, not 13 [004 "Antal kort"] (TRICKS_SUM)
"""

from __future__ import annotations

from rules.conventions import InvalidConventionError
from rules.priffe import Contract, PriffeConvention, auction_faults, auction_outcome

from ..findings import CheckReport, Finding, Severity, gettext_noop, templated, worded_finding
from ..model import PENALTY_MAX
from .protocol import Ending, Hand, Penalty, PriffeProtocol, PriffeSheet, partnership
from .score import ScoredPriffe, convention_of, dealers, score

__all__ = ["check", "SOURCE"]

SOURCE = "004"
_BIDDING = "Budgivning"
_SCORING = "Poängräkning (det moderna sättet)"
_GAME = "Utgång"
_SIMPLE = "Enklare variant av Priffe"


def _f(
    code: str, text: str, rule: str, params: dict[str, object] | None = None, **kw: object
) -> Finding:
    """A finding whose message is ``text`` (a :func:`gettext_noop` template, ``{name}`` fields)
    filled with ``params``, said in the reader's language by the Django side; a parameter named
    ``…_word`` is itself an English word of the catalogue."""
    return templated(code, text, params, rule=rule, source=SOURCE, **kw)


#: A protocol marked as played to the end that is not, by how a Priffe game ends (the
#: ``play`` option)
_NOT_CLOSED: dict[str, str] = {
    "sits": gettext_noop(
        "the protocol is marked as played to the end, but the game did not reach {n} sits won"
    ),
    "deals": gettext_noop(
        "the protocol is marked as played to the end, but the game did not reach {n} deals"
    ),
    "total": gettext_noop(
        "the protocol is marked as played to the end, but the game did not reach a side at {n} "
        "below the line"
    ),
}
#: The auction's faults (rules.priffe.auction_faults) as the findings say them
_AUCTION_WORDS: dict[str, str] = {
    "AUCTION_ROUND": gettext_noop("bid {speaker}: {n} bids; one round of four speakers"),
    "AUCTION_TVANGSNOLL": gettext_noop("bid {speaker}: tvångsnoll is never bid"),
    "AUCTION_INFORMATION": gettext_noop(
        "bid {speaker}: {contract} is an information bid of the first two speakers only"
    ),
    "AUCTION_NOT_HIGHER": gettext_noop("bid {speaker}: {contract} is not higher than {last}"),
}


def _structure(protocol: PriffeProtocol, conv: PriffeConvention) -> list[Finding]:
    out: list[Finding] = []
    if len(protocol.players) != 4:
        out.append(_f("PLAYERS", gettext_noop("{n} players; Priffe has four"), "Antal spelare",
                      {"n": len(protocol.players)}, column="players"))  # fmt: skip
    if not protocol.sittings:
        out.append(_f("SEATING", gettext_noop("no seating recorded for the first sits"), _GAME,
                      column="sittings"))  # fmt: skip
    for k, seating in enumerate(protocol.sittings):
        if sorted(seating) != [0, 1, 2, 3]:
            out.append(_f("SEATING", gettext_noop("sits {k}: the seating is not the four "
                          "players, each once"), _GAME, {"k": k + 1},
                          column=f"sittings[{k}]"))  # fmt: skip
    for i, deal in enumerate(protocol.deals):
        if not 0 <= deal.sits < len(protocol.sittings):
            out.append(_f("SEATING", gettext_noop("sits {k} has no seating"), _GAME,
                          {"k": deal.sits + 1}, deal=i, column="sits"))  # fmt: skip
    if conv.simple:
        if len(protocol.sittings) > 1:
            out.append(_f("SIMPLE_SITS", gettext_noop("{n} seatings; the simpler variant plays "
                          "without sits, in one partnership"), _SIMPLE,
                          {"n": len(protocol.sittings)}, column="sittings"))  # fmt: skip
        return out
    if len(protocol.sittings) > 3:
        out.append(_f("FOURTH_SITS", gettext_noop("{n} sits; Priffe has three, one per "
                      "partnership"), _GAME, {"n": len(protocol.sittings)},
                      column="sittings"))  # fmt: skip
    if protocol.target > 3:
        out.append(_f("TARGET", gettext_noop("{n} sits agreed; there are only three "
                      "partnerships"), _GAME, {"n": protocol.target}, column="target"))  # fmt: skip
    seen: dict[frozenset[frozenset[int]], int] = {}
    for k, seating in enumerate(protocol.sittings):
        pairs = partnership(seating)
        if pairs in seen:
            first, second = ("+".join(protocol.players[p] for p in sorted(pair))
                             for pair in sorted(pairs, key=sorted))  # fmt: skip
            out.append(_f("PARTNERSHIP_REPEATED", gettext_noop("sits {k} repeats the "
                          "partnerships of sits {earlier} ({first} and {second})"), _GAME,
                          {"k": k + 1, "earlier": seen[pairs] + 1, "first": first,
                           "second": second}, column=f"sittings[{k}]"))  # fmt: skip
        else:
            seen[pairs] = k
    return out


def _hand(protocol: PriffeProtocol, conv: PriffeConvention, i: int, hand: Hand,
          dealer: int | None) -> list[Finding]:  # fmt: skip
    out: list[Finding] = []
    names = protocol.players
    if hand.contract in (Contract.SPADER, Contract.KLOVER) and conv.information_bids:
        out.append(_f("INFORMATION_BID_CONTRACT", gettext_noop("{contract} is only an "
                      "information bid and cannot be the contract"), _BIDDING,
                      {"contract": str(hand.contract)}, deal=i, column="contract",
                      written=str(hand.contract)))  # fmt: skip
    if hand.contract is Contract.TVANGSNOLL and hand.declarer is not None:
        out.append(_f("DECLARER", gettext_noop("tvångsnoll has no declarer, {player} is "
                      "written"), _BIDDING, {"player": names[hand.declarer]}, deal=i,
                      column="declarer"))  # fmt: skip
    if hand.contract is not Contract.TVANGSNOLL and hand.declarer is None:
        out.append(_f("DECLARER", gettext_noop("{contract} needs the player who bid it"),
                      _BIDDING, {"contract": str(hand.contract)}, deal=i,
                      column="declarer"))  # fmt: skip
    if sum(hand.tricks) != 13 or min(hand.tricks) < 0:
        out.append(_f("TRICKS_SUM", gettext_noop("tricks sum to {n}, not 13"), "Antal kort",
                      {"n": sum(hand.tricks)}, deal=i, column="tricks", written=sum(hand.tricks),
                      expected=13))  # fmt: skip
    if len(hand.honours) > 1:
        out.append(_f("HONOURS_IMPOSSIBLE", gettext_noop("{n} hands with three or more of the "
                      "four honours"), _SCORING, {"n": len(hand.honours)}, deal=i,
                      column="honours"))  # fmt: skip
    if dealer is not None and hand.dealer is not None and hand.dealer != dealer:
        out.append(_f("DEALER", gettext_noop("dealer {written} written, {expected} by the "
                      "rotation"), "Spelet", {"written": names[hand.dealer],
                                              "expected": names[dealer]}, deal=i,
                      column="dealer", written=names[hand.dealer],
                      expected=names[dealer]))  # fmt: skip
    if hand.bids is not None:
        for speaker, code, reason in auction_faults(hand.bids, conv):
            said: dict[str, object] = {"speaker": speaker + 1, "n": len(hand.bids)}
            if code in ("AUCTION_INFORMATION", "AUCTION_NOT_HIGHER"):
                contract, _, last = reason.partition(" is not higher than ")
                said |= {"contract": contract.split(" is an ")[0], "last": last}
            text = _AUCTION_WORDS.get(code, gettext_noop("bid {speaker}: {reason}"))
            said["reason"] = reason
            out.append(_f(code, text, _BIDDING, said, deal=i, column="bids"))
        seating = protocol.seating(hand.sits)
        if dealer is not None and seating is not None and len(hand.bids) == 4:
            contract, winner = auction_outcome(hand.bids, conv)
            start = seating.index(dealer) + 1
            bidder = None if winner is None else seating[(start + winner) % 4]
            if (contract, bidder) != (hand.contract, hand.declarer):
                if bidder is None:
                    text, given = gettext_noop("the bids give {contract}"), {}
                else:
                    text = gettext_noop("the bids give {player} {contract}")
                    given = {"player": names[bidder]}
                out.append(_f("AUCTION_CONTRACT", text, _BIDDING,
                              {**given, "contract": str(contract)}, deal=i, column="contract",
                              written=str(hand.contract), expected=str(contract)))  # fmt: skip
    return out


def _flow(protocol: PriffeProtocol, scored: ScoredPriffe) -> list[Finding]:
    """Sits order, deals after a sits or the game was over, and the ending."""
    out: list[Finding] = []
    conv = scored.convention
    current = 0
    for i, deal in enumerate(protocol.deals):
        if deal.sits < current:
            out.append(_f("SITS_ORDER", gettext_noop("sits {k} after sits {current}"), _GAME,
                          {"k": deal.sits + 1, "current": current + 1}, deal=i,
                          column="sits"))  # fmt: skip
        elif deal.sits > current and not conv.simple:
            for k in range(current, deal.sits):
                if scored.sits[k].winner is None and protocol.ending == Ending.TIME_LIMIT:
                    # a sits the time limit ended (an event timing each sits): said, not an error
                    out.append(_f("SITS_NOT_WON", gettext_noop("sits {k} ended by the time limit "
                                  "before a side won its second game"), _GAME, {"k": k + 1},
                                  deal=i, column="sits", severity=Severity.WARNING))  # fmt: skip
                elif scored.sits[k].winner is None:
                    out.append(_f("SITS_NOT_WON", gettext_noop("sits {k} ended before a side won "
                                  "its second game"), _GAME, {"k": k + 1}, deal=i,
                                  column="sits"))  # fmt: skip
        current = max(current, deal.sits)
        if i in scored.extra:
            out.append(_f("DEAL_AFTER_END", gettext_noop("entry after the game was over"),
                          _SIMPLE if conv.simple else _GAME, deal=i))  # fmt: skip
        else:
            won = scored.sits[deal.sits].won_at
            if won is not None and i > won and not conv.simple:
                out.append(_f("DEAL_AFTER_SITS", gettext_noop("entry in sits {k} after it was "
                              "won"), _GAME, {"k": deal.sits + 1}, deal=i,
                              column="sits"))  # fmt: skip
    over = scored.closed_at is not None
    if protocol.ending == Ending.CLOSED and not over:
        out.append(_f("NOT_CLOSED", _NOT_CLOSED[conv.play], _SIMPLE if conv.simple else _GAME,
                      {"n": protocol.target}, column="ending"))  # fmt: skip
    if protocol.ending == Ending.IN_PROGRESS and over:
        out.append(_f("ENDING", gettext_noop("the game is over, but marked in progress"), _GAME,
                      column="ending", severity=Severity.WARNING))  # fmt: skip
    return out


def _sheet(protocol: PriffeProtocol, scored: ScoredPriffe, sheet: PriffeSheet) -> list[Finding]:
    out: list[Finding] = []
    rule = _SCORING if not scored.convention.information_bids else _GAME
    if len(sheet.entries) > len(scored.deals):
        out.append(_f("SHEET_LENGTH", gettext_noop("{n} sheet entries for {deals} deals"), rule,
                      {"n": len(sheet.entries), "deals": len(scored.deals)},
                      column="sheet"))  # fmt: skip
    for i, (entry, deal) in enumerate(zip(sheet.entries, scored.deals, strict=False)):
        if entry is None:
            continue
        seating = protocol.sittings[deal.sits]
        for where, wrote, expected in (("below", entry.below, deal.below),
                                       ("above", entry.above, deal.above)):  # fmt: skip
            for side in (0, 1):
                if wrote[side] != expected[side]:
                    who = "+".join(protocol.players[seating[s]] for s in (side, side + 2))
                    text = (gettext_noop("{side} wrote {written} below the line, expected "
                                         "{expected}") if where == "below" else
                            gettext_noop("{side} wrote {written} above the line, expected "
                                         "{expected}"))  # fmt: skip
                    out.append(_f(f"SHEET_{where.upper()}", text, _SCORING,
                                  {"side": who, "written": wrote[side],
                                   "expected": expected[side]}, deal=i,
                                  column=f"{where}:{side}", written=wrote[side],
                                  expected=expected[side]))  # fmt: skip
        if entry.game != (deal.game_won_by is not None):
            text = (gettext_noop("a game line drawn; the game was not won here") if entry.game
                    else gettext_noop("no game line; the game was won here"))  # fmt: skip
            out.append(_f("SHEET_GAME", text, _GAME, deal=i,
                          column="game", written=entry.game,
                          expected=deal.game_won_by is not None))  # fmt: skip
    for k, written in enumerate(sheet.sits):
        if written is None:
            continue
        if k >= len(scored.sits):
            out.append(_f("SHEET_SITS", gettext_noop("totals written for sits {k}, which has no "
                          "seating"), _GAME, {"k": k + 1}, column=f"sits[{k}]"))  # fmt: skip
            continue
        expected = scored.sits[k].totals
        for side in (0, 1):
            if written[side] != expected[side]:
                out.append(_f("SHEET_SITS", gettext_noop("sits {k}: side {side} total {written} "
                              "written, expected {expected}"), _GAME,
                              {"k": k + 1, "side": side + 1, "written": written[side],
                               "expected": expected[side]},
                              column=f"sits[{k}]:{side}", written=written[side],
                              expected=expected[side]))  # fmt: skip
    if sheet.result is not None:
        for p, (wrote_total, total) in enumerate(zip(sheet.result, scored.player_totals,
                                                     strict=False)):  # fmt: skip
            if wrote_total != total:
                out.append(_f("SHEET_RESULT", gettext_noop("{player}: total {written} written, "
                              "expected {expected}"), _GAME, {"player": protocol.players[p],
                                                              "written": wrote_total,
                                                              "expected": total},
                              player=p, column="result",
                              written=wrote_total, expected=total))  # fmt: skip
    return out


def check(protocol: PriffeProtocol, sheet: PriffeSheet | None = None) -> CheckReport:
    """Every finding of a Priffe protocol and, if given, of the sheet the players wrote."""
    try:
        conv = convention_of(protocol)
    except InvalidConventionError as error:
        return CheckReport(
            (worded_finding("CONVENTION", error, rule=_SCORING, source=SOURCE, column="convention"),)
        )
    findings = _structure(protocol, conv)
    if any(f.code in ("SEATING", "PLAYERS") for f in findings):
        return CheckReport(tuple(findings))  # nothing can be scored without the seatings
    rotation = dealers(protocol)
    for i, deal in enumerate(protocol.deals):
        if isinstance(deal, Hand):
            findings += _hand(protocol, conv, i, deal, rotation[i])
        elif isinstance(deal, Penalty) and deal.points < 0:
            findings.append(_f("PENALTY", gettext_noop("penalty points are written for the "
                               "opponents and cannot be negative"), _SCORING, deal=i, column="points",
                               written=deal.points))  # fmt: skip
        elif isinstance(deal, Penalty) and deal.points > PENALTY_MAX:
            findings.append(_f("PENALTY", gettext_noop("{n} penalty points are more than a "
                               "penalty may be (at most {most})"), _SCORING,
                               {"n": deal.points, "most": PENALTY_MAX}, deal=i,
                               column="points", written=deal.points,
                               expected=PENALTY_MAX))  # fmt: skip
    scored = score(protocol)
    findings += _flow(protocol, scored)
    if sheet is not None:
        findings += _sheet(protocol, scored, sheet)
    findings.sort(key=lambda f: (-1 if f.deal is None else f.deal))
    return CheckReport(tuple(findings))
