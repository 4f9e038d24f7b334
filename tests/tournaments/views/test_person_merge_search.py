"""Merging two records of one person from the organisation's page (issue 39): the organiser
finds the two records by name, club or federation id, sees what the merge will do, confirms;
the merge is logged and the series' table follows (equal to a recomputation)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.services.test_series import expected_table, rows_of, stored_rows
from tests.tournaments.views.test_series_pages import evening
from tournaments.models import Entry, Organisation, OrganisationRole, Person, PersonLogEntry
from tournaments.services import series as service
from tournaments.services.persons import person_new
from tournaments.standings.series import rules_from_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return Organisation.objects.create(slug="mpl", name="Međimurska liga", kind="league")


@pytest.fixture
def organiser(league):
    user = UserFactory()
    OrganisationRole.objects.create(organisation=league, user=user, role="organiser")
    return user


@pytest.fixture
def season(league):
    """Ana Kovač played the first evening; at the second she was registered again, spelt
    without accents and with her federation id: two records of one person."""
    persons = [person_new(name=f"Igrač Broj{i}", club="Čakovec") for i in range(5)]
    ana = person_new(name="Ana Kovač", club="Čakovec")
    again = person_new(name="Ana Kovac", club="", city="Čakovec", federation_id="HR-0042")
    one = evening(1, [ana, *persons], league)
    two = evening(2, [again, *persons], league)
    series = service.series_create(
        organisation=league, slug="liga", name="Liga 2026", family="russian"
    )
    for event in (one, two):
        service.series_event_add(series=series, event=event)
    service.series_update(series=series, published=True)
    service.series_standings_recompute(series_id=series.pk)
    return series, (one, two), ana, again


def test_the_organiser_finds_sees_and_confirms_a_merge(client, organiser, season):
    series, (one, two), ana, again = season
    url = reverse("persons-merge", args=["mpl"])
    client.force_login(organiser)
    assert len(stored_rows(series)) == 7  # Ana twice

    # found by name (without accents or case), by federation id, by club
    found = client.get(url, {"q": "ana kovac"}).content.decode()
    assert 'id="persons-found"' in found
    assert f'name="keep" value="{ana.pk}"' in found and f'name="drop" value="{again.pk}"' in found
    assert "Večer 1" in found and "Večer 2" in found
    by_id = client.get(url, {"q": "hr-0042"}).content.decode()
    assert f'value="{again.pk}"' in by_id and f'value="{ana.pk}"' not in by_id
    # by club: the five and Ana's first record (the second gave a city, not a club)
    assert client.get(url, {"q": "čakovec"}).content.decode().count('name="keep"') == 6

    # what the merge will do, before anything is written
    preview = client.post(url, {"keep": ana.pk, "drop": again.pk}).content.decode()
    assert 'id="merge-preview"' in preview and 'id="merge-confirm"' in preview
    assert "The kept record takes the federation id “HR-0042”." in preview
    assert "The kept record takes the city “Čakovec”." in preview
    assert "1 event moves to the kept record." in preview and "Liga 2026" in preview
    assert Person.objects.filter(pk=again.pk).exists()
    assert not PersonLogEntry.objects.exists()

    merged = client.post(url, {"keep": ana.pk, "drop": again.pk, "confirm": "1"})
    assert merged.status_code == 302 and merged["Location"] == reverse("person", args=[ana.pk])
    assert not Person.objects.filter(pk=again.pk).exists()
    ana.refresh_from_db()
    assert (ana.federation_id, ana.city, ana.club) == ("HR-0042", "Čakovec", "Čakovec")
    assert set(Entry.objects.filter(person=ana).values_list("event_id", flat=True)) == {
        one.pk,
        two.pk,
    }
    log = PersonLogEntry.objects.get(person=ana, action="person.merged")
    assert log.user_id == organiser.pk
    assert log.data["merged"]["id"] == again.pk

    # the series follows: its job's table equals one computed straight from the events
    service.series_standings_recompute(series_id=series.pk)
    rules = rules_from_fields(
        points="place_points", place_points=[], best_of=None, min_events=1, tiebreaks=None
    )
    assert stored_rows(series) == rows_of(expected_table([one, two], rules))
    assert len(stored_rows(series)) == 6


def test_a_merge_of_two_players_of_one_evening_is_refused_before_and_at_the_confirmation(
    client, organiser, season
):
    _series, (one, _two), ana, _again = season
    other = Entry.objects.filter(event=one).exclude(person=ana).first().person
    url = reverse("persons-merge", args=["mpl"])
    client.force_login(organiser)
    preview = client.post(url, {"keep": ana.pk, "drop": other.pk}).content.decode()
    assert "Both records are entered in Večer 1" in preview and 'id="merge-confirm"' not in preview
    forced = client.post(url, {"keep": ana.pk, "drop": other.pk, "confirm": "1"})
    assert forced.status_code == 200
    assert "Both records are entered in Večer 1" in forced.content.decode()
    assert Person.objects.filter(pk=other.pk).exists()


def test_the_search_shows_only_the_persons_of_the_organisers_events(client, season):
    _series, _events, ana, _again = season
    stranger = Organisation.objects.create(slug="other", name="Drugi klub")
    user = UserFactory()
    OrganisationRole.objects.create(organisation=stranger, user=user, role="organiser")
    client.force_login(user)
    page = client.get(reverse("persons-merge", args=["other"]), {"q": "ana"}).content.decode()
    assert f'value="{ana.pk}"' not in page and "Nobody found." in page
