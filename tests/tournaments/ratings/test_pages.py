"""The rating pages (issue 41): the list per family with its filters and CSV, a person's
history with its plot drawn on the server and each change explained, an event's changes, the
organiser marking an event unrated; in every language, words not codes (the scan of issue 29
over the demo league's ratings)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
import re
from html import unescape

import pytest
from django.conf import settings
from django.test import Client

from tests.demo_pages import league_demo_pages
from tests.factories import UserFactory
from tests.tournaments.ratings.factories import make_event, make_persons, play_event
from tests.tournaments.views.test_words_not_codes import leaks, shown_text
from tournaments.models import AuditLogEntry, Event, EventRole, PersonRating, RatingList
from tournaments.services import ratings as service

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    persons = make_persons(12)
    rng = random.Random(7)
    events = []
    for n in range(2):
        event, entries = make_event(
            persons[: 10 + n], slug=f"kup-{n}", day=dt.date(2026, 5, 1) + dt.timedelta(days=7 * n)
        )
        play_event(entries, event, rounds=3, rng=rng)
        events.append(event)
    service.ratings_schedule_for_event(event_id=events[0].pk)
    rating = RatingList.objects.get(slug="balkan")
    service.ratings_recompute(list_id=rating.pk)
    return rating, persons, events


def test_the_rating_list_and_its_filters(rated):
    rating, persons, _events = rated
    page = Client().get("/ratings/balkan/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Croatian / Serbian / Slovenian Preference" in html
    assert (
        html.count('href="/ratings/balkan/people/')
        == PersonRating.objects.filter(rating_list=rating).count()
        == 11
    )
    clubs = sorted({p.club for p in persons[:11]})
    club = (
        Client()
        .get("/ratings/balkan/", {"club": clubs.index("Club 3") + 1, "city": 0})
        .content.decode()
    )
    assert club.count('href="/ratings/balkan/people/') == len(
        [p for p in persons if p.club == "Club 3"]
    )
    # active in the last year: the events were in May 2026, today is later or not
    active = Client().get("/ratings/balkan/", {"active": "1"}).content.decode()
    expect = 11 if dt.date.today() - dt.date(2026, 5, 8) <= dt.timedelta(days=365) else 0
    assert active.count('href="/ratings/balkan/people/') == expect
    assert Client().get("/ratings/").content.decode().count('href="/ratings/balkan/"') == 1


def test_the_csv(rated):
    rating, _persons, _events = rated
    response = Client().get("/ratings/balkan/ratings.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["Rank", "Player", "Club", "City", "Rating"]
    assert len(rows) == 12
    stored = {
        p.person.name: p.shown
        for p in PersonRating.objects.filter(rating_list=rating).select_related("person")
    }
    assert {r[1]: float(r[4]) for r in rows[1:]} == pytest.approx(stored, abs=0.05)


def test_a_persons_page_has_the_plot_and_explains_each_change(rated):
    rating, persons, events = rated
    person = persons[0]
    html = Client().get(f"/ratings/balkan/people/{person.pk}/").content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html and "<polyline" in html
    changes = re.findall(r'<span class="rating-change">(.*?)</span>', html)
    assert len(changes) == 6  # 2 events × 3 rounds, the latest first
    assert re.match(
        r"^[+−]?[\d.]+ — round 3, table \d+: (place \d of \d|places \d–\d of \d) against ",
        changes[0],
    )
    assert html.count("</li>") >= 6
    # the explanation's opponents are named, with their ratings and ±
    assert re.search(r"Person \d{4} \([\d,]+, ±\d+\)", changes[0])


def test_an_events_changes(rated):
    _rating, _persons, events = rated
    html = Client().get(f"/ratings/balkan/events/{events[1].slug}/").content.decode()
    assert html.count('href="/ratings/balkan/people/') == 11


def test_the_organiser_marks_an_event_unrated(rated):
    _rating, _persons, events = rated
    organiser = UserFactory()
    EventRole.objects.create(event=events[1], user=organiser, role=EventRole.Role.ORGANISER)
    client = Client()
    client.force_login(organiser)
    assert client.get(f"/e/{events[1].slug}/manage/rating/").status_code == 200
    response = client.post(
        f"/e/{events[1].slug}/manage/rating/", {"action": "unrated", "reason": "a friendly"}
    )
    assert response.status_code == 302
    assert AuditLogEntry.objects.filter(event=events[1], action="event.unrated").exists()
    assert Client().get(f"/e/{events[1].slug}/manage/rating/").status_code == 302  # login
    other = UserFactory()
    stranger = Client()
    stranger.force_login(other)
    assert stranger.get(f"/e/{events[1].slug}/manage/rating/").status_code == 403


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_demo_leagues_rating_pages_show_words_not_codes(language):
    organiser = UserFactory(is_staff=True, is_superuser=True)
    league_demo_pages(organiser=organiser)
    event = Event.objects.filter(entries__person__isnull=False).distinct().first()
    service.ratings_schedule_for_event(event_id=event.pk)
    rating = RatingList.objects.get(slug="balkan")
    service.ratings_recompute(list_id=rating.pk)
    person = PersonRating.objects.filter(rating_list=rating).first().person_id
    prefix = "" if language == "en" else f"/{language}"
    pages = [
        "/ratings/",
        "/ratings/balkan/",
        f"/ratings/balkan/people/{person}/",
        f"/ratings/balkan/events/{event.slug}/",
    ]
    staff = Client()
    staff.force_login(organiser)
    problems = []
    for path in pages + [f"/e/{event.slug}/manage/rating/"]:
        client = staff if "manage" in path else Client()
        response = client.get(prefix + path)
        assert response.status_code == 200, (path, response.status_code)
        for what, context in leaks(shown_text(response.content.decode()), set(), set()):
            problems.append(f"{path} shows {what}: {context}")
    assert not problems, "\n".join(problems)


def test_the_event_page_shows_the_ratings_at_entry(rated):
    rating, _persons, events = rated
    html = Client().get(f"/e/{events[1].slug}/").content.decode()
    # the second evening's 11 players: 10 rated after the first evening, one new
    assert html.count('href="/ratings/balkan/people/') == 10
    first = Client().get(f"/e/{events[0].slug}/").content.decode()
    assert "/ratings/balkan/people/" not in first  # nobody was rated before the first one


def test_the_organiser_seeds_the_draw_from_pulkas_rating(rated):
    """The entries' ratings (what a Swiss draw and its first round order by) are set from
    Pulka's rating at entry; the draw's input then carries them."""
    from tournaments.models import Entry, Round
    from tournaments.selectors.ratings import ratings_at_entry
    from tournaments.services.draw import draw_input

    _rating, _persons, events = rated
    event = events[1]
    organiser = UserFactory()
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    client = Client()
    client.force_login(organiser)
    response = client.post(f"/e/{event.slug}/manage/rating/", {"action": "seed"}, follow=True)
    shown = unescape(response.content.decode())
    assert "10 players' ratings are set from Pulka's rating." in shown
    at_entry = ratings_at_entry(event=event)
    assert len(at_entry) == 10
    for entry in Entry.objects.filter(event=event).select_related("player"):
        expected = round(at_entry[entry.pk][0]) if entry.pk in at_entry else None
        assert entry.player.rating == expected
    inputs = draw_input(Round.objects.create(event=event, number=4), method="swiss")
    ratings = {e["id"]: e["rating"] for e in inputs["entries"]}
    assert ratings == {
        e: (round(at_entry[e][0]) if e in at_entry else None)
        for e in Entry.objects.filter(event=event).values_list("pk", flat=True)
    }
    assert AuditLogEntry.objects.filter(event=event, action="entries.rated_from_pulka").exists()
