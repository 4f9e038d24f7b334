"""Turned base rounds of fours decided by SAT (tests/seating_catalogue/sat_turned.py)."""

from itertools import combinations

from sat_developed import extra_rounds
from sat_turned import decide, shape

from tournaments.seating.catalogue import DEVELOPED


def test_shapes_of_the_infinities():
    """Fixed ∞ as few as the count allows; two fixed need μ ≠ 1 (none in Z_22 or Z_30)."""
    assert shape(92, 28) == (9, 2, 6)  # 9³ = 729 = 26 · 28 + 1
    assert shape(44, 14) == (9, 2, 0)
    assert shape(48, 15) == (1, 0, 3) and shape(52, 17) == (1, 1, 0)
    assert shape(68, 22) is None and shape(92, 30) is None and shape(90, 29) is None


def test_it_finds_44_at_the_bound_and_refutes_28():
    """44 × 14 (the search of designs.turned_fours with μ had once missed it) in about a
    second; 28 has no turned round (two base blocks over Z_9 cannot cover its differences)."""
    stored, _ = decide(44, 14)  # checked inside: 14 rounds, no pair twice
    assert stored is not None and (0, 14, 28, 42) in stored[0]
    assert decide(28, 9)[0] is None


def test_the_catalogue_entry_of_92_is_a_turned_round_and_one_more():
    how, shape_, text = DEVELOPED[(4,) * 23]
    assert (
        shape_ == (28, 3, 8, 0, 1)
        and "CaDiCaL" in how
        and "1 round of the pairs its shifts leave" in how
    )
    base, extra = [
        [tuple(map(int, t.split(","))) for t in line.split()]
        for line in text.split("\n")
        if line.strip()
    ]
    assert base[0] == (0, 28, 56, 84) and len(base) == len(extra) == 23


def test_a_round_more_of_the_pairs_the_shifts_leave():
    """28 × 9 at fours, every pair once (a resolvable 2-(28, 4, 1) design): a turned base round
    over Z_8 × 3 and 4 ∞ that leaves difference 2 within the levels, and a round more; 16 × 5
    (the affine plane of order 4) has no such shape over Z_4 × 3 and 4 ∞."""
    stored, _ = decide(28, 8, extra=1)  # checked inside: 9 rounds, no pair twice
    assert stored is not None and len(stored) == 2
    met = {pair for round_ in stored[1:] for t in round_ for pair in combinations(t, 2)}
    assert len(met) == 7 * 6  # one round, seated once
    assert decide(16, 4, extra=1)[0] is None


def test_rounds_more_never_seat_a_pair_twice():
    """Eight players, no pair covered by a base round: two rounds of two fours would split
    each four of the first round 2 + 2, so a pair meets twice; one round is easy."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    pairs = dict.fromkeys(combinations(range(8), 2))
    for rounds, expected in [(1, True), (2, False)]:
        pool = IDPool()
        model, _ = extra_rounds([4, 4], rounds, pairs, pool)
        with Solver(name="cadical195", bootstrap_with=model) as sat:
            assert sat.solve() == expected
    pool = IDPool()  # a pair whose difference the base rounds cover may not sit together
    covered = pool.id("covered")
    model, w = extra_rounds([4, 4], 1, {**pairs, (0, 1): covered}, pool)
    with Solver(name="cadical195", bootstrap_with=[*model, [covered]]) as sat:
        assert sat.solve()
        true = set(sat.get_model())
        assert not any(w[0, 0, t] in true and w[0, 1, t] in true for t in range(2))
