"""Rated events made fast for the ratings' tests and benchmark: persons, events of a
convention with entries linked to the persons, rounds of tables with an approved protocol whose
``result`` holds each seat's entry and table result (as the protocol service stores it; the
rating reads nothing else of a protocol)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence

from tournaments.models import Entry, Event, Person, Player, Protocol, Round, Seat, Table


def make_persons(n: int, *, clubs: int = 7, prefix: str = "Person") -> list[Person]:
    return Person.objects.bulk_create(
        [
            Person(
                name=f"{prefix} {i:04d}",
                name_key=f"{prefix.lower()} {i:04d}",
                club=f"Club {i % clubs}",
                city="Zagreb" if i % 2 else "Split",
            )
            for i in range(n)
        ]
    )


def make_event(
    persons: Sequence[Person],
    *,
    slug: str,
    day: dt.date,
    variant: str = "croatian",
    bula: int = 30,
    organisation=None,
) -> tuple[Event, list[Entry]]:
    event = Event.objects.create(
        slug=slug,
        name=slug.replace("-", " ").title(),
        starts_on=day,
        ends_on=day,
        variant=variant,
        pulka_target=bula,
        published=True,
        organisation=organisation,
    )
    players = Player.objects.bulk_create([Player(name=p.name, club=p.club) for p in persons])
    entries = Entry.objects.bulk_create(
        [
            Entry(event=event, player=pl, person=p, status=Entry.Status.CHECKED_IN)
            for pl, p in zip(players, persons, strict=True)
        ]
    )
    return event, entries


def play_round(
    event: Event,
    tables: Sequence[Sequence[tuple[Entry, float]]],
    number: int,
    *,
    approved: bool = True,
) -> list[Protocol]:
    """One round: each table its entries in seat order with their table results."""
    rnd = Round.objects.create(event=event, number=number, state=Round.State.CLOSED)
    made = Table.objects.bulk_create(
        [Table(round=rnd, number=i + 1, first_dealer=0) for i in range(len(tables))]
    )
    Seat.objects.bulk_create(
        [
            Seat(round=rnd, table=t, position=p, entry=e)
            for t, seated in zip(made, tables, strict=True)
            for p, (e, _score) in enumerate(seated)
        ]
    )
    return Protocol.objects.bulk_create(
        [
            Protocol(
                table=t,
                version=1,
                data={},
                result=[
                    {"seat": p, "entry": e.pk, "whists": str(score)}
                    for p, (e, score) in enumerate(seated)
                ],
                is_current=True,
                approved=approved,
            )
            for t, seated in zip(made, tables, strict=True)
        ]
    )


def play_event(
    entries: Sequence[Entry],
    event: Event,
    *,
    rounds: int,
    rng: random.Random,
    score: Callable[[Entry, random.Random], float] | None = None,
) -> None:
    """``rounds`` random rounds at tables of three (four where the count needs them), each
    table's results from ``score`` (random whole numbers by default)."""
    score = score or (lambda _e, r: float(r.randrange(-300, 300, 10)))
    order = list(entries)
    for number in range(1, rounds + 1):
        rng.shuffle(order)
        sizes = [3] * (len(order) // 3)
        for i in range(len(order) % 3):
            sizes[i] += 1
        tables, at = [], 0
        for n in sizes:
            tables.append([(e, score(e, rng)) for e in order[at : at + n]])
            at += n
        play_round(event, tables, number)
