"""The table's phone page and the referee's entry in words (issue 29): deals as the sheet says
them, the correction form filled with the deal, findings as sentences with their rule, the
ending, and approving a computed pulka over the players' written errors."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.urls import reverse

from rules.contracts import MISERE, Contract
from scoring.russian import Sheet, score
from scoring.russian.protocol import Call, Ending, Game, Raspasy
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, Protocol
from tournaments.services.protocols import (
    players_sheet_errors,
    protocol_approve,
    protocol_save,
    table_header,
)
from tournaments.variants.russian_words import FINDING_TITLES

W, P = Call.WHIST, Call.PASS

#: a finding code, the way the checker names them (TRICKS_SUM, SHEET_MISMATCH …)
CODE = re.compile(r"\b(" + "|".join(FINDING_TITLES) + r")\b")


def visible(page: str) -> str:
    """What a person reads: the page's text without its tags (a select's values are codes)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def c(text: str) -> Contract:
    return Contract.from_str(text)


def deals_protocol(setup, deals, ending=Ending.IN_PROGRESS):
    return dataclasses.replace(table_header(setup.table).with_deals(tuple(deals)), ending=ending)


def save(setup, protocol, based_on=None, sheet=None):
    return protocol_save(
        table=setup.table,
        protocol=protocol,
        based_on_version=based_on,
        sheet=sheet,
        source=Protocol.Source.TABLE_LINK,
    )


DEALS = [
    Game(0, c("6NT"), (W, P), 6),  # Anna, Boris whists, Vera passes: made
    Game(1, c("8♦"), (W, P), 7),  # Boris one down (dealer Boris: Vera, Anna defend)
    Game(2, MISERE, (), 0),  # Vera's misère, clean
    Raspasy((4, 3, 3)),
]


def test_deals_are_shown_in_words_with_names_in_the_pages_language(client, setup):
    save(setup, deals_protocol(setup, DEALS))
    url = reverse("protocol-table", args=[setup.table.url_key])
    # the words as shown: the suits' colour spans (templatetags.pulka.suits) taken out
    page = re.sub(r'<span class="suit[^"]*">([^<]*)</span>', r"\1", client.get(url).content.decode())
    assert "Anna: 6NT / made — Boris whist, Vera pass" in page
    assert "Boris: 8♦ / one down" in page
    assert "Vera: misère / made" in page
    assert "raspasy: Anna 4, Boris 3, Vera 3" in page
    page = re.sub(r'<span class="suit[^"]*">([^<]*)</span>', r"\1", client.get("/ru" + url).content.decode())
    assert "Anna: 6БК / сыграна — Boris вист, Vera пас" in page
    assert "Boris: 8♦ / без одной" in page and "Vera: мизер / сыграна" in page
    assert "распасы: Anna 4, Boris 3, Vera 3" in page


def test_correct_opens_the_deals_form_filled_with_the_deal(client, setup):
    both = Game(0, c("7♥"), (W, W), 6, (2, 2))  # both whisted: each whister's tricks
    save(setup, deals_protocol(setup, [both, Raspasy((2, 5, 3))]))
    url = reverse("protocol-table", args=[setup.table.url_key])
    page = client.get(url + "?edit=0").content.decode()
    assert '<option value="0" selected>Anna</option>' in page
    assert '<option value="7♥" selected>7♥</option>' in page
    assert '<option value="7БК">7NT</option>' in page  # the contract in the page's language
    assert re.search(r'name="call_1".*?<option value="whist" selected>', page, re.S)
    assert re.search(r'name="call_2".*?<option value="whist" selected>', page, re.S)
    for seat, tricks in ((0, 6), (1, 2), (2, 2)):
        assert re.search(rf'name="tricks_{seat}"[^>]*value="{tricks}"', page)
    assert "each whister's tricks" in page  # the hint says so
    page = client.get(url + "?edit=1").content.decode()
    assert re.search(r'value="raspasy" data-no-contract checked', page)
    assert re.search(r'name="tricks_1"[^>]*value="5"', page)


