"""The bidding constraints of the pot games, checked on a recorded auction.

Viennese (reading aid, variants §5.3, seed 000 "Budgivningen", "Köp och
spelangivelse", "Efterköp"): raising, the holder's hold at 1–4, the level lock, spel, premium bids
at the first turn, and the contract the final bid allows. German (§6, seed 003): Vorhand's Eins,
each bid higher, the trump at least the bid, no hand game after a bid, Herz said as Prämie.

Bids are the codes of :mod:`scoring.pot.protocol`: ``"pass"``, ``"spel"``, ``"herz"`` or a
contract code. :func:`check_auction` returns the findings and the outcome: the final bidder and
bid (``None`` after all passed) and the seats that made a bid.

>>> out = check_auction(((1, "1"), (2, "2"), (0, "pass"), (1, "2"), (2, "pass")), 3, 0, 0, "viennese")
>>> out.findings, out.declarer, out.final
((), 1, '2')
>>> check_auction(((1, "1"), (2, "2"), (0, "pass"), (1, "5"), (2, "pass")), 3, 0, 0,
...               "viennese").findings[0].code
'AUCTION_LEVEL_LOCK'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.pot import PotContract

from ..findings import Finding, Severity, gettext_noop, templated
from .protocol import active_seats

__all__ = ["AuctionOutcome", "check_auction", "check_contract_against_bid"]

_SPEL_RANK = 4.5


@dataclass(frozen=True, slots=True)
class AuctionOutcome:
    findings: tuple[Finding, ...]
    #: The final bidder, ``None`` when everybody passed or the auction is unreadable.
    declarer: int | None
    final: str | None
    bidders: frozenset[int]
    complete: bool


def _rank(code: str) -> float:
    if code == "spel":
        return _SPEL_RANK
    if code == "herz":
        return 4.0
    return float(PotContract.from_code(code).rank)


def _category(code: str) -> str:
    if code == "spel":
        return "spel"
    c = PotContract.from_code(code)
    return "kop" if c.is_kop else "spel" if c.is_spel else "premium"


def check_auction(
    auction: tuple[tuple[int, str], ...],
    size: int,
    dealer: int,
    deal: int,
    game: str,
    *,
    hand_higher: bool = False,
    one_round: bool = False,
    names: tuple[str, ...] = (),
) -> AuctionOutcome:
    """Check a whole auction; see the module docstring.

    German bidding past the first round (option ``bidding``, :class:`rules.pot.PotConvention`):
    by default the auction goes round until two have passed and a bidder may raise again (003:
    "Wer am höchsten gereizt hat, macht das Spiel"; "Wer schon gereizt hat, darf kein
    Handspiel mehr ansagen" presupposes a second turn); with ``one_round`` each speaks once
    (003: "Vorhand … Mittelhand … Der Kartengeber hat das gleiche Recht: er passt oder meldet
    Drei") and a second turn is a bid after the auction ended.

    Findings name the players by ``names`` (the protocol's players), else "seat n" from 1.
    """
    source = "000" if game == "viennese" else "003"
    section = "Budgivningen" if game == "viennese" else "Der Ablauf des Spiels"
    found: list[Finding] = []

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    def flag(code: str, text: str, seat: int | None = None, rule: str = section,
             severity: Severity = Severity.ERROR, **params: object) -> None:  # fmt: skip
        """A finding whose message is ``text`` (a :func:`gettext_noop` template) filled with
        ``params``; ``{player}`` is the player who spoke, by name."""
        said = {"player": who(seat)} if seat is not None else {}
        found.append(templated(code, text, {**said, **params}, rule=rule, deal=deal,
                               player=seat, column="auction", severity=severity,
                               source=source))  # fmt: skip

    order = active_seats(size, dealer)
    forehand = order[0]
    passed: set[int] = set()
    first: dict[int, str] = {}  # a seat's first bid's category
    bid_before: set[int] = set()
    cur_rank, cur_code, cur_seat = 0.0, None, None
    hold_right: int | None = None
    spel_bidders: list[int] = []
    turn = 0
    ended = False
    spoken: set[int] = set()
    for k, (seat, bid) in enumerate(auction):
        if ended:
            if one_round and game == "german":
                flag("AUCTION_AFTER_END", gettext_noop("bid {k} ({bid}) comes after the auction "
                     "ended (one round: each speaks once)"), seat, k=k + 1, bid=bid)  # fmt: skip
            else:
                flag("AUCTION_AFTER_END", gettext_noop("bid {k} ({bid}) comes after the auction "
                     "ended"), seat, k=k + 1, bid=bid)  # fmt: skip
            break
        if seat not in order:
            flag("AUCTION_SEAT", gettext_noop("{player} does not play this deal"), seat)
            return AuctionOutcome(tuple(found), None, None, frozenset(bid_before), False)
        expected = order[turn % 3]
        while expected in passed:
            turn += 1
            expected = order[turn % 3]
        if seat != expected:
            flag("AUCTION_TURN", gettext_noop("bid {k}: {player} speaks out of turn ({turn} was "
                 "to speak)"), seat, k=k + 1, turn=who(expected))  # fmt: skip
        turn = order.index(seat) + 1
        if seat in passed:
            flag("AUCTION_PASSED", gettext_noop("bid {k}: {player} bids again after passing"), seat,
                 k=k + 1)
        if seat == forehand and seat not in first and hold_right is None:
            # 000 "Budgivningen": forehand holds; if he opened with a pass, the dealer
            # (four players: the player left of forehand, 000 "Spel på fyra personer")
            hold_right = forehand if bid != "pass" else (order[1] if size == 4 else dealer)
        if bid == "pass":
            passed.add(seat)
            first.setdefault(seat, "pass")
        elif game == "viennese":
            cur_rank, cur_code, cur_seat = _viennese_bid(
                flag, k, seat, bid, first, cur_rank, cur_code, cur_seat, hold_right, spel_bidders
            )
            bid_before.add(seat)
        else:
            cur_rank, cur_code, cur_seat = _german_bid(
                flag, k, seat, bid, forehand, bid_before, cur_rank, cur_code, cur_seat, hand_higher
            )
            bid_before.add(seat)
        spoken.add(seat)
        if cur_code is not None and len(passed) >= 2:
            ended = True
        elif len(passed) == 3:
            ended = True
        elif one_round and game == "german" and len(spoken) == len(order):
            ended = True  # each has spoken once (option bidding="one_round")
    if not ended:
        flag("AUCTION_INCOMPLETE", gettext_noop("the auction does not end (two passes after a bid, "
             "or three)"))
    declarer = cur_seat if cur_code is not None else None
    return AuctionOutcome(tuple(found), declarer, cur_code, frozenset(bid_before), ended)


_Flag = Callable[..., None]
#: the auction's state after a bid: the highest bid's rank, code and bidder
_Current = tuple[float, str | None, int | None]


def _viennese_bid(
    flag: _Flag, k: int, seat: int, bid: str, first: dict[int, str], cur_rank: float,
    cur_code: str | None, cur_seat: int | None, hold_right: int | None, spel_bidders: list[int],
) -> _Current:  # fmt: skip
    if bid == "herz":
        flag("AUCTION_BID", gettext_noop("bid {k}: 'herz' is a German bid; say hjärter"), seat,
             k=k + 1)
        return cur_rank, cur_code, cur_seat
    category = _category(bid)
    rank = _rank(bid)
    mine = first.get(seat)
    if mine == "pass":
        mine = None
    if mine is not None and mine != category and not (mine == "spel" and category == "spel"):
        what = {"kop": "1–4", "spel": "spel", "premium": gettext_noop("a premium contract")}[mine]
        flag("AUCTION_LEVEL_LOCK", gettext_noop("bid {k}: {player} first bid {first_word} and may "
             "not bid {bid} (the level lock)"), seat, k=k + 1,
             first_word=what, bid=bid)  # fmt: skip
        return cur_rank, cur_code, cur_seat
    if category == "spel" and bid != "spel":
        if seat not in spel_bidders:
            flag("AUCTION_SPEL", gettext_noop("bid {k}: {bid} named without saying spel first"),
                 seat, k=k + 1, bid=bid)
        elif cur_code == "spel" and spel_bidders and seat != spel_bidders[0]:
            flag("AUCTION_SPEL", gettext_noop("bid {k}: the first spel bidder names his suit "
                 "first"), seat, k=k + 1)
        elif cur_code != "spel" and rank <= cur_rank:
            flag("AUCTION_NOT_HIGHER", gettext_noop("bid {k}: {bid} is not higher than {current} "
                 "(spel cannot be held)"), seat, k=k + 1, bid=bid, current=cur_code)  # fmt: skip
        first.setdefault(seat, category)
        return (rank, bid, seat) if rank > cur_rank or cur_code == "spel" else (cur_rank, cur_code,
                                                                               cur_seat)  # fmt: skip
    if bid == "spel":
        if cur_rank > _SPEL_RANK:
            flag("AUCTION_NOT_HIGHER", gettext_noop("bid {k}: spel is not higher than {current}"),
                 seat, k=k + 1, current=cur_code)
            return cur_rank, cur_code, cur_seat
        spel_bidders.append(seat)
        first.setdefault(seat, "spel")
        if cur_code == "spel":  # "säger hen att hen också har spel"; the first names first
            return cur_rank, cur_code, cur_seat
        return rank, bid, seat
    hold = (category == "kop" and rank == cur_rank and seat == hold_right and cur_seat != seat)
    if rank <= cur_rank and not hold:
        if category == "kop" and rank == cur_rank:
            flag("AUCTION_HOLD", gettext_noop("bid {k}: {player} has no right to hold {bid} (only "
                 "forehand, or the dealer after forehand passed)"), seat, k=k + 1,
                 bid=bid)  # fmt: skip
        else:
            flag("AUCTION_NOT_HIGHER", gettext_noop("bid {k}: {bid} is not higher than {current} "
                 "(hjärter and fem rank equal)") if rank == cur_rank else gettext_noop(
                 "bid {k}: {bid} is not higher than {current}"), seat, k=k + 1, bid=bid,
                 current=cur_code)  # fmt: skip
        return cur_rank, cur_code, cur_seat
    first.setdefault(seat, category)
    return rank, bid, seat


def _german_bid(
    flag: _Flag, k: int, seat: int, bid: str, forehand: int, bid_before: set[int],
    cur_rank: float, cur_code: str | None, cur_seat: int | None, hand_higher: bool,
) -> _Current:  # fmt: skip
    rule = "Der Ablauf des Spiels"
    if bid == "spel":
        flag("AUCTION_BID", gettext_noop("bid {k}: 'spel' is a Viennese bid"), seat, rule,
             k=k + 1)
        return cur_rank, cur_code, cur_seat
    if bid == "herz":
        flag("AUCTION_PRAEMIE", gettext_noop("bid {k}: a game in Herz must be announced as "
             "Prämie"),
             seat, "Prämie", k=k + 1)  # fmt: skip
        contract = PotContract(4)
    else:
        contract = PotContract.from_code(bid)
    if contract.level > 4:
        flag("AUCTION_BID", gettext_noop("bid {k}: {bid} is not a German game (Eins–Prämie)"),
             seat, rule, k=k + 1, bid=bid)
        return cur_rank, cur_code, cur_seat
    if contract.hand and seat in bid_before:
        flag("AUCTION_HAND_AFTER_BID", gettext_noop("bid {k}: {player} has already bid and may "
             "not announce a hand game"), seat, "aus der Hand", k=k + 1)  # fmt: skip
    if seat == forehand and cur_code is None and not contract.hand and contract.level != 1:
        flag("AUCTION_VORHAND", gettext_noop("bid {k}: Vorhand passes or says Eins"), seat,
             rule, k=k + 1)
    rank = contract.level * 2 + (1 if contract.hand and hand_higher else 0)
    if rank <= cur_rank:
        current = PotContract.from_code(cur_code) if cur_code not in (None, "herz") else None
        tie = current is not None and current.level == contract.level and contract.hand \
            and not current.hand  # fmt: skip
        if tie:  # A-DE-3: undefined; accepted with a warning
            flag("AUCTION_HAND_TIE", gettext_noop("bid {k}: the German rules do not rank a hand game "
                 "against the talon game of the same suit; read as higher"), seat,
                 "aus der Hand", Severity.WARNING, k=k + 1)  # fmt: skip
            return rank + 0.5, bid, seat
        flag("AUCTION_NOT_HIGHER", gettext_noop("bid {k}: {bid} is not higher than {current}"),
             seat, rule, k=k + 1, bid=bid, current=cur_code)
        return cur_rank, cur_code, cur_seat
    return float(rank), bid, seat


def check_contract_against_bid(
    final: str, contract: PotContract, game: str
) -> tuple[str, dict[str, object]] | None:
    """Why the named contract does not fit the final bid (000 "Köp och spelangivelse"; 003:
    "die mindestens dem Höchstgebot entsprechen muss"), as a :func:`gettext_noop` template
    (``{name}`` fields) and its values, or ``None``.

    >>> text, params = check_contract_against_bid("2", PotContract(1), "viennese")
    >>> text.format(**params)
    'the contract 1 is below the final bid 2'
    >>> check_contract_against_bid("spel", PotContract(3, True), "viennese") is None
    True
    """
    said: dict[str, object] = {"contract": str(contract), "final": final}
    if final == "spel":
        why = None if contract.is_spel else gettext_noop(
            "after spel the contract is 1–3 utan köp, not {contract}"
        )
        return None if why is None else (why, said)
    bid = PotContract(4) if final == "herz" else PotContract.from_code(final)
    if game == "german" or bid.is_kop:
        if contract.hand != bid.hand:
            return gettext_noop(
                "the contract {contract} and the final bid {final} differ in the talon"
            ), said
        if game == "viennese" and not contract.is_kop:
            return gettext_noop(
                "after a final bid of 1–4 the contract is 1–4 with köp, not {contract}"
            ), said
        if contract.level < bid.level:
            return gettext_noop("the contract {contract} is below the final bid {final}"), said
        return None
    if bid.hand or bid.is_spel:  # fixed by the bid (000: "redan preciserat av budet")
        if contract == bid:
            return None
        return gettext_noop("the final bid {final} fixes the contract, not {contract}"), said
    if contract.hand or contract.level < bid.level:  # premium with köp: same or higher level, köp
        return gettext_noop(
            "after the final bid {final} the contract is level {level} or higher with köp"
        ), {**said, "level": bid.level}
    return None
