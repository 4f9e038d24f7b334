"""What the public pages' cache tests share (test_caching.py, test_fast_pages.py): an event with
a round played and its standings computed, and the changes those pages must show."""

from __future__ import annotations

import random

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Event, EventPenalty, Round, Seat
from tournaments.services.rounds import seats_swap
from tournaments.services.standings import standings_recompute

__all__ = ["fine", "one_round_played", "swap_first_and_last"]


def one_round_played(*, players: int = 9, **event) -> Event:
    """An event of ``players``, round 1 played (seed 28) and the standings computed; its entries
    as ``event.entries_list``."""
    made, entries = make_event(players=players, **event)
    play_round(made, entries, 1, rng=random.Random(28))
    standings_recompute(event_id=made.pk)
    made.entries_list = entries
    return made


def fine(event: Event) -> None:
    """A referee fines the event's first player 40 whists (3.2.21); the standings recomputed."""
    EventPenalty.objects.create(
        event=event,
        entry=event.entries_list[0],
        kind="fixed_whists",
        whists=-40,
        rule="3.2.21",
        reason="Fined at the desk",
    )
    standings_recompute(event_id=event.pk)


def swap_first_and_last(round_: Round) -> None:
    """The round's first seat (table 1, seat 1) and its last swap places, a correction."""
    seats = list(Seat.objects.filter(round=round_).order_by("table__number", "position"))
    seats_swap(round_=round_, first=seats[0].entry_id, second=seats[-1].entry_id, reason="x")
