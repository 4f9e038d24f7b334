"""Small helpers shared by the seating tests."""

from collections import Counter
from itertools import combinations

from tournaments.seating import Draw, PastTable


def as_history(draws: list[Draw]) -> list[PastTable]:
    return [PastTable(d.round, t.seats, t.first_dealer, t.number) for d in draws for t in d.tables]


def pair_counts(draws: list[Draw]) -> Counter:
    return Counter(frozenset(p) for d in draws for t in d.tables for p in combinations(t.seats, 2))


def repeats(draws: list[Draw]) -> int:
    return sum(c - 1 for c in pair_counts(draws).values())


def seated(draw: Draw) -> list:
    return sorted(x for t in draw.tables for x in t.seats)


def design_pairs(rounds: list, v: int) -> Counter:
    """Pair counts of a constructed design, after checking each round seats ``0 … v-1`` once."""
    for r in rounds:
        assert sorted(x for t in r for x in t) == list(range(v))
    return Counter(frozenset((a, b)) for r in rounds for t in r for a in t for b in t if a < b)
