"""Issue 27's "Done when" in a real browser: a Priffe table played through on a phone in
Swedish. The organiser creates an event in modern Priffe (seed 004) at tables of four,
registers and checks in four players and draws the round; the table enters its deals on a
phone (390 × 844) in Swedish, each player's bid included: an information bid from the third
speaker is a live finding citing seed 004 "Budgivning", corrected; three sits are played (each
partnership once) and the ending saved; each of the four players confirms through his own
private link; the referee approves; the standings in Swedish show the player totals; the filled
protocol PDF in Swedish is the below/above-the-line sheet.

Screenshots go to ``PULKA_SCREENSHOTS`` (default: a temporary folder), to look at."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from scoring.variants import VARIANTS
from tests.browser.steps import (
    FITS,
    approve_protocol,
    create_event,
    current_protocol,
    filled_protocol_text,
    login_organiser,
    save_settings,
    screenshots,
    start_round_one,
)
from tournaments.models import Event
from tournaments.services.protocols import stored_protocol, table_header

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Astrid Berg", "Bengt Dahl", "Cecilia Ek", "Dagny Frisk"]


@pytest.fixture
def shots() -> Path:
    return screenshots("pulka-priffe-")


def enter(tablet, *, declarer: int, tricks: int, bids: dict[int, str] | None = None) -> None:
    """One hjärter deal on the phone form (the sits is the one the page offers)."""
    for seat, word in (bids or {}).items():
        tablet.select_option(f"#bid_{seat}", word)
    tablet.select_option("#contract", "hjärter")
    tablet.select_option("#declarer", str(declarer))
    tablet.fill("#tricks_own", str(tricks))


def test_a_priffe_evening_on_a_phone_in_swedish(
    browser, desk, phone, live_server, shots, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    base = live_server.url
    page = desk
    login_organiser(page, live_server)

    # the event: modern Priffe at tables of four, three sits (everyone partners everyone)
    create_event(
        page, base, slug="priffe", name="Priffekväll", day="2027-02-05", venue="Klubben",
        variant="modern", table_size_policy="4",
    )  # fmt: skip
    save_settings(page, base, slug="priffe", game_size="3")
    event = Event.objects.get(slug="priffe")
    assert (event.variant, event.pulka_target, event.table_size_policy) == ("modern", 3, "4")

    # four players, checked in; the round drawn, published and started
    start_round_one(
        page,
        base,
        slug="priffe",
        players_csv="name,club\n" + "\n".join(f"{name},Klubben" for name in PLAYERS),
    )
    (table,) = event.rounds.get(number=1).tables.all()
    seats = list(table.seats.order_by("position").select_related("entry__player"))
    assert len(seats) == 4
    names = [s.entry.player.name for s in seats]
    sittings = table_header(table).sittings  # a+c, a+b, a+d from the first dealer (A-PR-5)

    # the table's link on a phone, in Swedish
    tablet = phone
    url = f"{base}/sv/t/{table.url_key}/"
    tablet.goto(url)
    body = tablet.locator("body").inner_text()
    for word in (
        "Kontrakt",
        "Spelförarbolagets stick",
        "tvångsnoll",
        "Bud (budgivning)",
        "straff (",
    ):
        assert word in body, word
    assert "Lägg till given" in body
    tablet.screenshot(path=str(shots / "01-phone-empty.png"), full_page=True)
    assert tablet.evaluate(FITS)

    # deal 1 of sits 1: the first dealer deals, forehand (his left) bids hjärter, the third
    # speaker says spader — an information bid of the first two speakers only: a finding
    first = sittings[0]
    forehand, second, third, dealer = first[1], first[2], first[3], first[0]
    illegal = {forehand: "hjärter", second: "pass", third: "spader", dealer: "pass"}
    enter(tablet, declarer=forehand, tricks=9, bids=illegal)
    tablet.get_by_role("button", name="Lägg till given").tap()
    finding = tablet.locator("tr.finding.error").first
    finding.wait_for()
    text = finding.inner_text()
    assert "Ett bud mot budgivningens regler" in text and "Priffe regler" in text, text
    tablet.screenshot(path=str(shots / "02-phone-finding.png"), full_page=True)
    assert tablet.evaluate(FITS)
    saved = current_protocol(table)
    # issue 37 split the auction's finding by the rule broken: spader is an information bid of
    # the first two speakers only, and it does not outbid hjärter
    codes = {f["code"] for f in saved.findings}
    assert saved.error_count >= 1 and codes == {"AUCTION_INFORMATION", "AUCTION_NOT_HIGHER"}
    assert stored_protocol(saved.data).deals[0].bids == ("hjärter", "pass", "spader", "pass")

    # corrected: the third speaker passed
    tablet.locator("#deal-1 a.edit").tap()
    enter(tablet, declarer=forehand, tricks=9, bids={**illegal, third: "pass"})
    tablet.get_by_role("button", name="Spara rättelsen").tap()
    tablet.wait_for_selector("#deal-1")
    assert tablet.locator("tr.finding.error").count() == 0
    assert current_protocol(table).error_count == 0

    # the rest of the three sits: in each, the second player's partnership wins two games of
    # hjärter (9 tricks, 30 under strecket each); the page offers the next sits when one is won
    entered = 1
    for sits, seating in enumerate(sittings):
        for _ in range(1 if sits == 0 else 2):
            assert tablet.locator("#sits").input_value() == str(sits + 1)
            enter(tablet, declarer=seating[1], tricks=9)
            tablet.get_by_role("button", name="Lägg till given").tap()
            entered += 1
            tablet.wait_for_selector(f"#deal-{entered}")
    assert "utgång" in tablet.locator("table.pulka").inner_text()
    tablet.select_option("select[name=ending]", "closed")
    tablet.get_by_role("button", name="Spara avslutningen").tap()
    tablet.wait_for_selector("#deal-6")
    tablet.screenshot(path=str(shots / "03-phone-played.png"), full_page=True)
    assert tablet.evaluate(FITS)
    saved = current_protocol(table)
    assert saved.error_count == 0, saved.findings
    game = stored_protocol(saved.data)
    totals = VARIANTS["priffe"].score(game).player_totals
    assert [Fraction(r["whists"]) for r in saved.result] == [Fraction(t) for t in totals]
    assert sorted(totals) == [0, 120, 120, 120]  # the first dealer was always on side 0

    # each of the four confirms on his own phone link, in Swedish
    for seat in seats:
        tablet.goto(f"{base}/sv/p/{seat.entry.url_key}/protocols/")
        tablet.screenshot(path=str(shots / "04-phone-confirm.png"), full_page=True)
        # the four-column pulka is wider than the phone on this page (the page zooms out, and
        # a synthesised tap lands beside the button): the keyboard presses it
        tablet.get_by_role("button", name="Jag bekräftar protokollet").focus()
        with tablet.expect_navigation():
            tablet.keyboard.press("Enter")
        assert "Du bekräftade" in tablet.locator("body").inner_text() or (
            tablet.get_by_role("button", name="Jag bekräftar protokollet").count() == 0
        )
    assert saved.confirmations.count() == 4

    # the referee approves
    approve_protocol(page, base, slug="priffe", table_number=table.number)
    saved.refresh_from_db()
    assert saved.approved

    # the standings in Swedish: each player's total, credited to both partners
    tablet.goto(f"{base}/sv/e/priffe/standings/")
    standings = tablet.locator("body").inner_text()
    assert "Ställning" in standings
    for name, points in zip(names, totals, strict=True):
        row = tablet.locator("tr", has_text=name).first.inner_text()
        assert str(points) in row, (name, points, row)
    tablet.screenshot(path=str(shots / "05-phone-standings.png"), full_page=True)
    assert tablet.evaluate(FITS)

    # the filled protocol PDF in Swedish: the sheet below and above the line
    text = filled_protocol_text(
        page, base, event=event, table=table, language="sv", tmp_path=tmp_path,
        keep=shots / "06-filled.pdf",
    )  # fmt: skip
    for word in ("över strecket", "under strecket", "utgång", "GODKÄNT", *names):
        assert word in text, word
