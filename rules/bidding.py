"""Bidding (торговля), as a referee checks it from a record; dealing order is re-exported
from :mod:`rules.dealing` (001 §3.2). Seats are 0-based, clockwise (001 §3.2.2).

Bidding (001 §3.3): the first hand (left of the dealer) speaks first (§3.3.2); bids climb the
ladder 6♠ 6♣ 6♦ 6♥ 6БК 7♠ … 10БК one step at a time (§3.3.7, §3.3.8), the first hand may
hold ("здесь", "мои") instead of raising (§3.3.8); misère only as a player's first bid
(§3.3.9) and beaten only by a 9-level (§3.6.4, note 40); a pass is final (§3.3.10); all pass →
raspasy (§3.3.12); after two passes the third hand may take the talon without a bid and must
then name a contract other than misère (§3.3.15); the contract is not below the final bid
(§3.4.3).

>>> auction = [(0, "6♠"), (1, "pass"), (2, "6♣"), (0, "6♣ здесь"), (2, "pass")]
>>> check_auction(auction, dealer=2, players=3)
[]
>>> auction_outcome(auction, dealer=2, players=3).declarer
0
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rules.contracts import LADDER, MISERE, Contract, InvalidContractError
from rules.dealing import active_seats, dealer_of_deal, first_hand, next_dealer, whisting_order
from rules.worded import WordedError, gettext_noop

__all__ = [
    "AuctionCall",
    "AuctionOutcome",
    "AuctionRecord",
    "CallKind",
    "InvalidCallError",
    "Violation",
    "active_seats",
    "auction_outcome",
    "check_auction",
    "check_contract",
    "dealer_of_deal",
    "exit_level",
    "first_hand",
    "next_dealer",
    "whisting_order",
]


# --- calls --------------------------------------------------------------------------------


class InvalidCallError(WordedError):
    """A spoken call that cannot be read; the message quotes it, the template (``call``: the
    call as written) says it for people (issue 36)."""


class CallKind(enum.Enum):
    """What a player says in the auction (001 §3.3)."""

    PASS = "pass"  # пас (001 §3.3.10)
    BID = "bid"  # an назначение on the ladder (001 §3.3.7)
    HOLD = "hold"  # the first hand's "здесь" / "мои": the current bid again (001 §3.3.8)
    MISERE = "misere"  # мизер (001 §3.3.9)
    TAKE = "take"  # the third hand takes the talon after two passes (001 §3.3.15)


_PASS_WORDS: Final = frozenset({"pass", "p", "пас", "пасс", "-"})
_HOLD_WORDS: Final = frozenset({"здесь", "мои", "моя", "here", "hold", "mine"})
_TAKE_WORDS: Final = frozenset({"take", "беру", "прикуп", "взял", "беру прикуп", "talon"})


@dataclass(frozen=True, slots=True)
class AuctionCall:
    """One call: a pass, a bid (``contract``), a hold, misère, or taking the talon.

    >>> AuctionCall.from_str("6♣ здесь")
    AuctionCall(kind=<CallKind.HOLD: 'hold'>, contract=Contract(level=6, denomination=<Denomination.CLUBS: 1>))
    >>> str(AuctionCall.from_str("пас")), str(AuctionCall.from_str("7nt"))
    ('pass', '7БК')
    """

    kind: CallKind
    contract: Contract | None = None

    @classmethod
    def from_str(cls, text: str) -> AuctionCall:
        """Read a call as spoken or written: ``6♠``, ``pass``/``пас``, ``mis``/``мизер``,
        ``здесь``/``here`` (optionally after the bid held: ``6♣ здесь``), ``take``/``беру``.

        :raises InvalidCallError: quoting the text.
        """
        words = text.strip().lower().split()
        if not words:
            raise InvalidCallError(
                "empty call (expected a bid, pass, mis, здесь or take)",
                gettext_noop("an empty call (a bid such as 6♠, pass, misère, здесь or take)"),
            )
        joined = " ".join(words)
        if joined in _PASS_WORDS:
            return cls(CallKind.PASS)
        if joined in _TAKE_WORDS:
            return cls(CallKind.TAKE)
        if joined in _HOLD_WORDS:
            return cls(CallKind.HOLD)
        hold = words[-1] in _HOLD_WORDS
        body = " ".join(words[:-1] if hold else words)
        try:
            contract = Contract.from_str(body)
        except InvalidContractError:
            raise InvalidCallError(
                f"{text!r} is not a call (expected a bid such as 6♠, pass, mis, здесь or take)",
                gettext_noop(
                    "“%(call)s” is not a call (a bid such as 6♠, pass, misère, здесь or take)"
                ),
                {"call": text},
            ) from None
        if contract.is_misere:
            if hold:
                raise InvalidCallError(
                    f"{text!r}: misère cannot be held (001 §3.3.8)",
                    gettext_noop("“%(call)s”: misère cannot be held"),
                    {"call": text},
                )
            return cls(CallKind.MISERE, contract)
        return cls(CallKind.HOLD if hold else CallKind.BID, contract)

    def __str__(self) -> str:
        if self.kind is CallKind.BID and self.contract is not None:
            return str(self.contract)
        if self.kind is CallKind.HOLD:
            return f"{self.contract} здесь" if self.contract is not None else "здесь"
        if self.kind is CallKind.MISERE:
            return "мизер"
        return "take" if self.kind is CallKind.TAKE else "pass"


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule: a stable ``code``, the rule reference, a message quoting the record,
    and the 0-based index of the offending call (``None`` when it concerns the whole deal)."""

    code: str
    rule: str
    message: str
    call: int | None = None
    #: the message for people as a :func:`gettext_noop` template (``{name}`` fields) and its
    #: values, the seats apart (``seats``: field → 0-based seat, which a page says by the
    #: player's name and the message as "seat n"); "" where the message has none
    text: str = ""
    params: tuple[tuple[str, object], ...] = ()
    seats: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        where = f"call {self.call + 1}: " if self.call is not None else ""
        return f"{where}{self.message} ({self.rule})"


