"""Turned base rounds of fours decided by a SAT solver: the shape of ``designs.turned_fours``, any ∞.

The players are ``Z_g × {0, 1, 2}`` and ``F`` points ∞ (``v = 3g + F``,
tables of four only); one base round, shifted ``g`` times (∞ stay put),
gives ``g`` rounds. The base round is also kept by the turn
``τ: (x, i) ↦ (μx, i + 1)`` (``μ³ ≡ 1 mod g``), which leaves ``fixed`` of the
∞ where they are and moves the others round in threes, ∞ to ∞. So:

* the table of a fixed ∞ is kept by τ: {∞, (a, 0), (μa, 1), (μ²a, 2)};
* the tables of three ∞ that τ moves round are one table and its two turns;
* every other table is one of three that τ moves round.

:func:`.designs.turned_fours` searches the same shape depth first, with
one, two or three ∞ (the counting bound); with more ∞ the schedule stops
short of the bound, and this model is the quicker way there too. Two
players meet at most once over the ``g`` rounds when no difference
(:func:`tournaments.seating.designs._key_function`) comes twice in the base
round and none comes that the shift brings back onto itself (``g / 2``
within a level); the ∞ never meet.

With two fixed ∞ the turn must multiply (μ ≠ 1): with μ = 1 both tables
of ∞ cover the mixed difference 0. Symmetries taken out: ∞_i sits at table
i; the shift ``(x, i) ↦ (x + μⁱs, i)`` commutes with τ, so the first fixed
∞ sits with (0, 0); the triples of tables are in the order of their first
table's smallest member.

``find_schedules.py 92x28 --policy 4 --turned --sat`` (μ = 9 mod 28, 2 ∞
fixed, 6 moved round) found 92 × 28 in 26 s of CPU, where the base round of
``--developed 28,3,8 --sat`` (no turn) had no answer in 20 minutes. With
``extra`` rounds more (``--extra 1``: seated once each, at pairs the shifts
leave; :func:`sat_developed.extra_rounds`) it found 92 × 29 in 44.8 s.
"""

from __future__ import annotations

import time
from itertools import combinations

from sat_developed import _a_round, extra_rounds

from tournaments.seating.catalogue import developed
from tournaments.seating.differences import _cube_root_of_unity, _key_function
from tournaments.seating.symmetric import _check as check_schedule

Point = tuple[int, int]


def shape(v: int, g: int) -> tuple[int, int, int] | None:
    """``(μ, fixed, moved)`` for ``v`` players over ``Z_g × 3``, or ``None`` if there is none.

    ``v - 3g`` ∞: as few fixed as the count allows (0, 1 or 2), the rest
    moved round in threes; two fixed need a μ ≠ 1 with μ³ ≡ 1 (mod g).

    >>> shape(92, 28), shape(44, 14), shape(48, 15), shape(52, 17), shape(68, 22)
    ((9, 2, 6), (9, 2, 0), (1, 0, 3), (1, 1, 0), None)
    """
    infinities = v - 3 * g
    if v % 4 or infinities < 0:
        return None
    fixed = infinities % 3
    if fixed < 2:
        return 1, fixed, infinities - fixed
    mu = _cube_root_of_unity(g)
    return None if mu is None else (mu, fixed, infinities - fixed)


