"""The demo's Balkan event: a league evening in Croatian rules ("bula 30, tri kola"), nine
players at tables of three, two rounds played, checked and approved, a third in play with a
protocol that has a finding; its standings ranked by the settlement (idempotent).

Everything goes through the same services as the Russian demo: only the convention differs.
"""

from __future__ import annotations

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

__all__ = ["BALKAN_SLUG", "balkan_evening", "demo_balkan_event"]

BALKAN_SLUG = "demo-liga"

BALKAN_PLAYERS = """name,club,city,rating,federation_id
Ana Horvat,Bundeva,Čakovec,1650,HR-2001
Branko Novak,Bundeva,Čakovec,1610,HR-2002
Cvijeta Kovač,Žir,Varaždin,1702,HR-2003
Dario Babić,Žir,Varaždin,1588,HR-2004
Ema Marić,Srce,Zagreb,1675,HR-2005
Filip Jurić,Srce,Zagreb,1620,HR-2006
Goran Knežević,List,Prelog,1594,HR-2007
Helena Vuković,List,Prelog,1733,HR-2008
Ivan Pavlović,Bundeva,Čakovec,1566,HR-2009
"""

#: the tie-breaks that make sense for the Balkan family (docs/rule-families.md)
BALKAN_TIEBREAKS = ["head_to_head", "games_lost", "defences_failed", "best_round"]


@transaction.atomic
def demo_balkan_event(*, organiser) -> Event:
    """The league evening, created once; running it again changes nothing."""
    event = Event.objects.filter(slug=BALKAN_SLUG).first()
    if event is not None:
        return event
    event = balkan_evening(
        slug=BALKAN_SLUG,
        name="Međimurska liga — večer 1",
        day=dt.date(2026, 12, 11),
        organiser=organiser,
        seed=500,
        in_play=True,
    )
    assert Round.objects.filter(event=event).count() == 3
    return event


def balkan_evening(
    *, slug: str, name: str, day: dt.date, organiser, seed: int, in_play: bool, organisation=None
) -> Event:
    """A league evening of the nine players: three rounds, the first two approved and closed;
    the third in play with a finding at table 1 (``in_play``), or approved and closed too."""
    event = event_create(
        slug=slug,
        name=name,
        starts_on=day,
        venue="Klub «Bundeva», Čakovec",
        variant="croatian",
        pulka_target=30,
        rounds_planned=3,
        published=True,
        round_time_limit=60,
        tiebreaks=BALKAN_TIEBREAKS,
        organisation=organisation,
        by=organiser,
    )
    EventRole.objects.get_or_create(event=event, user=organiser, role=EventRole.Role.CHIEF_REFEREE)
    entries_import_csv(event=event, text=BALKAN_PLAYERS, by=organiser)
    referee = _referee(event)
    for number in (1, 2, 3):
        round_ = started_round(event, organiser)
        last = in_play and number == 3
        for table in round_.tables.order_by("number"):
            game = _pulka(event, table, seed * number + table.number)
            if not last:
                _approved(table, game, referee)
            elif table.number == 1:  # in play: a hand whose tricks do not add up
                hands = [i for i, d in enumerate(game.deals) if getattr(d, "tricks", None)]
                if hands:
                    k = hands[0]
                    deal = game.deals[k]
                    wrong = (deal.tricks[0] + 1, *deal.tricks[1:])
                    bad = game.deals[:k] + (type(deal)(**{**_fields(deal), "tricks": wrong}),)
                    protocol_save(
                        table=table,
                        protocol=game.with_deals(bad),
                        based_on_version=None,
                        source=Protocol.Source.TABLE_LINK,
                    )
        if not last:
            round_close(round_=round_, by=organiser)
    standings_recompute(event_id=event.pk)
    return event


def _fields(deal: object) -> dict[str, object]:
    return {name: getattr(deal, name) for name in deal.__dataclass_fields__}  # type: ignore[attr-defined]