def _violation(
    code: str, rule: str, text: str, index: int | None, seats: dict[str, int] | None,
    params: dict[str, object], message: str | None = None,
) -> Violation:  # fmt: skip
    """A violation whose people's words are ``text`` (``{name}`` fields: ``params``, and each
    of ``seats`` a player), its message ``text`` filled in English with each seat as "seat n"
    (or ``message``)."""
    seats = seats or {}
    said = {k: str(v) for k, v in params.items()}
    if message is None:
        message = text.format(**said, **{k: f"seat {s + 1}" for k, s in seats.items()})
    return Violation(code, rule, message, index, text, tuple(params.items()),
                     tuple(seats.items()))  # fmt: skip


@dataclass(frozen=True, slots=True)
class AuctionOutcome:
    """Who won the auction and on what (001 §3.3.13).

    ``declarer`` is ``None`` when all passed (raspasy, 001 §3.3.12) or the record stops early
    (``complete`` false). ``final_bid`` is the highest bid (:data:`MISERE` for misère), ``None``
    when the third hand took the talon without a bid (``took_talon``, 001 §3.3.15).
    """

    declarer: int | None
    final_bid: Contract | None
    took_talon: bool = False
    complete: bool = True

    @property
    def raspasy(self) -> bool:
        return self.complete and self.declarer is None


AuctionRecord = Sequence[tuple[int, "str | AuctionCall"]]


# --- the auction ---------------------------------------------------------------------------


def exit_level(raspasy_streak: int, *, archaic: bool = False) -> int:
    """The lowest contract level allowed after ``raspasy_streak`` raspasy in a row.

    The Kodeks exits raspasy with any 6-level game (001 §3.7.8); the archaic rule kept in
    Classic demands a 7-level after one raspasy, an 8-level after two, and so on (001 §3.7.7).

    >>> exit_level(2), exit_level(1, archaic=True), exit_level(9, archaic=True)
    (6, 7, 10)
    """
    if raspasy_streak < 0:
        raise ValueError(f"raspasy streak {raspasy_streak!r} is negative")
    return min(10, 6 + raspasy_streak) if archaic else 6


def _next_step(contract: Contract) -> Contract | None:
    """The next rung of the bidding ladder above ``contract`` (misère is not a rung one
    climbs to: it is only a first bid, 001 §3.3.9), or None above 10БК."""
    if contract.is_misere:
        return LADDER[MISERE.rank + 1]  # 9♠: misère is beaten only by a 9-level (001 §3.6.4)
    for candidate in LADDER[contract.rank + 1 :]:
        if not candidate.is_misere:
            return candidate
    return None


