"""The demo's league (issue 39): the Međimurska liga's first evening as before, two more
evenings played, a fourth scheduled, the same players recognised as the same persons, and the
league table (provisional while the first evening's third round is in play); the Russian cup in
a small federation cup of two events."""

from __future__ import annotations

import random

import pytest

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.demo.balkan import demo_balkan_event
from tournaments.demo.league import CUP_SLUG, LEAGUE_SLUG, demo_balkan_league, demo_federation_cup
from tournaments.models import Entry, Person, SeriesStandingsSnapshot
from tournaments.selectors.series import series_table
from tournaments.services.persons import person_new
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def test_the_balkan_league_has_three_evenings_played_and_a_fourth_scheduled():
    organiser = UserFactory(username="org")
    first = demo_balkan_event(organiser=organiser)
    series = demo_balkan_league(organiser=organiser, first=first)
    assert series.slug == LEAGUE_SLUG and series.published and series.family == "balkan"
    table = series_table(series=series)
    assert [e["slug"] for e in table["events"]] == [
        "demo-liga",
        "demo-liga-2",
        "demo-liga-3",
        "demo-liga-4",
    ]
    assert [e["final"] for e in table["events"]] == [False, True, True, False]
    assert [e["players"] for e in table["events"]] == [9, 9, 9, 0]
    assert not table["final"]  # the first evening's third round is in play; the fourth waits
    # the nine players came back: nine persons, three entries each, one row each
    assert Person.objects.count() == 9
    assert all(Entry.objects.filter(person=p).count() == 3 for p in Person.objects.all())
    assert len(table["rows"]) == 9 and table["unlinked"] == 0
    for row in table["rows"]:
        assert row["events_played"] == 3
        assert sum(1 for c in row["cells"] if c and c["counted"]) == 3  # best three of four
    assert table["rows"][0]["place"] == 1
    snapshot = SeriesStandingsSnapshot.objects.get(series=series)
    assert demo_balkan_league(organiser=organiser, first=first).pk == series.pk  # idempotent
    assert SeriesStandingsSnapshot.objects.get(series=series).data == snapshot.data


def test_the_russian_cup_joins_a_small_federation_cup_of_two_events():
    organiser = UserFactory(username="org")
    cup, entries = make_event(players=6, slug="demo-cup", rounds_planned=1)
    for i, entry in enumerate(entries):
        Entry.objects.filter(pk=entry.pk).update(person=person_new(name=f"Игрок {i}"))
    play_round(cup, entries, 1, rng=random.Random(1))
    standings_recompute(event_id=cup.pk)
    series = demo_federation_cup(organiser=organiser, first=cup)
    assert series.slug == CUP_SLUG and series.published and series.family == "russian"
    table = series_table(series=series)
    assert [(e["category"], e["weight"]) for e in table["events"]] == [("A", "1.5"), ("B", "1")]
    assert not table["final"] and len(table["rows"]) == 6
    assert table["rows"][0]["total"] == 25 * 1.5  # the winner's 25 points, category A
    assert demo_federation_cup(organiser=organiser, first=cup).pk == series.pk  # idempotent
