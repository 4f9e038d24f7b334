"""Table sizes: every count but 1, 2 and 5 splits into threes and fours."""

import pytest

from tournaments.seating import TableCountError, TablePolicy, table_sizes


@pytest.mark.parametrize("n", [n for n in range(3, 41) if n != 5])
def test_mixed_prefers_threes(n):
    sizes = table_sizes(n, TablePolicy.MIXED)
    assert sum(sizes) == n and set(sizes) <= {3, 4}
    assert sizes.count(4) == n % 3  # as few fours as the count needs (at most 2)
    assert list(sizes) == sorted(sizes)  # threes first, then fours


@pytest.mark.parametrize("n", [n for n in range(3, 41) if n != 5])
def test_mixed_prefer_fours(n):
    sizes = table_sizes(n, TablePolicy.MIXED_PREFER_FOURS)
    assert sum(sizes) == n and set(sizes) <= {3, 4}
    assert sizes.count(3) <= 3
    assert sizes.count(3) == min(a for a in range(4) if (n - 3 * a) % 4 == 0)


@pytest.mark.parametrize("n", [1, 2, 5])
@pytest.mark.parametrize("policy", [TablePolicy.MIXED, TablePolicy.MIXED_PREFER_FOURS])
def test_impossible_counts(n, policy):
    with pytest.raises(TableCountError, match=f"{n} players"):
        table_sizes(n, policy)


def test_fixed_sizes():
    assert table_sizes(9, TablePolicy.THREES) == (3, 3, 3)
    assert table_sizes(8, TablePolicy.FOURS) == (4, 4)
    assert table_sizes(8, TablePolicy.PARTNERSHIPS) == (4, 4)
    with pytest.raises(TableCountError, match="multiple of 3"):
        table_sizes(10, TablePolicy.THREES)
    with pytest.raises(TableCountError, match="multiple of 4"):
        table_sizes(10, TablePolicy.FOURS)
    with pytest.raises(TableCountError, match="Priffe"):
        table_sizes(6, TablePolicy.PARTNERSHIPS)