def _read(call: str | AuctionCall) -> AuctionCall:
    return call if isinstance(call, AuctionCall) else AuctionCall.from_str(call)


@dataclass
class _State:
    seats: tuple[int, int, int]
    players: int
    min_level: int
    spoke: set[int] = field(default_factory=set)
    passed: set[int] = field(default_factory=set)
    high: Contract | None = None
    high_seat: int | None = None
    took: int | None = None
    turn: int = 0  # index into seats
    done: bool = False
    violations: list[Violation] = field(default_factory=list)

    def flag(
        self, code: str, rule: str, text: str, index: int | None,
        seats: dict[str, int] | None = None, **params: object,
    ) -> None:  # fmt: skip
        self.violations.append(_violation(code, rule, text, index, seats, params))

    def advance(self, seat: int) -> None:
        live = [s for s in self.seats if s not in self.passed]
        if len(self.passed) == 3 or self.took is not None:
            self.done = True
        elif self.high is not None and len(live) == 1 and live[0] == self.high_seat:
            self.done = True
        if self.done:
            return
        position = self.seats.index(seat)
        for step in range(1, 4):
            candidate = self.seats[(position + step) % 3]
            if candidate not in self.passed:
                self.turn = self.seats.index(candidate)
                return


def _bid(state: _State, seat: int, call: AuctionCall, i: int) -> bool:
    contract = call.contract
    first_hand = seat == state.seats[0]
    if call.kind is CallKind.HOLD:
        if state.high is None or state.high.is_misere:
            state.flag("hold-nothing", "001 §3.3.8",
                       gettext_noop("{player} holds with no bid to hold"), i, {"player": seat})  # fmt: skip
            return False
        if contract is not None and contract != state.high:
            state.flag(
                "hold-wrong-bid",
                "001 §3.3.8",
                gettext_noop("{player} holds {contract} but the bid is {high}"),
                i,
                {"player": seat},
                contract=contract,
                high=state.high,
            )
        contract = state.high
    assert contract is not None
    if contract.level < state.min_level:
        state.flag(
            "below-exit-level",
            "001 §3.7.7",
            gettext_noop("bid {contract} after raspasy: the exit needs a {level}-level or higher"),
            i,
            contract=contract,
            level=state.min_level,
        )
    high = state.high
    if high is None:
        lowest = _lowest(state.min_level)
        if contract > lowest:
            state.flag(
                "jump",
                "001 §3.3.8",
                gettext_noop("opening bid {contract} skips the ladder: the first step is {lowest}"),
                i,
                contract=contract,
                lowest=lowest,
            )
    elif contract == high:
        if not first_hand or state.high_seat == seat:
            state.flag(
                "hold-not-first-hand",
                "001 §3.3.8",
                gettext_noop("{player} repeats {contract}: only the first hand may hold (здесь)"),
                i,
                {"player": seat},
                contract=contract,
            )
    elif contract < high:
        rule = "001 §3.6.4" if high.is_misere else "001 §3.3.8"
        state.flag(
            "insufficient",
            rule,
            gettext_noop("{player} bids {contract} below {high}: misère is beaten only by a "
                         "9-level (note 22)")
            if high.is_misere
            else gettext_noop("{player} bids {contract} below {high}: bids go up the ladder "
                              "(note 22)"),
            i,
            {"player": seat},
            contract=contract,
            high=high,
        )  # fmt: skip
        return False
    else:
        expected = _next_step(high)
        if expected is not None and contract > expected:
            state.flag(
                "jump",
                "001 §3.3.8",
                gettext_noop("{player} bids {contract} over {high}, skipping {expected}"),
                i,
                {"player": seat},
                contract=contract,
                high=high,
                expected=expected,
            )
    if state.high is None or contract >= state.high:
        state.high, state.high_seat = contract, seat
    return True


def _lowest(min_level: int) -> Contract:
    return next(c for c in LADDER if c.level == min_level)


