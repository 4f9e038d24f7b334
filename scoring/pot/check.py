"""Checking a pot game: every impossible record, the bidding constraints, the written ledger.

:func:`check` returns a :class:`~scoring.findings.CheckReport` with every finding at once, each
citing its seed section (``source`` ``"000"`` or ``"003"``): the dealer rotation, seats, the
decisions a contract allows, tvång, invitations, tricks, negotiation, efterköp, the contracts the
options allow, the auction (:mod:`scoring.pot.auction`) and, cell by cell, the ledger the players
wrote (each player's net and the pot after each deal, and the final results).

>>> from rules.pot import PotContract
>>> from scoring.pot.protocol import Decision, Hand, PotProtocol
>>> p = PotProtocol(players=("A", "B", "C"),
...                 deals=(Hand(0, PotContract(1), (Decision.HOME, Decision.GO), (6, 0, 4)),))
>>> [f.code for f in check(p).findings]
['TVANG']
"""

from __future__ import annotations

from typing import cast

from rules.conventions import InvalidConventionError
from rules.pot import PotConvention

from ..findings import (
    CheckReport,
    Finding,
    Severity,
    gettext_noop,
    seat_number,
    templated,
    worded_finding,
)
from ..model import repeated_name
from .auction import check_auction, check_contract_against_bid
from .protocol import (
    Decision,
    Hand,
    Ledger,
    Penalty,
    PotProtocol,
    Rundpass,
    active_seats,
    defenders_of,
)
from .score import PotScoringError, ScoredGame, dealers, score

__all__ = ["check"]


class _Findings:
    def __init__(self, source: str) -> None:
        self.items: list[Finding] = []
        self.source = source

    def add(self, code: str, text: str, rule: str, deal: int | None = None, *,
            params: dict[str, object] | None = None, player: int | None = None,
            column: str | None = None, written: object = None, expected: object = None,
            severity: Severity = Severity.ERROR, source: str | None = None) -> None:  # fmt: skip
        """A finding whose message is ``text`` (a :func:`gettext_noop` template, ``{name}``
        fields) filled with ``params``: said in the reader's language by the Django side. A
        parameter named ``…_word`` is itself an English word of the catalogue (a decision, how
        the pot ends), said in the reader's language too."""
        self.items.append(templated(code, text, params, rule=rule, deal=deal, player=player,
                                    column=column, written=written, expected=expected,
                                    severity=severity, source=source or self.source))  # fmt: skip


#: A defender's decision as a finding says it: an English word of the catalogue (the phone
#: form's glosses), said in the reader's language by the Django side
DECISION_WORDS: dict[Decision, str] = {
    Decision.GO: gettext_noop("goes along"),
    Decision.HOME: gettext_noop("stays home"),
    Decision.INVITE: gettext_noop("goes along and invites"),
    Decision.INVITED: gettext_noop("invited"),
    Decision.FORCED: gettext_noop("forced play"),
}
#: What happens to the pot at the end (the ``pot_end`` option), in words
POT_END_WORDS: dict[str, str] = {
    "share": gettext_noop("shared out among the players"),
    "keep": gettext_noop("left in the pot"),
}


def _who(p: PotProtocol, seat: int) -> str:
    """A seat by its player's name (findings are read by people); "seat n" from 1 when the
    seat is not at the table."""
    return p.players[seat] if 0 <= seat < p.size else f"seat {seat + 1}"


