"""A series' table (a league, a cup, a club's annual ranking): the events' places in, the
series standings out (issue 39). Plain data, no Django.

Each event of the series gives every person who played it a place (shared places repeat: two
players 3rd–4th both have place 3) and, for the normalised-score method, the event's own score.
The rules (:class:`SeriesRules`) turn them into points:

``place_points``      points by place in the event from a table (:data:`DEFAULT_PLACE_POINTS`
                      or the series' own); players who share a place share the points of the
                      places they cover equally (two tied for 3rd on 16, 13 get 14.5 each), as
                      place points at a table do (:func:`~tournaments.standings.scores
                      .place_points`); a place beyond the table is worth 0;
``normalised_score``  the event's own score normalised for the table sizes: each round's
                      result × 2/(n − 1), a table of four on the scale of a table of three
                      (:func:`normalised_score`, as the round score ``normalised``).

An event's points are multiplied by its weight (the federation's tournament category). A
person's best ``best_of`` events count (all when None); a person with fewer than
``min_events`` events is listed but not ranked. Equal totals are decided by the tie-breaks in
order (:data:`SERIES_TIEBREAKS`): more events won, the better best result, head-to-head (the
places of the tied players in the events they both played); players still equal share the
place. The table is provisional while an event of the series is not final (still running or
not yet played), final once every event is.

>>> from fractions import Fraction as F
>>> rules = SeriesRules(place_points=(F(10), F(6), F(4)))
>>> evening = SeriesEventResult(1, (EventPlace(7, 1), EventPlace(8, 2), EventPlace(9, 2)))
>>> [(r.person, r.place_label, r.total) for r in compute_series_standings([evening], rules).rows]
[(7, '1', Fraction(10, 1)), (8, '2–3', Fraction(5, 1)), (9, '2–3', Fraction(5, 1))]
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from .metrics import exact_sum
from .ranker import placed
from .table import num

__all__ = [
    "DEFAULT_PLACE_POINTS",
    "POINTS_METHODS",
    "SERIES_TIEBREAKS",
    "DEFAULT_SERIES_TIEBREAKS",
    "EventPlace",
    "SeriesEventResult",
    "SeriesRules",
    "SeriesRulesError",
    "SeriesCell",
    "SeriesComputation",
    "SeriesRow",
    "SeriesStandings",
    "compute_series_standings",
    "event_points",
    "normalised_score",
    "rules_from_fields",
]

#: the default place-points table (1st … 15th; a place beyond it is worth 0)
DEFAULT_PLACE_POINTS: tuple[Fraction, ...] = tuple(
    Fraction(p) for p in (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
)

#: how an event's result becomes series points
POINTS_METHODS = ("place_points", "normalised_score")


@dataclass(frozen=True, slots=True)
class SeriesTiebreak:
    """A series tie-break: ``ascending`` when less is better (a place)."""

    key: str
    name: str
    ascending: bool = False
    group_dependent: bool = False


#: the series tie-breaks by key, in the order the pages offer them
SERIES_TIEBREAKS: Mapping[str, SeriesTiebreak] = {
    t.key: t
    for t in (
        SeriesTiebreak("events_won", "Events won"),
        SeriesTiebreak("best_result", "Best place in an event", ascending=True),
        SeriesTiebreak("head_to_head", "Places against the tied players", group_dependent=True),
        SeriesTiebreak("events_played", "Events played"),
    )
}
DEFAULT_SERIES_TIEBREAKS = ("events_won", "best_result", "head_to_head")
_TOTAL = SeriesTiebreak("total", "Total")


class SeriesRulesError(ValueError):
    """Series rules that cannot be applied; ``field`` names the rule at fault."""

    def __init__(self, field_name: str, message: str) -> None:
        self.field = field_name
        super().__init__(f"{field_name}: {message}")


@dataclass(frozen=True, slots=True)
class SeriesRules:
    """The rules of a series' table (see the module's docstring).

    :raises SeriesRulesError: naming the rule when a value cannot be applied.
    """

    points: str = "place_points"
    place_points: tuple[Fraction, ...] = DEFAULT_PLACE_POINTS
    best_of: int | None = None
    min_events: int = 1
    tiebreaks: tuple[str, ...] = DEFAULT_SERIES_TIEBREAKS

    def __post_init__(self) -> None:
        if self.points not in POINTS_METHODS:
            raise SeriesRulesError("points", f"{self.points!r}, choose one of {POINTS_METHODS}")
        if not self.place_points:
            raise SeriesRulesError("place_points", "the table needs at least one place")
        if any(p < 0 for p in self.place_points):
            raise SeriesRulesError("place_points", "points cannot be negative")
        if any(a < b for a, b in zip(self.place_points, self.place_points[1:], strict=False)):
            raise SeriesRulesError(
                "place_points", "a place cannot be worth more than the one above"
            )
        if self.best_of is not None and self.best_of < 1:
            raise SeriesRulesError("best_of", f"{self.best_of}, at least one event must count")
        if self.min_events < 1:
            raise SeriesRulesError("min_events", f"{self.min_events}, must be 1 or more")
        for key in self.tiebreaks:
            if key not in SERIES_TIEBREAKS:
                raise SeriesRulesError(
                    "tiebreaks", f"{key!r}, choose from {sorted(SERIES_TIEBREAKS)}"
                )
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise SeriesRulesError("tiebreaks", "a tie-break is named twice")


def rules_from_fields(
    *,
    points: str,
    place_points: Sequence[Any] | None,
    best_of: int | None,
    min_events: int,
    tiebreaks: Sequence[Any] | None,
) -> SeriesRules:
    """The rules from their stored form (a series' fields): numbers or fraction texts for the
    place points (empty: the default table), tie-break keys (None: the default chain; an empty
    list: none).

    >>> rules_from_fields(points="place_points", place_points=["3", 2, "1/2"], best_of=4,
    ...                   min_events=2, tiebreaks=None).place_points
    (Fraction(3, 1), Fraction(2, 1), Fraction(1, 2))

    :raises SeriesRulesError: naming the field.
    """
    table = DEFAULT_PLACE_POINTS
    if place_points:
        try:
            table = tuple(Fraction(str(p)) for p in place_points)
        except (ValueError, ZeroDivisionError):
            raise SeriesRulesError(
                "place_points", f"{list(place_points)!r} is not a list of numbers"
            ) from None
    chain = DEFAULT_SERIES_TIEBREAKS if tiebreaks is None else tuple(str(t) for t in tiebreaks)
    return SeriesRules(points, table, best_of, min_events, chain)


@dataclass(frozen=True, slots=True)
class EventPlace:
    """A person's final place in one event (shared places repeat) and, for the
    normalised-score method, the event's score (:func:`normalised_score`)."""

    person: int
    place: int
    score: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class SeriesEventResult:
    """One event of the series: its ranked persons, whether its standings are final (the event
    closed), and its weight (category). An event not yet played has no places."""

    event: int
    places: tuple[EventPlace, ...] = ()
    final: bool = True
    weight: Fraction = Fraction(1)


def normalised_score(results: Iterable[tuple[Fraction, int]]) -> Fraction:
    """An event's score normalised for the table sizes: each round's result (in the event's
    unit) × 2/(n − 1) for a table of n, so a round at a table of four (three opponents) weighs
    as one at a table of three (two).

    >>> normalised_score([(Fraction(30), 3), (Fraction(-45), 4)])
    Fraction(0, 1)
    """
    return exact_sum(score * Fraction(2, size - 1) for score, size in results)


def _prefix(table: Sequence[Fraction]) -> list[Fraction]:
    """The table's running sums: ``prefix[k]`` is the points of places 1 … k together."""
    sums = [Fraction(0)]
    for p in table:
        sums.append(sums[-1] + p)
    return sums


def _place_share(prefix: Sequence[Fraction], place: int, count: int) -> Fraction:
    """What each of ``count`` players sharing ``place`` gets: the points of the places they
    cover (a place beyond the table is worth 0), shared equally."""
    last = len(prefix) - 1
    covered = prefix[min(place + count - 1, last)] - prefix[min(place - 1, last)]
    return covered / count if count > 1 else covered


def event_points(
    result: SeriesEventResult,
    rules: SeriesRules,
    prefix: Sequence[Fraction] | None = None,
    shares: dict[Fraction, dict[tuple[int, int], Fraction]] | None = None,
) -> dict[int, Fraction]:
    """What the event is worth to each person who played it, weight included (``prefix``:
    the place table's running sums, and ``shares`` the points of a place shared by so many
    at such a weight, kept across the events of one computation).

    :raises ValueError: a person placed twice, or a place below 1.
    """
    seen: set[int] = set()
    by_place: dict[int, int] = defaultdict(int)
    for p in result.places:
        if p.person in seen:
            raise ValueError(f"event {result.event}: person {p.person} is placed twice")
        if p.place < 1:
            raise ValueError(f"event {result.event}: place {p.place} of person {p.person}")
        seen.add(p.person)
        by_place[p.place] += 1
    weight = result.weight
    if rules.points == "place_points":
        sums = prefix if prefix is not None else _prefix(rules.place_points)
        known = (shares if shares is not None else {}).setdefault(weight, {})
        scaled = weight != 1
        share = {}
        for place_count in by_place.items():
            points = known.get(place_count)
            if points is None:
                points = _place_share(sums, *place_count)
                if scaled:
                    points *= weight
                known[place_count] = points
            share[place_count[0]] = points
        return {p.person: share[p.place] for p in result.places}
    if weight == 1:
        return {p.person: p.score for p in result.places}
    return {p.person: p.score * weight for p in result.places}


class SeriesCell(NamedTuple):
    """A person's points from one event: ``counted`` when among his best N; ``final`` when
    the event's standings are final. (A named tuple, not a frozen dataclass: a season makes
    15,000 of them, and a frozen dataclass's ``__init__`` costs five times as much.)"""

    event: int
    points: Fraction
    place: int
    counted: bool
    final: bool


@dataclass(frozen=True, slots=True)
class SeriesRow:
    """A person's line in the series table. ``place`` is None for a person below the minimum
    number of events (listed after the ranked ones)."""

    person: int
    place: int | None
    last_place: int | None
    shared: bool
    total: Fraction
    events_played: int
    cells: tuple[SeriesCell, ...]
    #: the total and the tie-breaks' values (counts and places as integers)
    values: Mapping[str, Fraction | int] = field(default_factory=dict)
    decided_by: str | None = None

    @property
    def ranked(self) -> bool:
        return self.place is not None

    @property
    def place_label(self) -> str:
        if self.place is None:
            return "—"
        return f"{self.place}–{self.last_place}" if self.shared else str(self.place)


@dataclass(frozen=True, slots=True)
class SeriesStandings:
    """The series table: ranked rows first, then the unranked; ``final`` once every event is
    final."""

    rules: SeriesRules
    events: tuple[int, ...]
    rows: tuple[SeriesRow, ...]
    final: bool

    def as_json(self, kept: dict[int, tuple[Any, Any, list[Any]]] | None = None) -> dict[str, Any]:
        """The stored form (``SeriesStandingsSnapshot.data`` without the names): each row's
        ``cells`` follow ``events``, ``null`` or ``[points, place, counted, final]`` (a
        season's 15,000 cells stored compactly: a third of the size of one object each).
        ``kept``: a row's cells in their stored form by person, kept from an earlier call and
        used again while the row's cells and the events are the same objects."""
        column = {e: i for i, e in enumerate(self.events)}
        rows = []
        for r in self.rows:
            known = kept.get(r.person) if kept is not None else None
            cells: list[list[Any] | None]
            if known is not None and known[0] is r.cells and known[1] == self.events:
                cells = known[2]
            else:
                cells = [None] * len(self.events)
                for c in r.cells:
                    cells[column[c.event]] = [num(c.points), c.place, c.counted, c.final]
                if kept is not None:
                    kept[r.person] = (r.cells, self.events, cells)
            rows.append(
                {
                    "person": r.person,
                    "place": r.place,
                    "place_label": r.place_label,
                    "shared": r.shared,
                    "total": num(r.total),
                    "events_played": r.events_played,
                    "decided_by": r.decided_by,
                    "cells": cells,
                }
            )
        return {**self._head(), "version": 2, "rows": rows}

    def _head(self) -> dict[str, Any]:
        return {
            "final": self.final,
            "events": list(self.events),
            "rules": {
                "points": self.rules.points,
                "place_points": [num(p) for p in self.rules.place_points],
                "best_of": self.rules.best_of,
                "min_events": self.rules.min_events,
                "tiebreaks": list(self.rules.tiebreaks),
            },
        }

    def as_parts(
        self, kept: dict[int, tuple[Any, list[Any]]] | None = None
    ) -> tuple[dict[str, Any], dict[int, list[Any]]]:
        """The stored form in parts (``SeriesStandingsSnapshot.head`` and its rows): the head
        — :meth:`as_json` without ``rows``, with ``order``, a line ``[person, place,
        place_label, shared, total, events_played, decided_by]`` per row — and each person's
        cells ``[[event, points, place, counted, final], ...]`` (the events he played, in the
        series' order). ``kept``: a person's cells in their stored form, kept from an earlier
        call and given again (the same list) while his row's cells are the same objects, so
        the caller writes only the rows whose list is new.

        >>> from fractions import Fraction as F
        >>> table = compute_series_standings(
        ...     [SeriesEventResult(5, (EventPlace(7, 1), EventPlace(8, 2)))],
        ...     SeriesRules(place_points=(F(3), F(1))))
        >>> head, cells = table.as_parts()
        >>> head["order"]
        [[7, 1, '1', False, 3, 1, None], [8, 2, '2', False, 1, 1, 'total']]
        >>> cells
        {7: [[5, 3, 1, True, True]], 8: [[5, 1, 2, True, True]]}
        """
        cells: dict[int, list[Any]] = {}
        order = []
        for r in self.rows:
            known = kept.get(r.person) if kept is not None else None
            if known is not None and known[0] is r.cells:
                mine = known[1]
            else:
                mine = [[c.event, num(c.points), c.place, c.counted, c.final] for c in r.cells]
                if kept is not None:
                    kept[r.person] = (r.cells, mine)
            cells[r.person] = mine
            order.append(
                [
                    r.person,
                    r.place,
                    r.place_label,
                    r.shared,
                    num(r.total),
                    r.events_played,
                    r.decided_by,
                ]
            )
        return {"version": 3, **self._head(), "order": order}, cells


def _head_to_head(
    person: int, group: frozenset[int], places: Mapping[int, Mapping[int, int]]
) -> int:
    """+1 for each event where the person finished ahead of another tied person, −1 for each
    where behind (events both played only; 0 where they never met)."""
    mine = places[person]
    score = 0
    for other in group:
        if other == person:
            continue
        theirs = places[other]
        for event, place in mine.items():
            if event in theirs:
                score += (theirs[event] > place) - (theirs[event] < place)
    return score


def _head_to_head_group(
    group: frozenset[int], places: Mapping[int, Mapping[int, int]]
) -> dict[int, int]:
    """:func:`_head_to_head` of every person of a tied group at once, event by event (the
    places of the group's persons in each event sorted once: a group of g persons costs their
    cells, not g² comparisons of their events).

    >>> _head_to_head_group(frozenset({1, 2, 3}), {1: {9: 1, 8: 3}, 2: {9: 2, 8: 1}, 3: {8: 2}})
    {1: -1, 2: 1, 3: 0}
    """
    by_event: dict[int, list[int]] = defaultdict(list)
    for person in group:
        for event, place in places[person].items():
            by_event[event].append(place)
    for found in by_event.values():
        found.sort()
    score = {}
    for person in sorted(group):
        total = 0
        for event, place in places[person].items():
            found = by_event[event]
            if len(found) > 1:
                total += len(found) - bisect_right(found, place) - bisect_left(found, place)
        score[person] = total
    return score


def _tiebreak_value(
    key: str,
    cells: Sequence[SeriesCell],
    person: int,
    group: frozenset[int],
    places: Mapping[int, Mapping[int, int]],
) -> int:
    if key == "events_won":
        return sum(1 for c in cells if c.place == 1)
    if key == "best_result":
        return min(c.place for c in cells)
    if key == "events_played":
        return len(cells)
    return _head_to_head(person, group, places)


def compute_series_standings(
    events: Sequence[SeriesEventResult], rules: SeriesRules
) -> SeriesStandings:
    """The series table of ``events`` (in the series' order) under ``rules``.

    The points are added and compared as integers over their common denominator (a season
    of 15,000 places would otherwise compare fractions a hundred thousand times); the table
    shows them as the fractions they are.

    :raises ValueError: an event given twice, or a person placed twice in one event.
    """
    return SeriesComputation().update(events, rules)


def _order_of(events: Sequence[SeriesEventResult]) -> dict[int, int]:
    order: dict[int, int] = {}
    for i, e in enumerate(events):
        if e.event in order:
            raise ValueError(f"event {e.event} is given twice")
        order[e.event] = i
    return order


class SeriesComputation:
    """A series' table kept between computations (a worker keeps one per series): after one
    event's standings change, only the rows of the persons of the changed events are made
    again (their cells, best-N sums, counted marks and tie-break keys); the ranking of every
    row is done again from the kept keys (head-to-head, which depends on the tied group, is
    worked out in the ranking as in a computation from scratch). The result equals
    :func:`compute_series_standings` of the same input; anything else than changed events
    (rules changed, an event added, removed or moved, a new denominator of the points) is
    computed from scratch.
    """

    def __init__(self) -> None:
        self.rules: SeriesRules | None = None
        self.events: tuple[SeriesEventResult, ...] = ()
        self.points_of: list[dict[int, Fraction]] = []
        self.scale = 1
        # per person: (event index, points, points × scale, place, final), in the events' order
        self.played: dict[int, list[tuple[int, Fraction, int, int, bool]]] = {}
        self.places: dict[int, dict[int, int]] = {}
        self.rows: dict[int, tuple[Fraction, tuple[SeriesCell, ...]]] = {}
        self.totals: dict[int, int] = {}
        #: the total's and the group-independent tie-breaks' keys
        self.keys: dict[int, dict[str, int]] = {}
        self.prefix: list[Fraction] = []
        self.shares: dict[Fraction, dict[tuple[int, int], Fraction]] = {}
        #: how the last update went: "scratch" or "incremental"
        self.last = ""
        #: the rows' cells in their stored form (:meth:`SeriesStandings.as_parts`' ``kept``)
        self.cells_stored: dict[int, tuple[Any, list[Any]]] = {}
        #: a group-dependent tie-break's values by (key, tied group), while none of the
        #: group's rows changed (the values depend on the group's own places only)
        self.group_values: dict[tuple[str, frozenset[int]], dict[int, int]] = {}

    def update(self, events: Sequence[SeriesEventResult], rules: SeriesRules) -> SeriesStandings:
        """The table of ``events`` under ``rules``, from the kept one where only events'
        places, weights or finality changed.

        :raises ValueError: an event given twice, or a person placed twice in one event.
        """
        order = _order_of(events)
        events = tuple(events)
        try:
            self._update(events, rules)
        except BaseException:
            self.rules = None  # what is kept may be half made: from scratch next time
            raise
        return self._ranked(order)

    def _update(self, events: tuple[SeriesEventResult, ...], rules: SeriesRules) -> None:
        old = self.events
        if (
            self.rules != rules
            or len(old) != len(events)
            or any(a.event != b.event for a, b in zip(old, events, strict=True))
        ):
            self._scratch(events, rules)
        else:
            changed = [
                i for i, (a, b) in enumerate(zip(old, events, strict=True)) if a is not b and a != b
            ]
            if changed and not self._incremental(events, changed):
                self._scratch(events, rules)

    def _scratch(self, events: tuple[SeriesEventResult, ...], rules: SeriesRules) -> None:
        self.last = "scratch"
        self.cells_stored = {}
        self.group_values = {}
        self.rules = rules
        self.prefix = _prefix(rules.place_points)
        self.shares = {}
        self.events = events
        self.points_of = [event_points(e, rules, self.prefix, self.shares) for e in events]
        self.scale = math.lcm(
            1, *{p.denominator for points in self.points_of for p in points.values()}
        )
        played: dict[int, list[tuple[int, Fraction, int, int, bool]]] = defaultdict(list)
        places: dict[int, dict[int, int]] = defaultdict(dict)
        scale = self.scale
        for i, (e, points) in enumerate(zip(events, self.points_of, strict=True)):
            for p in e.places:
                value = points[p.person]
                scaled = value.numerator * (scale // value.denominator)
                played[p.person].append((i, value, scaled, p.place, e.final))
                places[p.person][e.event] = p.place
        self.played, self.places = dict(played), dict(places)
        self.rows, self.totals, self.keys = {}, {}, {}
        for person in self.played:
            self._row(person)

    def _incremental(self, events: tuple[SeriesEventResult, ...], changed: list[int]) -> bool:
        """Make again the rows of the changed events' persons; False when the points' common
        denominator would change (then the whole table is computed again)."""
        assert self.rules is not None
        new_points = {
            i: event_points(events[i], self.rules, self.prefix, self.shares) for i in changed
        }
        scale = self.scale
        if any(scale % p.denominator for pts in new_points.values() for p in pts.values()):
            return False
        self.last = "incremental"
        old = self.events
        touched: set[int] = set()
        for i in changed:
            touched.update(p.person for p in old[i].places)
        gone = set(changed)
        for person in touched:  # their cells of the changed events go first
            self.played[person] = [c for c in self.played[person] if c[0] not in gone]
            known = self.places[person]
            for i in changed:
                known.pop(old[i].event, None)
        for i in changed:
            e, points = events[i], new_points[i]
            self.points_of[i] = points
            for p in e.places:
                value = points[p.person]
                scaled = value.numerator * (scale // value.denominator)
                self.played.setdefault(p.person, []).append((i, value, scaled, p.place, e.final))
                self.places.setdefault(p.person, {})[e.event] = p.place
                touched.add(p.person)
        self.events = events
        self.group_values = {k: v for k, v in self.group_values.items() if k[1].isdisjoint(touched)}
        for person in touched:
            cells = self.played[person]
            if not cells:
                del self.played[person], self.places[person], self.rows[person]
                del self.totals[person], self.keys[person]
                continue
            cells.sort(key=lambda c: c[0])
            self._row(person)
        return True

    def _row(self, person: int) -> None:
        """A person's cells, best-N total and group-independent keys from ``played``."""
        assert self.rules is not None
        rules, events = self.rules, self.events
        cells = self.played[person]
        # the best N count (the earlier event first among equal points)
        best = sorted(cells, key=lambda c: (-c[2], c[0]))
        kept = best if rules.best_of is None else best[: rules.best_of]
        counted = {c[0] for c in kept}
        total = sum(c[2] for c in kept)
        self.totals[person] = total
        marked = tuple(
            SeriesCell(events[i].event, value, place, i in counted, final)
            for i, value, _scaled, place, final in cells
        )
        self.rows[person] = (Fraction(total, self.scale), marked)
        keys = {"total": total}
        for k in rules.tiebreaks:
            if not SERIES_TIEBREAKS[k].group_dependent:
                keys[k] = _tiebreak_value(k, marked, person, frozenset(), self.places)
        self.keys[person] = keys

    def _ranked(self, order: Mapping[int, int]) -> SeriesStandings:
        """Rank every kept row (the ranking of a computation from scratch)."""
        rules = self.rules
        assert rules is not None
        played, totals, rows, places = self.played, self.totals, self.rows, self.places
        ranked_people = sorted(p for p, cells in played.items() if len(cells) >= rules.min_events)
        unranked = sorted(
            (p for p, cells in played.items() if len(cells) < rules.min_events),
            key=lambda p: (-totals[p], -len(played[p]), p),
        )
        tiebreaks = [SERIES_TIEBREAKS[k] for k in rules.tiebreaks]
        # what the ranking compares (integers); group-dependent keys only for tied groups
        keys: dict[int, dict[str, int]] = {p: dict(k) for p, k in self.keys.items()}
        groups: list[list[int]] = [ranked_people] if ranked_people else []
        group_values: dict[tuple[str, frozenset[int]], dict[int, int]] = {}
        for t in (_TOTAL, *tiebreaks):
            split: list[list[int]] = []
            for group in groups:
                if len(group) <= 1:
                    split.append(group)
                    continue
                if t.group_dependent:
                    members = frozenset(group)
                    known = self.group_values.get((t.key, members))
                    if known is None:  # head-to-head, the one group-dependent tie-break
                        known = _head_to_head_group(members, places)
                    group_values[(t.key, members)] = known
                    for p in group:
                        keys[p][t.key] = known[p]
                sign = 1 if t.ascending else -1
                ordered = sorted(group, key=lambda p: (sign * keys[p][t.key], p))
                parts = [[ordered[0]]]
                for p in ordered[1:]:
                    if keys[p][t.key] == keys[parts[-1][0]][t.key]:
                        parts[-1].append(p)
                    else:
                        parts.append([p])
                split.extend(parts)
            groups = split
        # the total as a fraction, the tie-breaks' counts and places as the integers they are
        # (a Fraction of each would cost a national cup's update 12,000 constructions)
        values: dict[int, dict[str, Fraction | int]] = {
            p: {k: rows[p][0] if k == "total" else v for k, v in keys[p].items()} for p in rows
        }
        out: list[SeriesRow] = []
        for r in placed(groups, values, [_TOTAL, *tiebreaks]):  # type: ignore[list-item]
            total, cells = rows[r.entry]
            out.append(
                SeriesRow(
                    r.entry,
                    r.place,
                    r.last_place,
                    r.shared,
                    total,
                    len(cells),
                    cells,
                    values[r.entry],
                    r.decided_by,
                )
            )
        for p in unranked:
            total, cells = rows[p]
            out.append(SeriesRow(p, None, None, False, total, len(cells), cells, values[p]))
        self.group_values = group_values  # those of this ranking's groups only
        final = bool(self.events) and all(e.final for e in self.events)
        return SeriesStandings(rules, tuple(order), tuple(out), final)
