"""Pure standings: metrics, rankers and round scores over plain rows (no Django, no ORM).

Tabbycat keeps its standings metrics as pure classes bridged to the ORM in one place; so do we:
:mod:`tournaments.selectors.standings` turns stored protocols into
:class:`~tournaments.standings.rows.RoundResult` rows, :func:`compute_standings` ranks them.
"""

from scoring.stats import STAT_KEYS, deal_stats, pairwise_results

from .metrics import METRICS, TIEBREAK_KEYS, Metric, PlayerRecord, find_metric
from .ranker import Ranked, rank
from .rows import Adjustment, RoundResult
from .scores import ROUND_SCORES, round_score
from .table import Standings, StandingsConfig, compute_standings, config_from_json, num

__all__ = [
    "Adjustment",
    "METRICS",
    "Metric",
    "PlayerRecord",
    "ROUND_SCORES",
    "Ranked",
    "RoundResult",
    "STAT_KEYS",
    "Standings",
    "StandingsConfig",
    "TIEBREAK_KEYS",
    "compute_standings",
    "config_from_json",
    "deal_stats",
    "find_metric",
    "num",
    "pairwise_results",
    "rank",
    "round_score",
]