def _misere(state: _State, seat: int, i: int) -> bool:
    if seat in state.spoke:
        state.flag(
            "misere-not-first",
            "001 §3.3.9",
            gettext_noop("{player} bids misère after bidding: misère only as a first bid"),
            i,
            {"player": seat},
        )
    if state.high is not None and state.high >= MISERE:
        state.flag(
            "insufficient",
            "001 §3.6.4",
            gettext_noop("{player} bids misère over {high}"),
            i,
            {"player": seat},
            high=state.high,
        )
        return False
    state.high, state.high_seat = MISERE, seat
    return True


def _take(state: _State, seat: int, i: int) -> None:
    third = state.seats[2]
    if seat != third or state.high is not None or state.passed != set(state.seats[:2]):
        state.flag(
            "take-not-allowed",
            "001 §3.3.15",
            gettext_noop("{player} takes the talon without a bid: only the third hand may, "
                         "after the first and second hands passed"),
            i,
            {"player": seat},
        )  # fmt: skip
    state.took = seat


def _run(
    auction: AuctionRecord, dealer: int, players: int, min_level: int
) -> tuple[_State, AuctionOutcome]:
    state = _State(active_seats(dealer, players), players, min_level)
    for i, (seat, raw) in enumerate(auction):
        try:
            call = _read(raw)
        except InvalidCallError as error:
            state.flag("unreadable-call", "001 §3.3.3", str(error), i)
            continue
        if state.done:
            state.flag(
                "after-end",
                "001 §3.3.10",
                gettext_noop("{player} says {call} after the auction ended"),
                i,
                {"player": seat},
                call=call,
            )
            continue
        if seat not in state.seats:
            state.flag(
                "not-in-deal",
                "001 §3.2.10",
                gettext_noop("{player} holds no cards in this deal but says {call}"),
                i,
                {"player": seat},
                call=call,
            )
            continue
        if seat in state.passed:
            state.flag(
                "bid-after-pass",
                "001 §3.3.10",
                gettext_noop("{player} says {call} after passing: a pass is final"),
                i,
                {"player": seat},
                call=call,
            )
            continue
        expected = state.seats[state.turn]
        if seat != expected:
            state.flag(
                "out-of-turn",
                "001 §3.3.18",
                gettext_noop("{player} speaks out of turn: {turn} was to speak"),
                i,
                {"player": seat, "turn": expected},
            )
        counts = True
        if call.kind is CallKind.PASS:
            state.passed.add(seat)
        elif call.kind is CallKind.TAKE:
            _take(state, seat, i)
        elif call.kind is CallKind.MISERE:
            counts = _misere(state, seat, i)
        else:
            counts = _bid(state, seat, call, i)
        state.spoke.add(seat)
        if counts:
            state.advance(seat)
        else:  # an insufficient bid is void and its maker speaks again (001 note 22)
            state.turn = state.seats.index(seat)
    if not state.done:
        state.flag("incomplete", "001 §3.3.1",
                   gettext_noop("the auction record stops before it ends"), None)  # fmt: skip
        return state, AuctionOutcome(None, state.high, complete=False)
    if state.took is not None:
        return state, AuctionOutcome(state.took, state.high, took_talon=state.high is None)
    return state, AuctionOutcome(state.high_seat, state.high)


def auction_outcome(auction: AuctionRecord, *, dealer: int, players: int) -> AuctionOutcome:
    """Who won the auction, on what, or raspasy.

    ``auction`` is a sequence of ``(seat, call)`` pairs in speaking order; a call is an
    :class:`AuctionCall` or its text (:meth:`AuctionCall.from_str`). Unreadable calls are
    skipped; :func:`check_auction` reports them.

    >>> auction_outcome([(1, "pass"), (2, "pass"), (0, "pass")], dealer=0, players=3).raspasy
    True
    >>> auction_outcome([(1, "pass"), (2, "pass"), (0, "take")], dealer=0, players=3).took_talon
    True
    """
    return _run(auction, dealer, players, 6)[1]


