"""The table's phone page and the referee's desk in a real browser (issue 29): "Correct" opens the
deal's form filled with the deal, an impossible count gets the app's own message naming the
field, and the referee approves a protocol with the players' written error kept on record.

Screenshots go to ``PULKA_SCREENSHOTS`` (default: a temporary folder), to look at."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from django.urls import reverse

from rules.contracts import Contract
from scoring.russian import Sheet, score
from scoring.russian.protocol import Call, Ending, Game, Raspasy
from tests.browser.steps import FITS, current_protocol, screenshots
from tests.tournaments.protocols.conftest import make_table
from tests.tournaments.protocols.test_referee_entry import deals_protocol, save
from tournaments.models import AuditLogEntry, Protocol
from tournaments.services.protocols import protocol_confirm, table_header

from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

W, P = Call.WHIST, Call.PASS


@pytest.fixture
def shots() -> Path:
    return screenshots("pulka-referee-")


def current(setup) -> Protocol:
    return current_protocol(setup.table)


def saved(setup, deals, sheet=None, ending=Ending.IN_PROGRESS) -> Protocol:
    return save(setup, deals_protocol(setup, deals, ending), sheet=sheet)


def test_correct_opens_the_deals_form_filled_on_a_phone(phone, live_server, shots):
    setup = make_table(slug="correct-cup")
    both = Game(0, Contract.from_str("7♥"), (W, W), 6, (2, 2))  # Anna 7♥, both whist
    saved(setup, [both, Raspasy((2, 5, 3))])
    page = phone
    page.goto(f"{live_server.url}/t/{setup.table.url_key}/")
    assert "Anna: 7♥ / one down — Boris whist, Vera whist" in page.locator("#deal-1").inner_text()
    page.locator("#deal-1 a.edit").tap()
    page.wait_for_selector("text=Correct deal 1")
    assert page.locator("#declarer").input_value() == "0"
    assert page.locator("#contract").input_value() == "7♥"
    assert page.get_by_label("Call of Boris").input_value() == "whist"
    assert page.get_by_label("Call of Vera").input_value() == "whist"
    assert [
        page.get_by_label(f"Tricks of {n}").input_value() for n in ("Anna", "Boris", "Vera")
    ] == ["6", "2", "2"]
    assert "each whister's tricks" in page.locator("form.deal-form").inner_text()
    page.screenshot(path=str(shots / "01-phone-correct-prefilled.png"), full_page=True)
    assert page.evaluate(FITS)
    # Vera's count left out: the app's own message names her field (the browser has no
    # check for that); then an impossible count past the browser's number check
    page.get_by_label("Tricks of Vera").fill("")
    page.get_by_role("button", name="Save the correction").tap()
    alert = page.locator("p.error[role=alert]")
    alert.wait_for()
    assert "give the tricks of Vera too (Kodeks 1996, 3.8.6)" in alert.inner_text()
    assert page.get_by_label("Tricks of Vera").get_attribute("aria-invalid") == "true"
    assert page.get_by_label("Tricks of Boris").input_value() == "2"  # the form kept the rest
    page.evaluate(
        "document.querySelectorAll('input[type=number]').forEach(i => i.removeAttribute('max'))"
    )
    page.get_by_label("Tricks of Vera").fill("12")
    page.get_by_role("button", name="Save the correction").tap()
    page.wait_for_selector("text=Tricks of Vera: 12 is not possible")
    page.screenshot(path=str(shots / "02-phone-impossible-count.png"), full_page=True)
    assert current(setup).version == 1  # nothing saved
    # corrected: Anna 7 tricks, Boris 2, Vera 1
    page.get_by_label("Tricks of Anna").fill("7")
    page.get_by_label("Tricks of Vera").fill("1")
    page.get_by_role("button", name="Save the correction").tap()
    page.wait_for_selector("text=Anna: 7♥ / made — Boris whist, Vera whist")
    assert current(setup).version == 2
    assert current(setup).data["deals"][0]["defender_tricks"] == [2, 1]
    # what the players wrote, copied from paper, still fits the phone; in Russian too
    page.locator("#sheet summary").tap()
    page.get_by_label("Whists on Boris").first.fill("1")
    page.get_by_role("button", name="Save the written row").tap()
    page.wait_for_selector("tr.finding.error")
    assert page.evaluate(FITS)
    assert current(setup).version == 3 and current(setup).sheet["running"][1] is not None
    page.goto(f"{live_server.url}/ru/t/{setup.table.url_key}/")
    assert "Anna: 7♥ / сыграна — Boris вист, Vera вист" in page.locator("#deal-1").inner_text()
    page.screenshot(path=str(shots / "03-phone-ru-sheet-finding.png"), full_page=True)
    assert page.evaluate(FITS)


def test_referee_approves_with_the_players_error_on_record(desk, live_server, shots):
    setup = make_table(slug="ack-cup")
    deals = [
        Game(0, Contract.from_str("6♠"), (W, P), 6),
        Game(1, Contract.from_str("8♦"), (W, P), 7),
    ]
    protocol = dataclasses.replace(
        table_header(setup.table).with_deals(tuple(deals)), ending=Ending.AGREEMENT
    )
    s = score(protocol)
    rows = [s.row(0), list(s.row(1))]
    anna = rows[1][0]
    rows[1][0] = dataclasses.replace(anna, whists=(0, 0, anna.whists[2]))  # no consolation
    version = saved(setup, deals, Sheet((rows[0], tuple(rows[1]))), ending=Ending.AGREEMENT)
    for seat, entry in enumerate(setup.entries):
        protocol_confirm(protocol=version, seat=seat, entry=entry)
    login(desk, live_server, setup.referee)
    url = live_server.url + reverse("protocol-referee", args=[setup.event.slug, 1, 1])
    desk.goto(url)
    finding = desk.locator("tr.finding.error")
    assert "Anna: whists on Boris written 0, should be 6 [Kodeks 1996, 3.8.1.2]" in finding.inner_text()
    assert "The players' figure" in finding.inner_text()
    # approving plainly is refused, saying why
    desk.locator("#approve").click()
    desk.wait_for_selector("text=Correct the sheet, or approve with the players' error")
    assert not current(setup).approved
    desk.locator("#acknowledge_players_errors").check()
    desk.locator("#acknowledge_note").fill("Anna forgot the consolation; the pulka is right")
    desk.screenshot(path=str(shots / "04-desk-acknowledge.png"), full_page=True)
    desk.locator("#approve").click()
    desk.wait_for_selector("p.acknowledged")
    note = desk.locator("p.acknowledged").inner_text()
    assert "stay on record as the players' error" in note
    assert setup.referee.get_username() in note and "Anna forgot the consolation" in note
    desk.screenshot(path=str(shots / "05-desk-acknowledged.png"), full_page=True)
    approved = current(setup)
    assert approved.approved and approved.players_errors_acknowledged_by == setup.referee
    assert approved.error_count == 1 and approved.sheet["running"][1][0]["whists"][1] == 0
    assert AuditLogEntry.objects.get(action="protocol.approved").data["players_errors"] == 1
