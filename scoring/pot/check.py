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

from rules.conventions import InvalidConventionError
from rules.pot import PotConvention

from ..findings import CheckReport, Finding, Severity, seat_number
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

    def add(self, code: str, message: str, rule: str, deal: int | None = None, *,
            player: int | None = None, column: str | None = None, written: object = None,
            expected: object = None, severity: Severity = Severity.ERROR,
            source: str | None = None) -> None:  # fmt: skip
        self.items.append(Finding(code, message, rule=rule, deal=deal, player=player,
                                  column=column, written=written, expected=expected,
                                  severity=severity, source=source or self.source))  # fmt: skip


def _who(p: PotProtocol, seat: int) -> str:
    """A seat by its player's name (findings are read by people); "seat n" from 1 when the
    seat is not at the table."""
    return p.players[seat] if 0 <= seat < p.size else f"seat {seat + 1}"


def _tricks(out: _Findings, i: int, tricks: tuple[int, ...] | None, size: int,
            playing: tuple[int, ...], rule: str, names: tuple[str, ...] = ()) -> bool:  # fmt: skip
    """Tricks are one count per seat, summing to 10, only for seats that played."""
    if tricks is None:
        out.add("TRICKS_MISSING", "the deal was played but its tricks are not recorded", rule, i,
                column="tricks")  # fmt: skip
        return False
    if len(tricks) != size:
        out.add("TRICKS_SEATS", f"{len(tricks)} trick counts for {size} seats", rule, i,
                column="tricks")  # fmt: skip
        return False
    ok = True
    if sum(tricks) != 10:
        out.add("TRICKS_SUM", f"tricks sum to {sum(tricks)}, not 10", rule, i, column="tricks",
                written=sum(tricks), expected=10)  # fmt: skip
        ok = False
    for s in range(size):
        if s not in playing and tricks[s]:
            out.add("TRICKS_NOT_PLAYING", f"{names[s] if s < len(names) else f'seat {s + 1}'} did not play this deal but has "
                    f"{tricks[s]} "
                    "tricks", rule, i, player=s, column="tricks")  # fmt: skip
            ok = False
    return ok


