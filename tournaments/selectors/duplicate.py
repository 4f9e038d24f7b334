"""Reads of a duplicate event (docs/duplicate.md): the movement of its rounds, a table's boards,
a board's traveller, the comparison scores and the standings. They write nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count

from scoring.duplicate.boards import Board as PureBoard
from scoring.duplicate.comparison import SeatScore, Standing, standings
from scoring.duplicate.movement import Play, plan_event
from tournaments.models import (
    Board,
    BoardResult,
    BoardScore,
    DuplicateEvent,
    Entry,
    Event,
    Round,
    Table,
)

__all__ = [
    "duplicate_of",
    "event_plays",
    "table_plays",
    "board_round",
    "pure_board",
    "traveller",
    "duplicate_standings",
    "TravellerRow",
    "adjusted_results",
]


def duplicate_of(event: Event) -> DuplicateEvent | None:
    """The event's duplicate option, or ``None`` for an ordinary event."""
    try:
        return event.duplicate
    except DuplicateEvent.DoesNotExist:
        return None


def _tables_by_round(event: Event) -> list[int]:
    """Each planned round's number of tables: a drawn round's own, else the event's threes."""
    drawn = {
        r.number: r.n
        for r in Round.objects.filter(event=event).annotate(n=Count("tables"))
    }
    default = max(1, event.entries.exclude(status=Entry.Status.WITHDRAWN).count() // 3)
    rounds = max([event.rounds_planned, *drawn.keys()])
    return [drawn.get(n) or default for n in range(1, rounds + 1)]


def event_plays(event: Event, dup: DuplicateEvent | None = None) -> tuple[Play, ...]:
    """Every round's plays by the movement (``scoring.duplicate.movement``)."""
    dup = dup or duplicate_of(event)
    if dup is None:
        return ()
    return plan_event(_tables_by_round(event), boards_per_set=dup.boards_per_set, stanzas=dup.stanzas)


def table_plays(table: Table) -> list[Play]:
    """The stanzas of ``table``'s round that it plays, in order."""
    rnd = table.round
    return [
        p for p in event_plays(rnd.event) if p.round == rnd.number and p.table == table.number
    ]


def board_round(event: Event, number: int) -> int | None:
    """The round whose tables play board ``number``."""
    for p in event_plays(event):
        if number in p.boards:
            return p.round
    return None


def pure_board(board: Board) -> PureBoard:
    return PureBoard.from_cards(board.number, board.dealer, board.cards)


@dataclass(frozen=True)
class TravellerRow:
    table: Table
    result: BoardResult | None
    players: list[Any]
    entries: list[Any]
    values: list[Fraction]
    scores: list[Fraction | None]
    #: a referee's adjustment per seat (``Adjustment`` codes), empty for a result played
    adjusted: list[str] = field(default_factory=list)


def traveller(board: Board) -> list[TravellerRow]:
    """Every table's result on ``board``: the tables the movement sends it to, in order, with
    who sat in the board's seats, the deal's values and the comparison scores (once scored)."""
    event = board.event
    plays = [p for p in event_plays(event) if board.number in p.boards]
    if not plays:
        return []
    rnd = plays[0].round
    tables = {
        t.number: t
        for t in Table.objects.filter(round__event=event, round__number=rnd).prefetch_related(
            "seats__entry__player"
        )
    }
    results = {
        r.table_id: r
        for r in BoardResult.objects.filter(board=board).prefetch_related("scores")
    }
    rows = []
    for p in sorted(plays, key=lambda p: p.table):
        table = tables.get(p.table)
        if table is None:
            continue
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        result = results.get(table.id)
        scores = {s.seat: Fraction(s.score) for s in result.scores.all()} if result else {}
        rows.append(
            TravellerRow(
                table=table,
                result=result,
                players=[s.entry.player for s in seats],
                entries=[s.entry for s in seats],
                values=[Fraction(v) for v in result.values] if result else [],
                scores=[scores.get(k) for k in range(1, len(seats) + 1)] if result else [],
                adjusted=list(result.adjusted) if result else [],
            )
        )
    return rows


def duplicate_standings(event: Event) -> tuple[tuple[Standing, ...], dict[int, Any]]:
    """The standings from the stored scores (``scoring.duplicate.comparison.standings``) and
    the entries by id, to name them."""
    rows = BoardScore.objects.filter(result__board__event=event).select_related(
        "result__board", "entry__player"
    )
    entries = {}
    seat_scores = []
    for s in rows:
        entries[s.entry_id] = s.entry
        seat_scores.append(
            SeatScore(
                board=s.result.board.number,
                table=s.result.table_id,
                seat=s.seat,
                player=s.entry_id,
                value=Fraction(s.value),
                score=Fraction(s.score),
                top=Fraction(s.top) if s.top else None,
                played=s.played,
                is_top=s.is_top,
            )
        )
    return standings(seat_scores), entries


@dataclass(frozen=True)
class AdjustedRow:
    board: int
    round: int
    table: int
    #: (player's name, ``Adjustment`` code) per board seat
    seats: list[tuple[str, str]]
    reason: str


def adjusted_results(event: Event) -> list[AdjustedRow]:
    """The event's boards a referee adjusted, by board and table, with who got what and why."""
    rows = (
        BoardResult.objects.filter(board__event=event)
        .exclude(adjusted=[])
        .select_related("board", "table__round")
        .prefetch_related("table__seats__entry__player")
        .order_by("board__number", "table__number")
    )
    out = []
    for r in rows:
        seats = sorted(r.table.seats.all(), key=lambda s: s.position)
        out.append(
            AdjustedRow(
                board=r.board.number, round=r.table.round.number, table=r.table.number,
                seats=[(s.entry.player.name, a) for s, a in zip(seats, r.adjusted, strict=False)],
                reason=r.adjusted_reason,
            )
        )
    return out


def tables_missing_results(round_: Round) -> list[tuple[int, tuple[str, ...]]]:
    """``(table number, players)`` of the round's tables with a board still without its result:
    what closing the round leaves unplayed (a duplicate round has no pulka to approve)."""
    plays = [p for p in event_plays(round_.event) if p.round == round_.number]
    entered = set(
        BoardResult.objects.filter(table__round=round_).values_list("table__number", "board__number")
    )
    out = []
    for table in round_.tables.prefetch_related("seats__entry__player").order_by("number"):
        wanted = {(table.number, b) for p in plays if p.table == table.number for b in p.boards}
        if wanted - entered:
            seats = sorted(table.seats.all(), key=lambda s: s.position)
            out.append((table.number, tuple(s.entry.player.name for s in seats)))
    return out


def seed_revealed(event: Event, dup: DuplicateEvent) -> str:
    """The boards' seed, public once every planned round is closed (before, it would show the
    boards still to be played); "" until then."""
    if not dup.seed:
        return ""
    rounds = Round.objects.filter(event=event)
    closed = rounds.filter(state=Round.State.CLOSED).count()
    return dup.seed if rounds.exists() and closed == rounds.count() >= event.rounds_planned else ""
