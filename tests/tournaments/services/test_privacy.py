"""A person's data (issue 39, privacy): everything Pulka holds exported, and his personal data
erased while the results stay, anonymised — the standings and the series table do not change;
both logged; the organisers' page does it."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.errors import UserFacingError
from tournaments.models import (
    Entry,
    EventRole,
    Organisation,
    PersonLogEntry,
    Protocol,
    SeriesStandingsSnapshot,
)
from tournaments.selectors.standings import snapshot_data
from tournaments.services import series as series_services
from tournaments.services.persons import person_new
from tournaments.services.privacy import person_erase, person_export
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    persons = [
        person_new(name=f"Ana Kovač {i}", club="Čakovec", federation_id=f"HR-{i}") for i in range(6)
    ]
    events = []
    for n in (1, 2):
        event, entries = make_event(players=6, slug=f"vecer-{n}", rounds_planned=1)
        for entry, person in zip(entries, persons, strict=True):
            entry.player.name = person.name
            entry.player.federation_id = f"{person.federation_id}-{n}"
            entry.player.save()
            Entry.objects.filter(pk=entry.pk).update(person=person)
        play_round(event, entries, 1, rng=random.Random(n))
        standings_recompute(event_id=event.pk)
        events.append(event)
    league = Organisation.objects.create(slug="mpl", name="Liga", kind="league")
    series = series_services.series_create(
        organisation=league, slug="liga", name="Liga", family="russian"
    )
    for event in events:
        series_services.series_event_add(series=series, event=event)
    series_services.series_standings_recompute(series_id=series.pk)
    return persons, events, series


def totals(event):
    standings_recompute(event_id=event.pk)
    data = snapshot_data(event.standings_snapshot)
    return [(r["entry"], r["place"], r["total"]) for r in data["rows"]]


def series_rows(series):
    series_services.series_standings_recompute(series_id=series.pk)
    data = SeriesStandingsSnapshot.objects.get(series=series).data
    return [(r["person"], r["place_label"], r["total"]) for r in data["rows"]]


def test_the_export_holds_the_record_entries_results_protocols_and_log(season):
    persons, events, _series = season
    document = person_export(person=persons[0])
    json.dumps(document)  # JSON-ready
    assert document["person"]["name"] == "Ana Kovač 0"
    assert [e["event"] for e in document["entries"]] == ["vecer-1", "vecer-2"]
    assert all(e["player"]["name"] == "Ana Kovač 0" for e in document["entries"])
    assert len(document["seats"]) == 2 and len(document["protocols"]) >= 2
    assert document["series"][0]["series"] == "liga"
    assert PersonLogEntry.objects.filter(person=persons[0], action="person.exported").exists()


def test_erasing_keeps_the_results_and_removes_the_name_everywhere(season):
    persons, events, series = season
    before = [totals(e) for e in events], series_rows(series)
    person = person_erase(person=persons[0])
    assert person.name == f"Anonymous {person.pk}" and person.erased_at is not None
    assert person.club == person.federation_id == ""
    # the results, standings and series table are what they were
    assert ([totals(e) for e in events], series_rows(series)) == before
    # the name is nowhere: players' records, protocols, stored standings
    for entry in Entry.objects.filter(person=person).select_related("player"):
        assert entry.player.name == person.name and entry.player.federation_id == ""
    for protocol in Protocol.objects.all():
        text = json.dumps([protocol.data, protocol.result], ensure_ascii=False)
        assert "Ana Kovač 0" not in text
    for event in events:
        assert "Ana Kovač 0" not in json.dumps(snapshot_data(event.standings_snapshot))
    assert PersonLogEntry.objects.get(person=person, action="person.erased").data["entries"]
    with pytest.raises(UserFacingError):
        person_erase(person=person)


def test_the_organisers_page_exports_and_erases(client, season):
    persons, events, _series = season
    organiser = UserFactory()
    EventRole.objects.create(event=events[0], user=organiser, role="organiser")
    url = reverse("person-manage", args=[persons[1].pk])
    assert client.get(url).status_code == 302  # a login first
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403  # not an organiser of his events
    client.force_login(organiser)
    assert "Ana Kovač 1" in client.get(url).content.decode()
    exported = client.get(reverse("person-export", args=[persons[1].pk]))
    assert json.loads(exported.content)["person"]["name"] == "Ana Kovač 1"
    client.post(url, {"action": "shown_as", "shown_as": "initials"})
    persons[1].refresh_from_db()
    assert persons[1].shown_as == "initials"
    client.post(url, {"action": "erase"})  # not confirmed: nothing erased
    persons[1].refresh_from_db()
    assert persons[1].erased_at is None
    client.post(url, {"action": "erase", "confirm": "erase"})
    persons[1].refresh_from_db()
    assert persons[1].erased_at is not None
    page = client.get(reverse("person", args=[persons[1].pk])).content.decode()
    assert "Ana Kovač 1" not in page and f"Anonymous {persons[1].pk}" in page
