"""Resolvable designs: schedules in which no two players ever meet twice.

A *Kirkman triple system* KTS(v) (v ≡ 3 mod 6) splits v players into tables
of three for (v - 1) / 2 rounds so that every two players meet exactly once.
Round-by-round greedy draws cannot find one (they paint themselves into a
corner in the last rounds), so we construct it by the classical difference
method: a search for a design with a cyclic automorphism.

* ``v = 3m`` (9, 21, 33, …): points ``Z_m × {0, 1, 2}``; a *base round*
  developed by ``x ↦ x + 1`` gives ``m`` rounds, and ``(m - 1) / 2`` more
  rounds are fixed by the development, each ``{(x, 0), (x + a, 1), (x + b, 2)}``.
* ``v = 2m + 1`` with ``m`` odd (15, 27, 39, …): points ``Z_m × {0, 1}`` and a
  fixed point ∞; one base round developed ``m`` times gives all rounds (a
  *1-rotational* KTS). KTS(15) has no automorphism of order 5, so 15 needs it.

Each round's triples must cover every *difference* (pure: within one level,
up to sign; mixed: between two levels) exactly once, which a depth-first
search with seeded random restarts finds quickly for the sizes clubs meet
(9, 15, 21 in milliseconds; 27–39 in seconds). A search that exhausts its step
budget returns ``None`` and the caller falls back to local search.

>>> rounds = kirkman_schedule(15)
>>> len(rounds), {len(t) for r in rounds for t in r}
(7, {3})
>>> pairs = [frozenset((a, b)) for r in rounds for t in r for a in t for b in t if a < b]
>>> len(pairs) == len(set(pairs)) == 15 * 14 // 2
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

__all__ = ["kirkman_schedule", "max_rounds_without_repeat"]

Schedule = list[list[tuple[int, ...]]]
Point = tuple[int, int]  # (x in Z_m, level)
Key = tuple[int, int, int]
_ATTEMPT = 300  # steps per restart: the search is heavy-tailed, restarts pay


def max_rounds_without_repeat(n: int, table_size: int = 3) -> int:
    """Upper bound on rounds in which no two of ``n`` players meet twice.

    Every round a player meets ``table_size - 1`` new opponents out of ``n - 1``.

    >>> max_rounds_without_repeat(15), max_rounds_without_repeat(21), max_rounds_without_repeat(16, 4)
    (7, 10, 5)
    """
    return (n - 1) // (table_size - 1)


def kirkman_schedule(v: int, *, budget: int = 60_000) -> Schedule | None:
    """All ``(v - 1) / 2`` rounds of a Kirkman triple system on players ``0 … v-1``.

    Deterministic: the same ``v`` and ``budget`` always give the same rounds.

    :param budget: search steps over all restarts (one step ≈ 40 µs).
    :returns: rounds as sorted lists of sorted triples, or ``None`` if ``v`` is
        not ≡ 3 (mod 6) or the search ran out of budget.
    """
    found = _kirkman(v, budget)  # cached: a fresh copy for the caller to keep
    return None if found is None else [list(r) for r in found]


@lru_cache(maxsize=16)
def _kirkman(v: int, budget: int) -> Schedule | None:
    if v < 3 or v % 6 != 3:
        return None
    if v == 3:
        return [[(0, 1, 2)]]
    m = (v - 1) // 2
    order: list[Callable[[int, int], Schedule | None]] = [_one_rotational, _three_orbits]
    if m % 2 == 0:
        order.reverse()
    for build in order:
        found = build(v, budget // 2)
        if found is not None:
            return found
    return None


def _key_function(m: int) -> Callable[[Point, Point], Key | None]:
    def key(p: Point, q: Point) -> Key | None:
        (xa, la), (xb, lb) = (p, q) if (p[1], p[0]) <= (q[1], q[0]) else (q, p)
        if la == lb:
            if xa == xb:
                return None
            d = (xa - xb) % m
            return (la, la, min(d, m - d))
        return (la, lb, (xb - xa) % m)

    return key


def _base_round(
    points: set[Point], used: set[Key], m: int, rng: random.Random, limit: int
) -> tuple[list[tuple[Point, Point, Point]] | None, int]:
    """Triples partitioning ``points`` whose differences avoid ``used`` and each other."""
    key = _key_function(m)
    free = set(points)
    base: list[tuple[Point, Point, Point]] = []
    steps = 0

    def search() -> bool:
        nonlocal steps
        steps += 1
        if steps > limit:
            return False
        if not free:
            return True
        first = min(free)
        rest = sorted(free - {first})
        rng.shuffle(rest)
        for i, b in enumerate(rest):
            k1 = key(first, b)
            if k1 is None or k1 in used:
                continue
            used.add(k1)
            for c in rest[i + 1 :]:
                k2, k3 = key(first, c), key(b, c)
                if k2 is None or k3 is None or k2 in used or k3 in used or k2 == k3:
                    continue
                used.update((k2, k3))
                free.difference_update((first, b, c))
                base.append((first, b, c))
                if search():
                    return True
                base.pop()
                free.update((first, b, c))
                used.difference_update((k2, k3))
            used.discard(k1)
        return False

    return (base if search() else None), steps


def _three_orbits(v: int, budget: int) -> Schedule | None:
    m = v // 3
    if v % 3 or m % 2 == 0:
        return None
    rng = random.Random(v)
    spent = 0
    while spent < budget:
        used: set[Key] = set()
        fixed: list[tuple[int, int]] = []
        options = [(a, b) for a in range(m) for b in range(m)]
        rng.shuffle(options)
        for a, b in options:
            keys = {(0, 1, a), (0, 2, b), (1, 2, (b - a) % m)}
            if len(fixed) < (m - 1) // 2 and not used & keys:
                used |= keys
                fixed.append((a, b))
        spent += 1
        if len(fixed) < (m - 1) // 2:
            continue
        points = {(x, lv) for x in range(m) for lv in range(3)}
        base, steps = _base_round(points, used, m, rng, min(_ATTEMPT, budget - spent))
        spent += steps
        if base is not None:
            rounds = [
                sorted(tuple(sorted((x + s) % m + m * lv for x, lv in t)) for t in base)
                for s in range(m)
            ]
            rounds += [
                sorted(tuple(sorted((x, (x + a) % m + m, (x + b) % m + 2 * m))) for x in range(m))
                for a, b in fixed
            ]
            return rounds
    return None


def _one_rotational(v: int, budget: int) -> Schedule | None:
    m = (v - 1) // 2
    if m % 2 == 0:
        return None
    rng = random.Random(v)
    spent = 0
    points = {(x, lv) for x in range(1, m) for lv in (0, 1)}
    while spent < budget:
        used: set[Key] = {(0, 1, 0)}  # the triple {∞, (0, 0), (0, 1)}
        base, steps = _base_round(points, used, m, rng, min(_ATTEMPT, budget - spent))
        spent += steps + 1
        if base is not None:
            infinity = 2 * m
            rounds = []
            for s in range(m):
                tables = [tuple(sorted((infinity, s, s + m)))]
                tables += [tuple(sorted((x + s) % m + m * lv for x, lv in t)) for t in base]
                rounds.append(sorted(tables))
            return rounds
    return None
