"""Issue 43's "Done when" in a real browser: a duplicate evening of nine players at three
tables of three. The organiser makes the event a duplicate event, publishes the seed's hash and
deals the boards from the seed on the duplicate page; the seating engine draws three rounds (no
repeated opponents); each table enters its three boards of every round on a phone
(390 × 844) with the family's deal form; after each round is closed the travellers show every
table's result with its matchpoints and the hand record; the duplicate standings rank the nine.

Screenshots go to ``PULKA_SCREENSHOTS`` (default: a temporary folder), to look at."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from tests.browser.steps import FITS, login_organiser, screenshots
from tests.factories import EntryFactory, EventFactory, PlayerFactory
from tournaments.demo.protocols import started_round
from tournaments.models import Board, BoardResult, BoardScore, EventRole, Round
from tournaments.selectors.duplicate import table_plays
from tournaments.services.rounds import round_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Darya", "Egor", "Zoya", "Ivan", "Kira"]


@pytest.fixture
def shots() -> Path:
    return screenshots("pulka-duplicate-")


def enter_board(phone, *, declarer: int, whister: int, tricks: int) -> None:
    """A six of spades on the Russian phone form: the declarer's tricks, one whister, one pass."""
    phone.select_option("#declarer", str(declarer))
    phone.select_option("#contract", "6♠")
    for seat in range(3):
        if seat != declarer:
            phone.select_option(f"#call_{seat}", "whist" if seat == whister else "pass")
        phone.fill(f"#tricks_{seat}", str(tricks if seat == declarer else 10 - tricks if seat == whister else 0))
    with phone.expect_navigation():
        phone.get_by_role("button", name="Save the board's result").click()


def test_a_duplicate_evening_on_phones(browser, desk, phone, live_server, shots):
    base = live_server.url
    organiser = login_organiser(desk, live_server)
    event = EventFactory(slug="dup", variant="sochi", pulka_target=10, rounds_planned=3)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    for name in NAMES:
        EntryFactory(event=event, player=PlayerFactory(name=name))

    # the organiser: a duplicate event, the seed's hash published, the boards dealt from it
    desk.goto(f"{base}/e/dup/manage/duplicate/")
    with desk.expect_navigation():
        desk.get_by_role("button", name="Make this a duplicate event").click()
    desk.get_by_label("Seed (only its hash is published now)").fill("winter evening")
    with desk.expect_navigation():
        desk.get_by_role("button", name="Publish the seed's hash").click()
    desk.get_by_label("Seed", exact=True).fill("winter evening")
    # the test settings run jobs at once (no worker): the deal's answer waits for the nine
    # boards' double-dummy counts (well under a second of CPU each), as the draw waits for its engine
    with desk.expect_navigation(timeout=120000):
        desk.get_by_role("button", name="Deal the boards from the seed").click(timeout=120000)
    assert "9 boards prepared." in desk.content()
    assert Board.objects.filter(event=event).count() == 9
    desk.screenshot(path=str(shots / "duplicate-manage.png"), full_page=True)

    pairs: list[tuple[int, int]] = []
    for number in (1, 2, 3):
        round_ = started_round(event, organiser)
        tables = list(round_.tables.order_by("number"))
        assert len(tables) == 3
        for table in tables:
            ids = sorted(s.entry_id for s in table.seats.all())
            pairs += list(combinations(ids, 2))
            phone.goto(f"{base}/t/{table.url_key}/boards/")
            assert phone.evaluate(FITS), "the table's page scrolls sideways on a phone"
            boards = [b for p in table_plays(table) for b in p.boards]
            for k, board in enumerate(boards):
                assert f"Board {board}" in phone.content()
                # the tables differ: who declares and how many tricks he takes
                enter_board(
                    phone, declarer=(table.number + k) % 3, whister=(table.number + k + 1) % 3,
                    tricks=6 if (table.number + number) % 2 else 5,
                )
            assert "Every board of this round has its result." in phone.content()
            if number == 1 and table.number == 1:
                phone.screenshot(path=str(shots / "duplicate-table.png"), full_page=True)
        round_close(round_=Round.objects.get(pk=round_.pk), by=organiser)
    assert len(pairs) == len(set(pairs)) == 27  # no one met anyone twice

    assert BoardResult.objects.filter(board__event=event).count() == 27
    assert BoardScore.objects.filter(result__board__event=event).count() == 81

    # a traveller: every table's result on the board, its matchpoints, the hand record
    phone.goto(f"{base}/e/dup/duplicate/boards/4/")
    assert phone.evaluate(FITS)
    html = phone.content()
    assert html.count("6♠") >= 3 and "Hand record" in html and "Talon" in html
    assert phone.locator("section.traveller-table").count() == 3
    assert phone.locator("table.traveller tbody tr").count() == 9
    # the makeable contracts, counted by the job when the boards were dealt: seat × denomination
    assert "Makeable contracts" in html and "no trump" in html
    assert phone.locator("table.makeable tbody tr").count() == 3
    assert phone.locator("table.makeable tbody td").count() == 15
    phone.screenshot(path=str(shots / "duplicate-traveller.png"), full_page=True)

    # the standings: nine players, each with nine boards, matchpoints summing to 9 × 3 × 6
    phone.goto(f"{base}/e/dup/duplicate/")
    assert phone.evaluate(FITS)
    body = phone.locator("table.standings tbody tr")
    assert body.count() == 9
    assert all(name in phone.content() for name in NAMES)
    phone.screenshot(path=str(shots / "duplicate-standings.png"), full_page=True)
