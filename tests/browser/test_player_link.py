"""A player on a phone (issue 4): the private link says where they sit now and whom they meet
again, and the public pages show the seed's hash before the draw and the corrections after."""

from __future__ import annotations

import pytest

from tests.factories import EntryFactory, EventFactory
from tournaments.services.rounds import (
    round_close,
    round_commit_seed,
    round_create,
    round_draw,
    round_publish,
    round_start,
    seats_swap,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_follows_the_event_on_a_phone(phone, live_server):
    event = EventFactory(slug="phone-open", table_size_policy="3", rounds_planned=3)
    entries = [EntryFactory(event=event, player__name=f"Player {i}") for i in range(6)]
    for _ in (1, 2):
        r = round_create(event=event)
        round_start(round_=round_publish(round_=round_draw(round_=r)))
        round_close(round_=r, unfinished_reason="no protocols in this test")
    r3 = round_commit_seed(round_=round_create(event=event))
    page = phone
    page.goto(f"{live_server.url}/e/phone-open/")
    assert page.locator("#seed-commitments").get_by_text(r3.draw_seed_hash).is_visible()
    round_start(round_=round_publish(round_=round_draw(round_=r3)))
    me = next(e for e in entries if _meets_again(e, r3))  # someone must (six at threes)
    page.goto(f"{live_server.url}/p/{me.url_key}/")
    now = page.locator("#now")
    seat = me.seats.get(round=r3)
    assert now.get_by_text(
        f"Round 3: table {seat.table.number}, seat {seat.position + 1}"
    ).is_visible()
    # the page says whom they meet again
    assert page.locator("#met-again").get_by_text("You have met before at this table").is_visible()
    now.get_by_role("link", name="Enter the protocol of your table").tap()
    page.wait_for_url(f"**/t/{seat.table.url_key}/")
    # a correction after publication: the round's public page says what changed and why
    others = [s for s in r3.seats.all() if s.table_id != seat.table_id]
    seats_swap(
        round_=r3, first=me.pk, second=others[0].entry_id, reason="table 1 is too close to the bar"
    )
    page.goto(f"{live_server.url}/e/phone-open/rounds/3/")
    corrections = page.locator("#corrections")
    assert corrections.get_by_text("too close to the bar").is_visible()
    page.locator("#about-draw summary").click()  # the draw's machinery, for the curious
    assert page.locator("#draw-record").is_visible()


def _meets_again(entry, round_) -> bool:
    table = entry.seats.get(round=round_).table
    here = {s.entry_id for s in table.seats.all()} - {entry.pk}
    before = {
        s.entry_id for mine in entry.seats.exclude(round=round_) for s in mine.table.seats.all()
    }
    return bool(here & before)