def _hand(out: _Findings, conv: PotConvention, p: PotProtocol, i: int, hand: Hand, dealer: int,
          pot_after_ante: int | None) -> None:  # fmt: skip
    size, viennese = p.size, conv.game == "viennese"
    actives = active_seats(size, dealer)
    for k, (seat, _) in enumerate(hand.efterkop):
        if not 0 <= seat < size or seat not in actives:
            out.add("SEAT", f"efterköp {k + 1}: {_who(p, seat)} does not play this deal", "Efterköp",
                    i, column="efterkop")  # fmt: skip
            return
    if hand.declarer not in actives or hand.player not in actives:
        out.add("SEAT", f"the declarer ({_who(p, hand.player)}) does not play this deal", "Giv"
                if viennese else "Der Ablauf des Spiels", i, column="declarer")  # fmt: skip
        return
    contract = hand.played
    for c in (hand.contract, *(c for _, c in hand.efterkop)):
        if not conv.allows(c):
            rule = "Varianter" if viennese else "Der Ablauf des Spiels"
            out.add("CONTRACT", f"the contract {c} is not played under these rules", rule, i,
                    column="contract", written=c.code)  # fmt: skip
    if not viennese:
        if hand.efterkop:
            out.add("EFTERKOP", "German Préférence has no efterköp", "Der Ablauf des Spiels", i,
                    column="efterkop")  # fmt: skip
        if hand.negotiated:
            out.add("NEGOTIATION", "German Préférence has no negotiated split",
                    "Der Ablauf des Spiels", i, column="negotiated")  # fmt: skip
    defs = defenders_of(size, dealer, hand.player)
    rule_go = "Gå med eller stanna hemma" if viennese else "mitgehen"
    if hand.efterkop and viennese:
        _efterkop(out, hand, i, defenders_of(size, dealer, hand.declarer), p.players)
    if viennese and (not contract.asks_defenders or hand.efterkop):
        if hand.defence:
            out.add("DEFENCE_NOT_ASKED", "no defender is asked in fem and higher (or after an "
                    "efterköp): both play", rule_go, i, column="defence")  # fmt: skip
        if hand.negotiated:
            out.add("NEGOTIATION", "negotiation needs one defender going and one at home",
                    "Förhandling", i, column="negotiated")  # fmt: skip
        _tricks(out, i, hand.tricks, size, (hand.player, *defs), "Betalning", tuple(p.players))
    else:
        if len(hand.defence) != 2:
            out.add("DEFENCE_COUNT", f"{len(hand.defence)} decisions; each of the two defenders "
                    "goes or stays home", rule_go, i, column="defence")  # fmt: skip
            return
        by = dict(zip(defs, hand.defence, strict=True))
        if not viennese:
            for d, dec in by.items():
                if dec not in (Decision.GO, Decision.HOME):
                    out.add("DECISION", f"{_who(p, d)}: {dec} does not exist in German Préférence "
                            "(mitgehen or daheim bleiben)", rule_go, i, player=d,
                            column="defence")  # fmt: skip
        forced = pot_after_ante is not None and pot_after_ante == conv.base_stake and viennese
        for d, dec in by.items():
            if forced and dec in (Decision.HOME, Decision.INVITE, Decision.INVITED):
                out.add("TVANG", f"{_who(p, d)}: {dec} in a forced deal: the pot holds one base stake, "
                        "so both go along (tvång)", rule_go, i, player=d,
                        column="defence")  # fmt: skip
            if viennese and dec is Decision.FORCED and not forced and pot_after_ante is not None:
                out.add("NOT_FORCED", f"{_who(p, d)} marked tvång, but the pot holds "
                        f"{pot_after_ante}, not one base stake", rule_go, i, player=d,
                        column="defence", written=pot_after_ante,
                        expected=conv.base_stake)  # fmt: skip
        decisions = set(hand.defence)
        if (Decision.INVITE in decisions) != (Decision.INVITED in decisions) or \
                hand.defence.count(Decision.INVITE) > 1:  # fmt: skip
            out.add("INVITATION", "an invitation needs one defender who goes and invites and one "
                    "invited", rule_go, i, column="defence")  # fmt: skip
        playing = tuple(d for d in defs if by[d].plays)
        if not playing:
            if hand.tricks is not None:
                out.add("TRICKS_UNPLAYED", "both defenders stayed home: there was no play", rule_go,
                        i, column="tricks", severity=Severity.WARNING)  # fmt: skip
            if hand.negotiated:
                out.add("NEGOTIATION", "nothing to negotiate: both stayed home", "Förhandling", i,
                        column="negotiated")  # fmt: skip
        elif _tricks(out, i, hand.tricks, size, (hand.player, *playing), "Betalning"
                     if viennese else "Der Ablauf des Spiels", tuple(p.players)) \
                and hand.negotiated:  # fmt: skip
            tricks = hand.tricks
            assert tricks is not None
            alone = len(playing) == 1 and Decision.INVITE not in decisions
            if not alone:
                out.add("NEGOTIATION", "negotiation needs one defender going and one at home "
                        "(and no invitation)", "Förhandling", i, column="negotiated")  # fmt: skip
            elif tricks[hand.player] < 6 or tricks[playing[0]] < 2:
                out.add("NEGOTIATION_FALL", "a negotiated split may not make anyone fall "
                        f"(declarer {tricks[hand.player]}, defender {tricks[playing[0]]})",
                        "Förhandling", i, column="tricks")  # fmt: skip
            if viennese and not conv.negotiation:
                out.add("NEGOTIATION", "negotiation is not allowed at this table (option "
                        "negotiation)", "Förhandling", i, column="negotiated")  # fmt: skip


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
        out.add("EFTERKOP", f"efterköp follows only a contract 1–4, not {hand.contract}", rule, i,
                column="efterkop")  # fmt: skip
    declarer = hand.declarer
    clockwise = (defs[0], defs[1], declarer)  # the turn after the declarer: left, right, declarer
    previous, level = declarer, 0
    for k, (seat, c) in enumerate(hand.efterkop):
        if c.level < 5 or c.hand:
            out.add("EFTERKOP_LEVEL", f"efterköp {k + 1}: {c} — an efterköp names fem or higher "
                    "with köp", rule, i, column="efterkop", written=c.code)  # fmt: skip
        if c.level <= level:
            out.add("EFTERKOP_NOT_HIGHER", f"efterköp {k + 1}: {c} is not higher than the previous "
                    "efterköp", rule, i, column="efterkop", written=c.code)  # fmt: skip
        if seat == previous:
            after = clockwise.index(previous) if previous != declarer else 2
            turn = [clockwise[(after + j) % 3] for j in (1, 2)]
            if k == 0:
                why = (f"efterköp 1: the declarer {names[seat]} buys first, but the turn begins at "
                       f"his left, {names[defs[0]]}, then his right, {names[defs[1]]}; he buys "
                       "only on another's efterköp")  # fmt: skip
            else:
                why = (f"efterköp {k + 1}: {names[seat]} buys on his own efterköp; the turn goes "
                       f"on clockwise to {names[turn[0]]}, then {names[turn[1]]}")  # fmt: skip
            out.add("EFTERKOP_ORDER", why, rule, i, player=seat, column="efterkop")
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
            out.add("AUCTION_DEAL", f"the auction ends with a bid by {_who(p, result.declarer)}, "
                    "but the deal is recorded as all passed", section, i)  # fmt: skip
        return
    if result.declarer is None or result.final is None:
        out.add("AUCTION_DEAL", "everybody passed, but a contract is recorded", section, i)
        return
    if result.declarer != deal.declarer:
        out.add("AUCTION_DECLARER", f"the auction's winner is {_who(p, result.declarer)}, not "
                f"{_who(p, deal.declarer)}", section, i, column="declarer", written=deal.declarer,
                expected=result.declarer)  # fmt: skip
    why = check_contract_against_bid(result.final, deal.contract, conv.game)
    if why:
        rule = "Köp och spelangivelse" if conv.game == "viennese" else "Der Ablauf des Spiels"
        out.add("CONTRACT_BID", why, rule, i, column="contract", written=deal.contract.code,
                expected=result.final)  # fmt: skip
    if deal.efterkop:
        if result.final in ("spel",) or not deal.contract.is_kop:
            return  # already reported by _efterkop
        for k, (seat, _) in enumerate(deal.efterkop):
            if seat not in result.bidders:
                out.add("EFTERKOP_BIDDER", f"efterköp {k + 1}: {p.players[seat]} made no bid and "
                        "may not buy (\"Var och en av de övriga spelarna som har givit minst ett bud annat "
                        "än pass har rätt att göra efterköp\")", "Efterköp", i, player=seat,
                        column="efterkop")  # fmt: skip


