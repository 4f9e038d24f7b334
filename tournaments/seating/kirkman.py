"""Kirkman triple systems: every two players at tables of three meet exactly once.

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
* ``v = 2m + 1`` with ``m ≡ 4 mod 12`` (9, 33, 57, 81, …): points
  ``Z_2m`` and ∞; a base round fixed by the half turn ``x ↦ x + m`` holds
  {∞, 0, m} and triples in pairs ``T``, ``T + m``, and is developed ``m``
  times (see :func:`_half_turn`); it builds 33 at once.
* ``v = 2m + 1``, ``m`` odd, with ``μ ≠ 1``, ``μ³ = 1`` moving every ``x ≠ 0``
  of ``Z_m`` (15, 27, 39, 63, 75, 87, 99, …): the 1-rotational shape whose
  base round multiplying by μ keeps (see :func:`_multiplied_one_rotational`);
  it builds 75, 87 and 99 in under a second.
* ``v = 3m`` with ``m ≡ 1 mod 6`` and a cube root of unity in ``Z_m`` (21,
  39, 57, 93, …): the first shape with every part also kept by turning the
  levels (see :func:`_turned_triples`); it builds 93, where the others give up.

Each round's triples must cover every *difference* (pure: within one level,
up to sign; mixed: between two levels) exactly once, which a depth-first
search with seeded random restarts finds quickly for the sizes clubs meet
(9 to 45 and 57 in under half a second; 51 not within the budget).
A search that exhausts its step budget returns ``None`` and the caller falls
back to local search.

>>> rounds = kirkman_schedule(15)
>>> len(rounds), {len(t) for r in rounds for t in r}
(7, {3})
>>> pairs = [frozenset((a, b)) for r in rounds for t in r for a in t for b in t if a < b]
>>> len(pairs) == len(set(pairs)) == 15 * 14 // 2
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import lru_cache

from .differences import (
    TURNED_ATTEMPT,
    Key,
    Point,
    Schedule,
    _base_rounds,
    _cube_root_of_unity,
    _develop,
    _Steps,
    _turned,
    _turned_attempt,
)

__all__ = ["kirkman_schedule"]

_ATTEMPT = 300  # steps per restart: the search is heavy-tailed, restarts pay
SYMMETRIC_KIRKMAN_BUDGET = 10_000  #: steps: KTS(99) takes 1,100; a miss costs under a second


@lru_cache(maxsize=16)
def _symmetric_kirkman(v: int) -> Schedule | None:
    """A KTS(v) of the two shapes with more symmetry, or ``None`` (at once where neither applies)."""
    for build in (_multiplied_one_rotational, _turned_triples):
        found = build(v, SYMMETRIC_KIRKMAN_BUDGET)
        if found is not None:
            return found
    return None


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
    order: list[Callable[[int, int], Schedule | None]] = [
        _multiplied_one_rotational,  # in milliseconds where μ exists (75, 87, 99: the others give up)
        _one_rotational,
        _three_orbits,
    ]
    if m % 2 == 0:
        order = [_half_turn, _three_orbits] if m % 12 == 4 else [_three_orbits]
    # v = 3m, m ≡ 1 (mod 6): in milliseconds where ω exists (93: the others give up)
    if v % 18 == 3:
        order.insert(0, _turned_triples)
    for build in order:
        found = build(v, budget // 2)
        if found is not None:
            return found
    return None


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
        found, steps = _base_rounds(points, used, m, rng, min(_ATTEMPT, budget - spent))
        spent += steps
        if found is not None:
            (base,) = found
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


def _turned_triples(v: int, budget: int) -> Schedule | None:
    """KTS(3m) for m ≡ 1 (mod 6) with a cube root of unity ω ≠ 1 in Z_m (93 = 3 · 31).

    Like :func:`_three_orbits` (a base round over ``Z_m × {0, 1, 2}``
    developed ``m`` times, and ``(m - 1) / 2`` rounds the development keeps),
    with every part kept by turning the levels ``i ↦ i + 1``, as in
    :func:`turned_fours`:

    * the kept rounds are ``{(x, 0), (x + a, 1), (x + a + aω, 2)}`` for ``a``
      in half the classes ``{s, sω, sω²}`` of ``Z_m*``; such a round covers
      the mixed difference ``a`` from level 0 to 1, ``aω`` from 1 to 2 and
      ``aω²`` from 2 to 0 (``1 + ω + ω² = 0``), so all the classes chosen
      cover the same differences between every two levels;
    * the base round holds ``{(0, 0), (0, 1), (0, 2)}`` and ``(m - 1) / 3``
      base triples turned over the levels, covering every pure difference
      and the mixed differences of the other classes (:func:`_turned_attempt`).

    A quarter of the differences of :func:`_three_orbits` to place: KTS(93)
    in under 1,000 steps, where a patient draw's search (3,000,000) gave up.
    """
    m = v // 3
    if v % 3 or m % 6 != 1:
        return None
    omega = _cube_root_of_unity(m)
    if omega is None:
        return None
    turn = (1, omega, omega * omega % m)
    classes = {frozenset(s * t % m for t in turn) for s in range(1, m)}
    if any(len(c) < 3 for c in classes):
        return None  # some s(ω - 1) ≡ 0: ω - 1 is not a unit of Z_m
    order = sorted(min(c) for c in classes)
    rng = random.Random(v)
    spent = 0
    while spent < budget:
        kept = [s * t % m for s in rng.sample(order, len(order) // 2) for t in turn]
        used = {(1, 0)} | {(1, a) for a in kept}
        blocks, steps = _turned_attempt(m, rng, min(TURNED_ATTEMPT, budget - spent), 3, used)
        spent += steps + 1
        if blocks is None:
            continue
        rounds = _develop([[((0, 0), (0, 1), (0, 2)), *_turned(blocks, m)]], m, 3)
        return rounds + [
            sorted(
                tuple(sorted((x, (x + a) % m + m, (x + a + a * omega) % m + 2 * m)))
                for x in range(m)
            )
            for a in kept
        ]
    return None


def _half_turn(v: int, budget: int) -> Schedule | None:
    """KTS(2m + 1), m even: Z_2m ∪ {∞}, base round invariant under ``x ↦ x + m``.

    The representatives ``T`` cover every difference class ``1 … m-1`` of
    Z_2m once; ``T`` and ``T + m`` together cover each pair of the class
    once over the ``m`` shifts, and {∞, s, s + m} the class ``m``. Found at
    once for m ≡ 4 (mod 12); for m ≡ 10 (21, 45, 69) the search finds none.
    """
    m = (v - 1) // 2
    size = 2 * m
    rng = random.Random(v)
    spent = 0
    while spent < budget:
        reps, steps = _half_turn_representatives(m, rng, min(_ATTEMPT, budget - spent))
        spent += steps + 1
        if reps is not None:
            base = [(0, m, size)] + reps + [tuple((x + m) % size for x in t) for t in reps]
            return [
                sorted(tuple(sorted(x if x == size else (x + s) % size for x in t)) for t in base)
                for s in range(m)
            ]
    return None


def _half_turn_representatives(
    m: int, rng: random.Random, limit: int
) -> tuple[list[tuple[int, ...]] | None, int]:
    """Triples ``T`` such that the ``T`` and ``T + m`` partition Z_2m ∖ {0, m}, no class twice."""
    size = 2 * m
    free = set(range(size)) - {0, m}
    used: set[int] = {m}
    reps: list[tuple[int, ...]] = []
    steps = _Steps(limit)

    def cls(d: int) -> int:
        d %= size
        return min(d, size - d)

    def search() -> bool:
        if not steps.take():
            return False
        if not free:
            return True
        p = min(free)
        rest = sorted(free - {p, p + m})
        rng.shuffle(rest)
        for i, b in enumerate(rest):
            k1 = cls(b - p)
            if k1 in used:
                continue
            for c in rest[i + 1 :]:
                k2, k3 = cls(c - p), cls(c - b)
                if c == (b + m) % size or len({k1, k2, k3} - used) < 3 or k2 == k3:
                    continue
                t = (p, b, c)
                both = t + tuple((x + m) % size for x in t)
                used.update((k1, k2, k3))
                free.difference_update(both)
                reps.append(t)
                if search():
                    return True
                reps.pop()
                free.update(both)
                used.difference_update((k1, k2, k3))
        return False

    return (reps if search() else None), steps.taken


def _one_rotational(v: int, budget: int) -> Schedule | None:
    m = (v - 1) // 2
    if m % 2 == 0:
        return None
    rng = random.Random(v)
    spent = 0
    points = {(x, lv) for x in range(1, m) for lv in (0, 1)}
    while spent < budget:
        used: set[Key] = {(0, 1, 0)}  # the triple {∞, (0, 0), (0, 1)}
        found, steps = _base_rounds(points, used, m, rng, min(_ATTEMPT, budget - spent))
        spent += steps + 1
        if found is not None:
            (base,) = found
            infinity = 2 * m
            rounds = []
            for s in range(m):
                tables = [tuple(sorted((infinity, s, s + m)))]
                tables += [tuple(sorted((x + s) % m + m * lv for x, lv in t)) for t in base]
                rounds.append(sorted(tables))
            return rounds
    return None


def _multiplied_one_rotational(v: int, budget: int) -> Schedule | None:
    """KTS(2g + 1), 1-rotational, whose base round ``x ↦ μx`` also keeps (μ³ = 1 in Z_g).

    The shape of :func:`_one_rotational` (points ``Z_g × {0, 1}`` and ∞,
    ``g`` odd), where some ``μ ≠ 1`` of ``Z_g`` has ``μ³ = 1`` and moves
    every ``x ≠ 0`` (``μ - 1`` a unit): 15, 27, 39, 63, 75, 87, 99, 123, ….
    Multiplying by μ maps differences to differences, so the base round is
    {∞, (0, 0), (0, 1)} and triples whose images under μ are in it too: a
    triple ``{x, μx, μ²x}`` on one level, kept as it is (it covers the
    differences ``±(μ - 1)x · {1, μ, μ²}`` once each, since
    ``μ² - 1 = -μ²(μ - 1)``), or a triple with its two images. A third of
    the points and differences to place: KTS(99) in about 1,100 steps,
    KTS(75) and KTS(87) in under 100, where the plain shape (and CaDiCaL
    over Z_37 × 2 or Z_49 × 2 for minutes) took far longer or gave up.
    """
    g = (v - 1) // 2
    if v % 6 != 3 or g % 2 == 0:
        return None
    mu = next((u for u in range(2, g) if pow(u, 3, g) == 1 and math.gcd(u - 1, g) == 1), None)
    if mu is None:
        return None
    rng = random.Random(v)
    spent = 0
    while spent < budget:
        base, steps = _multiplied_attempt(g, mu, rng, min(TURNED_ATTEMPT, budget - spent))
        spent += steps
        if base is None:
            spent += 1
            continue
        infinity: tuple[Point, ...] = ((0, -1), (0, 0), (0, 1))
        return _develop([[infinity, *base]], g, 2)
    return None


def _multiplied_attempt(
    g: int, mu: int, rng: random.Random, limit: int
) -> tuple[list[tuple[Point, ...]] | None, int]:
    """One restart of :func:`_multiplied_one_rotational`: the base round's triples but ∞'s."""
    times = (1, mu, mu * mu % g)

    def pure(d: int, level: int) -> Key:  # the orbit of ±d under μ, on one level
        return (level, level, min(min(d * t % g, -d * t % g) for t in times))

    def mixed(d: int) -> Key:  # the orbit of d from level 0 to level 1
        return (0, 1, min(d * t % g for t in times))

    used: set[Key] = set()
    free = {(min(x * t % g for t in times), lv) for x in range(1, g) for lv in (0, 1)}
    base: list[tuple[Point, ...]] = []
    steps = _Steps(limit)

    def keys_of(points: list[Point]) -> list[Key] | None:
        keys: list[Key] = []
        for i, (x, a) in enumerate(points):
            for y, b in points[i + 1 :]:
                if a == b:
                    k = pure(y - x, a)
                elif (y - x) % g == 0:
                    return None  # the ∞ triple's difference
                else:
                    k = mixed(y - x if a == 0 else x - y)
                if k in used or k in keys:
                    return None
                keys.append(k)
        return keys

    def place() -> bool:
        if not steps.take():
            return False
        if not free:
            return True
        first = min(free)
        free.discard(first)
        x, lv = first
        options: list[tuple[list[Point], list[Point], list[Key]]] = []
        kept = pure(x * (mu - 1), lv)  # {x, μx, μ²x}: its three differences are one orbit
        if kept not in used:
            options.append(([], [(x * t % g, lv) for t in times], [kept]))
        rest = sorted(free)
        for i, c in enumerate(rest):
            for d in rest[i + 1 :]:
                for s in times:
                    for t in times:
                        triple = [(x, lv), (c[0] * s % g, c[1]), (d[0] * t % g, d[1])]
                        keys = keys_of(triple)
                        if keys is not None:
                            options.append(([c, d], triple, keys))
        rng.shuffle(options)
        for taken, triple, keys in options:
            free.difference_update(taken)
            used.update(keys)
            images = [tuple(triple)] if not taken else _times(triple, times, g)
            base.extend(images)
            if place():
                return True
            del base[-len(images) :]
            used.difference_update(keys)
            free.update(taken)
        free.add(first)
        return False

    return (base if place() else None), steps.taken


def _times(triple: list[Point], times: tuple[int, ...], g: int) -> list[tuple[Point, ...]]:
    """``triple`` and its images under the multipliers ``times``."""
    return [tuple((x * t % g, lv) for x, lv in triple) for t in times]
