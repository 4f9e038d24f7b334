"""Issue 29 in a real browser: the organiser's desk shows what needs attention in a round in
play, each with its link; the round's close lists the tables without an approved protocol
and closes only with a confirmation and a reason, which the log keeps.

Screenshots go to ``PULKA_SCREENSHOTS`` (default: a temporary folder), to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import login
from tests.browser.steps import FITS, screenshots
from tests.factories import EventFactory, UserFactory
from tests.tournaments.views.test_desk import record, seat_round
from tournaments.models import AuditLogEntry, EventRole, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shots() -> Path:
    return screenshots("pulka-desk-")


def test_the_desk_and_the_round_close_in_the_browser(desk, phone, live_server, shots):
    event = EventFactory(slug="club-night", name="Club Night")
    organiser = UserFactory()
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    round_ = seat_round(event, 1, 3)
    t1, t2, t3 = round_.tables.order_by("number")
    record(t2, errors=1)
    record(t3, confirmed=3, approved=True)

    page = desk
    login(page, live_server, organiser)
    page.goto(f"{live_server.url}/e/club-night/manage/")
    assert page.get_by_text("9 players, 9 checked in").is_visible()
    attention = page.locator("#desk-round-1")
    assert attention.get_by_text("1 table without a protocol").is_visible()
    assert attention.get_by_text("1 protocol with errors").is_visible()
    assert attention.get_by_text("1 of 3 tables approved").is_visible()
    assert attention.get_by_role("link", name="Table 3").count() == 0  # approved: nothing to do
    page.screenshot(path=str(shots / "01-desk.png"), full_page=True)
    with page.expect_navigation():
        attention.get_by_role("link", name="Table 1 (R1T1-1, R1T1-2, R1T1-3)").click()
    assert page.url.endswith("/e/club-night/manage/rounds/1/tables/1/protocol")

    # the round's close lists the open tables and asks for a confirmation and a reason
    page.goto(f"{live_server.url}/e/club-night/manage/rounds/1/")
    close = page.locator("#close-round")
    listed = close.locator("#unfinished-tables").inner_text()
    assert "Table 1 (R1T1-1, R1T1-2, R1T1-3): no protocol" in listed
    assert "Table 2 (R1T2-1, R1T2-2, R1T2-3): protocol with errors" in listed
    assert "Table 3" not in listed
    assert close.get_by_text("2 tables have no approved protocol").is_visible()
    close.get_by_label("Reason").fill("table 1 left at the time limit")
    close.get_by_role("button", name="Close the round without these results").click()
    # not confirmed: the browser holds the form at the required box, the round still in play
    confirm = close.get_by_label("Close the round anyway")
    assert confirm.evaluate("box => box.validity.valueMissing")
    round_.refresh_from_db()
    assert round_.state == Round.State.IN_PLAY
    page.screenshot(path=str(shots / "02-round-close.png"), full_page=True)
    confirm.check()
    with page.expect_navigation():
        close.get_by_role("button", name="Close the round without these results").click()
    assert page.get_by_text("The round is closed.").is_visible()
    round_.refresh_from_db()
    assert round_.state == Round.State.CLOSED
    logged = AuditLogEntry.objects.get(event=event, action="round.closed")
    assert logged.reason == "table 1 left at the time limit"
    assert [t["table"] for t in logged.data["unfinished"]] == [1, 2]

    # the closed round stays on the desk while its tables have no result; on a phone too
    login(phone, live_server, organiser)
    phone.goto(f"{live_server.url}/e/club-night/manage/")
    assert phone.locator("#desk-round-1").get_by_text("no result for it in the standings").count()
    assert phone.evaluate(FITS), "the desk scrolls sideways on a phone"
    phone.screenshot(path=str(shots / "03-desk-phone.png"), full_page=True)
