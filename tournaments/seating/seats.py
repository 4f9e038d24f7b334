"""Seat order and first dealer at one table.

After the grouping, each table's clockwise order is chosen to minimise, in
order: (1) repeated left neighbours (the player to your left — next clockwise —
is the one you pass the deal to, 001 §3.2.2); (2) for Priffe, repeated
partnerships (opposite seats, seed 004); (3) seat positions a player has had
often (the squared gap between each player's most and least used seat). Ties are broken by the seeded draw, as the "тираж" (001 §3.1.1) would.
The first dealer (001 §3.2.1) is drawn among the players at the table who have
dealt first least often, so first deals are spread across the event.

Fixed partnerships (seed 004) always sit opposite: seats 0 & 2, 1 & 3.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

from .history import HistoryStats
from .model import EntryId

__all__ = ["seat_table"]


def seat_table(
    members: Sequence[EntryId],
    stats: HistoryStats,
    rng: random.Random,
    *,
    partners: dict[EntryId, EntryId] | None = None,
    balance_partners: bool = False,
) -> tuple[tuple[EntryId, ...], int]:
    """Clockwise seats and the first dealer's seat index for one table.

    >>> from .history import summarise
    >>> from .model import PastTable
    >>> s = summarise([PastTable(1, ("a", "b", "c"))])
    >>> seats, dealer = seat_table(["a", "b", "c"], s, random.Random(0))
    >>> seats in {("a", "c", "b"), ("c", "b", "a"), ("b", "a", "c")}  # never a→b again
    True
    >>> seats[dealer] != "a"  # a dealt first last time
    True
    """
    k = len(members)
    first, rest = members[0], list(members[1:])
    best: tuple[tuple[int, int, int, int, float], tuple[EntryId, ...]] | None = None
    for perm in permutations(rest):
        cycle = (first, *perm)
        if (
            partners
            and k == 4
            and any(partners.get(cycle[i]) not in (None, cycle[(i + 2) % 4]) for i in range(4))
        ):
            continue
        left = sum(len(stats.left.get((cycle[i], cycle[(i + 1) % k]), ())) for i in range(k))
        opposite = 0
        if balance_partners and k == 4:
            opposite = sum(
                len(stats.opposite.get(frozenset((cycle[i], cycle[i + 2])), ())) for i in (0, 1)
            )
        for shift in range(k):
            seats = cycle[shift:] + cycle[:shift]
            spread = sum(_spread_after(stats, x, i, k) ** 2 for i, x in enumerate(seats))
            seat_load = sum(
                stats.seats[x][i] if x in stats.seats else 0 for i, x in enumerate(seats)
            )
            key = (left, opposite, spread, seat_load, rng.random())
            if best is None or key < best[0]:
                best = (key, seats)
    assert best is not None, "partners must sit at the same 4-table"
    seats = best[1]
    fewest = min(stats.dealer.get(x, 0) for x in seats)
    candidates = [i for i, x in enumerate(seats) if stats.dealer.get(x, 0) == fewest]
    return seats, rng.choice(candidates)


def _spread_after(stats: HistoryStats, x: EntryId, seat: int, k: int) -> int:
    """Max − min of x's seat counts (seats 0 … k-1) if x takes ``seat`` now."""
    counts = [stats.seats[x][i] if x in stats.seats else 0 for i in range(k)]
    counts[seat] += 1
    return max(counts) - min(counts)
