"""The rating machinery shared by every model: the input (events, tables, results), a person's
state, a change with its explanation, and :func:`rate_events`, which runs a model over the
events in order. Pure: plain data in and out.

A table is rated as one match of its players ordered by their table result: the place of a
player is 1 + the number of players at the table with a better result (players with equal
results share the better place: two tied second at a table of three are both 2nd, "2nd–3rd").
The tables of one round are disjoint (a person plays one table a round), so rating them one
after another is the same as rating them at once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

__all__ = [
    "PlayerState",
    "RatedEvent",
    "RatedTable",
    "RatingChange",
    "RatingError",
    "RatingModel",
    "RatingRun",
    "TableOutcome",
    "TableResult",
    "Opponent",
    "places_of",
    "rate_events",
]


class RatingError(ValueError):
    """Input a model cannot rate (a table of one, a table without its game size for a model
    that needs it): the message names the event, round and table."""


class TableResult(NamedTuple):
    """One person's result at one table: ``score`` is the table result (more is better). A
    named tuple, as :class:`PlayerState`: a season makes 135,000 of them."""

    person: int
    score: float


@dataclass(frozen=True, slots=True)
class RatedTable:
    """One table of one round: its results and the game's agreed size (the bula, the pulka),
    which a model may use to normalise the scores (prefko's formula does)."""

    round: int
    table: int
    results: tuple[TableResult, ...]
    game_size: int = 0


@dataclass(frozen=True, slots=True)
class RatedEvent:
    """A rated event: its tables in round order."""

    event: int
    tables: tuple[RatedTable, ...]


class PlayerState(NamedTuple):
    """A person's rating state: the model's mean and spread (``sigma`` 0 for a model without
    uncertainty), the number of tables rated and the last event rated. A named tuple (made
    twice per player and table: a frozen dataclass's making cost a season 0.5 s of CPU)."""

    mu: float
    sigma: float
    tables: int = 0
    last_event: int | None = None


@dataclass(frozen=True, slots=True)
class Opponent:
    """An opponent at the table as he stood before it: shown rating, its ± (None without
    uncertainty) and his place at the table."""

    person: int
    shown: float
    spread: float | None
    place: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One person's change at one table, explained: ``change`` = ``shown_after`` −
    ``shown_before`` = the sum of ``parts`` (the model's reasons, ``(key, value, person)``:
    ``person`` is the opponent a part is against, or None)."""

    person: int
    event: int
    round: int
    table: int
    place: int
    size: int
    tied: int  # how many players share this place (1: none)
    before: PlayerState
    after: PlayerState
    shown_before: float
    shown_after: float
    spread_after: float | None
    parts: tuple[tuple[str, float, int | None], ...]
    opponents: tuple[Opponent, ...]

    @property
    def change(self) -> float:
        return self.shown_after - self.shown_before

    def as_json(self) -> dict[str, Any]:
        return {
            "person": self.person,
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "place": self.place,
            "size": self.size,
            "tied": self.tied,
            "before": [self.before.mu, self.before.sigma, self.before.tables],
            "after": [self.after.mu, self.after.sigma, self.after.tables],
            "shown_before": self.shown_before,
            "shown_after": self.shown_after,
            "spread_after": self.spread_after,
            "parts": [list(p) for p in self.parts],
            "opponents": [[o.person, o.shown, o.spread, o.place] for o in self.opponents],
        }


class RatingModel:
    """A rating model: its key, version and parameters (:meth:`spec`, stored with every
    computed rating), the state of a new player, how a table changes its players' states, and
    how a state is shown. Subclasses implement :meth:`rate_table`, :meth:`shown` and
    :meth:`parts`."""

    key: str = ""
    version: int = 1
    #: tables a person needs before his rating is no longer provisional
    provisional_below: int = 12

    def params(self) -> dict[str, Any]:
        raise NotImplementedError

    def spec(self) -> dict[str, Any]:
        """What a stored rating was computed with: enough to compute it again the same."""
        return {"model": self.key, "version": self.version, "params": self.params()}

    def initial(self) -> PlayerState:
        raise NotImplementedError

    def rate_table(
        self, table: RatedTable, states: Sequence[PlayerState], places: Sequence[int]
    ) -> list[PlayerState]:
        """The states after the table, in the table's order (``tables`` not yet counted)."""
        raise NotImplementedError

    def shown(self, state: PlayerState) -> float:
        """The rating people read."""
        raise NotImplementedError

    def spread(self, state: PlayerState) -> float | None:
        """The ± shown beside it (None for a model without uncertainty)."""
        return None

    def parts(
        self,
        table: RatedTable,
        i: int,
        states: Sequence[PlayerState],
        after: PlayerState,
    ) -> list[tuple[str, float, int | None]]:
        """The parts of player ``i``'s change at ``table`` (they add up to the change)."""
        raise NotImplementedError

    def provisional(self, state: PlayerState) -> bool:
        return state.tables < self.provisional_below


def places_of(results: Sequence[TableResult]) -> tuple[list[int], list[int]]:
    """Each player's place at the table (1 + the players with a better result) and how many
    share it.

    >>> places_of([TableResult(1, 5), TableResult(2, 9), TableResult(3, 5)])
    ([2, 1, 2], [2, 1, 2])
    """
    scores = [r.score for r in results]
    places, tied = [], []
    for s in scores:  # tables of 3 or 4: counting beats sorting
        better = same = 0
        for t in scores:
            if t > s:
                better += 1
            elif t == s:
                same += 1
        places.append(better + 1)
        tied.append(same)
    return places, tied


class TableOutcome(NamedTuple):
    """One rated table as :func:`rate_events` leaves it: its players' places and states before
    and after it, the shown values and each player's parts, one list entry per seat in the
    table's order. :meth:`changes` makes its players' :class:`RatingChange` objects; the job
    stores the table without them (:mod:`.compact`)."""

    event: int
    table: RatedTable
    places: list[int]
    tied: list[int]
    before: list[PlayerState]
    after: list[PlayerState]  # the table counted, ``last_event`` this event
    shown_before: list[float]
    spread_before: list[float | None]
    shown_after: list[float]
    spread_after: list[float | None]
    parts: list[tuple[tuple[str, float, int | None], ...]]

    def changes(self) -> list[RatingChange]:
        results = self.table.results
        return [
            RatingChange(
                person=r.person,
                event=self.event,
                round=self.table.round,
                table=self.table.table,
                place=self.places[i],
                size=len(results),
                tied=self.tied[i],
                before=self.before[i],
                after=self.after[i],
                shown_before=self.shown_before[i],
                shown_after=self.shown_after[i],
                spread_after=self.spread_after[i],
                parts=self.parts[i],
                opponents=tuple(
                    Opponent(o.person, self.shown_before[j], self.spread_before[j], self.places[j])
                    for j, o in enumerate(results)
                    if j != i
                ),
            )
            for i, r in enumerate(results)
        ]


@dataclass
class RatingRun:
    """The result of :func:`rate_events`: every person's final state and every table rated, in
    the order rated (``tables``; empty when the changes were not kept); ``changes`` are their
    players' changes in that order (made when first asked for)."""

    states: dict[int, PlayerState]
    tables: list[TableOutcome] = field(default_factory=list)
    #: with a ``packer``: one record per person and event (``compact.EventChanges``)
    records: list[Any] = field(default_factory=list)

    @cached_property
    def changes(self) -> list[RatingChange]:
        return [c for t in self.tables for c in t.changes()]

    def history(self, person: int) -> list[RatingChange]:
        return [c for c in self.changes if c.person == person]


def _check(event: RatedEvent, table: RatedTable) -> None:
    persons = [r.person for r in table.results]
    if len(persons) < 2:
        raise RatingError(
            f"event {event.event}, round {table.round}, table {table.table}: "
            f"a table needs at least 2 rated players, it has {len(persons)}"
        )
    if len(set(persons)) != len(persons):
        raise RatingError(
            f"event {event.event}, round {table.round}, table {table.table}: "
            "a person sits at the table twice"
        )
    for r in table.results:
        if not math.isfinite(r.score):
            raise RatingError(
                f"event {event.event}, round {table.round}, table {table.table}: "
                f"the result of person {r.person} is not a number"
            )


def rate_events(
    events: Iterable[RatedEvent],
    model: RatingModel,
    start: Mapping[int, PlayerState] | None = None,
    *,
    keep_changes: bool = True,
    packer: Any = None,
) -> RatingRun:
    """Rate ``events`` in the order given, from the states ``start`` (a person not in it
    starts from :meth:`RatingModel.initial`). Deterministic: the same input gives the same
    numbers. With ``keep_changes`` the run keeps every table (:class:`TableOutcome`: what the
    changes and their explanations are made of), else only the final states; a ``packer``
    (:class:`.compact.Packer`: ``add(outcome)`` and its ``records``) keeps them as the stored
    records instead, as it rates (``run.records``, :func:`.compact.pack`'s).

    :raises RatingError: for a table that cannot be rated (naming it).
    """
    states: dict[int, PlayerState] = dict(start or {})
    run = RatingRun(states)
    initial = model.initial()
    shown, spread, parts, rate_table = model.shown, model.spread, model.parts, model.rate_table
    keep = run.tables.append if keep_changes else None
    if packer is not None:
        run.records = packer.records
        keep = packer.add
    for event in events:
        event_id = event.event
        for table in event.tables:
            _check(event, table)
            results = table.results
            before = [states.get(r.person, initial) for r in results]
            places, tied = places_of(results)
            rated = rate_table(table, before, places)
            after = [
                PlayerState(a.mu, a.sigma, b.tables + 1, event_id)
                for a, b in zip(rated, before, strict=True)
            ]
            for r, new in zip(results, after, strict=True):
                states[r.person] = new
            if keep is None:
                continue
            keep(
                TableOutcome(
                    event_id,
                    table,
                    places,
                    tied,
                    before,
                    after,
                    [shown(s) for s in before],
                    [spread(s) for s in before],
                    [shown(s) for s in after],
                    [spread(s) for s in after],
                    [tuple(parts(table, i, before, a)) for i, a in enumerate(after)],
                )
            )
    return run
