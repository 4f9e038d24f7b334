"""Rounds taken from a resolvable design, relabelled by the seed.

A Kirkman or nearly Kirkman triple system, or a resolvable design of fours
(see :mod:`.designs`), is relabelled by a seeded
permutation of the players and a seeded choice of its rounds, so different
seeds give different (but equally good) schedules. Table numbers are chosen
per round so that every *must-sit* player is at their table; if two such
players share a triple of the design at different tables, the design is not
used and the search takes over.

Any round of threes (fours) can be the first round of the design (all rounds are
alike up to relabelling), so a first round drawn at the venue, by hand or by
the random method, still leads to a schedule without repeats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .designs import design_for

__all__ = ["design_rounds"]


def design_rounds(
    sizes: Sequence[int],
    fixed: Mapping[int, int],
    rounds: int,
    rng: random.Random,
    *,
    first_round: Sequence[Sequence[int]] | None = None,
    patient: bool = False,
) -> tuple[list[list[list[int]]], str] | None:
    """``rounds`` rounds of tables (players ``0 … n-1``) without a repeat and the design's name.

    :param sizes: table sizes of one round; only all-threes or all-fours qualify.
    :param fixed: player → table index (must-sit).
    :param first_round: an already played round of triples covering every
        player; the rounds returned follow it without repeating a meeting.
    :param patient: give the construction a longer budget (see ``designs.triple_design``).

    >>> rounds, name = design_rounds([3] * 5, {}, 6, random.Random(1), first_round=[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14]])
    >>> pairs = [frozenset((a, b)) for r in rounds for t in r for a in t for b in t if a < b]
    >>> len(pairs) == len(set(pairs)) == 15 * 14 // 2 - 15
    True
    """
    n = sum(sizes)
    played = 1 if first_round is not None else 0
    size = sizes[0] if sizes else 0
    if set(sizes) != {size} or size not in (3, 4) or rounds + played > (n - 1) // (size - 1):
        return None
    found = design_for(n, size, rounds=rounds + played, patient=patient)
    if found is None:
        return None
    kts, name = found
    order = list(range(len(kts)))
    rng.shuffle(order)
    label = list(range(n))
    if first_round is None:
        rng.shuffle(label)
    else:
        for design_table, table in zip(kts[order[0]], first_round, strict=True):
            for x, y in zip(design_table, table, strict=True):
                label[x] = y
    out = []
    for r in order[played : played + rounds]:
        tables = [sorted(label[x] for x in t) for t in kts[r]]
        rng.shuffle(tables)
        numbered = _number(tables, fixed)
        if numbered is None:
            return None
        out.append(numbered)
    return out, name


def _number(tables: list[list[int]], fixed: Mapping[int, int]) -> list[list[int]] | None:
    numbered: list[list[int] | None] = [None] * len(tables)
    free = []
    for t in tables:
        wanted = {fixed[x] for x in t if x in fixed}
        if len(wanted) > 1:
            return None  # must-sit at two tables: leave it to the search
        if wanted:
            (number,) = wanted
            if numbered[number] is not None:
                return None
            numbered[number] = t
        else:
            free.append(t)
    return [t if t is not None else free.pop() for t in numbered]
