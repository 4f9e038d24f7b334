"""Issue 43's later parts in a real browser: the organiser makes a duplicate event on the
new-event form (its seed's hash published at once), deals the boards from the same seed; two
tables enter board 1 on their phones, the third table's cards were fouled, and a referee on a
phone (390 × 844) gives its players average-plus, average-minus and average on the board's
traveller, with the reason; the traveller and the duplicate standings show it.

Screenshots go to ``PULKA_SCREENSHOTS`` (default: a temporary folder), to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.duplicate.boards import seed_sha256
from tests.browser.steps import FITS, login, login_organiser, screenshots
from tests.browser.test_duplicate_event import NAMES, enter_board
from tests.factories import EntryFactory, PlayerFactory, UserFactory
from tournaments.demo.protocols import started_round
from tournaments.models import BoardResult, DuplicateEvent, Event, EventRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shots() -> Path:
    return screenshots("pulka-duplicate-adjusted-")


def test_a_duplicate_event_from_the_form_and_a_referees_adjusted_board(
    browser, desk, phone, live_server, shots
):
    base = live_server.url
    organiser = login_organiser(desk, live_server)

    # the new-event form: a duplicate event, its seed's hash published at once
    desk.goto(f"{base}/manage/new-event/")
    desk.get_by_label("Short name (URL)").fill("dupform")
    desk.get_by_label("Name:", exact=True).fill("Duplicate from the form")
    desk.get_by_label("First day").fill("2027-03-06")
    desk.get_by_label("Last day").fill("2027-03-06")
    desk.get_by_label("Venue").fill("Club")
    desk.get_by_label("Number of rounds").fill("1")
    desk.get_by_label("Published").check()
    desk.get_by_label("A duplicate event: the same prepared boards at every table of three").check()
    desk.get_by_label("Seed of the boards").fill("first frost")
    desk.screenshot(path=str(shots / "new-event-duplicate.png"), full_page=True)
    with desk.expect_navigation():
        desk.get_by_role("button", name="Save").click()
    event = Event.objects.get(slug="dupform")
    assert DuplicateEvent.objects.get(event=event).seed_hash == seed_sha256("first frost")
    for name in NAMES:
        EntryFactory(event=event, player=PlayerFactory(name=name))
    desk.goto(f"{base}/e/dupform/manage/duplicate/")
    assert seed_sha256("first frost") in desk.content()
    desk.get_by_label("Seed", exact=True).fill("first frost")
    with desk.expect_navigation():
        desk.get_by_role("button", name="Deal the boards from the seed").click()
    assert "3 boards prepared." in desk.content()

    # round 1: tables 1 and 2 enter board 1 on their phones; table 3's board 1 was fouled
    round_ = started_round(event, organiser)
    t1, t2, t3 = round_.tables.order_by("number")
    for table in (t1, t2):
        phone.goto(f"{base}/t/{table.url_key}/boards/?board=1")
        enter_board(phone, declarer=table.number - 1, whister=table.number % 3, tricks=6)
    assert BoardResult.objects.filter(board__event=event, board__number=1).count() == 2

    # a referee on a phone: average-plus, average-minus, average for table 3, with the reason
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    login(phone, live_server, referee)
    phone.goto(f"{base}/e/dupform/duplicate/boards/1/")
    assert phone.evaluate(FITS), "the referee's traveller scrolls sideways on a phone"
    adjust = phone.locator("details.adjust").nth(2)
    adjust.locator("summary").click()
    form = adjust.locator("form.adjust")
    seats = sorted(t3.seats.select_related("entry__player"), key=lambda s: s.position)
    names = [s.entry.player.name for s in seats]
    # a seat's label starts with the player's name; by label text alone "Vera" would also match
    # every seat's "average" among the choices (seen when the draw seated a Vera there)
    for name, share in ((names[0], "plus"), (names[1], "minus")):
        label = form.locator("label", has_text=re.compile(rf"^\s*{re.escape(name)}\s"))
        label.locator("select").select_option(share)
    form.get_by_label("Reason").fill("fouled board: two hands of eleven")
    with phone.expect_navigation():
        form.get_by_role("button", name="Adjust").click()
    result = BoardResult.objects.get(board__event=event, board__number=1, table=t3)
    assert result.adjusted == ["plus", "minus", "average"]
    html = phone.content()
    assert "Adjusted by a referee: fouled board: two hands of eleven" in html
    assert "average-plus (60 %)" in html and "average-minus (40 %)" in html
    # matchpoints: table 3's seats 60 %, 40 %, 50 % of the top 4
    scores = {s.seat: s.score for s in result.scores.all()}
    assert scores == {1: "12/5", 2: "8/5", 3: "2"}
    assert phone.evaluate(FITS), "the adjusted traveller scrolls sideways on a phone"
    phone.screenshot(path=str(shots / "traveller-adjusted.png"), full_page=True)

    phone.goto(f"{base}/e/dupform/duplicate/")
    assert phone.evaluate(FITS)
    assert "Adjusted scores" in phone.content() and "two hands of eleven" in phone.content()
    phone.screenshot(path=str(shots / "standings-adjusted.png"), full_page=True)
