"""The draw report: for every player, whom they met and why they sit where they sit.

A referee answering "why am I with him again?" reads :class:`PlayerReport`:
earlier meetings with their rounds, each repeat at this table with its reason,
seat positions and left neighbours so far, first deals and 4-table duty.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

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

__all__ = ["build_report"]

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
) -> DrawReport:
    """Report on ``tables`` given the history ``stats`` *before* this round."""
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
    )


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
