"""Entering a protocol in a real browser: at the table on a phone, at the referee's desk with
the keyboard only (issue 5, "Done when")."""

from __future__ import annotations

import pytest

from tests.tournaments.protocols.conftest import make_table
from tournaments.models import EntryKind, Protocol

from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def current(setup):
    return Protocol.objects.get(table=setup.table, entry_kind=EntryKind.TABLE, is_current=True)


def test_table_enters_deals_on_a_phone(phone, live_server):
    setup = make_table(slug="phone-cup")
    page = phone
    page.goto(f"{live_server.url}/t/{setup.table.url_key}/")
    assert page.get_by_text("No deal entered yet.").is_visible()
    # deal 1: Anna 6♠, Boris whists, Vera passes, Anna takes 6
    page.select_option("#declarer", label="Anna")
    page.select_option("#contract", "6♠")
    page.get_by_label("Call of Boris").select_option("whist")
    page.get_by_label("Call of Vera").select_option("pass")
    page.get_by_label("Tricks of Anna").fill("6")
    page.get_by_role("button", name="Add the deal").tap()
    page.wait_for_selector("#deal-1")
    # deal 2: raspasy with a slip: 4-3-2 (nine tricks)
    page.get_by_label("Raspasy (all passed)").check()
    assert not page.locator("#declarer").is_visible()  # the little JS hides what raspasy lacks
    page.get_by_label("Tricks of Anna").fill("4")
    page.get_by_label("Tricks of Boris").fill("3")
    page.get_by_label("Tricks of Vera").fill("2")
    page.get_by_role("button", name="Add the deal").tap()
    finding = page.locator("tr.finding.error")
    finding.wait_for()
    assert "3.7.6.1" in finding.inner_text()  # the rule, next to deal 2
    assert page.locator("#deal-2 + tr.finding").count() == 1
    assert current(setup).error_count == 1
    # leaving and coming back resumes where it was
    page.goto(f"{live_server.url}/t/{setup.table.url_key}/")
    assert page.locator("tr.deal").count() == 2
    # correct deal 2
    page.locator("#deal-2 a.edit").tap()
    page.get_by_label("Raspasy (all passed)").check()
    page.get_by_label("Tricks of Anna").fill("4")
    page.get_by_label("Tricks of Boris").fill("3")
    page.get_by_label("Tricks of Vera").fill("3")
    page.get_by_role("button", name="Save the correction").tap()
    page.wait_for_selector("#deal-2")
    assert page.locator("tr.finding.error").count() == 0
    assert current(setup).version == 3 and current(setup).error_count == 0
    # the page fits the phone: no sideways scrolling
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_referee_enters_from_the_paper_with_the_keyboard_only(desk, live_server):
    setup = make_table(slug="desk-cup")
    page = desk
    login(page, live_server, setup.referee)
    page.goto(f"{live_server.url}/e/desk-cup/manage/rounds/1/tables/1/protocol")
    assert page.evaluate("document.activeElement.id") == "notation"  # autofocus: type at once
    page.keyboard.type("Anna 6♠ = w/p\nBoris 7♦ -1 p/w\nраспасы 4-3-3\nVera мизер =\n")
    with page.expect_navigation():
        page.keyboard.press("Control+Enter")
    assert page.get_by_text("Saved.").is_visible()
    assert page.locator("tr.deal").count() == 4
    saved = current(setup)
    assert saved.version == 1 and saved.notation.startswith("Anna 6♠")
    # the ending defaulted to "closed", but no pulya reached 10: the finding shows (4.2.14)
    assert saved.error_count == 1 and "4.2.14" in page.locator("ul.findings").inner_text()
    # second save: one more deal, Tab to the ending, "s" picks "stopped by agreement" (the
    # endings are in words, issue 29; 001 §4.2.3)
    page.focus("#notation")
    page.keyboard.press("Control+End")
    page.keyboard.type("Anna 6♣ = w3/w1\n")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "ending"
    page.keyboard.press("s")
    assert page.evaluate("document.activeElement.value") == "agreement"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "save"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.get_by_text("Saved.").is_visible()
    assert current(setup).version == 2 and page.locator("tr.deal").count() == 5
    assert current(setup).error_count == 0 and page.locator(".error[role=note]").count() == 0
    # approve with the keyboard: Tab to the checkbox, Space, Tab, Enter
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "confirm_missing":
            break
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "approve"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    approved = current(setup)
    assert approved.approved and approved.confirmations.count() == 3
    assert page.locator(".state", has_text="approved").count() == 1
