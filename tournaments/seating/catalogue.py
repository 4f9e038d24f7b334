"""Schedules without a repeat found offline, for sizes no construction here reaches.

Longer than the package's other modules because it is data: :data:`DEVELOPED` alone is some
430 lines of base rounds, kept beside the 60 lines of code that read them.

Some sizes with mixed tables have a schedule without a repeated meeting that
neither a design (:mod:`.designs`), a symmetric or developed schedule
(:mod:`.symmetric`) nor the search of a draw finds in the seconds a draw may
take. A longer search finds some of them once; like the published tables of
the social golfer problem, they are kept here as data and checked by the
tests (every round seats everyone once, no pair meets twice).

Each entry was found by ``tests/seating_catalogue/find_schedules.py`` and records how:

* a compiled tabu search over whole schedules (the neighbourhood of
  :mod:`.search`), its seed and number of steps (20 × 7), kept round by
  round in :data:`CATALOGUE`;
* base rounds developed over ``Z_g × L`` with points ∞ (the shape of
  :func:`.symmetric.developed_schedule`), kept as their base rounds in
  :data:`DEVELOPED` and shifted here into the whole schedule:

  - CP-SAT with a budget a draw cannot spend (38 × 16 and 40 × 18, at the
    counting bound, took 8 and 13 units where a draw gives a shape 6; two
    base rounds for 26 × 10 over ``Z_5 × 5`` and one ∞, 2.2 units);
  - CaDiCaL (``--sat``: the same shape, told what the count of pairs forces
    at the bound, on which CP-SAT had run out of budget): 23 × 9 over three
    base rounds of ``Z_3 × 6`` and 5 ∞, and 31 × 14 over two of
    ``Z_7 × 4`` and 3 ∞, every pair but the ∞'s meeting exactly once; and
    for every count of 41 to 91 players with a table of four, the first
    shape that answered within 300 s (``--near-bound``): at the counting
    bound, or one round under it for 77 and 91; mostly one base round
    over ``Z_R × 2``; past 91, the same shape run one count at a time for
    longer than the sweep's 300 s gives every count at the bound (92 × 43 in
    2123 s, 94 × 45 in 311 s, 95 × 45 in 175 s, 97 × 47 in 1184 s, 98 × 46
    in 378 s, 100 × 48 in 786 s). 43 × 20 and
    79 × 38 (one four a round, the kind of 19 × 8 and 31 × 14) took four
    base rounds over ``Z_5 × 8`` and 3 ∞, 363 s, and two over ``Z_19 × 4``
    and 3 ∞, 623 s. Before,
    the draw left 13–36 repeats at or next to the bound of 41–50;
  - 29 × 12, at the counting bound, over ``Z_9 × 3`` and 2 ∞: one base round
    shifted 9 times and one round that 3 shifts keep (∞ at a four with a
    third of a level), shifted 3 times (``--invariant``, 1–2 s). No shape
    with base rounds alone had answered in hours; the tabu search stopped
    at 11 repeats (its 29 × 11 entry is gone: these rounds serve 11 too);
  - threes only, where :func:`.designs.triple_design` runs out of budget
    though a Kirkman (≡ 3 mod 6) or nearly Kirkman (≡ 0 mod 6) schedule
    exists: one base round over ``Z_R × 2`` with 2 ∞ (NKTS(78), (84)),
    two over ``Z_17 × 4`` and 1 ∞ for KTS(69). KTS(75) and KTS(87), found
    the same way, are gone: :mod:`.designs` builds them now, with 93 and 99,
    in under a second (a draw of 75 × 37 had left 69 repeats in 132 s
    before either); so is NKTS(90), which it builds from five groups;
  - fours only, where :func:`.designs.turned_fours` needs more steps than a
    draw's budget: the designs of fours at the counting bound of 60, 72, 76,
    80, 84, 88, 96 and 100 players (a base round over ``Z_g × 3`` and one,
    two or three ∞ that turning the levels keeps), found by the same search
    from another seed (``find_schedules.py --turned``); and, a round under
    the bound where that search has none, one base round over ``Z_g × 3``
    and 5 ∞ from CaDiCaL (``--developed g,3,5 --sat``): 68 × 21 (no μ in Z_22);
    92 × 29 (Z_29 and Z_30 have no μ either) over ``Z_28 × 3`` and 8 ∞, a base
    round that the turn by μ = 9 keeps, two ∞ fixed and six moved round in
    threes, and one round more, seated once, of pairs its 28 shifts leave
    (``--turned --sat --extra 1``, ``tests/seating_catalogue/sat_turned.py``).
    The entries for 52 × 16 and 44 × 13 found by CaDiCaL, and 56's, are gone:
    44, 52 and 56 are built at the draw, all 14, 17 and 18 rounds.

An entry whose record ends "sat_developed.py of <commit>" was found by the SAT
model as it was at that commit (its clause order, which decides what CaDiCaL
returns, changed after); ``find_schedules.py`` at that commit finds it again.

A schedule's first rounds serve any shorter event, and the planner relabels
the players by the draw's seed (:mod:`.planning`), so the stored numbering is
never what players see.

The other answer is kept too: :data:`NONE_EXISTS` lists sizes proved offline
to have no schedule without a repeat: by ``tests/seating_catalogue/prove_schedules.py``
(round 1 split into classes) or, for one four a round at the counting bound,
``tests/seating_catalogue/prove_fours_first.py`` (the fours split by the graph they form
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
}

#: table sizes of a round (sorted) → (how it was found, (g, L, F), one line per base round):
#: the players are ``x + g · level`` for ``x`` in Z_g and ``level < L``, then ``F`` points ∞;
#: round ``h · B + i`` (``B`` base rounds) is base round ``i`` with every ``x`` shifted by ``h``.
#: A shape ``(g, L, F, K)`` ends with ``K`` lines of rounds that ``g / 3`` shifts keep: each
#: comes after the others, shifted ``0 … g / 3 - 1`` times. A shape ``(g, L, F, K, E)`` ends
#: with ``E`` lines more, rounds taken as they are (seated once, after all the others).
DEVELOPED: dict[tuple[int, ...], tuple[str, tuple[int, ...], str]] = {
    (3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (a base round and one that 3 shifts keep, over Z_9 × 3 and 2 ∞), "
        "CaDiCaL 1.9.5, 1.1 s of CPU",
        (9, 3, 2, 1),
        """
        0,9,27 1,13,14,22 2,4,10,20 3,8,23 5,18,28 6,7,17 11,24,25 12,16,19 15,21,26
        0,3,6 1,18,20 2,9,16 4,21,23 5,10,12 7,24,26 8,13,15 11,14,17,28 19,22,25,27
        """,
    ),
    (3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (3 base rounds over Z_3 × 6 and 5 ∞), CaDiCaL 1.9.5, 4.1 s of CPU",
        (3, 6, 5),
        """
        0,3,18 1,14,22 2,7,19 4,8,20 5,12,16,17 6,10,11,13 9,15,21
        0,15,20 1,7,12,13 2,3,4,10 5,14,21 6,9,18 8,17,22 11,16,19
        0,2,9,16 1,8,21 3,11,22 4,6,7,17 5,13,19 10,14,20 12,15,18
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
        "cyclic schedule (2 base rounds over Z_7 × 4 and 3 ∞), CaDiCaL 1.9.5, 0.4 s of CPU",
        (7, 4, 3),
        """
        0,7,28 1,3,4 2,11,23 5,8,22 6,16,24,26 9,10,15 12,14,30 13,17,21 18,27,29 19,20,25
        0,16,19 1,23,30 2,7,29 3,9,17 4,8,12,15 5,18,20 6,22,25 10,26,27 11,13,24 14,21,28
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
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (2 base rounds over Z_9 × 4 and 5 ∞), CaDiCaL 1.9.5, 4.5 s of CPU",
        (9, 4, 5),
        """
        0,9,36 1,2,12,14 3,6,8 4,20,28,32 5,10,22 7,19,29 11,35,39 13,21,40 15,27,33 16,18,38 17,34,37 23,24,26 25,30,31
        0,19,30,32 1,17,23 2,10,26 3,21,28 4,24,39 5,31,40 6,12,35 7,34,38 8,22,37 9,13,29 11,14,33 15,16,20,25 18,27,36
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (4 base rounds over Z_5 × 8 and 3 ∞), CaDiCaL 1.9.5, 363.3 s of CPU",
        (5, 8, 3),
        """
        0,5,40 1,8,16,17 2,3,14 4,12,18 6,11,21 7,30,31 9,19,23 10,13,24 15,20,26 22,29,36 25,34,38 27,28,37 32,35,41 33,39,42
        0,27,29 1,33,35 2,22,42 3,24,31 4,21,37 5,16,39 6,7,28 8,20,38 9,13,41 10,15,40 11,23,26,34 12,19,36 14,17,30 18,25,32
        0,10,28,34 1,24,41 2,19,21 3,7,39 4,5,17 6,9,31 8,11,27 12,13,38 14,36,37 15,29,35 16,26,42 18,30,33 20,25,40 22,23,32
        0,2,37 1,26,31 3,12,34 4,7,25 5,21,36,38 6,24,32 8,14,28 9,11,42 10,23,27 13,17,33 15,18,39 16,29,41 19,20,22 30,35,40
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_19 × 2 and 6 ∞), CaDiCaL 1.9.5, 4.3 s of CPU",
        (19, 2, 6),
        """
        0,19,38 1,21,39 2,6,35 3,27,37 4,14,22 5,17,26 7,30,33 8,25,43 9,31,41 10,15,16,18 11,36,42 12,23,24 13,29,40 20,28,32,34
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_21 × 2 and 4 ∞), CaDiCaL 1.9.5, 1.9 s of CPU",
        (21, 2, 4),
        """
        0,21,42 1,34,41 2,22,44 3,30,45 4,19,27 5,18,33 6,15,40 7,9,14 8,24,39 10,32,36 11,25,35 12,23,43 13,16,17 20,29,37,38 26,28,31
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_21 × 2 and 5 ∞), CaDiCaL 1.9.5, 0.3 s of CPU",
        (21, 2, 5),
        """
        0,21,42 1,23,25,31 2,4,8,27 3,38,43 5,6,14 7,10,17 9,35,44 11,22,45 12,39,40 13,26,29 15,20,32 16,24,36 18,28,33 19,37,46 30,34,41
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_23 × 2 and 3 ∞), CaDiCaL 1.9.5, 0.6 s of CPU",
        (23, 2, 3),
        """
        0,23,46 1,3,7 2,14,31,40 4,9,45 5,8,24 6,13,37 10,11,19 12,22,26 15,25,36 16,38,44 17,28,48 18,43,47 20,27,29 21,33,41 30,34,35 32,39,42
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_22 × 2 and 6 ∞), CaDiCaL 1.9.5, 5.7 s of CPU",
        (22, 2, 6),
        """
        0,22,44 1,11,19 2,4,7 3,34,36 5,14,31 6,26,45 8,24,37 9,15,16,30 10,29,46 12,42,49 13,38,41 17,35,40 18,28,47 20,25,32,33 21,23,48 27,39,43
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_24 × 2 and 4 ∞), CaDiCaL 1.9.5, 0.7 s of CPU",
        (24, 2, 4),
        """
        0,24,48 1,2,4 3,7,14 5,10,25 6,12,28 8,27,51 9,18,39 11,21,47 13,26,41 15,23,32,46 16,43,45 17,42,49 19,29,37 20,34,50 22,30,33 31,38,44 35,36,40
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_23 × 2 and 7 ∞), CaDiCaL 1.9.5, 1.5 s of CPU",
        (23, 2, 7),
        """
        0,23,46 1,34,42 2,20,22 3,15,29 4,14,26 5,33,47 6,36,51 7,31,50 8,16,17 9,13,28 10,30,52 11,24,40,45 12,44,48 18,39,43 19,27,49 21,25,37,38 32,35,41
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (2 base rounds over Z_13 × 4 and 3 ∞), CaDiCaL 1.9.5, 15.2 s of CPU",
        (13, 4, 3),
        """
        0,13,52 1,43,49 2,37,46 3,18,53 4,14,28 5,25,33 6,29,31 7,27,44 8,16,54 9,35,38 10,12,40 11,20,45,50 15,21,42 17,36,41 19,32,39 22,24,34 23,26,30 47,48,51
        0,16,19 1,4,31 2,3,11 5,12,50 6,20,37,38 7,18,47 8,25,44 9,21,30 10,15,43 13,17,28 14,22,40 23,24,46 26,39,52 27,32,42 29,36,48 33,41,54 34,45,53 35,49,51
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_25 × 2 and 6 ∞), CaDiCaL 1.9.5, 3.2 s of CPU",
        (25, 2, 6),
        """
        0,25,50 1,2,6 3,34,39,48 4,20,44,47 5,33,46 7,13,24 8,45,53 9,12,19 10,42,55 11,40,41 14,16,35 15,32,38 17,26,30 18,28,51 21,43,52 22,36,54 23,31,49 27,29,37
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_27 × 2 and 4 ∞), CaDiCaL 1.9.5, 6.3 s of CPU",
        (27, 2, 4),
        """
        0,27,54 1,7,31,43 2,37,42 3,16,18 4,12,33 5,46,52 6,9,40 8,13,30 10,17,28 11,20,36 14,15,25 19,29,57 21,49,53 22,26,45 23,35,55 24,50,56 32,34,48 38,39,47 41,44,51
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_27 × 2 and 5 ∞), CaDiCaL 1.9.5, 2.1 s of CPU",
        (27, 2, 5),
        """
        0,27,54 1,2,4 3,7,14 5,10,20 6,12,28 8,29,31 9,39,43 11,24,52 13,30,46 15,44,58 16,25,34,51 17,32,41 18,26,37,38 19,50,55 21,53,56 22,35,47 23,33,57 36,42,49 40,45,48
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_29 × 2 and 3 ∞), CaDiCaL 1.9.5, 12.7 s of CPU",
        (29, 2, 3),
        """
        0,29,58 1,3,6 2,13,55 4,19,39,51 5,41,59 7,8,14 9,34,54 10,44,60 11,27,50 12,24,45 15,25,53 16,42,46 17,26,57 18,22,30 20,28,47 21,36,43 23,37,40 31,33,52 32,38,56 35,48,49
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_28 × 2 and 6 ∞), CaDiCaL 1.9.5, 46.4 s of CPU",
        (28, 2, 6),
        """
        0,28,56 1,27,37 2,32,54 3,21,53 4,31,58 5,49,50 6,55,60 7,41,48 8,19,45 9,40,52 10,23,30 11,18,51 12,24,35 13,42,61 14,20,39 15,29,59 16,34,57 17,22,25,26 33,36,44,46 38,43,47
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_30 × 2 and 4 ∞), CaDiCaL 1.9.5, 1.2 s of CPU",
        (30, 2, 4),
        """
        0,30,60 1,4,18 2,31,47 3,7,12 5,6,40 8,28,44,56 9,42,62 10,16,33 11,23,55 13,21,34 14,38,51 15,26,37 17,48,59 19,58,61 20,27,46 22,24,32 25,52,63 29,49,54 35,36,57 39,41,45 43,50,53
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (2 base rounds over Z_15 × 4 and 5 ∞), CaDiCaL 1.9.5, 119.8 s of CPU",
        (15, 4, 5),
        """
        0,15,60 1,28,37,57 2,40,49,54 3,6,13 4,17,20 5,31,58 7,8,26 9,16,38 10,18,19 11,22,41 12,45,63 14,56,62 21,44,46 23,50,51 24,47,59 25,42,55 27,33,43 29,48,61 30,32,53 34,52,64 35,36,39
        0,20,29,40 1,34,56 2,33,39 3,46,54 4,25,64 5,50,59 6,41,61 7,9,13 8,36,52 10,37,44 11,28,43 12,47,58 14,24,38,48 15,42,62 16,18,26 17,35,63 19,32,51 21,31,57 22,53,55 23,27,49 30,45,60
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_31 × 2 and 5 ∞), CaDiCaL 1.9.5, 6.0 s of CPU",
        (31, 2, 5),
        """
        0,31,62 1,35,42 2,51,64 3,8,19 4,7,44,49 5,11,15 6,25,54 9,17,18 10,12,32 13,26,41 14,21,47 16,30,43 20,58,59 22,34,38 23,46,48 24,60,65 27,57,63 28,52,66 29,50,61 33,39,56 36,45,55 37,40,53
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_31 × 2 and 6 ∞), CaDiCaL 1.9.5, 70.1 s of CPU",
        (31, 2, 6),
        """
        0,31,62 1,19,21 2,42,64 3,18,55 4,36,54 5,24,41 6,48,53 7,51,63 8,34,38 9,26,30 10,17,39 11,35,50 12,40,65 13,58,67 14,60,66 15,33,56 16,49,59 20,23,28,29 22,45,57 25,32,52 27,47,61 37,43,44,46
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_33 × 2 and 4 ∞), CaDiCaL 1.9.5, 36.8 s of CPU",
        (33, 2, 4),
        """
        0,33,66 1,53,55 2,15,26 3,38,65 4,59,60 5,10,46 6,34,52 7,28,32 8,14,24 9,57,67 11,45,50 12,30,31 13,51,63 16,47,56 17,42,49 18,44,48,61 19,35,43 20,62,68 21,41,69 22,29,40 23,25,37 27,54,64 36,39,58
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_33 × 2 and 5 ∞), CaDiCaL 1.9.5, 6.4 s of CPU",
        (33, 2, 5),
        """
        0,33,66 1,7,49 2,5,36 3,11,12 4,14,18 6,26,62 8,19,38,63 9,30,35 10,17,45,64 13,15,31 16,21,34 20,44,59 22,51,69 23,40,60 24,65,67 25,37,70 27,43,52 28,48,55 29,61,68 32,39,42 41,53,58 46,47,57 50,54,56
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_35 × 2 and 3 ∞), CaDiCaL 1.9.5, 16.1 s of CPU",
        (35, 2, 3),
        """
        0,35,70 1,2,8 3,5,22 4,7,27 6,40,72 9,13,52 10,34,54,60 11,19,68 12,17,42 14,28,66 15,25,46 16,29,62 18,36,37 20,47,61 21,53,58 23,51,63 24,33,69 26,39,49 30,59,71 31,38,55 32,44,48 41,50,57 43,45,65 56,64,67
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_34 × 2 and 6 ∞), CaDiCaL 1.9.5, 103.7 s of CPU",
        (34, 2, 6),
        """
        0,34,68 1,4,45,55 2,3,51,60 5,17,64 6,58,61 7,37,39 8,41,70 9,28,30 10,47,71 11,25,29 12,19,38 13,40,53 14,36,72 15,65,69 16,24,59 18,49,56 20,48,66 21,26,32 22,31,67 23,33,62 27,35,73 42,50,54 43,44,63 46,52,57
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_36 × 2 and 4 ∞), CaDiCaL 1.9.5, 48.1 s of CPU",
        (36, 2, 4),
        """
        0,36,72 1,9,64 2,13,43 3,12,49 4,5,35 6,21,37 7,29,63,68 8,51,74 10,27,38 11,14,24 15,22,57 16,20,32 17,61,71 18,66,73 19,52,59 23,25,46 26,41,55 28,60,75 30,54,56 31,53,69 33,42,50 34,47,48 39,45,62 40,44,65 58,67,70
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_35 × 2 and 7 ∞), CaDiCaL 1.9.5, 183.4 s of CPU",
        (35, 2, 7),
        """
        0,35,70 1,40,44 2,16,29,47 3,4,6 5,20,64 7,31,58 8,17,33 9,46,76 10,65,68 11,37,71 12,54,60 13,25,30 14,42,52 15,21,51 18,59,67 19,38,72 22,62,74 23,56,57,69 24,28,53 26,41,48 27,39,73 32,49,75 34,55,66 36,45,50 43,61,63
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (2 base rounds over Z_19 × 4 and 3 ∞), CaDiCaL 1.9.5, 622.7 s of CPU",
        (19, 4, 3),
        """
        0,19,76 1,10,72 2,9,24 3,5,43,46 4,29,77 6,20,37 7,28,67 8,52,56 11,14,60 12,30,73 13,23,41 15,48,69 16,36,51 17,33,54 18,22,66 21,50,61 25,26,34 27,32,40 31,45,62 35,44,78 38,39,47 42,70,71 49,64,75 53,57,59 55,58,63 65,68,74
        0,4,36 1,43,56 2,28,47 3,16,17 5,33,55 6,45,65 7,15,62 8,40,72 9,20,67 10,66,78 11,19,64 12,39,46 13,63,70 14,44,58 18,23,69 21,41,59 22,34,71,75 24,49,54 25,48,60 26,30,42 27,51,53 29,32,61 31,37,73 35,52,68 38,57,76 50,74,77
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_37 × 2 and 6 ∞), CaDiCaL 1.9.5, 47.5 s of CPU",
        (37, 2, 6),
        """
        0,37,74 1,71,78 2,51,56 3,7,42 4,5,25,63 6,20,73 8,19,65 9,21,69 10,29,39 11,35,66 12,34,40 13,64,75 14,38,54 15,17,24 16,48,77 18,59,60 22,32,47 23,50,68 26,62,70 27,61,79 28,33,36 30,49,76 31,44,57 41,45,67 43,46,53,55 52,58,72
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_39 × 2 and 4 ∞), CaDiCaL 1.9.5, 222.9 s of CPU",
        (39, 2, 4),
        """
        0,39,78 1,23,68 2,17,25 3,38,49,55 4,14,40 5,31,75 6,47,63 7,12,13 8,11,20 9,30,46 10,24,53 15,22,73 16,35,50 18,29,56 19,66,80 21,74,81 26,28,58 27,48,52 32,54,72 33,42,43 34,67,76 36,59,71 37,57,79 41,70,77 44,61,69 45,60,65 51,62,64
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_39 × 2 and 5 ∞), CaDiCaL 1.9.5, 168.1 s of CPU",
        (39, 2, 5),
        """
        0,39,78 1,4,13 2,37,40,72 3,14,59,71 5,7,15 6,12,25 8,9,31 10,17,54 11,16,57 18,36,48 19,34,45 20,56,79 21,46,69 22,41,82 23,44,66 24,38,58 26,53,73 27,51,76 28,61,81 29,42,43 30,52,70 32,47,55 33,49,80 35,63,67 50,60,65 62,64,75 68,74,77
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_41 × 2 and 3 ∞), CaDiCaL 1.9.5, 257.3 s of CPU",
        (41, 2, 3),
        """
        0,41,82 1,11,16 2,25,62 3,4,75 5,49,51 6,9,64 7,13,40 8,15,58 10,22,71,78 12,48,59 14,35,68 17,19,36 18,47,83 20,33,44 21,56,72 23,39,57 24,45,81 26,37,65 27,31,53 28,66,76 29,38,61 30,55,70 32,74,77 34,46,84 42,63,69 43,52,60 50,54,73 67,79,80
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_40 × 2 and 6 ∞), CaDiCaL 1.9.5, 172.3 s of CPU",
        (40, 2, 6),
        """
        0,40,80 1,14,18 2,56,85 3,12,74 4,39,52 5,13,24 6,63,70 7,29,68 8,9,33 10,20,48,54 11,17,47 15,27,50,73 16,43,71 19,22,64 21,35,72 23,30,49 25,41,84 26,78,81 28,75,77 31,51,60 32,65,82 34,44,59 36,38,79 37,69,83 42,55,58 45,53,67 46,57,76 61,62,66
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_42 × 2 and 4 ∞), CaDiCaL 1.9.5, 253.1 s of CPU",
        (42, 2, 4),
        """
        0,42,84 1,55,72 2,46,49 3,21,36 4,24,80 5,62,70 6,8,12 7,19,43 9,22,32 10,26,51,56 11,14,28 13,20,75 15,60,67 16,17,76 18,29,61 23,44,74 25,30,58 27,35,66 31,57,79 33,71,73 34,53,69 37,64,86 38,54,87 39,50,85 40,47,48 41,63,78 45,77,81 52,65,83 59,68,82
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (2 base rounds over Z_21 × 4 and 5 ∞), CaDiCaL 1.9.5, 146.3 s of CPU",
        (21, 4, 5),
        """
        0,21,84 1,4,54 2,59,69 3,36,41 5,77,79 6,37,83 7,25,29 8,23,43 9,35,42 10,67,87 11,53,71 12,50,56 13,60,74 14,22,44 15,31,39 16,62,63 17,24,51 18,72,82 19,78,85 20,26,40 27,64,88 28,38,70 30,32,48,80 33,34,46 45,58,73 47,66,86 49,75,76 52,55,68 57,61,65,81
        0,8,9 1,5,11 2,7,21,50 3,10,76 4,6,36,69 12,49,82 13,58,88 14,45,83 15,70,77 16,55,57 17,67,75 18,41,86 19,23,32 20,48,60 22,66,78 24,62,64 25,68,72 26,51,81 27,30,79 28,34,73 29,65,80 31,54,61 33,71,74 35,46,56 37,47,87 38,52,53 39,44,85 40,43,59 42,63,84
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4): (
        "cyclic schedule (Z_43 × 2 and 5 ∞), CaDiCaL 1.9.5, 238.7 s of CPU",
        (43, 2, 5),
        """
        0,43,86 1,2,13,81 3,12,26 4,8,21 5,7,15 6,9,27 10,37,84 11,17,66 14,33,72 16,48,70 18,68,88 19,34,67 20,25,44 22,45,73 23,53,76 24,31,51 28,63,80 29,55,74 30,58,87 32,46,50 35,56,69 36,49,65 38,54,60 39,77,79 40,57,82 41,85,90 42,83,89 47,52,59 61,62,71 64,75,78
        """,
    ),
    (3,) * 30 + (4,): (
        "cyclic schedule (Z_45 × 2 and 4 ∞), CaDiCaL 1.9.5, 311.0 s of CPU",
        (45, 2, 4),
        """
        0,45,90 1,22,48,66 2,12,60 3,4,20 5,35,71 6,29,52 7,50,64 8,28,40 9,49,72 10,59,63 11,30,65 13,44,54 14,17,51 15,19,89 16,77,83 18,27,46 21,39,53 23,56,93 24,55,74 25,33,85 26,37,88 31,87,91 32,38,62 34,36,41 42,69,84 43,81,92 47,76,79 57,67,68 58,78,86 61,70,82 73,75,80
        """,
    ),
    (3,) * 29 + (4, 4): (
        "cyclic schedule (Z_45 × 2 and 5 ∞), CaDiCaL 1.9.5, 175.2 s of CPU",
        (45, 2, 5),
        """
        0,45,90 1,24,82 2,30,37 3,28,63 4,52,77 5,58,91 6,22,53 7,31,86 8,13,54 9,21,87 10,29,40 11,43,83 12,26,50 14,32,51 15,23,67 16,20,70 17,49,80 18,27,89 19,84,93 25,55,68 33,35,36,47 34,73,76,85 38,44,60 39,88,92 41,64,66 42,71,94 46,74,75 48,56,78 57,62,81 59,65,69 61,72,79
        """,
    ),
    (3,) * 30 + (4, 4): (
        "cyclic schedule (Z_46 × 2 and 6 ∞), CaDiCaL 1.9.5, 378.1 s of CPU",
        (46, 2, 6),
        """
        0,46,92 1,3,27,85 2,6,31 4,7,18 5,11,91 8,13,26 9,24,25 10,19,29 12,68,75,78 14,21,82 15,23,50 16,28,67 17,69,71 20,73,77 22,55,87 30,60,79 32,76,95 33,61,81 34,59,84 35,51,66 36,49,96 37,58,74 38,64,97 39,63,80 40,54,72 41,70,83 42,65,89 43,52,86 44,62,93 45,90,94 47,53,88 48,56,57
        """,
    ),
    (3,) * 32 + (4,): (
        "cyclic schedule (Z_48 × 2 and 4 ∞), CaDiCaL 1.9.5, 786.4 s of CPU",
        (48, 2, 4),
        """
        0,48,96 1,3,14 2,25,56 4,5,35 6,79,93 7,12,16 8,55,65 9,15,78 10,17,91 11,40,95 13,45,57 18,21,33 19,29,80 20,41,61,76 22,44,87 23,43,85 24,64,90 26,75,99 27,49,77 28,73,86 30,58,98 31,60,97 32,46,70 34,42,53 36,63,68 37,71,74 38,54,84 39,62,69 47,51,52 50,82,94 59,67,88 66,72,89 81,83,92
        """,
    ),
    (3,) * 31 + (4,): (
        "cyclic schedule (Z_47 × 2 and 3 ∞), CaDiCaL 1.9.5, 1184.3 s of CPU",
        (47, 2, 3),
        """
        0,47,94 1,3,25 2,28,29 4,15,89 5,11,61 6,16,93 7,10,26 8,23,78 9,22,67 12,84,88 13,46,64,72 14,63,75 17,24,92 18,27,80 19,36,90 20,38,77 21,33,52 30,34,66 31,51,68 32,49,54 35,43,48 37,79,96 39,44,87 40,73,74 41,57,76 42,83,86 45,91,95 50,59,70 53,71,85 55,65,81 56,62,69 58,60,82
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4): (
        "cyclic schedule (Z_43 × 2 and 6 ∞), CaDiCaL 1.9.5, 2122.9 s of CPU",
        (43, 2, 6),
        """
        0,43,86 1,20,65 2,15,69 3,14,23 4,7,83 5,54,64,70 6,24,72 8,10,79 9,16,53 11,17,33 12,29,47,85 13,18,71 19,27,58 21,55,76 22,36,37 25,63,75 26,66,73 28,40,48 30,49,62 31,45,90 32,84,88 34,51,89 35,77,91 38,42,67 39,80,87 41,44,68 46,50,78 52,61,81 56,74,82 57,59,60
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3): (
        "cyclic schedule (Z_38 × 2 and 2 ∞), CaDiCaL 1.9.5, 86.6 s of CPU",
        (38, 2, 2),
        """
        0,38,76 1,5,8 2,16,62 3,14,44 4,10,12 6,11,23 7,20,63 9,18,53 13,28,39 15,25,48 17,37,56 19,35,50 21,49,55 22,67,70 24,40,64 26,46,58 27,54,74 29,30,42 31,52,73 32,69,77 33,47,57 34,51,59 36,65,72 41,43,68 45,60,61 66,71,75
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3): (
        "cyclic schedule (Z_41 × 2 and 2 ∞), CaDiCaL 1.9.5, 41.3 s of CPU",
        (41, 2, 2),
        """
        0,41,82 1,10,62 2,7,67 3,14,28 4,11,23 5,26,77 6,24,70 8,25,47 9,15,19 12,20,69 13,45,56 16,31,52 17,18,76 21,51,83 22,50,55 27,40,54 29,58,64 30,42,43 32,57,74 33,36,80 34,68,72 35,37,44 38,53,75 39,65,79 46,71,78 48,63,66 49,59,61 60,73,81
        """,
    ),
    (3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3): (
        "cyclic schedule (2 base rounds over Z_17 × 4 and 1 ∞), CaDiCaL 1.9.5, 901.8 s of CPU",
        (17, 4, 1),
        """
        0,17,68 1,6,36 2,5,51 3,7,44 4,28,37 8,47,52 9,43,62 10,60,65 11,34,59 12,26,50 13,41,45 14,40,53 15,33,66 16,24,35 18,48,49 19,25,42 20,21,39 22,27,57 23,38,61 29,54,56 30,46,64 31,63,67 32,55,58
        0,21,23 1,2,11 3,5,67 4,30,58 6,12,64 7,20,66 8,27,37 9,19,40 10,32,35 13,24,33 14,29,41 15,31,55 16,28,59 17,42,56 18,22,25 26,48,63 34,51,68 36,46,57 38,49,65 39,44,47 43,45,52 50,53,62 54,60,61
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "resolvable design of fours, every player missing two others (a base round that turning the levels keeps, over Z_19 × 3 and 3 ∞), designs.turned_fours, seed 1, 772,244 steps, 8 s of CPU",
        (19, 3, 3),
        """
        0,22,51,57 13,19,41,58 3,32,38,59 1,5,12,53 15,20,24,31 34,39,43,50 11,14,16,29 30,33,35,48 10,49,52,54 2,28,42,55 4,17,21,47 9,23,36,40 8,18,44,45 6,7,27,37 25,26,46,56
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "cyclic schedule (Z_21 × 3 and 5 ∞), CaDiCaL 1.9.5, 420.1 s of CPU",
        (21, 3, 5),
        """
        0,21,42,63 1,18,52,59 2,3,14,31 4,10,17,49 5,7,39,61 6,9,25,33 8,26,60,64 11,23,47,67 12,35,55,58 13,38,57,66 15,37,53,62 16,43,45,56 19,24,28,34 20,40,48,65 22,27,36,54 29,30,32,44 41,46,50,51
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "resolvable design of fours, every player missing two others (a base round that turning the levels keeps, over Z_23 × 3 and 3 ∞), designs.turned_fours, seed 1, 108,699 steps, 1 s of CPU",
        (23, 3, 3),
        """
        0,28,61,69 15,23,51,70 5,38,46,71 1,22,31,40 24,45,54,63 8,17,47,68 11,53,58,59 7,12,13,34 30,35,36,57 2,27,37,56 10,25,50,60 4,14,33,48 16,20,49,65 3,19,39,43 26,42,62,66 6,18,21,32 29,41,44,55 9,52,64,67
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "resolvable design of fours (a base round that turning the levels keeps, over Z_25 × 3 and 1 ∞), designs.turned_fours, seed 1, 1,802,493 steps, 46 s of CPU",
        (25, 3, 1),
        """
        0,25,50,75 1,27,28,36 26,52,53,61 2,3,11,51 6,39,45,49 31,64,70,74 14,20,24,56 8,29,40,60 10,33,54,65 4,15,35,58 21,23,34,68 18,46,48,59 9,43,71,73 5,12,17,63 13,30,37,42 38,55,62,67 7,44,47,66 16,32,69,72 19,22,41,57
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "resolvable design of fours, every player missing one other (a base round that turning the levels keeps, over Z_26 × 3 and 2 ∞), designs.turned_fours, seed 2, 1,933,373 steps, 33 s of CPU",
        (26, 3, 2),
        """
        10,30,64,78 14,42,74,79 0,4,19,59 21,26,31,38 37,52,62,67 6,15,16,77 23,44,45,48 43,54,57,66 18,24,50,71 5,28,46,72 8,41,58,60 2,7,25,36 32,47,49,56 12,63,69,70 20,29,39,68 22,34,61,65 1,13,40,76 3,27,33,75 17,35,55,73 9,11,51,53
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "resolvable design of fours, every player missing two others (a base round that turning the levels keeps, over Z_27 × 3 and 3 ∞), designs.turned_fours, seed 1, 126,797 steps, 2 s of CPU",
        (27, 3, 3),
        """
        0,48,55,81 1,27,75,82 21,28,54,83 3,19,34,62 8,30,46,61 7,35,57,73 10,11,15,29 37,38,42,56 2,64,65,69 13,20,26,43 40,47,53,70 16,67,74,80 18,31,60,63 6,9,45,58 4,33,36,72 17,25,41,50 44,52,68,77 14,23,71,79 12,22,24,32 39,49,51,59 5,66,76,78
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "resolvable design of fours (a base round that turning the levels keeps, over Z_29 × 3 and 1 ∞), designs.turned_fours, seed 11, 1,641,402 steps, 47 s of CPU",
        (29, 3, 1),
        """
        0,29,58,87 1,23,27,54 30,52,56,83 25,59,81,85 9,32,49,79 21,38,61,78 3,20,50,67 17,39,71,84 13,26,46,68 10,42,55,75 11,19,63,64 5,6,40,48 34,35,69,77 4,15,41,43 33,44,70,72 12,14,62,73 24,31,36,45 53,60,65,74 2,7,16,82 22,28,37,47 51,57,66,76 8,18,80,86
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "cyclic schedule (a base round that turning the levels keeps, over Z_28 × 3 and 8 ∞, "
        "and 1 round of the pairs its shifts leave), CaDiCaL 1.9.5, 44.8 s of CPU",
        (28, 3, 8, 0, 1),
        """
        0,28,56,84 25,29,65,85 22,39,72,86 4,30,71,87 23,36,74,88 1,47,70,89 14,37,59,90 27,42,81,91 6,18,48,82 10,50,54,68 24,34,58,66 8,57,61,67 9,15,17,44 41,51,53,60 11,20,21,45 40,43,49,69 5,77,79,80 12,31,32,75 3,52,64,83 16,19,55,76 33,38,46,63 7,62,73,78 2,13,26,35
        0,7,14,21 1,8,15,22 2,9,16,23 3,10,17,24 4,11,18,25 5,12,19,26 6,13,20,27 28,35,42,49 29,36,43,50 30,37,44,51 31,38,45,52 32,39,46,53 33,40,47,54 34,41,48,55 56,63,70,77 57,64,71,78 58,65,72,79 59,66,73,80 60,67,74,81 61,68,75,82 62,69,76,83 84,86,87,88 85,89,90,91
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "resolvable design of fours, every player missing two others (a base round that turning the levels keeps, over Z_31 × 3 and 3 ∞), designs.turned_fours, seed 4, 711,957 steps, 11 s of CPU",
        (31, 3, 3),
        """
        0,49,87,93 25,31,80,94 18,56,62,95 2,15,59,78 16,33,46,90 28,47,64,77 4,70,74,86 8,12,24,35 39,43,55,66 6,9,38,63 1,37,40,69 7,32,68,71 20,22,29,30 51,53,60,61 82,84,91,92 13,27,65,85 3,23,44,58 34,54,75,89 21,36,41,81 19,52,67,72 5,10,50,83 26,42,48,76 14,57,73,79 11,17,45,88
        """,
    ),
    (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): (
        "resolvable design of fours (a base round that turning the levels keeps, over Z_33 × 3 and 1 ∞), designs.turned_fours, seed 11, 692,638 steps, 24 s of CPU",
        (33, 3, 1),
        """
        0,33,66,99 1,42,48,53 34,75,81,86 9,15,20,67 2,47,90,98 24,32,35,80 14,57,65,68 4,8,25,38 37,41,58,71 5,70,74,91 7,60,61,63 40,93,94,96 27,28,30,73 13,31,62,88 22,46,64,95 29,55,79,97 3,17,26,87 21,36,50,59 54,69,83,92 6,19,56,78 12,39,52,89 23,45,72,85 10,49,77,84 11,18,43,82 16,44,51,76
        """,
    ),
}


