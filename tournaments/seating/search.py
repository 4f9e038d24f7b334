"""Grouping players into tables: greedy start, then tabu search on swaps.

The objective is lexicographic, folded into integer weights that cannot
overflow into each other for real events (≤ 30 rounds):

1. ``FORBID`` per meeting of a *must-not-meet* pair (a constraint);
2. ``REPEAT`` per repeated meeting: a pair meeting for the ``c``-th time costs
   ``c - 1`` repeats, so third meetings are dearer than second ones;
3. ``RANK`` per rank position of spread at a table (Swiss method only);
4. ``TEAM`` per earlier meeting of two teams, each time members of the two
   meet (a team event, issue 40): the teams' meetings spread as evenly as the
   rounds allow (the sum of ``C(m, 2)`` over the pairs of teams, for ``m``
   meetings, is least when the ``m`` are level). Two members of one team at a
   table are ``FORBID`` pairs, like players kept apart;
5. ``FOUR`` on the square of each player's number of 4-table rounds (their
   fair share of sitting out deals, 001 §3.2.10).

Left neighbours, seat positions and first dealers do not depend on the
grouping; :mod:`.seats` settles them per table afterwards.

The search is the conflict-directed tabu search of Dotú & Van Hentenryck for
the social golfer problem ("Scheduling social golfers locally", 2005): pick a
table with a conflict, one of its players, and make the best swap with a
player at another table of the same round that is not tabu. It works on one
round (round-by-round draws) or on many rounds at once (schedules). Budgets
are counted in iterations, never in seconds, so a seed always gives the same
tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

__all__ = ["FORBID", "REPEAT", "RANK", "TEAM", "FOUR", "Problem", "count_meetings", "solve"]

FORBID = 100_000_000
REPEAT = 10_000
RANK = 1_000
TEAM = 10  #: one swap changes at most 4 teams' meetings: under REPEAT while they stay under 250
FOUR = 1
SWISS_WINDOW = 2 * REPEAT // RANK  #: places a Swiss swap may reach (see _partners_for)
STEP_EVERY = 50  #: iterations between two reports of the tabu search's progress


@dataclass
class Problem:
    """Players ``0 … n-1``; ``meet`` holds the history counts (n × n)."""

    n: int
    sizes: tuple[int, ...]  #: table sizes, the same every round
    rounds: int
    meet: list[list[int]]
    fours: list[int]
    forbid: set[int] = field(default_factory=set)  #: p * n + q, both orders
    fixed: dict[int, int] = field(default_factory=dict)  #: player → table index
    rank: list[int] | None = None  #: Swiss: standings position of each player (0 … n-1)
    by_rank: list[int] | None = None  #: players in standings order (filled on demand)
    rank_place: dict[int, int] = field(default_factory=dict)
    repeat_weight: int = REPEAT  #: 0 for the random draw (constraints only)
    four_weight: int = FOUR
    team: list[int] | None = None  #: a team event: each player's team (0 … k-1; -1: none)
    team_meet: list[list[int]] | None = None  #: team × team: meetings so far (k × k)
    team_weight: int = TEAM  #: 0 for the random draw (teams kept apart, meetings not spread)


@dataclass
class _State:
    tables: list[list[list[int]]]  #: [round][table] → players
    where: list[list[int]]  #: [round][player] → table


def solve(
    problem: Problem,
    rng: random.Random,
    *,
    initial: Sequence[Sequence[Sequence[int]]] | None = None,
    iterations: int = 2000,
    rank_start: bool = False,
    on_step: Callable[[int, int], None] | None = None,
) -> list[list[list[int]]]:
    """Tables (lists of player indices) for ``problem.rounds`` rounds.

    ``initial`` rounds are used as given (e.g. a constructed design) and only
    repaired if they have conflicts; otherwise rounds are built greedily.
    ``on_step(done, iterations)`` hears how far the tabu search has gone (every
    :data:`STEP_EVERY` iterations, and once at the end); it changes nothing.
    """
    p = problem
    state = _State([], [])
    for r in range(p.rounds):
        if initial is not None:
            tables = [list(t) for t in initial[r]]
        elif rank_start and p.rank is not None:
            tables = _by_rank(p)
        else:
            tables = _greedy(p, rng)
        where = [0] * p.n
        for t, members in enumerate(tables):
            for x in members:
                where[x] = t
            count_meetings(p, members)
        state.tables.append(tables)
        state.where.append(where)
    for x in range(p.n):
        for r in range(p.rounds):
            if p.sizes[state.where[r][x]] == 4:
                p.fours[x] += 1
    _tabu(p, state, rng, iterations, on_step)
    if on_step is not None:
        on_step(iterations, iterations)  # done, early or not
    _polish(p, state, rng)
    return state.tables


def count_meetings(p: Problem, members: Sequence[int]) -> None:
    """Count one more meeting of each pair at a table of ``members`` (and of their teams)."""
    meet, team, tm = p.meet, p.team, p.team_meet
    for i, x in enumerate(members):
        for y in members[i + 1 :]:
            meet[x][y] += 1
            meet[y][x] += 1
            if team is not None and tm is not None:
                tx, ty = team[x], team[y]
                if tx >= 0 and ty >= 0 and tx != ty:
                    tm[tx][ty] += 1
                    tm[ty][tx] += 1


def fill_tables(
    sizes: Sequence[int], fixed: dict[int, int], order: Sequence[int]
) -> list[list[int]]:
    """Fixed players at their tables, then the others in ``order``, filling table after table."""
    tables: list[list[int]] = [[] for _ in sizes]
    for x, t in fixed.items():
        tables[t].append(x)
    t = 0
    for x in order:
        while len(tables[t]) >= sizes[t]:
            t += 1
        tables[t].append(x)
    return tables


def _by_rank(p: Problem) -> list[list[int]]:
    assert p.rank is not None
    rank = p.rank
    order = sorted((x for x in range(p.n) if x not in p.fixed), key=lambda x: rank[x])
    return fill_tables(p.sizes, p.fixed, order)


def _greedy(p: Problem, rng: random.Random) -> list[list[int]]:
    """Each player, most-met first, joins the table where they add least cost."""
    tables: list[list[int]] = [[] for _ in p.sizes]
    for x, t in p.fixed.items():
        tables[t].append(x)
    rest = [x for x in range(p.n) if x not in p.fixed]
    rng.shuffle(rest)
    rest.sort(key=lambda x: -sum(1 for c in p.meet[x] if c))
    w, n = p.repeat_weight, p.n
    team, tm, tw = p.team, p.team_meet, p.team_weight
    for x in rest:
        row = p.meet[x]
        best, best_t = None, 0
        for t, members in enumerate(tables):
            if len(members) >= p.sizes[t]:
                continue
            cost = 0
            for y in members:
                cost += w * row[y] + (FORBID if x * n + y in p.forbid else 0)
                if team is not None and tm is not None and tw and team[x] >= 0 <= team[y]:
                    cost += tw * tm[team[x]][team[y]]
            if p.sizes[t] == 4:
                cost += p.four_weight * p.fours[x]
            key = (cost, rng.random())
            if best is None or key < best:
                best, best_t = key, t
        tables[best_t].append(x)
    return tables


def _pair_cost(p: Problem, x: int, y: int, count: int) -> int:
    """Cost of one more meeting of x and y when they have met ``count`` times."""
    return p.repeat_weight * count + (FORBID if x * p.n + y in p.forbid else 0)


def _swap_delta(p: Problem, s: _State, r: int, a: int, b: int, *, teams: bool = True) -> int:
    """The cost's change if ``a`` and ``b`` trade tables in round ``r``; without the teams'
    meetings for ``teams=False`` (the tabu search mends repeats and kept-apart pairs, and
    :func:`_polish` spreads the teams' meetings after it: the tabu's steps stay as quick as
    without teams)."""
    meet = p.meet
    ta, tb = s.where[r][a], s.where[r][b]
    d = 0
    for x in s.tables[r][ta]:
        if x != a:
            d += _pair_cost(p, b, x, meet[b][x]) - _pair_cost(p, a, x, meet[a][x] - 1)
    for y in s.tables[r][tb]:
        if y != b:
            d += _pair_cost(p, a, y, meet[a][y]) - _pair_cost(p, b, y, meet[b][y] - 1)
    sa, sb = p.sizes[ta], p.sizes[tb]
    if sa != sb and p.four_weight:
        fa, fb = p.fours[a], p.fours[b]
        if sa == 4:  # a leaves a four, b joins one
            d += p.four_weight * ((fa - 1) ** 2 - fa**2 + (fb + 1) ** 2 - fb**2)
        else:
            d += p.four_weight * ((fa + 1) ** 2 - fa**2 + (fb - 1) ** 2 - fb**2)
    if teams and p.team is not None and p.team_weight:
        d += p.team_weight * _team_delta(p, _team_changes(p, s, r, a, b))
    if p.rank is not None:
        rank = p.rank
        for t, out, inn in ((ta, a, b), (tb, b, a)):
            old = [rank[x] for x in s.tables[r][t]]
            new = [rank[x] for x in s.tables[r][t] if x != out] + [rank[inn]]
            d += RANK * ((max(new) - min(new)) - (max(old) - min(old)))
    return d


def _team_changes(p: Problem, s: _State, r: int, a: int, b: int) -> dict[tuple[int, int], int]:
    """How swapping ``a`` and ``b`` in round ``r`` changes the teams' meetings: (team, team)
    with the smaller first → change."""
    team = p.team
    assert team is not None
    change: dict[tuple[int, int], int] = {}
    for out, inn, t in ((a, b, s.where[r][a]), (b, a, s.where[r][b])):
        t_out, t_in = team[out], team[inn]
        if t_out == t_in:
            continue  # teammates trade places: their teams meet the same teams
        for x in s.tables[r][t]:
            tx = team[x]
            if x == out or tx < 0:
                continue
            if 0 <= t_out != tx:
                key = (t_out, tx) if t_out < tx else (tx, t_out)
                change[key] = change.get(key, 0) - 1
            if 0 <= t_in != tx:
                key = (t_in, tx) if t_in < tx else (tx, t_in)
                change[key] = change.get(key, 0) + 1
    return change


def _team_delta(p: Problem, change: dict[tuple[int, int], int]) -> int:
    """The change of ``Σ C(m, 2)`` over the pairs of teams (``m`` their meetings)."""
    tm = p.team_meet
    assert tm is not None
    d = 0
    for (i, j), c in change.items():
        m = tm[i][j]
        d += ((m + c) * (m + c - 1) - m * (m - 1)) // 2
    return d


def _leaving_costs(p: Problem, tables: list[list[int]]) -> list[int]:
    """Each player's cost of the meetings at their table in one round: what leaving it saves
    (the ``_pair_cost`` of each meeting, counted as if it had not happened)."""
    out = [0] * p.n
    for members in tables:
        _count_leaving(p, members, out)
    return out


def _count_leaving(p: Problem, members: list[int], costs: list[int]) -> None:
    """:func:`_leaving_costs` of the players at one table, written into ``costs``."""
    meet, w, n, forbid = p.meet, p.repeat_weight, p.n, p.forbid
    for x in members:
        row = meet[x]
        total = 0
        for y in members:
            if y != x:
                total += w * (row[y] - 1) + (FORBID if x * n + y in forbid else 0)
        costs[x] = total


def _swapped(p: Problem, s: _State, leaving: dict[int, list[int]], a: int, b: int) -> None:
    """Bring the leaving costs kept per round (:func:`_leaving_costs`) up to date after ``a``
    and ``b`` swapped in some round: only meetings with ``a`` or ``b`` changed, so in each round
    only the players at ``a``'s and ``b``'s tables have another cost."""
    for r, costs in leaving.items():
        tables, where = s.tables[r], s.where[r]
        for t in {where[a], where[b]}:
            _count_leaving(p, tables[t], costs)


def _swap_deltas(
    p: Problem, s: _State, r: int, a: int, leaving: list[int]
) -> list[tuple[int, int]]:
    """``(b, _swap_delta(p, s, r, a, b, teams=False))`` for every player ``b`` that ``a`` may swap with in
    round ``r`` (not fixed, at another table), in player order, without Swiss ranks.

    The same integers as :func:`_swap_delta`, summed in another order: what ``a`` leaves
    (``leaving[a]``) and what it joins (its meetings with each table, less ``b``) once per
    ``a``; per ``b`` only ``b``'s meetings at ``a``'s table and what ``b`` leaves."""
    meet, w, n, forbid, fixed = p.meet, p.repeat_weight, p.n, p.forbid, p.fixed
    sizes, fours, four_weight = p.sizes, p.fours, p.four_weight
    tables, where = s.tables[r], s.where[r]
    ta = where[a]
    row_a = meet[a]
    an = a * n
    others = [x for x in tables[ta] if x != a]
    joining = []  # a's meetings at each table, as its pair costs
    for members in tables:
        met = 0
        for y in members:
            met += row_a[y]
        joining.append(w * met)
    if forbid:
        for t, members in enumerate(tables):
            for y in members:
                if an + y in forbid:
                    joining[t] += FORBID
    base = -leaving[a]
    sa, fa = sizes[ta], fours[a]
    out = []
    for b in range(n):
        tb = where[b]
        if tb == ta or b in fixed:
            continue
        row_b = meet[b]
        d = base - leaving[b] + joining[tb] - w * row_a[b]
        if forbid:
            bn = b * n
            if an + b in forbid:
                d -= FORBID
            for x in others:
                d += w * row_b[x] + (FORBID if bn + x in forbid else 0)
        else:
            met = 0
            for x in others:
                met += row_b[x]
            d += w * met
        if four_weight and sa != sizes[tb]:
            fb = fours[b]
            if sa == 4:  # a leaves a four, b joins one
                d += four_weight * ((fa - 1) ** 2 - fa**2 + (fb + 1) ** 2 - fb**2)
            else:
                d += four_weight * ((fa + 1) ** 2 - fa**2 + (fb - 1) ** 2 - fb**2)
        out.append((b, d))
    return out


def _apply_swap(p: Problem, s: _State, r: int, a: int, b: int) -> None:
    meet = p.meet
    ta, tb = s.where[r][a], s.where[r][b]
    if p.team is not None and p.team_meet is not None:
        for (i, j), c in _team_changes(p, s, r, a, b).items():
            p.team_meet[i][j] += c
            p.team_meet[j][i] += c
    for x in s.tables[r][ta]:
        if x != a:
            meet[a][x] -= 1
            meet[x][a] -= 1
            meet[b][x] += 1
            meet[x][b] += 1
    for y in s.tables[r][tb]:
        if y != b:
            meet[b][y] -= 1
            meet[y][b] -= 1
            meet[a][y] += 1
            meet[y][a] += 1
    if p.sizes[ta] != p.sizes[tb]:
        step = 1 if p.sizes[tb] == 4 else -1
        p.fours[a] += step
        p.fours[b] -= step
    ia, ib = s.tables[r][ta].index(a), s.tables[r][tb].index(b)
    s.tables[r][ta][ia], s.tables[r][tb][ib] = b, a
    s.where[r][a], s.where[r][b] = tb, ta


def _bad(p: Problem, members: list[int]) -> bool:
    meet, n = p.meet, p.n
    for i, x in enumerate(members):
        for y in members[i + 1 :]:
            if (p.repeat_weight and meet[x][y] > 1) or x * n + y in p.forbid:
                if x in p.fixed and p.fixed[x] == p.fixed.get(y):
                    continue  # both must sit here: the constraint, not the draw
                return True
    return False


def _conflicts(p: Problem, s: _State) -> set[tuple[int, int]]:
    return {
        (r, t) for r in range(p.rounds) for t, members in enumerate(s.tables[r]) if _bad(p, members)
    }


def _tabu(
    p: Problem,
    s: _State,
    rng: random.Random,
    iterations: int,
    on_step: Callable[[int, int], None] | None = None,
) -> None:
    bad = _conflicts(p, s)
    if not bad:
        return
    tabu: dict[tuple[int, int], dict[int, int]] = {}  #: (round, a) → b → last tabu iteration
    cost = best_cost = 0  # relative to the start
    best = [[list(t) for t in rnd] for rnd in s.tables]
    best_meet = [row[:] for row in p.meet]
    best_fours = p.fours[:]
    best_teams = [row[:] for row in p.team_meet or ()]
    stall = last_best = 0
    everyone = list(range(p.n))
    cap = 24 if p.rounds > 1 else 12
    patience = max(200, iterations // 8)  # stop early where repeats are unavoidable
    leaving: dict[int, list[int]] = {}  # round → each player's cost of leaving their table
    for it in range(iterations):
        if not bad or it - last_best > patience:
            break
        if on_step is not None and it % STEP_EVERY == 0:
            on_step(it, iterations)
        movers = [(r, x) for r, t in sorted(bad) for x in s.tables[r][t] if x not in p.fixed]
        if not movers:
            break  # nothing can move: the constraints are the reason
        if len(movers) > cap:  # bound the work per step on badly tangled draws
            movers = rng.sample(movers, cap)
        choice: tuple[int, float, int, int, int] | None = None
        for r, a in movers:
            ta = s.where[r][a]
            if p.rank is not None:  # Swiss: the spread term needs the tables as they would be
                deltas = (
                    (b, _swap_delta(p, s, r, a, b, teams=False))
                    for b in _partners_for(p, a, everyone)
                    if b not in p.fixed and s.where[r][b] != ta
                )
            else:
                if r not in leaving:
                    leaving[r] = _leaving_costs(p, s.tables[r])
                deltas = _swap_deltas(p, s, r, a, leaving[r])
            barred = tabu.get((r, a))
            for b, d in deltas:
                if barred is not None and barred.get(b, -1) >= it and cost + d >= best_cost:
                    continue  # tabu, unless it beats the best so far (aspiration)
                tie = rng.random()
                # (d, tie, r, a, b) < choice, built only where d does not decide
                if (
                    choice is None
                    or d < choice[0]
                    or (d == choice[0] and (tie, r, a, b) < choice[1:])
                ):
                    choice = (d, tie, r, a, b)
        if choice is None:
            continue
        r, a, b = choice[2], choice[3], choice[4]
        cost += choice[0]
        _apply_swap(p, s, r, a, b)
        _swapped(p, s, leaving, a, b)
        tenure = 4 + rng.randrange(8)
        tabu.setdefault((r, a), {})[b] = tabu.setdefault((r, b), {})[a] = it + tenure
        for rr in range(p.rounds):
            for x in (a, b):
                tt = s.where[rr][x]
                if _bad(p, s.tables[rr][tt]):
                    bad.add((rr, tt))
                else:
                    bad.discard((rr, tt))
        for tt in (s.where[r][a], s.where[r][b]):
            if not _bad(p, s.tables[r][tt]):
                bad.discard((r, tt))
        if cost < best_cost:
            best_cost, stall, last_best = cost, 0, it
            best = [[list(tb_) for tb_ in rnd] for rnd in s.tables]
            best_meet = [row[:] for row in p.meet]
            best_fours = p.fours[:]
            best_teams = [row[:] for row in p.team_meet or ()]
        else:
            stall += 1
            if stall > 200:  # random walk out of a plateau
                stall = 0
                rr = rng.randrange(p.rounds)
                free = [x for x in range(p.n) if x not in p.fixed]
                if len(free) > 1:
                    x, y = rng.sample(free, 2)
                    if s.where[rr][x] != s.where[rr][y]:
                        cost += _swap_delta(p, s, rr, x, y, teams=False)
                        _apply_swap(p, s, rr, x, y)
                        _swapped(p, s, leaving, x, y)
                        bad = _conflicts(p, s)
    if cost > best_cost:
        s.tables[:] = best
        for r, rnd in enumerate(best):
            for t, members in enumerate(rnd):
                for x in members:
                    s.where[r][x] = t
        for i, row in enumerate(best_meet):
            p.meet[i][:] = row
        p.fours[:] = best_fours
        for i, row in enumerate(best_teams):
            p.team_meet[i][:] = row  # type: ignore[index]  # best_teams is empty without teams


def _partners_for(p: Problem, a: int, players: list[int]) -> list[int]:
    """Swap candidates for ``a``: everyone, or for Swiss the near ranks only.

    Under Swiss a swap across more than ``SWISS_WINDOW`` places costs more
    spread than the repeat it could avoid, so it is never worth evaluating.
    """
    if p.rank is None:
        return players
    rank = p.rank
    if p.by_rank is None:
        p.by_rank = sorted(range(p.n), key=lambda x: rank[x])
        p.rank_place = {x: i for i, x in enumerate(p.by_rank)}
    at = p.rank_place[a]
    return p.by_rank[max(0, at - SWISS_WINDOW) : at + SWISS_WINDOW + 1]


def _polish(p: Problem, s: _State, rng: random.Random, sweeps: int = 3) -> None:
    """Hill-climb the lower terms (4-table duty, Swiss spread, the teams' meetings) without
    new repeats."""
    teams = p.team is not None and bool(p.team_weight)
    if p.rank is None and not teams and (len(set(p.sizes)) == 1 or not p.four_weight):
        return
    free = [x for x in range(p.n) if x not in p.fixed]
    for r in range(p.rounds):
        for _ in range(sweeps):
            improved = False
            order = free[:]
            rng.shuffle(order)
            for a in order:
                if p.rank is None and not teams and p.sizes[s.where[r][a]] != 4:
                    continue  # only fours trade places for 4-duty
                for b in _partners_for(p, a, free):
                    if b in p.fixed:
                        continue
                    if s.where[r][a] != s.where[r][b] and _swap_delta(p, s, r, a, b) < 0:
                        _apply_swap(p, s, r, a, b)
                        improved = True
            if not improved:
                break
