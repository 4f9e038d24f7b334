"""Scoring a protocol: the pulka as written on paper, deal by deal, and its settlement.

:func:`score` replays the deals (dealer rotation 001 §3.2.2, the writing rules of
:mod:`scoring.russian.writing`, help and overflow 001 §4.2.3/§4.1.1, the closing of the
pulka 001 §4.2.14), applies the end conversion (001 §4.2.3, §4.2.3.3) and
settles (001 §4.2.14, §4.2.12). Illegal records are reported as findings and
left out of the sums; the scorer never stops at the first.

>>> from rules.contracts import Contract
>>> from scoring.russian.protocol import Call, Game, Protocol
>>> six = Contract.from_str("6♠")
>>> p = Protocol(players=("A", "B", "C"), target=2, ending="in-progress",
...              deals=(Game(1, six, (Call.WHIST, Call.PASS), 5),))
>>> s = score(p)
>>> s.row(0)[1].gora, s.row(0)[2].whists, s.row(0)[0].whists
(2, (0, 12, 0), (0, 2, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.contracts import Contract, Denomination
from rules.conventions import Convention, find_convention

from ..findings import Finding, Severity, gettext_noop, seat_number
from .protocol import Call, Ending, Game, Penalty, Protocol, Raspasy, SheetLine, SheetRow
from .raspasy import raspasy_step, write_raspasy
from .settlement import Settlement, settle
from .writing import Table, write_game, write_penalty

__all__ = ["ScoredPulka", "HelpEntry", "score", "convention_of"]

#: (deal index, donor seat, recipient seat or -1 for a write-off from the donor's gora, points)
HelpEntry = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class ScoredPulka:
    """The computed pulka.

    ``totals[i]`` is the flat sheet after deal ``i`` (see :mod:`scoring.russian.writing` for
    the layout; :meth:`row` gives it as :class:`~scoring.russian.protocol.SheetLine` s).
    ``dealers[i]`` is the dealer of deal ``i`` (``None`` for a penalty entry),
    ``steps[i]`` the raspasy price factor (0 for other deals), ``closed_at`` the
    index of the deal that closed the pulka, ``conversion`` the end conversion per
    seat added to the gora, ``final`` the flat sheet the settlement uses.
    """

    protocol: Protocol
    convention: Convention
    totals: tuple[tuple[int, ...], ...]
    dealers: tuple[int | None, ...]
    steps: tuple[int, ...]
    helps: tuple[HelpEntry, ...]
    closed_at: int | None
    conversion: tuple[int, ...]
    final: tuple[int, ...]
    settlement: Settlement
    findings: tuple[Finding, ...]

    @property
    def size(self) -> int:
        return self.protocol.size

    def row(self, i: int) -> SheetRow:
        """Running totals after deal ``i`` (001 §4.2.5)."""
        return _row(self.totals[i], self.size)

    def final_row(self) -> SheetRow:
        """Totals after the end conversion, as settled."""
        return _row(self.final, self.size)

    def delta(self, i: int) -> SheetRow:
        """What each player wrote for deal ``i``."""
        before = self.totals[i - 1] if i else (0,) * len(self.totals[i])
        return _row(tuple(a - b for a, b in zip(self.totals[i], before, strict=True)), self.size)

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


def _row(flat: tuple[int, ...], n: int) -> SheetRow:
    stride = n + 2
    return tuple(
        SheetLine(flat[p * stride], flat[p * stride + 1], flat[p * stride + 2 : (p + 1) * stride])
        for p in range(n)
    )


def convention_of(protocol: Protocol) -> Convention:
    """The protocol's convention with its option overrides applied.

    :raises rules.conventions.InvalidConventionError: for an unknown name or option.
    """
    conv = find_convention(protocol.convention)
    if protocol.options:
        conv = conv.with_options(**dict(protocol.options))
    return conv


def score(protocol: Protocol, convention: Convention | None = None) -> ScoredPulka:
    """Score a protocol: every entry, running totals, closing, conversion, settlement.

    :raises ValueError: when the table itself is impossible (not 3 or 4 players,
        target below 1, first dealer not a seat) or the convention is unknown.
    """
    n = len(protocol.players)
    if n not in (3, 4):
        raise ValueError(f"players: {n} names given, Preference needs 3 or 4 (001 §3.2.10)")
    if protocol.target < 1:
        raise ValueError(f"target: {protocol.target!r} must be a positive number of points")
    if not 0 <= protocol.first_dealer < n:
        raise ValueError(
            f"first_dealer: seat {seat_number(protocol.first_dealer)} is not at the table"
        )
    conv = convention if convention is not None else convention_of(protocol)
    t = Table(conv, n, protocol.target)
    cells = t.cells
    totals: list[tuple[int, ...]] = []
    dealers: list[int | None] = []
    steps: list[int] = []
    dealer = protocol.first_dealer
    streak = 0  # raspasy in a row (001 §3.7.4)
    closed_at: int | None = None
    whisted_exit = conv.raspasy_exit == "whisted_game"
    stride = n + 2
    helping = conv.help
    target = protocol.target
    full_sum = n * target
    sliding = conv.raspasy_sliding
    exit_rank = Contract(conv.raspasy_exit_level, Denomination.SPADES).rank  # 001 §3.7.8
    pulya_at = range(0, n * stride, stride)
    step_of: list[int] = []  # raspasy price factor by streak, computed once per streak
    add_total, add_dealer, add_step = totals.append, dealers.append, steps.append
    for i, deal in enumerate(protocol.deals):
        t.deal = i
        if type(deal) is Penalty:
            write_penalty(t, deal)
            add_total(tuple(cells))
            add_dealer(None)
            add_step(0)
            continue
        if closed_at is not None:
            t.error("DEAL_AFTER_CLOSE", gettext_noop("the pulka closed at deal {n}"), "4.2.14",
                    {"n": closed_at + 1})  # fmt: skip
        recorded = deal.dealer  # type: ignore[union-attr]
        if recorded is not None and recorded != dealer:
            if 0 <= recorded < n:
                t.error(
                    "DEALER_OUT_OF_TURN",
                    gettext_noop("dealer {written}, expected {expected}"),
                    "3.2.2",
                    {"written": protocol.players[recorded], "expected": protocol.players[dealer]},
                    column="dealer",
                    written=recorded,
                    expected=dealer,
                )
                dealer = recorded  # follow the table from here: one finding, not one per deal
            else:
                t.error(
                    "BAD_SEAT",
                    gettext_noop("dealer seat {seat} is not at the table"),
                    "3.2.2",
                    {"seat": seat_number(recorded)},
                    column="dealer",
                )
        add_dealer(dealer)
        if type(deal) is Game:
            add_step(0)
            if streak and deal.contract.level and deal.contract.rank < exit_rank:
                t.error(
                    "RASPASY_EXIT",
                    gettext_noop("{contract} after raspasy: the exit needs {level} or more"),
                    "3.7.8",
                    {"contract": str(deal.contract), "level": conv.raspasy_exit_level},
                    column="contract",
                )
            if write_game(t, deal, dealer):
                if not whisted_exit or Call.WHIST in deal.calls or Call.HALF in deal.calls:
                    streak = 0
        else:
            assert type(deal) is Raspasy
            while len(step_of) <= streak:
                step_of.append(raspasy_step(conv, len(step_of)))
            step = step_of[streak]
            add_step(step)
            if write_raspasy(t, deal, dealer, step):
                streak += 1
        add_total(tuple(cells))
        if sliding or type(deal) is not Raspasy:  # the deal passes to the left (001 §3.2.2)
            dealer = dealer + 1 if dealer + 1 < n else 0  # (Classic repeats after raspasy, 3.7.7)
        if closed_at is None:  # 001 §4.2.14; Leningrad Σ pulya ≥ n × target (§4.2.3.3)
            if helping:  # every pulya closed; stops at the first open one (the common case)
                for at in pulya_at:
                    if cells[at] < target:
                        break
                else:
                    closed_at = i
            elif sum(cells[::stride]) >= full_sum:
                closed_at = i
    _check_ending(t, protocol, closed_at)
    final = list(cells)
    conversion = []
    for p in range(n):  # shortfall into the gora, ×2 in Leningrad (001 §4.2.3, §4.2.3.3)
        extra = (protocol.target - cells[p * stride]) * conv.end_conversion
        conversion.append(extra)
        final[p * stride + 1] += extra
    gora = [final[p * stride + 1] for p in range(n)]
    whists = [final[p * stride + 2 : (p + 1) * stride] for p in range(n)]
    settlement = settle(gora, whists, rounding=conv.rounding)
    return ScoredPulka(
        protocol=protocol,
        convention=conv,
        totals=tuple(totals),
        dealers=tuple(dealers),
        steps=tuple(steps),
        helps=tuple(t.helps),
        closed_at=closed_at,
        conversion=tuple(conversion),
        final=tuple(final),
        settlement=settlement,
        findings=tuple(t.findings),
    )


def _check_ending(t: Table, protocol: Protocol, closed_at: int | None) -> None:
    t.deal = None
    ending = protocol.ending
    if type(ending) is not Ending:
        ending = Ending(ending)
    if ending is Ending.CLOSED and closed_at is None:
        t.error(
            "NOT_CLOSED",
            gettext_noop("the pulka is marked closed but not every pulya reached the target"),
            "4.2.14",
            {},
            column="ending",
        )
    elif ending in (Ending.AGREEMENT, Ending.TIME_LIMIT) and closed_at is not None:
        t.warn(
            "ALREADY_CLOSED",
            gettext_noop("marked stopped (agreement) but the pulka closed at deal {n}")
            if ending is Ending.AGREEMENT
            else gettext_noop("marked stopped (time-limit) but the pulka closed at deal {n}"),
            "4.2.3",
            {"n": closed_at + 1},
            column="ending",
        )


def exact_total(scored: ScoredPulka) -> Fraction:
    """Sum of the exact settlement (always 0; a self-check)."""
    return sum(scored.settlement.exact, Fraction(0))
