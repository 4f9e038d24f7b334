"""The hall's projector page and its state endpoint: public as the event, the round's seating
by name and the standings in pages, a new version when the round changes."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Round
from tournaments.services.audit import audit_log
from tournaments.services.standings import standings_recompute
from tournaments.views import hall

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(settings, tmp_path):
    event, entries = make_event(players=30)
    rng = random.Random(2)
    play_round(event, entries, 1, rng=rng)
    play_round(event, entries, 2, rng=rng)
    Round.objects.filter(event=event, number=2).update(state=Round.State.PUBLISHED)
    standings_recompute(event_id=event.pk)
    return event


def test_the_projector_shows_the_seating_by_name_and_the_standings_in_pages(client, event):
    response = client.get(reverse("hall", args=[event.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Round 2" in html and "tournaments/hall.js" in html
    # 30 names: two pages of seating (24 a page), three of standings (12 a page)
    assert html.count('data-kind="seating"') == 2
    assert html.count('data-kind="standings"') == 3
    names = sorted(e.player.name for e in event.entries.all())
    assert html.index(names[0]) < html.index(names[1])  # alphabetical


def test_the_state_answers_the_version_alone_until_something_changes(client, event):
    url = reverse("hall-state", args=[event.slug])
    first = client.get(url).json()
    assert "html" in first and 'data-kind="seating"' in first["html"]
    same = client.get(url, {"v": first["version"]}).json()
    assert same == {"version": first["version"]}
    Round.objects.filter(event=event, number=2).update(state=Round.State.IN_PLAY)
    started = client.get(url, {"v": first["version"]}).json()
    assert started["version"] != first["version"] and "In play" in started["html"]
    audit_log(event=event, action="seats.swapped", data={"round": 2})  # a swap is logged
    swapped = client.get(url, {"v": started["version"]}).json()
    assert swapped["version"] != started["version"]


def test_the_projector_is_public_only_for_a_published_event(client, event):
    event.published = False
    event.save()
    assert client.get(reverse("hall", args=[event.slug])).status_code == 404
    assert client.get(reverse("hall-state", args=[event.slug])).status_code == 404


def test_no_round_published_yet(client, settings):
    event, _ = make_event(players=6, slug="fresh")
    html = client.get(reverse("hall", args=[event.slug])).content.decode()
    assert 'data-kind="waiting"' in html
    assert hall.hall_version(event)[1] is None


def test_the_projector_shows_the_series_tables_of_the_event_in_its_rotation(client, event):
    """Issue 39: the hall of an event of a published league shows the league's table too, in
    pages of the standings' size, every ranked person on one of them; a new table is a new
    version of the screen."""
    from tournaments.models import Entry, Organisation
    from tournaments.services import series as series_services
    from tournaments.services.persons import person_new

    league = Organisation.objects.create(slug="hall-league", name="Liga", kind="league")
    for i, entry in enumerate(event.entries.order_by("pk")):
        Entry.objects.filter(pk=entry.pk).update(person=person_new(name=f"Osoba {i:02d}"))
    series = series_services.series_create(
        organisation=league, slug="hall-liga", name="Liga projektora", family="russian"
    )
    series_services.series_event_add(series=series, event=event)
    series_services.series_standings_recompute(series_id=series.pk)
    url = reverse("hall-state", args=[event.slug])
    before = client.get(url).json()
    assert 'data-kind="series-standings"' not in before["html"]  # not published yet

    series_services.series_update(series=series, published=True)
    series_services.series_standings_recompute(series_id=series.pk)
    after = client.get(url, {"v": before["version"]}).json()
    assert after["version"] != before["version"]
    html = after["html"]
    assert html.count('data-kind="series-standings"') == 3  # 30 persons, 12 a page
    assert html.index('data-kind="standings"') < html.index('data-kind="series-standings"')
    assert "Liga projektora" in html
    assert all(f"Osoba {i:02d}" in html for i in range(30))
    page = client.get(reverse("hall", args=[event.slug])).content.decode()
    assert page.count('data-kind="series-standings"') == 3
