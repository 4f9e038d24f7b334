"""Rounds taken from a resolvable design, relabelled by the seed.

A Kirkman or nearly Kirkman triple system, a resolvable design of fours
(see :mod:`.designs`) or a schedule found offline (:mod:`.catalogue`) is
relabelled by a seeded
permutation of the players and a seeded choice of its rounds, so different
seeds give different (but equally good) schedules. Table numbers are chosen
per round so that every *must-sit* player is at their table, and players
who must not meet are kept apart: where the first relabelling does not do
that, those players are placed on points of the design that fit
(:func:`_fitted_labels`) and the rest at random; if no placement fits, the
search takes over.

Any round with the tables of a round can be the first round of the design
(relabelling maps it there, table by table of the same size), so a first
round drawn at the venue, by hand or by the random method, still leads to a
schedule without repeats.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

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
    apart: Collection[frozenset[int]] = (),
) -> tuple[list[list[list[int]]], str] | None:
    """``rounds`` rounds of tables (players ``0 … n-1``) without a repeat and the design's name.

    :param sizes: table sizes of one round: all threes or all fours for a
        design; any mix the catalogue of schedules found offline holds
        (:mod:`.catalogue`: 20 × 7, 23 × 9, 26 × 10, 29 × 12, 31 × 14, 38 × 16, 40 × 18
        and 41 to 91 players up to or near the counting bound, at mixed tables).
    :param fixed: player → table index (must-sit).
    :param first_round: an already played round of triples covering every
        player; the rounds returned follow it without repeating a meeting.
    :param patient: give the construction a longer budget (see ``designs.triple_design``).
    :param apart: pairs of players who must not meet: the players are relabelled
        until no table of the rounds taken seats such a pair (see :func:`_relabelled`).

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
            schedule,
            f"schedule found offline ({how})",
            sizes,
            fixed,
            rounds,
            rng,
            first_round,
            apart,
        )
    size = sizes[0] if sizes else 0
    if set(sizes) != {size} or size not in (3, 4) or rounds + played > (n - 1) // (size - 1):
        return None
    found = design_for(n, size, rounds=rounds + played, patient=patient)
    if found is None:
        return None
    kts, name = found
    return _relabelled(kts, name, sizes, fixed, rounds, rng, first_round, apart)