def _ledger(out: _Findings, scored: ScoredGame, ledger: Ledger, rule: str) -> None:
    deals = scored.deals
    for i, row in enumerate(ledger.running):
        if row is None:
            continue
        if i >= len(deals):
            out.add("LEDGER_EXTRA", f"ledger line {i + 1} follows no deal", rule, i)
            continue
        if len(row.nets) != len(scored.nets):
            out.add("LEDGER_SEATS", f"ledger line {i + 1} has {len(row.nets)} nets for "
                    f"{len(scored.nets)} players", rule, i, column="nets")  # fmt: skip
            continue
        for s, (written, expected) in enumerate(zip(row.nets, deals[i].nets, strict=True)):
            if written != expected:
                out.add("LEDGER_NET", f"{scored.protocol.players[s]}'s net is written {written}, "
                        f"should be {expected}", rule, i, player=s, column=f"net:{s}",
                        written=written, expected=expected)  # fmt: skip
        if row.pot != deals[i].pot:
            out.add("LEDGER_POT", f"the pot is written {row.pot}, should be {deals[i].pot}", rule,
                    i, column="pot", written=row.pot, expected=deals[i].pot)  # fmt: skip
    if ledger.final is not None:
        if len(ledger.final) != len(scored.final):
            out.add("LEDGER_SEATS", "the written result has the wrong number of players", rule,
                    column="result")  # fmt: skip
            return
        for s, (written, expected) in enumerate(zip(ledger.final, scored.final, strict=True)):
            if written != expected:
                out.add("LEDGER_RESULT", f"{scored.protocol.players[s]}'s result is written "
                        f"{written}, should be {expected} (pot at the end: "
                        f"{scored.convention.pot_end})", rule, player=s, column="result",
                        written=written, expected=expected)  # fmt: skip


