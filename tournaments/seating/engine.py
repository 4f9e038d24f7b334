"""The draw itself: validation, grouping per method, seating, report."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .history import HistoryStats, summarise
from .model import (
    ENGINE_VERSION,
    ConstraintError,
    Constraints,
    Draw,
    Entry,
    EntryId,
    Method,
    PastTable,
    SeatingError,
    Table,
    TablePolicy,
    sort_key,
)
from .planning import design_rounds
from .report import build_report
from .search import Problem, solve
from .seats import seat_table
from .sizes import table_sizes

__all__ = ["draw_round", "draw_schedule", "seed_commitment"]

ROUND_ITERATIONS = 2000  #: tabu budget for one round (150 players: well under 2 s)
_PLANS: dict[
    str, tuple[Draw, ...]
] = {}  #: the event's own schedule, per inputs (pure: safe to cache)
SCHEDULE_ITERATIONS = 6000  #: tabu budget for a whole schedule


def seed_commitment(seed: str | int) -> str:
    """SHA-256 (hex) of the seed, published before the draw and checked after.

    Anyone can check it with ``printf %s SEED | sha256sum``.

    >>> seed_commitment("Kazan 2026 round 1")[:16]
    '815b02ea6df89af2'
    """
    return hashlib.sha256(str(seed).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class _Setup:
    ids: tuple[EntryId, ...]
    sizes: tuple[int, ...]
    constraints: Constraints  #: restricted to the entries present
    units: tuple[tuple[EntryId, ...], ...]  #: grouping units: players, or fixed partners
    unit_sizes: tuple[int, ...]
    notes: tuple[str, ...]


def _prepare(entries: Sequence[Entry], policy: TablePolicy, constraints: Constraints) -> _Setup:
    ids = [e.id for e in entries]
    seen: set[EntryId] = set()
    for x in ids:
        if x in seen:
            raise SeatingError(f"entries: id {x!r} appears twice")
        seen.add(x)
    ids.sort(key=sort_key)
    sizes = table_sizes(len(ids), TablePolicy(policy))
    notes: list[str] = []
    must_sit: dict[EntryId, int] = {}
    for x, number in constraints.must_sit.items():
        if x not in seen:
            notes.append(f"must_sit for {x!r} ignored: not present this round")
            continue
        if not 1 <= number <= len(sizes):
            raise ConstraintError(
                f"must_sit: entry {x!r} at table {number}, but this round has tables 1–{len(sizes)}"
            )
        must_sit[x] = number
    for number in set(must_sit.values()):
        crowd = sorted((x for x, t in must_sit.items() if t == number), key=sort_key)
        if len(crowd) > sizes[number - 1]:
            raise ConstraintError(
                f"must_sit: {crowd!r} all at table {number}, which seats {sizes[number - 1]}"
            )
    must_not = frozenset(p for p in constraints.must_not_meet if len(p) == 2 and p <= seen)
    for pair in constraints.must_not_meet:
        if len(pair) != 2:
            raise ConstraintError(f"must_not_meet: {sorted(pair, key=sort_key)!r} is not a pair")
        a, b = sorted(pair, key=sort_key)
        if must_sit.get(a) is not None and must_sit.get(a) == must_sit.get(b):
            raise ConstraintError(
                f"must_not_meet: {a!r} and {b!r} must both sit at table {must_sit[a]}"
            )
    units: list[tuple[EntryId, ...]] = [(x,) for x in ids]
    unit_sizes = sizes
    partners = tuple(p for p in constraints.partners if p[0] in seen or p[1] in seen)
    if partners:
        if policy is not TablePolicy.PARTNERSHIPS:
            raise ConstraintError(
                "partners: fixed partnerships need the Priffe partnerships policy (004)"
            )
        paired: dict[EntryId, EntryId] = {}
        for a, b in partners:
            for x in (a, b):
                if x not in seen:
                    raise ConstraintError(
                        f"partners: {x!r} (partner of {a if x == b else b!r}) is not present"
                    )
                if x in paired or a == b:
                    raise ConstraintError(f"partners: {x!r} is in two partnerships")
            paired[a], paired[b] = b, a
        alone = [x for x in ids if x not in paired]
        if alone:
            raise ConstraintError(f"partners: {alone!r} have no partner; pair every entry or none")
        for a, b in partners:
            if must_sit.get(a) and must_sit.get(b) and must_sit[a] != must_sit[b]:
                raise ConstraintError(f"partners: {a!r} and {b!r} must sit at different tables")
            if frozenset((a, b)) in must_not:
                raise ConstraintError(f"partners: {a!r} and {b!r} must not meet")
        units = sorted(
            (tuple(sorted(p, key=sort_key)) for p in partners), key=lambda u: sort_key(u[0])
        )
        unit_sizes = tuple(2 for _ in sizes)
    return _Setup(
        ids=tuple(ids),
        sizes=sizes,
        constraints=Constraints(must_sit=must_sit, must_not_meet=must_not, partners=partners),
        units=tuple(units),
        unit_sizes=unit_sizes,
        notes=tuple(notes),
    )


def _problem(
    setup: _Setup, stats: HistoryStats, rounds: int, *, repeat_weight: int, four_weight: int
) -> Problem:
    index = {x: u for u, unit in enumerate(setup.units) for x in unit}
    n = len(setup.units)
    meet = [[0] * n for _ in range(n)]
    for pair, met in stats.meetings.items():
        a, b = tuple(pair)
        if a in index and b in index and index[a] != index[b]:
            meet[index[a]][index[b]] += len(met)
            meet[index[b]][index[a]] += len(met)
    forbid: set[int] = set()
    for pair in setup.constraints.must_not_meet:
        a, b = (index[x] for x in pair)
        forbid.update((a * n + b, b * n + a))
    fixed = {index[x]: t - 1 for x, t in setup.constraints.must_sit.items()}
    fours = [stats.fours.get(unit[0], 0) for unit in setup.units]
    return Problem(
        n=n,
        sizes=setup.unit_sizes,
        rounds=rounds,
        meet=meet,
        fours=fours,
        forbid=forbid,
        fixed=fixed,
        repeat_weight=repeat_weight,
        four_weight=four_weight if len(set(setup.sizes)) > 1 else 0,
    )


def _random_groups(setup: _Setup, rng: random.Random) -> list[list[int]]:
    """The referees' draw (001 note 8): shuffle, then fill the tables in order."""
    p_fixed = _fixed(setup)
    tables: list[list[int]] = [[] for _ in setup.unit_sizes]
    for u, t in p_fixed.items():
        tables[t].append(u)
    rest = [u for u in range(len(setup.units)) if u not in p_fixed]
    rng.shuffle(rest)
    t = 0
    for u in rest:
        while len(tables[t]) >= setup.unit_sizes[t]:
            t += 1
        tables[t].append(u)
    return tables


