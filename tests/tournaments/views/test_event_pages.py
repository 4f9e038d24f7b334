"""Public, private and organiser pages for events, players and rounds."""

import re

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import Entry, EventRole
from tournaments.services.rounds import round_create, round_draw, round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory(name="Winter Cup")
    for i in range(9):
        EntryFactory(event=event, player__name=f"Player {i}")
    return event


@pytest.fixture
def organiser(client, event):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role="organiser")
    client.force_login(user)
    return user


def test_public_pages_show_only_published_rounds(client, event):
    r = round_create(event=event)
    round_draw(round_=r)
    page = client.get(reverse("event", args=[event.slug]))
    assert page.status_code == 200 and b"Winter Cup" in page.content
    assert client.get(reverse("round-seating", args=[event.slug, 1])).status_code == 404
    round_publish(round_=r)
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert "Table 3" in page and "Player 0" in page
    assert r.draw_seed_hash in page


def test_unpublished_event_is_hidden_from_the_public(client):
    event = EventFactory(published=False)
    assert client.get(reverse("event", args=[event.slug])).status_code == 404
    assert event.name not in client.get(reverse("home")).content.decode()


def test_private_link_shows_the_players_table(client, event):
    r = round_create(event=event)
    round_draw(round_=r)
    round_publish(round_=r)
    entry = Entry.objects.filter(event=event).first()
    page = client.get(reverse("player-home", args=[entry.url_key])).content.decode()
    assert entry.player.name in page and "<strong>" in page
    assert client.get(reverse("player-home", args=["not-a-key"])).status_code == 404


def test_the_private_link_says_first_where_the_player_sits_now(client, event):
    from tournaments.services.rounds import round_close, round_start

    event.round_time_limit = 180
    event.save()
    entry = Entry.objects.filter(event=event).first()
    url = reverse("player-home", args=[entry.url_key])
    r = round_create(event=event)
    round_draw(round_=r)
    assert 'id="now"' not in client.get(url).content.decode()  # drawn, not published
    round_publish(round_=r)
    seat = entry.seats.get(round=r)
    page = client.get(url).content.decode()
    assert f"Round 1: table {seat.table.number}, seat {seat.position + 1}" in page
    assert "play has not started yet" in page
    assert ("You deal first" in page) == (seat.position == seat.table.first_dealer)
    round_start(round_=r)
    page = client.get(url).content.decode()
    assert "play ends at" in page and seat.table.url_key in page
    russian = client.get("/ru" + url).content.decode()
    assert f"Тур 1: стол {seat.table.number}, место {seat.position + 1}" in russian
    round_close(round_=r, unfinished_reason="no protocols in this test")
    assert 'id="now"' not in client.get(url).content.decode()  # nothing to play now


def test_organiser_pages_need_a_role_in_this_event(client, event):
    url = reverse("manage", args=[event.slug])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    other = EventFactory()
    user = UserFactory()
    EventRole.objects.create(event=other, user=user, role="organiser")
    client.force_login(user)
    assert client.get(url).status_code == 403  # an organiser of another event


def test_organiser_imports_csv_and_sees_every_bad_line(client, event, organiser):
    url = reverse("manage-entries-import", args=[event.slug])
    page = client.post(url, {"text": "name,rating\nAnna,12\n,5\nBoris,strong\n"})
    body = page.content.decode()
    assert page.status_code == 200
    assert "nothing was imported" in body
    assert ">3<" in body and ">4<" in body and "rating" in body
    assert Entry.objects.filter(event=event).count() == 9
    page = client.post(url, {"text": "name,club\nAnna,A\nBoris,B\n"}, follow=True)
    assert "2 players imported" in page.content.decode()
    assert Entry.objects.filter(event=event).count() == 11


