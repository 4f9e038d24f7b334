"""Penalties in a Balkan event, end to end (issue 24 §4: "penalties and rulings work as for
Russian protocols"). Seed 002 defines no penalties (docs/balkan-format.md "Penalties"): the
event's own penalties apply. A penalty in the declarer column (the event's "fixed column"
penalty, the neutral ``gora``) is written into the offender's bula as a lost contract is: the
column moves away from zero by the points (002 "Scoring"), the final calculation counts them ten
times (002 "Ending the Game"); a penalty in points comes off his standings total. The pages
name them in the family's words."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from django.urls import reverse

from scoring.balkan.protocol import AllPass, Hand, Penalty
from scoring.variants import VARIANTS
from tests.factories import UserFactory
from tournaments.models import EventPenalty, EventRole, Protocol, Ruling
from tournaments.services.protocols import (
    protocol_approve,
    protocol_confirm,
    protocol_save,
    stored_protocol,
    table_header,
)
from tournaments.services.rulings import incident_record, penalty_definition_create, ruling_make
from tournaments.services.standings import standings_recompute

from .test_balkan_event import balkan_table

pytestmark = pytest.mark.django_db

BALKAN = VARIANTS["balkan"]
#: seed 002 notes (b), (c), (d): C makes bundeva, all pass (a refa each), A makes srce with
#: the refa; the table stopped at the time limit (a league evening, "3 sata")
DEALS = (Hand(2, 3, tricks=(2, 2, 6)), AllPass(), Hand(0, 4, tricks=(6, 2, 2)))


def _approved_game():
    event, (table,), referee = balkan_table()
    game = dataclasses.replace(table_header(table).with_deals(DEALS), ending="time-limit")
    version = protocol_save(table=table, protocol=game, based_on_version=None)
    assert version.error_count == 0, version.findings
    for seat in table.seats.order_by("position"):
        protocol_confirm(protocol=version, seat=seat.position, entry=seat.entry)
    protocol_approve(protocol=version, by=referee)
    organiser = UserFactory(username=f"org-{event.slug}")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    return event, table, referee, organiser, game, version


def _totals(event):
    rows = standings_recompute(event_id=event.pk).data["rows"]
    return {r["entry"]: Fraction(str(r["total"])) for r in rows}


def test_a_column_penalty_is_written_into_the_offenders_bula_and_counts_ten_times():
    event, table, referee, organiser, game, v1 = _approved_game()
    before = [Fraction(r["whists"]) for r in v1.result]
    definition = penalty_definition_create(
        event=event, code="TALON", name="Looked at the talon", kind="fixed_gora", gora=10,
        rule="reg. 3", by=organiser,
    )  # fmt: skip
    incident = incident_record(
        table=table, deal=0, seats=[1], by=referee, description="Branko looked at the talon"
    )
    ruling = ruling_make(
        incident=incident, kind=Ruling.Kind.EVENT, definition=definition, seat=1,
        reason="talon", by=referee,
    )  # fmt: skip
    assert ruling.entries == [
        {"player": 1, "rule": "reg. 3", "gora": 10, "pulya": 0, "whists": [], "note": "TALON"}
    ]
    v2 = Protocol.objects.get(table=table, is_current=True)
    assert v2.version == 2 and v2.approved  # the referee's decision: the approval carries over
    assert v2.error_count == 0, v2.findings
    # the penalty entry follows the deal the incident names, in the Balkan protocol's own terms
    assert stored_protocol(v2.data).deals == game.deals  # the entered deals are unchanged ...
    expected = game.with_deals(
        (DEALS[0], Penalty(1, "reg. 3", column=10, note="TALON"), *DEALS[1:])
    )
    settled = BALKAN.settlement(expected)
    after = [Fraction(r["whists"]) for r in v2.result]
    assert after == list(settled)  # ... and the version is scored with the penalty in
    assert after[1] == before[1] - 100 and after[0] == before[0] and after[2] == before[2]
    assert [r["column"] for r in v2.result][1] == [r["column"] for r in v1.result][1] - 10
    # the standings count the approved version with the penalty
    seats = {s.position: s.entry_id for s in table.seats.all()}
    assert _totals(event)[seats[1]] == after[1]
    # the pulka view shows the entry with its rule, between deals 1 and 2
    from django.test import Client

    client = Client()
    client.force_login(referee)
    page = client.get(reverse("protocol-table", args=[table.url_key])).content.decode()
    assert "reg. 3" in page
    # the ruling is cited by the event's own reference, not as a Kodeks section
    page = client.get(reverse("protocol-incidents", args=[event.slug, 1, 1])).content.decode()
    assert "[reg. 3]" in page and "001 §" not in page
    assert "Looked at the talon (Fixed points in the declarer column)" in page
    key = table.seats.get(position=1).entry.url_key
    page = client.get(reverse("protocol-player", args=[key])).content.decode()
    assert "[reg. 3]" in page and "001 §" not in page
    from django.utils import translation

    with translation.override("hr"):  # the version's state in the player's language
        page = client.get(reverse("protocol-player", args=[key])).content.decode()
    assert '<span class="state">odobren</span>' in page


def test_a_points_penalty_comes_off_the_standings_total_in_points():
    event, table, referee, organiser, game, v1 = _approved_game()
    definition = penalty_definition_create(
        event=event, code="LATE", name="Late start", kind="fixed_whists", whists=30,
        rule="reg. 5", by=organiser,
    )  # fmt: skip
    incident = incident_record(table=table, seats=[0], by=referee, description="came late")
    ruling_make(
        incident=incident, kind=Ruling.Kind.EVENT, definition=definition, seat=0,
        reason="late", by=referee,
    )  # fmt: skip
    ana = table.seats.get(position=0).entry
    assert EventPenalty.objects.get(entry=ana).whists == -30
    assert Protocol.objects.get(table=table, is_current=True).version == 1  # nothing written
    assert _totals(event)[ana.pk] == Fraction(v1.result[0]["whists"]) - 30
    # the player's page names the deduction in the family's unit, not whists
    from django.test import Client

    page = Client().get(reverse("standings-player", args=[event.slug, ana.pk])).content.decode()
    assert '<th class="num">Points</th>' in page and ">Whists<" not in page
    assert "Opponents (points won from each)" in page and "whists" not in page
    assert "−30" in page or "-30" in page


def test_the_penalties_page_speaks_the_familys_words(client):
    event, table, referee, organiser, game, v1 = _approved_game()
    client.force_login(organiser)
    page = client.get(reverse("protocol-penalties", args=[event.slug])).content.decode()
    assert "Kodeks" not in page and "001 §" not in page
    assert "Points deducted" in page and "Declarer column (bula)" in page
    assert "Whists deducted" not in page and ">Gora" not in page
    r = client.post(
        reverse("protocol-penalties", args=[event.slug]),
        {"code": "TALON", "name": "Talon", "kind": "fixed_gora", "gora": "10", "rule": ""},
    )
    assert r.status_code == 302
    page = client.get(reverse("protocol-penalties", args=[event.slug])).content.decode()
    assert "10 in the declarer column" in page


def test_the_cross_table_says_what_a_balkan_cell_is(client):
    event, table, referee, organiser, game, v1 = _approved_game()
    standings_recompute(event_id=event.pk)
    page = client.get(reverse("standings-cross", args=[event.slug])).content.decode()
    assert "ten times the difference of their declarer columns" in page
    assert "4.2.14" not in page and "whists" not in page


def test_a_rule_text_ruling_is_cited_from_the_events_seed():
    """The filter the ruling lists use: a catalogue penalty of a Russian event is cited
    ``001 §…``, an event's own penalty by its own reference, in every family."""
    from types import SimpleNamespace

    from tests.factories import EventFactory
    from tournaments.templatetags.pulka import ruling_citation

    russian, balkan = EventFactory(variant="sochi"), EventFactory(variant="croatian")
    catalogue = SimpleNamespace(rule="3.2.21", kind=Ruling.Kind.CATALOGUE)
    own = SimpleNamespace(rule="reg. 5", kind=Ruling.Kind.EVENT)
    assert ruling_citation(catalogue, russian) == "Kodeks 1996, 3.2.21"
    assert ruling_citation(own, russian) == ruling_citation(own, balkan) == "reg. 5"
