"""Standings metrics (Tabbycat ``standings/metrics.py``): small pure classes over plain rows.

Each metric has a ``key`` (stored in ``Event.tiebreaks``), a ``name`` and an ``abbr`` for
column headers, and ``ascending`` (True when fewer is better, e.g. remizes). ``value`` takes a
:class:`PlayerRecord` (the player's *final* rounds only: provisional protocols never count) and,
for a metric that compares a player with the others tied with him (head-to-head), the tied
group.

The tournament criterion is the sum of whists (001 §4.1.3: "критерием победы является
наибольшая сумма набранных вистов"); the other criteria the Kodeks names there are raspasy won,
the fewest tricks on raspasy, the fewest remizes and the fewest tricks on misères.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .rows import RoundResult

__all__ = ["PlayerRecord", "Metric", "METRICS", "TIEBREAK_KEYS", "find_metric"]


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's final rounds and the round scores the event counts.

    ``scores[round]`` is the round score (after the chosen round-score option), ``places``
    the shared-aware place at the table (1 = top), ``adjustment`` the event-level penalties
    and awards in whists, ``adjust_total`` whether those apply to the total too.
    """

    entry: int
    rounds: tuple[RoundResult, ...] = ()
    scores: Mapping[int, Fraction] = field(default_factory=dict)
    places: Mapping[int, int] = field(default_factory=dict)
    adjustment: Fraction = Fraction(0)
    adjust_total: bool = True

    def stat(self, key: str) -> int:
        return sum(r.stats.get(key, 0) for r in self.rounds)


class Metric:
    """Base class: override :meth:`value`."""

    key = ""
    name = ""
    abbr = ""
    ascending = False
    #: compares a player with the players tied with him (computed within the tied group)
    group_dependent = False

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        raise NotImplementedError

    def sort_key(self, value: Fraction) -> Fraction:
        """Smaller sorts first (better)."""
        return value if self.ascending else -value


class Total(Metric):
    key, name, abbr = "total", "Total", "Total"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        extra = record.adjustment if record.adjust_total else Fraction(0)
        return sum(record.scores.values(), Fraction(0)) + extra


class Whists(Metric):
    """001 §4.1.3: the sum of whists over the approved protocols (with event penalties)."""

    key, name, abbr = "whists", "Whists", "W"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        return sum((r.score for r in record.rounds), Fraction(0)) + record.adjustment


class RoundsPlayed(Metric):
    key, name, abbr = "rounds_played", "Rounds played", "R"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        return Fraction(len(record.rounds))


class Average(Metric):
    key, name, abbr = "average", "Average per round", "Avg"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        if not record.scores:
            return Fraction(0)
        return sum(record.scores.values(), Fraction(0)) / len(record.scores)


class StatMetric(Metric):
    """A deal counter summed over the final rounds (see :mod:`scoring.stats`)."""

    stat = ""

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        return Fraction(record.stat(self.stat))


class RaspasyWon(StatMetric):
    key, name, abbr, stat = "raspasy_won", "Raspasy won", "RW", "raspasy_won"


class RaspasyTricks(StatMetric):
    key, name, abbr, stat, ascending = (
        "raspasy_tricks",
        "Tricks on raspasy",
        "RT",
        "raspasy_tricks",
        True,
    )


class Remizes(StatMetric):
    key, name, abbr, stat, ascending = "remizes", "Remizes", "Rem", "remizes", True


class MisereTricks(StatMetric):
    key, name, abbr, stat, ascending = (
        "misere_tricks",
        "Tricks on misères",
        "MT",
        "misere_tricks",
        True,
    )


class GamesMade(StatMetric):
    key, name, abbr, stat = "games_made", "Contracts made", "GM", "games_made"


class Penalties(StatMetric):
    key, name, abbr, stat, ascending = "penalties", "Penalty entries", "Pen", "penalties", True


class BestRound(Metric):
    key, name, abbr = "best_round", "Best single round", "Best"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        return max(record.scores.values(), default=Fraction(0))


class WorstRound(Metric):
    """The higher a player's worst round, the steadier his play."""

    key, name, abbr = "worst_round", "Worst single round", "Worst"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        return min(record.scores.values(), default=Fraction(0))


class TableWins(Metric):
    key, name, abbr = "table_wins", "Rounds won at the table", "TW"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        return Fraction(sum(1 for place in record.places.values() if place == 1))


class HeadToHead(Metric):
    """Results against the tied players: the pairwise whists won from them where they met."""

    key, name, abbr = "head_to_head", "Results against the tied players", "H2H"
    group_dependent = True

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        total = Fraction(0)
        for r in record.rounds:
            for opponent, result in r.versus.items():
                if opponent in group and opponent != record.entry:
                    total += result
        return total


METRICS: Mapping[str, Metric] = {
    m.key: m
    for m in (
        Total(),
        Whists(),
        RoundsPlayed(),
        Average(),
        RaspasyWon(),
        RaspasyTricks(),
        Remizes(),
        MisereTricks(),
        GamesMade(),
        Penalties(),
        BestRound(),
        WorstRound(),
        TableWins(),
        HeadToHead(),
    )
}

#: the metrics an organiser can put in the tie-break chain, in the order the form offers them
TIEBREAK_KEYS = (
    "raspasy_won",
    "raspasy_tricks",
    "remizes",
    "misere_tricks",
    "head_to_head",
    "best_round",
    "worst_round",
    "table_wins",
    "games_made",
    "penalties",
    "whists",
    "average",
    "rounds_played",
)


def find_metric(key: str) -> Metric:
    """:raises ValueError: for an unknown key."""
    try:
        return METRICS[key]
    except KeyError:
        raise ValueError(f"tie-break {key!r}: choose from {', '.join(TIEBREAK_KEYS)}") from None


def keys_of(metrics: Iterable[Metric]) -> tuple[str, ...]:
    return tuple(m.key for m in metrics)
