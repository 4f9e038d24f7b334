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
