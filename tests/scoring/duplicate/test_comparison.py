"""Comparison scoring: matchpoints with Neuberg's factoring, the difference from the board's
average, totals and tie-breaks (docs/duplicate.md)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate.comparison import (
    Method,
    TableResult,
    differences,
    matchpoints,
    score_boards,
    standings,
)


def test_matchpoints_two_for_a_result_beaten_one_for_a_tie() -> None:
    # board 1, seat 1 at three tables: 6♠ made (+16/3 whists) twice, once down (-20)
    assert matchpoints([F(16, 3), F(-20), F(16, 3)]) == (F(3), F(0), F(3))
    assert matchpoints([F(5), F(1), F(3), F(3)]) == (F(6), F(0), F(3), F(3))


def test_neuberg_factors_a_board_played_fewer_times() -> None:
    # expected three results, two came: raw 2 and 0; F = (M + 1) · 3/2 − 1
    assert matchpoints([F(10), F(4)], expected=3) == (F(7, 2), F(1, 2))
    # played once where three were expected: the lone result gets the average, N − 1 = 2
    assert matchpoints([F(10)], expected=3) == (F(2),)
    # played four times where three were expected: scaled down, still averaging N − 1
    assert matchpoints([F(4), F(3), F(2), F(1)], expected=3) == (F(17, 4), F(11, 4), F(5, 4), F(-1, 4))


def test_difference_from_the_boards_average() -> None:
    assert differences([F(16, 3), F(-20), F(16, 3)]) == (F(76, 9), F(-152, 9), F(76, 9))


def _event() -> list[TableResult]:
    # two boards at three tables; board 2 is missing at table 3 (not played in time)
    return [
        TableResult(1, 1, ("A", "B", "C"), (F(16, 3), F(4, 3), F(-20, 3))),
        TableResult(1, 2, ("D", "E", "F"), (F(-20), F(10), F(10))),
        TableResult(1, 3, ("G", "H", "I"), (F(16, 3), F(4, 3), F(-20, 3))),
        TableResult(2, 1, ("B", "C", "A"), (F(8), F(-4), F(-4))),
        TableResult(2, 2, ("E", "F", "D"), (F(2), F(-1), F(-1))),
    ]


def test_a_small_event_by_matchpoints() -> None:
    scores = score_boards(_event(), Method.MATCHPOINTS, expected=3)
    got = {(s.board, s.player): s.score for s in scores}
    assert got[(1, "A")] == 3 and got[(1, "D")] == 0 and got[(1, "G")] == 3
    assert got[(1, "E")] == 4 and got[(1, "B")] == 1  # +10 beats +4/3 twice
    assert got[(2, "B")] == F(7, 2) and got[(2, "E")] == F(1, 2)  # Neuberg, 2 of 3 played
    assert all(s.top == 4 for s in scores)
    table = {s.player: s for s in standings(scores)}
    # A: 3 + 1/2 (board 2 seat 3: −4 below −1) ; B: 1 + 7/2 ; E: 4 + 1/2
    assert (table["A"].total, table["B"].total, table["E"].total) == (F(7, 2), F(9, 2), F(9, 2))
    # B and E tie on 9/2: E's +10 on board 1 beat both others, B's +8 topped board 2 — one top
    # each; E's own values 10 + 2 = 12 beat B's 4/3 + 8 = 28/3: E is above B
    order = [s.player for s in standings(scores)]
    assert order.index("E") < order.index("B")
    # F: +10 topped board 1 in seat 3 (4) and −1 beat −4 on board 2 (7/2)
    assert table["F"].total == F(15, 2) and table["F"].place == 1
    assert table["E"].place == 2 and table["B"].place == 3
    assert table["B"].percent == F(9, 2) / 8


def test_a_small_event_by_difference_from_the_average() -> None:
    scores = score_boards(_event(), "average")
    for board in (1, 2):
        for seat in (1, 2, 3):
            assert sum(s.score for s in scores if (s.board, s.seat) == (board, seat)) == 0
    got = {(s.board, s.player): s.score for s in scores}
    assert got[(1, "A")] == F(76, 9) and got[(2, "B")] == 3
    assert all(s.top is None for s in scores)
    assert standings(scores)[0].percent is None


def test_equal_on_everything_shares_the_place() -> None:
    results = [
        TableResult(1, 1, ("A", "B", "C"), (F(1), F(0), F(-1))),
        TableResult(1, 2, ("D", "E", "F"), (F(1), F(0), F(-1))),
    ]
    places = {s.player: s.place for s in standings(score_boards(results, "matchpoints"))}
    assert places["A"] == places["D"] == 1 and places["B"] == places["E"] == 3


def test_a_correction_on_one_board_rescored_that_board_only() -> None:
    before = score_boards(_event(), Method.MATCHPOINTS, expected=3)
    corrected = _event()
    corrected[1] = TableResult(1, 2, ("D", "E", "F"), (F(16, 3), F(4, 3), F(-20, 3)))
    after = score_boards(corrected, Method.MATCHPOINTS, expected=3)
    changed = {(a.board, a.player) for a, b in zip(before, after, strict=True) if a != b}
    assert changed and all(board == 1 for board, _ in changed)
    assert {p for b, p in changed} >= {"A", "D", "G"}  # the other tables' scores moved too


def test_a_table_twice_on_a_board_is_refused() -> None:
    with pytest.raises(ValueError, match="board 1"):
        score_boards([TableResult(1, 1, ("A",), (F(1),))] * 2, "matchpoints")


values = st.lists(st.fractions(min_value=-500, max_value=500, max_denominator=3), min_size=1, max_size=9)


@settings(max_examples=200, deadline=None)
@given(values, st.integers(1, 12))
def test_matchpoints_on_a_board_sum_to_a_constant(vals: list[F], expected: int) -> None:
    n = len(vals)
    raw = matchpoints(vals)
    assert sum(raw) == n * (n - 1)
    assert all(0 <= m <= 2 * (n - 1) for m in raw)
    factored = matchpoints(vals, expected)
    assert sum(factored) == n * (expected - 1)
    # factoring keeps the order of the results
    for i in range(n):
        for j in range(n):
            if vals[i] > vals[j]:
                assert factored[i] > factored[j]


@settings(max_examples=200, deadline=None)
@given(values)
def test_differences_sum_to_zero(vals: list[F]) -> None:
    assert sum(differences(vals)) == 0
