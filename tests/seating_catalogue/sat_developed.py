"""Developed schedules decided by a SAT solver: a schedule of the shape, or a proof there is none.

The shape is that of :func:`tournaments.seating.symmetric._developed`: the
players are ``Z_g × {0 … L-1}`` and ``F`` points ∞, and ``B`` base rounds are
each shifted ``g`` times (round ``h · B + i`` is base round ``i`` shifted by
``h``; ∞ stays put). No pair meets twice exactly when no *difference* (the
orbit of a pair under the shift, :func:`tournaments.seating.designs._key_function`)
comes twice over all base rounds, and none comes that the shift brings back
onto itself (``g / 2`` within a level, ∞ with ∞:
:func:`~tournaments.seating.designs.never_developed`).

CP-SAT, with the budget a draw or ``find_schedules.py --developed`` gives
it, ran out of time on the shapes of the sizes at the counting bound left
open (23 × 9, 29 × 12, 31 × 14). This model adds what counting forces,
which a clause learner does not find by itself:

* every difference other than those never allowed is the orbit of ``g``
  pairs, and the rounds cover a fixed number of pairs, so **exactly**
  ``(C(n, 2) − rounds · pairs a round − pairs never allowed) / g``
  differences are left uncovered (none at the bound of 23 × 9 over
  ``Z_3 × 6`` and 5 ∞: each remaining difference exactly once). If that
  is negative or not whole, the shape has no schedule and no solver runs;
* with tables of three and four, a player meets 2 a round at a three and 3
  at a four, so ``2 · rounds + (rounds at a four) ≤`` the players it may
  meet: ``n − 1`` for a level point (less its partner at ``g / 2``), the
  ``n − F`` level points for ∞. A level point's rounds at a four are the
  seats its level has at fours over the base rounds; ∞ at a four in a base
  round sits at one in all ``g`` of its rounds, and meets each level once
  at most, so ``2 · B + (its fours) ≤ L``. Where nothing is left over
  every player meets everyone it may, and these are equalities;
* shifting one level alone maps a developed schedule to another, and ∞_0
  meets each level at most once (twice would cover a difference twice), so
  the level points ∞_0 sits with may all be taken at ``x = 0``; where ∞
  can never sit at a four it meets two new levels each base round, and the
  levels may be renumbered so that base round ``b``'s are ``2b`` and ``2b + 1``;
* tables of one size are in the order of their smallest member.

The schedule may also hold rounds that ``g / 3`` shifts map onto themselves
(``invariant``, ``--invariant`` of ``find_schedules.py``; ``g`` odd, a
multiple of 3), each shifted ``g / 3`` times. A table such a round keeps is
whole orbits of that shift: a third of a level alone (a three, its pairs at
difference ``g / 3``) or with one ∞ (a four); the other tables go in orbits
of three. Each ∞ then meets a new level in each, so the renumbering goes on
with those rounds. 29 × 12 has no schedule of base rounds alone that any
run found; over ``Z_9 × 3`` and 2 ∞, one base round and one kept round
give it in 2 s.

Each of these holds for every schedule of the shape up to those symmetries,
so *unsatisfiable* means the shape has none. With the counts CaDiCaL 1.9.5
(python-sat, the ``test`` extra) finds 31 × 14 in 0.4 s of CPU and 23 × 9 in
4 s; without them it took 96 s and 36 s.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import combinations, pairwise
from math import comb

from tournaments.seating.catalogue import developed
from tournaments.seating.differences import _key_function, never_developed
from tournaments.seating.symmetric import _check as check_schedule

Schedule = list[list[tuple[int, ...]]]


def uncovered_differences(sizes: Sequence[int], g: int, levels: int, fixed: int, rounds: int):
    """How many differences the schedule leaves uncovered, or ``None`` if the count rules it out."""
    n = sum(sizes)
    never = comb(fixed, 2) + (levels * (g // 2) if g % 2 == 0 else 0)  # pairs never met
    spare = comb(n, 2) - rounds * sum(comb(s, 2) for s in sizes) - never
    if spare < 0 or spare % g:
        return None
    return spare // g


def clauses(
    sizes: Sequence[int], g: int, levels: int, fixed: int, bases: int, pool, invariant: int = 0
):
    """The clauses, and ``y[round, player, table]`` (players: ``x + g · level``, then ∞).

    Rounds ``0 … bases - 1`` are the base rounds. With ``invariant``, rounds
    ``bases …`` are that many more base rounds which ``g / 3`` shifts map onto
    themselves (``g`` odd), each seated whole and shifted ``g / 3`` times: a
    table such a round keeps is ∞ with a third of a level (a four) or a third
    of a level alone (a three); the other tables go in orbits of three.
    """
    from pysat.card import CardEnc, EncType

    n = sum(sizes)
    if levels * g + fixed != n:
        raise ValueError(f"Z_{g} × {levels} and {fixed} ∞ seat {levels * g + fixed}, not {n}")
    if invariant and (g % 3 or g % 2 == 0):
        raise ValueError("rounds that g / 3 shifts keep are modelled for odd g, a multiple of 3")
    third = g // 3  # a kept round is shifted `third` times; the shift by `third` keeps it
    rounds = bases * g + invariant * third
    uncovered = uncovered_differences(sizes, g, levels, fixed, rounds)
    if uncovered is None:
        return None, {}
    points = _points(g, levels, fixed)
    tables = range(len(sizes))
    difference = _key_function(g)
    never = never_developed(g, levels, fixed)
    everyone = range(bases + invariant)
    y = {(b, p, t): pool.id(("y", b, p, t)) for b in everyone for p in range(n) for t in tables}
    out: list[list[int]] = []
    together: dict[tuple, list[int]] = {}  # difference → "this pair sits at this table"
    for b in everyone:
        out += _a_round(lambda p, t, b=b: y[b, p, t], sizes, pool)
        met, orbits = {}, set()  # pair → "it sits together", in a kept round
        for a, c in combinations(range(n), 2):
            d = difference(points[a], points[c])
            if d in never:
                out += [[-y[b, a, t], -y[b, c, t]] for t in tables]
                continue
            zs = []
            for t in tables:
                z = pool.id(("z", b, a, c, t))
                out += [[-z, y[b, a, t]], [-z, y[b, c, t]], [z, -y[b, a, t], -y[b, c, t]]]
                zs.append(z)
            if b < bases:
                together.setdefault(d, []).extend(zs)
                continue
            m = met[a, c] = pool.id(("met", b, a, c))
            out += [[-m, *zs]] + [[m, -z] for z in zs]
            orbit = min(_moved((a, c), third * k, g, levels) for k in range(3))
            if orbit not in orbits:  # the pairs its shifts keep sit with it: count them once
                orbits.add(orbit)
                together.setdefault(d, []).append(m)
        for t, u in pairwise(tables):  # tables of one size: smallest members increase
            if sizes[t] == sizes[u]:
                out += [[-y[b, p, u]] + [y[b, q, t] for q in range(p)] for p in range(n)]
        for pair, m in met.items():  # shifted by `third` the round is the same
            image = _moved(pair, third, g, levels)
            out += [[-m, met[image]], [m, -met[image]]]
    covered = []
    for d, zs in sorted(together.items()):  # each difference at most once ...
        out += CardEnc.atmost(zs, 1, vpool=pool, encoding=EncType.seqcounter).clauses
        c = pool.id(("covered", d))
        out += [[-c, *zs]] + [[c, -z] for z in zs]
        covered.append(c)
    # ... and all but `uncovered` of them once (the count of pairs)
    if uncovered == 0:
        out += [[c] for c in covered]
    else:
        least = len(covered) - uncovered
        out += CardEnc.atleast(covered, least, vpool=pool, encoding=EncType.seqcounter).clauses
    never_at_four = False
    if set(sizes) <= {3, 4}:
        fours = [t for t in tables if sizes[t] == 4]
        # a player meets 2 a round at a three and 3 at a four: 2 · rounds + (its fours) ≤ mates
        level_mates = n - 1 - (1 if g % 2 == 0 else 0)  # never (x, x + g / 2)
        for level in range(levels):
            seated = [y[b, x + g * level, t] for b in range(bases) for x in range(g) for t in fours]
            seated += [  # a kept round: its `third` shifts seat level x at x's third
                y[b, x + g * level, t]
                for b in range(bases, bases + invariant)
                for x in range(third)
                for t in fours
            ]
            out += _count(seated, level_mates - 2 * rounds, uncovered == 0, pool)
        # ∞ at a four in a base sits at one in all g of its rounds; it meets each level once
        # at most, 2 or 3 of them a base and one a kept round (at a four, its `third` shifts):
        # 2 · bases + (its fours) + invariant ≤ levels
        spare = n - fixed - 2 * rounds - invariant * third
        most = min(spare // g, levels - 2 * bases - invariant)
        for i in range(n - fixed, n):
            seated = [y[b, i, t] for b in range(bases) for t in fours]
            out += _count(seated, most, uncovered == 0 and not invariant, pool)
        never_at_four = most <= 0
        # what that leaves no room for, said outright: it helps the solver propagate (only
        # with kept rounds, so that the base-round models behind the catalogue's earlier
        # records stay as they were and find the same schedules again)
        must = set()
        if invariant and spare == 0:  # ∞ meets every level point
            must |= {(-2 - i, level, 0) for i in range(fixed) for level in range(levels)}
        threes = sizes.count(3)
        if invariant and len(fours) == fixed and invariant * (fixed + threes % 3) == levels:
            # each kept round has a level's third with each ∞ and at least threes mod 3
            # alone: every level's difference g / 3 is there
            must |= {(level, level, third) for level in range(levels)}
        out += [[pool.id(("covered", d))] for d in sorted(must) if d in together]
    if fixed:  # shift each level alone: ∞_0 sits with level points at x = 0
        infinity = levels * g
        # ∞_0 meets two new levels a base and one a kept round: renumber the levels so that
        # base b's are 2b and 2b + 1, and kept round i's 2 · bases + i
        renumber = never_at_four and 2 * bases + invariant <= levels
        for b in range(bases):
            for t in tables:
                out += [[-y[b, infinity, t], -y[b, p, t]] for p in range(n - fixed) if p % g]
            if renumber:  # (in this order: the clauses' order decides what CaDiCaL finds)
                for level in (2 * b, 2 * b + 1):
                    out += [[-y[b, infinity, t], y[b, g * level, t]] for t in tables]
        if renumber:
            for i in range(invariant):  # (a third of it: x < third, whichever)
                level, b = 2 * bases + i, bases + i
                out += [
                    [-y[b, infinity, t]] + [y[b, x + g * level, t] for x in range(third)]
                    for t in tables
                ]
            if fixed > 1:  # the levels ∞_0 meets in no base may be shifted too: ∞_1's mates
                for b in range(bases):
                    for t in tables:
                        out += [
                            [-y[b, infinity + 1, t], -y[b, p, t]]
                            for p in range(2 * bases * g, n - fixed)
                            if p % g
                        ]
    return out, y


def extra_rounds(
    sizes: Sequence[int], rounds: int, pairs, pool
) -> tuple[list[list[int]], dict[tuple[int, int, int], int]]:
    """``rounds`` more rounds, taken as they are, seated only at pairs the developed rounds leave.

    ``pairs`` maps each pair of players ``(a, c)`` to the literal "the base
    rounds cover its difference" (``None`` where they never can: the ∞ with
    each other, ``g / 2`` within a level). Such a round is no orbit: ``g``
    shifts of it would repeat its pairs, so it is seated once, and a pair
    sits together in one of these rounds at most.

    Returns the clauses and ``w[round, player, table]``.
    """

    n, tables = sum(sizes), range(len(sizes))
    w = {
        (e, p, t): pool.id(("w", e, p, t)) for e in range(rounds) for p in range(n) for t in tables
    }
    out: list[list[int]] = []
    for e in range(rounds):
        out += _a_round(lambda p, t, e=e: w[e, p, t], sizes, pool)
        for t, u in pairwise(tables):  # tables of one size: smallest members increase
            if sizes[t] == sizes[u]:
                out += [[-w[e, p, u]] + [w[e, q, t] for q in range(p)] for p in range(n)]
    for (a, c), covered in pairs.items():
        for e in range(rounds):  # not at a difference the base rounds cover ...
            if covered is not None:
                out += [[-w[e, a, t], -w[e, c, t], -covered] for t in tables]
        for e, f in combinations(range(rounds), 2):  # ... nor twice in these rounds
            met = [pool.id(("met extra", k, a, c)) for k in (e, f)]
            for k, m in zip((e, f), met, strict=True):
                out += [[-w[k, a, t], -w[k, c, t], m] for t in tables]
            out.append([-met[0], -met[1]])
    return out, w


def _a_round(seat, sizes: Sequence[int], pool) -> list[list[int]]:
    """Every player at one table, every table full: ``seat(p, t)`` is "player p at table t"."""
    from pysat.card import CardEnc, EncType

    tables = range(len(sizes))
    out: list[list[int]] = []
    for p in range(sum(sizes)):  # one table each
        out.append([seat(p, t) for t in tables])
        out += [[-seat(p, t), -seat(p, u)] for t, u in combinations(tables, 2)]
    for t in tables:  # every table full
        seated = [seat(p, t) for p in range(sum(sizes))]
        out += CardEnc.equals(seated, sizes[t], vpool=pool, encoding=EncType.seqcounter).clauses
    return out


def _points(g: int, levels: int, fixed: int) -> list[tuple[int, int]]:
    """The players as points: ``(x, level)``, player ``x + g · level``; then ∞ ``(i, -1)``."""
    return [(x, level) for level in range(levels) for x in range(g)] + [
        (i, -1) for i in range(fixed)
    ]


def _moved(pair: tuple[int, int], h: int, g: int, levels: int) -> tuple[int, int]:
    """A pair of players shifted ``h`` times (∞ stay)."""

    def shifted(p: int) -> int:
        return p if p >= g * levels else (p % g + h) % g + g * (p // g)

    a, c = map(shifted, pair)
    return (a, c) if a < c else (c, a)


def _count(literals: list[int], bound: int, exact: bool, pool) -> list[list[int]]:
    """At most ``bound`` of ``literals`` true (exactly, if ``exact``); unsatisfiable below 0."""
    from pysat.card import CardEnc, EncType

    if bound < 0 or (exact and bound > len(literals)):
        return [[]]
    if not literals or (not exact and bound >= len(literals)):
        return []
    encode = CardEnc.equals if exact else CardEnc.atmost
    return encode(literals, bound, vpool=pool, encoding=EncType.seqcounter).clauses


def decide(
    sizes: Sequence[int],
    g: int,
    levels: int,
    fixed: int,
    bases: int = 1,
    solver: str = "cadical195",
    invariant: int = 0,
    extra: int = 0,
) -> tuple[Schedule | None, float]:
    """The developed schedule (``bases · g`` rounds, checked) or ``None`` if the shape has none.

    With ``invariant``, that many kept rounds follow, each shifted ``g / 3`` times (:func:`clauses`);
    then ``extra`` rounds, each seated once at pairs the others leave (:func:`extra_rounds`).

    Returns it with the CPU seconds it took (the model and the solver).
    """
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    started = time.process_time()
    pool = IDPool()
    model, y = clauses(sizes, g, levels, fixed, bases, pool, invariant)
    if model is None:
        return None, time.process_time() - started
    n = sum(sizes)
    pairs = {}  # each pair → "the developed rounds cover its difference" (None: they never can)
    difference = _key_function(g)
    points = _points(g, levels, fixed)
    for a, c in combinations(range(n), 2) if extra else ():
        pairs[a, c] = pool.obj2id.get(("covered", difference(points[a], points[c])))
    more, w = extra_rounds(sizes, extra, pairs, pool)
    model += more
    with Solver(name=solver, bootstrap_with=model) as sat:
        if not sat.solve():
            return None, time.process_time() - started
        true = {v for v in sat.get_model() if v > 0}
    took = time.process_time() - started
    found = [
        [tuple(p for p in range(n) if y[b, p, t] in true) for t in range(len(sizes))]
        for b in range(bases + invariant)
    ]
    schedule = [list(r) for r in developed(found[:bases], g, levels)]
    for kept in found[bases:]:
        schedule += [list(r) for r in developed([kept], g, levels)[: g // 3]]
    tables = range(len(sizes))
    for e in range(extra):
        schedule.append([tuple(p for p in range(n) if w[e, p, t] in true) for t in tables])
    _check(schedule, sizes)
    return schedule, took


def _check(schedule: Schedule, sizes: Sequence[int]) -> None:
    """Every round has tables of ``sizes`` and seats everyone once; no pair meets twice."""
    if any(sorted(map(len, tables)) != sorted(sizes) for tables in schedule):
        raise AssertionError("a developed round has other table sizes")
    check_schedule(schedule, sum(sizes))
