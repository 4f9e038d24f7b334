"""Schedules without a repeat found offline, for sizes no construction here reaches.

Some sizes with mixed tables have a schedule without a repeated meeting that
neither a design (:mod:`.designs`), a symmetric or developed schedule
(:mod:`.symmetric`) nor the search of a draw finds in the seconds a draw may
take. A longer search finds some of them once; like the published tables of
the social golfer problem, they are kept here as data and checked by the
tests (every round seats everyone once, no pair meets twice).

Each entry was found by ``tests/bench/find_schedules.py`` and records how:

* a compiled tabu search over whole schedules (the neighbourhood of
  :mod:`.search`), its seed and number of steps (20 × 7, 29 × 11), kept
  round by round in :data:`CATALOGUE`;
* base rounds developed over ``Z_g × L`` with points ∞ (the shape of
  :func:`.symmetric.developed_schedule`), kept as their base rounds in
  :data:`DEVELOPED` and shifted here into the whole schedule:

  - CP-SAT with a budget a draw cannot spend (38 × 16 and 40 × 18, at the
    counting bound, took 8 and 13 units where a draw gives a shape 6; two
    base rounds for 26 × 10 over ``Z_5 × 5`` and one ∞, 2.2 units);
  - CaDiCaL (``--sat``: the same shape, told what the count of pairs forces
    at the bound, on which CP-SAT had run out of budget): 23 × 9 over three
    base rounds of ``Z_3 × 6`` and 5 ∞, and 31 × 14 over two of
    ``Z_7 × 4`` and 3 ∞, every pair but the ∞'s meeting exactly once; over
    40 players one base round over ``Z_R × 2`` at the bound of 44 × 19,
    46 × 21, 47 × 21, 49 × 23 and 50 × 22 (and so every round count
    under it: 47 × 20 and 49 × 22 had been left with repeats too).

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

__all__ = ["CATALOGUE", "DEVELOPED", "NONE_EXISTS", "catalogued_schedule", "proved_none"]

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

#: table sizes of a round (sorted) → (how it was found, (g, L, F), one line per base round):
#: the players are ``x + g · level`` for ``x`` in Z_g and ``level < L``, then ``F`` points ∞;
#: round ``h · B + i`` (``B`` base rounds) is base round ``i`` with every ``x`` shifted by ``h``.
DEVELOPED: dict[tuple[int, ...], tuple[str, tuple[int, int, int], str]] = {
    (3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (3 base rounds over Z_3 × 6 and 5 ∞), CaDiCaL 1.9.5, 36.1 s of CPU",
        (3, 6, 5),
        """
        0,7,21 1,2,14,15 3,9,18 4,6,8,12 5,16,19 10,13,22 11,17,20
        0,8,10,11 1,3,4,16 2,13,20 5,9,21 6,14,19 7,17,22 12,15,18
        0,6,18 1,10,19 2,3,22 4,9,13,14 5,8,20 7,11,15,16 12,17,21
        """,
    ),
    (3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (2 base rounds over Z_5 × 5 and 1 ∞), OR-Tools 9.15 CP-SAT, seed 0, 2.2 units",
        (5, 5, 1),
        """
        0,8,17,25 1,12,14 2,3,9 4,20,22 5,13,23,24 6,7,19 10,11,15 16,18,21
        0,5,10,16 1,15,19 2,4,11,24 3,18,22 6,8,23 7,14,17 9,13,20 12,21,25
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (2 base rounds over Z_7 × 4 and 3 ∞), CaDiCaL 1.9.5, 96.1 s of CPU",
        (7, 4, 3),
        """
        0,8,23,26 1,10,30 2,6,18 3,5,16 4,9,25 7,21,28 11,13,14 12,19,22 15,27,29 17,20,24
        0,14,28 1,8,12 2,3,27 4,7,29 5,11,15,20 6,21,26 9,10,22 13,18,19 16,24,25 17,23,30
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_16 × 2 and 6 ∞), OR-Tools 9.15 CP-SAT, seed 0, 8.4 units",
        (16, 2, 6),
        """
        0,1,6,24 2,5,14 3,28,33 4,17,34 7,26,35 8,25,32 9,11,21 10,16,37 12,23,36 13,27,29 15,19,20,30 18,22,31
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_18 × 2 and 4 ∞), OR-Tools 9.15 CP-SAT, seed 0, 12.6 units",
        (18, 2, 4),
        """
        0,5,18,34 1,2,9 3,7,22 4,30,36 6,12,29 8,11,35 10,32,38 13,33,37 14,28,39 15,17,27 16,19,23 20,25,26 21,24,31
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_19 × 2 and 6 ∞), CaDiCaL 1.9.5, 24.7 s of CPU",
        (19, 2, 6),
        """
        0,19,38 1,16,22 2,32,35 3,20,40 4,30,42 5,29,43 6,34,39 7,13,14 8,23,41 9,18,21 10,28,33 11,27,31 12,15,17,25 24,26,36,37
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_21 × 2 and 4 ∞), CaDiCaL 1.9.5, 13.4 s of CPU",
        (21, 2, 4),
        """
        0,21,42 1,3,11 2,5,6 4,28,38,41 7,14,33 8,17,37 9,26,32 10,15,25 12,39,40 13,31,35 16,27,45 18,30,43 19,23,44 20,29,34 22,24,36
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_21 × 2 and 5 ∞), CaDiCaL 1.9.5, 9.7 s of CPU",
        (21, 2, 5),
        """
        0,21,42 1,12,29 2,6,36 3,4,10 5,7,27 8,13,16,31 9,33,38,41 11,20,30 14,26,46 15,40,45 17,22,23 18,32,43 19,35,44 24,28,34 25,37,39
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_23 × 2 and 3 ∞), CaDiCaL 1.9.5, 10.9 s of CPU",
        (23, 2, 3),
        """
        0,23,46 1,4,28,33 2,3,16 5,7,13 6,10,27 8,15,20 9,24,40 11,41,44 12,31,48 14,32,47 17,29,42 18,34,38 19,30,45 21,26,43 22,35,36 25,37,39
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_22 × 2 and 6 ∞), CaDiCaL 1.9.5, 24.7 s of CPU",
        (22, 2, 6),
        """
        0,22,44 1,10,13 2,8,31,32 3,4,21 5,7,25,39 6,14,41 9,16,37 11,28,45 12,26,46 15,24,49 17,33,43 18,29,48 19,34,38 20,23,47 27,30,36 35,40,42
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
    if key not in CATALOGUE and key not in DEVELOPED:
        return None
    schedule = _parsed(key)
    if len(schedule) < rounds:
        return None
    how = CATALOGUE[key][0] if key in CATALOGUE else DEVELOPED[key][0]
    return [list(r) for r in schedule], how


