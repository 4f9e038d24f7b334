"""The search for the groups of the rounds to come, for :mod:`.engine`'s plans: the design or the
tabu search, more tabu starts, a design found patiently, developed base rounds and CP-SAT where
repeats remain (:func:`_plan_search`); then, where some still remain, a schedule without one for
a round fewer and a last round searched given it (:func:`_one_round_more`). The budgets are
deterministic (steps, not seconds), so a draw re-runs to the same tables.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from itertools import combinations

from .catalogue import proved_none
from .exact import ortools_version, zero_repeat_schedule
from .history import HistoryStats
from .planning import design_rounds, developed_rounds
from .progress import Reporter, Stage, report
from .search import Problem, count_meetings, solve
from .setup import Setup, apart_units, build_problem, fixed_units

ROUND_ITERATIONS = 2000  #: tabu budget for one round (150 players: well under 2 s)
SCHEDULE_ITERATIONS = 6000  #: tabu budget for a whole schedule
EXACT_BUDGET = 3.0  #: CP-SAT deterministic time (≈ seconds of one core's work) after the tabu
EXACT_MAX_CELLS = 400  #: players × rounds above which CP-SAT is not tried (it would not finish)
RESTARTS_SMALL = 8  #: more tabu starts when repeats remain, up to EXACT_MAX_CELLS (≈ 1 s each)
RESTARTS_LARGE = 3  #: … and above it (≈ 2–4 s each at 30–40 players)


def _stepper(
    progress: Reporter | None, stage: Stage, attempt: int = 1, attempts: int = 1
) -> Callable[[int, int], None] | None:
    """The tabu search's ``on_step`` for ``progress``, as ``stage`` (None without one)."""
    if progress is None:
        return None
    return lambda step, steps: report(
        progress, stage, step, steps, attempt=attempt, attempts=attempts
    )


def _plan(
    setup: Setup,
    stats: HistoryStats,
    rounds: int,
    rng: random.Random,
    design: tuple[list[list[list[int]]], str] | None,
    first_round: list[list[int]] | None = None,
    progress: Reporter | None = None,
) -> tuple[list[list[list[int]]], str]:
    """Groups for ``rounds`` rounds (:func:`_plan_search`); where repeats remain, also a
    schedule without one for a round fewer with the last round searched given it, taken if it
    leaves fewer repeats.

    At the counting bound, where no schedule without a repeat is known (68 × 22 and 92 × 30 at
    fours, 77 × 36 and 91 × 44 mixed), the tabu search over all rounds left 142, 254, 82 and
    113 repeated meetings; the catalogue's schedule for one round fewer and a last round leave
    a fraction of that. It runs after the search, on what the search leaves of ``rng``, so the
    search's tables stay as they were wherever it does as well.
    """
    groups, how, none_exists = _plan_search(
        setup, stats, rounds, rng, design, first_round, progress
    )
    fresh = build_problem(setup, stats, rounds, repeat_weight=10_000, four_weight=1)
    left = _new_repeats(fresh, groups)
    if not left or rounds < 2 or (stats.rounds and not first_round):
        return groups, how
    more = _one_round_more(setup, fresh, rounds, rng, first_round, progress)
    if more is None or more[2] >= left:
        return groups, how
    total = rounds + (1 if first_round else 0)
    # the search's proof that repeats are unavoidable still holds, and is still cited
    why = none_exists or (
        f"no schedule without a repeat is known for {fresh.n} players over {total} rounds"
    )
    return more[0], f"{more[1]}, {more[2]} repeated meeting(s) left; {why}"


def _one_round_more(
    setup: Setup,
    fresh: Problem,
    rounds: int,
    rng: random.Random,
    first_round: list[list[int]] | None,
    progress: Reporter | None,
) -> tuple[list[list[list[int]]], str, int] | None:
    """A schedule without a repeat for ``rounds - 1`` rounds (:func:`design_rounds`: a design
    or the catalogue; else :func:`developed_rounds`) and the last round by the tabu search
    given it, then the tabu search over all rounds from there; with its description and the
    repeats it leaves. None where the size has no such schedule for a round fewer."""
    report(progress, Stage.EXTEND)
    short = None
    for make in (design_rounds, developed_rounds):  # developed: seconds of CP-SAT, so second
        short = make(
            setup.unit_sizes,
            fixed_units(setup),
            rounds - 1,
            rng,
            first_round=first_round,
            apart=apart_units(setup),
        )
        if short is not None:
            break
    if short is None or _kept_apart_meet(fresh, short[0]):
        return None
    last = copy.deepcopy(fresh)
    last.rounds = 1
    for tables in short[0]:
        for members in tables:
            count_meetings(last, members)
            if len(members) == 4:  # 4-table duty; units are players wherever tables mix
                for x in members:
                    last.fours[x] += 1
    tail = solve(last, rng, iterations=ROUND_ITERATIONS, on_step=_stepper(progress, Stage.EXTEND))
    joined = [*short[0], *tail]
    polished = solve(
        copy.deepcopy(fresh),
        rng,
        initial=joined,
        iterations=SCHEDULE_ITERATIONS,
        on_step=_stepper(progress, Stage.EXTEND),
    )
    best = min((joined, polished), key=lambda g: _new_repeats(fresh, g))
    completing = " completing the first round" if first_round else ""
    return (
        best,
        f"{short[1]}{completing} for {rounds - 1} rounds and the tabu search for the last",
        _new_repeats(fresh, best),
    )