def _tricks(out: _Findings, i: int, tricks: tuple[int, ...] | None, size: int,
            playing: tuple[int, ...], rule: str, names: tuple[str, ...] = ()) -> bool:  # fmt: skip
    """Tricks are one count per seat, summing to 10, only for seats that played."""
    if tricks is None:
        out.add("TRICKS_MISSING", gettext_noop("the deal was played but its tricks are not recorded"), rule, i,
                column="tricks")  # fmt: skip
        return False
    if len(tricks) != size:
        out.add("TRICKS_SEATS", gettext_noop("{n} trick counts for {size} seats"), rule, i,
                params={"n": len(tricks), "size": size}, column="tricks")  # fmt: skip
        return False
    ok = True
    if sum(tricks) != 10:
        out.add("TRICKS_SUM", gettext_noop("tricks sum to {n}, not 10"), rule, i,
                params={"n": sum(tricks)}, column="tricks",
                written=sum(tricks), expected=10)  # fmt: skip
        ok = False
    for s in range(size):
        if s not in playing and tricks[s]:
            who = names[s] if s < len(names) else f"seat {s + 1}"
            out.add("TRICKS_NOT_PLAYING", gettext_noop("{player} did not play this deal but has "
                    "{n} tricks"), rule, i, params={"player": who, "n": tricks[s]}, player=s,
                    column="tricks")  # fmt: skip
            ok = False
    return ok


