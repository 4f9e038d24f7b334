"""Turned base rounds of fours decided by SAT (tests/bench/sat_turned.py)."""

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
    base, _ = decide(44, 14)  # checked inside: 14 rounds, no pair twice
    assert base is not None and (0, 14, 28, 42) in base
    assert decide(28, 9)[0] is None


def test_the_catalogue_entry_of_92_is_what_it_finds():
    how, shape_, text = DEVELOPED[(4,) * 23]
    assert shape_ == (28, 3, 8) and "CaDiCaL" in how
    stored = [tuple(map(int, t.split(","))) for t in text.split()]
    assert stored[0] == (0, 28, 56, 84) and len(stored) == 23
