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

A *nearly Kirkman triple system* NKTS(v) (v ≡ 0 mod 6, v ≥ 18) does the same
for (v - 2) / 2 rounds, every player missing exactly one other; the same
search builds it from several base rounds (see :func:`near_kirkman_schedule`).
Two players can meet at most once only up to these lengths: a player meets
two others a round, and (Kotzig & Rosa; Baker & Wilson) 6 and 12 players
have no NKTS, so 12 players get at most 4 rounds of threes without a repeat.

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
from collections.abc import Callable, Collection
from functools import lru_cache

from .exact import deterministic_solver
from .symmetric import symmetric_design

__all__ = [
    "design_for",
    "design_name",
    "cyclic_schedule",
    "four_design",
    "kirkman_schedule",
    "max_rounds_without_repeat",
    "near_kirkman_schedule",
    "triple_design",
]

Schedule = list[list[tuple[int, ...]]]
Point = tuple[int, int]  # (x in Z_m, level)
Key = tuple[int, int, int]
QUICK_DESIGNS_UP_TO = 40  #: largest count tried before the tabu search (see design_for)
QUICK_FOURS_UP_TO = 64  #: the same at tables of four: 44–64 take 0.4–2 s (see turned_fours)
#: steps of a design of fours: 44 needs 79,592, 48 44,140, 52 62,000, 56 123,397, 64 96,000
FOURS_BUDGET = 200_000
_ATTEMPT = 300  # steps per restart: the search is heavy-tailed, restarts pay


class _Steps:
    """The steps a depth-first search has taken, up to ``limit``: its budget per restart."""

    def __init__(self, limit: int) -> None:
        self.limit, self.taken = limit, 0

    def take(self) -> bool:
        """Count a step; ``False`` once the search is past its limit (it backs out)."""
        self.taken += 1
        return self.taken <= self.limit


def max_rounds_without_repeat(n: int, table_size: int = 3) -> int:
    """Upper bound on rounds in which no two of ``n`` players meet twice.

    Every round a player meets ``table_size - 1`` new opponents out of ``n - 1``.

    >>> max_rounds_without_repeat(15), max_rounds_without_repeat(21), max_rounds_without_repeat(16, 4)
    (7, 10, 5)
    """
    return (n - 1) // (table_size - 1)


def triple_design(n: int, *, patient: bool = False) -> Schedule | None:
    """The longest schedule of tables of three without a repeat that we construct for ``n``.

    A Kirkman triple system for n ≡ 3 (mod 6), a nearly Kirkman one for
    n ≡ 0 (mod 6); ``None`` otherwise or if the construction ran out of budget.

    :param patient: search fifty (KTS) or five (NKTS) times longer — seconds, not
        milliseconds; worth it only when the tabu search has left a repeat
        (sizes over 40).
    """
    if n % 6 == 3:
        return kirkman_schedule(n, budget=3_000_000 if patient else 60_000)
    if n % 6 == 0:
        return near_kirkman_schedule(n, budget=1_500_000 if patient else 300_000)
    return None


