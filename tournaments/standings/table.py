"""The standings table: plain result rows in, ranked rows out (JSON-ready).

:func:`compute_standings` takes every :class:`~tournaments.standings.rows.RoundResult` of an
event (approved ones ``final``, current unapproved ones provisional) and the organiser's
:class:`StandingsConfig`, and returns :class:`Standings`. Only final rows are counted and
ranked (001 §4.1.3); provisional rows are shown beside them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .errors import StandingsConfigError, gettext_noop
from .metrics import METRICS, Metric, PlayerRecord, find_metric
from .ranker import Ranked, rank
from .rows import SIT_OUT_RULE, Adjustment, RoundResult
from .scores import RoundScore, round_score

__all__ = ["StandingsConfig", "Standings", "compute_standings", "config_from_json", "num"]

WHIST_SCORES = ("whists", "capped", "scaled", "normalised")


def num(x: Fraction | int) -> int | float:
    """A JSON number: an int when whole, else rounded to 2 decimals (halves at tables of four).

    >>> num(Fraction(-80, 3)), num(Fraction(12)), num(7)
    (-26.67, 12, 7)
    """
    if isinstance(x, int):
        return x
    numerator, denominator = x.numerator, x.denominator
    if denominator == 1:
        return int(numerator)
    return round(numerator / denominator, 2)


@dataclass(frozen=True, slots=True)
class StandingsConfig:
    """The organiser's choices: the round score and the tie-break chain (after the total)."""

    score: RoundScore = field(default_factory=round_score)
    tiebreaks: tuple[str, ...] = ()

    @property
    def metrics(self) -> tuple[Metric, ...]:
        return (METRICS["total"], *(find_metric(k) for k in self.tiebreaks))


def config_from_json(
    items: Iterable[Any],
    allowed: Iterable[str] | None = None,
    scores: Iterable[str] | None = None,
) -> StandingsConfig:
    """Read ``Event.tiebreaks``: a list of metric keys, and optionally one object
    ``{"round_score": key, **params}`` choosing the round score.

    >>> c = config_from_json(["raspasy_won", {"round_score": "capped", "cap": 100}, "remizes"])
    >>> c.tiebreaks, c.score.key, dict(c.score.params)
    (('raspasy_won', 'remizes'), 'capped', {'cap': 100})

    ``allowed``: the tie-breaks that make sense for the event's rule family
    (:func:`~tournaments.standings.metrics.tiebreak_keys_for`); ``None`` allows every metric.
    ``scores``: likewise the round scores
    (:func:`~tournaments.standings.scores.round_score_keys_for`); ``None`` allows every one.

    :raises ValueError: naming the bad key.
    """
    offered = None if allowed is None else tuple(allowed)
    keys: list[str] = []
    score = round_score()
    for item in items or ():
        if isinstance(item, str):
            find_metric(item)
            if item == "total":
                raise StandingsConfigError(
                    "tie-break 'total' is the main criterion already",
                    gettext_noop("The total is the main criterion already, not a tie-break."),
                )
            if item in keys:
                raise StandingsConfigError(
                    f"tie-break {item!r} is in the chain twice",
                    gettext_noop("The tie-break “%(tiebreak)s” is in the chain twice."),
                    {"tiebreak": item},
                    ("tiebreak",),
                )
            _offered(item, offered)
            keys.append(item)
        elif isinstance(item, Mapping) and "round_score" in item:
            params = {k: v for k, v in item.items() if k != "round_score"}
            score = round_score(str(item["round_score"]), **params)
            if scores is not None and score.key not in (offered_scores := tuple(scores)):
                raise StandingsConfigError(
                    f"round score {score.key!r} does not apply to this event's tables; choose "
                    "from " + ", ".join(offered_scores),
                    gettext_noop(
                        "The round score “%(score)s” does not apply to this event's tables; "
                        "choose from: %(choices)s."
                    ),
                    {"score": score.key, "choices": list(offered_scores)},
                    scores=("score", "choices"),
                )
        elif isinstance(item, Mapping) and "metric" in item:
            find_metric(str(item["metric"]))
            _offered(str(item["metric"]), offered)
            keys.append(str(item["metric"]))
        else:
            raise StandingsConfigError(
                f"tie-break entry {item!r}: a metric key or a round_score object",
                gettext_noop(
                    "A link of the tie-break chain is neither a tie-break nor a round score."
                ),
            )
    return StandingsConfig(score, tuple(keys))


