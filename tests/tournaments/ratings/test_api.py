"""The ratings' API (issue 41, docs/api.md): the lists, a list with every person's rating and
its model's spec, a person's history with each change's parts and opponents, an event's
changes."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from rest_framework.test import APIClient

from tests.tournaments.ratings.factories import make_event, make_persons, play_event
from tournaments.models import PersonRating, RatingList
from tournaments.selectors.ratings import stored_changes
from tournaments.services import ratings as service

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    persons = make_persons(9)
    event, entries = make_event(persons, slug="kup", day=dt.date(2026, 6, 1))
    play_event(entries, event, rounds=2, rng=random.Random(3))
    service.ratings_schedule_for_event(event_id=event.pk)
    rating = RatingList.objects.get(slug="balkan")
    service.ratings_recompute(list_id=rating.pk)
    return rating, persons, event


def test_the_lists_and_a_list(rated):
    rating, _persons, _event = rated
    api = APIClient()
    lists = api.get("/api/v1/ratings").json()
    assert [r["slug"] for r in lists] == ["balkan"]
    body = api.get("/api/v1/ratings/balkan").json()
    assert body["model"] == "weng-lin" and body["spec"]["params"]["library_model"] == "PlackettLuce"
    assert body["spec"]["version"] == 1
    assert len(body["ratings"]) == 9
    stored = dict(PersonRating.objects.filter(rating_list=rating).values_list("person_id", "shown"))
    assert {r["person"]: r["rating"] for r in body["ratings"]} == pytest.approx(stored)
    assert all(r["provisional"] and r["rank"] is None for r in body["ratings"])
    assert api.get("/api/v1/ratings/nope").status_code == 404


def test_a_persons_history_adds_up(rated):
    _rating, persons, event = rated
    body = APIClient().get(f"/api/v1/ratings/balkan/persons/{persons[0].pk}").json()
    assert len(body["changes"]) == 2
    for c in body["changes"]:
        assert c["event"] == event.slug
        assert sum(p["value"] for p in c["parts"]) == pytest.approx(c["change"])
        assert c["after"] - c["before"] == pytest.approx(c["change"])
        assert len(c["opponents"]) == c["size"] - 1
        assert all(o["name"].startswith("Person ") for o in c["opponents"])
    assert body["changes"][0]["after"] == body["changes"][1]["before"]
    assert body["current"]["rating"] == pytest.approx(body["changes"][-1]["after"])


def test_an_events_changes(rated):
    _rating, _persons, event = rated
    rows = APIClient().get(f"/api/v1/ratings/balkan/events/{event.slug}").json()
    assert len(rows) == 9 and all(r["tables"] == 2 for r in rows)
    assert sum(r["tables"] for r in rows) == len(stored_changes(rating_list=_rating))
    assert [r["change"] for r in rows] == sorted((r["change"] for r in rows), reverse=True)