def _check_apart(tables: Sequence[Table], constraints: Constraints, rnd: int) -> None:
    """A must-not-meet pair at one table is an error, never a silent result."""
    for t in tables:
        for pair in constraints.must_not_meet:
            if pair <= set(t.seats):
                a, b = sorted(pair, key=sort_key)
                raise ConstraintError(
                    f"must_not_meet: no draw found for round {rnd} that keeps {a!r} and {b!r} "
                    f"apart (table {t.number}); relax a constraint"
                )


def _fixed(setup: _Setup) -> dict[int, int]:
    """must_sit as unit index → table index."""
    return {
        u: setup.constraints.must_sit[x] - 1
        for u, unit in enumerate(setup.units)
        for x in unit
        if x in setup.constraints.must_sit
    }


def _seat_round(
    groups: Sequence[Sequence[int]],
    setup: _Setup,
    stats: HistoryStats,
    rng: random.Random,
    method: Method,
    policy: TablePolicy,
) -> tuple[Table, ...]:
    partners = {a: b for a, b in setup.constraints.partners} | {
        b: a for a, b in setup.constraints.partners
    }
    tables = []
    for number, group in enumerate(groups, start=1):
        members = [x for u in group for x in setup.units[u]]
        if method is Method.RANDOM:
            if partners:
                first, second = rng.sample([list(setup.units[u]) for u in group], 2)
                rng.shuffle(first)
                rng.shuffle(second)
                seats: tuple[EntryId, ...] = (first[0], second[0], first[1], second[1])
            else:
                rng.shuffle(members)
                seats = tuple(members)
            dealer = rng.randrange(len(seats))
        else:
            seats, dealer = seat_table(
                members,
                stats,
                rng,
                partners=partners,
                balance_partners=policy is TablePolicy.PARTNERSHIPS and not partners,
            )
        tables.append(Table(number=number, seats=tuple(seats), first_dealer=dealer))
    return tuple(tables)


