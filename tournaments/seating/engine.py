"""The draw itself: grouping per method, seating, report (validation in :mod:`.setup`)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .history import HistoryStats, summarise
from .model import (
    ENGINE_VERSION,
    Constraints,
    Draw,
    Entry,
    EntryId,
    Method,
    PastTable,
    SeatingError,
    Table,
    TablePolicy,
    gettext_noop,
    sort_key,
)
from .planning import design_rounds
from .progress import Reporter, Stage, report
from .report import build_report
from .schedule_search import (
    ROUND_ITERATIONS,
    SCHEDULE_ITERATIONS,
    _plan,
    _stepper,
)
from .search import Problem, fill_tables, solve
from .seats import seat_table
from .setup import Setup, apart_units, build_problem, check_apart, fixed_units, prepare

__all__ = ["draw_round", "draw_schedule", "seed_commitment"]

#: plans per inputs, for round-by-round lookahead (pure functions of them: safe to cache)
_PLANS: dict[str, tuple[list[Any], str]] = {}


def seed_commitment(seed: str | int) -> str:
    """SHA-256 (hex) of the seed, published before the draw and checked after.

    Anyone can check it with ``printf %s SEED | sha256sum``.

    >>> seed_commitment("Kazan 2026 round 1")[:16]
    '815b02ea6df89af2'
    """
    return hashlib.sha256(str(seed).encode("utf-8")).hexdigest()


def _random_groups(setup: Setup, rng: random.Random) -> list[list[int]]:
    """The referees' draw (001 note 8): shuffle, then fill the tables in order."""
    fixed = fixed_units(setup)
    rest = [u for u in range(len(setup.units)) if u not in fixed]
    rng.shuffle(rest)
    return fill_tables(setup.unit_sizes, fixed, rest)


def _seat_round(
    groups: Sequence[Sequence[int]],
    setup: Setup,
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
    setup: Setup, entries: Sequence[Entry], standings: Mapping[EntryId, float], rng: random.Random
) -> list[int]:
    rating = {e.id: e.rating or 0.0 for e in entries}
    order = sorted(
        setup.ids, key=lambda x: (-float(standings.get(x, 0.0)), -rating[x], rng.random())
    )
    place = {x: i for i, x in enumerate(order)}
    return [min(place[x] for x in unit) for unit in setup.units]


def _plain(constraints: Constraints) -> dict[str, Any]:
    """The constraints that applied, as JSON-safe data for the draw record."""
    return {
        "must_sit": [
            [x, t] for x, t in sorted(constraints.must_sit.items(), key=lambda kv: sort_key(kv[0]))
        ],
        "must_not_meet": sorted(
            (sorted(p, key=sort_key) for p in constraints.must_not_meet),
            key=lambda pair: [sort_key(x) for x in pair],
        ),
        "partners": [list(p) for p in constraints.partners],
    } | (  # a team event only, so that the parameters of other draws stay as they were
        {
            "teams": [
                [x, t] for x, t in sorted(constraints.teams.items(), key=lambda kv: sort_key(kv[0]))
            ]
        }
        if constraints.teams
        else {}
    )


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
    progress: Reporter | None = None,
) -> Draw:
    """Draw one round. See the package docstring for the methods.

    :param rounds_total: the event's number of rounds; with it ``no_repeats``
        and ``schedule`` plan the remaining rounds together instead of greedily.
    :param progress: hears each stage of the draw and how far it has gone
        (:mod:`.progress`); the tables do not depend on it.
    :raises SeatingError: bad entries, impossible count, unmet constraint.
    """
    method, policy = Method(method), TablePolicy(policy)
    constraints = constraints or Constraints()
    setup = prepare(entries, policy, constraints)
    stats = summarise(history)
    done = sorted(stats.rounds)
    rnd = round_number if round_number is not None else (done[-1] + 1 if done else 1)
    rng = random.Random(f"{seed}|round {rnd}|{method}")
    notes = list(setup.notes)
    absent = sorted({x for t in history for x in t.seats} - set(setup.ids), key=sort_key)
    if absent:
        notes.append(f"in the history but not present: {absent!r}")
    params: dict[str, Any] = {
        "round": rnd,
        "rounds_total": rounds_total,
        "players": len(setup.ids),
        "constraints": _plain(setup.constraints),
        "iterations": ROUND_ITERATIONS,
    }
    if method is Method.SCHEDULE and rounds_total is None:
        raise SeatingError(
            "rounds_total: the schedule method needs the event's number of rounds",
            gettext_noop("The schedule method needs the event's number of rounds."),
        )

    def one_round(problem: Problem, **how: Any) -> list[list[int]]:
        """The tabu search over this round alone."""
        on_step = _stepper(progress, Stage.SEARCH)
        return solve(problem, rng, iterations=ROUND_ITERATIONS, on_step=on_step, **how)[0]

    if method is Method.RANDOM:
        problem = build_problem(setup, stats, 1, repeat_weight=0, four_weight=0, team_weight=0)
        groups = one_round(problem, initial=[_random_groups(setup, rng)])
    elif method is Method.SWISS:
        if standings is None:
            raise SeatingError(
                "standings: the Swiss method needs the current standings",
                gettext_noop("The Swiss method needs the current standings."),
            )
        problem = build_problem(setup, stats, 1, repeat_weight=10_000, four_weight=1)
        problem.rank = _swiss_ranks(setup, entries, standings, rng)
        groups = one_round(problem, rank_start=True)
        params["standings"] = {
            str(k): v for k, v in sorted(standings.items(), key=lambda kv: sort_key(kv[0]))
        }
    elif rounds_total is not None and rounds_total > len(done):
        groups, how = _lookahead(
            setup,
            entries,
            history,
            stats,
            rounds_total,
            seed,
            policy,
            constraints,
            method,
            progress,
        )
        notes.append(how)
    else:
        problem = build_problem(setup, stats, 1, repeat_weight=10_000, four_weight=1)
        groups = one_round(problem)
    report(progress, Stage.SEATING)
    tables = _seat_round(groups, setup, stats, rng, method, policy)
    check_apart(tables, setup.constraints, rnd)
    return Draw(
        round=rnd,
        tables=tables,
        method=method,
        policy=policy,
        seed=str(seed),
        seed_commitment=seed_commitment(seed),
        engine_version=ENGINE_VERSION,
        parameters=params,
        report=build_report(
            tables, stats, setup.ids, setup.constraints, method, notes, teams=constraints.teams
        ),
    )


