"""Comparison scoring: matchpoints with Neuberg's factoring, the difference from the board's
average, totals and tie-breaks (docs/duplicate.md)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate.comparison import (
    Adjustment,
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


# --- adjusted scores (bridge's Law 12C; docs/duplicate.md, "Adjusted scores") -----------------


def _adjusted_board() -> list[TableResult]:
    # board 5 meant for three tables: tables 1 and 2 played it, table 3's cards were fouled and
    # the referee gave Gleb (seat 1) average-plus, Hana (seat 2) average-minus, Ivo (seat 3) average
    return [
        TableResult(5, 1, ("A", "B", "C"), (F(10), F(-2), F(-8))),
        TableResult(5, 2, ("D", "E", "F"), (F(4), F(1), F(-5))),
        TableResult(
            5, 3, ("G", "H", "I"), (), (Adjustment.PLUS, Adjustment.MINUS, Adjustment.AVERAGE)
        ),
    ]


def test_adjusted_scores_by_matchpoints_worked_example() -> None:
    scores = score_boards(_adjusted_board(), Method.MATCHPOINTS, expected=3)
    got = {s.player: s for s in scores}
    # top 2(3 − 1) = 4: average-plus 60 % = 12/5, average 2, average-minus 40 % = 8/5
    assert (got["G"].score, got["H"].score, got["I"].score) == (F(12, 5), F(8, 5), F(2))
    assert got["G"].adjusted is Adjustment.PLUS and got["G"].value == 0 and not got["G"].is_top
    # the two played results are compared with each other only, factored from 2 to 3 (Neuberg):
    # raw 2 and 0 become 7/2 and 1/2, exactly as for a board played at two tables of three
    assert (got["A"].score, got["D"].score) == (F(7, 2), F(1, 2))
    assert (got["E"].score, got["B"].score) == (F(7, 2), F(1, 2))
    assert all(s.top == 4 and s.played == 2 for s in scores)
    table = {s.player: s for s in standings(scores)}
    assert table["G"].percent == F(3, 5) and table["H"].percent == F(2, 5)
    assert table["G"].tops == 0 and table["G"].boards == 1


def test_adjusted_scores_with_the_events_own_percentages() -> None:
    percents = {Adjustment.PLUS: F(13, 20), Adjustment.AVERAGE: F(1, 2), Adjustment.MINUS: F(7, 20)}
    scores = score_boards(_adjusted_board(), "matchpoints", expected=3, percents=percents)
    got = {s.player: s.score for s in scores}
    assert (got["G"], got["H"], got["I"]) == (F(13, 5), F(7, 5), F(2))  # 65 % and 35 % of 4
    bad = {Adjustment.PLUS: F(2, 5), Adjustment.AVERAGE: F(1, 2), Adjustment.MINUS: F(3, 5)}
    with pytest.raises(ValueError, match="percents"):
        score_boards(_adjusted_board(), "matchpoints", percents=bad)


def test_adjusted_scores_by_difference_from_the_average_worked_example() -> None:
    scores = score_boards(_adjusted_board(), Method.AVERAGE)
    got = {s.player: s.score for s in scores}
    # seat 1 played +10 and +4: mean 7, differences +3 and −3; spread 6, so average-plus is
    # (60 % − 50 %) × 6 = +3/5, average 0; seat 2: −2 and +1, spread 3: average-minus −3/10
    assert (got["A"], got["D"]) == (F(3), F(-3))
    assert (got["G"], got["H"], got["I"]) == (F(3, 5), F(-3, 10), F(0))


def test_a_board_adjusted_at_every_table() -> None:
    rs = [
        TableResult(1, t, (f"{t}a", f"{t}b", f"{t}c"), (), (Adjustment.AVERAGE,) * 3)
        for t in (1, 2)
    ]
    mp = score_boards(rs, "matchpoints", expected=2)
    assert {s.score for s in mp} == {F(1)}  # half the top of 2
    assert {s.score for s in score_boards(rs, "average")} == {F(0)}


def test_an_adjusted_result_names_every_seat_and_carries_no_values() -> None:
    with pytest.raises(ValueError, match="adjusted"):
        TableResult(1, 1, ("A", "B", "C"), (), (Adjustment.PLUS,))
    with pytest.raises(ValueError, match="adjusted"):
        TableResult(1, 1, ("A", "B", "C"), (F(1), F(0), F(-1)), (Adjustment.PLUS,) * 3)
    with pytest.raises(ValueError):
        TableResult(1, 1, ("A", "B", "C"), (), ("better",) * 3)  # type: ignore[arg-type]