def design_for(
    n: int, size: int, *, rounds: int = 0, patient: bool = False
) -> tuple[Schedule, str] | None:
    """A schedule of at least ``rounds`` rounds without a repeat, and its name.

    Without ``patient`` sizes over ``QUICK_DESIGNS_UP_TO`` (at fours
    ``QUICK_FOURS_UP_TO``) are not tried: the tabu search seats them without
    a repeat for the rounds events play, and a failed construction would
    cost seconds. The Kirkman shapes with a multiplier or a turn of the
    levels (:func:`_multiplied_one_rotational`, :func:`_turned_triples`)
    answer in under a second where they apply (75, 87, 93, 99), so they are
    tried up to ``SYMMETRIC_KIRKMAN_UP_TO`` players (a miss costs under a
    second there; 183 takes 16 s to give up), and so is the NKTS of
    :func:`_filled_groups` up to ``QUICK_FILLED_GROUPS_UP_TO`` (72, 90, 96).

    :func:`triple_design` for tables of three, :func:`four_design` for
    tables of four; with ``patient``, where those have none that long, a
    schedule with a known symmetry (:func:`.symmetric.symmetric_design`: 24 and 32
    players at fours up to the bound) or a :func:`cyclic_schedule` of exactly
    ``rounds`` rounds.
    """
    full = None
    if not patient and n > (QUICK_FOURS_UP_TO if size == 4 else QUICK_DESIGNS_UP_TO):
        if size == 3 and n <= SYMMETRIC_KIRKMAN_UP_TO:  # the tabu search seats the others
            full = _symmetric_kirkman(n)
        if size == 3 and n <= QUICK_FILLED_GROUPS_UP_TO:
            full = full or _filled_groups(n)
    elif size == 3:
        full = triple_design(n, patient=patient)
    elif size == 4:
        full = four_design(n, budget=FOURS_BUDGET)
    if full is not None and len(full) >= rounds:
        return full, design_name(n, size)
    if not patient:
        return None
    symmetric = symmetric_design(n, size, rounds)  # a table look-up first: the cyclic
    if symmetric is not None:  # search takes seconds to fail at 24 × 6
        return symmetric, "symmetric schedule"
    cyclic = cyclic_schedule(n, size, rounds)
    return None if cyclic is None else (cyclic, "cyclic schedule")


SYMMETRIC_KIRKMAN_UP_TO = 150  #: players: 99 in 0.7 s, 147 in 2.2 s, 111 and 129 miss in 0.6–0.9 s
#: :func:`_filled_groups`: 72 and 90 in 0.3 s, 96 in 0.1 s (120: 7 s, NKTS(30) taking them)
QUICK_FILLED_GROUPS_UP_TO = 96
SYMMETRIC_KIRKMAN_BUDGET = 10_000  #: steps: KTS(99) takes 1,100; a miss costs under a second


@lru_cache(maxsize=16)
def _symmetric_kirkman(v: int) -> Schedule | None:
    """A KTS(v) of the two shapes with more symmetry, or ``None`` (at once where neither applies)."""
    for build in (_multiplied_one_rotational, _turned_triples):
        found = build(v, SYMMETRIC_KIRKMAN_BUDGET)
        if found is not None:
            return found
    return None


def design_name(n: int, size: int = 3) -> str:
    """What :func:`design_for` builds in full, for draw reports."""
    if size == 4:
        missing = {
            4: "",
            0: ", every player missing two others",
            8: ", every player missing one other",
        }
        return "resolvable design of fours" + missing[n % 12]
    return "Kirkman triple system" if n % 6 == 3 else "nearly Kirkman triple system"


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


def _key_function(m: int) -> Callable[[Point, Point], Key | None]:
    """The orbit of a pair under ``x ↦ x + 1`` (its *difference*); fixed points ∞ have level -1."""

    def key(p: Point, q: Point) -> Key | None:
        (xa, la), (xb, lb) = (p, q) if (p[1], p[0]) <= (q[1], q[0]) else (q, p)
        if la < 0:  # ∞_xa with another ∞, or with a whole level
            return (-1, xa, xb) if lb < 0 else (-2 - xa, lb, 0)
        if la == lb:
            if xa == xb:
                return None
            d = (xa - xb) % m
            return (la, la, min(d, m - d))
        return (la, lb, (xb - xa) % m)

    return key


