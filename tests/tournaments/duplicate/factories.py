"""A duplicate evening of nine players: three rounds of three tables of three, no two players
meeting twice (the rows, columns and diagonals of a 3 × 3 square)."""

from __future__ import annotations

from tests.factories import EntryFactory, EventFactory, PlayerFactory
from tournaments.models import Event, Round, Seat, Table
from tournaments.services.duplicate import duplicate_set_up

SQUARE = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
ROUNDS = [
    [tuple(row) for row in SQUARE],
    [tuple(SQUARE[r][c] for r in range(3)) for c in range(3)],
    [tuple(SQUARE[r][(c + r) % 3] for r in range(3)) for c in range(3)],
]
NAMES = ["Anna", "Boris", "Vera", "Gleb", "Darya", "Egor", "Zoya", "Ivan", "Kira"]


def nine_player_event(**kwargs) -> Event:
    event = EventFactory(variant="sochi", pulka_target=10, rounds_planned=3, **kwargs)
    for name in NAMES:
        EntryFactory(event=event, player=PlayerFactory(name=name))
    duplicate_set_up(event=event)
    return event


def seat_duplicate_round(event: Event, number: int, state=Round.State.IN_PLAY) -> Round:
    entries = list(event.entries.order_by("player__name"))
    by_name = {e.player.name: e for e in entries}
    round_ = Round.objects.create(event=event, number=number, state=state)
    for t, group in enumerate(ROUNDS[number - 1], 1):
        table = Table.objects.create(round=round_, number=t)
        for position, k in enumerate(group):
            Seat.objects.create(round=round_, table=table, position=position, entry=by_name[NAMES[k]])
    return round_
