"""Developed schedules decided by SAT (tests/seating_catalogue/sat_developed.py): found, refuted, sound."""

import pytest
from sat_developed import _check, clauses, decide, uncovered_differences

from tournaments.seating.catalogue import catalogued_schedule, developed


def test_it_finds_the_developed_schedules_at_the_bound_that_cp_sat_finds():
    for sizes, g, fixed, rounds in [((3,) * 6 + (4,), 9, 4, 9), ((3,) * 7 + (4,), 11, 3, 11)]:
        found, _ = decide(sizes, g, 2, fixed)  # checked inside: no pair twice
        assert len(found) == rounds
        assert all(sorted(map(len, r)) == list(sizes) for r in found)


def test_shapes_the_count_rules_out_have_no_schedule_and_need_no_solver():
    # 19 x 8: Z_8 leaves difference 4 unmet in each level (8 pairs), the bound only 3
    assert uncovered_differences((3,) * 5 + (4,), 8, 2, 3, 8) is None
    assert decide((3,) * 5 + (4,), 8, 2, 3) == (None, pytest.approx(0, abs=1))
    # 25 x 11 over Z_11 x 2 and 3 ∞: every pair but the ∞'s exactly once
    assert uncovered_differences((3,) * 7 + (4,), 11, 2, 3, 11) == 0
    # 22 x 9 over Z_9 x 2 and 4 ∞: of 231 pairs 216 meet and 6 are ∞'s; 9 left, one difference
    assert uncovered_differences((3,) * 6 + (4,), 9, 2, 4, 9) == 1


def test_it_refutes_shapes_known_to_have_no_schedule():
    # 13 x 5 has no schedule without a repeat at all (prove_schedules.py), so none of this shape
    assert decide((3, 3, 3, 4), 5, 2, 3)[0] is None
    # 23 x 9 over Z_9 x 2 and 5 ∞: each ∞ sits at triples with one point of each level, which
    # leaves the fours 4 points of each level for 4 pure differences of each and 4 mixed; a
    # four of 3 + 1 points gives 3 pure, of 2 + 2 one, of 4 six: no split of 8 points does it
    assert decide((3,) * 5 + (4, 4), 9, 2, 5)[0] is None