@cache
def _parsed(key: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    if key in CATALOGUE:
        return _rounds(CATALOGUE[key][1])
    _, (g, levels, _fixed), text = DEVELOPED[key]
    return developed(_rounds(text), g, levels)


def _rounds(text: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    lines = [line.split() for line in text.strip().splitlines()]
    return tuple(tuple(tuple(int(x) for x in t.split(",")) for t in line) for line in lines)


def developed(bases, g: int, levels: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The ``g · len(bases)`` rounds of base rounds over ``Z_g × levels`` (∞ numbered last).

    Round ``h · B + i`` is base round ``i`` with player ``x + g · level``
    moved to ``(x + h) mod g + g · level``; the ∞ stay. Tables sorted.

    >>> for r in developed([[(0, 3, 6), (1, 2, 4, 5)]], 3, 2):  # Z_3 × 2 and one ∞ (6)
    ...     print(r)
    ((0, 3, 6), (1, 2, 4, 5))
    ((0, 2, 3, 5), (1, 4, 6))
    ((0, 1, 3, 4), (2, 5, 6))
    """

    def shifted(p: int, h: int) -> int:
        return p if p >= g * levels else (p % g + h) % g + g * (p // g)

    return tuple(
        tuple(sorted(tuple(sorted(shifted(p, h) for p in t)) for t in base))
        for h in range(g)
        for base in bases
    )
