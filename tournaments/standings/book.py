"""Standings kept up to date table by table (issue 28: after one protocol, recompute only what it
touches).

A :class:`StandingsBook` holds an event's results per table. :meth:`StandingsBook.set_table`
replaces one table's results (a protocol approved, reopened or changed): only the players
seated there get a new record and new metric values; :meth:`StandingsBook.standings` then
re-sorts everyone on the stored values. It gives what :func:`~tournaments.standings.table.
compute_standings` gives for the same rows (``tests/tournaments/standings/test_book.py``
checks this on random events after every change).

Which players a change touches, and why no one else needs recomputing:

- every metric but head-to-head is a function of the player's own rounds (his results, the
  round scores and places at his tables, his event adjustments): only the players at the
  changed table get new values;
- the round score and the place at the table depend on that table's results only (every
  round score, place points included, is a function of one table);
- head-to-head is computed within the group still tied when the chain reaches it, so a change
  can move players into or out of a group: it is recomputed for every tied group at each
  ranking (cheap: tied groups are small, and only their members' results count);
- places, shared places and ``decided_by`` (the metric that separated a player from the one
  above) depend on the neighbours: the whole order is re-sorted at each ranking, on stored
  values compared as integers.

The JSON parts (:meth:`table_part`, :meth:`row_part`, :meth:`head_part`, :meth:`order_part`)
are what the snapshot stores as rows; :func:`assemble` joins them into the layout of
:meth:`~tournaments.standings.table.Standings.as_json`, which the pages read.
"""

from __future__ import annotations

import contextlib
import gc
import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .metrics import Metric, PlayerRecord
from .ranker import Ranked, placed
from .rows import SIT_OUT_RULE, Adjustment, RoundResult
from .table import WHIST_SCORES, StandingsConfig, _places, adjustments_json, num

__all__ = ["StandingsBook", "assemble", "no_cyclic_gc", "rank_values"]

ZERO = Fraction(0)


