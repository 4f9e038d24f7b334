"""Pure standings: metrics, rankers and round scores over plain rows (no Django, no ORM).

Tabbycat keeps its standings metrics as pure classes bridged to the ORM in one place; so do we:
:mod:`tournaments.selectors.standings` turns stored protocols into
:class:`~tournaments.standings.rows.RoundResult` rows (each table's settlement, pairwise results
and deal counters from the protocol's rule family, ``scoring.variants``), and
:func:`compute_standings` ranks them. Nothing here knows a rule family: the counters a family
has decide which tie-breaks it is offered (:func:`tiebreak_keys_for`).

Here: the metrics (:mod:`.metrics`), the ranker (:mod:`.ranker`), the result rows
(:mod:`.rows`), the round scores (:mod:`.scores`), the table (:mod:`.table`), the standings
book (:mod:`.book`) and the team standings over the individual ones (:mod:`.teams`). May import only the standard library and its own modules: never Django,
the ORM or another part of ``tournaments``.
"""

from .metrics import (
    ALL_TIEBREAK_KEYS,
    METRICS,
    TIEBREAK_KEYS,
    Metric,
    PlayerRecord,
    find_metric,
    tiebreak_keys_for,
)
from .ranker import Ranked, rank
from .rows import Adjustment, RoundResult
from .scores import ROUND_SCORES, round_score
from .table import Standings, StandingsConfig, compute_standings, config_from_json, num

__all__ = [
    "ALL_TIEBREAK_KEYS",
    "Adjustment",
    "METRICS",
    "Metric",
    "PlayerRecord",
    "ROUND_SCORES",
    "Ranked",
    "RoundResult",
    "Standings",
    "StandingsConfig",
    "TIEBREAK_KEYS",
    "compute_standings",
    "config_from_json",
    "find_metric",
    "num",
    "rank",
    "round_score",
    "tiebreak_keys_for",
]
