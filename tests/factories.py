"""factory_boy factories for the Django models (HackSoft ``common/factories.py``)."""

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Entry, Event, Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    slug = factory.Sequence(lambda n: f"event-{n}")
    name = factory.Sequence(lambda n: f"Cup {n}")
    starts_on = dt.date(2026, 12, 5)
    ends_on = dt.date(2026, 12, 6)
    variant = "sochi"
    pulka_target = 20
    rounds_planned = 6
    published = True


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n:03d}")
    club = ""


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)
    status = Entry.Status.CHECKED_IN