def test_both_whisted_needs_each_whisters_tricks_and_impossible_counts_name_the_field(
    client, setup
):
    url = reverse("protocol-table", args=[setup.table.url_key])
    base = {"based_on_version": "", "action": "add", "kind": "game", "declarer": "0",
            "contract": "7♥", "call_1": "whist", "call_2": "whist"}
    r = client.post(url, dict(base, tricks_0="7", tricks_1="2"))
    body = r.content.decode()
    assert r.status_code == 400 and "give the tricks of Vera too (Kodeks 1996, 3.8.6)" in body
    assert re.search(r'name="tricks_2"[^>]*aria-invalid="true"', body)
    assert re.search(r'name="tricks_1"[^>]*value="2"', body)  # the form keeps what was typed
    r = client.post(url, dict(base, tricks_0="7", tricks_1="2", tricks_2="2"))
    assert r.status_code == 400 and "add up to 11: a deal has 10 (Kodeks 1996, 3.2.8)" in (
        r.content.decode())
    r = client.post(url, dict(base, tricks_0="12"))
    assert r.status_code == 400 and "Tricks of Anna: 12 is not possible" in r.content.decode()
    assert not Protocol.objects.filter(table=setup.table).exists()  # nothing saved
    r = client.post(url, dict(base, tricks_0="7", tricks_1="2", tricks_2="1"))
    assert r.status_code == 302
    deal = Protocol.objects.get(table=setup.table).data["deals"][0]
    assert deal["defender_tricks"] == [2, 1] and deal["declarer_tricks"] == 7


def written_sheet(protocol, deal: int, seat: int, whist_on: int, by: int | None = None) -> Sheet:
    """The computed sheet with one whist cell written ``by`` off from ``deal`` on (``None``:
    the deal's own amount left out)."""
    s = score(protocol)
    if by is None:
        by = -s.delta(deal)[seat].whists[whist_on]
    rows = []
    for i in range(len(protocol.deals)):
        row = list(s.row(i))
        if i >= deal:
            line = row[seat]
            whists = list(line.whists)
            whists[whist_on] += by
            row[seat] = dataclasses.replace(line, whists=tuple(whists))
        rows.append(tuple(row))
    return Sheet(tuple(rows))


def test_findings_are_sentences_with_the_rule_and_no_code(client, setup):
    protocol = deals_protocol(setup, DEALS[:2])
    save(setup, protocol, sheet=written_sheet(protocol, 1, 0, 1))
    url = reverse("protocol-table", args=[setup.table.url_key])
    page = client.get(url).content.decode()
    # Anna passed Boris's 8♦ one down: she writes only consolation, 6 a trick (001 §3.8.1.2)
    assert "Anna: whists on Boris written 0, should be 6 [Kodeks 1996, 3.8.1.2]" in page
    assert "The players' figure" in page
    assert not CODE.search(page) and "{&#x27;" not in page
    page = client.get("/ru" + url).content.decode()
    assert "Anna: висты на Boris — записано 0, должно быть 6 [Кодекс 1996, 3.8.1.2]" in page
    assert "Запись игроков" in page
    assert not CODE.search(page)


def test_player_sees_how_the_pulka_ended_and_its_state_in_words(client, setup):
    save(setup, deals_protocol(setup, DEALS, ending=Ending.AGREEMENT))
    page = client.get(reverse("protocol-player", args=[setup.entries[0].url_key])).content.decode()
    assert "The pulka: stopped by agreement" in page
    assert "not confirmed yet" in page and not CODE.search(page)


def confirmed(setup, protocol, sheet):
    from tournaments.services.protocols import protocol_confirm

    version = save(setup, protocol, sheet=sheet)
    for seat, entry in enumerate(setup.entries):
        protocol_confirm(protocol=version, seat=seat, entry=entry)
    return version


