"""Schedules without a repeat found offline, for sizes no construction here reaches.

Some sizes with mixed tables have a schedule without a repeated meeting that
neither a design (:mod:`.designs`), a symmetric or developed schedule
(:mod:`.symmetric`) nor the search of a draw finds in the seconds a draw may
take. A longer search finds some of them once; like the published tables of
the social golfer problem, they are kept here as data and checked by the
tests (every round seats everyone once, no pair meets twice).

Each entry was found by ``tests/bench/find_schedules.py`` (a compiled tabu
search over whole schedules, the same neighbourhood as :mod:`.search`), with
the seed and the number of steps it records. A schedule's first rounds serve
any shorter event, and the planner relabels the players by the draw's seed
(:mod:`.planning`), so the stored numbering is never what players see.
"""

from __future__ import annotations

from functools import cache

__all__ = ["CATALOGUE", "catalogued_schedule"]

Schedule = list[list[tuple[int, ...]]]


CATALOGUE: dict[tuple[int, ...], tuple[str, str]] = {
    # table sizes of a round (sorted) → (how it was found, one line per round)
    (3, 3, 3, 3, 4, 4): (
        "tabu search, seed 2, 3,620,694 steps",
        """
        3,17,18 4,2,12 10,11,5 16,15,13 1,0,7,6 14,19,9,8
        19,15,11 12,17,10 0,4,8 7,13,14 2,6,3,16 18,1,9,5
        15,14,6 4,1,19 10,18,0 3,7,12 5,2,13,8 17,11,16,9
        16,5,7 4,15,3 10,9,6 14,2,18 17,19,13,0 8,11,12,1
        18,12,13 6,19,5 4,7,9 16,10,8 17,2,15,1 11,3,14,0
        3,10,1 9,2,0 12,19,16 6,13,11 17,5,4,14 8,15,7,18
        18,11,4 6,8,17 16,14,1 3,13,9 0,5,15,12 7,19,10,2
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "tabu search, seed 1, 4,806,142 steps",
        """
        4,0,5 16,28,2 18,13,22 10,11,8 7,1,14 6,20,17 23,25,27 12,24,26,3 19,9,15,21
        8,15,12 11,0,28 17,25,26 18,20,19 23,1,3 14,4,2 7,9,6 22,27,5,24 16,13,10,21
        26,1,20 11,16,27 17,8,5 14,6,12 22,7,10 9,18,24 15,28,3 23,21,2,0 4,19,25,13
        21,27,7 4,22,11 5,13,9 14,20,3 19,2,17 16,24,1 18,12,0 28,8,23,26 15,10,6,25
        16,9,12 27,10,1 15,22,23 26,13,11 2,6,18 14,25,5 21,24,17 19,8,3,0 4,28,7,20
        25,9,8 12,13,28 17,0,27 2,20,10 1,4,15 16,23,7 22,6,26 18,21,3,5 14,19,11,24
        1,21,22 4,17,12 11,7,3 18,28,10 8,13,24 14,9,23 6,19,27 0,25,16,20 2,5,26,15
        1,25,28 9,11,2 0,15,13 6,8,21 7,19,5 20,22,12 16,3,17 27,18,26,14 24,23,4,10
        0,7,26 13,27,2 22,25,3 24,15,20 10,17,9 21,28,14 12,23,19 1,6,11,5 16,4,8,18
        9,0,1 10,12,5 8,27,20 16,14,15 13,3,6 19,28,22 4,26,21 24,2,7,25 11,23,18,17
        28,24,6 13,17,1 0,14,10 2,22,8 5,20,23 15,7,18 16,26,19 4,9,3,27 25,12,11,21
        """,
    ),
}


def catalogued_schedule(
    sizes: tuple[int, ...] | list[int], rounds: int
) -> tuple[Schedule, str] | None:
    """At least ``rounds`` rounds of tables of ``sizes`` from the catalogue, and how they were found.

    >>> found, how = catalogued_schedule([4, 3, 3, 3, 3, 4], 7)
    >>> len(found), how
    (7, 'tabu search, seed 2, 3,620,694 steps')
    >>> catalogued_schedule([3, 3, 3, 3, 4, 4], 8) is None
    True
    """
    key = tuple(sorted(sizes))
    if key not in CATALOGUE:
        return None
    schedule = _parsed(key)
    if len(schedule) < rounds:
        return None
    return [list(r) for r in schedule], CATALOGUE[key][0]


@cache
def _parsed(key: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    lines = [line.split() for line in CATALOGUE[key][1].strip().splitlines()]
    return tuple(tuple(tuple(int(x) for x in t.split(",")) for t in line) for line in lines)
