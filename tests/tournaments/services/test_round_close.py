"""Closing a round with tables left without an approved protocol (issue 29): refused without a
reason, listed, logged; their players read "no result" in the standings."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.factories import EventFactory, UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tests.tournaments.views.test_desk import record, seat_round
from tournaments.models import AuditLogEntry, EventRole, Round
from tournaments.selectors.standings import standings_view
from tournaments.services.rounds import UnfinishedTablesError, round_close
from tournaments.services.standings import standings_recompute
from tournaments.words import audit as audit_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return EventFactory(name="Club Night")


def test_closing_with_open_tables_needs_a_reason_and_lists_them(event):
    round_ = seat_round(event, 1, 3)
    t1, t2, t3 = round_.tables.order_by("number")
    record(t2, errors=1)
    record(t3, confirmed=3, approved=True)
    with pytest.raises(UnfinishedTablesError) as refused:
        round_close(round_=round_, unfinished_reason="   ")
    assert "Tables 1, 2 have no approved protocol" in refused.value.message
    assert refused.value.extra["tables"] == [
        {"table": 1, "state": "missing"},
        {"table": 2, "state": "errors"},
    ]
    round_.refresh_from_db()
    assert round_.state == Round.State.IN_PLAY  # nothing changed
    by = UserFactory()
    round_close(round_=round_, by=by, unfinished_reason="table 1 left at the time limit")
    round_.refresh_from_db()
    assert round_.state == Round.State.CLOSED and round_.closed_at is not None
    logged = AuditLogEntry.objects.get(event=event, action="round.closed")
    assert logged.reason == "table 1 left at the time limit" and logged.user == by
    assert logged.data["unfinished"] == [
        {"table": 1, "state": "missing"},
        {"table": 2, "state": "errors"},
    ]
    assert (
        audit_text.described(logged.action, logged.data, {})
        == "Round 1 closed with tables without an approved protocol: 1, 2"
    )


def test_a_round_with_every_table_approved_closes_without_a_reason(event):
    round_ = seat_round(event, 1, 2)
    for table in round_.tables.all():
        record(table, confirmed=3, approved=True)
    round_close(round_=round_)
    logged = AuditLogEntry.objects.get(event=event, action="round.closed")
    assert logged.reason == "" and "unfinished" not in logged.data
    assert audit_text.described(logged.action, logged.data, {}) == "Round 1 closed"


def test_one_open_table_is_named_in_the_singular(event):
    round_ = seat_round(event, 1, 1)
    with pytest.raises(UnfinishedTablesError, match="^Table 1 has no approved protocol"):
        round_close(round_=round_)


def test_players_of_a_table_without_result_read_no_result_in_the_standings():
    event, entries = make_event(players=9)
    rng = random.Random(7)
    play_round(event, entries, 1, rng=rng)
    # round 2 closes with table 1 without a protocol, tables 2 and 3 approved
    rnd, tables = play_round(event, entries, 2, rng=rng)
    tables[0].protocols.all().delete()
    missing = set(tables[0].seats.values_list("entry_id", flat=True))
    standings_recompute(event_id=event.pk)
    view = standings_view(event=event)
    assert view["rounds"] == [1, 2]
    for row in view["rows"]:
        cell = row["round_cells"][1]
        if row["entry"] in missing:
            assert cell["no_result"] and row["no_result_rounds"] == [2]
            assert row["rounds_played"] == 1 and row["place_label"] != "—"
        else:
            assert cell is not None and not cell.get("no_result")


def test_the_standings_page_says_no_result_and_ranks_a_player_without_any_last(client):
    event, entries = make_event(players=9)
    rng = random.Random(11)
    rnd, tables = play_round(event, entries, 1, rng=rng)
    tables[0].protocols.all().delete()  # the first table of the only round: no result
    missing = set(tables[0].seats.values_list("entry_id", flat=True))
    standings_recompute(event_id=event.pk)
    rows = standings_view(event=event)["rows"]
    assert {r["entry"] for r in rows[-3:]} == missing  # after every ranked player
    assert all(r["place_label"] == "—" and r["no_result"] for r in rows[-3:])
    assert all(r["place_label"] != "—" for r in rows[:-3])
    page = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert page.count("no result") >= 6  # each one's round cell and total
    assert "no-result-note" in page
    last = rows[-1]["entry"]
    mine = client.get(reverse("standings-player", args=[event.slug, last])).content.decode()
    assert "Place: <strong>—</strong>" in mine and "Total: <strong>no result</strong>" in mine


def test_the_round_page_lists_the_open_tables_and_asks_for_a_reason(client, event):
    organiser = UserFactory()
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    client.force_login(organiser)
    round_ = seat_round(event, 1, 2)
    record(round_.tables.get(number=2), confirmed=3, approved=True)
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    listing = page[page.index('id="unfinished-tables"') :].split("</ul>")[0]
    assert "Table 1 (R1T1-1, R1T1-2, R1T1-3): no protocol" in listing
    assert reverse("protocol-referee", args=[event.slug, 1, 1]) in listing
    assert "Table 2" not in listing
    url = reverse("manage-round-action", args=[event.slug, 1, "close"])
    # the plain button (no confirmation): refused, the page says why
    page = client.post(url, follow=True).content.decode()
    assert "Table 1 has no approved protocol" in page
    # a reason without the confirmation: the form's error beside its field
    page = client.post(url, {"reason": "late"}).content.decode()
    assert 'class="field-errors error" id="close_confirm_error"' in page
    round_.refresh_from_db()
    assert round_.state == Round.State.IN_PLAY
    client.post(url, {"confirm": "on", "reason": "the table left"})
    round_.refresh_from_db()
    assert round_.state == Round.State.CLOSED
    assert AuditLogEntry.objects.get(action="round.closed").reason == "the table left"
