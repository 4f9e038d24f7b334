"""Schedules invariant under a group of translations (tournaments.seating.symmetric)."""

import pytest

from tournaments.seating import TablePolicy, symmetric
from tournaments.seating.sizes import table_sizes
from tournaments.seating.symmetric import (
    SHAPES,
    Shape,
    developed_schedule,
    symmetric_design,
    symmetric_schedule,
)

from .helpers import design_pairs


@pytest.mark.parametrize("n, rounds", [(32, 10), (32, 9), (24, 7), (24, 6)])
def test_known_shapes_give_schedules_without_a_repeat(n, rounds):
    """The social golfer problem 8-4-10 (Aguado 2004) and 6-4-7: up to the bound (n - 1) / 3."""
    schedule = symmetric_design(n, 4, rounds)
    assert schedule is not None and len(schedule) >= rounds
    assert all(len(t) == 4 for r in schedule for t in r)
    assert set(design_pairs(schedule, n).values()) == {1}
    assert len(design_pairs(schedule, n)) == len(schedule) * n // 4 * 6


def test_rounds_are_invariant_under_the_translations():
    shape = SHAPES[32, 4][0]
    schedule = symmetric_design(32, 4, 10)
    for moved in symmetric._translations(shape):
        for tables in schedule:
            assert {tuple(sorted(moved[p] for p in t)) for t in tables} == set(tables)


def test_round_0_holds_the_start_table():
    schedule = symmetric_design(32, 4, 10)
    assert (0, 8, 16, 24) in schedule[0]  # (level, 0) for levels 0 … 3
    schedule = symmetric_design(24, 4, 7)
    assert {(0, 3, 6, 9), (12, 15, 18, 21)} <= set(schedule[0])


def test_same_shape_same_schedule():
    """One worker, a fixed seed and a deterministic budget: a draw can be re-run from its seed."""
    shape = Shape((3,), 8, start=((0, 1, 2, 3), (4, 5, 6, 7)))
    assert symmetric_schedule((4,) * 6, 6, shape) == symmetric_schedule((4,) * 6, 6, shape)


def test_no_schedule_of_that_shape_gives_none():
    """Z_16 on two levels: CP-SAT proves at once that no such 10 rounds exist."""
    assert symmetric_schedule((4,) * 8, 10, Shape((16,), 2)) is None


def test_sizes_outside_the_table_are_left_to_other_methods():
    assert symmetric_design(32, 4, 8) is None  # the cyclic schedule does it in 0.1 s
    assert symmetric_design(32, 4, 11) is None  # over the bound
    assert symmetric_design(36, 4, 10) is None  # no shape known


def test_a_shape_must_seat_the_tables():
    with pytest.raises(ValueError, match="seats 32 players"):
        symmetric_schedule((4,) * 6, 3, Shape((2, 2, 2), 4))


def test_fixed_points_stay_put():
    """KTS(9) = AG(2, 3) is invariant under x ↦ -x, which fixes 0 and pairs the other
    8 points: Z_2 on four levels and one fixed point ∞ (player 0)."""
    schedule = symmetric_schedule((3,) * 3, 4, Shape((2,), 4, fixed=1))
    assert schedule is not None
    assert len(design_pairs(schedule, 9)) == 36
    for tables in schedule:
        (with_0,) = [t for t in tables if 0 in t]
        a, b = with_0[1:]
        assert (a - 1) // 2 == (b - 1) // 2  # ∞'s table is a whole orbit {(level, 0), (level, 1)}


@pytest.mark.parametrize("n, rounds", [(22, 9), (25, 10), (25, 11), (28, 12)])
def test_developed_base_rounds_with_mixed_tables(n, rounds):
    """One or two tables of four a round, at or next to the bound: a base round over
    Z_g × 2 with points ∞, developed g times (g ≥ rounds), meets no pair twice."""
    sizes = table_sizes(n, TablePolicy.MIXED)
    found = developed_schedule(sizes, rounds)
    assert found is not None
    schedule, name = found
    assert name.startswith("cyclic schedule (Z_")
    assert len(schedule) == rounds
    assert all(sorted(map(len, r)) == sorted(sizes) for r in schedule)
    assert set(design_pairs(schedule, n).values()) == {1}


def test_developed_base_round_at_fours():
    """36 players over 11 rounds of fours (the bound): Z_11 × 3 and three ∞, two ∞ never
    at one table."""
    schedule, name = developed_schedule((4,) * 9, 11)
    assert name == "cyclic schedule (Z_11 × 3 and 3 ∞)"
    assert set(design_pairs(schedule, 36).values()) == {1}
    assert all(len({33, 34, 35} & set(t)) <= 1 for r in schedule for t in r)


def test_two_base_rounds_developed_together():
    """26 players (six threes, two fours) over 10 rounds, the bound: two base rounds over
    Z_5 × 5 and one ∞, each difference once over both, developed 5 times each (how the
    catalogue's 26 × 10 was found); round 2h + i is base round i shifted by h."""
    sizes = tuple(sorted(table_sizes(26, TablePolicy.MIXED)))
    schedule, _ = symmetric._developed(sizes, 5, 5, 1, 30.0, 0, 2)
    assert len(schedule) == 10
    assert set(design_pairs(schedule, 26).values()) == {1}
    shift = {p: p - p % 5 + (p % 5 + 1) % 5 for p in range(25)} | {25: 25}
    for r in range(8):  # round r + 2 is round r shifted by one
        assert sorted(tuple(sorted(shift[p] for p in t)) for t in schedule[r]) == schedule[r + 2]


def test_no_developed_schedule_where_every_shape_is_ruled_out():
    """20 players over 6 rounds of fours has no schedule without a repeat at all (the social
    golfer problem 5-4-6); CP-SAT rules out every developed shape in about a second."""
    assert developed_schedule((4,) * 5, 6) is None


def test_tables_of_a_mixed_round_are_numbered_by_size_and_must_sit():
    """planning._number: table i seats sizes[i]; a must-sit player gets their table."""
    from tournaments.seating.planning import _number

    tables = [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert _number(tables, (3, 3, 4), {}) == [[7, 8, 9], [4, 5, 6], [0, 1, 2, 3]]
    assert _number(tables, (3, 3, 4), {5: 0}) == [[4, 5, 6], [7, 8, 9], [0, 1, 2, 3]]
    assert _number(tables, (3, 3, 4), {5: 2}) is None  # a table of three cannot be table 3


def test_developed_schedules_are_not_sought_for_large_events():
    """Over DEVELOPED_UP_TO players the model would be too big; the search handles them."""
    assert symmetric.DEVELOPED_UP_TO < 70
    assert developed_schedule((3,) * 22 + (4,), 30) is None
