"""Fours only over ``Z_g × 4`` with no ∞: one base round and rounds that every shift keeps.

The shape for 68 × 22 and 92 × 30 (4-RGDDs of type 2^34 and 2^46), the counts
no shape over ``Z_g × 3`` or ``Z_g × 2`` has given. The players are
``Z_g × {0, 1, 2, 3}``, ``g`` odd: one base round of ``g`` fours,
shifted ``g`` times, and ``K = (g − 2) / 3`` rounds that every shift keeps
(the orbit of a four with one player of each level, the only fours whose
shifts seat everyone once). The pairs ``{(x, 0), (x, 1)}`` and
``{(x, 2), (x, 3)}`` never meet: each player meets ``3 (g + K) = 4g − 2``, all
but one, and the unmet pairs must be two mixed differences that match the
levels (levels relabelled and shifted to make them these). So every other
difference is covered exactly once.

The base round is modelled as its "same table" graph ``s[a, c]`` (three
neighbours each, closed under transitivity: a union of fours), which lets a
``symmetry`` (x, i) ↦ (m·x, π(i)) keep it by sharing variables.

Measured (CaDiCaL 1.9.5, CPU; 2026-11-23): ``g = 5`` (20 × 6, type 2^10,
which does not exist) unsatisfiable at once; ``g = 11`` (44 × 14) found by
the model of tables that preceded this one in 694 s; ``g = 17`` (68 × 22)
with the base round kept by (x, i) ↦ (−x, i + 2), by (−x, 1 0 3 2) or by
(−x, 3 2 1 0): unsatisfiable in 15.1, 3.7 and 13.9 s; kept by
(x, 3 − i) or with none: no answer in 30 and 40 minutes.

Usage: ``python tests/seating_catalogue/sat_kept_fours.py G [none|neg02|swap|neg03|flip]``.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations

from tournaments.seating.catalogue import developed
from tournaments.seating.differences import _key_function
from tournaments.seating.symmetric import _check as check_schedule

# name → (multiplier, level permutation), as a function of g; and the levels that never meet
SYMMETRIES = {
    "none": (None, ((0, 1), (2, 3))),
    "neg02": (lambda g: (g - 1, (2, 3, 0, 1)), ((0, 2), (1, 3))),
    "swap": (lambda g: (g - 1, (1, 0, 3, 2)), ((0, 1), (2, 3))),
    "neg03": (lambda g: (g - 1, (3, 2, 1, 0)), ((0, 1), (2, 3))),
    "flip": (lambda g: (1, (3, 2, 1, 0)), ((0, 1), (2, 3))),
}

Round = list[tuple[int, ...]]


def kept_rounds(g: int) -> int:
    """``K``: the rounds every shift keeps, so that ``g + K`` is the counting bound of ``4g``."""
    if g % 2 == 0 or (g - 2) % 3:
        raise ValueError(f"g = {g}: the shape needs g odd and g ≡ 2 (mod 3)")
    return (g - 2) // 3


def decide(g: int, symmetry: str = "none", solver: str = "cadical195"):
    """The schedule (``g + K`` rounds, checked) or ``None`` if the shape has none; and CPU seconds."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    started = time.process_time()
    k_rounds = kept_rounds(g)
    n = 4 * g
    make, matching = SYMMETRIES[symmetry]
    sigma = None
    if make is not None:
        m, levels = make(g)
        sigma = lambda p: (m * (p % g)) % g + g * levels[p // g]  # noqa: E731
    pool = IDPool()
    model: list[list[int]] = []

    def exactly(literals, k):
        return CardEnc.equals(literals, k, vpool=pool, encoding=EncType.seqcounter).clauses

    share: dict[tuple[int, int], int] = {}  # pair → its variable (one per orbit of the symmetry)
    for a, c in combinations(range(n), 2):
        if (a, c) in share:
            continue
        orbit, pair = [], (a, c)
        while pair not in orbit:
            orbit.append(pair)
            if sigma is None:
                break
            u, w = sigma(pair[0]), sigma(pair[1])
            pair = (min(u, w), max(u, w))
        variable = pool.id(("s", a, c))
        share.update(dict.fromkeys(orbit, variable))

    def s(a, c):
        return share[min(a, c), max(a, c)]

    for p in range(n):  # three table-mates, and theirs are each other's
        model += exactly([s(p, q) for q in range(n) if q != p], 3)
    for b in range(n):
        for a, c in combinations([q for q in range(n) if q != b], 2):
            model.append([-s(a, b), -s(b, c), s(a, c)])
    difference = _key_function(g)  # keys (i, j, d): levels i ≤ j, d as designs has it

    def key(a, c):
        return difference((a % g, a // g), (c % g, c // g))

    cover: dict[tuple, list[int]] = {}
    for a, c in combinations(range(n), 2):
        cover.setdefault(key(a, c), []).append(s(a, c))
    # kept four k: (0, 0), (v1, 1), (v2, 2), (v3, 3); w: the difference it has between levels i, j
    v = {
        (k, i, x): pool.id(("v", k, i, x))
        for k in range(k_rounds)
        for i in (1, 2, 3)
        for x in range(g)
    }
    for k in range(k_rounds):
        for i in (1, 2, 3):
            model += exactly([v[k, i, x] for x in range(g)], 1)
            for x in range(g):
                cover.setdefault(key(0, x + g * i), []).append(v[k, i, x])
        for i, j in ((1, 2), (1, 3), (2, 3)):
            w = [pool.id(("w", k, i, j, d)) for d in range(g)]
            model += exactly(w, 1)
            model += [
                [-v[k, i, x], -v[k, j, (x + d) % g], w[d]] for x in range(g) for d in range(g)
            ]
            for d in range(g):
                cover.setdefault(key(g * i, d + g * j), []).append(w[d])
    for k in range(k_rounds - 1):  # kept fours in the order of their level-1 player
        model += [[-v[k, 1, x], -v[k + 1, 1, y]] for x in range(g) for y in range(x + 1)]
    never = {key(g * i, g * j) for i, j in matching}
    for key, literals in cover.items():
        model += [[-lit] for lit in literals] if key in never else exactly(literals, 1)
    with Solver(name=solver, bootstrap_with=model) as sat:
        if not sat.solve():
            return None, time.process_time() - started
        true = {lit for lit in sat.get_model() if lit > 0}
    took = time.process_time() - started
    base: Round = []
    for p in range(n):
        if not any(p in table for table in base):
            base.append(tuple([p] + [q for q in range(n) if q != p and s(p, q) in true]))
    kept = [
        (0, *(next(x for x in range(g) if v[k, i, x] in true) + g * i for i in (1, 2, 3)))
        for k in range(k_rounds)
    ]

    schedule = [list(r) for r in developed([base], g, 4)]
    schedule += [[r[0] for r in developed([[four]], g, 4)] for four in kept]  # its g shifts
    _check(schedule, n)
    return schedule, took


def _check(schedule: list[Round], n: int) -> None:
    """Every round seats everyone once at fours; no pair meets twice."""
    if any({len(t) for t in tables} != {4} for tables in schedule):
        raise AssertionError("a round has a table other than a four")
    check_schedule(schedule, n)


if __name__ == "__main__":
    g = int(sys.argv[1])
    found, seconds = decide(g, sys.argv[2] if len(sys.argv) > 2 else "none")
    rounds = g + kept_rounds(g)
    print(f"{4 * g} × {rounds}:", "none" if found is None else "found", f"({seconds:.1f} s of CPU)")
    for r in found or ():
        print(" ".join(",".join(map(str, t)) for t in r))
