"""Resolvable designs at tables of four: every two players meet at most once.

:func:`four_design` gives all ``(v - 1) // 3`` rounds: a 1-rotational (v, 4, 1) design for
v ≡ 4 (mod 12), a base round that turning the levels keeps (:func:`turned_fours`) past 40, and
the projective space PG(3, 3) for 40 (:func:`_projective_packing`, CP-SAT).
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations, product

from .differences import (
    TURNED_ATTEMPT,
    Point,
    Schedule,
    _base_rounds,
    _cube_root_of_unity,
    _develop,
    _turned,
    _turned_attempt,
)
from .exact import deterministic_solver

__all__ = ["four_design"]

#: steps of a design of fours: 44 needs 79,592, 48 44,140, 52 62,000, 56 123,397, 64 96,000
FOURS_BUDGET = 200_000


def four_design(v: int, *, budget: int = FOURS_BUDGET) -> Schedule | None:
    """All ``(v - 1) // 3`` rounds at tables of four in which no two players meet twice.

    For fours-only events (Priffe without fixed partners, 001 §3.2.10
    tables). For v ≡ 4 (mod 12) a resolvable (v, 4, 1) design, every two
    players meeting once, 1-rotational like the triples: points
    ``Z_g × {0, 1, 2}`` and ∞ with ``g = (v - 1) / 3``, one base round
    developed ``g`` times. Found at once for 16 and 28; from 52 on the base
    round is also kept by turning the levels (see :func:`turned_fours`),
    which past 40 also serves v ≡ 0 and 8 (mod 12): every player misses two
    others, or one, at the counting bound (44 to 64 within the budget).
    40 is the projective space PG(3, 3): its 130 lines split into 13
    spreads (see :func:`_projective_packing`).

    >>> rounds = four_design(28)
    >>> len(rounds), {len(t) for r in rounds for t in r}
    (9, {4})
    """
    found = _four_design(v, budget)
    return None if found is None else [list(r) for r in found]


@lru_cache(maxsize=8)
def _four_design(v: int, budget: int) -> Schedule | None:
    if v == 40:
        return _projective_packing()
    if v < 16 or v % 4:
        return None
    g = (v - 1) // 3
    rng = random.Random(v)
    if v > 40:
        base, _ = turned_fours(v, rng, budget)
        return None if base is None else _develop([base], g, 3)
    if v % 12 != 4:
        return None  # 24, 32 and 36: the symmetric and cyclic schedules (design_for)
    points = {(x, lv) for x in range(g) for lv in range(3)} | {(0, -1)}
    spent = 0
    while spent < budget:
        found, steps = _base_rounds(
            points, set(), g, rng, min(100 * v, budget - spent), 1, 4, constrained_first=False
        )  # the smallest point first: 28 in 0.1 s (the other order needs seconds)
        spent += steps + 1
        if found is not None:
            return _develop(found, g, 3)
    return None


#: counts without a round for :func:`turned_fours`: its search without a step limit tries every
#: way (28: 2,806 steps)
NO_TURNED_ROUND = frozenset({28})


def turned_fours(
    v: int, rng: random.Random, budget: int
) -> tuple[list[tuple[Point, ...]] | None, int]:
    """A base round of fours over ``Z_g × {0, 1, 2}`` and ∞ that turning the levels keeps.

    Developed over ``Z_g``, ``g = (v - 1) // 3`` (the counting bound), it
    seats ``v`` players (``v`` ≡ 0 mod 4) at tables of four for ``g``
    rounds without a repeat. ``v - 3g`` points ∞ stay put:

    * ``v ≡ 4 (mod 12)``, one ∞ (a resolvable (v, 4, 1) design, every pair
      once): the round holds {∞, (0, 0), (0, 1), (0, 2)} and, for each of
      ``(g - 1) / 4`` *base blocks* ``B``, the blocks ``B``, ``B`` turned
      once and twice (level ``i`` to ``i + 1 mod 3``);
    * ``v ≡ 0 (mod 12)``, three ∞ that the turn moves round (a resolvable
      group divisible design of type 3^(v/3)): {∞₀, (0, 0), (b, 1), (c, 2)}
      turned, and ``(g - 3) / 4`` base blocks turned; the players
      ``(x, 0), (x, 1), (x, 2)``, and the three ∞, never meet;
    * ``v ≡ 8 (mod 12)``, two ∞ (type 2^(v/2)): the turn is
      ``(x, i) ↦ (μx, i + 1)`` with ``μ³ ≡ 1 ≢ μ (mod g)``, so it keeps
      the blocks {∞ⱼ, (a, 0), (μa, 1), (μ²a, 2)} of both ∞ (a pure turn
      would make them cover one difference twice), and ``(g - 2) / 4`` base
      blocks turned; the two ∞ never meet, nor ``x`` and ``x + g/2`` of a level.

    Every orbit of the turn outside the blocks of ∞ lies in exactly one base
    block. Developed over ``Z_g`` the round covers every pair once (but the
    pairs that never meet) when the blocks cover every difference once up
    to the turn:

    * a pure difference ``±d`` (two points of one level), at any level;
    * a mixed difference ``d`` from a level to the next one (``(x, i)`` and
      ``(y, i + 1)`` give ``y - x``; ``(x, i)`` and ``(y, i + 2)`` give ``x - y``).

    A depth-first search (the point with the fewest partners left opens the
    next block) with seeded restarts of :data:`TURNED_ATTEMPT` steps (each
    choosing the blocks of ∞ afresh) finds 52 (g = 17) in 62,000 steps and
    64 in 96,000 (1 and 2 s), 48 in 0.4 s, 44 and 56 (μ = 9 and 7) in 0.9
    and 1.4 s, within a draw's :data:`FOURS_BUDGET`; past 64 they take
    seconds to minutes, so
    :mod:`.catalogue` keeps what it found for them
    (``tests/seating_catalogue/find_schedules.py --turned``). 28 has no such round: two
    base blocks cannot cover its differences (:data:`NO_TURNED_ROUND`).
    Returns the round (``None`` if ``budget`` steps found none) and the
    steps spent: the same ``rng`` state and any budget at least that gives
    the same round.
    """
    g = (v - 1) // 3
    infinities = v - 3 * g
    mu = _cube_root_of_unity(g) if infinities == 2 else 1
    if v % 4 or v < 16 or mu is None or v in NO_TURNED_ROUND:
        return None, 0
    spent = 0
    while spent < budget:
        if infinities == 1:
            placed, used = [0], set()
            infinity: list[tuple[Point, ...]] = [((0, -1), (0, 0), (0, 1), (0, 2))]
        elif infinities == 3:
            placed = [0, rng.randrange(1, g), rng.randrange(1, g)]
            a, b, c = placed  # {∞₀, (a, 0), (b, 1), (c, 2)}: mixed differences b - a, c - b, a - c
            used = {(1, 0), (1, (b - a) % g), (1, (c - b) % g), (1, (a - c) % g)}
            if len(set(placed)) < 3 or len(used) < 4:
                spent += 1
                continue
            infinity = [
                ((j, -1), *((x, (lv + j) % 3) for lv, x in enumerate(placed))) for j in range(3)
            ]
        else:
            placed = rng.sample(range(g), 2)  # {∞ⱼ, (a, 0), (μa, 1), (μ²a, 2)}: μa - a
            used = {(0, g // 2), *((1, (mu - 1) * a % g) for a in placed)}
            if len(used) < 3:
                spent += 1
                continue
            infinity = [
                ((j, -1), *((a * pow(mu, lv, g) % g, lv) for lv in range(3)))
                for j, a in enumerate(placed)
            ]
        limit = min(TURNED_ATTEMPT, budget - spent)
        blocks, steps = _turned_attempt(g, rng, limit, 4, used, placed, mu)
        spent += steps
        if blocks is None:
            spent += 1  # a restart costs a step, even one that gives up at once
            continue
        return [*infinity, *_turned(blocks, g, mu)], spent
    return None, spent


def _projective_packing() -> Schedule | None:
    """The 40 points of PG(3, 3), its lines (4 points each) split into 13 spreads.

    A spread is a set of 10 disjoint lines covering every point: a round of
    fours. Two points lie on exactly one line, so a *packing* (the lines
    split into spreads; Denniston 1972: one exists for every PG(3, q)) is a
    resolvable (40, 4, 1) design. CP-SAT finds one in a tenth of a second;
    one worker and a fixed seed make it the same every time.
    """
    # OR-Tools loads in about 1.5 s (python -X importtime): only a draw that runs CP-SAT pays it
    from ortools.sat.python import cp_model

    def normal(v: tuple[int, ...]) -> tuple[int, ...]:
        lead = next(x for x in v if x)
        return tuple(x * lead % 3 for x in v)  # 1 and 2 are their own inverses mod 3

    points = sorted({normal(v) for v in product(range(3), repeat=4) if any(v)})
    number = {p: i for i, p in enumerate(points)}
    lines = sorted(
        {
            tuple(
                sorted(
                    {
                        number[
                            normal(tuple((s * x + t * y) % 3 for x, y in zip(a, b, strict=True)))
                        ]
                        for s in range(3)
                        for t in range(3)
                        if s or t
                    }
                )
            )
            for a, b in combinations(points, 2)
        }
    )
    model = cp_model.CpModel()
    spreads = range(13)
    x = {(i, s): model.new_bool_var(f"l{i}s{s}") for i in range(len(lines)) for s in spreads}
    for i in range(len(lines)):
        model.add_exactly_one(x[i, s] for s in spreads)
    through = {p: [i for i, line in enumerate(lines) if p in line] for p in range(len(points))}
    for s in spreads:
        for p in range(len(points)):
            model.add_exactly_one(x[i, s] for i in through[p])
    for s, i in enumerate(through[0]):  # the 13 lines through point 0 open the 13 spreads
        model.add(x[i, s] == 1)
    solver = deterministic_solver(40, 30.0)
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return [
        sorted(lines[i] for i in range(len(lines)) if solver.boolean_value(x[i, s]))
        for s in spreads
    ]
