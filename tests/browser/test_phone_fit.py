"""Issue 29's "Done when" for the pages' fit and accessibility, in a real browser on the demo:

- on a 390 × 844 phone no page scrolls sideways, in English or in Russian (a wide table scrolls
  inside its own box, with the names and the total kept in view);
- axe-core (tests/browser/vendor/axe.min.js, injected into each page) reports no serious or
  critical violation;
- each page is photographed at phone and desktop width into ``PULKA_SCREENSHOTS`` (default
  ``var/screenshots/``, ignored by git), to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.steps import screenshots
from tests.demo_pages import FAMILY_DEMOS, demo_pages, family_demo_pages
from tests.factories import UserFactory

from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
#: the page's width and the window's: a page fits when the first is at most the second and the
#: window is the phone's 390 px (a mobile browser widens its layout viewport to fit a page that
#: is too wide, so innerWidth alone would hide an overflow)
WIDTHS = "[document.documentElement.scrollWidth, window.innerWidth]"
#: axe-core's violations of impact serious or critical: [rule id, help, [target, …]]
SUIT_COLOURS = """() => [...document.querySelectorAll('table.pulka [class^=suit-]')].map(
  e => [e.textContent, getComputedStyle(e).color])"""
AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => [v.id, v.help, v.nodes.slice(0, 5).map(n => n.target.join(' '))]);
}"""


@pytest.fixture
def shots() -> Path:
    return screenshots("pulka-phone-", Path(__file__).resolve().parents[2] / "var" / "screenshots")


def on_the_phone(phone, live_server, page, shots: Path, axe: str) -> list[str]:
    """``page`` (a demo page) on the phone: it answers, fits the phone's 390 px and passes
    axe-core (serious or critical); photographed. What is wrong, in words."""
    problems = []
    response = phone.goto(live_server.url + page.path)
    assert response.ok, (page.name, response.status)
    width, inner = phone.evaluate(WIDTHS)
    if not width <= inner == 390:
        problems.append(f"{page.name}: the page is {width}px wide in a {inner}px window")
    # in CSS pixels: the phone's 2× device pixels would cost three times as long to encode
    phone.screenshot(path=str(shots / f"{page.name}-phone.png"), full_page=True, scale="css")
    phone.add_script_tag(content=axe)
    for rule, help_, targets in phone.evaluate(AXE_RUN):
        problems.append(f"{page.name}: axe {rule} ({help_}) at {targets}")
    return problems


def test_the_demo_pages_fit_a_phone_and_pass_axe(phone, desk, live_server, shots):
    organiser = UserFactory(is_staff=True, is_superuser=True)
    _, pages = demo_pages(organiser=organiser)
    login(phone, live_server, organiser)
    login(desk, live_server, organiser)
    axe = AXE.read_text()
    problems = []
    for page in pages:
        url = live_server.url + page.path
        problems += on_the_phone(phone, live_server, page, shots, axe)
        desk.goto(url)
        desk.screenshot(path=str(shots / f"{page.name}-desktop.png"), full_page=True, scale="css")
        # Russian words are longer: the page still fits
        phone.goto(f"{live_server.url}/ru{page.path}")
        width, inner = phone.evaluate(WIDTHS)
        if not width <= inner == 390:
            problems.append(f"{page.name} in Russian: the page is {width}px wide in {inner}px")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("family", FAMILY_DEMOS)
def test_the_other_families_pages_fit_a_phone_and_pass_axe(family, phone, live_server, shots):
    """The Croatian, Priffe and Viennese demo evenings: their own pulka columns, sheets and
    standings on a phone (photographed too); one test each, so that the test workers share
    them."""
    organiser = UserFactory(is_staff=True, is_superuser=True)
    pages = family_demo_pages(organiser=organiser, families=[family])
    login(phone, live_server, organiser)
    axe = AXE.read_text()
    problems = []
    for page in pages:
        problems += on_the_phone(phone, live_server, page, shots, axe)
    assert not problems, "\n".join(problems)


def test_standings_and_protocols_on_a_phone(phone, live_server):
    """The standings: the table is wider than the phone, its box scrolls (and takes the keyboard
    focus), and scrolled to its far end the player's name and the total are still in view;
    provisional results are italic and the figure in brackets is explained. The table's page:
    ♦ and ♥ red, ♠ and ♣ black."""
    organiser = UserFactory(is_staff=True, is_superuser=True)
    event, pages = demo_pages(organiser=organiser)
    phone.goto(f"{live_server.url}/e/{event.slug}/standings/")
    box = phone.locator("div.scroll").first
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # the standings are wider
    assert box.get_attribute("tabindex") == "0"
    row = phone.locator("table.standings tbody tr").first
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    for cell in (row.locator("td.name"), row.locator("td.total")):
        seen = cell.bounding_box()
        assert seen["x"] >= 0 and seen["x"] + seen["width"] <= 390, seen
    box.evaluate("b => { b.scrollLeft = 0; }")
    assert phone.evaluate(WIDTHS) == [390, 390]
    provisional = phone.locator("table.standings td.total .provisional").first
    assert provisional.evaluate("e => getComputedStyle(e).fontStyle") == "italic"
    assert phone.locator("#bracket-note").is_visible()
    assert "brackets beside a total" in phone.locator("#bracket-note").inner_text()

    colours = []
    for page in pages:
        if page.name.startswith("table-"):
            phone.goto(live_server.url + page.path)
            colours += phone.evaluate(SUIT_COLOURS)
    assert {suit for suit, _ in colours} & set("♦♥")  # the demo's deals have red suits
    # and a black one as the pulka would show it (the demo may have drawn none)
    [findings] = [p for p in pages if p.name == "table-findings"]
    phone.goto(live_server.url + findings.path)
    phone.evaluate(
        "() => document.querySelector('table.pulka td:nth-child(2)')"
        ".insertAdjacentHTML('beforeend', '<span class=\"suit-black\">♣</span>')"
    )
    colours += phone.evaluate(SUIT_COLOURS)
    for suit, colour in colours:
        red = suit in "♦♥"
        assert colour == ("rgb(200, 16, 46)" if red else "rgb(17, 17, 17)"), (suit, colour)
