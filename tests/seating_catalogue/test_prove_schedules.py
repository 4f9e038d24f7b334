"""The offline prover behind catalogue.NONE_EXISTS (tests/seating_catalogue/prove_schedules.py).

A proof is only as good as its symmetry breaking: these tests check that the
classes of round 1 cover every possible round 1, and that the prover agrees
with what is known at sizes small enough to settle otherwise.
"""

from __future__ import annotations

from itertools import combinations, permutations

import pytest
from prove_schedules import first_round, second_rounds, settle

from tournaments.seating.symmetric import _check


def all_matrices(sizes):
    """Every 0/1 matrix with row and column sums ``sizes``, without any symmetry breaking."""
    count = len(sizes)

    def rows(i, left, done):
        if i == count:
            if not any(left):
                yield tuple(done)
            return
        for columns in combinations(range(count), sizes[i]):
            if all(left[j] for j in columns):
                cells = tuple(int(j in columns) for j in range(count))
                yield from rows(
                    i + 1, [a - b for a, b in zip(left, cells, strict=True)], [*done, cells]
                )

    yield from rows(0, list(sizes), [])


def class_of(matrix, sizes):
    """The matrix's class: over every order of the rows of one size, the least matrix
    with the columns of one size sorted (sorting them undoes any order of the columns)."""
    groups = {}
    for t, size in enumerate(sizes):
        groups.setdefault(size, []).append(t)
    orders = [[]]
    for group in groups.values():
        orders = [o + list(p) for o in orders for p in permutations(group)]
    forms = []
    for rs in orders:
        columns = [tuple(matrix[r][c] for r in rs) for c in range(len(sizes))]
        ordered = [c for group in groups.values() for c in sorted(columns[j] for j in group)]
        forms.append(tuple(zip(*ordered, strict=True)))
    return min(forms)


def matrix_of(round_one, sizes):
    zero = first_round(sizes)
    return tuple(tuple(int(bool(set(new) & set(old))) for old in zero) for new in round_one)


@pytest.mark.parametrize(
    "sizes, classes",
    [
        ((3, 3, 3, 3), 1),
        ((4, 3, 3, 3), 1),
        ((4, 4, 3, 3), 1),
        ((3,) * 5, 2),
        ((4, 3, 3, 3, 3), 5),
        ((4, 4, 3, 3, 3), 8),
    ],
)
def test_the_classes_of_round_one_are_every_class_once(sizes, classes):
    """Brute force: every round 1 that meets no pair of round 0 again (a 0/1 matrix) is in
    exactly one of the classes listed, and no two listed are in one class."""
    listed = second_rounds(sizes)
    assert len(listed) == classes
    zero = first_round(sizes)
    for one in listed:
        _check([[tuple(t) for t in zero], [tuple(t) for t in one]], sum(sizes))
        assert list(map(len, one)) == list(sizes)
    found = {class_of(matrix_of(one, sizes), sizes) for one in listed}
    assert len(found) == len(listed)
    assert {class_of(m, sizes) for m in all_matrices(sizes)} == found


def test_no_round_one_at_all_where_a_table_of_four_cannot_meet_four_tables():
    assert second_rounds((4, 3, 3)) == []  # 10 players: the four meets two tables
    assert settle((4, 3, 3), 2, log=lambda _: None) is None


@pytest.mark.parametrize(
    "sizes, rounds",
    [((3, 3, 3, 3), 4), ((4, 3, 3, 3), 4), ((4, 4, 3, 3), 4), ((4, 4, 3, 3, 3), 5), ((3,) * 5, 7)],
)
def test_it_finds_the_schedules_that_exist(sizes, rounds):
    """Sizes the engine draws without a repeat (KTS(15) for 15 × 7)."""
    schedule = settle(sizes, rounds, log=lambda _: None)
    assert schedule is not None and len(schedule) == rounds
    _check([[tuple(t) for t in r] for r in schedule], sum(sizes))


@pytest.mark.parametrize("sizes", [(3, 3, 3, 3), (4, 3, 3, 3), (4, 4, 3, 3)])
def test_it_refutes_five_rounds_for_twelve_to_fourteen_players(sizes):
    """No NKTS(12) exists; CP-SAT in the draw proves 13 × 5 and 14 × 5 too (docs/performance.md, the seating grid)."""
    lines = []
    assert settle(sizes, 5, log=lines.append) is None
    assert len(lines) == len(second_rounds(sizes)) and all("none" in line for line in lines)
