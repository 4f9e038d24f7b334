"""Rounds taken from a resolvable design, relabelled by the seed.

A Kirkman or nearly Kirkman triple system, a resolvable design of fours
(see :mod:`.designs`) or a schedule found offline (:mod:`.catalogue`) is
relabelled by a seeded
permutation of the players and a seeded choice of its rounds, so different
seeds give different (but equally good) schedules. Table numbers are chosen
per round so that every *must-sit* player is at their table; if two such
players share a triple of the design at different tables, the design is not
used and the search takes over.

Any round with the tables of a round can be the first round of the design
(relabelling maps it there, table by table of the same size), so a first round drawn at the venue, by hand or by
the random method, still leads to a schedule without repeats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .catalogue import catalogued_schedule
from .designs import design_for
from .symmetric import developed_schedule

__all__ = ["design_rounds", "developed_rounds"]


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

    :param sizes: table sizes of one round: all threes or all fours for a
        design; any mix the catalogue of schedules found offline holds
        (:mod:`.catalogue`: 20 × 7, 29 × 11, 38 × 16, 40 × 18 at mixed tables).
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
    catalogued = catalogued_schedule(sizes, rounds + played)
    if catalogued is not None:
        schedule, how = catalogued
        return _relabelled(
            schedule, f"schedule found offline ({how})", sizes, fixed, rounds, rng, first_round
        )
    size = sizes[0] if sizes else 0
    if set(sizes) != {size} or size not in (3, 4) or rounds + played > (n - 1) // (size - 1):
        return None
    found = design_for(n, size, rounds=rounds + played, patient=patient)
    if found is None:
        return None
    kts, name = found
    return _relabelled(kts, name, sizes, fixed, rounds, rng, first_round)


def developed_rounds(
    sizes: Sequence[int],
    fixed: Mapping[int, int],
    rounds: int,
    rng: random.Random,
    *,
    first_round: Sequence[Sequence[int]] | None = None,
) -> tuple[list[list[list[int]]], str] | None:
    """Like :func:`design_rounds`, from a developed base round (:func:`.symmetric.developed_schedule`).

    Any mix of table sizes; seconds of CP-SAT, so only where the quicker
    methods left a repeat.
    """
    played = 1 if first_round is not None else 0
    found = developed_schedule(sizes, rounds + played)
    if found is None:
        return None
    schedule, name = found
    return _relabelled(schedule, name, sizes, fixed, rounds, rng, first_round)


def _relabelled(
    schedule: list[list[tuple[int, ...]]],
    name: str,
    sizes: Sequence[int],
    fixed: Mapping[int, int],
    rounds: int,
    rng: random.Random,
    first_round: Sequence[Sequence[int]] | None,
) -> tuple[list[list[list[int]]], str] | None:
    """``rounds`` of ``schedule``'s rounds with the players relabelled, tables numbered.

    With ``first_round``, one round of the schedule is mapped onto it table by
    table (tables of the same size in any order) and the rounds after it follow.
    """
    n = sum(sizes)
    played = 1 if first_round is not None else 0
    order = list(range(len(schedule)))
    rng.shuffle(order)
    label = list(range(n))
    if first_round is None:
        rng.shuffle(label)
    else:
        ours = sorted(schedule[order[0]], key=len)
        theirs = sorted(first_round, key=len)
        if [len(t) for t in ours] != [len(t) for t in theirs]:
            return None
        for design_table, table in zip(ours, theirs, strict=True):
            for x, y in zip(design_table, table, strict=True):
                label[x] = y
    out = []
    for r in order[played : played + rounds]:
        tables = [sorted(label[x] for x in t) for t in schedule[r]]
        rng.shuffle(tables)
        numbered = _number(tables, sizes, fixed)
        if numbered is None:
            return None
        out.append(numbered)
    return out, name


def _number(
    tables: list[list[int]], sizes: Sequence[int], fixed: Mapping[int, int]
) -> list[list[int]] | None:
    """Tables in table-number order (``sizes[i]`` seats at number ``i``), must-sit players at theirs."""
    numbered: list[list[int] | None] = [None] * len(sizes)
    free = []
    for t in tables:
        wanted = {fixed[x] for x in t if x in fixed}
        if len(wanted) > 1:
            return None  # must-sit at two tables: leave it to the search
        if wanted:
            (number,) = wanted
            if numbered[number] is not None or sizes[number] != len(t):
                return None
            numbered[number] = t
        else:
            free.append(t)
    for i, t in enumerate(numbered):
        if t is None:
            fits = [k for k, f in enumerate(free) if len(f) == sizes[i]]
            if not fits:
                return None
            numbered[i] = free.pop(fits[-1])  # the last: one size pops as it always did
    return numbered  # type: ignore[return-value]
