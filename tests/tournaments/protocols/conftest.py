"""Fixtures for the protocol tests: an event with a round, a table of three and its people."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.models import EventRole, Round, Seat, Table

NAMES = ("Anna", "Boris", "Vera")


@dataclass
class TableSetup:
    event: object
    round: Round
    table: Table
    entries: list
    referee: object
    chief: object
    appeals: object


def make_table(
    *, double_entry: bool = False, target: int = 10, slug: str | None = None, names=NAMES
) -> TableSetup:
    kwargs = {"slug": slug} if slug else {}
    event = EventFactory(pulka_target=target, double_entry=double_entry, **kwargs)
    round_ = Round.objects.create(event=event, number=1, state=Round.State.IN_PLAY)
    table = Table.objects.create(round=round_, number=1, first_dealer=0)
    entries = []
    for position, name in enumerate(names):
        entry = EntryFactory(event=event, player=PlayerFactory(name=name))
        Seat.objects.create(round=round_, table=table, position=position, entry=entry)
        entries.append(entry)
    referee = UserFactory(username=f"ref-{event.slug}")
    chief = UserFactory(username=f"chief-{event.slug}")
    appeals = UserFactory(username=f"appeals-{event.slug}")
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=event, user=chief, role=EventRole.Role.CHIEF_REFEREE)
    EventRole.objects.create(event=event, user=appeals, role=EventRole.Role.APPEALS)
    return TableSetup(event, round_, table, entries, referee, chief, appeals)


@pytest.fixture
def setup(db) -> TableSetup:
    return make_table()


# The pages' forms, as the tests post them.


def deal_form(based_on: str, kind: str, **fields) -> dict:
    """The table link's form adding a deal (``action`` add unless given) on ``based_on``."""
    return {"based_on_version": based_on, "action": "add", "kind": kind, **fields}


def raspasy(based_on: str, *tricks: str, **fields) -> dict:
    """An all-pass deal with each player's tricks (seats 0, 1, 2)."""
    taken = {f"tricks_{i}": t for i, t in enumerate(tricks)}
    return deal_form(based_on, "raspasy", **taken, **fields)


def incident_form(description: str, seats=("1",), deal: str = "3") -> dict:
    """The incidents page's form recording an incident at deal ``deal``."""
    return {"action": "incident", "deal": deal, "seats": list(seats), "description": description}


def talon_peek_ruling(incident, **fields) -> dict:
    """The incidents page's ruling form: Boris (seat 1) looked at the talon (3.2.21)."""
    return {
        "action": "ruling",
        "incident": str(incident.pk),
        "kind": "catalogue",
        "penalty_code": "TALON_PEEK",
        "seat": "1",
        "reason": "seen",
        **fields,
    }


if os.environ.get("PULKA_TEST_DB_SUFFIX"):
    # Several engineers share one PostgreSQL: a suffix keeps a local run's test database apart.
    @pytest.fixture(scope="session")
    def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
        from django.conf import settings

        test = settings.DATABASES["default"].setdefault("TEST", {})
        test["NAME"] = f"{test.get('NAME') or 'test_pulka'}_{os.environ['PULKA_TEST_DB_SUFFIX']}"
