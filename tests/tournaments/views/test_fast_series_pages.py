"""A series' page and CSV and a person's page served from the page cache (issue 39), as the
event's pages are (tests/tournaments/views/test_fast_pages.py): the second anonymous viewer
costs no query, and every change such a page shows is on the next GET: the series job storing
a new table, a person renamed, shown by initials, merged or erased, an event unpublished.

Changes run inside ``django_capture_on_commit_callbacks(execute=True)``, so that the hooks that
replace the pages' versions after a commit run."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.views.test_series_pages import evening
from tournaments.models import Entry, Organisation
from tournaments.services import series as service
from tournaments.services.persons import person_merge, person_new, person_update
from tournaments.services.privacy import person_erase

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PULKA_PAGE_CACHE = True


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        league = Organisation.objects.create(slug="mpl", name="Međimurska liga", kind="league")
        persons = [person_new(name=f"Igrač Broj{i}", club="Čakovec") for i in range(6)]
        events = [evening(1, persons, league), evening(2, persons[:3], league)]
        series = service.series_create(
            organisation=league, slug="liga", name="Liga 2026", family="russian"
        )
        for event in events:
            service.series_event_add(series=series, event=event)
        service.series_update(series=series, published=True)
        service.series_standings_recompute(series_id=series.pk)
    return series, events, persons, league


def cached(client, url, django_assert_num_queries) -> str:
    """The page as an anonymous viewer gets it, checked to be served from the cache the second
    time (no query)."""
    first = client.get(url)
    assert first.status_code == 200, url
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200 and again.content == first.content
    return again.content.decode("utf-8-sig")


def urls(series, person) -> list[str]:
    return [
        reverse("series", args=[series.slug]),
        reverse("series-csv", args=[series.slug]),
        reverse("person", args=[person.pk]),
    ]


def test_the_series_pages_and_a_persons_page_are_served_without_the_database(
    client, season, django_assert_num_queries
):
    series, _events, persons, _league = season
    series_page, csv, person = (
        cached(client, u, django_assert_num_queries) for u in urls(series, persons[0])
    )
    assert 'id="series-standings"' in series_page and "Igrač Broj0" in series_page
    assert csv.startswith("Place,Player") and "Igrač Broj5" in csv
    assert "Večer 1" in person and "Liga 2026" in person


def test_a_new_table_stored_by_the_series_job_is_on_the_next_get(
    client,
    season,
    league_evening_three,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    series, _events, persons, _league = season
    page, csv, person = (
        cached(client, u, django_assert_num_queries) for u in urls(series, persons[0])
    )
    assert "Večer 3" not in page and "Večer 3" not in csv
    total = re.search(r"Liga 2026</a>: Place \S+ · Total (\S+)</li>", person).group(1)
    with django_capture_on_commit_callbacks(execute=True):  # the job runs after the commit
        service.series_event_add(series=series, event=league_evening_three)
    page, csv, person = (
        cached(client, u, django_assert_num_queries) for u in urls(series, persons[0])
    )
    assert "Večer 3" in page and "Večer 3" in csv and "Recomputation pending." not in page
    assert re.search(r"Liga 2026</a>: Place \S+ · Total (\S+)</li>", person).group(1) != total


@pytest.fixture
def league_evening_three(season, django_capture_on_commit_callbacks):
    _series, _events, persons, league = season
    with django_capture_on_commit_callbacks(execute=True):
        return evening(3, persons, league)


def test_a_person_renamed_or_shown_by_initials(
    client, season, django_assert_num_queries, django_capture_on_commit_callbacks
):
    series, _events, persons, _league = season
    person = persons[0]
    for url in urls(series, person):
        assert "Igrač Broj0" in cached(client, url, django_assert_num_queries)
    with django_capture_on_commit_callbacks(execute=True):
        person.name = "Ivan Horvat"
        person.save()
    for url in urls(series, person):
        page = cached(client, url, django_assert_num_queries)
        assert "Ivan Horvat" in page and "Igrač Broj0" not in page
    with django_capture_on_commit_callbacks(execute=True):
        person_update(person=person, shown_as="initials")
    for url in urls(series, person):
        page = cached(client, url, django_assert_num_queries)
        assert "I. H." in page and "Ivan Horvat" not in page


def test_a_person_merged(
    client, season, django_assert_num_queries, django_capture_on_commit_callbacks
):
    series, events, persons, league = season
    with django_capture_on_commit_callbacks(execute=True):
        again = person_new(name="Igrač Broj0 (2)")
        third = evening(3, [again, *persons[1:]], league)
        service.series_event_add(series=series, event=third)
        service.series_standings_recompute(series_id=series.pk)
    kept_page = cached(client, reverse("person", args=[persons[0].pk]), django_assert_num_queries)
    assert "Večer 3" not in kept_page
    assert "Igrač Broj0 (2)" in cached(client, urls(series, again)[0], django_assert_num_queries)
    cached(client, reverse("person", args=[again.pk]), django_assert_num_queries)
    with django_capture_on_commit_callbacks(execute=True):
        person_merge(keep=persons[0], drop=again)
        service.series_standings_recompute(series_id=series.pk)
    kept_page = cached(client, reverse("person", args=[persons[0].pk]), django_assert_num_queries)
    assert "Večer 1" in kept_page and "Večer 3" in kept_page
    assert client.get(reverse("person", args=[again.pk])).status_code == 404
    assert "Igrač Broj0 (2)" not in cached(
        client, urls(series, again)[0], django_assert_num_queries
    )


def test_a_person_erased(
    client, season, django_assert_num_queries, django_capture_on_commit_callbacks
):
    series, _events, persons, _league = season
    person = persons[1]
    for url in urls(series, person):
        assert "Igrač Broj1" in cached(client, url, django_assert_num_queries)
    with django_capture_on_commit_callbacks(execute=True):
        person_erase(person=person)
    for url in urls(series, person):
        page = cached(client, url, django_assert_num_queries)
        assert "Igrač Broj1" not in page and f"Anonymous {person.pk}" in page


def test_an_event_unpublished_leaves_the_persons_page(
    client, season, django_assert_num_queries, django_capture_on_commit_callbacks
):
    series, events, persons, _league = season
    url = reverse("person", args=[persons[0].pk])
    assert "Večer 2" in cached(client, url, django_assert_num_queries)
    with django_capture_on_commit_callbacks(execute=True):
        events[1].published = False
        events[1].save()
    page = cached(client, url, django_assert_num_queries)
    assert "Večer 1" in page and "Večer 2" not in page
    assert Entry.objects.filter(event=events[1], person=persons[0]).exists()
