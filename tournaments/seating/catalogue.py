"""Schedules without a repeat found offline, for sizes no construction here reaches.

Some sizes with mixed tables have a schedule without a repeated meeting that
neither a design (:mod:`.designs`), a symmetric or developed schedule
(:mod:`.symmetric`) nor the search of a draw finds in the seconds a draw may
take. A longer search finds some of them once; like the published tables of
the social golfer problem, they are kept here as data and checked by the
tests (every round seats everyone once, no pair meets twice).

Each entry was found by ``tests/bench/find_schedules.py`` and records how:

* a compiled tabu search over whole schedules (the neighbourhood of
  :mod:`.search`), its seed and number of steps (20 × 7, 29 × 11);
* a base round developed over ``Z_g × L`` with points ∞ (the model of
  :func:`.symmetric.developed_schedule`) with a CP-SAT budget a draw cannot
  spend: 38 × 16 and 40 × 18, at the counting bound, took 8 and 13 units
  where a draw gives a shape 6;
* two base rounds developed together, each difference once over both (the
  same model): 26 × 10 over ``Z_5 × 5`` and one ∞, at the bound, 2.2 units;
* the same shapes decided by a SAT solver (``--sat``: CaDiCaL, told what the
  count of pairs forces at the bound, which CP-SAT ran out of budget
  without): 23 × 9 over three base rounds of ``Z_3 × 6`` and 5 ∞, and
  31 × 14 over two of ``Z_7 × 4`` and 3 ∞, every pair but the ∞'s
  meeting exactly once.

A schedule's first rounds serve any shorter event, and the planner relabels
the players by the draw's seed (:mod:`.planning`), so the stored numbering is
never what players see.

The other answer is kept too: :data:`NONE_EXISTS` lists sizes proved offline
to have no schedule without a repeat: by ``tests/bench/prove_schedules.py``
(round 1 split into classes) or, for one four a round at the counting bound,
``tests/bench/prove_fours_first.py`` (the fours split by the graph they form
on the rounds, refuted under two encodings on two solvers).
A draw of such a size does not spend its time looking for one: it minimises
the repeats and its report says that none could be avoided, and why we know.
"""

from __future__ import annotations

from functools import cache

