"""The movement: which boards each table plays, stanza by stanza, round by round.

Players keep the seats the round's draw gave them for the whole round (the seating engine
rotates them between rounds, with no repeated opponents where it can); the **boards** move.
A round of ``T`` tables has ``T`` sets of boards, each of ``boards_per_set`` boards, new boards
every round. The round is played in ``stanzas`` stanzas (at most ``T``): in stanza ``j``
(0-based) table ``t`` (0-based) plays set ``(t + j) mod T``, and then passes it to the table
below it (table ``t`` hands its set to table ``t - 1``, the last table's going to the first),
as bridge's Mitchell movement sends the boards down one table. So within a round

- each set is at one table at a time, and visits ``stanzas`` different tables: every board is
  played by ``stanzas`` tables, with different players in each seat;
- a table never meets the same set twice, and every round's boards are new: no one plays a
  board twice.

With ``stanzas == T`` every table plays every board of the round (the field is compared
whole); with fewer, a large field plays fewer boards a round and each board is compared over
``stanzas`` tables.

>>> [p.boards for p in plan_round(1, tables=3, boards_per_set=2) if p.table == 1]
[(1, 2), (3, 4), (5, 6)]
>>> [(p.table, p.boards) for p in plan_round(2, tables=3, boards_per_set=1, first_board=4) if p.stanza == 1]
[(1, (4,)), (2, (5,)), (3, (6,))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Play", "plan_round", "plan_event", "times_played", "boards_played_twice"]


@dataclass(frozen=True)
class Play:
    """Table ``table`` (1-based) plays ``boards`` in stanza ``stanza`` (1-based) of ``round``."""

    round: int
    stanza: int
    table: int
    set: int
    boards: tuple[int, ...]


def plan_round(
    round_number: int,
    *,
    tables: int,
    boards_per_set: int,
    stanzas: int | None = None,
    first_board: int = 1,
) -> tuple[Play, ...]:
    """The plays of one round, stanza by stanza, table by table (see the module's text).

    :raises ValueError: naming the field out of range.
    """
    if tables < 1:
        raise ValueError(f"tables: a round has at least one table, not {tables}")
    if boards_per_set < 1:
        raise ValueError(f"boards_per_set: a set has at least one board, not {boards_per_set}")
    s = tables if stanzas is None else stanzas
    if not 1 <= s <= tables:
        raise ValueError(f"stanzas: between 1 and the number of tables ({tables}), not {s}")
    if first_board < 1:
        raise ValueError(f"first_board: boards are numbered from 1, not {first_board}")
    sets = [
        tuple(range(first_board + k * boards_per_set, first_board + (k + 1) * boards_per_set))
        for k in range(tables)
    ]
    return tuple(
        Play(round_number, j + 1, t + 1, (t + j) % tables + 1, sets[(t + j) % tables])
        for j in range(s)
        for t in range(tables)
    )


def plan_event(
    tables_by_round: Sequence[int], *, boards_per_set: int, stanzas: int | None = None
) -> tuple[Play, ...]:
    """Every round's plays, the boards numbered on from round to round."""
    out: list[Play] = []
    first = 1
    for r, tables in enumerate(tables_by_round, 1):
        out.extend(
            plan_round(
                r,
                tables=tables,
                boards_per_set=boards_per_set,
                stanzas=None if stanzas is None else min(stanzas, tables),
                first_board=first,
            )
        )
        first += tables * boards_per_set
    return tuple(out)


def times_played(plays: Iterable[Play]) -> dict[int, int]:
    """How many tables play each board."""
    return dict(Counter(b for p in plays for b in p.boards))


def boards_played_twice(
    plays: Iterable[Play], seating: Mapping[tuple[int, int], Sequence[Hashable]]
) -> list[tuple[Hashable, int]]:
    """``(player, board)`` for every board a player would play more than once.

    ``seating[(round, table)]`` is who sits at the table in that round.
    """
    count: Counter[tuple[Hashable, int]] = Counter()
    for p in plays:
        for player in seating[(p.round, p.table)]:
            for b in p.boards:
                count[(player, b)] += 1
    return sorted((k for k, n in count.items() if n > 1), key=lambda k: (k[1], str(k[0])))