def _lookahead(
    setup: Setup,
    entries: Sequence[Entry],
    history: Sequence[PastTable],
    stats: HistoryStats,
    rounds_total: int,
    seed: str | int,
    policy: TablePolicy,
    constraints: Constraints,
    method: Method,
    progress: Reporter | None = None,
) -> tuple[list[list[int]], str]:
    """Next round's groups when the remaining rounds are planned together.

    Round 1 is the first round of a schedule drawn from round 1's seed (and,
    under the ``schedule`` method, while every round is drawn with that one
    seed the later rounds follow the same schedule). Otherwise a round follows a plan
    *anchored* on rounds already played: the plan
    for the rounds after the first ``j``, made from those ``j`` rounds, for
    the smallest ``j`` whose plan the rounds since have followed. Such a plan
    depends on the history only, never on a later round's seed, so the fresh
    seed each round gets (which still seats each table: seats and first
    dealer) does not break the schedule; after a correction or a late entry
    the plan is anchored again on the rounds as played.
    """
    done = sorted(stats.rounds)
    units = setup.units
    index = setup.unit_of()
    by_round: dict[int, list[tuple[EntryId, ...]]] = {}
    for t in history:
        by_round.setdefault(t.round, []).append(t.seats)
    key = _plan_key(entries, rounds_total, policy, constraints, f"seed {seed}")
    if (not done or method is Method.SCHEDULE) and key not in _PLANS:
        plan = draw_schedule(
            entries,
            rounds_total,
            seed=seed,
            policy=policy,
            constraints=constraints,
            progress=progress,
        )
        how = plan[0].parameters["construction"]
        _remember(key, [[d.seats for d in r.tables] for r in plan], how)
    rounds, how = _PLANS.get(key, ([], ""))
    if rounds and all(_partition(by_round[r]) == _partition(rounds[i]) for i, r in enumerate(done)):
        # round 1, or every round so far drawn with this seed (the schedule method)
        groups = [sorted({index[x] for x in seats}) for seats in rounds[len(done)]]
        return (
            groups,
            f"round {len(done) + 1} of the schedule planned for {rounds_total} rounds ({how})",
        )
    present = {x for u in units for x in u}
    for j in range(1, len(done) + 1):
        later = done[j:]  # fewer than the rounds planned: rounds_total > len(done)
        if any({x for t in by_round[r] for x in t} != present for r in later):
            continue  # a plan seats the players present now: one who came or left since j
            # means no plan made after j can have been followed (and making it may take long)
        planned, how = _anchored_plan(
            setup, entries, history, done[:j], rounds_total, policy, constraints, progress
        )
        if all(
            _partition(by_round[r])
            == _partition([x for u in t for x in units[u]] for t in planned[i])
            for i, r in enumerate(later)
        ):
            return planned[len(later)], (
                f"round {len(done) + 1} of the plan made after round {done[j - 1]} "
                f"for rounds {done[j - 1] + 1}–{rounds_total} ({how})"
            )
    raise AssertionError("the plan anchored on every round played is always followed")