def developed_rounds(
    sizes: Sequence[int],
    fixed: Mapping[int, int],
    rounds: int,
    rng: random.Random,
    *,
    first_round: Sequence[Sequence[int]] | None = None,
    apart: Collection[frozenset[int]] = (),
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
    return _relabelled(schedule, name, sizes, fixed, rounds, rng, first_round, apart)


RELABEL_ATTEMPTS = 64  #: relabellings tried for must-sit and kept-apart players


def _relabelled(
    schedule: list[list[tuple[int, ...]]],
    name: str,
    sizes: Sequence[int],
    fixed: Mapping[int, int],
    rounds: int,
    rng: random.Random,
    first_round: Sequence[Sequence[int]] | None,
    apart: Collection[frozenset[int]] = (),
) -> tuple[list[list[list[int]]], str] | None:
    """``rounds`` of ``schedule``'s rounds with the players relabelled, tables numbered.

    With ``first_round``, one round of the schedule is mapped onto it table by
    table (tables of the same size in any order) and the rounds after it follow.
    A relabelling that seats a kept-apart pair at one table, or a must-sit
    player where no table of their number's size can go, is made again (up
    to :data:`RELABEL_ATTEMPTS` times, from a generator seeded by ``rng``'s
    state, so ``rng`` goes on as after the first attempt): without a first
    round the constrained players are placed where they fit
    (:func:`_fitted_labels`), with one another matching of its tables is
    tried. If none keeps them apart, the first relabelling (the search then
    parts them); ``None`` if the must-sit players fit none (the search takes
    over).
    """
    first = _relabelled_once(schedule, sizes, fixed, rounds, rng, first_round, shuffle_first=False)
    if first is not None and not _seats_apart(first, apart):
        return first, name
    if not apart and not fixed:
        return None  # nothing another relabelling could change
    after = rng.getstate()[1][:4]
    for attempt in range(1, RELABEL_ATTEMPTS):
        again = random.Random(f"relabel {after} {attempt}")
        out = _relabelled_once(schedule, sizes, fixed, rounds, again, first_round, apart=apart)
        if out is not None and not _seats_apart(out, apart):
            return out, name
    return None if first is None else (first, name)


def _seats_apart(groups: list[list[list[int]]], apart: Collection[frozenset[int]]) -> bool:
    """Whether a table of ``groups`` seats a pair of ``apart``."""
    return any(pair <= set(t) for tables in groups for t in tables for pair in apart)


def _relabelled_once(
    schedule: list[list[tuple[int, ...]]],
    sizes: Sequence[int],
    fixed: Mapping[int, int],
    rounds: int,
    rng: random.Random,
    first_round: Sequence[Sequence[int]] | None,
    *,
    shuffle_first: bool = True,
    apart: Collection[frozenset[int]] | None = None,
) -> list[list[list[int]]] | None:
    """One relabelling; with ``apart`` (not ``None``) and no first round, the
    constrained players are placed by :func:`_fitted_labels`."""
    n = sum(sizes)
    played = 1 if first_round is not None else 0
    order = list(range(len(schedule)))
    rng.shuffle(order)
    label = list(range(n))
    if first_round is None:
        rng.shuffle(label)
        if apart is not None:
            fitted = _fitted_labels(schedule, order[:rounds], sizes, fixed, apart, rng)
            if fitted is None:
                return None
            label = fitted
    else:
        ours = sorted(schedule[order[0]], key=len)
        theirs = sorted(first_round, key=len)
        if shuffle_first:  # another matching of tables of one size, and of seats within them
            theirs = sorted(rng.sample(theirs, len(theirs)), key=len)
            theirs = [rng.sample(list(t), len(t)) for t in theirs]
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
    return out


FIT_STEPS = 20_000  #: backtracking steps of one :func:`_fitted_labels`


def _fitted_labels(
    schedule: list[list[tuple[int, ...]]],
    used: Sequence[int],
    sizes: Sequence[int],
    fixed: Mapping[int, int],
    apart: Collection[frozenset[int]],
    rng: random.Random,
) -> list[int] | None:
    """``label[point] = player`` placing must-sit and kept-apart players where they fit.

    A kept-apart pair goes to two points that never share a table in the
    rounds ``used``; a must-sit player to a point at a table of their table's
    size in every one of them, never with a must-sit player of another table
    and always with those of their own. The others are placed at random.
    A schedule near the counting bound leaves few pairs apart, so a random
    relabelling would almost never fit (38 × 16: 31 of 703 pairs).
    """
    n = sum(sizes)
    table_of = [{p: i for i, t in enumerate(schedule[r]) for p in t} for r in used]
    size_at = [{p: len(t) for t in schedule[r] for p in t} for r in used]

    def together(p: int, q: int) -> int:
        return sum(where[p] == where[q] for where in table_of)

    partners: dict[int, list[int]] = {}
    for pair in apart:
        a, b = sorted(pair)
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    players = sorted(
        set(fixed) | set(partners), key=lambda x: (x not in fixed, -len(partners.get(x, ())), x)
    )
    if len(players) > n:
        return None
    point_of: dict[int, int] = {}
    taken: set[int] = set()
    steps = 0

    def fits(x: int, p: int) -> bool:
        if x in fixed and any(size[p] != sizes[fixed[x]] for size in size_at):
            return False
        for y, q in point_of.items():
            if y in partners.get(x, ()) and together(p, q):
                return False
            if x in fixed and y in fixed:
                same = fixed[x] == fixed[y]
                if together(p, q) != (len(used) if same else 0):
                    return False
        return True

    def place(k: int) -> bool:
        nonlocal steps
        if k == len(players):
            return True
        x = players[k]
        candidates = [p for p in range(n) if p not in taken]
        rng.shuffle(candidates)
        for p in candidates:
            steps += 1
            if steps > FIT_STEPS:
                return False
            if fits(x, p):
                point_of[x] = p
                taken.add(p)
                if place(k + 1):
                    return True
                del point_of[x]
                taken.discard(p)
        return False

    if not place(0):
        return None
    others = [x for x in range(n) if x not in point_of]
    rng.shuffle(others)
    free = iter(others)
    label = [0] * n
    for x, p in point_of.items():
        label[p] = x
    for p in range(n):
        if p not in taken:
            label[p] = next(free)
    return label


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
