"""Standings metrics (Tabbycat ``standings/metrics.py``): small pure classes over plain rows.

Each metric has a ``key`` (stored in ``Event.tiebreaks``), a ``name`` and an ``abbr`` for
column headers, and ``ascending`` (True when fewer is better, e.g. remizes). ``value`` takes a
:class:`PlayerRecord` (the player's *final* rounds only: provisional protocols never count) and,
for a metric that compares a player with the others tied with him (head-to-head), the tied
group.

The tournament criterion is the sum of the table results (Russian: whists, 001 §4.1.3:
"критерием победы является наибольшая сумма набранных вистов"; Balkan: the settlement's points,
002 "Final Calculation"); the other criteria the Kodeks names there are raspasy won, the fewest
tricks on raspasy, the fewest remizes and the fewest tricks on misères.

Which tie-breaks an event is offered depends on its rule family, and is decided by data, not by
the family's name: a metric over a deal counter (:class:`StatMetric`) makes sense only for a
family whose variant counts it (``Variant.stat_keys``); every other metric (results, rounds,
places, head-to-head) makes sense for all (:func:`tiebreak_keys_for`). So Russian events are
offered raspasy, remizes and misère tricks; Balkan events contracts lost and defences failed
(seed 002: a declarer who fails, a defender who does not reach his two tricks); Priffe events
sits and games won, contracts made and failed, slams (seed 004); all penalty entries.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .errors import StandingsConfigError, gettext_noop
from .rows import RoundResult

__all__ = [
    "PlayerRecord",
    "Metric",
    "METRICS",
    "TIEBREAK_KEYS",
    "ALL_TIEBREAK_KEYS",
    "find_metric",
    "tiebreak_keys_for",
]


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's final rounds and the round scores the event counts.

    ``scores[round]`` is the round score (after the chosen round-score option), ``places``
    the shared-aware place at the table (1 = top), ``adjustment`` the event-level penalties
    and awards in whists, ``adjust_total`` whether those apply to the total too; ``sat_out``
    what the rounds he sat out add to the total where that is not their stated score (place
    points: :meth:`~tournaments.standings.scores.RoundScore.sit_out`).
    """

    entry: int
    rounds: tuple[RoundResult, ...] = ()
    scores: Mapping[int, Fraction] = field(default_factory=dict)
    places: Mapping[int, int] = field(default_factory=dict)
    adjustment: Fraction = Fraction(0)
    adjust_total: bool = True
    sat_out: Fraction = Fraction(0)

    def stat(self, key: str) -> int:
        return sum(r.stats.get(key, 0) for r in self.rounds)


def exact_sum(values: Iterable[Fraction | int]) -> Fraction:
    """The exact sum of fractions, added as integers over their common denominator (a
    standings computation adds 15,000 of them; adding Fractions one by one normalises each
    partial sum).

    >>> exact_sum([Fraction(1, 2), Fraction(-80, 3), 4])
    Fraction(-133, 6)
    """
    values = [v if isinstance(v, Fraction) else Fraction(v) for v in values]
    if not values:
        return Fraction(0)
    common = math.lcm(*{v.denominator for v in values})
    return Fraction(sum(v.numerator * (common // v.denominator) for v in values), common)


class Metric:
    """Base class: override :meth:`value`."""

    key = ""
    name = ""
    abbr = ""
    ascending = False
    #: the deal counter it reads (``Variant.stat_keys``), or "" for a metric every family has
    stat = ""
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
        return exact_sum((*record.scores.values(), extra, record.sat_out))


class Whists(Metric):
    """001 §4.1.3: the sum of whists over the approved protocols (with event penalties)."""

    key, name, abbr = "whists", "Whists", "W"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        return exact_sum((*(r.score for r in record.rounds), record.adjustment))


class RoundsPlayed(Metric):
    key, name, abbr = "rounds_played", "Rounds played", "R"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        return Fraction(len(record.rounds))


class Average(Metric):
    key, name, abbr = "average", "Average per round", "Avg"

    def value(self, record: PlayerRecord, group: frozenset[int] = frozenset()) -> Fraction:
        if not record.scores:
            return Fraction(0)
        return exact_sum(record.scores.values()) / len(record.scores)


class StatMetric(Metric):
    """A deal counter summed over the final rounds (``Variant.deal_stats``)."""

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


class GamesLost(StatMetric):
    """Balkan: contracts the declarer failed (seed 002 "Scoring": the value goes up his column)."""

    key, name, abbr, stat, ascending = "games_lost", "Contracts lost", "GL", "games_lost", True


class DefencesFailed(StatMetric):
    """Balkan: defences in which the player did not reach his quota (seed 002, note (j))."""

    key, name, abbr, stat, ascending = (
        "defences_failed",
        "Defences failed",
        "DF",
        "defences_failed",
        True,
    )


class SitsWon(StatMetric):
    """Priffe: sits (rubbers) the player's partnerships won (seed 004 "Utgång")."""

    key, name, abbr, stat = "sits_won", "Sits won", "SW", "sits_won"


class GamesWon(StatMetric):
    """Priffe: games (utgång) the player's partnerships won (seed 004 "Utgång")."""

    key, name, abbr, stat = "games_won", "Games won", "GW", "games_won"


class ContractsMade(StatMetric):
    """Priffe: contracts the player bid and his side made (seed 004)."""

    key, name, abbr, stat = "contracts_made", "Contracts made", "CM", "contracts_made"


class ContractsFailed(StatMetric):
    """Priffe: contracts the player bid and his side failed (strafftrick for the others)."""

    key, name, abbr, stat, ascending = (
        "contracts_failed",
        "Contracts failed",
        "CF",
        "contracts_failed",
        True,
    )


class Slams(StatMetric):
    """Priffe: lillslam and storslam the player's side made (seed 004)."""

    key, name, abbr, stat = "slams", "Slams made", "Sl", "slams"


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
        GamesLost(),
        DefencesFailed(),
        SitsWon(),
        GamesWon(),
        ContractsMade(),
        ContractsFailed(),
        Slams(),
        Penalties(),
        BestRound(),
        WorstRound(),
        TableWins(),
        HeadToHead(),
    )
}

#: the metrics an organiser of a Russian event can put in the tie-break chain, in the order the
#: form offers them (``tiebreak_keys_for`` the Russian counters)
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


#: every tie-break of every family, in the order the form offers them
ALL_TIEBREAK_KEYS = (
    *TIEBREAK_KEYS[:9],
    "games_lost",
    "defences_failed",
    "sits_won",
    "games_won",
    "contracts_made",
    "contracts_failed",
    "slams",
    *TIEBREAK_KEYS[9:],
)


def tiebreak_keys_for(stat_keys: Iterable[str]) -> tuple[str, ...]:
    """The tie-breaks that make sense for a family counting ``stat_keys`` (its variant's)."""
    counted = set(stat_keys)
    return tuple(k for k in ALL_TIEBREAK_KEYS if not METRICS[k].stat or METRICS[k].stat in counted)


def find_metric(key: str) -> Metric:
    """:raises ValueError: for an unknown key."""
    try:
        return METRICS[key]
    except KeyError:
        raise StandingsConfigError(
            f"tie-break {key!r}: choose from {', '.join(TIEBREAK_KEYS)}",
            gettext_noop("“%(key)s” is not a tie-break; choose from: %(choices)s."),
            {"key": key, "choices": list(TIEBREAK_KEYS)},
            ("choices",),
        ) from None


def keys_of(metrics: Iterable[Metric]) -> tuple[str, ...]:
    return tuple(m.key for m in metrics)
