"""Nearly Kirkman triple systems: tables of three, two players meeting at most once.

A *nearly Kirkman triple system* NKTS(v) (v ≡ 0 mod 6, v ≥ 18) does the same
for (v - 2) / 2 rounds, every player missing exactly one other; the same
search builds it from several base rounds (see :func:`near_kirkman_schedule`).
Two players can meet at most once only up to these lengths: a player meets
two others a round, and (Kotzig & Rosa; Baker & Wilson) 6 and 12 players
have no NKTS, so 12 players get at most 4 rounds of threes without a repeat.

Built by the difference method (:mod:`.differences`) over several base rounds, or, for 72, 90,
96, …, from filled groups (:func:`_filled_groups`: groups of six and a resolvable Latin square).
"""

from __future__ import annotations

import random
from functools import lru_cache

from .differences import Point, Schedule, _base_rounds, _develop

__all__ = ["near_kirkman_schedule"]


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
