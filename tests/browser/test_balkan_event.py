"""Issue 24's "Done when" in a real browser: an organiser creates an event in Croatian rules
(seed 002) and sets its bula and options, registers and checks in six players, draws a round of
two tables of three; the table enters its protocol on a phone in Croatian, sees a finding (a
plain two played without kontra, 002 "Kontra") and corrects it; the referee approves; the
standings show the settlement; the filled protocol PDF is in the Balkan sheet layout.

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
from tournaments.services.protocols import stored_protocol

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ana Horvat", "Branko Kovač", "Cvijeta Babić", "Davor Marić", "Ema Jurić", "Filip Novak"]


@pytest.fixture
def shots() -> Path:
    return screenshots("pulka-balkan-")


def test_a_croatian_league_evening_in_the_browser(
    browser, desk, phone, live_server, shots, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    base = live_server.url
    page = desk
    login_organiser(page, live_server)

    # create the event, then choose Croatian rules: saving shows the Balkan options
    create_event(
        page, base, slug="liga", name="Liga Zagreb", day="2027-01-09", venue="Klub",
        variant="croatian", table_size_policy="3",
    )  # fmt: skip
    save_settings(
        page, base, slug="liga", size_label="Bula:", game_size="30",  # named by the family
        options={"refa_limit": "1"}, screenshot=shots / "01-settings.png",
    )  # fmt: skip
    event = Event.objects.get(slug="liga")
    assert (event.variant, event.pulka_target, event.table_size_policy) == ("croatian", 30, "3")
    assert event.convention_options == {"refa_limit": 1}

    # register six players, check them in, draw round 1: two tables of three
    start_round_one(
        page,
        base,
        slug="liga",
        players_csv="name,club\n"
        + "\n".join(f"{name},Klub {k % 2}" for k, name in enumerate(PLAYERS)),
    )
    round_ = event.rounds.get(number=1)
    tables = list(round_.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [3, 3]
    table = tables[0]
    names = [s.entry.player.name for s in table.seats.order_by("position")]
    dealer = table.first_dealer
    declarer, left, right = dealer, (dealer + 1) % 3, (dealer + 2) % 3

    # the table's private link on a phone, in Croatian
    tablet = phone
    url = f"{base}/hr/t/{table.url_key}/"
    tablet.goto(url)
    body = tablet.locator("body").inner_text()
    for word in ("Nositelj igre", "Štihovi", "Kontra", "bez kontre", "igra (bez talona)"):
        assert word in body, word
    options = tablet.locator(f"select[name=defence_{left}] option").all_inner_texts()
    assert {"ide", "ne ide", "zove"} <= set(options)
    contracts = tablet.locator("#contract option").all_inner_texts()
    assert {"2 — list", "3 — bundeva", "6 — betl", "7 — sanac"} <= set(contracts), contracts
    tablet.screenshot(path=str(shots / "02-phone-empty.png"), full_page=True)
    assert tablet.evaluate(FITS)

    # deal 1: a plain two, both defenders play, no kontra: a finding (002 "Kontra")
    tablet.select_option("#declarer", str(declarer))
    tablet.select_option("#contract", "2")
    tablet.select_option(f"select[name=defence_{left}]", "play")
    tablet.select_option(f"select[name=defence_{right}]", "play")
    tablet.fill(f"input[name=tricks_{left}]", "2")
    tablet.fill(f"input[name=tricks_{right}]", "2")
    tablet.get_by_role("button", name="Dodaj dijeljenje").tap()
    finding = tablet.locator("tr.finding.error")
    finding.wait_for()
    text = finding.inner_text()
    assert "Obična dvojka traži kontru" in text and "Hrvatska pravila" in text, text
    # the sentence under the heading in Croatian too, the rule cited as seed 002's section
    assert "obična dvojka (bez igre, bez refe) igra se samo nakon kontre" in text, text
    assert "[Hrvatska pravila, „Kontra“]" in text, text  # issue 36: no file number
    tablet.screenshot(path=str(shots / "03-phone-finding.png"), full_page=True)
    assert tablet.evaluate(FITS)
    saved = current_protocol(table)
    assert saved.error_count == 1 and saved.findings[0]["code"] == "KONTRA_MISSING"

    # correct it: the left defender said kontra
    tablet.locator("#deal-1 a.edit").tap()
    tablet.select_option("#declarer", str(declarer))
    tablet.select_option("#contract", "2")
    tablet.select_option(f"select[name=defence_{left}]", "play")
    tablet.select_option(f"select[name=defence_{right}]", "play")
    tablet.select_option("#kontra", "1")
    tablet.select_option("#kontra_by", str(left))
    tablet.fill(f"input[name=tricks_{left}]", "2")
    tablet.fill(f"input[name=tricks_{right}]", "2")
    tablet.get_by_role("button", name="Spremi ispravak").tap()
    tablet.wait_for_selector("#deal-1")
    assert tablet.locator("tr.finding.error").count() == 0
    # deal 2: the next seat declares 3 (bundeva), one defender drops, the other plays: 7-3
    tablet.select_option("#declarer", str(left))
    tablet.select_option("#contract", "3")
    tablet.select_option(f"select[name=defence_{right}]", "play")
    tablet.select_option(f"select[name=defence_{declarer}]", "drop")
    tablet.fill(f"input[name=tricks_{left}]", "7")
    tablet.fill(f"input[name=tricks_{right}]", "3")
    tablet.fill(f"input[name=tricks_{declarer}]", "0")
    tablet.get_by_role("button", name="Dodaj dijeljenje").tap()
    tablet.wait_for_selector("#deal-2")
    assert tablet.locator("tr.finding.error").count() == 0
    # the league's three hours are up: stopped by the time limit, scored by the seed's formula
    tablet.select_option("select[name=ending]", "time-limit")
    tablet.get_by_role("button", name="Spremi završetak").tap()
    tablet.wait_for_selector("#deal-2")
    tablet.screenshot(path=str(shots / "04-phone-entered.png"), full_page=True)
    assert tablet.evaluate(FITS)
    saved = current_protocol(table)
    assert saved.error_count == 0, saved.findings
    game = stored_protocol(saved.data)
    settlement = VARIANTS["balkan"].settlement(game)
    assert [Fraction(r["whists"]) for r in saved.result] == list(settlement)
    assert any(settlement)

    # the referee approves for the players who have not confirmed
    approve_protocol(
        page, base, slug="liga", table_number=table.number, confirm_for_the_others=True
    )
    saved.refresh_from_db()
    assert saved.approved

    # the standings (in Croatian) show each player's settlement in points
    tablet.goto(f"{base}/hr/e/liga/standings/")
    standings = tablet.locator("body").inner_text()
    tablet.screenshot(path=str(shots / "05-phone-standings.png"), full_page=True)
    for name, points in zip(names, settlement, strict=True):
        row = tablet.locator("tr", has_text=name).first.inner_text()
        assert str(points).replace("-", "−") in row or str(points) in row, (name, points, row)
    assert "Poredak" in standings or "Plasman" in standings

    # the filled protocol PDF, in Croatian: the Balkan sheet's words and columns
    text = filled_protocol_text(
        page, base, event=event, table=table, language="hr", tmp_path=tmp_path,
        keep=shots / "06-filled.pdf",
    )  # fmt: skip
    for word in (
        "juha",
        "bula",
        "Konačni obračun",
        "Rezultat (bodovi)",
        "ODOBREN",
        "Upozorenje",
        "Hrvatski preferans",
        *names,
    ):
        assert word in text, word