def _plan_key(
    entries: Sequence[Entry],
    rounds_total: int,
    policy: TablePolicy,
    constraints: Constraints,
    anchor: str,
) -> str:
    return repr(
        (
            sorted(((sort_key(e.id), e.rating, e.club) for e in entries)),
            rounds_total,
            str(policy),
            sorted((sort_key(k), v) for k, v in constraints.must_sit.items()),
            sorted(sorted(map(sort_key, p)) for p in constraints.must_not_meet),
            sorted(sorted(map(sort_key, p)) for p in constraints.partners),
            sorted((sort_key(k), v) for k, v in constraints.teams.items()),
            anchor,
        )
    )


def _remember(key: str, rounds: list, how: str) -> None:
    if len(_PLANS) >= 32:
        _PLANS.pop(next(iter(_PLANS)))
    _PLANS[key] = (rounds, how)


def _anchored_plan(
    setup: Setup,
    entries: Sequence[Entry],
    history: Sequence[PastTable],
    anchor_rounds: Sequence[int],
    rounds_total: int,
    policy: TablePolicy,
    constraints: Constraints,
    progress: Reporter | None = None,
) -> tuple[list[list[list[int]]], str]:
    """Groups for the rounds after ``anchor_rounds``, from those rounds alone (no seed)."""
    anchor = [t for t in history if t.round in anchor_rounds]
    played = sorted(
        (t.round, sorted(map(sort_key, t.seats))) for t in anchor
    )  # the tables as a partition per round: seat order and table numbers do not matter
    digest = hashlib.sha256(repr(played).encode()).hexdigest()
    key = _plan_key(entries, rounds_total, policy, constraints, f"after {digest}")
    if key not in _PLANS:
        rng = random.Random(f"plan after {digest}|{rounds_total}")
        remaining = rounds_total - len(anchor_rounds)
        design = first_round = None
        if len(anchor_rounds) == 1:
            # Any first round with the tables of a round starts a design (see .planning).
            index = setup.unit_of()
            first = [[index[x] for x in t.seats if x in index] for t in anchor]
            first = [t for t in first if t]
            if sorted(map(len, first)) == sorted(setup.unit_sizes) and sum(map(len, first)) == len(
                setup.units
            ):
                first_round = first
                report(progress, Stage.DESIGN)
                design = design_rounds(
                    setup.unit_sizes,
                    fixed_units(setup),
                    remaining,
                    rng,
                    first_round=first_round,
                    apart=apart_units(setup),
                )
        groups, how = _plan(setup, summarise(anchor), remaining, rng, design, first_round, progress)
        _remember(key, groups, how)
    return _PLANS[key]


def draw_schedule(
    entries: Sequence[Entry],
    rounds: int,
    *,
    seed: str | int,
    policy: TablePolicy = TablePolicy.MIXED,
    constraints: Constraints | None = None,
    history: Sequence[PastTable] = (),
    progress: Reporter | None = None,
) -> tuple[Draw, ...]:
    """All ``rounds`` rounds at once (the ``schedule`` method).

    Uses a constructed design where the size has one (:mod:`.designs`),
    otherwise a tabu search over all rounds, then what :func:`_plan` tries
    where that leaves a repeat. ``progress`` as for :func:`draw_round`.
    """
    policy = TablePolicy(policy)
    constraints = constraints or Constraints()
    if rounds < 1:
        raise SeatingError(
            f"rounds: {rounds} — a schedule needs at least one round",
            gettext_noop("A schedule needs at least one round."),
        )
    setup = prepare(entries, policy, constraints)
    stats = summarise(history)
    first = max(stats.rounds, default=0) + 1
    rng = random.Random(f"{seed}|schedule {rounds}|{policy}")
    if not stats.rounds:
        report(progress, Stage.DESIGN)
    design = (
        None
        if stats.rounds
        else design_rounds(
            setup.unit_sizes, fixed_units(setup), rounds, rng, apart=apart_units(setup)
        )
    )
    groups, how = _plan(setup, stats, rounds, rng, design, progress=progress)
    report(progress, Stage.SEATING)
    if design is None and how.startswith("tabu search"):
        how = how.replace("tabu search", "tabu search over all rounds", 1)
    draws = []
    for i, round_groups in enumerate(groups):
        rnd = first + i
        seat_rng = random.Random(f"{seed}|round {rnd}|{Method.SCHEDULE}")
        tables = _seat_round(round_groups, setup, stats, seat_rng, Method.SCHEDULE, policy)
        check_apart(tables, setup.constraints, rnd)
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
                    "constraints": _plain(setup.constraints),
                    "iterations": SCHEDULE_ITERATIONS,
                },
                report=build_report(
                    tables,
                    stats,
                    setup.ids,
                    setup.constraints,
                    Method.SCHEDULE,
                    (*setup.notes, how),
                    teams=constraints.teams,
                ),
            )
        )
        for t in tables:
            stats.add(PastTable(rnd, t.seats, t.first_dealer, t.number))
    return tuple(draws)