__all__ = ["CATALOGUE", "NONE_EXISTS", "catalogued_schedule", "proved_none"]

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
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_16 × 2 and 6 ∞), OR-Tools 9.15 CP-SAT, seed 0, 8.4 units",
        """
        0,1,6,24 2,5,14 3,28,33 4,17,34 7,26,35 8,25,32 9,11,21 10,16,37 12,23,36 13,27,29 15,19,20,30 18,22,31
        0,20,21,31 1,2,7,25 3,6,15 4,29,33 5,18,34 8,27,35 9,26,32 10,12,22 11,17,37 13,24,36 14,28,30 16,19,23
        0,4,7 1,16,21,22 2,3,8,26 5,30,33 6,19,34 9,28,35 10,27,32 11,13,23 12,18,37 14,25,36 15,29,31 17,20,24
        0,16,30 1,5,8 2,17,22,23 3,4,9,27 6,31,33 7,20,34 10,29,35 11,28,32 12,14,24 13,19,37 15,26,36 18,21,25
        0,27,36 1,17,31 2,6,9 3,18,23,24 4,5,10,28 7,16,33 8,21,34 11,30,35 12,29,32 13,15,25 14,20,37 19,22,26
        0,14,26 1,28,36 2,16,18 3,7,10 4,19,24,25 5,6,11,29 8,17,33 9,22,34 12,31,35 13,30,32 15,21,37 20,23,27
        0,22,37 1,15,27 2,29,36 3,17,19 4,8,11 5,20,25,26 6,7,12,30 9,18,33 10,23,34 13,16,35 14,31,32 21,24,28
        0,2,28 1,23,37 3,30,36 4,18,20 5,9,12 6,21,26,27 7,8,13,31 10,19,33 11,24,34 14,17,35 15,16,32 22,25,29
        0,17,32 1,3,29 2,24,37 4,31,36 5,19,21 6,10,13 7,22,27,28 8,9,14,16 11,20,33 12,25,34 15,18,35 23,26,30
        0,19,35 1,18,32 2,4,30 3,25,37 5,16,36 6,20,22 7,11,14 8,23,28,29 9,10,15,17 12,21,33 13,26,34 24,27,31
        0,10,11,18 1,20,35 2,19,32 3,5,31 4,26,37 6,17,36 7,21,23 8,12,15 9,24,29,30 13,22,33 14,27,34 16,25,28
        0,9,13 1,11,12,19 2,21,35 3,20,32 4,6,16 5,27,37 7,18,36 8,22,24 10,25,30,31 14,23,33 15,28,34 17,26,29
        0,29,34 1,10,14 2,12,13,20 3,22,35 4,21,32 5,7,17 6,28,37 8,19,36 9,23,25 11,16,26,31 15,24,33 18,27,30
        0,25,33 1,30,34 2,11,15 3,13,14,21 4,23,35 5,22,32 6,8,18 7,29,37 9,20,36 10,24,26 12,16,17,27 19,28,31
        0,3,12 1,26,33 2,31,34 4,14,15,22 5,24,35 6,23,32 7,9,19 8,30,37 10,21,36 11,25,27 13,17,18,28 16,20,29
        0,5,15,23 1,4,13 2,27,33 3,16,34 6,25,35 7,24,32 8,10,20 9,31,37 11,22,36 12,26,28 14,18,19,29 17,21,30
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_18 × 2 and 4 ∞), OR-Tools 9.15 CP-SAT, seed 0, 12.6 units",
        """
        0,5,18,34 1,2,9 3,7,22 4,30,36 6,12,29 8,11,35 10,32,38 13,33,37 14,28,39 15,17,27 16,19,23 20,25,26 21,24,31
        0,16,28 1,6,19,35 2,3,10 4,8,23 5,31,36 7,13,30 9,12,18 11,33,38 14,34,37 15,29,39 17,20,24 21,26,27 22,25,32
        0,21,25 1,17,29 2,7,18,20 3,4,11 5,9,24 6,32,36 8,14,31 10,13,19 12,34,38 15,35,37 16,30,39 22,27,28 23,26,33
        0,2,30 1,22,26 3,8,19,21 4,5,12 6,10,25 7,33,36 9,15,32 11,14,20 13,35,38 16,18,37 17,31,39 23,28,29 24,27,34
        0,32,39 1,3,31 2,23,27 4,9,20,22 5,6,13 7,11,26 8,34,36 10,16,33 12,15,21 14,18,38 17,19,37 24,29,30 25,28,35
        0,20,37 1,33,39 2,4,32 3,24,28 5,10,21,23 6,7,14 8,12,27 9,35,36 11,17,34 13,16,22 15,19,38 18,26,29 25,30,31
        0,12,35 1,21,37 2,34,39 3,5,33 4,25,29 6,11,22,24 7,8,15 9,13,28 10,18,36 14,17,23 16,20,38 19,27,30 26,31,32
        0,15,24 1,13,18 2,22,37 3,35,39 4,6,34 5,26,30 7,12,23,25 8,9,16 10,14,29 11,19,36 17,21,38 20,28,31 27,32,33
        0,22,38 1,16,25 2,14,19 3,23,37 4,18,39 5,7,35 6,27,31 8,13,24,26 9,10,17 11,15,30 12,20,36 21,29,32 28,33,34
        0,10,11 1,23,38 2,17,26 3,15,20 4,24,37 5,19,39 6,8,18 7,28,32 9,14,25,27 12,16,31 13,21,36 22,30,33 29,34,35
        0,3,27 1,11,12 2,24,38 4,16,21 5,25,37 6,20,39 7,9,19 8,29,33 10,15,26,28 13,17,32 14,22,36 18,30,35 23,31,34
        0,14,33 1,4,28 2,12,13 3,25,38 5,17,22 6,26,37 7,21,39 8,10,20 9,30,34 11,16,27,29 15,23,36 18,19,31 24,32,35
        0,6,23 1,15,34 2,5,29 3,13,14 4,26,38 7,27,37 8,22,39 9,11,21 10,31,35 12,17,28,30 16,24,36 18,25,33 19,20,32
        0,13,29,31 1,7,24 2,16,35 3,6,30 4,14,15 5,27,38 8,28,37 9,23,39 10,12,22 11,18,32 17,25,36 19,26,34 20,21,33
        0,26,36 1,14,30,32 2,8,25 3,17,18 4,7,31 5,15,16 6,28,38 9,29,37 10,24,39 11,13,23 12,19,33 20,27,35 21,22,34
        0,4,19 1,27,36 2,15,31,33 3,9,26 5,8,32 6,16,17 7,29,38 10,30,37 11,25,39 12,14,24 13,20,34 18,21,28 22,23,35
        0,7,17 1,5,20 2,28,36 3,16,32,34 4,10,27 6,9,33 8,30,38 11,31,37 12,26,39 13,15,25 14,21,35 18,23,24 19,22,29
        0,1,8 2,6,21 3,29,36 4,17,33,35 5,11,28 7,10,34 9,31,38 12,32,37 13,27,39 14,16,26 15,18,22 19,24,25 20,23,30
        """,
    ),
    (3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (2 base rounds over Z_5 × 5 and 1 ∞), OR-Tools 9.15 CP-SAT, seed 0, 2.2 units",
        """
        0,8,17,25 1,12,14 2,3,9 4,20,22 5,13,23,24 6,7,19 10,11,15 16,18,21
        0,5,10,16 1,15,19 2,4,11,24 3,18,22 6,8,23 7,14,17 9,13,20 12,21,25
        0,21,23 1,9,18,25 2,10,13 3,4,5 6,14,20,24 7,8,15 11,12,16 17,19,22
        0,3,12,20 1,6,11,17 2,15,16 4,19,23 5,14,21 7,9,24 8,10,18 13,22,25
        0,4,6 1,22,24 2,5,19,25 3,11,14 7,10,20,21 8,9,16 12,13,17 15,18,23
        0,15,24 1,4,13,21 2,7,12,18 3,16,17 5,8,20 6,10,22 9,11,19 14,23,25
        0,1,7 2,20,23 3,6,15,25 4,10,12 5,9,17 8,11,21,22 13,14,18 16,19,24
        0,2,14,22 1,16,20 3,8,13,19 4,17,18 5,12,15 6,9,21 7,11,23 10,24,25
        0,11,13 1,2,8 3,21,24 4,7,16,25 5,6,18 9,12,22,23 10,14,19 15,17,20
        0,18,19 1,3,10,23 2,17,21 4,9,14,15 5,7,22 6,13,16 8,12,24 11,20,25
        """,
    ),
    (3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (3 base rounds over Z_3 × 6 and 5 ∞), CaDiCaL 1.9.5, 47 s",
        """
        0,7,21 1,2,14,15 3,9,18 4,6,8,12 5,16,19 10,13,22 11,17,20
        0,8,10,11 1,3,4,16 2,13,20 5,9,21 6,14,19 7,17,22 12,15,18
        0,6,18 1,10,19 2,3,22 4,9,13,14 5,8,20 7,11,15,16 12,17,21
        0,2,12,16 1,8,21 3,17,19 4,10,18 5,6,7,13 9,15,20 11,14,22
        0,14,20 1,6,9,11 2,4,5,17 3,10,21 7,12,19 8,15,22 13,16,18
        0,4,22 1,7,18 2,11,19 3,6,20 5,10,12,14 8,9,16,17 13,15,21
        0,1,13,17 2,6,21 3,7,8,14 4,15,19 5,11,18 9,12,22 10,16,20
        0,3,5,15 1,12,20 2,7,9,10 4,11,21 6,16,22 8,13,19 14,17,18
        0,9,19 1,5,22 2,8,18 3,11,12,13 4,7,20 6,10,15,17 14,16,21
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (2 base rounds over Z_7 × 4 and 3 ∞), CaDiCaL 1.9.5, 126 s",
        """
        0,8,23,26 1,10,30 2,6,18 3,5,16 4,9,25 7,21,28 11,13,14 12,19,22 15,27,29 17,20,24
        0,14,28 1,8,12 2,3,27 4,7,29 5,11,15,20 6,21,26 9,10,22 13,18,19 16,24,25 17,23,30
        0,3,19 1,9,24,27 2,11,30 4,6,17 5,10,26 7,12,15 8,22,28 13,20,23 14,18,25 16,21,29
        0,22,27 1,15,28 2,9,13 3,4,21 5,8,29 6,12,14,16 7,19,20 10,11,23 17,25,26 18,24,30
        0,5,18 1,4,20 2,10,21,25 3,12,30 6,11,27 7,14,24 8,13,16 9,23,28 15,19,26 17,22,29
        0,13,15,17 1,21,23 2,16,28 3,7,10 4,5,22 6,9,29 8,14,20 11,12,24 18,26,27 19,25,30
        0,12,21 1,6,19 2,5,14 3,11,22,26 4,13,30 7,9,17 8,15,25 10,24,28 16,20,27 18,23,29
        0,10,29 1,7,16,18 2,22,24 3,17,28 4,8,11 5,6,23 9,14,15 12,13,25 19,21,27 20,26,30
        0,2,20 1,13,22 3,6,15 4,12,23,27 5,7,30 8,10,18 9,16,26 11,25,28 14,17,21 19,24,29
        0,6,24 1,11,29 2,8,17,19 3,23,25 4,18,28 5,9,12 7,13,26 10,15,16 14,27,30 20,21,22
        0,4,16 1,3,14 2,7,23 5,13,21,24 6,8,30 9,11,19 10,17,27 12,26,28 15,18,22 20,25,29
        0,1,25 2,12,29 3,9,18,20 4,24,26 5,19,28 6,10,13 7,8,27 11,16,17 14,22,23 15,21,30
        0,9,30 1,5,17 2,4,15 3,8,24 6,7,22,25 10,12,20 11,18,21 13,27,28 14,26,29 16,19,23
        0,7,11 1,2,26 3,13,29 4,10,14,19 5,25,27 6,20,28 8,9,21 12,17,18 15,23,24 16,22,30
        """,
    ),
}


