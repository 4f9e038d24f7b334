"""Plain input rows for the standings: one :class:`RoundResult` per player per round.

The round score is the variant's final result per player (001 §4.1.3: "окончательный счёт в
сыгранной пульке определяется в вистах"), whatever the variant computes it from: whists in the
Russian Kodeks, pots or a bula elsewhere (seeds 000, 002, 003), a partnership's share (004).
Deal statistics used by tie-breaks travel as named counters in ``stats``; a variant that has no
raspasy simply has none of those counters (they count as 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["RoundResult", "Adjustment", "EMPTY_STATS", "SIT_OUT_RULE"]

#: the rule of the award a player is credited for a round he sat out (tables of four)
SIT_OUT_RULE = "sit-out"

EMPTY_STATS: Mapping[str, int] = {}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One player's result in one round, at one table.

    ``entry`` and ``table`` are opaque ids; ``seat`` is 0-based; ``score`` the final result in
    whists after the table's penalties and rulings; ``final`` is True for an approved protocol
    and False for a provisional one (shown, never counted); ``opponents`` the other entries at
    the table; ``versus`` this player's result against each opponent (the pairwise settlement,
    001 §4.2.14 variant 1), used by the head-to-head tie-break; ``stats`` named deal counters
    (see :mod:`scoring.russian.stats`).
    """

    entry: int
    round: int
    table: int
    score: Fraction
    final: bool = True
    seat: int = 0
    table_number: int = 0
    table_size: int = 3
    opponents: tuple[int, ...] = ()
    versus: Mapping[int, Fraction] = field(default_factory=dict)
    stats: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """An event-level penalty or award in whists (negative = deducted), with its rule."""

    entry: int
    whists: Fraction
    round: int | None = None
    rule: str = ""
    reason: str = ""