def _base_rounds(
    points: set[Point],
    used: set[Key],
    m: int,
    rng: random.Random,
    limit: int,
    count: int = 1,
    size: int = 3,
    constrained_first: bool | None = None,
) -> tuple[list[list[tuple[Point, ...]]] | None, int]:
    """``count`` rounds of ``size``-blocks, each partitioning ``points``; no difference twice or in ``used``."""
    key = _key_function(m)
    free = [set(points) for _ in range(count)]
    base: list[list[tuple[Point, ...]]] = [[] for _ in range(count)]
    steps = _Steps(limit)
    if constrained_first is None:
        # Half the restarts take the most constrained point first (finds KTS(45),
        # NKTS(42), NKTS(48) at once), half the smallest point (the older order).
        constrained_first = rng.random() < 0.5

    def search(r: int) -> bool:
        if not steps.take():
            return False
        while r < count and not free[r]:
            r += 1
        if r == count:
            return True
        if not constrained_first:
            first = min(free[r])
            rest = sorted(free[r] - {first})
            rng.shuffle(rest)
            return grow(r, [first], rest, 0)
        # the most constrained point first: the one with the fewest possible partners
        first, rest = None, []
        for p in sorted(free[r]):
            partners = [q for q in free[r] if q != p and key(p, q) not in used]
            if first is None or len(partners) < len(rest):
                first, rest = p, partners
                if len(partners) < size - 1:
                    return False  # p cannot be seated: back up
        rest.sort()
        rng.shuffle(rest)
        return grow(r, [first], rest, 0)

    def grow(r: int, block: list[Point], rest: list[Point], start: int) -> bool:
        if len(block) == size:
            free[r].difference_update(block)
            base[r].append(tuple(block))
            if search(r):
                return True
            base[r].pop()
            free[r].update(block)
            return False
        for i in range(start, len(rest)):
            keys: list[Key] = []
            for x in block:
                k = key(x, rest[i])
                if k is None or k in used or k in keys:
                    break
                keys.append(k)
            else:
                used.update(keys)
                block.append(rest[i])
                if grow(r, block, rest, i + 1):
                    return True
                block.pop()
                used.difference_update(keys)
        return False

    return (base if search(0) else None), steps.taken


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


def near_kirkman_schedule(v: int, *, budget: int = 300_000) -> Schedule | None:
    """All ``(v - 2) / 2`` rounds of a nearly Kirkman triple system on ``0 … v-1``.

    An NKTS(v) (v ≡ 0 mod 6, v ≥ 18; none exists for 6 or 12) seats ``v``
    players at tables of three so that two players meet at most once; each
    player misses exactly one other (the pairs never met form a 1-factor).

    Deterministic like :func:`kirkman_schedule`. The default budget finds
    18 to 54 (30 in about 3 s, 42 in 5 s, 54 in 8 s; the rest in under 0.2 s);
    72, 90 and 96 come from filled groups in under 0.3 s.

    >>> rounds = near_kirkman_schedule(18)
    >>> len(rounds)
    8
    >>> pairs = [frozenset((a, b)) for r in rounds for t in r for a in t for b in t if a < b]
    >>> len(pairs) == len(set(pairs)) == 18 * 17 // 2 - 9
    True
    """
    found = _near_kirkman(v, budget)
    return None if found is None else [list(r) for r in found]