@contextlib.contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: a recompute allocates millions of small containers
    (no cycles among them), and the collector's passes over them (and over the standings this
    process keeps for the next run) cost a large share of the time: a full pass triggered by
    reading the 20,000 source rows took longer than the whole incremental run (memory is
    still freed by reference counting; the collector resumes afterwards)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _int_keys(values: Sequence[Fraction]) -> list[int]:
    """Exact integer images of ``values`` (over their common denominator): same order and
    equality, compared far faster than Fractions."""
    if not values:
        return []
    common = math.lcm(*{v.denominator for v in values})
    return [v.numerator * (common // v.denominator) for v in values]


def rank_values(
    records: Mapping[int, PlayerRecord],
    entries: Iterable[int],
    metrics: Sequence[Metric],
    stored: Mapping[int, Mapping[str, Fraction]],
) -> list[Ranked]:
    """:func:`~tournaments.standings.ranker.rank` on values already computed (``stored``: each
    entry's values of the metrics that are not group-dependent); the same result."""
    values = {e: dict(stored[e]) for e in entries}
    groups: list[list[int]] = [sorted(values)]
    for m in metrics:
        split: list[list[int]] = []
        for group in groups:
            if len(group) <= 1:
                split.append(group)
                continue
            if m.group_dependent:
                members = frozenset(group)
                for e in group:
                    values[e][m.key] = m.value(records[e], members)
            keys = _int_keys([values[e][m.key] for e in group])
            if not m.ascending:
                keys = [-k for k in keys]
            ordered = sorted(zip(keys, group, strict=True))
            current = [ordered[0][1]]
            parts = [current]
            last = ordered[0][0]
            for key, e in ordered[1:]:
                if key == last:
                    current.append(e)
                else:
                    current = [e]
                    parts.append(current)
                    last = key
            split.extend(parts)
        groups = split
    return placed(groups, values, metrics)


class _Table:
    """One table's results with their round scores and places (places of final rows only)."""

    __slots__ = ("results", "scores", "places", "no_result")

    def __init__(
        self,
        results: tuple[RoundResult, ...],
        config: StandingsConfig,
        no_result: tuple[tuple[int, int], ...],
    ) -> None:
        self.results = results
        self.no_result = no_result
        if results:
            raw = [r.score for r in results]
            self.scores = tuple(config.score(raw))
            self.places = tuple(
                p if r.final else None for r, p in zip(results, _places(raw), strict=True)
            )
        else:
            self.scores = ()
            self.places = ()


class StandingsBook:
    """An event's standings, updated table by table (see the module's text)."""

    def __init__(
        self,
        config: StandingsConfig | None = None,
        adjustments: Iterable[Adjustment] = (),
        entries: Iterable[int] = (),
    ) -> None:
        self.config = config or StandingsConfig()
        self.metrics = self.config.metrics
        self.adjustments = tuple(adjustments)
        self.entries = frozenset(entries)
        self.adjust_total = self.config.score.key in WHIST_SCORES
        self.extra: dict[int, Fraction] = defaultdict(Fraction)
        for a in self.adjustments:
            self.extra[a.entry] += Fraction(a.whists)
        self.sat_out: dict[int, Fraction] = defaultdict(Fraction)
        if not self.adjust_total and (worth := self.config.score.sit_out()) is not None:
            for a in self.adjustments:
                if a.rule == SIT_OUT_RULE:
                    self.sat_out[a.entry] += worth
        self.tables: dict[Hashable, _Table] = {}
        self.at: dict[int, set[Hashable]] = defaultdict(set)  # entry -> tables with his results
        self.missing_at: dict[int, set[Hashable]] = defaultdict(set)  # entry -> no-result tables
        self.claimed: dict[tuple[int, int], Hashable] = {}  # (entry, round) -> table
        self.round_rows: dict[int, int] = defaultdict(int)  # round -> results in it
        self.records: dict[int, PlayerRecord] = {}
        self.values: dict[int, dict[str, Fraction]] = {}
        self.missing: dict[int, list[int]] = {}  # entry -> rounds without a result
        self.provisional: dict[int, Fraction] = {}
        self.dirty: set[int] = set(self.entries) | set(self.extra)
        self.ranked: list[Ranked] = []
        self.ranked_stale = True
        self.changed: set[int] = set()
        self.last_grouped: dict[int, tuple[Fraction | None, ...]] = {}

    # --- changes -----------------------------------------------------------------------------

    def set_table(
        self,
        key: Hashable,
        results: Iterable[RoundResult],
        no_result: Iterable[tuple[int, int]] = (),
    ) -> set[int]:
        """Put (or replace) a table's results and the (entry, round) of its players without a
        result; returns the players whose record changes.

        :raises ValueError: when a player would have two results in one round (nothing is
            changed then).
        """
        results = tuple(results)
        for r in results:
            holder = self.claimed.get((r.entry, r.round))
            if holder is not None and holder != key:
                raise ValueError(f"entry {r.entry} has two results in round {r.round}")
        if len({(r.entry, r.round) for r in results}) != len(results):
            r = results[0]
            raise ValueError(f"entry {r.entry} has two results in round {r.round}")
        touched = self.remove_table(key)
        table = _Table(results, self.config, tuple(no_result))
        self.tables[key] = table
        for r in results:
            self.claimed[(r.entry, r.round)] = key
            self.at[r.entry].add(key)
            self.round_rows[r.round] += 1
            touched.add(r.entry)
        for e, _n in table.no_result:
            self.missing_at[e].add(key)
            touched.add(e)
        self.dirty |= touched
        self.ranked_stale = True
        return touched

    def remove_table(self, key: Hashable) -> set[int]:
        """Take a table's results out; returns the players whose record changes."""
        table = self.tables.pop(key, None)
        if table is None:
            return set()
        touched: set[int] = set()
        for r in table.results:
            self.claimed.pop((r.entry, r.round), None)
            self.at[r.entry].discard(key)
            self.round_rows[r.round] -= 1
            touched.add(r.entry)
        for e, _n in table.no_result:
            self.missing_at[e].discard(key)
            touched.add(e)
        self.dirty |= touched
        self.ranked_stale = True
        return touched

    # --- computing -----------------------------------------------------------------------------

    def _refresh(self, e: int) -> None:
        """Recompute one player's record and his values (or drop him: no result, entry,
        adjustment or missing round left)."""
        final: list[RoundResult] = []
        scores: dict[int, Fraction] = {}
        places: dict[int, int] = {}
        provisional = ZERO
        seen_rounds: set[int] = set()
        for key in self.at.get(e, ()):
            table = self.tables[key]
            for r, s, p in zip(table.results, table.scores, table.places, strict=True):
                if r.entry != e:
                    continue
                seen_rounds.add(r.round)
                if r.final:
                    final.append(r)
                    scores[r.round] = s
                    places[r.round] = p
                else:
                    provisional += s
        missing = sorted(
            {
                n
                for key in self.missing_at.get(e, ())
                for entry, n in self.tables[key].no_result
                if entry == e
            }
            - seen_rounds
        )
        counted = e in self.entries or e in self.extra or bool(seen_rounds)
        if not counted and not missing:
            self.records.pop(e, None)
            self.values.pop(e, None)
            self.missing.pop(e, None)
            self.provisional.pop(e, None)
            return
        if counted:
            record = PlayerRecord(
                entry=e,
                rounds=tuple(sorted(final, key=lambda r: r.round)),
                scores={r.round: scores[r.round] for r in final},
                places=places,
                adjustment=self.extra.get(e, ZERO),
                adjust_total=self.adjust_total,
                sat_out=self.sat_out.get(e, ZERO),
            )
        else:  # seated at a table without a result only (compute_standings: an empty record)
            record = PlayerRecord(entry=e, adjust_total=self.adjust_total)
        self.records[e] = record
        self.values[e] = {m.key: m.value(record) for m in self.metrics if not m.group_dependent}
        self.missing[e] = missing
        self.provisional[e] = provisional

    def standings(self) -> list[Ranked]:
        """The ranked players (recomputing the changed players' records first)."""
        if not self.ranked_stale and not self.dirty:
            return self.ranked
        refreshed = self.dirty
        for e in refreshed:
            self._refresh(e)
        self.dirty = set()
        with_result = [e for e, r in self.records.items() if r.rounds]
        without = [e for e, r in self.records.items() if not r.rounds]
        ranked = rank_values(self.records, with_result, self.metrics, self.values)
        unranked = rank_values(self.records, without, self.metrics, self.values)
        offset = len(with_result)
        ranked += [
            Ranked(r.entry, offset + 1, True, len(self.records), r.values, None)
            if len(unranked) > 1
            else Ranked(r.entry, offset + 1, False, offset + 1, r.values, None)
            for r in unranked
        ]
        # a player not refreshed kept his own values (the same objects): only a value computed
        # within his tied group (head-to-head) can differ, or be there or not
        group_keys = [m.key for m in self.metrics if m.group_dependent]
        grouped = (
            {r.entry: tuple(r.values.get(k) for k in group_keys) for r in ranked}
            if group_keys
            else {}
        )
        self.changed |= refreshed
        if group_keys:
            self.changed |= {e for e, v in grouped.items() if self.last_grouped.get(e) != v}
        self.last_grouped = grouped
        self.ranked = ranked
        self.ranked_stale = False
        return ranked

    def take_changed(self) -> set[int]:
        """The players whose :meth:`row_part` may differ since the last call (their record
        or one of their values changed, a group-dependent one included)."""
        self.standings()
        changed, self.changed = self.changed, set()
        return changed

    # --- the stored parts ------------------------------------------------------------------------

    def table_part(self, key: Hashable) -> dict[str, Any]:
        """A table's cells: ``{"round", "table", "table_number", "size", "final", "seats":
        [{"entry", "seat", "whists", "score", "place", "versus"}]}`` (a table without results:
        ``{"seats": []}``; the caller adds what else it stores with it)."""
        table = self.tables[key]
        if not table.results:
            return {"seats": []}
        first = table.results[0]
        return {
            "round": first.round,
            "table": first.table,
            "table_number": first.table_number,
            "size": first.table_size,
            "final": first.final,
            "seats": [
                {
                    "entry": r.entry,
                    "seat": r.seat,
                    "whists": num(r.score),
                    "score": num(s),
                    "place": p,
                    "versus": {str(k): num(v) for k, v in r.versus.items()},
                }
                for r, s, p in zip(table.results, table.scores, table.places, strict=True)
            ],
        }

    def row_part(self, ranked: Ranked) -> dict[str, Any]:
        """A player's values (not his place: that is in :meth:`order_part`)."""
        e = ranked.entry
        record = self.records[e]
        total = ranked.values["total"]
        return {
            "entry": e,
            "rounds_played": len(record.rounds),
            "no_result": not record.rounds,
            "no_result_rounds": self.missing.get(e, []),
            "total": num(total),
            "provisional_total": num(total + self.provisional.get(e, ZERO)),
            "has_provisional": any(
                not r.final
                for key in self.at.get(e, ())
                for r in self.tables[key].results
                if r.entry == e
            ),
            "adjustment": num(record.adjustment),
            "sat_out": num(record.sat_out),
            "metrics": {k: num(v) for k, v in ranked.values.items()},
        }

    def order_part(self) -> list[list[Any]]:
        """The order: ``[entry, place, place label, shared, decided_by]`` per player."""
        return [
            [
                r.entry,
                r.place,
                "—" if not self.records[r.entry].rounds else r.place_label,
                r.shared,
                r.decided_by,
            ]
            for r in self.standings()
        ]

    def head_part(self) -> dict[str, Any]:
        """The columns, the round score, the rounds shown and the adjustments."""
        self.standings()
        rounds = {n for n, count in self.round_rows.items() if count}
        rounds |= {n for ns in self.missing.values() for n in ns}
        score = self.config.score
        return {
            "version": 2,
            "round_score": {
                "key": score.key,
                "name": score.name,
                "params": {k: str(v) if isinstance(v, Fraction) else v for k, v in score.params},
            },
            "columns": [
                {"key": m.key, "name": m.name, "abbr": m.abbr, "ascending": m.ascending}
                for m in self.metrics
            ],
            "rounds": sorted(rounds),
            "adjustments": adjustments_json(self.adjustments),
        }


def assemble(
    head: Mapping[str, Any],
    order: Sequence[Sequence[Any]],
    rows: Mapping[int, Mapping[str, Any]],
    tables: Iterable[Mapping[str, Any]],
) -> dict[str, Any]:
    """The standings in the layout of :meth:`Standings.as_json` from the stored parts: the
    head, the order, each player's row part and each table's part (:meth:`table_part`)."""
    cells: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    for table in tables:
        if not table.get("seats"):
            continue
        n, final, t = table["round"], table["final"], table["table"]
        number, size = table["table_number"], table["size"]
        for seat in table["seats"]:
            cells[seat["entry"]][n] = {
                "score": seat["score"],
                "whists": seat["whists"],
                "table": t,
                "table_number": number,
                "seat": seat["seat"],
                "size": size,
                "final": final,
                "place": seat["place"] if final else None,
                "versus": seat["versus"],
            }
    out_rows = []
    for entry, place, label, shared, decided_by in order:
        row = rows[entry]
        mine = cells.get(entry, {})
        out_rows.append(
            {
                "entry": entry,
                "place": place,
                "place_label": label,
                "shared": shared,
                "decided_by": decided_by,
                "rounds_played": row["rounds_played"],
                "no_result": row["no_result"],
                "no_result_rounds": row["no_result_rounds"],
                "rounds": {str(n): mine[n] for n in sorted(mine)},
                "total": row["total"],
                "provisional_total": row["provisional_total"],
                "has_provisional": row["has_provisional"],
                "adjustment": row["adjustment"],
                "sat_out": row["sat_out"],
                "metrics": row["metrics"],
            }
        )
    return {
        "version": head.get("version", 2),
        "round_score": head.get("round_score", {}),
        "columns": head.get("columns", []),
        "rounds": head.get("rounds", []),
        "rows": out_rows,
        "adjustments": head.get("adjustments", []),
    }
