"""Resolvable designs: schedules in which no two players ever meet twice.

:func:`design_for` picks the construction for a count and a table size: a Kirkman triple
system (:mod:`.kirkman`) or a nearly Kirkman one (:mod:`.near_kirkman`) at tables of three, a
design of fours (:mod:`.fours`), with ``patient`` a schedule with a known symmetry
(:mod:`.symmetric`) or a :func:`cyclic_schedule` (base rounds developed by the difference
method, :mod:`.differences`). :func:`max_rounds_without_repeat` is the counting bound they
reach. A search that exhausts its step budget returns ``None`` and the caller falls back to
local search.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .differences import Schedule, _base_rounds, _develop, never_developed
from .fours import FOURS_BUDGET, four_design
from .kirkman import _symmetric_kirkman, kirkman_schedule
from .near_kirkman import _filled_groups, near_kirkman_schedule
from .symmetric import symmetric_design

__all__ = [
    "design_for",
    "design_name",
    "cyclic_schedule",
    "max_rounds_without_repeat",
    "triple_design",
]

QUICK_DESIGNS_UP_TO = 40  #: largest count tried before the tabu search (see design_for)
QUICK_FOURS_UP_TO = 64  #: the same at tables of four: 44–64 take 0.4–2 s (see turned_fours)


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