def _hand(out: _Findings, conv: PotConvention, p: PotProtocol, i: int, hand: Hand, dealer: int,
          pot_after_ante: int | None) -> None:  # fmt: skip
    size, viennese = p.size, conv.game == "viennese"
    actives = active_seats(size, dealer)
    for k, (seat, _) in enumerate(hand.efterkop):
        if not 0 <= seat < size or seat not in actives:
            out.add("SEAT", gettext_noop("efterköp {k}: {player} does not play this deal"),
                    "Efterköp", i, params={"k": k + 1, "player": _who(p, seat)},
                    column="efterkop")  # fmt: skip
            return
    if hand.declarer not in actives or hand.player not in actives:
        out.add("SEAT", gettext_noop("the declarer ({player}) does not play this deal"), "Giv"
                if viennese else "Der Ablauf des Spiels", i, params={"player": _who(p, hand.player)},
                column="declarer")  # fmt: skip
        return
    contract = hand.played
    for c in (hand.contract, *(c for _, c in hand.efterkop)):
        if not conv.allows(c):
            rule = "Varianter" if viennese else "Der Ablauf des Spiels"
            out.add("CONTRACT", gettext_noop("the contract {contract} is not played under these "
                    "rules"), rule, i, params={"contract": str(c)}, column="contract",
                    written=c.code)  # fmt: skip
    if not viennese:
        if hand.efterkop:
            out.add("EFTERKOP", gettext_noop("German Préférence has no efterköp"), "Der Ablauf des Spiels", i,
                    column="efterkop")  # fmt: skip
        if hand.negotiated:
            out.add("NEGOTIATION", gettext_noop("German Préférence has no negotiated split"),
                    "Der Ablauf des Spiels", i, column="negotiated")  # fmt: skip
    defs = defenders_of(size, dealer, hand.player)
    rule_go = "Gå med eller stanna hemma" if viennese else "mitgehen"
    if hand.efterkop and viennese:
        _efterkop(out, hand, i, defenders_of(size, dealer, hand.declarer), p.players)
    if viennese and (not contract.asks_defenders or hand.efterkop):
        if hand.defence:
            out.add("DEFENCE_NOT_ASKED", gettext_noop("no defender is asked in fem and higher (or "
                    "after an efterköp): both play"), rule_go, i, column="defence")  # fmt: skip
        if hand.negotiated:
            out.add("NEGOTIATION", gettext_noop("negotiation needs one defender going and one at "
                    "home"), "Förhandling", i, column="negotiated")  # fmt: skip
        _tricks(out, i, hand.tricks, size, (hand.player, *defs), "Betalning", tuple(p.players))
    else:
        if len(hand.defence) != 2:
            out.add("DEFENCE_COUNT", gettext_noop("{n} decisions; each of the two defenders goes "
                    "or stays home"), rule_go, i, params={"n": len(hand.defence)},
                    column="defence")  # fmt: skip
            return
        by = dict(zip(defs, hand.defence, strict=True))
        if not viennese:
            for d, dec in by.items():
                if dec not in (Decision.GO, Decision.HOME):
                    out.add("DECISION", gettext_noop("{player}: “{decision_word}” does not exist "
                            "in German Préférence (mitgehen or daheim bleiben)"), rule_go, i,
                            params={"player": _who(p, d), "decision_word": DECISION_WORDS[dec]},
                            player=d, column="defence")  # fmt: skip
        forced = pot_after_ante is not None and pot_after_ante == conv.base_stake and viennese
        for d, dec in by.items():
            if forced and dec in (Decision.HOME, Decision.INVITE, Decision.INVITED):
                out.add("TVANG", gettext_noop("{player}: “{decision_word}” in a forced deal: the pot "
                        "holds one base stake, so both go along (tvång)"), rule_go, i,
                        params={"player": _who(p, d), "decision_word": DECISION_WORDS[dec]},
                        player=d, column="defence")  # fmt: skip
            if viennese and dec is Decision.FORCED and not forced and pot_after_ante is not None:
                out.add("NOT_FORCED", gettext_noop("{player} marked tvång, but the pot holds {pot}, "
                        "not one base stake ({stake})"), rule_go, i,
                        params={"player": _who(p, d), "pot": pot_after_ante,
                                "stake": conv.base_stake}, player=d,
                        column="defence", written=pot_after_ante,
                        expected=conv.base_stake)  # fmt: skip
        decisions = set(hand.defence)
        if (Decision.INVITE in decisions) != (Decision.INVITED in decisions) or \
                hand.defence.count(Decision.INVITE) > 1:  # fmt: skip
            out.add("INVITATION", gettext_noop("an invitation needs one defender who goes and "
                    "invites and one invited"), rule_go, i, column="defence")  # fmt: skip
        playing = tuple(d for d in defs if by[d].plays)
        if not playing:
            if hand.tricks is not None:
                out.add("TRICKS_UNPLAYED", gettext_noop("both defenders stayed home: there was no play"), rule_go,
                        i, column="tricks", severity=Severity.WARNING)  # fmt: skip
            if hand.negotiated:
                out.add("NEGOTIATION", gettext_noop("nothing to negotiate: both stayed home"), "Förhandling", i,
                        column="negotiated")  # fmt: skip
        elif _tricks(out, i, hand.tricks, size, (hand.player, *playing), "Betalning"
                     if viennese else "Der Ablauf des Spiels", tuple(p.players)) \
                and hand.negotiated:  # fmt: skip
            tricks = hand.tricks
            assert tricks is not None
            alone = len(playing) == 1 and Decision.INVITE not in decisions
            if not alone:
                out.add("NEGOTIATION", gettext_noop("negotiation needs one defender going and one "
                        "at home (and no invitation)"), "Förhandling", i,
                        column="negotiated")  # fmt: skip
            elif tricks[hand.player] < 6 or tricks[playing[0]] < 2:
                out.add("NEGOTIATION_FALL", gettext_noop("a negotiated split may not make anyone "
                        "fall (declarer {declarer}, defender {defender})"), "Förhandling", i,
                        params={"declarer": tricks[hand.player], "defender": tricks[playing[0]]},
                        column="tricks")  # fmt: skip
            if viennese and not conv.negotiation:
                out.add("NEGOTIATION", gettext_noop("negotiation is not allowed at this table "
                        "(option negotiation)"), "Förhandling", i, column="negotiated")  # fmt: skip


