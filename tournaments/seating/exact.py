"""Exact search for a schedule without repeated meetings: a CP-SAT model.

The issue asks for "zero repeated meetings whenever a zero-repeat schedule
exists" (issue 4). The tabu search of :mod:`.search` is fast and nearly always
gets there, but when it leaves a repeat it cannot tell whether a better
schedule exists. This module asks Google OR-Tools' CP-SAT solver the yes/no
question instead: it either finds such a schedule, or proves that none exists,
or runs out of its budget and says so.

The model, on the search's :class:`~.search.Problem` (units ``0 … n-1``):

* a bool ``x[p, r, t]`` per unit, round and table; each unit sits at exactly
  one table per round, table ``t`` seats exactly ``sizes[t]`` units, and a
  ``fixed`` unit sits at its table every round;
* a pair that met before (``meet > 0``) or must not meet (``forbid``) never
  shares a table: ``¬x[a, r, t] ∨ ¬x[b, r, t]``;
* any other pair gets a bool ``s[a, b, r]`` forced on when they share a table
  in round ``r`` (``¬x[a, r, t] ∨ ¬x[b, r, t] ∨ s[a, b, r]``), and at most one
  of its ``s[a, b, ·]`` may be on.

Symmetry breaking, each valid with history, ``forbid`` and ``fixed`` alike:

* tables of one size with no fixed unit are interchangeable within a round, so
  their smallest members increase with the table index;
* rounds are interchangeable and unit 0 meets different units every round, so
  the smallest table-mate of unit 0 increases with the round;
* only when there is no history and no ``forbid``, the units that are not
  fixed are interchangeable: round 0 seats them in increasing order, table by
  table, and the round ordering above starts at round 1.

Determinism: one worker, a seed derived from the draw's seed and a budget in
CP-SAT's *deterministic* time units (never wall seconds), so a seed always
gives the same tables for the same ortools version; the draw records that
version (:func:`ortools_version`). A wall-clock limit of sixty times the budget
is only a safety net for a pathologically slow machine.

OR-Tools' solver is imported inside the functions that build a model: it takes about 1.5 s to load,
and every web process imports the seating package, while few draws need CP-SAT.
"""

from __future__ import annotations

from dataclasses import dataclass

import ortools  # the top package only (its version): the solver is imported where it runs

from .search import Problem

__all__ = ["ExactResult", "deterministic_solver", "zero_repeat_schedule", "ortools_version"]


@dataclass(frozen=True)
class ExactResult:
    status: str  #: "found" | "none exists" | "unknown"
    tables: list[list[list[int]]] | None  #: [round][table index] → sorted units; None unless found
    detail: str  #: one line for the draw report


def ortools_version() -> str:
    """The installed OR-Tools version, recorded with a draw so it can be re-run."""
    return ortools.__version__


def deterministic_solver(seed: int, budget: float):
    """A CP-SAT solver whose answer depends only on the model, ``seed`` and the OR-Tools version.

    One worker, the seed, and ``budget`` in deterministic time units (roughly
    seconds of one core), never wall seconds; a wall-clock limit of sixty
    times the budget is only a safety net for a pathologically slow machine.
    Every CP-SAT model of the seating engine runs on one, so a draw re-runs
    from its seed (``manage.py draw_verify``).
    """
    # OR-Tools loads in about 1.5 s (python -X importtime): only a draw that runs CP-SAT pays it
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed % 2**31
    solver.parameters.max_deterministic_time = budget
    solver.parameters.max_time_in_seconds = 60 * budget  # a safety net only
    return solver