def _offered(key: str, offered: tuple[str, ...] | None) -> None:
    if offered is not None and key not in offered:
        raise StandingsConfigError(
            f"tie-break {key!r} does not apply to this rule family; choose from "
            + ", ".join(offered),
            gettext_noop(
                "The tie-break “%(tiebreak)s” does not apply to this game; choose from: "
                "%(choices)s."
            ),
            {"tiebreak": key, "choices": list(offered)},
            ("tiebreak", "choices"),
        )


@dataclass(frozen=True, slots=True)
class Standings:
    """The computed standings: ranked players and the tables they came from."""

    config: StandingsConfig
    ranked: tuple[Ranked, ...]
    records: Mapping[int, PlayerRecord]
    results: tuple[RoundResult, ...]
    round_scores: Mapping[tuple[int, int], Fraction]
    adjustments: tuple[Adjustment, ...] = ()
    #: (entry, round) of each player seated at a table left without a result (no protocol
    #: when its round closed): the pages say "no result" there, not a score
    no_result: frozenset[tuple[int, int]] = frozenset()

    def as_json(self) -> dict[str, Any]:
        """The snapshot's ``data``: the columns and one row per ranked player, with a cell per
        round (table, seat, result, place at the table, results against each opponent); the
        tables of a round are these cells grouped (:mod:`tournaments.selectors.standings`)."""
        metrics = self.config.metrics
        rounds = sorted({r.round for r in self.results} | {n for _e, n in self.no_result})
        missing: dict[int, list[int]] = defaultdict(list)
        for e, n in sorted(self.no_result):
            missing[e].append(n)
        by_entry: dict[int, list[RoundResult]] = defaultdict(list)
        for r in self.results:
            by_entry[r.entry].append(r)
        rows = []
        label = {e: str(e) for e in self.records}  # the versus keys, one str() per player
        for ranked in self.ranked:
            record = self.records[ranked.entry]
            cells = {}
            provisional_total = Fraction(0)
            for r in sorted(by_entry[ranked.entry], key=lambda r: r.round):
                s = self.round_scores[(r.entry, r.round)]
                if not r.final:
                    provisional_total += s
                cells[str(r.round)] = {
                    "score": num(s),
                    "whists": num(r.score),
                    "table": r.table,
                    "table_number": r.table_number,
                    "seat": r.seat,
                    "size": r.table_size,
                    "final": r.final,
                    "place": record.places.get(r.round) if r.final else None,
                    "versus": {label.get(k) or str(k): num(v) for k, v in r.versus.items()},
                }
            total = ranked.values["total"]
            rows.append(
                {
                    "entry": ranked.entry,
                    "place": ranked.place,
                    "place_label": "—" if not record.rounds else ranked.place_label,
                    "shared": ranked.shared,
                    "decided_by": ranked.decided_by,
                    "rounds_played": len(record.rounds),
                    "no_result": not record.rounds,
                    "no_result_rounds": missing.get(ranked.entry, []),
                    "rounds": cells,
                    "total": num(total),
                    "provisional_total": num(total + provisional_total),
                    "has_provisional": any(not r.final for r in by_entry[ranked.entry]),
                    "adjustment": num(record.adjustment),
                    "sat_out": num(record.sat_out),
                    "metrics": {k: num(v) for k, v in ranked.values.items()},
                }
            )
        return {
            "version": 2,
            "round_score": {
                "key": self.config.score.key,
                "name": self.config.score.name,
                "params": {
                    k: str(v) if isinstance(v, Fraction) else v for k, v in self.config.score.params
                },
            },
            "columns": [
                {"key": m.key, "name": m.name, "abbr": m.abbr, "ascending": m.ascending}
                for m in metrics
            ],
            "rounds": rounds,
            "rows": rows,
            "adjustments": adjustments_json(self.adjustments),
        }


def adjustments_json(adjustments: Sequence[Adjustment]) -> list[dict[str, Any]]:
    """The stored form of the standings' adjustments (penalties in whists, sat-out rounds)."""
    return [
        {
            "entry": a.entry,
            "whists": num(a.whists),
            "round": a.round,
            "rule": a.rule,
            "reason": a.reason,
        }
        for a in adjustments
    ]


