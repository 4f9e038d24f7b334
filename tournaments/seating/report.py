"""The draw report: for every player, whom they met and why they sit where they sit.

A referee answering "why am I with him again?" reads :class:`PlayerReport`:
earlier meetings with their rounds, each repeat at this table with its reason,
seat positions and left neighbours so far, first deals and 4-table duty.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .history import HistoryStats
from .model import (
    Constraints,
    DrawReport,
    EntryId,
    Method,
    PlayerReport,
    Repeat,
    Table,
    sort_key,
)

__all__ = ["build_report", "team_matrix"]

# Why a repeated meeting was accepted, as the report stores it (the pages translate these).
RANDOM = "random draw: the referees' draw does not avoid repeats (001 note 8)"
BOTH_MUST_SIT = "constraint: both must sit at this table"
PARTNERS = "constraint: fixed partners"
UNAVOIDABLE = "unavoidable: only {unmet} players present not yet met"
SWISS = "standings: Swiss tables group players of similar score"
# Not a claim that no seating avoids it: the notes say whether that was proved or only searched.
NOT_AVOIDED = "not avoided: the draw found no seating without it (see how the tables were made)"
# The constraints applied to a player, by entry id (the pages put the names in).
MUST_SIT = "must sit at table {table}"
MUST_NOT_MEET = "must not meet {entry}"
PARTNERS_WITH = "partners with {entry}"


def build_report(
    tables: Sequence[Table],
    stats: HistoryStats,
    present: Sequence[EntryId],
    constraints: Constraints,
    method: Method,
    notes: Sequence[str] = (),
    *,
    teams: Mapping[EntryId, str] | None = None,
) -> DrawReport:
    """Report on ``tables`` given the history ``stats`` *before* this round; ``teams`` (every
    entry's team, those absent included) for a team event's meetings matrix."""
    players: dict[EntryId, PlayerReport] = {}
    present_set = set(present)
    repeated = left_repeats = 0
    apart: dict[EntryId, list[EntryId]] = {}
    for pair in constraints.must_not_meet:
        x, y = sorted(pair, key=sort_key)
        apart.setdefault(x, []).append(y)
        apart.setdefault(y, []).append(x)
    for others in apart.values():
        others.sort(key=sort_key)
    met_by: dict[EntryId, dict[EntryId, tuple[int, ...]]] = {}
    for pair, rounds in stats.meetings.items():
        x, y = tuple(pair)
        met_by.setdefault(x, {})[y] = tuple(rounds)
        met_by.setdefault(y, {})[x] = tuple(rounds)
    for table in tables:
        k = len(table.seats)
        for i, a in enumerate(table.seats):
            met = met_by.get(a, {})
            unmet_left = len(present_set - {a} - set(met))
            repeats = []
            for b in table.seats:
                if b == a or b not in met:
                    continue
                repeats.append(
                    Repeat(b, met[b], _reason(a, b, table, constraints, method, unmet_left, k))
                )
            left = table.seats[(i + 1) % k]
            if stats.left.get((a, left)):
                left_repeats += 1
            seats = Counter(stats.seats[a]) if a in stats.seats else Counter()
            seats[i] += 1
            applied = []
            if a in constraints.must_sit:
                applied.append(MUST_SIT.format(table=constraints.must_sit[a]))
            applied += [MUST_NOT_MEET.format(entry=other) for other in apart.get(a, ())]
            for x, y in constraints.partners:
                if a in (x, y):
                    applied.append(PARTNERS_WITH.format(entry=y if a == x else x))
            players[a] = PlayerReport(
                entry=a,
                table=table.number,
                seat=i,
                met_before=dict(sorted(met.items(), key=lambda kv: sort_key(kv[0]))),
                repeats=tuple(repeats),
                seats_so_far=dict(sorted(seats.items())),
                left_neighbours=(*stats.left_sequence.get(a, ()), left),
                first_dealer_count=stats.dealer.get(a, 0) + (i == table.first_dealer),
                four_table_count=stats.fours.get(a, 0) + (k == 4),
                constraints=tuple(applied),
            )
            repeated += len(repeats)
    return DrawReport(
        players=players,
        repeated_meetings=repeated // 2,
        repeated_left_neighbours=left_repeats,
        notes=tuple(notes),
        team_meetings=team_matrix(tables, stats, present, teams or {}),
    )


def team_matrix(
    tables: Sequence[Table],
    stats: HistoryStats,
    present: Sequence[EntryId],
    teams: Mapping[EntryId, str],
) -> dict[tuple[str, str], int]:
    """The teams' meetings matrix after ``tables``: (team, other team), names in order → how
    often a member of one sat at a table with a member of the other, in the history (members
    absent now included) and at ``tables``; every pair of the teams present, 0 where they
    have not met (issue 40)."""
    here = sorted({teams[x] for x in present if x in teams})
    matrix = {(a, b): 0 for i, a in enumerate(here) for b in here[i + 1 :]}
    pairs = [(tuple(pair), len(rounds)) for pair, rounds in stats.meetings.items()]
    pairs += [((a, b), 1) for t in tables for i, a in enumerate(t.seats) for b in t.seats[i + 1 :]]
    for (a, b), times in pairs:
        ta, tb = teams.get(a), teams.get(b)
        if ta is None or tb is None or ta == tb:
            continue
        key = (ta, tb) if ta < tb else (tb, ta)
        if key in matrix:
            matrix[key] += times
    return matrix


def _reason(
    a: EntryId,
    b: EntryId,
    table: Table,
    constraints: Constraints,
    method: Method,
    unmet: int,
    k: int,
) -> str:
    if method is Method.RANDOM:
        return RANDOM
    if constraints.must_sit.get(a) == constraints.must_sit.get(b) == table.number:
        return BOTH_MUST_SIT
    if frozenset((a, b)) in {frozenset(p) for p in constraints.partners}:
        return PARTNERS
    if unmet < k - 1:
        return UNAVOIDABLE.format(unmet=unmet)
    if method is Method.SWISS:
        return SWISS
    return NOT_AVOIDED