def test_organiser_draws_corrects_and_publishes_a_round(client, event, organiser):
    client.post(reverse("manage-round-new", args=[event.slug]))
    client.post(reverse("manage-round-action", args=[event.slug, 1, "draw"]))
    r = event.rounds.get(number=1)
    assert r.state == "drawn"
    # drawing again keeps the round's seed: the same input gives the same tables, as it says
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert 'id="draw-again-note"' in page

    def seating():
        return list(
            r.seats.order_by("table__number", "position").values_list(
                "entry_id", "table__number", "position"
            )
        )

    before = seating()
    client.post(reverse("manage-round-action", args=[event.slug, 1, "draw"]))
    assert seating() == before and len(before) == 9
    seats = list(r.seats.order_by("table__number", "position"))
    page = client.post(
        reverse("manage-round-action", args=[event.slug, 1, "swap"]),
        {"first": seats[0].entry_id, "second": seats[3].entry_id, "reason": ""},
    )
    assert page.status_code == 200 and "This field is required" in page.content.decode()
    page = client.post(
        reverse("manage-round-action", args=[event.slug, 1, "swap"]),
        {"first": seats[0].entry_id, "second": seats[3].entry_id, "reason": "wrong table"},
        follow=True,
    )
    assert "Correction saved" in page.content.decode()
    client.post(reverse("manage-round-action", args=[event.slug, 1, "publish"]))
    r.refresh_from_db()
    assert r.state == "published"
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert "Draw report" in page


def test_a_seeds_hash_is_public_before_the_draw_and_the_seed_after(client, event):
    """Commit and reveal (issue 4: "the seed (or its hash, published before the draw)"): the
    public sees the hash of a draft round's seed on the event's page, then the seed with the
    published round, and when the hash was published."""
    from tournaments.services.rounds import round_commit_seed

    r = round_commit_seed(round_=round_create(event=event))
    page = client.get(reverse("event", args=[event.slug])).content.decode()
    assert 'id="seed-commitments"' in page and r.draw_seed_hash in page
    assert r.draw_seed not in page  # the seed itself stays secret until the round is public
    round_publish(round_=round_draw(round_=r))
    page = client.get(reverse("event", args=[event.slug])).content.decode()
    assert 'id="seed-commitments"' not in page  # the round's own page shows it now
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert r.draw_seed_hash in page and r.draw_seed in page
    assert "the hash was published at" in page and "before the draw at" in page
    assert f"/api/v1/events/{event.slug}/rounds/1/draw-record" in page
    # a round drawn without a commitment says so
    r2 = round_publish(round_=round_draw(round_=round_create(event=event)))
    page = client.get(reverse("round-seating", args=[event.slug, 2])).content.decode()
    assert r2.draw_seed_hash in page and "not published before it" in page
    russian = client.get("/ru" + reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert "хеш опубликован" in russian


def test_the_private_link_says_whom_the_player_meets_again_and_why(client):
    """Six players at threes over three rounds: round 3 must repeat a meeting (each has met
    four of the five others), and the player's page names whom they meet again, in which
    round, and the draw's reason ("why am I with him again?", issue 4)."""
    from tournaments.services.rounds import round_close, round_start

    event = EventFactory(table_size_policy="3", rounds_planned=3)
    for i in range(6):
        EntryFactory(event=event, player__name=f"Player {i}")
    for _ in range(3):
        r = round_create(event=event)
        round_publish(round_=round_draw(round_=r))
        if r.number < 3:
            round_start(round_=r)
            round_close(round_=r, unfinished_reason="no protocols in this test")
    entry = next(
        e for e in event.entries.all() if "met-again" in _player_page(client, e)
    )  # at least one player meets someone again in round 3
    page = _player_page(client, entry)
    assert re.search(r"You have met before at this table: Player \d \(rounds? [12]", page)
    assert "Why: " in page
    russian = client.get("/ru" + reverse("player-home", args=[entry.url_key])).content.decode()
    assert re.search(r"За этим столом вы уже встречались: Player \d \(тура? [12]", russian)


def _player_page(client, entry) -> str:
    return client.get(reverse("player-home", args=[entry.url_key])).content.decode()
