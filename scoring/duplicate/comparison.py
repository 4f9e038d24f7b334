"""Comparison scoring: each result against the others on the same board in the same seat.

Each board is compared seat by seat (seat 1, 2, 3 of the board, as bridge compares
North–South with North–South): the values of the tables that played it in that seat (the
family's unit, :mod:`.values`) are scored by one of two methods, chosen per event.

**Matchpoints** (bridge's pairs scoring): 2 for every other result beaten, 1 for every result
tied, so a board played ``n`` times gives a top of ``2(n - 1)`` and its ``n`` scores add up to
``n(n - 1)``. When a board is played ``n`` times and the event expected ``N`` (the movement's
number; or the most any board was played), its scores are factored by **Neuberg's formula**
``F = (M + 1) · N / n - 1`` — bridge's standard factoring (WBF Laws of Duplicate Bridge, Law
78A and the regulating authorities' Neuberg rule) — so every board's top is worth about
``2(N - 1)`` and its scores add up to ``n(N - 1)``: each result still averages ``N - 1``.

**Difference from the average** (a Butler-like score, as cross-IMPs score a result against
the field): a result's value less the mean of all the results in its seat on that board;
they add up to zero. No IMP scale is applied: Preference has none, so the difference stays in
the family's unit (whists, points, chips).

**Adjusted scores** (bridge's artificial adjusted scores, WBF Laws of Duplicate Bridge, Law
12C: average-plus, average, average-minus): a referee may award a table's players a share of
the board instead of a result, for a board not played (no time, a table short) or fouled (the
cards mixed, a hand misdealt). Each adjusted seat scores ``percent × top``, ``top`` being the
board's full top ``2(N - 1)`` of the ``N`` expected results; the usual shares are 60 % / 50 % /
40 % (ACBL and EBU practice: 60 % to a side not at fault), each event chooses its own. An adjusted
result takes no part in the comparison of the others: the results played are compared among
themselves and factored to ``N`` by Neuberg's formula, as for a board played fewer times. Under
the difference from the average (no top), an adjusted seat scores ``(percent - 50 %) × (best -
worst)`` of the values played in that seat (0 when none was played): the same distance from the
average, measured against the board's spread instead of its top.

A player's total is the sum of his scores; ties are broken by the number of **tops** (boards
where his result beat every other in his seat), then by the sum of his own **values** (the
whists or points he scored), and are otherwise shared.

>>> matchpoints([Fraction(10), Fraction(4), Fraction(4)])
(Fraction(4, 1), Fraction(1, 1), Fraction(1, 1))
>>> matchpoints([Fraction(10), Fraction(4)], expected=3)
(Fraction(7, 2), Fraction(1, 2))
>>> differences([Fraction(10), Fraction(4), Fraction(4)])
(Fraction(4, 1), Fraction(-2, 1), Fraction(-2, 1))
>>> adjusted_score(Adjustment.PLUS, top=Fraction(4))
Fraction(12, 5)
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "Adjustment",
    "DEFAULT_PERCENTS",
    "Method",
    "adjusted_score",
    "TableResult",
    "SeatScore",
    "Standing",
    "matchpoints",
    "differences",
    "score_boards",
    "standings",
]


class Method(enum.StrEnum):
    """How a duplicate event compares the results on a board."""

    MATCHPOINTS = "matchpoints"
    AVERAGE = "average"  # the difference from the board's average


class Adjustment(enum.StrEnum):
    """A referee's adjusted score for one seat of a board not played or fouled (Law 12C)."""

    PLUS = "plus"  # average-plus
    AVERAGE = "average"
    MINUS = "minus"  # average-minus


#: the customary shares of the top (bridge: 60 % / 50 % / 40 %); an event may choose others
DEFAULT_PERCENTS: Mapping[Adjustment, Fraction] = {
    Adjustment.PLUS: Fraction(3, 5),
    Adjustment.AVERAGE: Fraction(1, 2),
    Adjustment.MINUS: Fraction(2, 5),
}


@dataclass(frozen=True)
class TableResult:
    """One table's result on one board: who sat in the board's seats 1–3 and each seat's value;
    or, for a board a referee adjusted, each seat's :class:`Adjustment` (``adjusted``) and no
    values."""

    board: int
    table: Hashable
    players: tuple[Hashable, ...]
    values: tuple[Fraction, ...]
    adjusted: tuple[Adjustment, ...] = ()

    def __post_init__(self) -> None:
        if self.adjusted:
            if len(self.adjusted) != len(self.players) or self.values:
                raise ValueError("adjusted: one adjustment for each seat, and no values")
            for a in self.adjusted:
                Adjustment(a)  # raises ValueError for an unknown one
        elif len(self.players) != len(self.values):
            raise ValueError("values: one value for each seat")


@dataclass(frozen=True)
class SeatScore:
    """One seat's comparison score on one board: ``seat`` is 1-based, ``top`` the most the
    board gave in that seat (matchpoints) or ``None`` (differences), ``played`` how many
    results were compared."""

    board: int
    table: Hashable
    seat: int
    player: Hashable
    value: Fraction
    score: Fraction
    top: Fraction | None
    played: int
    is_top: bool
    #: the referee's adjustment of this seat (its ``value`` is then 0), else ``None``
    adjusted: Adjustment | None = None


@dataclass(frozen=True)
class Standing:
    player: Hashable
    place: int
    total: Fraction
    boards: int
    tops: int
    values: Fraction
    #: the total as a share of the tops of the boards played (matchpoints), else ``None``
    percent: Fraction | None