#: table sizes of a round (sorted) → (the fewest rounds proved to need a repeat, how).
#: Each proof splits the question by the second round's class (up to relabelling)
#: and has a SAT solver refute every class; the README gives the command and times.
NONE_EXISTS: dict[tuple[int, ...], tuple[int, str]] = {
    (3, 3, 3, 4, 4): (6, "SAT: 8 classes of round 1 refuted by CaDiCaL 1.5.3, 133 s"),
    (3, 3, 3, 3, 3, 4): (
        8,
        "SAT: 486 graphs of the fours refuted by CaDiCaL 1.5.3, 1232 s;"
        " checked by CaDiCaL 1.9.5 on a second encoding and Glucose 4, 5122 s",
    ),
    (4, 4, 4, 4, 4): (6, "SAT: 1 class of round 1 refuted by CaDiCaL 1.5.3, 0.3 s"),
}


def proved_none(sizes: tuple[int, ...] | list[int], rounds: int) -> str | None:
    """How it was proved that ``rounds`` rounds of tables of ``sizes`` need a repeat, or ``None``.

    A proof for ``r`` rounds covers any number over ``r``: their first ``r``
    rounds would be a schedule without a repeat.

    >>> proved_none([4, 3, 3, 4, 3], 7)
    'SAT: 8 classes of round 1 refuted by CaDiCaL 1.5.3, 133 s'
    >>> proved_none([4, 3, 3, 4, 3], 5) is None
    True
    """
    fewest, how = NONE_EXISTS.get(tuple(sorted(sizes)), (None, ""))
    return how if fewest is not None and rounds >= fewest else None


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
