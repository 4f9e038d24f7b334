"""The difference method shared by the designs (:mod:`.designs`, :mod:`.kirkman`,
:mod:`.near_kirkman`, :mod:`.fours`) and the developed schedules (:mod:`.symmetric`).

Points are ``(x, level)`` with ``x`` in ``Z_m`` and fixed points ∞ on level -1. A pair's orbit
under ``x ↦ x + 1`` is its *difference* (:func:`_key_function`); a base round whose tables use
every difference at most once, shifted ``m`` times (:func:`_develop`), seats everyone without a
repeat. Here: the difference keys, the depth-first search for base rounds (:func:`_base_rounds`),
the development, the differences a development must avoid (:func:`never_developed`), and the
base rounds that turning the levels keeps (:func:`_turned_attempt`), which both the triples and
the fours use.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection

__all__ = ["never_developed"]

Schedule = list[list[tuple[int, ...]]]
Point = tuple[int, int]  # (x in Z_m, level)
Key = tuple[int, int, int]


class _Steps:
    """The steps a depth-first search has taken, up to ``limit``: its budget per restart."""

    def __init__(self, limit: int) -> None:
        self.limit, self.taken = limit, 0

    def take(self) -> bool:
        """Count a step; ``False`` once the search is past its limit (it backs out)."""
        self.taken += 1
        return self.taken <= self.limit


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


TURNED_ATTEMPT = 20_000  #: steps per restart of :func:`turned_fours`


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


def never_developed(g: int, levels: int, fixed: int) -> set[Key]:
    """Differences a developed base round must not use (keys of :func:`_key_function`).

    ``g / 2`` within a level: its pairs come back after ``g / 2`` shifts; ∞
    with ∞: the development never moves them, so they would meet every round.
    """
    leave = {(lv, lv, g // 2) for lv in range(levels)} if g % 2 == 0 else set()
    return leave | {(-1, a, b) for a in range(fixed) for b in range(fixed)}