#: table sizes of a round (sorted) → (the fewest rounds proved to need a repeat, how).
#: Each proof splits the question by the second round's class (up to relabelling)
#: and has a SAT solver refute every class; docs/seating-catalogue.md gives the command and times.
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
    _, (g, levels, _fixed, *more), text = DEVELOPED[key]
    kept, extra = (*more, 0, 0)[:2]
    rounds = _rounds(text)
    cut = len(rounds) - kept - extra
    bases, kept_rounds, extra_rounds = rounds[:cut], rounds[cut : cut + kept], rounds[cut + kept :]
    extra_rounds = tuple(tuple(sorted(tuple(sorted(t)) for t in r)) for r in extra_rounds)
    return developed(bases, g, levels, kept_rounds) + extra_rounds


def _rounds(text: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    lines = [line.split() for line in text.strip().splitlines()]
    return tuple(tuple(tuple(int(x) for x in t.split(",")) for t in line) for line in lines)


def developed(bases, g: int, levels: int, kept=()) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The ``g · len(bases)`` rounds of base rounds over ``Z_g × levels`` (∞ numbered last).

    Round ``h · B + i`` is base round ``i`` with player ``x + g · level``
    moved to ``(x + h) mod g + g · level``; the ∞ stay. Tables sorted.
    Then each round of ``kept``, which ``g / 3`` shifts map onto itself, shifted
    ``h < g / 3`` times (shifting it more would repeat its rounds).

    >>> for r in developed([[(0, 3, 6), (1, 2, 4, 5)]], 3, 2):  # Z_3 × 2 and one ∞ (6)
    ...     print(r)
    ((0, 3, 6), (1, 2, 4, 5))
    ((0, 2, 3, 5), (1, 4, 6))
    ((0, 1, 3, 4), (2, 5, 6))
    """

    def shifted(p: int, h: int) -> int:
        return p if p >= g * levels else (p % g + h) % g + g * (p // g)

    def moved(base, h: int) -> tuple[tuple[int, ...], ...]:
        return tuple(sorted(tuple(sorted(shifted(p, h) for p in t)) for t in base))

    return tuple(moved(base, h) for h in range(g) for base in bases) + tuple(
        moved(round_, h) for round_ in kept for h in range(g // 3)
    )
