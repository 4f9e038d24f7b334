"""The demo's standings step is idempotent and leaves standings and every kind of PDF."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.demo.standings import DEMO_TIEBREAKS, demo_standings
from tournaments.models import GeneratedFile, StandingsSnapshot

pytestmark = pytest.mark.django_db(transaction=True)  # the documents render after each commit


def test_demo_standings_is_idempotent(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    event, entries = make_event(players=6, slug="demo-test")
    rng = random.Random(1)
    play_round(event, entries, 1, rng=rng)
    play_round(event, entries, 2, rng=rng, approve=False)
    demo_standings(event)
    event.refresh_from_db()
    assert event.tiebreaks == DEMO_TIEBREAKS
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.status == "ok" and len(snapshot.data["rows"]) == 6
    files = {
        (f.kind, f.round_id, f.table_id): (f.pk, f.rendered_at)
        for f in GeneratedFile.objects.filter(event=event)
    }
    assert {k[0] for k in files} == {"standings", "seating", "blank", "filled"}
    assert all(f.status == "ok" and f.file for f in GeneratedFile.objects.filter(event=event))
    assert sum(1 for k in files if k[0] == "filled") == 2  # the approved tables of round 1
    demo_standings(event)
    again = {
        (f.kind, f.round_id, f.table_id): (f.pk, f.rendered_at)
        for f in GeneratedFile.objects.filter(event=event)
    }
    assert again == files  # nothing rendered twice
    assert StandingsSnapshot.objects.get(event=event).data == snapshot.data