def test_referee_approves_the_computed_pulka_with_the_players_error_on_record(setup):
    protocol = deals_protocol(setup, DEALS, ending=Ending.AGREEMENT)
    version = confirmed(setup, protocol, written_sheet(protocol, 1, 0, 1))
    assert version.error_count == 1 and players_sheet_errors(version) == (1, 1)
    with pytest.raises(UserFacingError, match="acknowledged") as caught:
        protocol_approve(protocol=version, by=setup.referee)
    assert caught.value.extra == {"field": "acknowledge_players_errors", "rule": "4.2.7"}
    with pytest.raises(UserFacingError, match="why"):
        protocol_approve(protocol=version, by=setup.referee, acknowledge_players_errors=True)
    approved = protocol_approve(protocol=version, by=setup.referee,
                                acknowledge_players_errors=True, note="Anna forgot consolation")
    approved.refresh_from_db()
    assert approved.approved and approved.players_errors_acknowledged_by == setup.referee
    assert approved.players_errors_acknowledged_at == approved.approved_at
    assert approved.players_errors_note == "Anna forgot consolation"
    # the players' figures stay as written; the finding stays on record
    assert approved.sheet["running"][1][0]["whists"][1] == 0 and approved.error_count == 1
    log = AuditLogEntry.objects.get(action="protocol.approved")
    assert log.data["players_errors"] == 1 and log.reason == "Anna forgot consolation"


def test_an_error_in_the_pulka_itself_cannot_be_acknowledged(setup):
    bad = Game(0, c("6♠"), (W, W), 6, (3, 3))  # 12 tricks: the record itself is wrong
    version = save(setup, deals_protocol(setup, [bad], ending=Ending.AGREEMENT))
    assert players_sheet_errors(version) == (1, 0)
    with pytest.raises(UserFacingError, match="cannot be approved"):
        protocol_approve(protocol=version, by=setup.referee, acknowledge_players_errors=True,
                         note="no")


def test_the_desk_approves_with_the_acknowledgement_and_shows_it(client, setup):
    protocol = deals_protocol(setup, DEALS, ending=Ending.AGREEMENT)
    version = confirmed(setup, protocol, written_sheet(protocol, 1, 0, 1))
    client.force_login(setup.referee)
    desk = reverse("protocol-referee", args=[setup.event.slug, 1, setup.table.number])
    page = client.get(desk).content.decode()
    assert "1 figure the players wrote differs from it (Kodeks 1996, 4.2.7)" in page
    action = reverse("protocol-action",
                     args=[setup.event.slug, 1, setup.table.number, "approve"])
    client.post(action, {"version": version.version, "acknowledge_players_errors": "on",
                         "note": "copied wrong"})
    version.refresh_from_db()
    assert version.approved and version.players_errors_note == "copied wrong"
    page = client.get(desk).content.decode()
    assert "stay on record as the players' error" in page and "copied wrong" in page
    assert setup.referee.get_username() in page


def test_rulings_are_written_in_words_everywhere(client, setup):
    """Incidents page, player's page, appeals, the log and the filled PDF's context say
    "Boris: 5 into the gora (3.2.21, looked at the talon)", never a dict, a seat or a code."""
    from tournaments.models import Appeal
    from tournaments.pdf.protocol_contexts import filled_protocol_context
    from tournaments.services.rulings import incident_record, ruling_make

    save(setup, deals_protocol(setup, DEALS, ending=Ending.AGREEMENT))
    incident = incident_record(table=setup.table, by=setup.referee, description="talon",
                               deal=1, seats=[1])
    ruling = ruling_make(incident=incident, kind="catalogue", penalty_code="TALON_PEEK",
                         seat=1, reason="seen", by=setup.referee)
    Appeal.objects.create(ruling=ruling, grounds="disputed")
    words = "Boris: 5 into the gora (3.2.21, looked at the talon)"
    client.force_login(setup.chief)
    pages = {
        "incidents": reverse("protocol-incidents", args=[setup.event.slug, 1, 1]),
        "appeals": reverse("protocol-appeals", args=[setup.event.slug]),
        "log": reverse("protocol-log", args=[setup.event.slug]),
        "player": reverse("protocol-player", args=[setup.entries[1].url_key]),
        "desk": reverse("protocol-referee", args=[setup.event.slug, 1, 1]),
        "event log": reverse("manage-log", args=[setup.event.slug]),
    }
    for name, url in pages.items():
        page = visible(client.get(url).content.decode())
        assert words in page or name == "desk", name
        assert "TALON_PEEK" not in page and "{&#x27;" not in page and "{'" not in page, name
        assert not CODE.search(page), name
        assert "seat 2" not in page.lower() and "seat 1" not in page.lower(), name
    page = client.get("/ru" + pages["incidents"]).content.decode()
    assert "Boris: 5 в гору (3.2.21, подсмотрел прикуп)" in page
    from django.utils import translation

    with translation.override("en"):
        context = filled_protocol_context(table=setup.table)
    assert context["rulings"][0]["text"] == words


