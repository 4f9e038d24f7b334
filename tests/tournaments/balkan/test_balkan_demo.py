"""The demo's Balkan league evening (issue 24 §4): played and checked protocols, standings."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tournaments.demo.balkan import BALKAN_SLUG, demo_balkan_event
from tournaments.models import Protocol, StandingsSnapshot

pytestmark = pytest.mark.django_db


def test_the_league_evening_is_played_in_croatian_rules_and_ranked():
    organiser = UserFactory(username="org")
    event = demo_balkan_event(organiser=organiser)
    assert event.slug == BALKAN_SLUG and event.variant == "croatian"
    assert event.table_size_policy == "3"
    assert all(t.seats.count() == 3 for r in event.rounds.all() for t in r.tables.all())
    approved = Protocol.objects.filter(table__round__event=event, approved=True)
    assert approved.count() == 6 and all(p.error_count == 0 for p in approved)
    flawed = Protocol.objects.filter(table__round__event=event, table__round__number=3)
    assert flawed.count() == 1 and flawed.get().error_count >= 1
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.status == "ok" and len(snapshot.data["rows"]) == 9
    assert demo_balkan_event(organiser=organiser).pk == event.pk  # idempotent