def _plan_search(
    setup: Setup,
    stats: HistoryStats,
    rounds: int,
    rng: random.Random,
    design: tuple[list[list[list[int]]], str] | None,
    first_round: list[list[int]] | None = None,
    progress: Reporter | None = None,
) -> tuple[list[list[list[int]]], str, str | None]:
    """Groups for ``rounds`` rounds: the design or the tabu search, then CP-SAT if repeats remain;
    with how they were made, and the proof that a repeat is unavoidable if there is one.

    ``first_round``: the one round played so far (units), if a design may complete it.

    The tabu search settles most sizes; close to the most rounds a size
    allows it can leave a repeat that a schedule without one avoids. Then,
    in turn: a patient design search (sizes over 40, KTS(45); a symmetric
    schedule for 24 and 32 players at fours, a cyclic one for 32 × 8), more
    tabu starts (16 × 6, 23 × 8, 35 × 13 come out clean from some starts
    only), a base round developed over Z_g with points ∞ found by CP-SAT (any
    mix of tables: 22 × 9, 25 × 10–11, 28 × 12 with mixed tables; 36 × 11 at
    fours), and for small enough problems CP-SAT over the whole schedule
    (:mod:`.exact`), which finds such a schedule (14 players at 3-3-4-4 over
    4 rounds) or proves there is none (12 players, 5 rounds of threes);
    either way the report says so. Where a proof made offline says every
    schedule has a repeat (:data:`.catalogue.NONE_EXISTS`: 17 × 6, 19 × 8), only the
    tabu starts run, and the report cites the proof.
    """
    problem = build_problem(setup, stats, rounds, repeat_weight=10_000, four_weight=1)
    fixed, apart = fixed_units(setup), apart_units(setup)
    fresh = copy.deepcopy(problem)  # solve() counts its meetings into problem
    completing = " completing the first round" if first_round else ""
    whole = not stats.rounds or first_round  # these rounds (and the first) are the whole event
    total = rounds + (1 if first_round else 0)
    # Sizes proved to need a repeat: only the tabu search, to keep the repeats few.
    proof = proved_none(setup.unit_sizes, total) if whole else None
    initial, how = design if design is not None else (None, "tabu search")
    if design is not None:
        how += completing
    groups = solve(
        problem,
        rng,
        initial=initial,
        iterations=SCHEDULE_ITERATIONS,
        on_step=_stepper(progress, Stage.SEARCH),
    )
    left = _new_repeats(fresh, groups)
    if left and design is None and whole and not proof:  # the quick search missed
        report(progress, Stage.PATIENT_DESIGN)
        design = design_rounds(
            setup.unit_sizes, fixed, rounds, rng, first_round=first_round, patient=True, apart=apart
        )
        if design is not None:
            initial, how = design
            how += completing
            groups = solve(
                copy.deepcopy(fresh),
                rng,
                initial=initial,
                iterations=SCHEDULE_ITERATIONS,
                on_step=_stepper(progress, Stage.SEARCH),
            )
            left = _new_repeats(fresh, groups)
    if left and design is None:  # the tabu search depends on its start: try a few more
        small = fresh.n * rounds <= EXACT_MAX_CELLS
        restarts = RESTARTS_SMALL if small else RESTARTS_LARGE
        for restart in range(1, 1 + restarts):
            again = solve(
                copy.deepcopy(fresh),
                rng,
                iterations=SCHEDULE_ITERATIONS,
                on_step=_stepper(progress, Stage.RESTART, restart, restarts),
            )
            fewer = _new_repeats(fresh, again)
            if fewer < left:
                groups, left, how = again, fewer, f"tabu search, start {restart + 1}"
            if not left:
                break
    if left and proof:
        none_exists = (
            f"no schedule without a repeat exists for {fresh.n} players over {total} rounds"
            f" (proved offline — {proof})"
        )
        return groups, f"{how}, {left} repeated meeting(s) left; {none_exists}", none_exists
    if left and design is None and whole:
        report(progress, Stage.DEVELOPED)
        developed = developed_rounds(
            setup.unit_sizes, fixed, rounds, rng, first_round=first_round, apart=apart
        )
        if developed is not None and not _kept_apart_meet(fresh, developed[0]):
            again = solve(copy.deepcopy(fresh), rng, initial=developed[0], iterations=0)
            if _new_repeats(fresh, again) < left:  # 4-table duty only: no repeat comes back
                return again, developed[1] + completing, None
    if not left or fresh.n * rounds > EXACT_MAX_CELLS:
        return groups, how, None
    report(progress, Stage.EXACT)
    exact = zero_repeat_schedule(fresh, seed=rng.randrange(2**31), budget=EXACT_BUDGET)
    if exact.tables is None:
        none_exists = exact.detail if exact.status == "none exists" else None
        return groups, f"{how}, {left} repeated meeting(s) left; {exact.detail}", none_exists
    polished = solve(fresh, rng, initial=exact.tables, iterations=0)  # 4-table duty only
    return polished, f"{exact.detail} (OR-Tools {ortools_version()})", None


def _kept_apart_meet(problem: Problem, groups: Sequence[Sequence[Sequence[int]]]) -> bool:
    """Whether ``groups`` seat two units that must not meet at one table."""
    return any(
        a * problem.n + b in problem.forbid
        for tables in groups
        for members in tables
        for a, b in combinations(members, 2)
    )


def _new_repeats(problem: Problem, groups: Sequence[Sequence[Sequence[int]]]) -> int:
    """Meetings in ``groups`` beyond the first of each pair, counting the history."""
    met = [row[:] for row in problem.meet]
    extra = 0
    for tables in groups:
        for members in tables:
            for a, b in combinations(members, 2):
                extra += met[a][b] > 0
                met[a][b] += 1
                met[b][a] += 1
    return extra
