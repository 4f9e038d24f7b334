"""Schedules with a group of symmetries, found by CP-SAT: invariant rounds, developed rounds.

Some sizes have a schedule without a repeat that neither a classical design
(:mod:`.designs`) nor the tabu search finds. The best known is the *social
golfer problem*: 32 players at tables of four over 10 rounds (the bound,
(32 - 1) / 3), found by hand by Aguado in 2004. Such schedules are easier to
find if one looks only among the *symmetric* ones:

* the players are ``fixed`` points ∞ plus ``orbits`` copies of an abelian
  group ``G = Z_m1 × … × Z_mk``: player ``(level, g)``;
* every round is invariant under the translations ``(level, g) ↦ (level, g + h)``,
  so a round is a union of *block orbits* (a table and all its translates);
* a pair and all its translates form a *pair orbit*; no pair meets twice if
  no pair orbit is covered by two chosen block orbits (or twice by one).

That is a small exact-cover-like problem over a few hundred block orbits, which
CP-SAT solves in seconds where the model over single players does not finish.
A :class:`Shape` names the group; :data:`SHAPES` lists the shapes known (from
the sweep in ``tests/bench/bench_seating.py --grid``) to give schedules the
other methods miss:

* 32 players at fours: ``Z_2^3`` on 4 levels gives all 10 rounds. A count
  shows some round must be *transversal* (one table with a player of each
  level, translated 8 times): each level has 7 pure differences and every
  other kind of round uses one or three of them, so at most 7 rounds are not
  transversal. Shifting each level on its own keeps the model, so round 0 may
  be taken to hold the table ``{(0, 0), (1, 0), (2, 0), (3, 0)}``
  (:attr:`Shape.start`); with that symmetry broken CP-SAT needs 3–7 s
  instead of 5–50 s.
* 24 players at fours: ``Z_3`` on 8 levels gives all 7 rounds (the bound,
  (24 - 1) / 3). A table cannot hold two players of one level (its
  translates would overlap), so every round is two tables meeting four
  levels each, with their translates; shifting and renumbering the levels
  brings round 0 to ``{(0..3, 0)}``, ``{(4..7, 0)}``. 3–6 s.

The other kind (:func:`developed_schedule`): the group moves the rounds
instead of fixing each. One *base round* over ``Z_g × L`` and points ∞ is
shifted ``g`` times; CP-SAT picks it so that no difference comes twice. It
takes any mix of threes and fours, which the mixed table policy needs at
the bound (22 × 9, 25 × 11, 31 × 13, 34 × 15, 37 × 17, 40 × 17, …).

Deterministic: one CP-SAT worker, a fixed seed and a budget in deterministic
time units, so a shape always gives the same schedule for the same OR-Tools
version (the draw records the version).

>>> rounds = symmetric_schedule((4,) * 6, 7, SHAPES[24, 4][0])
>>> pairs = [frozenset((a, b)) for r in rounds for t in r for a in t for b in t if a < b]
>>> len(rounds), len(pairs) == len(set(pairs))
(7, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from .differences import _key_function, never_developed
from .exact import deterministic_solver

__all__ = ["SHAPES", "Shape", "developed_schedule", "symmetric_design", "symmetric_schedule"]

Schedule = list[list[tuple[int, ...]]]


@dataclass(frozen=True)
class Shape:
    """The symmetry a schedule is sought with (see the module docstring)."""

    moduli: tuple[int, ...]  #: the group Z_m1 × … × Z_mk
    levels: int  #: copies of the group
    fixed: int = 0  #: points ∞ that every translation fixes
    #: Round 0 holds, for each group of levels here, the table {(level, 0) : level in group}.
    #: Valid only where every schedule of the shape can be shifted level by level into that form.
    start: tuple[tuple[int, ...], ...] = ()

    @property
    def order(self) -> int:
        size = 1
        for m in self.moduli:
            size *= m
        return size

    @property
    def players(self) -> int:
        return self.fixed + self.levels * self.order


#: (players, table size) → (shape, the round counts it serves). It gives the
#: most rounds of the range; fewer rounds are left to the faster methods (the
#: tabu search; for 32 × 8 the cyclic schedule, 0.1 s).
SHAPES: dict[tuple[int, int], tuple[Shape, range]] = {
    (32, 4): (Shape((2, 2, 2), 4, start=((0, 1, 2, 3),)), range(9, 11)),
    (24, 4): (Shape((3,), 8, start=((0, 1, 2, 3), (4, 5, 6, 7))), range(6, 8)),
}


def symmetric_design(n: int, size: int, rounds: int) -> Schedule | None:
    """At least ``rounds`` rounds for ``n`` players at tables of ``size``, if a known shape gives them."""
    shape, serves = SHAPES.get((n, size), (None, range(0)))
    if shape is None or rounds not in serves:
        return None
    found = _solved(shape, (size,) * (n // size), serves[-1])
    return None if found is None else [list(r) for r in found]


@lru_cache(maxsize=8)
def _solved(shape: Shape, sizes: tuple[int, ...], rounds: int) -> Schedule | None:
    return symmetric_schedule(sizes, rounds, shape)


def symmetric_schedule(
    sizes: Sequence[int], rounds: int, shape: Shape, *, budget: float = 30.0, seed: int = 0
) -> Schedule | None:
    """``rounds`` rounds of tables of ``sizes`` (players ``0 … n-1``) without a repeat, or ``None``.

    Every round is invariant under ``shape``'s translations. ``None`` when
    CP-SAT proves there is no such schedule or runs out of ``budget``
    (deterministic time units, roughly seconds of one core).

    Players are numbered ∞ first (``0 … fixed-1``), then level by level:
    ``(level, g)`` is ``fixed + level · |G| + index of g``.
    """
    # OR-Tools loads in about 1.5 s (python -X importtime): only a draw that runs CP-SAT pays it
    from ortools.sat.python import cp_model

    n = sum(sizes)
    if n != shape.players:
        raise ValueError(f"shape {shape} seats {shape.players} players, the tables {n}")
    if rounds <= 0:
        return []
    translations = _translations(shape)
    pair_orbit = {
        (a, b): min(tuple(sorted((t[a], t[b]))) for t in translations)
        for a, b in combinations(range(n), 2)
    }
    pair_orbit_size = Counter(pair_orbit.values())
    representatives = sorted({min(t[p] for t in translations) for p in range(n)})
    orbits = _block_orbits(sizes, translations, representatives, pair_orbit, pair_orbit_size)

    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"r{r}o{j}") for j in range(len(orbits))] for r in range(rounds)]
    needed = Counter(sizes)
    for r in range(rounds):
        for p in representatives:  # every player at one table (its translates follow)
            model.add_exactly_one(x[r][j] for j, o in enumerate(orbits) if p in o.players)
        for size, count in needed.items():
            model.add(
                sum(len(o.blocks) * x[r][j] for j, o in enumerate(orbits) if o.size == size)
                == count
            )
    covering: dict[tuple[int, int], list[int]] = {}
    for j, o in enumerate(orbits):
        for pair in o.pairs:
            covering.setdefault(pair, []).append(j)
    for js in covering.values():  # no pair meets twice
        model.add_at_most_one(x[r][j] for r in range(rounds) for j in js)

    # Rounds are interchangeable: order them by the block orbit seating player 0
    # (different every round, as player 0 meets new players every round).
    first = 0
    for group in shape.start:
        block = tuple(shape.fixed + level * shape.order for level in group)
        (j0,) = [j for j, o in enumerate(orbits) if block in o.blocks]
        model.add(x[0][j0] == 1)
        first = 1
    seating_0 = [(j, o) for j, o in enumerate(orbits) if 0 in o.players]
    keys = [sum(j * x[r][j] for j, _ in seating_0) for r in range(rounds)]
    for r in range(first, rounds - 1):
        model.add(keys[r] < keys[r + 1])

    solver = deterministic_solver(seed, budget)
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    schedule = [
        sorted(b for j, o in enumerate(orbits) if solver.boolean_value(x[r][j]) for b in o.blocks)
        for r in range(rounds)
    ]
    _check(schedule, n)
    return schedule


@dataclass(frozen=True)
class _BlockOrbit:
    size: int
    blocks: frozenset[tuple[int, ...]]  #: a table and its translates (pairwise disjoint)
    players: frozenset[int]
    pairs: frozenset[tuple[int, int]]  #: the pair orbits it covers, each exactly once


def _translations(shape: Shape) -> list[tuple[int, ...]]:
    """Every translation of the group as a permutation of the players."""
    elements = list(product(*(range(m) for m in shape.moduli)))
    index = {g: i for i, g in enumerate(elements)}
    out = []
    for h in elements:
        perm = list(range(shape.fixed))
        for level in range(shape.levels):
            for g in elements:
                moved = tuple((a + b) % m for a, b, m in zip(g, h, shape.moduli, strict=True))
                perm.append(shape.fixed + level * shape.order + index[moved])
        out.append(tuple(perm))
    return out


def _block_orbits(sizes, translations, representatives, pair_orbit, pair_orbit_size):
    """Block orbits that can be part of a round: disjoint translates, no pair orbit twice.

    Each orbit is listed once: from its translate whose smallest player is the
    representative of that player's orbit (translates of the smallest level
    present bring its representative in; everything else is larger).
    """
    n = len(translations[0])
    is_representative = set(representatives)
    seen: set[tuple[int, ...]] = set()
    out = []
    for size in sorted(set(sizes)):
        for block in combinations(range(n), size):
            if block[0] not in is_representative:
                continue
            images = frozenset(tuple(sorted(t[p] for p in block)) for t in translations)
            first = min(images)
            if first in seen:
                continue
            seen.add(first)
            players = [p for b in images for p in b]
            if len(players) != len(set(players)):
                continue  # translates overlap: not part of a partition
            covered = Counter(pair_orbit[pair] for b in images for pair in combinations(b, 2))
            if any(c != pair_orbit_size[orbit] for orbit, c in covered.items()):
                continue  # some pair would meet twice in this very round
            out.append(_BlockOrbit(size, images, frozenset(players), frozenset(covered)))
    return out


def _check(schedule: Schedule, n: int) -> None:
    met: set[tuple[int, int]] = set()
    for tables in schedule:
        if sorted(p for t in tables for p in t) != list(range(n)):
            raise AssertionError("symmetric schedule: a round does not seat everyone once")
        for t in tables:
            for pair in combinations(t, 2):
                if pair in met:
                    raise AssertionError(f"symmetric schedule: {pair} meet twice")
                met.add(pair)


# --- Developed schedules: one base round, its translates are the other rounds ---------------

DEVELOPED_UP_TO = 64  #: players; the model has a clause per pair and table (n³ / 4 at fours)
DEVELOPED_TOTAL = 36.0  #: deterministic time over all shapes tried for one schedule


def developed_schedule(
    sizes: Sequence[int], rounds: int, *, budget: float = 6.0, seed: int = 0
) -> tuple[Schedule, str] | None:
    """``rounds`` rounds of tables of ``sizes`` without a repeat, developed from one base round.

    The other kind of symmetry: the players are ``Z_g × {0 … L-1}`` and ``F``
    points ∞ (``g · L + F = n``, ``g ≥ rounds``), and round ``h`` is the base
    round shifted by ``h`` (∞ stays put). No pair meets twice if the base
    round holds at most one pair of each *difference* (pure within a level,
    up to sign; mixed between two levels; ∞ with a level), none of
    difference ``g / 2`` (it would come back after ``g / 2`` rounds) and never
    two ∞ at one table. :func:`.designs.cyclic_schedule` searches the same
    for tables of one size depth-first; this CP-SAT model takes any mix of
    threes and fours, which the mixed table policy needs (22 players over
    9 rounds: ``Z_9 × 2`` and four ∞; 25 over 10 and 11).

    Shapes are tried smallest ``g`` first, then fewest ∞, each with
    ``budget`` deterministic time units and all of them with
    :data:`DEVELOPED_TOTAL`; the first base round found wins. Not tried over
    :data:`DEVELOPED_UP_TO` players (where the search settles the rounds
    events play).
    Returns the rounds (players ``0 … n-1``: level points ``x + g · level``,
    then ∞) and a name for the draw report, or ``None``.

    >>> found, name = developed_schedule((3, 3, 3, 3, 3, 3, 4), 9)
    >>> name
    'cyclic schedule (Z_9 × 2 and 4 ∞)'
    >>> pairs = [frozenset((a, b)) for r in found for t in r for a in t for b in t if a < b]
    >>> len(found), len(pairs) == len(set(pairs))
    (9, True)
    """
    sizes = tuple(sorted(sizes))
    n = sum(sizes)
    if n > DEVELOPED_UP_TO:
        return None
    spent = 0.0
    for g, levels, fixed in _developed_shapes(n, len(sizes), rounds):
        if spent >= DEVELOPED_TOTAL:
            break
        found, took = _developed(sizes, g, levels, fixed, budget, seed)
        spent += took
        if found is not None:
            name = f"cyclic schedule (Z_{g} × {levels}" + (f" and {fixed} ∞)" if fixed else ")")
            return [list(r) for r in found[:rounds]], name
    return None


def _developed_shapes(n: int, tables: int, rounds: int) -> list[tuple[int, int, int]]:
    shapes = []
    for g in range(max(rounds, 2), n + 1):
        for fixed in range(tables + 1):  # two ∞ never share a table
            if (n - fixed) % g == 0 and n > fixed:
                shapes.append((g, (n - fixed) // g, fixed))
    return shapes


@lru_cache(maxsize=16)
def _developed(
    sizes: tuple[int, ...],
    g: int,
    levels: int,
    fixed: int,
    budget: float,
    seed: int,
    bases: int = 1,
) -> tuple[Schedule | None, float]:
    """The developed schedule of one shape (or ``None``) and the deterministic time it took.

    ``bases`` base rounds (round ``h · bases + i`` is base round ``i`` shifted
    by ``h``), no difference twice over all of them: ``bases · g`` rounds.
    """
    # OR-Tools loads in about 1.5 s (python -X importtime): only a draw that runs CP-SAT pays it
    from ortools.sat.python import cp_model

    n = sum(sizes)
    points = [(x, level) for level in range(levels) for x in range(g)] + [
        (i, -1) for i in range(fixed)
    ]
    tables = range(len(sizes))
    model = cp_model.CpModel()

    difference_of = _key_function(g)
    never = never_developed(g, levels, fixed)
    by_difference: dict[tuple[int, int, int], list] = {}
    ys = []
    for base in range(bases):
        at = "" if base == 0 else f"b{base}_"
        y = {(p, t): model.new_bool_var(f"{at}y{p}_{t}") for p in range(n) for t in tables}
        ys.append(y)
        for p in range(n):
            model.add_exactly_one(y[p, t] for t in tables)
        for t in tables:
            model.add(sum(y[p, t] for p in range(n)) == sizes[t])
        for a, b in combinations(range(n), 2):
            difference = difference_of(points[a], points[b])
            if difference in never:  # never at one table
                for t in tables:
                    model.add_bool_or([~y[a, t], ~y[b, t]])
                continue
            together = model.new_bool_var(f"{at}s{a}_{b}")
            for t in tables:
                model.add_bool_or([~y[a, t], ~y[b, t], together])
            by_difference.setdefault(difference, []).append(together)
    for pairs in by_difference.values():
        model.add_at_most_one(pairs)
    # tables of one size are interchangeable: their smallest members increase
    for y in ys:
        for t, u in zip(tables, tables[1:], strict=False):
            if sizes[t] == sizes[u]:
                for p in range(n):
                    model.add_bool_or([~y[p, u]] + [y[q, t] for q in range(p)])

    solver = deterministic_solver(seed, budget)
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, solver.deterministic_time
    found = [[[p for p in range(n) if solver.boolean_value(y[p, t])] for t in tables] for y in ys]

    def shifted(p: int, h: int) -> int:
        x, level = points[p]
        return g * levels + x if level < 0 else (x + h) % g + g * level

    schedule = [
        sorted(tuple(sorted(shifted(p, h) for p in t)) for t in base)
        for h in range(g)
        for base in found
    ]
    _check(schedule, n)
    return schedule, solver.deterministic_time