def _efterkop(out: _Findings, hand: Hand, i: int, defs: tuple[int, int],
              names: tuple[str, ...]) -> None:  # fmt: skip
    """The efterköp chain in turn order (000 "Efterköp"): only after a contract 1–4; "Spelaren
    till vänster om spelföraren agerar först och turen går vidare medsols" (the declarer's left,
    then his right); the declarer buys only on another's efterköp ("går turen tillbaka till
    spelföraren som också kan göra efterköp på tidigare efterköp"); nobody buys on his own; each
    names fem or higher with köp ("minst nivån fem"), higher than the one before ("på högre
    nivå"), and the turn goes on clockwise until nobody wants to buy again."""
    rule = "Efterköp"
    if not hand.contract.is_kop:
        out.add("EFTERKOP", gettext_noop("efterköp follows only a contract 1–4, not {contract}"),
                rule, i, params={"contract": str(hand.contract)}, column="efterkop")  # fmt: skip
    declarer = hand.declarer
    clockwise = (defs[0], defs[1], declarer)  # the turn after the declarer: left, right, declarer
    previous, level = declarer, 0
    for k, (seat, c) in enumerate(hand.efterkop):
        if c.level < 5 or c.hand:
            out.add("EFTERKOP_LEVEL", gettext_noop("efterköp {k}: {contract} — an efterköp names "
                    "fem or higher with köp"), rule, i, params={"k": k + 1, "contract": str(c)},
                    column="efterkop", written=c.code)  # fmt: skip
        if c.level <= level:
            out.add("EFTERKOP_NOT_HIGHER", gettext_noop("efterköp {k}: {contract} is not higher "
                    "than the previous efterköp"), rule, i, params={"k": k + 1, "contract": str(c)},
                    column="efterkop", written=c.code)  # fmt: skip
        if seat == previous:
            after = clockwise.index(previous) if previous != declarer else 2
            turn = [clockwise[(after + j) % 3] for j in (1, 2)]
            if k == 0:
                why = gettext_noop("efterköp 1: the declarer {player} buys first, but the turn "
                                   "begins at his left, {left}, then his right, {right}; he buys "
                                   "only on another's efterköp")  # fmt: skip
                said: dict[str, object] = {"player": names[seat], "left": names[defs[0]],
                                           "right": names[defs[1]]}  # fmt: skip
            else:
                why = gettext_noop("efterköp {k}: {player} buys on his own efterköp; the turn goes "
                                   "on clockwise to {left}, then {right}")  # fmt: skip
                said = {"k": k + 1, "player": names[seat], "left": names[turn[0]],
                        "right": names[turn[1]]}  # fmt: skip
            out.add("EFTERKOP_ORDER", why, rule, i, params=said, player=seat, column="efterkop")
        previous, level = seat, max(level, c.level)


def _auction(out: _Findings, conv: PotConvention, p: PotProtocol, i: int, deal: Hand | Rundpass,
             dealer: int) -> None:  # fmt: skip
    assert deal.auction is not None
    result = check_auction(deal.auction, p.size, dealer, i, conv.game,
                           names=tuple(p.players),
                           hand_higher=conv.hand_game_rank == "hand_higher",
                           one_round=conv.bidding == "one_round")  # fmt: skip
    out.items += result.findings
    if not result.complete:
        return
    section = "Budgivningen" if conv.game == "viennese" else "Der Ablauf des Spiels"
    if isinstance(deal, Rundpass):
        if result.declarer is not None:
            out.add("AUCTION_DEAL", gettext_noop("the auction ends with a bid by {player}, but the "
                    "deal is recorded as all passed"), section, i,
                    params={"player": _who(p, result.declarer)})  # fmt: skip
        return
    if result.declarer is None or result.final is None:
        out.add("AUCTION_DEAL", gettext_noop("everybody passed, but a contract is recorded"), section, i)
        return
    if result.declarer != deal.declarer:
        out.add("AUCTION_DECLARER", gettext_noop("the auction's winner is {winner}, not {player}"),
                section, i, params={"winner": _who(p, result.declarer),
                                    "player": _who(p, deal.declarer)},
                column="declarer", written=deal.declarer, expected=result.declarer)  # fmt: skip
    why = check_contract_against_bid(result.final, deal.contract, conv.game)
    if why:
        rule = "Köp och spelangivelse" if conv.game == "viennese" else "Der Ablauf des Spiels"
        out.add("CONTRACT_BID", why[0], rule, i, params=why[1], column="contract",
                written=deal.contract.code, expected=result.final)  # fmt: skip
    if deal.efterkop:
        if result.final in ("spel",) or not deal.contract.is_kop:
            return  # already reported by _efterkop
        for k, (seat, _) in enumerate(deal.efterkop):
            if seat not in result.bidders:
                out.add("EFTERKOP_BIDDER", gettext_noop("efterköp {k}: {player} made no bid and may "
                        "not buy (“Var och en av de övriga spelarna som har givit minst ett bud "
                        "annat än pass har rätt att göra efterköp”)"), "Efterköp", i,
                        params={"k": k + 1, "player": p.players[seat]}, player=seat,
                        column="efterkop")  # fmt: skip


