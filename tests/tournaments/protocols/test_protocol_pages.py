"""The protocol pages through Django's test client: table link, referee desk, player, API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.russian.jsonio import from_dict
from tournaments.models import Appeal, EntryKind, Protocol, Ruling

from .conftest import deal_form, incident_form, make_table, raspasy, talon_peek_ruling


def desk(setup):
    return reverse("protocol-referee", args=[setup.event.slug, 1, setup.table.number])


def current(setup, kind=EntryKind.TABLE):
    return Protocol.objects.get(table=setup.table, entry_kind=kind, is_current=True)


def test_table_link_adds_deals_shows_findings_and_resumes(client, setup):
    url = reverse("protocol-table", args=[setup.table.url_key])
    page = client.get(url)
    assert page.status_code == 200 and "Anna" in page.content.decode()
    r = client.post(
        url,
        deal_form(
            "", "game", declarer="0", contract="6♠", call_1="whist", call_2="pass", tricks_0="6"
        ),
    )
    assert r.status_code == 302
    r = client.post(url, raspasy("1", "4", "3", "2"))  # sums to 9
    assert r.status_code == 302
    page = client.get(url).content.decode()
    # the finding next to deal 2, a sentence with its rule (the code is for the API and logs)
    assert "Tricks add up to 9: a deal has 10 [Kodeks 1996, 3.7.6.1]" in page and "TRICKS_SUM" not in page
    v = current(setup)
    assert v.version == 2 and v.error_count == 1
    # correct deal 2 (index 1)
    r = client.post(url + "?edit=1", raspasy("2", "4", "3", "3", action="replace", index="1"))
    assert r.status_code == 302 and current(setup).error_count == 0
    # 11 tricks is not a trick count: refused with the field, nothing saved, the form kept
    r = client.post(
        url,
        deal_form(
            "3", "game", declarer="1", contract="7♥", call_0="whist", call_2="pass", tricks_1="11"
        ),
    )
    body = r.content.decode()
    assert r.status_code == 400 and "Tricks of Boris: 11 is not possible" in body
    assert current(setup).version == 3
    # a stale form (based on version 1) is refused with the differences, nothing lost
    r = client.post(url, raspasy("1", "4", "3", "3"))
    assert r.status_code == 409 and "Reload" in r.content.decode()
    assert current(setup).version == 3


def test_referee_desk_needs_a_referee_and_saves_the_notation(client, setup):
    url = desk(setup)
    assert client.get(url).status_code == 302  # to the login
    client.force_login(setup.chief)
    page = client.get(url)
    assert page.status_code == 200 and "autofocus" in page.content.decode()
    r = client.post(
        url,
        {
            "notation": "Anna 6♠ = w/p\nBoris 6♣ -1 p/w\n",
            "ending": "in-progress",
            "based_on_version": "",
            "entry_kind": "table",
        },
    )
    assert r.status_code == 302
    v = current(setup)
    assert len(from_dict(v.data)[0].deals) == 2 and v.notation.startswith("Anna")
    bad = client.post(
        url,
        {
            "notation": "Anna 6♠ = w/p\nAnna 6Z = w/p\n",
            "ending": "closed",
            "based_on_version": "1",
            "entry_kind": "table",
        },
    )
    body = bad.content.decode()
    assert bad.status_code == 400 and "Line 2" in body and "6Z" in body  # the text is kept


def test_player_confirms_through_his_link_and_appeals(client, setup):
    from tests.tournaments.protocols.test_protocol_services import closed_protocol, save
    from tournaments.services.rulings import incident_record, ruling_make

    save(setup, closed_protocol(setup), None)
    for entry in setup.entries:
        url = reverse("protocol-player", args=[entry.url_key])
        assert client.get(url).status_code == 200
        r = client.post(url, {"protocol": str(current(setup).pk)})
        assert r.status_code == 302
    assert current(setup).state == "confirmed"
    client.force_login(setup.referee)
    r = client.post(
        reverse("protocol-action", args=[setup.event.slug, 1, 1, "approve"]),
        {"version": str(current(setup).version)},
    )
    assert r.status_code == 302 and current(setup).approved
    incident = incident_record(
        table=setup.table, deal=0, seats=[0], by=setup.referee, description="peeked"
    )
    ruling = ruling_make(
        incident=incident,
        kind=Ruling.Kind.CATALOGUE,
        seat=0,
        penalty_code="TALON_PEEK",
        reason="seen",
        by=setup.referee,
    )
    url = reverse("protocol-player", args=[setup.entries[0].url_key])
    client.logout()
    assert "3.2.21" in client.get(url).content.decode()
    r = client.post(url, {"action": "appeal", "ruling": str(ruling.pk), "grounds": "no"})
    assert r.status_code == 302 and Appeal.objects.filter(ruling=ruling).count() == 1


def test_incidents_rulings_and_appeals_pages(client, setup):
    from tests.tournaments.protocols.test_protocol_services import closed_protocol, save

    save(setup, closed_protocol(setup), None)
    client.force_login(setup.referee)
    url = reverse("protocol-incidents", args=[setup.event.slug, 1, 1])
    r = client.post(url, incident_form("Boris looked at the talon"))
    assert r.status_code == 302
    incident = setup.table.incidents.get()
    assert incident.deal == 2
    r = client.post(url, talon_peek_ruling(incident))
    assert r.status_code == 302
    ruling = incident.rulings.get()
    assert "3.2.21" in client.get(url).content.decode()
    assert current(setup).rulings_applied == [ruling.pk]
    appeal = Appeal.objects.create(ruling=ruling, grounds="disputed")
    appeals_url = reverse("protocol-appeals", args=[setup.event.slug])
    assert (
        client.post(
            appeals_url, {"appeal": appeal.pk, "status": "reversed", "decision": "x"}
        ).status_code
        == 400
    )  # referee ≠ committee
    client.force_login(setup.appeals)
    r = client.post(
        appeals_url, {"appeal": appeal.pk, "status": "reversed", "decision": "no evidence"}
    )
    assert r.status_code == 302
    ruling.refresh_from_db()
    assert not ruling.active and current(setup).rulings_applied == []
    client.force_login(setup.chief)
    log = client.get(reverse("protocol-log", args=[setup.event.slug])).content.decode()
    # in words, with names: not the action codes nor the data dict (issue 29)
    assert "appeal decided: Ruling reversed" in log
    assert "ruling: Boris: 5 into the gora (3.2.21, looked at the talon)" in log
    assert "ruling.made" not in log and "{&#x27;" not in log
    client.force_login(setup.referee)
    assert client.get(reverse("protocol-log", args=[setup.event.slug])).status_code == 403


def test_round_overview_versions_and_penalties_pages(client, setup):
    from tests.tournaments.protocols.test_protocol_services import closed_protocol, save

    v = save(setup, closed_protocol(setup), None)
    client.force_login(setup.referee)
    page = client.get(reverse("protocol-round", args=[setup.event.slug, 1])).content.decode()
    assert "Anna, Boris, Vera" in page
    versions = reverse("protocol-versions", args=[setup.event.slug, 1, 1])
    assert client.get(versions + f"?id={v.pk}").status_code == 200
    page = client.get(reverse("protocol-penalties", args=[setup.event.slug])).content.decode()
    assert "3.2.21" in page and "3.9.18" in page


@pytest.mark.django_db
def test_double_entry_desk_shows_the_difference_and_resolves(client):
    setup = make_table(double_entry=True, slug="double-desk")
    client.force_login(setup.referee)
    url = desk(setup)
    client.post(
        url,
        {
            "notation": "Anna 6♠ = w/p\n",
            "ending": "in-progress",
            "entry_kind": "table",
            "based_on_version": "",
        },
    )
    client.post(
        url,
        {
            "notation": "Anna 6♠ -1 w/p\n",
            "ending": "in-progress",
            "entry_kind": "referee",
            "based_on_version": "",
        },
    )
    page = client.get(url).content.decode()
    assert "choice_0" in page
    r = client.post(
        reverse("protocol-action", args=[setup.event.slug, 1, 1, "resolve"]),
        {"choice_0": "b", "reason": "paper sheet"},
    )
    assert r.status_code == 302
    merged = current(setup)
    assert merged.resolution["choices"] == {"0": "b"}
    assert from_dict(merged.data)[0].deals[0].declarer_tricks == 5


def test_referee_types_what_the_players_wrote_and_sees_the_recording_error(client, setup):
    """The sheet lines are checked cell by cell: Boris wrote 8 whists on Anna's 6♠ made with
    4 defence tricks where the pulka says 8 … and Vera 2 where she wrote nothing (001 §4.2.7)."""
    client.force_login(setup.referee)
    text = "Anna 6♠ = w/p\nsheet 1: Anna 2 0 0 0; Boris 0 0 8 0; Vera 0 0 2 0\n"
    r = client.post(
        desk(setup),
        {"notation": text, "ending": "in-progress", "based_on_version": "", "entry_kind": "table"},
    )
    assert r.status_code == 302
    v = current(setup)
    mismatches = [f for f in v.findings if f["code"] == "SHEET_MISMATCH"]
    assert len(mismatches) == 1 and mismatches[0]["player"] == 2 and mismatches[0]["deal"] == 0
    assert v.sheet is not None
    page = client.get(desk(setup)).content.decode()
    assert "sheet 1:" in page  # the box shows the sheet again, nothing lost
    # a correction at the table keeps the sheet the referee typed
    url = reverse("protocol-table", args=[setup.table.url_key])
    client.post(url, {"based_on_version": "1", "action": "ending", "ending": "agreement"})
    assert current(setup).version == 2 and current(setup).sheet == v.sheet


def test_an_appeal_refused_keeps_the_committees_choice_and_words(client, setup):
    """Issue 29: the appeals page names each appeal in words (its round, table and who filed
    it), never by a database number, and a decision it refuses (a changed ruling without the
    new penalty) says so in words (it said "penalty '' is not in the catalogue") and keeps what
    the committee chose and wrote."""
    from tests.tournaments.protocols.test_protocol_services import closed_protocol, save

    save(setup, closed_protocol(setup), None)
    client.force_login(setup.referee)
    url = reverse("protocol-incidents", args=[setup.event.slug, 1, 1])
    client.post(url, incident_form("x"))
    incident = setup.table.incidents.get()
    client.post(url, talon_peek_ruling(incident))
    ruling = incident.rulings.get()
    seat = setup.table.seats.get(position=1)
    appeal = Appeal.objects.create(ruling=ruling, grounds="disputed", filed_by_entry=seat.entry)
    client.force_login(setup.appeals)
    appeals_url = reverse("protocol-appeals", args=[setup.event.slug])
    page = client.get(appeals_url).content.decode()
    name = seat.entry.player.name
    assert f"Round 1, table 1: appeal by {name}" in page and f"#{appeal.pk}" not in page
    refused = client.post(
        appeals_url,
        {"appeal": appeal.pk, "status": "changed", "seat": "1", "decision": "the talon was shut"},
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Choose the penalty from the rules." in html and "catalogue" not in html
    assert 'value="the talon was shut"' in html
    assert '<option value="changed" selected>' in html
    form = html[html.index(f'id="appeal-{appeal.pk}"') :]
    assert f'<option value="1" selected>{name}</option>' in form
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.PENDING  # nothing was decided


def test_a_refused_incident_or_ruling_keeps_what_the_referee_entered(client, setup):
    """Issue 29: a form refused shows its error and keeps its input. The incidents page lost
    everything typed (the description, the players, the penalty, the offender, the penalty's
    parameters) when the service refused it."""
    from tests.tournaments.protocols.test_protocol_services import closed_protocol, save

    save(setup, closed_protocol(setup), None)
    client.force_login(setup.referee)
    url = reverse("protocol-incidents", args=[setup.event.slug, 1, 1])
    refused = client.post(url, incident_form("peeked", seats=("1", "7")))
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "There is no seat 8 at this table." in html
    assert (
        ">peeked</textarea>" in html
        and 'name="deal" type="number" min="1" size="3" value="3"' in html
    )
    assert 'name="seats" value="1" checked' in html and 'name="seats" value="0" checked' not in html
    client.post(url, incident_form("peeked"))
    incident = setup.table.incidents.get()
    shown = client.get(url).content.decode()  # the ruling form folded: a short page on a phone
    assert '<details class="ruling"><summary>Record a ruling</summary>' in shown
    assert '<details class="ruling" open>' not in shown
    refused = client.post(url, talon_peek_ruling(incident, p_gora="4", reason="  "))
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Give the reason for the ruling." in html
    # one ruling form per incident, folded; the refused one open, its error inside it
    opened = html[html.index('<details class="ruling" open>') :]
    assert opened.index("Give the reason for the ruling.") < opened.index("</details>")
    assert html.count("Give the reason for the ruling.") == 1
    form = html[html.index(f'name="incident" value="{incident.pk}"') :]
    assert '<option value="TALON_PEEK" selected>' in form
    assert 'name="p_gora" value="4"' in form
    seat_select = form[form.index('name="seat"') :]
    assert '<option value="1" selected>' in seat_select[: seat_select.index("</select>")]
    assert not incident.rulings.exists()
