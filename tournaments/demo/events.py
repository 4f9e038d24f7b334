"""The demo event: players, drawn rounds in several states (idempotent)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.demo.protocols import started_round
from tournaments.models import Event, EventRole
from tournaments.services.entries import entries_import_csv
from tournaments.services.events import event_create
from tournaments.services.rounds import (
    round_close,
    round_commit_seed,
    round_create,
)

DEMO_SLUG = "demo-cup"

# 26 players: 6 tables of three and 2 of four (001 §3.2.10) in every round.
DEMO_PLAYERS = """name,club,city,rating,federation_id
Анна Белова,Ферзь,Москва,1712,RU-1001
Борис Виноградов,Ферзь,Москва,1650,RU-1002
Вера Гусева,Мизер,Санкт-Петербург,1803,RU-1003
Глеб Давыдов,Мизер,Санкт-Петербург,1588,RU-1004
Дарья Егорова,Распасы,Сочи,1699,RU-1005
Евгений Жуков,Распасы,Сочи,1745,RU-1006
Жанна Зайцева,Ферзь,Москва,1520,RU-1007
Захар Ильин,Вист,Ростов-на-Дону,1633,RU-1008
Ирина Королёва,Вист,Ростов-на-Дону,1777,RU-1009
Кирилл Лебедев,Мизер,Санкт-Петербург,1601,RU-1010
Лариса Морозова,Распасы,Сочи,1555,RU-1011
Максим Новиков,Ферзь,Москва,1690,RU-1012
Нина Орлова,Вист,Ростов-на-Дону,1622,RU-1013
Олег Павлов,Мизер,Санкт-Петербург,1710,RU-1014
Полина Романова,Распасы,Сочи,1580,RU-1015
Роман Соколов,Вист,Ростов-на-Дону,1666,RU-1016
Светлана Тихонова,Ферзь,Москва,1740,RU-1017
Тимур Ушаков,Мизер,Санкт-Петербург,1599,RU-1018
Ульяна Фёдорова,Распасы,Сочи,1611,RU-1019
Фёдор Харитонов,Вист,Ростов-на-Дону,1705,RU-1020
Христина Цветкова,Ферзь,Москва,1560,RU-1021
Цезарь Чернов,Мизер,Санкт-Петербург,1680,RU-1022
Чеслава Шубина,Распасы,Сочи,1725,RU-1023
Шамиль Щербаков,Вист,Ростов-на-Дону,1640,RU-1024
Alice Archer,Kings,Riga,1650,LV-0001
Bob Brown,Kings,Riga,1615,LV-0002
"""


@transaction.atomic
def demo_event(*, organiser) -> Event:
    """The demo cup: 26 players, round 1 and 2 published and played, round 3 in play."""
    event = Event.objects.filter(slug=DEMO_SLUG).first()
    if event is not None:
        return event
    event = event_create(
        slug=DEMO_SLUG,
        name="Pulka Demo Cup",
        starts_on=dt.date(2026, 12, 5),
        ends_on=dt.date(2026, 12, 6),
        venue="Club «Ферзь», Moscow",
        variant="sochi",
        pulka_target=20,
        rounds_planned=6,
        published=True,
        round_time_limit=180,
        tiebreaks=["raspasy_won", "remizes", "head_to_head"],
        by=organiser,
    )
    EventRole.objects.get_or_create(event=event, user=organiser, role=EventRole.Role.CHIEF_REFEREE)
    entries_import_csv(event=event, text=DEMO_PLAYERS, by=organiser)
    for number in (1, 2, 3):
        round_ = started_round(event, organiser)
        if number < 3:
            round_close(
                round_=round_,
                by=organiser,
                unfinished_reason="Demo: the protocols are entered from the paper sheets.",
            )
    # round 4: a draft, ready to draw; its seed's hash is published (the event's page shows it)
    round_commit_seed(round_=round_create(event=event, by=organiser), by=organiser)
    return event


def demo_referee(event: Event):
    """A table referee's account, ``referee`` / ``referee`` (no staff rights): what a referee
    sees after signing in at ``/accounts/login/``."""
    user, created = get_user_model().objects.get_or_create(username="referee")
    if created:
        user.set_password("referee")
        user.save()
    EventRole.objects.get_or_create(event=event, user=user, role=EventRole.Role.REFEREE)
    return user
