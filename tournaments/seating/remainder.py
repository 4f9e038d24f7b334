"""Players beyond a multiple of four, at an event played at tables of four only (Swedish
Priffe, seed 004: four players in two partnerships; any fours-only event): the organiser's
choice is carried out here, before the draw seats the rest.

* **Sitting out** — ``n mod 4`` players sit the round out, each credited the event's stated
  score. Who sits out takes turns: the players who sat out the fewest earlier rounds first;
  among them, the order a hash of the round's seed and the entry gives, so the choice is fair,
  reproducible from the published seed, and no player sits out twice before everyone who can
  has sat out once. A player fixed at a table sits out only when there is no one else.
* **Substitutes** — the ``(−n) mod 4`` substitutes who played the fewest earlier rounds (then
  the earliest registered) fill the last table; the others are not seated.

Pure functions of plain data (entry ids and counts), like the rest of the seating package.

>>> sitting_out([1, 2, 3, 4, 5, 6], k=2, rounds_out={1: 1, 2: 1, 3: 1, 4: 1}, seed="s")
(5, 6)
>>> substitutes([70, 71, 72], k=1, played={70: 2, 71: 0, 72: 0})
(71,)
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence

__all__ = ["remainder_of", "sitting_out", "sitting_out_settled", "substitutes"]


def remainder_of(n: int) -> int:
    """Players beyond a multiple of four (who sit out), ``n mod 4``."""
    return n % 4


def _lot(seed: str, entry: int) -> str:
    return hashlib.sha256(f"{seed}:sit-out:{entry}".encode()).hexdigest()


def sitting_out(
    entries: Sequence[int],
    *,
    k: int,
    rounds_out: Mapping[int, int],
    seed: str,
    fixed: Collection[int] = (),
) -> tuple[int, ...]:
    """The ``k`` entries who sit this round out (see the module docstring), in entry order.

    :raises ValueError: ``k`` is negative or more than the entries.
    """
    if not 0 <= k <= len(entries):
        raise ValueError(f"cannot sit out {k} of {len(entries)} players")
    order = sorted(entries, key=lambda e: (rounds_out.get(e, 0), e in fixed, _lot(seed, e)))
    return tuple(sorted(order[:k]))


def sitting_out_settled(
    entries: Sequence[int],
    *,
    k: int,
    rounds_out: Mapping[int, int],
    fixed: Collection[int] = (),
) -> tuple[int, ...] | None:
    """The ``k`` entries who sit the round out whatever its seed, or None when the seed decides
    among them (more players than ``k`` are due with the same claim): what the rounds ahead can
    say before a round's seed is chosen.

    >>> sitting_out_settled([1, 2, 3, 4, 5], k=1, rounds_out={1: 1, 2: 1, 3: 1, 4: 1})
    (5,)
    >>> sitting_out_settled([1, 2, 3, 4, 5], k=1, rounds_out={1: 1, 2: 1, 3: 1}) is None
    True
    """
    if not 0 <= k <= len(entries):
        raise ValueError(f"cannot sit out {k} of {len(entries)} players")
    claim = {e: (rounds_out.get(e, 0), e in fixed) for e in entries}
    order = sorted(entries, key=lambda e: claim[e])
    if 0 < k < len(order) and claim[order[k - 1]] == claim[order[k]]:
        return None
    return tuple(sorted(order[:k]))


def substitutes(available: Sequence[int], *, k: int, played: Mapping[int, int]) -> tuple[int, ...]:
    """The ``k`` substitutes who fill the last table: fewest rounds played, then the earliest
    registered (the lowest id); fewer when fewer are available."""
    order = sorted(available, key=lambda e: (played.get(e, 0), e))
    return tuple(sorted(order[:k]))