def _swiss_ranks(
    setup: _Setup, entries: Sequence[Entry], standings: Mapping[EntryId, float], rng: random.Random
) -> list[int]:
    rating = {e.id: e.rating or 0.0 for e in entries}
    order = sorted(
        setup.ids, key=lambda x: (-float(standings.get(x, 0.0)), -rating[x], rng.random())
    )
    place = {x: i for i, x in enumerate(order)}
    return [min(place[x] for x in unit) for unit in setup.units]


def _partition(tables: Iterable[Iterable[EntryId]]) -> frozenset[frozenset[EntryId]]:
    return frozenset(frozenset(t) for t in tables)


def draw_round(
    entries: Sequence[Entry],
    history: Sequence[PastTable] = (),
    *,
    seed: str | int,
    method: Method = Method.NO_REPEATS,
    policy: TablePolicy = TablePolicy.MIXED,
    constraints: Constraints | None = None,
    standings: Mapping[EntryId, float] | None = None,
    round_number: int | None = None,
    rounds_total: int | None = None,
) -> Draw:
    """Draw one round. See the package docstring for the methods.

    :param rounds_total: the event's number of rounds; with it ``no_repeats``
        and ``schedule`` plan the remaining rounds together instead of greedily.
    :raises SeatingError: bad entries, impossible count, unmet constraint.
    """
    method, policy = Method(method), TablePolicy(policy)
    constraints = constraints or Constraints()
    setup = _prepare(entries, policy, constraints)
    stats = summarise(history)
    done = sorted(stats.rounds)
    rnd = round_number if round_number is not None else (done[-1] + 1 if done else 1)
    rng = random.Random(f"{seed}|round {rnd}|{method}")
    notes = list(setup.notes)
    absent = sorted({x for t in history for x in t.seats} - set(setup.ids), key=sort_key)
    if absent:
        notes.append(f"in the history but not present: {absent!r}")
    params: dict[str, Any] = {"round": rnd, "rounds_total": rounds_total, "players": len(setup.ids)}
    if method is Method.SCHEDULE and rounds_total is None:
        raise SeatingError("rounds_total: the schedule method needs the event's number of rounds")
    if method is Method.RANDOM:
        problem = _problem(setup, stats, 1, repeat_weight=0, four_weight=0)
        groups = solve(
            problem, rng, initial=[_random_groups(setup, rng)], iterations=ROUND_ITERATIONS
        )[0]
    elif method is Method.SWISS:
        if standings is None:
            raise SeatingError("standings: the Swiss method needs the current standings")
        problem = _problem(setup, stats, 1, repeat_weight=10_000, four_weight=1)
        problem.rank = _swiss_ranks(setup, entries, standings, rng)
        groups = solve(problem, rng, iterations=ROUND_ITERATIONS, rank_start=True)[0]
        params["standings"] = {
            str(k): v for k, v in sorted(standings.items(), key=lambda kv: sort_key(kv[0]))
        }
    elif rounds_total is not None and rounds_total > len(done):
        groups, how = _lookahead(
            setup, entries, history, stats, rounds_total, seed, policy, constraints
        )
        notes.append(how)
    else:
        problem = _problem(setup, stats, 1, repeat_weight=10_000, four_weight=1)
        groups = solve(problem, rng, iterations=ROUND_ITERATIONS)[0]
    tables = _seat_round(groups, setup, stats, rng, method, policy)
    _check_apart(tables, setup.constraints, rnd)
    return Draw(
        round=rnd,
        tables=tables,
        method=method,
        policy=policy,
        seed=str(seed),
        seed_commitment=seed_commitment(seed),
        engine_version=ENGINE_VERSION,
        parameters=params,
        report=build_report(tables, stats, setup.ids, setup.constraints, method, notes),
    )


