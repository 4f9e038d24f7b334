"""The movement: every board played by several tables, no one plays a board twice."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate.movement import boards_played_twice, plan_event, plan_round, times_played

# Nine players in three rounds of three tables, no two meeting twice: the rows, columns and
# one set of diagonals of the 3 × 3 square (the affine plane of order 3, as Kirkman's
# schoolgirls; the seating engine draws such rounds, docs/seating.md).
SQUARE = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
ROUNDS = [
    [tuple(row) for row in SQUARE],
    [tuple(SQUARE[r][c] for r in range(3)) for c in range(3)],
    [tuple(SQUARE[r][(c + r) % 3] for r in range(3)) for c in range(3)],
]


def test_nine_players_three_rounds_meet_no_one_twice_and_play_no_board_twice() -> None:
    pairs = [frozenset(p) for rnd in ROUNDS for t in rnd for p in combinations(t, 2)]
    assert len(pairs) == len(set(pairs))  # no repeated opponents
    plays = plan_event([3, 3, 3], boards_per_set=2)
    seating = {(r + 1, t + 1): ROUNDS[r][t] for r in range(3) for t in range(3)}
    assert boards_played_twice(plays, seating) == []
    assert times_played(plays) == {b: 3 for b in range(1, 19)}
    # every player plays every board of each round, each in a different stanza
    for r in (1, 2, 3):
        for t in (1, 2, 3):
            mine = [b for p in plays if p.round == r and p.table == t for b in p.boards]
            assert sorted(mine) == list(range(6 * r - 5, 6 * r + 1))


def test_the_boards_pass_down_one_table_each_stanza() -> None:
    plays = plan_round(1, tables=4, boards_per_set=1)
    at = {(p.stanza, p.table): p.set for p in plays}
    for stanza in (1, 2, 3):
        for table in (1, 2, 3, 4):
            nxt = 4 if table == 1 else table - 1
            assert at[(stanza + 1, nxt)] == at[(stanza, table)]


def test_fewer_stanzas_than_tables() -> None:
    plays = plan_round(1, tables=5, boards_per_set=2, stanzas=3)
    assert times_played(plays) == {b: 3 for b in range(1, 11)}
    assert len({(p.stanza, p.set) for p in plays}) == len(plays)  # a set at one table at a time


def test_a_players_second_visit_to_a_board_is_found() -> None:
    plays = plan_event([2, 2], boards_per_set=1)
    seating = {(1, 1): (1, 2, 3), (1, 2): (4, 5, 6), (2, 1): (1, 2, 3), (2, 2): (4, 5, 6)}
    assert boards_played_twice(plays, seating) == []
    bad = plays + plan_round(3, tables=2, boards_per_set=1, first_board=1)
    seating.update({(3, 1): (1, 4, 5), (3, 2): (2, 3, 6)})
    assert (1, 1) in boards_played_twice(bad, seating)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"tables": 0, "boards_per_set": 1}, "tables"),
     ({"tables": 3, "boards_per_set": 0}, "boards_per_set"),
     ({"tables": 3, "boards_per_set": 1, "stanzas": 4}, "stanzas")],
)
def test_bad_plans_name_the_field(kwargs: dict[str, int], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        plan_round(1, **kwargs)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(1, 7), min_size=1, max_size=5),
    st.integers(1, 3),
    st.integers(1, 7),
    st.randoms(use_true_random=False),
)
def test_any_seating_plays_no_board_twice(
    tables: list[int], per_set: int, stanzas: int, rng: object
) -> None:
    plays = plan_event(tables, boards_per_set=per_set, stanzas=stanzas)
    players = list(range(3 * max(tables)))
    seating = {}
    for r, t in enumerate(tables, 1):
        rng.shuffle(players)  # type: ignore[attr-defined]
        for k in range(t):
            seating[(r, k + 1)] = tuple(players[3 * k : 3 * k + 3])
    assert boards_played_twice(plays, seating) == []
    played = times_played(plays)
    assert len(played) == sum(tables) * per_set
    for b, n in played.items():
        assert n == min(stanzas, next(t for r, t in enumerate(tables) if b <= sum(tables[: r + 1]) * per_set))
