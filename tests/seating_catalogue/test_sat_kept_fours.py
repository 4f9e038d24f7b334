"""Fours over Z_g × 4 with kept rounds, decided by SAT (tests/seating_catalogue/sat_kept_fours.py)."""

import pytest
from sat_kept_fours import _check, decide, kept_rounds


def test_the_counts_of_68_and_92():
    """22 = 17 + 5 and 30 = 23 + 7: the counting bound of 4g is g + (g − 2) / 3."""
    assert kept_rounds(17) == 5 and kept_rounds(23) == 7 and kept_rounds(11) == 3
    with pytest.raises(ValueError, match="g ≡ 2"):
        kept_rounds(13)
    with pytest.raises(ValueError, match="g odd"):
        kept_rounds(8)


def test_it_refutes_20_at_the_bound():
    """A 4-RGDD of type 2^10 does not exist (Ge, Lam, Ling and Shen 2005), nor does this shape."""
    assert decide(5)[0] is None
    assert decide(5, "swap")[0] is None


def test_the_check_sees_a_pair_twice():
    with pytest.raises(AssertionError, match="meet twice"):
        _check([[(0, 1, 2, 3), (4, 5, 6, 7)], [(0, 1, 4, 5), (2, 3, 6, 7)]], 8)
    _check([[(0, 1, 2, 3), (4, 5, 6, 7)]], 8)  # one round: nothing twice