def clauses(v: int, g: int, mu: int, fixed: int, pool, extra: int = 0):
    """The clauses, the points, ``y[point, table]`` and ``w[round, point, table]``.

    The points are ``Z_g × 3`` then ∞ ``(j, -1)``; ``w`` seats the ``extra``
    rounds taken as they are (:func:`sat_developed.extra_rounds`).
    """
    from pysat.card import CardEnc, EncType

    infinities = v - 3 * g
    moved = infinities - fixed
    if moved % 3 or v % 4 or pow(mu, 3, g) != 1:
        raise ValueError(f"{v} players over Z_{g} × 3: no turned shape with {fixed} ∞ fixed")
    points: list[Point] = [(x, level) for level in range(3) for x in range(g)]
    points += [(j, -1) for j in range(infinities)]
    index = {p: i for i, p in enumerate(points)}
    tables = range(v // 4)

    def turn(p: Point) -> Point:
        x, level = p
        if level >= 0:
            return (mu * x % g, (level + 1) % 3)
        if x < fixed:
            return p
        k, j = divmod(x - fixed, 3)
        return (fixed + 3 * k + (j + 1) % 3, -1)

    def turn_table(t: int) -> int:  # ∞ j's table is j; then threes of tables
        if t < fixed:
            return t
        k, j = divmod(t - fixed, 3)
        return fixed + 3 * k + (j + 1) % 3

    n = len(points)
    y = {(p, t): pool.id(("y", p, t)) for p in range(n) for t in tables}
    out: list[list[int]] = []
    out += _a_round(lambda p, t: y[p, t], [4] * len(tables), pool)
    for p in range(n):  # the turn keeps the round
        for t in tables:
            a, b = y[p, t], y[index[turn(points[p])], turn_table(t)]
            out += [[-a, b], [a, -b]]
    out += [[y[index[(j, -1)], j]] for j in range(infinities)]
    if fixed:
        out.append([y[index[(0, 0)], 0]])
    difference = _key_function(g)
    never = {(level, level, g // 2) for level in range(3)} if g % 2 == 0 else set()
    together: dict[tuple, list[int]] = {}
    for a, c in combinations(range(n), 2):
        d = difference(points[a], points[c])
        if (points[a][1] < 0 and points[c][1] < 0) or d in never:
            out += [[-y[a, t], -y[c, t]] for t in tables]
            continue
        for t in tables:
            z = pool.id(("z", a, c, t))
            out += [[-z, y[a, t]], [-z, y[c, t]], [z, -y[a, t], -y[c, t]]]
            together.setdefault(d, []).append(z)
    for zs in together.values():  # each difference at most once
        out += CardEnc.atmost(zs, 1, vpool=pool, encoding=EncType.seqcounter).clauses
    covered = {}  # difference → "the base round covers it" (only for extra rounds: the
    for d, zs in together.items() if extra else ():  # clauses' order decides what CaDiCaL finds)
        c = covered[d] = pool.id(("covered", d))
        out += [[-c, *zs]] + [[c, -z] for z in zs]
    first = infinities  # tables of ∞ first
    for k in range(1, (len(tables) - first) // 3):
        t, u = first + 3 * (k - 1), first + 3 * k
        out += [[-y[p, u]] + [y[q, t] for q in range(p)] for p in range(n)]
    pairs = {}  # each pair → "the base round covers its difference" (None: it never can)
    for a, c in combinations(range(n), 2) if extra else ():
        pairs[a, c] = covered.get(difference(points[a], points[c]))
    more, w = extra_rounds([4] * len(tables), extra, pairs, pool)
    return out + more, points, y, w


def decide(v: int, g: int, solver: str = "cadical195", extra: int = 0):
    """The base round and ``extra`` rounds more, or ``None``; and the CPU seconds.

    The rounds are lists of tables (labels ``x + g · level``, ∞ ``3g + j``):
    the base round, shifted ``g`` times, then the ``extra`` rounds, seated
    once each at pairs the ``g`` rounds leave. ``None`` with no time where
    :func:`shape` has no shape; ``None`` after a solve means this shape has
    no such rounds.
    """
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    started = time.process_time()
    found = shape(v, g)
    if found is None:
        return None, 0.0
    mu, fixed, _ = found
    pool = IDPool()
    model, points, y, w = clauses(v, g, mu, fixed, pool, extra)
    with Solver(name=solver, bootstrap_with=model) as sat:
        if not sat.solve():
            return None, time.process_time() - started
        true = {literal for literal in sat.get_model() if literal > 0}
    took = time.process_time() - started
    tables = range(v // 4)  # the points are numbered as their labels
    base = [tuple(p for p in range(v) if y[p, t] in true) for t in tables]
    more = [
        [tuple(p for p in range(v) if w[e, p, t] in true) for t in tables] for e in range(extra)
    ]
    schedule = [list(r) for r in developed([base], g, 3)] + more
    check_schedule(schedule, v)
    return [base, *more], took