def _ledger(out: _Findings, scored: ScoredGame, ledger: Ledger, rule: str) -> None:
    deals = scored.deals
    for i, row in enumerate(ledger.running):
        if row is None:
            continue
        if i >= len(deals):
            out.add("LEDGER_EXTRA", gettext_noop("ledger line {n} follows no deal"), rule, i,
                    params={"n": i + 1})
            continue
        if len(row.nets) != len(scored.nets):
            out.add("LEDGER_SEATS", gettext_noop("ledger line {n} has {nets} nets for {players} "
                    "players"), rule, i, params={"n": i + 1, "nets": len(row.nets),
                                                 "players": len(scored.nets)},
                    column="nets")  # fmt: skip
            continue
        for s, (written, expected) in enumerate(zip(row.nets, deals[i].nets, strict=True)):
            if written != expected:
                out.add("LEDGER_NET", gettext_noop("{player}'s net is written {written}, should be "
                        "{expected}"), rule, i, params={"player": scored.protocol.players[s],
                                                        "written": written, "expected": expected},
                        player=s, column=f"net:{s}", written=written,
                        expected=expected)  # fmt: skip
        if row.pot != deals[i].pot:
            out.add("LEDGER_POT", gettext_noop("the pot is written {written}, should be {expected}"),
                    rule, i, params={"written": row.pot, "expected": deals[i].pot}, column="pot",
                    written=row.pot, expected=deals[i].pot)  # fmt: skip
    if ledger.final is not None:
        if len(ledger.final) != len(scored.final):
            out.add("LEDGER_SEATS", gettext_noop("the written result has the wrong number of players"), rule,
                    column="result")  # fmt: skip
            return
        for s, (wrote, total) in enumerate(zip(ledger.final, scored.final, strict=True)):
            if wrote != total:
                out.add("LEDGER_RESULT", gettext_noop("{player}'s result is written {written}, "
                        "should be {expected} (the pot at the end: {pot_end_word})"), rule,
                        params={"player": scored.protocol.players[s], "written": wrote,
                                "expected": total,
                                "pot_end_word": POT_END_WORDS[scored.convention.pot_end]},
                        player=s, column="result", written=wrote,
                        expected=total)  # fmt: skip