def test_the_ruling_form_has_labelled_fields(client, setup):
    """An adjusted result (001 §3.8.5.1 Б) and a false entry (§4.2.7) through labelled fields,
    not "gora=5, other_tricks=5"."""
    save(setup, deals_protocol(setup, [Game(0, c("6♠"), (W, P), 6)], ending=Ending.AGREEMENT))
    client.force_login(setup.referee)
    url = reverse("protocol-incidents", args=[setup.event.slug, 1, 1])
    client.post(url, {"action": "incident", "deal": "1", "seats": ["1"], "description": "plan"})
    incident = setup.table.incidents.get()
    page = client.get(url).content.decode()
    assert "the declarer's tricks by the other plan" in page.replace("&#x27;", "'")
    assert 'name="p_passer"' in page and "<option value=\"2\">Vera</option>" in page
    assert "other_tricks=5" not in page
    r = client.post(url, {"action": "ruling", "incident": incident.pk, "kind": "adjusted",
                          "p_other_tricks": "", "p_passer": "2", "reason": "plan"})
    assert r.status_code == 400
    assert "give the declarer's tricks by the other plan" in r.content.decode().replace(
        "&#x27;", "'")
    r = client.post(url, {"action": "ruling", "incident": incident.pk, "kind": "catalogue",
                          "penalty_code": "RECORDING_ERROR", "seat": "0", "p_column": "whists",
                          "p_amount": "4", "p_on": "1", "reason": "wrote 4 too many"})
    assert r.status_code == 302
    ruling = incident.rulings.get()
    assert ruling.params == {"column": "whists", "amount": 4, "on": 1}
    page = client.get(url).content.decode()
    assert "Anna: Boris writes 4 whists on him (4.2.7, false entry (the pencil was put down" in page