def check(protocol: PotProtocol, ledger: Ledger | None = None) -> CheckReport:
    """Every finding about a pot-game protocol (and the ledger the players wrote)."""
    try:
        conv = protocol.rules()
    except InvalidConventionError as error:
        f = Finding("CONVENTION", str(error), rule="Förberedelser", column="convention",
                    source="000")  # fmt: skip
        return CheckReport((f,))
    viennese = conv.game == "viennese"
    out = _Findings("000" if viennese else "003")
    size = protocol.size
    if not viennese and size != 3:
        out.add("PLAYERS", f"{size} players: German Préférence is for three", "Spieler: 3",
                column="players")  # fmt: skip
        return CheckReport(tuple(out.items))
    same = repeated_name(protocol.players)
    if same is not None:
        out.add("PLAYER_NAMES", f"seat {same[1] + 1} has the name of seat {same[0] + 1} "
                f"({protocol.players[same[1]]!r}): each player needs a name of his own",
                "Förberedelser" if viennese else "Spieler: 3", column="players")  # fmt: skip
        return CheckReport(tuple(out.items))
    if not 0 <= protocol.first_dealer < size:
        out.add("SEAT", f"first dealer {seat_number(protocol.first_dealer)} is not a seat", "Förberedelser",
                column="first_dealer")  # fmt: skip
        return CheckReport(tuple(out.items))
    rotation = dealers(protocol)
    scored: ScoredGame | None = None
    known: ScoredGame | None = None  # the deals before the first unscorable one
    try:
        scored = known = score(protocol)
    except PotScoringError as error:
        out.add("UNSCORABLE", str(error), "Betalning" if viennese else "Der Ablauf des Spiels",
                error.deal, column=error.field)  # fmt: skip
        if error.deal is not None:
            known = score(protocol.with_deals(protocol.deals[: error.deal]))
    rule_deal = "Giv" if viennese else "Der Ablauf des Spiels"
    for i, deal in enumerate(protocol.deals):
        dealer = rotation[i]
        if isinstance(deal, Penalty):
            if not 0 <= deal.player < size or any(not 0 <= s < size for s, _ in deal.to_players):
                out.add("SEAT", "a penalty names a seat that is not at the table", "Betalning", i,
                        column="player")  # fmt: skip
            continue
        assert dealer is not None
        if deal.dealer is not None and deal.dealer != dealer:
            out.add("DEALER", f"dealer recorded as {_who(protocol, deal.dealer)}, but by the rotation it is "
                    f"{_who(protocol, dealer)}", rule_deal, i, column="dealer", written=deal.dealer,
                    expected=dealer)  # fmt: skip
        pot_after = None
        if known is not None and i < len(known.deals):
            pot_after = known.deals[i].pot_before + known.deals[i].ante
        if isinstance(deal, Hand):
            if not 0 <= deal.declarer < size:
                out.add("SEAT", f"declarer {deal.declarer + 1} is not a seat at the table", rule_deal, i,
                        column="declarer")  # fmt: skip
                continue
            _hand(out, conv, protocol, i, deal, dealer, pot_after)
        elif viennese:
            _tricks(out, i, deal.tricks, size, active_seats(size, dealer), "Betalning",
                    tuple(protocol.players))
        else:
            out.add("ALL_PASS", "003 does not say what happens when all pass; scored as thrown "
                    "in: the dealer's chips stay in the pot", "Der Ablauf des Spiels", i,
                    severity=Severity.WARNING)  # fmt: skip
            if deal.tricks is not None:
                out.add("TRICKS_UNPLAYED", "an all-pass German deal is not played", "Der Ablauf "
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