def zero_repeat_schedule(
    problem: Problem, *, seed: int, budget: float = 20.0, _symmetry: bool = True
) -> ExactResult:
    """``problem.rounds`` rounds in which no two units share a table twice.

    Pairs that met before or must not meet never share a table; fixed units
    sit at their table every round. ``budget`` is in CP-SAT deterministic time
    units (roughly seconds on one core). ``problem`` is not modified.
    """
    # OR-Tools loads in about 1.5 s (python -X importtime): only a draw that runs CP-SAT pays it
    from ortools.sat.python import cp_model

    n, sizes, rounds = problem.n, tuple(problem.sizes), problem.rounds
    if sum(sizes) != n:
        raise ValueError(f"table sizes {sizes} seat {sum(sizes)} units, not {n}")
    for p, t in problem.fixed.items():
        if not (0 <= p < n and 0 <= t < len(sizes)):
            raise ValueError(f"fixed: unit {p} at table index {t} is out of range")
    if rounds <= 0:
        return ExactResult("found", [], "CP-SAT found a schedule without repeats")
    tables_range = range(len(sizes))
    fixed = dict(problem.fixed)
    paired = bool(problem.forbid or any(any(row) for row in problem.meet))  #: pair constraints
    constrained = paired or bool(fixed)

    m = cp_model.CpModel()
    x = {
        (p, r, t): m.new_bool_var(f"x{p}_{r}_{t}")
        for p in range(n)
        for r in range(rounds)
        for t in tables_range
    }
    for r in range(rounds):
        for p in range(n):
            m.add_exactly_one(x[p, r, t] for t in tables_range)
            if p in fixed:
                for t in tables_range:
                    m.add(x[p, r, t] == (1 if t == fixed[p] else 0))
        for t in tables_range:
            m.add(sum(x[p, r, t] for p in range(n)) == sizes[t])

    for a in range(n):
        for b in range(a + 1, n):
            apart = problem.meet[a][b] > 0 or a * n + b in problem.forbid
            if apart:
                for r in range(rounds):
                    for t in tables_range:
                        m.add_bool_or([~x[a, r, t], ~x[b, r, t]])
                continue
            if rounds == 1:
                continue
            s = [m.new_bool_var(f"s{a}_{b}_{r}") for r in range(rounds)]
            for r in range(rounds):
                for t in tables_range:
                    m.add_bool_or([~x[a, r, t], ~x[b, r, t], s[r]])
            m.add_at_most_one(s)

    if _symmetry:
        _break_symmetry(m, x, n, sizes, rounds, fixed, paired)

    solver = deterministic_solver(seed, budget)
    status = solver.solve(m)

    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        tables = [
            [[p for p in range(n) if solver.boolean_value(x[p, r, t])] for t in tables_range]
            for r in range(rounds)
        ]
        return ExactResult("found", tables, "CP-SAT found a schedule without repeats")
    if status == cp_model.INFEASIBLE:
        given = " given the earlier meetings and constraints" if constrained else ""
        return ExactResult(
            "none exists",
            None,
            f"CP-SAT proved no schedule without repeats exists for {n} players"
            f" over {rounds} rounds{given}",
        )
    return ExactResult("unknown", None, "CP-SAT: no answer within its budget")


def _break_symmetry(m, x, n: int, sizes: tuple[int, ...], rounds: int, fixed, paired) -> None:
    """Constraints that keep at least one of every set of symmetric solutions.

    Any solution is mapped onto one that satisfies them all, in this order:
    without pair constraints (``paired`` false), relabel the units that are
    not fixed so that some round seats them in increasing order, table by
    table, and make it round 0; sort the other rounds (all rounds when
    ``paired``) by unit 0's smallest table-mate, which differs from round to
    round as no pair meets twice; then sort each round's interchangeable
    tables by their smallest member. No step undoes an earlier one: moving
    whole tables changes no meeting, and in round 0 the interchangeable tables
    (no fixed unit) already hold increasing blocks.
    """
    tables_range = range(len(sizes))
    at_fixed = set(fixed.values())
    # 1. Interchangeable tables (same size, no fixed unit): smallest members increase.
    classes: dict[int, list[int]] = {}
    for t in tables_range:
        if t not in at_fixed:
            classes.setdefault(sizes[t], []).append(t)
    for r in range(rounds):
        for ts in classes.values():
            for t, u in zip(ts, ts[1:], strict=False):
                # a unit p at table u needs some unit q < p at table t
                for p in range(n):
                    m.add_bool_or([~x[p, r, u]] + [x[q, r, t] for q in range(p)])
    # 2. Unit 0's smallest table-mate increases with the round (from round 1 when
    #    step 3 settles round 0: any round may be relabelled into round 0).
    first = 1 if not paired else 0
    if rounds - first >= 2 and n >= 2:
        mate = {}
        for r in range(first, rounds):
            for q in range(1, n):
                v = m.new_bool_var(f"mate{q}_{r}")
                mate[q, r] = v
                for t in tables_range:
                    m.add_bool_or([~x[0, r, t], ~x[q, r, t], v])  # together → mate
                    m.add_bool_or([~v, ~x[0, r, t], x[q, r, t]])  # mate → together
        for r in range(first, rounds - 1):
            for q in range(1, n):
                m.add_bool_or([~mate[q, r + 1]] + [mate[k, r] for k in range(1, q)])
    # 3. Without history or forbid, units that are not fixed are interchangeable:
    #    round 0 seats them in increasing order, table by table.
    if not paired:
        free = iter(p for p in range(n) if p not in fixed)
        for t in tables_range:
            seats = sizes[t] - sum(1 for u in fixed.values() if u == t)
            for p in [next(free, None) for _ in range(seats)]:
                if p is not None:
                    m.add(x[p, 0, t] == 1)