def test_the_table_page_takes_what_the_players_wrote(client, setup):
    """A running row and the final row copied from paper; the check compares them with the
    computation where the paper is filled in (001 §4.2.5, §4.2.7)."""
    protocol = deals_protocol(setup, DEALS[:2], ending=Ending.AGREEMENT)
    save(setup, protocol)
    url = reverse("protocol-table", args=[setup.table.url_key])
    page = client.get(url).content.decode()
    assert 'name="w_0_on_1"' in page and "after deal 2" in page
    s = score(protocol)
    row = s.row(1)
    post = {"based_on_version": "1", "action": "sheet", "sheet_row": "1"}
    for p, line in enumerate(row):
        post[f"w_{p}_pulya"] = str(line.pulya)
        post[f"w_{p}_gora"] = str(line.gora) if line.gora else ""  # an empty cell is 0
        for q in range(3):
            if q != p:
                post[f"w_{p}_on_{q}"] = str(line.whists[q])
    post["w_0_on_1"] = str(row[0].whists[1] + 3)  # Anna wrote 3 too many on Boris
    r = client.post(url, post)
    assert r.status_code == 302 and r["Location"].endswith("?sheet_row=1#sheet")
    v = Protocol.objects.get(table=setup.table, is_current=True)
    assert v.version == 2 and len(v.sheet["running"]) == 2 and v.sheet["running"][0] is None
    assert [(f["code"], f["deal"], f["player"], f.get("players_sheet")) for f in v.findings] == [
        ("SHEET_MISMATCH", 1, 0, True)]
    page = client.get(url + "?sheet_row=1").content.decode()
    assert f"Anna: whists on Boris written {row[0].whists[1] + 3}, should be {row[0].whists[1]}" in (
        page)
    assert re.search(rf'name="w_0_on_1"[^>]*value="{row[0].whists[1] + 3}"', page)  # as copied
    final = s.final_row()
    post = {"based_on_version": "2", "action": "sheet", "sheet_row": "final"}
    for p, line in enumerate(final):
        post[f"w_{p}_pulya"], post[f"w_{p}_gora"] = str(line.pulya), str(line.gora)
    post["w_2_gora"] = str(final[2].gora - 1)
    assert client.post(url, post).status_code == 302
    v = Protocol.objects.get(table=setup.table, is_current=True)
    found = {(f["deal"], f["player"], f["column"], f["rule"]) for f in v.findings}
    assert (None, 2, "gora", "4.2.3") in found  # the unplayed pulya into the gora (agreement)
    bad = dict(post, based_on_version="3", w_1_pulya="x")
    r = client.post(url, bad)
    body = visible(r.content.decode()).replace("&#x27;", "'")
    assert r.status_code == 400 and "Boris, pulya: 'x' is not a whole number" in body
    # the refused form keeps what was typed
    assert re.search(r'name="w_1_pulya"[^>]*value="x"', r.content.decode())
    assert re.search(rf'name="w_2_gora"[^>]*value="{final[2].gora - 1}"', r.content.decode())
    empty = {"based_on_version": "3", "action": "sheet", "sheet_row": "1"}
    assert client.post(url, empty).status_code == 302  # an empty form removes the row
    v = Protocol.objects.get(table=setup.table, is_current=True)
    assert v.sheet["running"] == [] and v.sheet["final"] is not None


def test_the_desk_keeps_the_text_the_referee_typed(client, setup):
    """Sheet lines keep the names (here the seat numbers) the referee typed."""
    client.force_login(setup.referee)
    desk = reverse("protocol-referee", args=[setup.event.slug, 1, 1])
    text = "Anna 6♠ = w/p\nsheet 1: 1 2 0 0 0; 2 0 0 0 0; 3 0 0 0 0\n"
    r = client.post(desk, {"notation": text, "ending": "in-progress", "based_on_version": "",
                           "entry_kind": "table"})
    assert r.status_code == 302
    page = client.get(desk).content.decode()
    assert "sheet 1: 1 2 0 0 0; 2 0 0 0 0; 3 0 0 0 0" in page
    # Boris whisted Anna's made 6♠ and wrote nothing: the players' error, named and cited
    assert "Boris: whists on Anna written 0, should be 8 [Kodeks 1996, 3.8.1.1]" in page


def test_a_document_naming_a_seat_not_at_the_table_is_refused_where_it_enters(setup):
    """The API's and the import's JSON reader: ``declarer: 7`` names no seat (001 §3.2.10)."""
    from tournaments.services.protocols import protocol_from_document

    document = {"format": "pulka-protocol", "version": 1, "players": ["Anna", "Boris", "Vera"],
                "target": 10, "deals": [{"type": "game", "declarer": 7, "contract": "6S",
                                         "calls": ["pass", "pass"]}]}
    with pytest.raises(UserFacingError) as caught:
        protocol_from_document(setup.table, document)
    assert caught.value.extra == {"field": "protocol", "path": "$.deals[0].declarer"}
    assert "Kodeks 1996, 3.2.10" in caught.value.message
    document = dict(document, players=["Anna", "Boris", "Anna"], deals=[])
    with pytest.raises(UserFacingError) as caught:
        protocol_from_document(setup.table, document)
    assert caught.value.extra["path"] == "$.players[2]"
