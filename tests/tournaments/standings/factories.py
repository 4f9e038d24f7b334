"""Events with played rounds for the standings tests and benchmarks.

Protocols are random legal pulkas (``scoring.russian.generate``) stored the way the protocol service
stores them (``data`` = ``scoring.jsonio.to_dict``, ``result`` = each seat's settlement), in bulk.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from typing import Any

from scoring.russian.generate import random_protocol
from scoring.russian.jsonio import to_dict
from scoring.russian.protocol import Protocol as ScoringProtocol
from scoring.russian.pulka import score
from tournaments.models import Entry, Event, Player, Protocol, Round, Seat, Table


def result_of(protocol: ScoringProtocol, entries: list[int]) -> list[dict[str, Any]]:
    """``Protocol.result`` as the protocol service writes it."""
    scored = score(protocol)
    final = scored.final_row()
    return [
        {
            "seat": p,
            "entry": entries[p],
            "name": protocol.players[p],
            "exact": str(scored.settlement.exact[p]),
            "whists": str(scored.settlement.totals[p]),
            "pulya": final[p].pulya,
            "gora": final[p].gora,
        }
        for p in range(protocol.size)
    ]


def make_event(*, players: int = 9, slug: str = "cup", **fields: Any) -> tuple[Event, list[Entry]]:
    event = Event.objects.create(
        slug=slug,
        name=fields.pop("name", "Winter Cup"),
        starts_on=dt.date(2026, 12, 5),
        ends_on=dt.date(2026, 12, 6),
        published=True,
        **fields,
    )
    made = Player.objects.bulk_create(
        [Player(name=f"Игрок {i:04d}", club=f"Club {i % 7}", city="Sochi") for i in range(players)]
    )
    entries = Entry.objects.bulk_create(
        [Entry(event=event, player=p, status=Entry.Status.CHECKED_IN) for p in made]
    )
    return event, entries


def play_round(
    event: Event,
    entries: list[Entry],
    number: int,
    *,
    rng: random.Random,
    approve: bool | float = True,
    target: int = 10,
    protocols: bool = True,
    family: str | None = None,
) -> tuple[Round, list[Table]]:
    """Draw ``entries`` at random to tables of three (and of four where the count requires) and
    store a random protocol per table; ``approve``: True, False, or the share approved.

    ``family``: a rule family's key (``scoring.variants.VARIANTS``) whose random games of the
    event's convention are stored instead of Russian pulkas (Priffe: tables of four only)."""
    rnd = Round.objects.create(event=event, number=number, state=Round.State.CLOSED)
    order = list(entries)
    rng.shuffle(order)
    if family is not None:
        return _play_family_round(
            event, rnd, order, family, rng=rng, approve=approve, target=target
        )
    sizes = [3] * (len(order) // 3)
    for i in range(len(order) % 3):
        sizes[i] += 1
    generated = [random_protocol(rng, players=n, target=target) for n in sizes]
    tables = Table.objects.bulk_create(
        [
            Table(round=rnd, number=i + 1, first_dealer=g.first_dealer)
            for i, g in enumerate(generated)
        ]
    )
    seats: list[Seat] = []
    rows: list[Protocol] = []
    start = 0
    for table, n, g in zip(tables, sizes, generated, strict=True):
        at = order[start : start + n]
        start += n
        seats.extend(Seat(round=rnd, table=table, position=p, entry=e) for p, e in enumerate(at))
        if not protocols:
            continue
        g = dataclasses.replace(g, players=tuple(e.player.name for e in at))
        approved = approve if isinstance(approve, bool) else rng.random() < approve
        rows.append(
            Protocol(
                table=table,
                version=1,
                data=to_dict(g),
                result=result_of(g, [e.pk for e in at]),
                is_current=True,
                approved=approved,
            )
        )
    Seat.objects.bulk_create(seats)
    Protocol.objects.bulk_create(rows)
    return rnd, tables


def _play_family_round(
    event: Event,
    rnd: Round,
    order: list[Entry],
    family: str,
    *,
    rng: random.Random,
    approve: bool | float,
    target: int,
) -> tuple[Round, list[Table]]:
    """:func:`play_round` for another family: its own random games, stored as the protocol
    service stores them (``data`` its JSON, ``result`` its adapter's result rows)."""
    from scoring.variants import VARIANTS
    from tournaments.variants import ui_for

    variant, ui = VARIANTS[family], ui_for(family)
    size = 4 if ui.partnerships else 3
    sizes = [size] * (len(order) // size)
    generated = [
        variant.random_protocol(rng, convention=event.variant, players=size, target=target)
        for _ in sizes
    ]
    tables = Table.objects.bulk_create(
        [
            Table(round=rnd, number=i + 1, first_dealer=g.first_dealer)
            for i, g in enumerate(generated)
        ]
    )
    seats: list[Seat] = []
    rows: list[Protocol] = []
    for k, (table, g) in enumerate(zip(tables, generated, strict=True)):
        at = order[k * size : (k + 1) * size]
        seats.extend(Seat(round=rnd, table=table, position=p, entry=e) for p, e in enumerate(at))
        g = dataclasses.replace(g, players=tuple(e.player.name for e in at))
        result = [
            {**row, "seat": p, "entry": at[p].pk, "name": g.players[p]}
            for p, row in enumerate(ui.result_rows(g))
        ]
        approved = approve if isinstance(approve, bool) else rng.random() < approve
        rows.append(
            Protocol(
                table=table,
                version=1,
                data=variant.to_dict(g),
                result=result,
                is_current=True,
                approved=approved,
            )
        )
    Seat.objects.bulk_create(seats)
    Protocol.objects.bulk_create(rows)
    return rnd, tables