def _normalised(schedule, sizes, g, levels, bases, renumber=False):
    """The base rounds of a developed schedule brought to the form the model assumes.

    Each level shifted so that ∞_0's mates sit at 0; with ``renumber`` (∞ never at a four)
    the levels ∞_0 meets in base round b renumbered 2b and 2b + 1.
    """
    n = sum(sizes)
    infinity = levels * g
    shift = [0] * levels
    order = []
    for base in schedule[:bases]:
        for p in sorted(next(t for t in base if infinity in t)):
            if p < infinity:
                shift[p // g] = p % g
                order.append(p // g)
    order += [level for level in range(levels) if level not in order]
    number = {level: order.index(level) if renumber else level for level in range(levels)}

    def moved(p):
        if p >= infinity:
            return p
        return (p % g - shift[p // g]) % g + g * number[p // g]

    out = []
    for base in schedule[:bases]:
        tables = [sorted(moved(p) for p in t) for t in base]
        out.append(sorted(tables, key=lambda t: (len(t), t[0])))
    assert all(sorted(p for t in base for p in t) == list(range(n)) for base in out)
    return out


def _satisfiable_with(sizes, g, levels, fixed, bases, base_rounds):
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    pool = IDPool()
    model, y = clauses(sizes, g, levels, fixed, bases, pool)
    seated = [
        y[b, p, t]
        for b, base in enumerate(base_rounds)
        for t, table in enumerate(base)
        for p in table
    ]
    with Solver(name="cadical195", bootstrap_with=model) as sat:
        return sat.solve(assumptions=seated)


def test_the_symmetry_it_breaks_keeps_a_schedule_found_without_it():
    # 26 x 10, found by CP-SAT over two base rounds of Z_5 x 5 and 1 ∞ (no ∞ normalisation)
    sizes = (3,) * 6 + (4, 4)
    schedule, how = catalogued_schedule(sizes, 10)
    assert "2 base rounds over Z_5 × 5 and 1 ∞" in how
    bases = _normalised(schedule, sizes, 5, 5, 2)
    assert _satisfiable_with(sizes, 5, 5, 1, 2, bases)
    spoiled = [[list(t) for t in base] for base in bases]
    a, b = spoiled[1][0][0], spoiled[1][1][0]  # two players of base round 1 change tables
    spoiled[1][0][0], spoiled[1][1][0] = b, a
    spoiled[1] = sorted((sorted(t) for t in spoiled[1]), key=lambda t: (len(t), t[0]))
    assert not _satisfiable_with(sizes, 5, 5, 1, 2, spoiled)


def test_the_levels_it_renumbers_keep_the_catalogued_23_by_9():
    # ∞ meets the 18 level points at most once, and 9 rounds at threes already meet 18: it
    # never sits at a four, so the levels follow ∞_0's tables as well
    sizes = (3,) * 5 + (4, 4)
    schedule, how = catalogued_schedule(sizes, 9)
    assert "3 base rounds over Z_3 × 6 and 5 ∞" in how

    def moved(p):  # levels in reverse order, level l shifted by l + 1: again developed
        if p >= 18:
            return p
        level = p // 3
        return (p % 3 + level + 1) % 3 + 3 * (5 - level)

    other = [sorted(tuple(sorted(map(moved, t))) for t in r) for r in schedule]
    _check(other, sizes)
    assert _satisfiable_with(sizes, 3, 6, 5, 3, _normalised(other, sizes, 3, 6, 3, True))
    shifted_only = _normalised(other, sizes, 3, 6, 3)
    assert shifted_only != _normalised(other, sizes, 3, 6, 3, True)  # a real renumbering
    assert not _satisfiable_with(sizes, 3, 6, 5, 3, shifted_only)


def test_rounds_the_shift_keeps_seat_a_level_with_each_infinity_and_are_checked():
    # 17 x 5 over Z_3 x 5 and 2 ∞: one base round shifted 3 times and 2 rounds the shift keeps
    sizes = (3, 3, 3, 4, 4)
    found, _ = decide(sizes, 3, 5, 2, 1, invariant=2)  # checked inside: no pair twice
    assert len(found) == 5
    for kept in found[3:]:
        shifted = sorted(
            tuple(sorted(p if p >= 15 else p // 3 * 3 + (p + 1) % 3 for p in t)) for t in kept
        )
        assert shifted == sorted(map(tuple, kept))
        for t in kept:
            if 15 in t or 16 in t:  # ∞ with a whole level
                assert len(t) == 4 and len({p // 3 for p in t if p < 15}) == 1
    # 26 x 9 over Z_3 x 8 and 2 ∞: two base rounds and 3 kept rounds
    found, _ = decide((3,) * 6 + (4, 4), 3, 8, 2, 2, invariant=3)
    assert len(found) == 9


def test_kept_rounds_need_a_level_at_each_table_of_infinity():
    # 20 x 6 over Z_3 x 6 and 2 ∞ with 3 kept rounds: each uses 3 levels' pure differences
    # (∞ with a level at each four, one level at a three), 9 of the 6 there are
    assert decide((3, 3, 3, 3, 4, 4), 3, 6, 2, 1, invariant=3)[0] is None
    with pytest.raises(ValueError, match="odd g, a multiple of 3"):
        decide((3, 3, 3, 3, 4, 4), 5, 3, 5, 1, invariant=1)


def test_29_by_12_comes_from_a_base_round_and_a_round_three_shifts_keep():
    # over Z_9 × 3 and 2 ∞: each ∞ at a four with a third of a level {x, x + 3, x + 6}
    sizes = (3,) * 7 + (4, 4)
    found, _ = decide(sizes, 9, 3, 2, 1, invariant=1)  # checked inside: no pair twice
    assert len(found) == 12
    kept = found[9:]
    for r in kept:
        fours = [t for t in r if len(t) == 4]
        assert all({p % 3 for p in t if p < 27} == {t[0] % 3} for t in fours)
        assert all(len({p // 9 for p in t if p < 27}) == 1 for t in fours)
    stored, _ = catalogued_schedule(sizes, 12)  # the catalogue holds what the solver gives
    assert sorted(map(sorted, found)) == sorted(map(sorted, stored))


def test_a_round_more_at_pairs_the_shifts_leave():
    """28 × 9 at fours over Z_8 × 3 and 4 ∞: eight shifts of a base round and one round more,
    every pair once; CaDiCaL refutes 22 × 9 over Z_8 × 2 and 6 ∞ and a round more."""
    found, _ = decide((4,) * 7, 8, 3, 4, extra=1)  # checked inside: no pair twice
    assert len(found) == 9 and found[:8] == [list(r) for r in developed([found[0]], 8, 3)]
    assert decide((3,) * 6 + (4,), 8, 2, 6, extra=1)[0] is None