def _lookahead(
    setup: _Setup,
    entries: Sequence[Entry],
    history: Sequence[PastTable],
    stats: HistoryStats,
    rounds_total: int,
    seed: str | int,
    policy: TablePolicy,
    constraints: Constraints,
) -> tuple[list[list[int]], str]:
    """Next round's groups when the remaining rounds are planned together."""
    done = sorted(stats.rounds)
    by_round: dict[int, list[tuple[EntryId, ...]]] = {}
    for t in history:
        by_round.setdefault(t.round, []).append(t.seats)
    key = repr(
        (
            sorted(((sort_key(e.id), e.rating, e.club) for e in entries)),
            rounds_total,
            str(seed),
            str(policy),
            sorted((sort_key(k), v) for k, v in constraints.must_sit.items()),
            sorted(sorted(map(sort_key, p)) for p in constraints.must_not_meet),
            sorted(sorted(map(sort_key, p)) for p in constraints.partners),
        )
    )
    plan = _PLANS.get(key)
    if plan is None:
        plan = draw_schedule(
            entries, rounds_total, seed=seed, policy=policy, constraints=constraints
        )
        if len(_PLANS) >= 8:
            _PLANS.pop(next(iter(_PLANS)))
        _PLANS[key] = plan
    if len(done) < rounds_total and all(
        _partition(by_round[r]) == _partition(d.seats for d in plan[i].tables)
        for i, r in enumerate(done)
    ):
        index = {x: u for u, unit in enumerate(setup.units) for x in unit}
        groups = [sorted({index[x] for x in t.seats}) for t in plan[len(done)].tables]
        return groups, f"round {len(done) + 1} of the schedule planned for {rounds_total} rounds"
    # Any first round of threes starts a Kirkman triple system (see .planning):
    # follow the completion of round 1 while the later rounds are its prefix.
    index = {x: u for u, unit in enumerate(setup.units) for x in unit}
    first = [[index[x] for x in seats if x in index] for seats in by_round[done[0]]] if done else []
    if done and all(len(t) in (0, 3) for t in first) and sum(map(len, first)) == len(setup.units):
        design = design_rounds(
            setup.unit_sizes,
            _fixed(setup),
            rounds_total - 1,
            random.Random(f"{seed}|completion of round {done[0]}/{rounds_total}"),
            first_round=[t for t in first if t],
        )
        if design is not None and all(
            _partition(by_round[r]) == _partition([setup.ids[u] for u in t] for t in design[i])
            for i, r in enumerate(done[1:])
        ):
            return (
                [sorted(t) for t in design[len(done) - 1]],
                f"round {len(done) + 1} of a Kirkman triple system completing round {done[0]}",
            )
    problem = _problem(setup, stats, rounds_total - len(done), repeat_weight=10_000, four_weight=1)
    rng = random.Random(f"{seed}|lookahead {len(done) + 1}/{rounds_total}")
    groups = solve(problem, rng, iterations=SCHEDULE_ITERATIONS)[0]
    return groups, f"rounds {len(done) + 1}–{rounds_total} planned together (tabu search)"


def draw_schedule(
    entries: Sequence[Entry],
    rounds: int,
    *,
    seed: str | int,
    policy: TablePolicy = TablePolicy.MIXED,
    constraints: Constraints | None = None,
    history: Sequence[PastTable] = (),
) -> tuple[Draw, ...]:
    """All ``rounds`` rounds at once (the ``schedule`` method).

    Uses a Kirkman triple system where one exists for the size (zero repeats
    for up to (n − 1) / 2 rounds), otherwise a tabu search over all rounds.
    """
    policy = TablePolicy(policy)
    constraints = constraints or Constraints()
    if rounds < 1:
        raise SeatingError(f"rounds: {rounds} — a schedule needs at least one round")
    setup = _prepare(entries, policy, constraints)
    stats = summarise(history)
    first = max(stats.rounds, default=0) + 1
    rng = random.Random(f"{seed}|schedule {rounds}|{policy}")
    design = None if stats.rounds else design_rounds(setup.unit_sizes, _fixed(setup), rounds, rng)
    problem = _problem(setup, stats, rounds, repeat_weight=10_000, four_weight=1)
    groups = solve(problem, rng, initial=design, iterations=SCHEDULE_ITERATIONS)
    how = "Kirkman triple system" if design is not None else "tabu search over all rounds"
    draws = []
    for i, round_groups in enumerate(groups):
        rnd = first + i
        seat_rng = random.Random(f"{seed}|round {rnd}|{Method.SCHEDULE}")
        tables = _seat_round(round_groups, setup, stats, seat_rng, Method.SCHEDULE, policy)
        _check_apart(tables, setup.constraints, rnd)
        draws.append(
            Draw(
                round=rnd,
                tables=tables,
                method=Method.SCHEDULE,
                policy=policy,
                seed=str(seed),
                seed_commitment=seed_commitment(seed),
                engine_version=ENGINE_VERSION,
                parameters={
                    "round": rnd,
                    "rounds_total": rounds,
                    "players": len(setup.ids),
                    "construction": how,
                },
                report=build_report(
                    tables,
                    stats,
                    setup.ids,
                    setup.constraints,
                    Method.SCHEDULE,
                    (*setup.notes, how),
                ),
            )
        )
        for t in tables:
            stats.add(PastTable(rnd, t.seats, t.first_dealer, t.number))
    return tuple(draws)
