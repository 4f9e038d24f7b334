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

A player's total is the sum of his scores; ties are broken by the number of **tops** (boards
where his result beat every other in his seat), then by the sum of his own **values** (the
whists or points he scored), and are otherwise shared.

>>> matchpoints([Fraction(10), Fraction(4), Fraction(4)])
(Fraction(4, 1), Fraction(1, 1), Fraction(1, 1))
>>> matchpoints([Fraction(10), Fraction(4)], expected=3)
(Fraction(7, 2), Fraction(1, 2))
>>> differences([Fraction(10), Fraction(4), Fraction(4)])
(Fraction(4, 1), Fraction(-2, 1), Fraction(-2, 1))
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "Method",
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


@dataclass(frozen=True)
class TableResult:
    """One table's result on one board: who sat in the board's seats 1–3 and each seat's value."""

    board: int
    table: Hashable
    players: tuple[Hashable, ...]
    values: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        if len(self.players) != len(self.values):
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


def score_boards(
    results: Iterable[TableResult],
    method: Method | str,
    *,
    expected: Mapping[int, int] | int | None = None,
) -> tuple[SeatScore, ...]:
    """Every seat's score on every board.

    ``expected`` is how many times each board was meant to be played (a number for every board,
    or a mapping board → number; by default the most any board in ``results`` was played); it
    matters only to matchpoints' factoring.

    :raises ValueError: for a board given twice by one table or seats of different counts.
    """
    method = Method(method)
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
        seats = {len(r.values) for r in rs}
        if len(seats) != 1:
            raise ValueError(f"board {board}: results with different numbers of seats")
        if isinstance(expected, Mapping):
            want: int | None = expected.get(board, most)
        else:
            want = most if expected is None else expected
        for seat in range(seats.pop()):
            vals = [r.values[seat] for r in rs]
            n = len(vals)
            if method is Method.MATCHPOINTS:
                scores = matchpoints(vals, want)
                # the full top of the expected field, so that an average result is 50 %
                top: Fraction | None = Fraction(2 * ((want or n) - 1))
            else:
                scores = differences(vals)
                top = None
            best = max(vals)
            for r, v, s in zip(rs, vals, scores, strict=True):
                out.append(
                    SeatScore(
                        board, r.table, seat + 1, r.players[seat], v, s, top, n,
                        is_top=n > 1 and v == best and vals.count(best) == 1,
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