@lru_cache(maxsize=16)
def _near_kirkman(v: int, budget: int) -> Schedule | None:
    """Filled groups where they apply (:func:`_filled_groups`: 72, 90, 96, …), else the
    difference method over ``Z_g × {0 … 2k-1} ∪ {∞0, ∞1}`` with ``g · k = (v - 2) / 2``.

    ``k`` base rounds developed by ``x ↦ x + 1`` give ``g · k`` rounds. The
    pairs never met are {∞0, ∞1} and one short or chosen orbit per level:
    difference ``g / 2`` on every level if ``g`` is even (those orbits are
    half-length, so they could not be used anyway), else the mixed difference
    0 between levels ``2j`` and ``2j + 1``. Shapes with small ``k`` are tried
    in turn, one restart each (v = 18 needs ``k = 2``; most sizes ``k = 1``).
    """
    if v < 18 or v % 6:
        return None
    filled = _filled_groups(v)
    if filled is not None:
        return filled
    m = (v - 2) // 2
    shapes = [k for k in range(1, m + 1) if m % k == 0 and m // k >= 3][:3]
    rng = random.Random(v)
    spent = 0
    attempt = 0
    while spent < budget:
        k = shapes[attempt % len(shapes)]
        attempt += 1
        g, levels = m // k, 2 * k
        if g % 2 == 0:
            leave = {(lv, lv, g // 2) for lv in range(levels)}
        else:
            leave = {(2 * j, 2 * j + 1, 0) for j in range(k)}
        points = {(x, lv) for x in range(g) for lv in range(levels)} | {(0, -1), (1, -1)}
        found, steps = _base_rounds(
            points, {(-1, 0, 1), *leave}, g, rng, min(100 * v, budget - spent), k
        )
        spent += steps + 1
        if found is not None:
            return _develop(found, g, levels)
    return None


#: A 3-RGDD of type 6^4: four groups of six players, 9 rounds of triples in which two players of
#: different groups meet exactly once and two of one group never. Three base rounds over
#: Z_3 × {0 … 7} (group j: the levels 2j and 2j + 1), each shifted by 0, 1 and 2 like those of
#: :func:`_base_rounds`, whose search misses it in 100,000 steps: CaDiCaL found it (95 s), and
#: tests check it. A master of :func:`_filled_groups`.
_RGDD_6_4: tuple[tuple[tuple[Point, Point, Point], ...], ...] = (
    (((0, 0), (1, 5), (0, 6)), ((1, 0), (2, 2), (1, 7)), ((2, 0), (0, 3), (1, 4)),
     ((0, 1), (0, 2), (2, 5)), ((1, 1), (1, 3), (2, 6)), ((2, 1), (2, 4), (0, 7)),
     ((1, 2), (0, 4), (2, 7)), ((2, 3), (0, 5), (1, 6))),
    (((0, 0), (0, 5), (1, 7)), ((1, 0), (1, 3), (1, 4)), ((2, 0), (2, 2), (0, 6)),
     ((0, 1), (1, 2), (1, 5)), ((1, 1), (2, 4), (1, 6)), ((2, 1), (0, 3), (2, 7)),
     ((0, 2), (0, 4), (0, 7)), ((2, 3), (2, 5), (2, 6))),
    (((0, 0), (2, 2), (2, 6)), ((1, 0), (0, 5), (0, 7)), ((2, 0), (1, 3), (0, 4)),
     ((0, 1), (2, 3), (2, 7)), ((1, 1), (0, 2), (1, 5)), ((2, 1), (1, 4), (1, 6)),
     ((1, 2), (2, 4), (0, 6)), ((0, 3), (2, 5), (1, 7))),
)  # fmt: skip

#: A 3-RGDD of type 6^5, 12 rounds: players (g, y), group g in Z_5, y < 6, and g ↦ g + 1
#: moving group to group. Two base rounds, each moved 0 … 4 times, and two rounds of two
#: triples, each triple moved 0 … 4 times (the round that moving keeps). CaDiCaL found it
#: (47 s; over Z_3 × 10 it had no answer in 15 minutes); tests check it.
_RGDD_6_5_BASES: tuple[tuple[tuple[Point, Point, Point], ...], ...] = (
    (((0, 0), (2, 0), (1, 4)), ((1, 0), (0, 2), (4, 4)), ((3, 0), (1, 2), (4, 2)),
     ((4, 0), (3, 1), (0, 5)), ((0, 1), (2, 3), (3, 5)), ((1, 1), (2, 1), (3, 2)),
     ((4, 1), (0, 4), (3, 4)), ((2, 2), (1, 3), (3, 3)), ((0, 3), (2, 4), (4, 5)),
     ((4, 3), (1, 5), (2, 5))),
    (((0, 0), (2, 1), (1, 3)), ((1, 0), (4, 1), (3, 2)), ((2, 0), (3, 0), (0, 3)),
     ((4, 0), (1, 5), (3, 5)), ((0, 1), (3, 1), (4, 5)), ((1, 1), (3, 4), (4, 4)),
     ((0, 2), (4, 2), (2, 5)), ((1, 2), (2, 4), (0, 5)), ((2, 2), (4, 3), (0, 4)),
     ((2, 3), (3, 3), (1, 4))),
)  # fmt: skip
_RGDD_6_5_KEPT: tuple[tuple[tuple[Point, Point, Point], ...], ...] = (
    (((0, 0), (1, 1), (4, 3)), ((0, 2), (2, 4), (1, 5))),
    (((0, 0), (2, 4), (3, 5)), ((0, 1), (3, 2), (1, 3))),
)  # fmt: skip


def _groups_of_six(groups: int) -> Schedule:
    """A 3-RGDD of type 6^4 or 6^5 on ``0 … 6·groups − 1``, group ``j`` being ``6j … 6j + 5``.

    >>> [(len(r), {len(t) for t in r[0]}) for r in (_groups_of_six(4), _groups_of_six(5))]
    [(9, {3}), (12, {3})]
    """
    if groups == 4:
        return _develop([list(base) for base in _RGDD_6_4], 3, 8)

    def moved(t: tuple[Point, ...], h: int) -> tuple[int, ...]:
        return tuple(sorted(6 * ((g + h) % 5) + y for g, y in t))

    rounds = [[moved(t, h) for t in base] for base in _RGDD_6_5_BASES for h in range(5)]
    rounds += [[moved(t, h) for t in kept for h in range(5)] for kept in _RGDD_6_5_KEPT]
    return [sorted(r) for r in rounds]


def _resolvable_latin(w: int) -> list[list[tuple[int, int, int]]] | None:
    """A resolvable transversal design TD(3, w): ``w`` classes of ``w`` triples ``(i, j, k)``.

    Every pair of coordinates meets once over all ``w²`` triples, and each
    class holds every ``i``, every ``j`` and every ``k`` once. Over a field
    of order ``w``: the triples ``(i, i + t, αi + (i + t))`` of class ``t``
    with ``α`` neither 0 nor −1 (``Z_w`` with α = 1 for odd ``w``; GF(4) and
    GF(8) with α = x). None exists for ``w = 2``; ``None`` for the orders
    this does not build (6, 10, 12, …).
    """
    if w % 2:
        add, times_alpha = (lambda a, b: (a + b) % w), (lambda a: a)
    elif w in (4, 8):
        modulus = {4: 0b111, 8: 0b1011}[w]  # x² + x + 1, x³ + x + 1

        def add(a: int, b: int) -> int:
            return a ^ b

        def times_alpha(a: int) -> int:
            a <<= 1
            return a ^ modulus if a >= w else a

    else:
        return None
    return [[(i, add(i, t), add(times_alpha(i), add(i, t))) for i in range(w)] for t in range(w)]


@lru_cache(maxsize=8)
def _filled_groups(v: int) -> Schedule | None:
    """An NKTS(v) for ``v = 6wu``, ``u`` = 4 or 5 groups (w odd from 3, 4 or 8), or ``None``.

    72, 90, 96, 120, 150, 168, 192, …: the 3-RGDD of type 6^u
    (:func:`_groups_of_six`) with every player made ``w`` (each triple
    ``{a, b, c}`` becoming the triples ``{(a, i), (b, j), (c, k)}`` of a
    resolvable TD(3, w), class by class: :func:`_resolvable_latin`) is a
    3-RGDD of type (6w)^u, ``3w(u − 1)`` rounds in which each player meets
    everyone outside its group once. An NKTS(6w) played in all the groups at
    once adds ``3w − 1`` rounds: ``(v − 2) / 2`` in all, each player missing
    only its partner in its group's NKTS. The difference method of
    :func:`_near_kirkman` finds no NKTS(96) (Z_47 × 2 and 2 ∞ has no
    multiplier); this takes milliseconds.
    """
    for groups in (4, 5):
        w, h = v // (6 * groups), v // groups
        classes = _resolvable_latin(w) if v % (6 * groups) == 0 and w >= 3 else None
        inner = _near_kirkman(h, 300_000) if classes is not None else None
        if classes is None or inner is None:
            continue
        rounds = [
            sorted(
                tuple(sorted((a * w + i, b * w + j, c * w + k)))  # player p made p·w … p·w + w − 1
                for a, b, c in master
                for i, j, k in cls
            )
            for master in _groups_of_six(groups)
            for cls in classes
        ]
        rounds += [
            sorted(tuple(h * group + p for p in t) for group in range(groups) for t in r)
            for r in inner
        ]
        return rounds
    return None


def _develop(found: list[list[tuple[Point, ...]]], g: int, levels: int) -> Schedule:
    """Every base round shifted by ``0 … g-1``; points ``(x, level)`` → ``x + g·level``, ∞_j → ``g·levels + j``."""

    def label(p: Point, shift: int) -> int:
        x, lv = p
        return g * levels + x if lv < 0 else (x + shift) % g + g * lv

    return [
        sorted(tuple(sorted(label(p, s) for p in t)) for t in base)
        for base in found
        for s in range(g)
    ]


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


TURNED_ATTEMPT = 20_000  #: steps per restart of :func:`turned_fours`
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


def _cube_root_of_unity(g: int) -> int | None:
    """The least ``μ ≠ 1`` with ``μ³ ≡ 1 (mod g)``, or ``None`` (14: 9; 18: 7; 22: none)."""
    return next((m for m in range(2, g) if pow(m, 3, g) == 1), None)


def _turned(blocks: list[tuple[Point, ...]], g: int, mu: int = 1) -> list[tuple[Point, ...]]:
    """Each base block at its levels, then turned once and twice: ``(x, i) ↦ (μx, i + 1 mod 3)``."""
    return [
        tuple((x * pow(mu, t, g) % g, (lv + t) % 3) for x, lv in b)
        for b in blocks
        for t in range(3)
    ]


def _turned_attempt(
    g: int,
    rng: random.Random,
    limit: int,
    size: int = 4,
    used: Collection[tuple[int, int]] = (),
    placed: Collection[int] = (0,),
    mu: int = 1,
) -> tuple[list[tuple[Point, ...]] | None, int]:
    """One restart of :func:`turned_fours` (or :func:`_turned_triples`, ``size`` 3, where
    the fixed rounds have ``used`` some differences; with two or three ∞ the ``placed``
    orbits are in their blocks, and with two the turn multiplies by ``mu``): the base
    blocks (``None`` past ``limit`` steps).

    A point ``(x, i)`` stands for its orbit under the turn ``(x, i) ↦ (μx, i + 1)``,
    named by the point at level 0, ``μ⁻ⁱx``; a difference is named as the turn
    carries it to level 0 (pure) or to "from level 0 to 1" (mixed).
    """
    back = [pow(mu, -t, g) for t in range(3)]  # μ⁰, μ⁻¹, μ⁻² mod g

    def key(p: Point, q: Point) -> tuple[int, int]:
        (x, i), (y, j) = p, q
        if i == j:  # pure, up to sign
            d = (y - x) * back[i] % g
            return (0, min(d, g - d))
        if (j - i) % 3 == 1:  # mixed, to the next level
            return (1, (y - x) * back[i] % g)
        return (1, (x - y) * back[j] % g)

    def orbit(p: Point) -> int:
        return p[0] * back[p[1]] % g

    used = set(used)
    free = set(range(g)) - set(placed)
    blocks: list[tuple[Point, ...]] = []
    steps = _Steps(limit)

    def keys_with(block: list[Point], p: Point) -> list[tuple[int, int]] | None:
        keys: list[tuple[int, int]] = []
        for q in block:
            k = key(q, p)
            if k in used or k in keys:
                return None
            keys.append(k)
        return keys

    def open_block() -> bool:
        if not free:
            return True
        # the point with the fewest partners left opens the block, at level 0 (levels turn)
        first, partners = None, []
        for x in sorted(free):
            turned = [(y * pow(mu, lv, g) % g, lv) for y in sorted(free - {x}) for lv in range(3)]
            can = [p for p in turned if key((x, 0), p) not in used]
            if first is None or len(can) < len(partners):
                first, partners = x, can
        if len(partners) < size - 1:
            return False
        rng.shuffle(partners)
        free.discard(first)
        if grow([(first, 0)], partners):
            return True
        free.add(first)
        return False

    def grow(block: list[Point], partners: list[Point]) -> bool:
        if not steps.take():
            return False
        if len(block) == size:
            blocks.append(tuple(block))
            if open_block():
                return True
            blocks.pop()
            return False
        for n, p in enumerate(partners):
            keys = keys_with(block, p) if orbit(p) in free else None
            if keys is None:
                continue
            used.update(keys)
            free.discard(orbit(p))
            block.append(p)
            if grow(block, partners[n + 1 :]):
                return True
            block.pop()
            free.add(orbit(p))
            used.difference_update(keys)
        return False

    return (blocks if open_block() else None), steps.taken


def cyclic_schedule(n: int, size: int, rounds: int, *, budget: int = 100_000) -> Schedule | None:
    """``rounds`` rounds at tables of ``size`` without a repeat, from one base round.

    Points ``Z_g × {0 … L-1}`` and ``F`` fixed points ∞ with ``g · L + F = n``
    and ``g ≥ rounds``: a base round whose blocks use every difference at most
    once, developed ``x ↦ x + 1`` (∞ stays put), gives ``g`` rounds in which no
    pair meets twice (differences ``g / 2`` are left out: their orbits are
    half-length; two ∞ never share a table, they would every round). It exists
    only where enough differences are left for the blocks of a round, so it
    serves near the bound no design reaches: 32 players over 8 rounds of fours
    (Z_8 × 4), 36 over 9 (Z_9 × 4) and over 10 (Z_10 × 3 and six ∞), 40 over
    10 — where the tabu search leaves a repeat.

    >>> rounds = cyclic_schedule(32, 4, 8)
    >>> pairs = [frozenset((a, b)) for r in rounds for t in r for a in t for b in t if a < b]
    >>> len(rounds), len(pairs) == len(set(pairs))
    (8, True)
    """
    found = _cyclic(n, size, rounds, budget)
    return None if found is None else [list(r) for r in found]


@lru_cache(maxsize=16)
def _cyclic(n: int, size: int, rounds: int, budget: int) -> Schedule | None:
    if n % size or rounds < 1:
        return None
    tables = n // size
    shapes = []  # (g, L, F)
    for fixed in range(tables + 1):
        for g in range(max(rounds, 2), n - fixed + 1):
            if (n - fixed) % g:
                continue
            levels = (n - fixed) // g
            differences = levels * ((g - 1) // 2) + levels * (levels - 1) // 2 * g + fixed * levels
            if differences >= tables * size * (size - 1) // 2:
                shapes.append((g, levels, fixed))
    shapes.sort(key=lambda s: (s[0], s[2]))  # smallest g, then fewest ∞ (36 × 10: Z_10 × 3, six ∞)
    rng = random.Random(f"{n}/{size}/{rounds}")
    for g, levels, fixed in shapes[:2]:
        points = {(x, lv) for x in range(g) for lv in range(levels)} | {
            (i, -1) for i in range(fixed)
        }
        leave = never_developed(g, levels, fixed)
        spent = 0
        while spent < budget // 2:
            found, steps = _base_rounds(
                points, set(leave), g, rng, min(100 * n, budget - spent), 1, size
            )
            spent += steps + 1
            if found is not None:
                return _develop(found, g, levels)[:rounds]
    return None


def never_developed(g: int, levels: int, fixed: int) -> set[Key]:
    """Differences a developed base round must not use (keys of :func:`_key_function`).

    ``g / 2`` within a level: its pairs come back after ``g / 2`` shifts; ∞
    with ∞: the development never moves them, so they would meet every round.
    """
    leave = {(lv, lv, g // 2) for lv in range(levels)} if g % 2 == 0 else set()
    return leave | {(-1, a, b) for a in range(fixed) for b in range(fixed)}


def _projective_packing() -> Schedule | None:
    """The 40 points of PG(3, 3), its lines (4 points each) split into 13 spreads.

    A spread is a set of 10 disjoint lines covering every point: a round of
    fours. Two points lie on exactly one line, so a *packing* (the lines
    split into spreads; Denniston 1972: one exists for every PG(3, q)) is a
    resolvable (40, 4, 1) design. CP-SAT finds one in a tenth of a second;
    one worker and a fixed seed make it the same every time.
    """
    from itertools import combinations, product

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