def _places(scores: Sequence[Fraction]) -> list[int]:
    """Competition places at a table: 1 + number of players strictly above.

    The scores are compared exactly as integers over their common denominator (cheaper than
    comparing and hashing Fractions, 4,000 tables a recompute).

    >>> _places([Fraction(10), Fraction(-5, 2), Fraction(10), Fraction(-35, 2)])
    [1, 3, 1, 4]
    """
    common = math.lcm(*(s.denominator for s in scores)) if scores else 1
    keys = [s.numerator * (common // s.denominator) for s in scores]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def compute_standings(
    results: Iterable[RoundResult],
    config: StandingsConfig | None = None,
    adjustments: Iterable[Adjustment] = (),
    entries: Iterable[int] = (),
    no_result: Iterable[tuple[int, int]] = (),
) -> Standings:
    """Rank the players; ``entries`` lists players to include even without a result yet;
    ``no_result`` the (entry, round) of players whose table has no result in a closed round.

    How a player without a result ranks:

    - a round whose table has no result counts nothing (it is neither 0 nor a score: the
      pages say "no result" in its cell); the player is ranked by the rounds that have one;
    - a player with no counted round at all (no approved protocol yet, or only tables without
      a result) has no place: such players come after every ranked player, sharing the places
      after them, with "—" as their place label — never above a player with a negative total.

    >>> from fractions import Fraction as F
    >>> rows = [RoundResult(1, 1, 10, F(-30)), RoundResult(2, 1, 10, F(30))]
    >>> s = compute_standings(rows, entries=[1, 2, 3], no_result=[(3, 1)])
    >>> [(r.entry, r.place) for r in s.ranked]
    [(2, 1), (1, 2), (3, 3)]
    >>> [(r["entry"], r["place_label"], r["no_result_rounds"]) for r in s.as_json()["rows"]]
    [(2, '1', []), (1, '2', []), (3, '—', [1])]

    :raises ValueError: when a player has two results in one round.
    """
    config = config or StandingsConfig()
    results = tuple(results)
    adjustments = tuple(adjustments)
    tables: dict[tuple[int, int], list[RoundResult]] = defaultdict(list)
    seen: set[tuple[int, int]] = set()
    for r in results:
        if (r.entry, r.round) in seen:
            raise ValueError(f"entry {r.entry} has two results in round {r.round}")
        seen.add((r.entry, r.round))
        tables[(r.round, r.table)].append(r)
    round_scores: dict[tuple[int, int], Fraction] = {}
    places: dict[int, dict[int, int]] = defaultdict(dict)
    for rows in tables.values():
        scores = config.score([r.score for r in rows])
        for r, s, p in zip(rows, scores, _places([r.score for r in rows]), strict=True):
            round_scores[(r.entry, r.round)] = s
            if r.final:
                places[r.entry][r.round] = p
    final: dict[int, list[RoundResult]] = defaultdict(list)
    for r in results:
        if r.final:
            final[r.entry].append(r)
    extra: dict[int, Fraction] = defaultdict(Fraction)
    for a in adjustments:
        extra[a.entry] += Fraction(a.whists)
    all_entries = set(entries) | {r.entry for r in results} | set(extra)
    adjust_total = config.score.key in WHIST_SCORES
    # a round sat out, where the round score does not count the stated score (place points)
    sat_out: dict[int, Fraction] = defaultdict(Fraction)
    if not adjust_total and (worth := config.score.sit_out()) is not None:
        for a in adjustments:
            if a.rule == SIT_OUT_RULE:
                sat_out[a.entry] += worth
    records = {
        e: PlayerRecord(
            entry=e,
            rounds=tuple(sorted(final[e], key=lambda r: r.round)),
            scores={r.round: round_scores[(e, r.round)] for r in final[e]},
            places=places[e],
            adjustment=extra[e],
            adjust_total=adjust_total,
            sat_out=sat_out[e],
        )
        for e in all_entries
    }
    missing = frozenset(no_result) - seen
    records.update(
        {
            e: PlayerRecord(entry=e, adjust_total=adjust_total)
            for e, _n in missing
            if e not in records
        }
    )
    with_result = [r for r in records.values() if r.rounds]
    without = [r for r in records.values() if not r.rounds]
    ranked = rank(with_result, config.metrics) if with_result else []
    unranked = rank(without, config.metrics) if without else []
    offset = len(with_result)
    ranked += [
        Ranked(r.entry, offset + 1, True, len(records), r.values, None)
        if len(unranked) > 1
        else Ranked(r.entry, offset + 1, False, offset + 1, r.values, None)
        for r in unranked
    ]
    return Standings(config, tuple(ranked), records, results, round_scores, adjustments, missing)
