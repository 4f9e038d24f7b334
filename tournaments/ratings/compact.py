"""A rating's changes as they are stored: one record per person and event (``EventChanges``),
his tables' changes in it as one JSON array, instead of one record per person and table.

A season of 100 events × 150 players × 9 rounds is 15,000 records instead of 135,000; the
numbers are the same: every table's change keeps its round, table, place, size, ties, the state
after it (μ, σ), the shown rating and its ± after it, its parts and its opponents as they stood;
what a table started from is what the table before it ended with (the record keeps the state
before the event's first table), so :func:`unpack` gives back the very
:class:`~.model.RatingChange` objects the run made (tested).

:func:`pack` writes each table's change as JSON text directly from the run's tables
(:class:`~.model.TableOutcome`), each opponent's part written once per table, without making
the change objects first; ``rate_events(…, packer=Packer())`` does it as it rates (:class:`Packer`),
so that the run keeps text, not tables. The fields of a table's entry, in order: :data:`TABLE_FIELDS`.

>>> from tournaments.ratings import RatedEvent, RatedTable, TableResult, model_for, rate_events
>>> t = RatedTable(1, 1, (TableResult(7, 40), TableResult(8, -10), TableResult(9, -30)), 30)
>>> run = rate_events([RatedEvent(1, (t,))], model_for("prefko"))
>>> (row, *_others) = pack(run.tables)
>>> row.person, row.event, row.seq, row.shown_before, row.shown_after
(7, 1, 1, 1000.0, 1002.0)
>>> (entry,) = row.decoded()
>>> entry[:9], entry[10]
([1, 1, 1, 3, 1, 1002.0, 0.0, 1002.0, None], [[8, 1000.0, None, 2], [9, 1000.0, None, 3]])
>>> [(key, person) for key, _value, person in entry[9]]
[('against', 8), ('against', 9), ('rounding', None)]
>>> unpack([(row.person, row.event, row.before, row.shown_before, row.decoded())]) == [
...     run.changes[0]]
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .model import Opponent, PlayerState, RatingChange, TableOutcome

__all__ = ["TABLE_FIELDS", "EventChanges", "Packer", "pack", "unpack"]

#: a table's entry in a record's array, in this order (``parts``: ``[key, value, opponent
#: person or null]``; ``opponents``: ``[person, shown, ± or null, place]`` before the table)
TABLE_FIELDS = (
    "round", "table", "place", "size", "tied", "mu", "sigma", "shown", "spread", "parts",
    "opponents",
)  # fmt: skip


@dataclass(slots=True)
class EventChanges:
    """One person's changes at one event: the state before his first table there and after his
    last, and each table's change as JSON text (:data:`TABLE_FIELDS`). ``seq`` is the place of
    his first change among the event's changes (from 1): the event's records in that order
    list the changes in the order rated."""

    person: int
    event: int
    seq: int
    before: PlayerState
    shown_before: float
    after: PlayerState
    shown_after: float
    spread_after: float | None
    tables: list[str]

    def changes_json(self) -> str:
        """The tables' changes as one JSON array (what is stored)."""
        return "[" + ",".join(self.tables) + "]"

    def decoded(self) -> list[list[Any]]:
        return json.loads(self.changes_json())  # type: ignore[no-any-return]


def _num(value: float | None) -> str:
    return "null" if value is None else repr(value)


def _parts(parts: Sequence[tuple[str, float, int | None]]) -> str:
    # the keys are the models' own words ("skill", "against"): nothing to escape
    return "[" + ",".join(
        f'["{k}",{v!r},{"null" if p is None else p}]' for k, v, p in parts
    ) + "]"  # fmt: skip


class Packer:
    """Packs tables one at a time as :func:`~.model.rate_events` rates them (its ``packer``):
    the records grow as text, and the run keeps no table (a season's 45,000 tables kept as
    objects cost the garbage collector a second)."""

    __slots__ = ("records", "_event", "_rows", "_seq", "_said")

    def __init__(self) -> None:
        self.records: list[EventChanges] = []
        self._event: int | None = None
        self._rows: dict[int, EventChanges] = {}
        self._seq = 0
        # per person: his state after his last table packed and its "shown,±" as text, which
        # is what his opponents at his next table read (a float's repr is most of the cost)
        self._said: dict[int, tuple[PlayerState, str]] = {}

    def add(self, t: TableOutcome) -> None:
        if t.event != self._event:
            self._event, self._seq, self._rows = t.event, 0, {}
        rows, seq, said = self._rows, self._seq, self._said
        table, results, places, before = t.table, t.table.results, t.places, t.before
        size = len(results)
        head = f"[{table.round},{table.table},"
        seats = []
        for j, r in enumerate(results):
            known = said.get(r.person)
            if known is None or known[0] is not before[j]:
                text = f"{t.shown_before[j]!r},{_num(t.spread_before[j])}"
            else:
                text = known[1]
            seats.append(f"[{r.person},{text},{places[j]}]")
        for i, r in enumerate(results):
            seq += 1
            after, shown, spread = t.after[i], t.shown_after[i], t.spread_after[i]
            shown_text = f"{shown!r},{_num(spread)}"
            said[r.person] = (after, shown_text)
            text = (
                f"{head}{places[i]},{size},{t.tied[i]},{after.mu!r},{after.sigma!r},{shown_text},"
                f"{_parts(t.parts[i])},[{','.join(seats[:i] + seats[i + 1 :])}]]"
            )
            row = rows.get(r.person)
            if row is None:
                row = EventChanges(
                    r.person, t.event, seq, before[i], t.shown_before[i], after, shown, spread,
                    [text],
                )  # fmt: skip
                rows[r.person] = row
                self.records.append(row)
            else:
                row.after, row.shown_after, row.spread_after = after, shown, spread
                row.tables.append(text)
        self._seq = seq


def pack(tables: Iterable[TableOutcome]) -> list[EventChanges]:
    """The run's tables (in the order rated) as one record per person and event, in the order
    of each record's first change."""
    packer = Packer()
    for t in tables:
        packer.add(t)
    return packer.records


def unpack(
    rows: Iterable[tuple[int, int, PlayerState, float, Sequence[Sequence[Any]]]],
) -> list[RatingChange]:
    """The changes of stored records ``(person, event, state before, shown before, the
    decoded array)`` in their order: each table's change as :func:`~.model.rate_events` made
    it (a first record's ``before.last_event`` is what the caller gives)."""
    out = []
    for person, event, before, shown_before, tables in rows:
        for entry in tables:
            rnd, tbl, place, size, tied, mu, sigma, shown, spread, parts, opponents = entry
            after = PlayerState(mu, sigma, before.tables + 1, event)
            out.append(
                RatingChange(
                    person=person,
                    event=event,
                    round=rnd,
                    table=tbl,
                    place=place,
                    size=size,
                    tied=tied,
                    before=before,
                    after=after,
                    shown_before=shown_before,
                    shown_after=shown,
                    spread_after=spread,
                    parts=tuple((k, v, p) for k, v, p in parts),
                    opponents=tuple(Opponent(*o) for o in opponents),
                )
            )
            before, shown_before = after, shown
    return out
