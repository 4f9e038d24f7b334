"""Ranking by a chain of metrics (Tabbycat ``standings/base.py`` rankers, without a database).

Players are ordered by the first metric; players equal on it are ordered by the next, and so on.
A group-dependent metric (head-to-head) is computed within the group still tied when the chain
reaches it, so "results against the tied players" means the players tied at that point. Players
equal on the whole chain share a place ("3–4"); the next place follows ("5").

>>> from fractions import Fraction as F
>>> from tournaments.standings.metrics import PlayerRecord, find_metric
>>> recs = [PlayerRecord(1, scores={1: F(10)}), PlayerRecord(2, scores={1: F(30)}),
...         PlayerRecord(3, scores={1: F(10)})]
>>> [(r.entry, r.place, r.shared) for r in rank(recs, [find_metric("total")])]
[(2, 1, False), (1, 2, True), (3, 2, True)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .metrics import Metric, PlayerRecord

__all__ = ["Ranked", "placed", "rank"]


@dataclass(frozen=True, slots=True)
class Ranked:
    """A ranked player: place (1-based; shared places repeat), the values of each metric
    (a group-dependent metric only where it was computed) and ``decided_by``: the key of the
    metric that separated him from the player above, or None."""

    entry: int
    place: int
    shared: bool
    last_place: int
    values: dict[str, Fraction] = field(default_factory=dict)
    decided_by: str | None = None

    @property
    def place_label(self) -> str:
        return f"{self.place}–{self.last_place}" if self.shared else str(self.place)


def rank(records: Sequence[PlayerRecord], metrics: Sequence[Metric]) -> list[Ranked]:
    """Rank ``records`` by ``metrics`` (the first is the main criterion)."""
    values: dict[int, dict[str, Fraction]] = {r.entry: {} for r in records}
    for m in metrics:
        if not m.group_dependent:
            for r in records:
                values[r.entry][m.key] = m.value(r)
    by_entry = {r.entry: r for r in records}
    # groups of tied players, in order; each split by the next metric
    groups: list[list[int]] = [sorted(by_entry)]
    for m in metrics:
        split: list[list[int]] = []
        for group in groups:
            if len(group) <= 1:  # one player, or an event with no one entered yet
                split.append(group)
                continue
            if m.group_dependent:
                members = frozenset(group)
                for e in group:
                    values[e][m.key] = m.value(by_entry[e], members)
            ordered = sorted(group, key=lambda e: (m.sort_key(values[e][m.key]), e))
            current: list[int] = [ordered[0]]
            parts = [current]
            for e in ordered[1:]:
                if values[e][m.key] == values[current[0]][m.key]:
                    current.append(e)
                else:
                    current = [e]
                    parts.append(current)
            split.extend(parts)
        groups = split
    return placed(groups, values, metrics)


def placed(
    groups: Sequence[Sequence[int]],
    values: dict[int, dict[str, Fraction]],
    metrics: Sequence[Metric],
) -> list[Ranked]:
    """The ranking of ``groups`` (tied players together, best group first): shared places for
    a tie, and for each player the first criterion that sets him apart from the one above."""
    order = [e for group in groups for e in group]
    decided: dict[int, str | None] = {}
    for above, e in zip(order, order[1:], strict=False):
        mine, theirs = values[e], values[above]
        decided[e] = next(
            (
                m.key
                for m in metrics
                if m.key in mine and m.key in theirs and mine[m.key] != theirs[m.key]
            ),
            None,
        )
    ranked: list[Ranked] = []
    place = 1
    for group in groups:
        last = place + len(group) - 1
        for e in group:
            ranked.append(Ranked(e, place, len(group) > 1, last, values[e], decided.get(e)))
        place = last + 1
    return ranked