def matchpoints(values: Sequence[Fraction], expected: int | None = None) -> tuple[Fraction, ...]:
    """Each value's matchpoints against the others, factored to ``expected`` results when given
    and different from ``len(values)`` (Neuberg)."""
    n = len(values)
    raw = tuple(
        Fraction(sum(2 if v > w else 1 if v == w else 0 for k, w in enumerate(values) if k != i))
        for i, v in enumerate(values)
    )
    if expected is None or expected == n or n == 0:
        return raw
    if expected < 1:
        raise ValueError(f"expected: at least one result, not {expected}")
    return tuple((m + 1) * Fraction(expected, n) - 1 for m in raw)


def differences(values: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """Each value less the mean of ``values``."""
    if not values:
        return ()
    mean = Fraction(sum(values, Fraction(0)), len(values))
    return tuple(v - mean for v in values)


def adjusted_score(
    adjustment: Adjustment | str,
    *,
    top: Fraction | None = None,
    values: Sequence[Fraction] = (),
    percents: Mapping[Adjustment, Fraction] | None = None,
) -> Fraction:
    """An adjusted seat's score: ``percent × top`` (matchpoints, ``top`` given), else ``(percent
    − 50 %) × (best − worst)`` of the ``values`` played in that seat (0 when none was)."""
    share = Fraction((percents or DEFAULT_PERCENTS)[Adjustment(adjustment)])
    if top is not None:
        return share * top
    if not values:
        return Fraction(0)
    return (share - Fraction(1, 2)) * (max(values) - min(values))


def _check_percents(percents: Mapping[Adjustment, Fraction]) -> None:
    got = [Fraction(percents[a]) for a in (Adjustment.MINUS, Adjustment.AVERAGE, Adjustment.PLUS)]
    if not all(0 <= p <= 1 for p in got) or not got[0] <= got[1] <= got[2]:
        raise ValueError("percents: 0 ≤ average-minus ≤ average ≤ average-plus ≤ 100 %")


def score_boards(
    results: Iterable[TableResult],
    method: Method | str,
    *,
    expected: Mapping[int, int] | int | None = None,
    percents: Mapping[Adjustment, Fraction] | None = None,
) -> tuple[SeatScore, ...]:
    """Every seat's score on every board.

    ``expected`` is how many times each board was meant to be played (a number for every board,
    or a mapping board → number; by default the most any board in ``results`` was played); it
    matters only to matchpoints' factoring. A result a referee adjusted scores its seats'
    shares (``percents``, by default :data:`DEFAULT_PERCENTS`) and is left out of the others'
    comparison, which is factored to ``expected`` as for a board played fewer times.

    :raises ValueError: for a board given twice by one table, seats of different counts or
        shares out of order.
    """
    method = Method(method)
    percents = DEFAULT_PERCENTS if percents is None else percents
    _check_percents(percents)
    by_board: dict[int, list[TableResult]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    most = max((len(rs) for rs in by_board.values()), default=0)
    out: list[SeatScore] = []
    for board in sorted(by_board):
        rs = sorted(by_board[board], key=lambda r: str(r.table))
        tables = [r.table for r in rs]
        if len(set(tables)) != len(tables):
            raise ValueError(f"board {board}: a table's result is given twice")
        seats = {len(r.players) for r in rs}
        if len(seats) != 1:
            raise ValueError(f"board {board}: results with different numbers of seats")
        if isinstance(expected, Mapping):
            want: int | None = expected.get(board, most)
        else:
            want = most if expected is None else expected
        played = [r for r in rs if not r.adjusted]
        adjusted = [r for r in rs if r.adjusted]
        for seat in range(seats.pop()):
            vals = [r.values[seat] for r in played]
            n = len(vals)
            if method is Method.MATCHPOINTS:
                # factored to the expected field whenever results were adjusted or missing
                scores = matchpoints(vals, want if want is not None else len(rs))
                # the full top of the expected field, so that an average result is 50 %
                top: Fraction | None = Fraction(2 * ((want or len(rs)) - 1))
            else:
                scores = differences(vals)
                top = None
            best = max(vals, default=None)
            for r, v, s in zip(played, vals, scores, strict=True):
                out.append(
                    SeatScore(
                        board, r.table, seat + 1, r.players[seat], v, s, top, n,
                        is_top=n > 1 and v == best and vals.count(best) == 1,
                    )
                )
            for r in adjusted:
                a = Adjustment(r.adjusted[seat])
                out.append(
                    SeatScore(
                        board, r.table, seat + 1, r.players[seat], Fraction(0),
                        adjusted_score(a, top=top, values=vals, percents=percents), top, n,
                        is_top=False, adjusted=a,
                    )
                )
    return tuple(out)


def standings(scores: Iterable[SeatScore]) -> tuple[Standing, ...]:
    """The players by total, then tops, then their own values; equal on all three share a place."""
    total: dict[Hashable, Fraction] = defaultdict(Fraction)
    tops: dict[Hashable, int] = defaultdict(int)
    values: dict[Hashable, Fraction] = defaultdict(Fraction)
    boards: dict[Hashable, int] = defaultdict(int)
    most: dict[Hashable, Fraction] = defaultdict(Fraction)
    has_top = True
    for s in scores:
        total[s.player] += s.score
        tops[s.player] += s.is_top
        values[s.player] += s.value
        boards[s.player] += 1
        if s.top is None:
            has_top = False
        else:
            most[s.player] += s.top
    players = sorted(
        total, key=lambda p: (-total[p], -tops[p], -values[p], str(p))
    )
    out: list[Standing] = []
    for i, p in enumerate(players):
        key = (total[p], tops[p], values[p])
        if out and (out[-1].total, out[-1].tops, out[-1].values) == key:
            place = out[-1].place
        else:
            place = i + 1
        percent = total[p] / most[p] if has_top and most[p] else None
        out.append(Standing(p, place, total[p], boards[p], tops[p], values[p], percent))
    return tuple(out)
