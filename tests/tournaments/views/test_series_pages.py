"""The series pages (issue 39): the league table with each event's points (counted ones
marked) and the events with links, its CSV, a person's page across events (public only as far
as the events are, by initials where the organiser chose), and the organisers' pages: create a
series, add and take out events, choose an entry's person, merge two records."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import (
    Entry,
    Event,
    Organisation,
    OrganisationRole,
    Person,
    Series,
    SeriesFile,
    SeriesStandingsSnapshot,
)
from tournaments.services import series as service
from tournaments.services.entries import entries_import_csv
from tournaments.services.persons import person_new
from tournaments.services.standings import standings_recompute

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
def persons():
    return [person_new(name=f"Igrač Broj{i}", club="Čakovec") for i in range(6)]


def evening(n, persons, league, *, published=True):
    event, entries = make_event(
        players=len(persons), slug=f"vecer-{n}", rounds_planned=1, name=f"Večer {n}"
    )
    event.organisation = league
    event.published = published
    event.save()
    for entry, person in zip(entries, persons, strict=True):
        Entry.objects.filter(pk=entry.pk).update(person=person)
    play_round(event, entries, 1, rng=random.Random(n))
    standings_recompute(event_id=event.pk)
    return event


@pytest.fixture
def season(league, persons):
    events = [evening(1, persons, league), evening(2, persons[:3], league)]
    series = service.series_create(
        organisation=league, slug="liga", name="Liga 2026", family="russian", best_of=1
    )
    for event in events:
        service.series_event_add(series=series, event=event)
    service.series_update(series=series, published=True)
    service.series_standings_recompute(series_id=series.pk)
    return series, events


def test_the_series_page_shows_the_table_the_events_and_the_rules(client, season):
    series, events = season
    page = client.get(reverse("series", args=[series.slug]))
    body = page.content.decode()
    assert page.status_code == 200
    assert 'id="series-standings"' in body and "Igrač Broj" in body
    assert reverse("event", args=[events[0].slug]) in body  # the events, linked
    assert "best 1 events count" in body  # the rules, published
    assert "Final standings" in body
    # the three who played both evenings: one event counted, the other in brackets
    data = SeriesStandingsSnapshot.objects.get(series=series).data
    bracketed = sum(1 for r in data["rows"] for c in r["cells"] if c is not None and not c[2])
    assert bracketed == 3 and body.count('<td class="num">(') == 3


def test_an_unpublished_series_is_for_its_organisers_only(client, season, organiser):
    series, _events = season
    service.series_update(series=series, published=False)
    assert client.get(reverse("series", args=[series.slug])).status_code == 404
    client.force_login(organiser)
    assert client.get(reverse("series", args=[series.slug])).status_code == 200


def test_the_series_csv(client, season):
    series, _events = season
    response = client.get(reverse("series-csv", args=[series.slug]))
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Place,Player,Club,Večer 1,Večer 2,Total,Events played"
    assert len(lines) == 7
    assert sum(line.count("(") for line in lines[1:]) == 3


def test_a_persons_page_across_events_public_as_far_as_the_events_are(client, season, persons):
    series, events = season
    person = persons[0]
    page = client.get(reverse("person", args=[person.pk])).content.decode()
    assert "Večer 1" in page and "Večer 2" in page and "Liga 2026" in page
    events[1].published = False
    events[1].save()
    page = client.get(reverse("person", args=[person.pk])).content.decode()
    assert "Večer 1" in page and "Večer 2" not in page
    person.shown_as = "initials"
    person.save()
    page = client.get(reverse("person", args=[person.pk])).content.decode()
    assert "Igrač Broj0" not in page and "I. B." in page
    lonely = Person.objects.create(name="Nobody")
    assert client.get(reverse("person", args=[lonely.pk])).status_code == 404


def test_an_organiser_creates_a_series_and_adds_an_evening(client, league, organiser, persons):
    event = evening(1, persons, league)
    client.force_login(organiser)
    url = reverse("organisation", args=[league.slug])
    bad = client.post(
        url,
        {
            "slug": "liga",
            "name": "Liga",
            "family": "russian",
            "points": "place_points",
            "place_points": "3 5",
            "min_events": 1,
        },
    )
    assert bad.status_code == 200 and "cannot be applied" in bad.content.decode()
    made = client.post(
        url,
        {
            "slug": "liga",
            "name": "Liga",
            "family": "russian",
            "points": "place_points",
            "place_points": "10 8 6 4 2 1",
            "min_events": 1,
            "tiebreaks": ["events_won"],
            "published": "on",
        },
    )
    series = Series.objects.get(slug="liga")
    assert (
        made.status_code == 302
        and series.published
        and series.place_points == ["10", "8", "6", "4", "2", "1"]
    )
    manage = reverse("series-manage", args=[series.slug])
    assert event.name in client.get(manage).content.decode()
    client.post(manage, {"action": "add", "event": event.slug, "category": "B", "weight": "2"})
    assert series.series_events.get().weight == 2
    client.post(manage, {"action": "remove", "event": event.pk})
    assert not series.series_events.exists()


def test_the_organisers_pages_are_closed_to_others(client, season, league):
    series, _events = season
    client.force_login(UserFactory())
    assert client.get(reverse("series-manage", args=[series.slug])).status_code == 403
    assert client.get(reverse("persons-merge", args=[league.slug])).status_code == 403
    page = client.post(reverse("organisation", args=[league.slug]), {"slug": "x"})
    assert page.status_code == 403


def test_choosing_an_entrys_person_and_merging_two_records(client, league, organiser, persons):
    event = evening(1, persons, league)
    user = UserFactory(is_superuser=True)
    client.force_login(user)
    second = make_event(players=0, slug="vecer-2")[0]
    result = entries_import_csv(event=second, text="name,club\nIgrač Broj1,Čakovec\n")
    entry = result.entries[0]
    page = client.get(reverse("event-persons", args=[second.slug])).content.decode()
    assert "Igrač Broj1" in page and f'value="{persons[1].pk}"' in page
    client.post(reverse("event-persons", args=[second.slug]), {"entry": entry.pk, "person": "new"})
    again = Entry.objects.get(pk=entry.pk).person
    assert again is not None and again != persons[1]
    merged = client.post(
        reverse("persons-merge", args=[league.slug]),
        {"keep": persons[1].pk, "drop": again.pk, "confirm": "1"},
    )
    assert merged.status_code == 302
    assert Entry.objects.get(pk=entry.pk).person == persons[1]
    clash = client.post(
        reverse("persons-merge", args=[league.slug]), {"keep": persons[1].pk, "drop": persons[2].pk}
    )
    assert (
        "Both records are entered in" in clash.content.decode()
        and event.name in clash.content.decode()
    )


def test_the_api_series_standings_and_persons(client, season, persons):
    series, events = season
    listed = client.get("/api/v1/series").json()
    assert [s["slug"] for s in listed] == ["liga"]
    detail = client.get("/api/v1/series/liga").json()
    assert detail["final"] is True and detail["rules"]["best_of"] == 1
    assert [e["slug"] for e in detail["events"]] == ["vecer-1", "vecer-2"]
    standings = client.get("/api/v1/series/liga/standings").json()
    assert standings["status"] == "ok" and len(standings["rows"]) == 6
    row = next(r for r in standings["rows"] if r["person"] == persons[0].pk)
    assert {c["event"] for c in row["events"]} == {"vecer-1", "vecer-2"}
    assert sum(c["counted"] for c in row["events"]) == 1
    person = client.get(f"/api/v1/persons/{persons[0].pk}").json()
    assert person["name"] == "Igrač Broj0" and len(person["results"]) == 2
    assert person["series"][0]["series"] == "liga"
    service.series_update(series=series, published=False)
    assert client.get("/api/v1/series/liga/standings").status_code == 404
    assert client.get("/api/v1/series").json() == []


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", ("Итоговая таблица", "Турниры", "Скачать таблицу (CSV)")),
        ("hr", ("Konačni poredak", "Turniri", "Preuzmi poredak (CSV)")),
        ("sr-latn", ("Konačni poredak", "Turniri", "Preuzmi poredak (CSV)")),
        ("de", ("Endstand", "Turniere", "Tabelle herunterladen (CSV)")),
        ("sv", ("Slutställning", "Turneringar", "Ladda ner ställningen (CSV)")),
    ],
)
def test_the_series_page_in_every_language(client, season, language, words):
    series, _events = season
    body = client.get(f"/{language}/s/{series.slug}/").content.decode()
    for word in words:
        assert word in body, (language, word)
    assert "Final standings" not in body


def test_an_events_page_links_its_published_series(client, season):
    series, events = season
    page = client.get(reverse("event", args=[events[0].slug])).content.decode()
    assert reverse("series", args=[series.slug]) in page
    service.series_update(series=series, published=False)
    page = client.get(reverse("event", args=[events[0].slug])).content.decode()
    assert reverse("series", args=[series.slug]) not in page


def test_the_series_standings_as_a_pdf(client, season, django_capture_on_commit_callbacks):
    series, _events = season
    url = reverse("series-pdf", args=[series.slug])
    with django_capture_on_commit_callbacks(execute=True):
        first = client.get(url)  # asked for: rendered by its job after the commit
    assert first.status_code == 202
    f = SeriesFile.objects.get(series=series)
    assert f.status == "ok" and f.language == "en"
    pdf = client.get(url)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
    assert SeriesFile.objects.count() == 1  # the same table: the stored file
    with django_capture_on_commit_callbacks(execute=True):
        assert client.get("/hr" + url).status_code == 202  # another language: its own file
    assert SeriesFile.objects.filter(language="hr", status="ok").count() == 1


def test_the_back_office_lists_organisations_persons_and_series(client, season):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for name in ("organisation", "person", "series"):
        page = client.get(reverse(f"admin:tournaments_{name}_changelist"))
        assert page.status_code == 200, name
    series, _events = season
    assert (
        client.get(reverse("admin:tournaments_series_change", args=[series.pk])).status_code == 200
    )


def test_an_organisations_organiser_creates_its_evening(client, league, organiser):
    client.force_login(organiser)
    url = reverse("organisation-event-new", args=[league.slug])
    assert client.get(url).status_code == 200
    made = client.post(
        url,
        {
            "slug": "vecer-5",
            "name": "Liga — večer 5",
            "starts_on": "2027-04-09",
            "ends_on": "2027-04-09",
            "variant": "croatian",
            "pulka_target": 30,
            "rounds_planned": 3,
            "table_size_policy": "3",
            "default_draw_method": "no_repeats",
        },
    )
    assert made.status_code == 302, made.content.decode()[:2000]
    event = Event.objects.get(slug="vecer-5")
    assert event.organisation == league
    assert event.roles.filter(user=organiser, role="organiser").exists()
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403


def test_a_large_table_is_shown_a_hundred_rows_a_page(client, league):
    """A national cup's table (issue 39: 2,000 persons) in pages of 100 rows; the CSV holds
    them all."""
    from tournaments.views import series as views

    players = [person_new(name=f"Igrač {i:03d}", club="Čakovec") for i in range(12)]
    event = evening(1, players, league)
    series = service.series_create(organisation=league, slug="kup", name="Kup", family="russian")
    service.series_event_add(series=series, event=event)
    service.series_update(series=series, published=True)
    service.series_standings_recompute(series_id=series.pk)
    url = reverse("series", args=[series.slug])
    old, views.SERIES_PAGE_ROWS = views.SERIES_PAGE_ROWS, 5
    try:
        pages = [client.get(url, {"page": n}).content.decode() for n in (1, 2, 3)]
        last = client.get(url, {"page": 9}).content.decode()  # past the end: the last page
    finally:
        views.SERIES_PAGE_ROWS = old
    shown = [sum(f"Igrač {i:03d}" in page for i in range(12)) for page in pages]
    assert shown == [5, 5, 2]
    assert 'href="?page=2"' in pages[0] and 'aria-current="page">3<' in pages[2]
    assert 'aria-current="page">3<' in last
    csv = client.get(reverse("series-csv", args=[series.slug])).content.decode("utf-8-sig")
    assert len(csv.splitlines()) == 13