def check_contract(
    outcome: AuctionOutcome,
    contract: Contract | None,
    *,
    declarer: int | None = None,
    misere_allowed: bool = True,
    min_level: int = 6,
) -> list[Violation]:
    """Check the contract named after the auction (``None`` for raspasy).

    The contract is not below the final bid (001 §3.4.3); misère is named only by a player
    whose bid was misère (001 §3.3.9, §3.4.4) and never after taking the talon without a bid
    (001 §3.3.15); the winner of the auction is the declarer (001 §3.3.13); after raspasy the
    archaic rule wants ``min_level`` (001 §3.7.7).

    >>> from rules.contracts import Contract
    >>> out = AuctionOutcome(declarer=0, final_bid=Contract.from_str("7♦"))
    >>> [v.code for v in check_contract(out, Contract.from_str("7♣"))]
    ['below-bid']
    """
    found: list[Violation] = []

    def flag(code: str, rule: str, text: str, seats: dict[str, int] | None = None,
             message: str | None = None, **params: object) -> None:  # fmt: skip
        found.append(_violation(code, rule, text, None, seats, params, message))

    if not outcome.complete:
        return found
    if outcome.raspasy:
        if contract is not None:
            flag(
                "contract-after-all-pass",
                "001 §3.3.12",
                gettext_noop("all passed, so raspasy is played, not {contract}"),
                contract=contract,
            )
        return found
    if contract is None:
        flag(
            "raspasy-after-bid",
            "001 §3.3.11",
            gettext_noop("{player} won the auction and must name a contract"),
            {"player": outcome.declarer or 0},
        )
        return found
    if declarer is not None and declarer != outcome.declarer:
        flag(
            "declarer-not-winner",
            "001 §3.3.13",
            gettext_noop("{player} declares but {winner} won the auction"),
            {"player": declarer, "winner": outcome.declarer or 0},
        )
    bid = outcome.final_bid
    if contract.is_misere:
        if outcome.took_talon:
            flag(
                "take-misere",
                "001 §3.3.15",
                gettext_noop("the third hand took the talon without a bid and may not name misère"),
            )
        elif bid is not None and not bid.is_misere:
            flag(
                "misere-not-bid",
                "001 §3.3.9",
                gettext_noop("misère named after bidding {bid}: misère only as a first bid"),
                message=f"misère named after bidding {bid}: misère only as a first bid (001 §3.4.4)",
                bid=bid,
            )
        return found
    if bid is not None and contract < bid:
        flag("below-bid", "001 §3.4.3",
             gettext_noop("contract {contract} is below the final bid {bid}"), contract=contract,
             bid=bid)  # fmt: skip
    if contract.level < min_level:
        flag(
            "below-exit-level",
            "001 §3.7.7",
            gettext_noop("contract {contract} after raspasy: the exit needs a {level}-level or "
                         "higher"),
            contract=contract,
            level=min_level,
        )  # fmt: skip
    return found


def check_auction(
    auction: AuctionRecord,
    *,
    dealer: int,
    players: int,
    contract: Contract | None = None,
    declarer: int | None = None,
    raspasy: bool = False,
    min_level: int = 6,
) -> list[Violation]:
    """Every violation of the bidding rules in one auction, never stopping at the first.

    ``auction`` holds ``(seat, call)`` pairs in speaking order (0-based seats). Give the
    ``contract`` named after it (and the ``declarer``) to check them too, or ``raspasy=True``
    when the deal was played as raspasy. ``min_level`` is the lowest level allowed (7 after a
    raspasy under Classic's archaic rule, see :func:`exit_level`).

    >>> [v.code for v in check_auction([(1, "6♠"), (2, "7♠"), (0, "пас"), (1, "pass")],
    ...                               dealer=0, players=3)]
    ['jump']
    >>> [v.code for v in check_auction([(1, "6♠"), (2, "пас"), (0, "пас")],
    ...                               dealer=0, players=3, contract=MISERE, declarer=1)]
    ['misere-not-bid']
    """
    state, outcome = _run(auction, dealer, players, min_level)
    found = list(state.violations)
    if contract is None and not raspasy:
        return found
    if raspasy and contract is None:
        if outcome.complete and not outcome.raspasy:
            found.append(
                _violation(
                    "raspasy-after-bid",
                    "001 §3.3.11",
                    gettext_noop("raspasy recorded but {player} won the auction"),
                    None,
                    {"player": outcome.declarer or 0},
                    {},
                )
            )
        return found
    found += check_contract(outcome, contract, declarer=declarer, min_level=min_level)
    return found
