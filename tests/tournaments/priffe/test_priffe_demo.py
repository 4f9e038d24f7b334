"""The demo's Priffe evening (issue 27): played, confirmed and approved tables of four, a table
in play with a finding, standings by the player totals."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tournaments.demo.priffe import PRIFFE_SLUG, demo_priffe_event
from tournaments.models import Protocol, StandingsSnapshot

pytestmark = pytest.mark.django_db


def test_the_priffe_evening_is_played_at_tables_of_four_and_ranked(client):
    organiser = UserFactory(username="org")
    event = demo_priffe_event(organiser=organiser)
    assert event.slug == PRIFFE_SLUG and event.variant == "modern"
    assert event.table_size_policy == "4"
    assert all(t.seats.count() == 4 for r in event.rounds.all() for t in r.tables.all())
    approved = Protocol.objects.filter(table__round__event=event, approved=True)
    assert approved.count() == 4 and all(p.error_count == 0 for p in approved)
    assert all(p.confirmations.count() == 4 for p in approved)
    flawed = Protocol.objects.filter(table__round__event=event, table__round__number=3)
    assert flawed.count() == 1 and "TRICKS_SUM" in {f["code"] for f in flawed.get().findings}
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.status == "ok" and len(snapshot.data["rows"]) == 8
    assert demo_priffe_event(organiser=organiser).pk == event.pk  # idempotent
    html = client.get(f"/sv/e/{event.slug}/standings/").content.decode()
    assert "Anna Lindqvist" in html
