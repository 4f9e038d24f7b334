"""The rounds ahead (issue 4: "a pre-computed schedule for all rounds"): once round 1 is
drawn, the later rounds follow a plan made from the rounds played, so they can be shown in
advance, and the real draws seat exactly those tables."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.services.rounds import (
    round_close,
    round_create,
    round_draw,
    round_publish,
    round_start,
    schedule_ahead,
)

pytestmark = pytest.mark.django_db


def play(round_):
    round_publish(round_=round_)
    round_start(round_=round_)
    round_close(round_=round_, unfinished_reason="no protocols in this test")


@pytest.mark.parametrize("method", ["no_repeats", "schedule"])
def test_the_rounds_ahead_are_the_rounds_drawn(method):
    event = EventFactory(table_size_policy="mixed", default_draw_method=method, rounds_planned=5)
    for _ in range(13):
        EntryFactory(event=event)
    assert schedule_ahead(event=event) == []  # round 1's seed decides
    first = round_create(event=event)
    round_draw(round_=first)
    ahead = schedule_ahead(event=event)
    assert [n for n, _tables in ahead] == [2, 3, 4, 5]
    play(first)
    for number, tables in ahead:
        round_ = round_create(event=event)
        round_draw(round_=round_)
        drawn = sorted(
            sorted(t.seats.values_list("entry_id", flat=True)) for t in round_.tables.all()
        )
        assert drawn == sorted(tables), f"round {number}"
        play(round_)
    assert schedule_ahead(event=event) == []


def test_random_and_swiss_rounds_are_not_known_ahead():
    event = EventFactory(table_size_policy="3", default_draw_method="random")
    for _ in range(9):
        EntryFactory(event=event)
    round_draw(round_=round_create(event=event))
    assert schedule_ahead(event=event) == []


def test_the_rounds_ahead_page(client):
    event = EventFactory(table_size_policy="3", rounds_planned=3)
    entries = [EntryFactory(event=event) for _ in range(9)]
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-schedule", args=[event.slug])
    assert "Nothing to show" in client.get(url).content.decode()
    round_draw(round_=round_create(event=event))
    page = client.get(url).content.decode()
    assert "Round 2" in page and "Round 3" in page and entries[0].player.name in page


def test_the_rounds_ahead_through_the_api():
    from rest_framework.test import APIClient

    from tournaments.models import EventRole

    event = EventFactory(table_size_policy="3", rounds_planned=3)
    for _ in range(9):
        EntryFactory(event=event)
    round_draw(round_=round_create(event=event))
    url = f"/api/v1/events/{event.slug}/rounds/ahead"
    assert APIClient().get(url).status_code in (401, 403)  # not for the public
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role="referee")
    api = APIClient()
    api.force_authenticate(referee)
    body = api.get(url).json()
    assert [r["round"] for r in body] == [2, 3]
    assert body == [
        {"round": n, "tables": t, "sitting_out": []} for n, t in schedule_ahead(event=event)
    ]
