"""Flash messages tell the truth (issue 29): a job that ran inline is said done, not running."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import EventRole
from tournaments.services.rounds import draw_in_background, round_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(client):
    event = EventFactory(rounds_planned=6)
    for _ in range(9):
        EntryFactory(event=event)
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    client.force_login(user)
    return event


def test_a_draw_job_that_ran_inline_is_said_done_not_running(client, event):
    assert draw_in_background(event)  # six rounds of nine players: the draw is a job
    round_create(event=event)
    page = client.post(
        reverse("manage-round-action", args=[event.slug, 1, "draw"]), follow=True
    ).content.decode()
    assert "The round is drawn." in page
    assert "The draw is running" not in page
    assert event.rounds.get(number=1).state == "drawn"


def test_a_fixed_table_is_said_in_words(client, event):
    entry = event.entries.select_related("player").first()
    url = reverse("manage-constraints", args=[event.slug])
    page = client.post(
        url, {"action": "fix-table", "entry": entry.pk, "table": "2"}, follow=True
    ).content.decode()
    assert f"{entry.player.name} must sit at table 2 in every draw." in page
    page = client.post(
        url, {"action": "fix-table", "entry": entry.pk, "table": ""}, follow=True
    ).content.decode()
    assert f"{entry.player.name} no longer has a fixed table." in page and "Saved." not in page


def test_the_log_reads_in_words_not_a_python_dict(client, event):
    round_create(event=event)
    page = client.get(reverse("manage-log", args=[event.slug])).content.decode()
    assert "Round 1 created" in page
    assert "{&#x27;round&#x27;" not in page and "&quot;round&quot;" not in page
    # the record as programs read it is the download, linked from the page
    assert "?format=json" in page


@pytest.mark.django_db(transaction=True)
def test_a_recomputation_that_ran_inline_is_said_done(client, event):
    """Committed as in production (no test transaction around the request): the job is sent
    at once and, with no worker configured, runs inline; the message says it is done."""
    url = reverse("standings-manage", args=[event.slug])
    page = client.post(url, {"action": "recompute"}, follow=True).content.decode()
    assert "The standings are recomputed." in page
    assert "scheduled" not in page and "is queued" not in page


@pytest.mark.django_db(transaction=True)
def test_a_document_rendered_inline_is_said_ready_not_being_rendered(client):
    import random

    from tests.tournaments.standings.factories import make_event, play_round

    event, entries = make_event(players=9, slug="docs")
    play_round(event, entries, 1, rng=random.Random(1))
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    client.force_login(user)
    url = reverse("documents-manage", args=[event.slug])
    page = client.post(url, {"kind": "seating", "round": "1", "paper": "A4"}, follow=True)
    body = page.content.decode()
    assert "The document is ready:" in body and "being rendered" not in body


def test_the_logs_import_sentence_has_its_plural_forms():
    from django.utils import translation

    from tournaments.words.audit import described

    assert described("entries.imported", {"count": 1}, {}) == "1 player imported from CSV"
    assert described("entries.imported", {"count": 5}, {}) == "5 players imported from CSV"
    with translation.override("ru"):
        assert described("entries.imported", {"count": 5}, {}) == "Из CSV загружено игроков: 5"


def test_the_log_says_a_player_the_event_no_longer_has_in_words():
    """Issue 29: an entry the event does not hold any more was named by its id ("#57")."""
    from django.utils import translation

    from tournaments.words.audit import described

    data = {"round": 2, "first": 57, "second": 12}
    with translation.override("en"):
        assert described("seats.swapped", data, {12: "Ann Bell"}) == (
            "Round 2: a player not found in this event and Ann Bell swapped seats"
        )
    with translation.override("de"):
        text = described("seats.swapped", data, {12: "Ann Bell"})
        assert "57" not in text and "Ann Bell" in text and "player not found" not in text
