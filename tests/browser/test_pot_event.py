"""Issue 26's "Done when" in a real browser: an organiser creates an event in German Préférence
(seed 003) and sets its options (the agreed maximum, the pot left at the end), registers and
checks in six players, draws a round of two tables of three; the table enters its deals on a
phone in German, sees a live finding (tricks that do not add up to ten, 003 "Der Ablauf des
Spiels") and corrects it; each player confirms through his own link; the referee approves; the
standings (in German) show each player's result from the nets and say what happened to the pot
left at the end; the filled protocol PDF is the ledger, in German.

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

PLAYERS = ["Anna Bauer", "Bernd Roth", "Clara Vogel", "Dieter Hahn", "Eva Lang", "Fritz Koch"]
#: the deal form itself within the phone's 390 px (the decisions' selects stay narrow)
FORM_FITS = (
    "document.querySelector('form.deal-form table.players').getBoundingClientRect().right <= 391"
)


@pytest.fixture
def shots() -> Path:
    return screenshots("pulka-pot-")


def _deal(tablet, *, declarer, contract, decisions, tricks, button="Spiel hinzufügen"):
    """Fill the phone form in the players' words (003: mitgehen, daheim bleiben) and add it."""
    tablet.select_option("#declarer", str(declarer))
    tablet.select_option("#contract", contract)
    for seat, decision in decisions.items():
        tablet.select_option(f"select[name=defence_{seat}]", decision)
    for seat, count in tricks.items():
        tablet.fill(f"input[name=tricks_{seat}]", str(count))
    tablet.get_by_role("button", name=button).tap()


