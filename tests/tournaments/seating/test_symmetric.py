"""Schedules invariant under a group of translations (tournaments.seating.symmetric)."""

import pytest

from tournaments.seating import symmetric
from tournaments.seating.symmetric import SHAPES, Shape, symmetric_design, symmetric_schedule

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