def check(protocol: PotProtocol, ledger: Ledger | None = None) -> CheckReport:
    """Every finding about a pot-game protocol (and the ledger the players wrote)."""
    try:
        conv = protocol.rules()
    except InvalidConventionError as error:
        f = worded_finding("CONVENTION", error, rule="Förberedelser", column="convention",
                           source="000")  # fmt: skip
        return CheckReport((f,))
    viennese = conv.game == "viennese"
    out = _Findings("000" if viennese else "003")
    size = protocol.size
    if not viennese and size != 3:
        out.add("PLAYERS", gettext_noop("{n} players: German Préférence is for three"),
                "Spieler: 3", params={"n": size}, column="players")  # fmt: skip
        return CheckReport(tuple(out.items))
    same = repeated_name(protocol.players)
    if same is not None:
        out.add("PLAYER_NAMES", gettext_noop("seat {seat} has the name of seat {other} ({name}): "
                "each player needs a name of his own"),
                "Förberedelser" if viennese else "Spieler: 3",
                params={"seat": same[1] + 1, "other": same[0] + 1,
                        "name": repr(protocol.players[same[1]])}, column="players")  # fmt: skip
        return CheckReport(tuple(out.items))
    if not 0 <= protocol.first_dealer < size:
        out.add("SEAT", gettext_noop("first dealer {seat} is not a seat"), "Förberedelser",
                params={"seat": seat_number(protocol.first_dealer)},
                column="first_dealer")  # fmt: skip
        return CheckReport(tuple(out.items))
    rotation = dealers(protocol)
    scored: ScoredGame | None = None
    known: ScoredGame | None = None  # the deals before the first unscorable one
    try:
        scored = known = score(protocol)
    except PotScoringError as error:
        said = dict(error.params) if error.text else {"reason": str(error)}
        if isinstance(said.get("player"), int):  # a seat, said by its name
            seat = cast(int, said["player"])
            said["player"] = protocol.players[seat] if 0 <= seat < size else seat_number(seat)
        out.items.append(Finding(
            "UNSCORABLE", str(error), "Betalning" if viennese else "Der Ablauf des Spiels",
            error.deal, column=error.field, source=out.source,
            text=error.text or gettext_noop("{reason}"), params=tuple(said.items()),
        ))  # fmt: skip
        if error.deal is not None:
            known = score(protocol.with_deals(protocol.deals[: error.deal]))
    rule_deal = "Giv" if viennese else "Der Ablauf des Spiels"
    for i, deal in enumerate(protocol.deals):
        dealer = rotation[i]
        if isinstance(deal, Penalty):
            if not 0 <= deal.player < size or any(not 0 <= s < size for s, _ in deal.to_players):
                out.add("SEAT", gettext_noop("a penalty names a seat that is not at the table"), "Betalning", i,
                        column="player")  # fmt: skip
            continue
        assert dealer is not None
        if deal.dealer is not None and deal.dealer != dealer:
            out.add("DEALER", gettext_noop("dealer recorded as {written}, but by the rotation it is "
                    "{expected}"), rule_deal, i, params={"written": _who(protocol, deal.dealer),
                                                         "expected": _who(protocol, dealer)},
                    column="dealer", written=deal.dealer, expected=dealer)  # fmt: skip
        pot_after = None
        if known is not None and i < len(known.deals):
            pot_after = known.deals[i].pot_before + known.deals[i].ante
        if isinstance(deal, Hand):
            if not 0 <= deal.declarer < size:
                out.add("SEAT", gettext_noop("declarer {seat} is not a seat at the table"), rule_deal,
                        i, params={"seat": deal.declarer + 1}, column="declarer")  # fmt: skip
                continue
            _hand(out, conv, protocol, i, deal, dealer, pot_after)
        elif viennese:
            _tricks(out, i, deal.tricks, size, active_seats(size, dealer), "Betalning",
                    tuple(protocol.players))
        else:
            out.add("ALL_PASS", gettext_noop("the German rules do not say what happens when all pass; scored "
                    "as thrown in: the dealer's chips stay in the pot"), "Der Ablauf des Spiels", i,
                    severity=Severity.WARNING)  # fmt: skip
            if deal.tricks is not None:
                out.add("TRICKS_UNPLAYED", gettext_noop("an all-pass German deal is not played"), "Der Ablauf "
                        "des Spiels", i, column="tricks")  # fmt: skip
        if deal.auction is not None:
            _auction(out, conv, protocol, i, deal, dealer)
    if ledger is not None and scored is not None:
        _ledger(out, scored, ledger, "Betalning" if viennese else "Der Ablauf des Spiels")
    seen: set[tuple[object, ...]] = set()
    unique = []
    explained = {f.deal for f in out.items if f.code != "UNSCORABLE" and f.severity == "error"}
    for f in out.items:
        if f.code == "UNSCORABLE" and f.deal in explained:
            continue
        key = (f.code, f.deal, f.player, f.message)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    end = len(protocol.deals)
    unique.sort(key=lambda f: f.deal if f.deal is not None else end if f.column == "result" else -1)
    return CheckReport(tuple(unique))
