"""The demo's pot-game event: a Viennese Préférence club evening (seed 000, the Swedish text on
the Austrian game) with ten players, so every round has two tables of three and one of four
(where the dealer antes and sits out, 000 "Spel på fyra personer"). Round 1 is played, checked,
confirmed and approved, and closed; round 2 is in play, with one table's ledger stored with a
finding (tricks that do not add up, shown next to the deal); the standings rank the players by
their nets in chips, the pot left at each table shared equally (the ``pot_end`` option's default,
which the standings page states). Idempotent.

Everything goes through the same services and the variant registry as the other demo events:
only the convention differs.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from typing import Any

from django.db import transaction

from tournaments.demo.protocols import _approved, _referee, started_round
from tournaments.models import Event, EventRole, Protocol, Round, Table
from tournaments.services.entries import entries_import_csv
from tournaments.services.events import event_create
from tournaments.services.protocols import protocol_save, table_header
from tournaments.services.rounds import (
    round_close,
)
from tournaments.services.standings import standings_recompute
from tournaments.variants import event_variant, ui_of_event

__all__ = ["POT_SLUG", "POT_TIEBREAKS", "demo_pot_event"]

POT_SLUG = "demo-wien"

POT_PLAYERS = """name,club,city,rating,federation_id
Astrid Lindqvist,Hjärter,Uppsala,1640,SE-3001
Bengt Holm,Hjärter,Uppsala,1585,SE-3002
Cecilia Ek,Hjärter,Uppsala,1712,SE-3003
Dag Sjöberg,Kortet,Stockholm,1598,SE-3004
Elin Nyström,Kortet,Stockholm,1667,SE-3005
Fredrik Berg,Kortet,Stockholm,1623,SE-3006
Greta Wahl,Kortet,Stockholm,1551,SE-3007
Hans Lund,Trumf,Västerås,1690,SE-3008
Ingrid Falk,Trumf,Västerås,1604,SE-3009
Johan Strand,Trumf,Västerås,1572,SE-3010
"""

#: the tie-breaks that make sense for the pot games (docs/rule-families.md): the results
#: against the tied players, then fewer contracts lost and fewer falls as a going defender
#: (000 "Betalning"), then the best single round
POT_TIEBREAKS = ["head_to_head", "games_lost", "defences_failed", "best_round"]

#: deals a table plays in the demo (a club evening's table plays until the round's time ends)
MIN_DEALS = 6


@transaction.atomic
def demo_pot_event(*, organiser) -> Event:
    """The club evening, created once; running it again changes nothing."""
    event = Event.objects.filter(slug=POT_SLUG).first()
    if event is not None:
        return event
    event = event_create(
        slug=POT_SLUG,
        name="Wienerpreferans — klubbkväll",
        starts_on=dt.date(2026, 12, 18),
        venue="Preferansklubben Hjärter, Uppsala",
        variant="viennese",
        table_size_policy="mixed",
        # the seed's example: base stake 10, maximum amount 30 (000 "Förberedelser")
        convention_options={"base_stake": 10, "max_amount": 30},
        rounds_planned=3,
        published=True,
        round_time_limit=90,
        tiebreaks=POT_TIEBREAKS,
        by=organiser,
    )
    EventRole.objects.get_or_create(event=event, user=organiser, role=EventRole.Role.CHIEF_REFEREE)
    entries_import_csv(event=event, text=POT_PLAYERS, by=organiser)
    referee = _referee(event)
    for number in (1, 2):
        round_ = started_round(event, organiser)
        for table in round_.tables.order_by("number"):
            game = _ledger(event, table, 700 * number + table.number)
            if number == 1:
                _approved(table, game, referee)
            elif table.number == 1:  # in play: a hand whose tricks do not add up
                protocol_save(
                    table=table,
                    protocol=_with_a_wrong_trick_count(game),
                    based_on_version=None,
                    source=Protocol.Source.TABLE_LINK,
                )
        if number == 1:
            round_close(round_=round_, by=organiser)
    standings_recompute(event_id=event.pk)
    assert Round.objects.filter(event=event).count() == 2
    return event


def _ledger(event: Event, table: Table, seed: int) -> Any:
    """A legal game of at least :data:`MIN_DEALS` deals at ``table`` (its seats, first dealer and
    the event's rules and options), without referee's penalty entries."""
    header = table_header(table)
    variant = event_variant(event)
    ui = ui_of_event(event)
    options = tuple(sorted((event.convention_options or {}).items()))
    rng = random.Random(seed)
    for _ in range(2000):
        p = variant.random_protocol(
            rng, convention=event.variant, players=header.size, target=event.pulka_target,
            options=options,
        )  # fmt: skip
        if (
            p.first_dealer == table.first_dealer
            and len(p.deals) >= MIN_DEALS
            and not any(ui.is_penalty(d) for d in p.deals)
            and variant.check(p).ok
        ):
            return dataclasses.replace(
                p, players=header.players, convention=header.convention, options=header.options
            )
    raise AssertionError("no generated game with this first dealer")


def _with_a_wrong_trick_count(game: Any) -> Any:
    """``game`` up to its first played hand, where a player who took some tricks (but not all
    ten) is written one trick too many: eleven in all."""
    for k, deal in enumerate(game.deals):
        tricks = getattr(deal, "tricks", None)
        if not tricks or getattr(deal, "declarer", None) is None:
            continue
        seat = next((i for i, t in enumerate(tricks) if 0 < t < 10), None)
        if seat is not None:
            wrong = tuple(t + (i == seat) for i, t in enumerate(tricks))
            return game.with_deals((*game.deals[:k], dataclasses.replace(deal, tricks=wrong)))
    raise AssertionError("no played hand in the generated game")