def test_a_german_preference_evening_on_a_phone_in_german(
    browser, desk, phone, live_server, shots, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    base = live_server.url
    page = desk
    login_organiser(page, live_server)

    # create the event, then choose German rules: saving shows the pot games' options
    create_event(
        page, base, slug="abend", name="Préférence-Abend", day="2027-02-13", venue="Gasthaus",
        variant="german", table_size_policy="3",
    )  # fmt: skip
    save_settings(
        page,
        base,
        slug="abend",
        size_label="Stake (chips):",  # the game size, named by the family
        game_size="10",  # 003: the dealer's ten chips
        options={"cap": "40"},  # the agreed maximum (Höchstgrenze), 003
        screenshot=shots / "01-settings.png",
    )
    event = Event.objects.get(slug="abend")
    assert (event.variant, event.pulka_target, event.table_size_policy) == ("german", 10, "3")
    assert event.convention_options == {"cap": 40}

    # register six players, check them in, draw round 1: two tables of three
    start_round_one(
        page,
        base,
        slug="abend",
        players_csv="name,club\n"
        + "\n".join(f"{name},Verein {k % 2}" for k, name in enumerate(PLAYERS)),
    )
    round_ = event.rounds.get(number=1)
    tables = list(round_.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [3, 3]
    table = tables[0]
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    names = [s.entry.player.name for s in seats]
    dealer = table.first_dealer
    vorhand, mittelhand = (dealer + 1) % 3, (dealer + 2) % 3

    # the table's private link on a phone, in German: the players' words of seed 003
    tablet = phone
    tablet.goto(f"{base}/de/t/{table.url_key}/")
    body = tablet.locator("body").inner_text()
    for word in ("Alleinspieler", "Stiche", "Topf", "Alle passen"):
        assert word in body, word
    assert "Alle passen (alle passen)" not in body  # said once
    decisions = tablet.locator(f"select[name=defence_{vorhand}] option").all_inner_texts()
    assert any(o.startswith("mitgehen") for o in decisions), decisions
    assert any(o.startswith("daheim bleiben") for o in decisions), decisions
    assert not any("bjuder in" in o or "tvång" in o for o in decisions)  # Vienna's words only
    contracts = tablet.locator("#contract option").all_inner_texts()
    assert {"Eins", "Zwei", "Drei", "Prämie", "Eins aus der Hand"} <= set(contracts), contracts
    assert not any(c.startswith(("fem", "sex")) for c in contracts)  # no Viennese premiums
    assert tablet.locator("select[name=efterkop_by]").count() == 0  # 003 has no efterköp
    tablet.screenshot(path=str(shots / "02-phone-empty.png"), full_page=True)
    assert tablet.evaluate(FITS) and tablet.evaluate(FORM_FITS)

    # deal 1: Vorhand plays Eins, both go along; the tricks written 6-3-2: eleven, a finding
    _deal(
        tablet,
        declarer=vorhand,
        contract="1",
        decisions={mittelhand: "go", dealer: "go"},
        tricks={vorhand: 6, mittelhand: 3, dealer: 2},
    )
    finding = tablet.locator("tr.finding.error")
    finding.wait_for()
    text = finding.inner_text()
    assert "Die Stiche ergeben nicht zehn" in text and "Deutsche Regeln" in text, text
    tablet.screenshot(path=str(shots / "03-phone-finding.png"), full_page=True)
    assert tablet.evaluate(FITS)
    saved = current_protocol(table)
    assert saved.error_count == 1 and saved.findings[0]["code"] == "TRICKS_SUM"

    # correct it: the dealer took one trick, not two
    tablet.locator("#deal-1 a.edit").tap()
    _deal(
        tablet,
        declarer=vorhand,
        contract="1",
        decisions={mittelhand: "go", dealer: "go"},
        tricks={vorhand: 6, mittelhand: 3, dealer: 1},
        button="Korrektur speichern",
    )
    tablet.wait_for_selector("#deal-1")
    assert tablet.locator("tr.finding.error").count() == 0
    # deal 2 (Vorhand deals): Mittelhand's Prämie, one stays home, 7-3: five chips each way
    _deal(
        tablet,
        declarer=mittelhand,
        contract="4",
        decisions={dealer: "home", vorhand: "go"},
        tricks={vorhand: 3},  # the declarer's seven are counted from the others'
    )
    tablet.wait_for_selector("#deal-2")
    # deal 3 (Mittelhand deals): the dealer of deal 1 plays Zwei aus der Hand and falls with
    # five: he brings double the stake into the next pot (003), which the round leaves behind
    _deal(
        tablet,
        declarer=dealer,
        contract="2u",
        decisions={vorhand: "go", mittelhand: "go"},
        tricks={dealer: 5, vorhand: 3, mittelhand: 2},
    )
    tablet.wait_for_selector("#deal-3")
    assert tablet.locator("tr.finding.error").count() == 0
    tablet.select_option("select[name=ending]", "closed")  # played to the end of the round
    with tablet.expect_navigation():
        tablet.get_by_role("button", name="Ende speichern").tap()
    tablet.screenshot(path=str(shots / "04-phone-entered.png"), full_page=True)
    assert tablet.evaluate(FITS)
    saved = current_protocol(table)
    assert saved.error_count == 0, saved.findings
    game = stored_protocol(saved.data)
    assert [d.contract.code for d in game.deals] == ["1", "4", "2u"]
    scored = VARIANTS["pot"].score(game)
    assert scored.pot == 20 and scored.deals[-1].fell == (dealer,)  # double the stake of 10
    settlement = VARIANTS["pot"].settlement(game)
    assert [Fraction(r["whists"]) for r in saved.result] == list(settlement)
    assert sum(settlement) == 0 and any(settlement)  # the pot is shared (the default)

    # each player confirms through his own link, on the phone, in German
    for seat in seats:
        tablet.goto(f"{base}/de/p/{seat.entry.url_key}/protocols/")
        with tablet.expect_navigation():
            tablet.get_by_role("button", name="Ich bestätige dieses Protokoll").tap()
        assert "Sie haben diese Version bestätigt." in tablet.locator("body").inner_text()
    assert saved.confirmations.count() == 3

    # the referee approves
    approve_protocol(page, base, slug="abend", table_number=table.number)
    saved.refresh_from_db()
    assert saved.approved

    # the standings in German: each player's result (net + share of the pot) and the pot rule
    tablet.goto(f"{base}/de/e/abend/standings/")
    standings = tablet.locator("body").inner_text()
    tablet.screenshot(path=str(shots / "05-phone-standings.png"), full_page=True)
    assert tablet.evaluate(FITS)
    assert "der Topf am Ende einer Runde wird gleichmäßig unter den Spielern" in standings
    for name, points in zip(names, settlement, strict=True):
        row = tablet.locator("tr", has_text=name).first.inner_text()
        shown = {
            str(points),
            str(points).replace("-", "−"),
            f"{float(points):.2f}".replace(".", ","),
        }
        assert any(s in row for s in shown), (name, points, row)

    # the filled protocol PDF, in German: the ledger, a column per player and one for the pot
    text = filled_protocol_text(
        page, base, event=event, table=table, language="de", tmp_path=tmp_path,
        keep=shots / "06-filled.pdf",
    )  # fmt: skip
    for word in ("Topf", "Prämie", "Zwei aus der Hand", "GENEHMIGT", "Deutsche Préférence",
                 "gleichmäßig", *names):  # fmt: skip
        assert word in text, word


def test_a_viennese_table_of_four_enters_an_efterkop_chain_on_a_phone_in_swedish(
    phone, live_server, shots
):
    """000 "Efterköp" and "Spel på fyra personer" on the phone page, in the seed's Swedish: the
    dealer sits out; the buyers go in numbered rows in turn order; a buyer on his own efterköp is
    stored with its finding, shown live."""
    from tests.factories import EntryFactory, EventFactory, PlayerFactory
    from tournaments.models import Round, Seat, Table

    event = EventFactory(slug="wien", variant="viennese", pulka_target=10, table_size_policy="4")
    round_ = Round.objects.create(event=event, number=1, state=Round.State.IN_PLAY)
    table = Table.objects.create(round=round_, number=1, first_dealer=3)
    names = ["Anna", "Bertil", "Cecilia", "David"]
    for position, name in enumerate(names):
        entry = EntryFactory(event=event, player=PlayerFactory(name=name))
        Seat.objects.create(round=round_, table=table, position=position, entry=entry)
    tablet = phone
    tablet.goto(f"{live_server.url}/sv/t/{table.url_key}/")
    body = tablet.locator("body").inner_text()
    assert "David ger och står över den här given." in body, (
        body
    )  # 000: "står … över den aktuella given"
    assert tablet.locator("#efterkop_by_4").count() == 1  # fem, sex, sju, åtta
    # the one who sits out is not offered (his option is there, disabled, for the phone to
    # move the turn to offline: issue 42)
    offered = tablet.locator("#efterkop_by_1 option:not([disabled])").all_text_contents()
    assert offered == ["—", *names[:3]]
    bought = tablet.locator("#efterkop_contract_1 option").all_text_contents()
    assert bought == ["—", "fem", "sex", "sju", "åtta"], bought
    # all passed hides the contract's fields, efterköp included (000 "Budgivningen")
    tablet.get_by_label("rundpass", exact=False).check()
    assert tablet.locator("details.efterkop").is_hidden()
    tablet.locator("input[name=kind][value=hand]").check()
    assert tablet.locator("details.efterkop").is_visible()
    # folded while unused (efterköp is rare); a tap opens the rows
    assert tablet.locator("#efterkop_by_1").is_hidden()
    tablet.locator("details.efterkop summary").tap()
    assert tablet.locator("#efterkop_by_1").is_visible()
    assert tablet.evaluate(FORM_FITS)
    # Anna's 2 (David deals, sits out): Bertil buys fem, Cecilia sex, Anna sju, who plays it
    tablet.select_option("#declarer", "0")
    tablet.select_option("#contract", "2")
    for k, (seat, level) in enumerate((("1", "5"), ("2", "6"), ("0", "7")), 1):
        tablet.select_option(f"#efterkop_by_{k}", seat)
        tablet.select_option(f"#efterkop_contract_{k}", level)
    tablet.fill("input[name=tricks_1]", "5")
    tablet.fill("input[name=tricks_2]", "5")
    tablet.screenshot(path=str(shots / "11-wien-efterkop.png"), full_page=True)
    tablet.get_by_role("button", name="Lägg till given").tap()
    tablet.wait_for_selector("#deal-1")
    assert tablet.locator("tr.finding.error").count() == 0
    saved = current_protocol(table)
    deal = stored_protocol(saved.data).deals[0]
    assert [(s, c.code) for s, c in deal.efterkop] == [(1, "5"), (2, "6"), (0, "7")]
    assert deal.tricks == (0, 5, 5, 0) and saved.error_count == 0
    # Bertil (Anna deals now) declares 1; Cecilia buys fem and again sex on her own: a finding
    tablet.locator("details.efterkop summary").tap()
    tablet.select_option("#declarer", "1")
    tablet.select_option("#contract", "1")
    for k, (seat, level) in enumerate((("2", "5"), ("2", "6")), 1):
        tablet.select_option(f"#efterkop_by_{k}", seat)
        tablet.select_option(f"#efterkop_contract_{k}", level)
    tablet.fill("input[name=tricks_1]", "5")
    tablet.fill("input[name=tricks_3]", "5")
    tablet.get_by_role("button", name="Lägg till given").tap()
    finding = tablet.locator("tr.finding.error")
    finding.wait_for()
    text = finding.inner_text()
    assert "Efterköp i fel ordning" in text and "[Wienerregler, ”Efterköp”]" in text, text
    tablet.screenshot(path=str(shots / "12-wien-finding.png"), full_page=True)
