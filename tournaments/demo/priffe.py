"""The demo's Priffe event: a club evening of Swedish Priffe in the modern scoring (seed 004),
eight players at two tables of four, three sits a table so that everyone partners everyone; two
rounds played, confirmed and approved, a third in play with a deal whose tricks do not make 13;
its standings ranked by the player totals (idempotent).

Everything goes through the same services as the other demos: only the convention differs.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.db import transaction

from tournaments.demo.protocols import _approved, _pulka, _referee, started_round
from tournaments.models import Event, EventRole, Protocol, Round
from tournaments.services.entries import entries_import_csv
from tournaments.services.events import event_create
from tournaments.services.protocols import protocol_save
from tournaments.services.rounds import (
    round_close,
)
from tournaments.services.standings import standings_recompute

__all__ = ["PRIFFE_SLUG", "demo_priffe_event"]

PRIFFE_SLUG = "demo-priffe"

PRIFFE_PLAYERS = """name,club,city,rating,federation_id
Anna Lindqvist,Strecket,Uppsala,1640,SE-3001
Bertil Ek,Strecket,Uppsala,1585,SE-3002
Cecilia Holm,Sitsen,Västerås,1702,SE-3003
David Sjöberg,Sitsen,Västerås,1610,SE-3004
Elsa Nyström,Honnören,Örebro,1677,SE-3005
Fredrik Åberg,Honnören,Örebro,1598,SE-3006
Greta Wallin,Utgången,Gävle,1623,SE-3007
Hugo Berg,Utgången,Gävle,1560,SE-3008
"""

#: the tie-breaks that make sense for Priffe (docs/rule-families.md)
PRIFFE_TIEBREAKS = ["head_to_head", "sits_won", "games_won", "best_round"]


@transaction.atomic
def demo_priffe_event(*, organiser) -> Event:
    """The club evening, created once; running it again changes nothing."""
    event = Event.objects.filter(slug=PRIFFE_SLUG).first()
    if event is not None:
        return event
    event = event_create(
        slug=PRIFFE_SLUG,
        name="Priffeklubben — kväll 1",
        starts_on=dt.date(2026, 12, 12),
        venue="Klubblokalen, Uppsala",
        variant="modern",
        pulka_target=3,
        rounds_planned=3,
        published=True,
        round_time_limit=120,
        tiebreaks=PRIFFE_TIEBREAKS,
        by=organiser,
    )
    EventRole.objects.get_or_create(event=event, user=organiser, role=EventRole.Role.CHIEF_REFEREE)
    entries_import_csv(event=event, text=PRIFFE_PLAYERS, by=organiser)
    referee = _referee(event)
    for number in (1, 2, 3):
        round_ = started_round(event, organiser)
        for table in round_.tables.order_by("number"):
            game = _pulka(event, table, 700 * number + table.number)
            if number < 3:
                _approved(table, game, referee)
            elif table.number == 1:  # in play: a deal whose tricks do not make 13
                hands = [i for i, d in enumerate(game.deals) if getattr(d, "tricks", None)]
                k = hands[min(2, len(hands) - 1)]
                deal = game.deals[k]
                wrong = dataclasses.replace(deal, tricks=(deal.tricks[0], deal.tricks[1] + 1))
                protocol_save(
                    table=table,
                    protocol=game.with_deals((*game.deals[:k], wrong)),
                    based_on_version=None,
                    source=Protocol.Source.TABLE_LINK,
                )
        if number < 3:
            round_close(round_=round_, by=organiser)
    standings_recompute(event_id=event.pk)
    assert Round.objects.filter(event=event).count() == 3
    return event
