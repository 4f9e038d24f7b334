"""The demo's pot-game event (issue 26 "The demo gains a pot-game event"): a Viennese club evening
(seed 000) with a round of approved ledgers, a round in play with a finding, and standings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory
from tournaments.demo.pot import POT_SLUG, POT_TIEBREAKS, demo_pot_event
from tournaments.models import Event, Protocol, StandingsSnapshot
from tournaments.pdf import contexts as pdf_contexts
from tournaments.pdf import paper as pdf_paper

pytestmark = pytest.mark.django_db


def test_the_club_evening_is_played_in_viennese_rules_and_ranked_by_the_nets(client):
    organiser = UserFactory(username="org")
    event = demo_pot_event(organiser=organiser)
    assert event.slug == POT_SLUG and event.variant == "viennese"
    assert event.convention_options == {"base_stake": 10, "max_amount": 30}
    assert event.tiebreaks == POT_TIEBREAKS
    # ten players: two tables of three and one of four (the dealer sits out, 000)
    for round_ in event.rounds.all():
        assert sorted(t.seats.count() for t in round_.tables.all()) == [3, 3, 4]
    first = Protocol.objects.filter(table__round__event=event, table__round__number=1)
    approved = first.filter(approved=True, is_current=True)
    assert approved.count() == 3 and all(p.error_count == 0 for p in approved)
    for p in approved:  # the pot left is shared equally: every table sums to zero
        assert sum(Fraction(r["whists"]) for r in p.result) == 0
        assert len(p.data["deals"]) >= 6
    flawed = Protocol.objects.filter(table__round__event=event, table__round__number=2)
    assert flawed.count() == 1 and not flawed.get().approved
    assert "TRICKS_SUM" in {f["code"] for f in flawed.get().findings}
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.status == "ok" and len(snapshot.data["rows"]) == 10
    totals = [Fraction(str(r["total"])) for r in snapshot.data["rows"]]
    assert totals == sorted(totals, reverse=True) and abs(sum(totals)) < Fraction(1, 10)
    page = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert "shared equally" in page and "Astrid Lindqvist" in page
    # the standings PDF says it too, in the language it is printed in
    context = pdf_contexts.standings_context(event=event)
    for language, words in (("en", "shared equally"), ("de", "gleichmäßig"), ("sv", "delas lika")):
        with translation.override(language):
            sheet = render_to_string(
                "pdf/standings.html", {**context, "paper": pdf_paper.PAPERS["A4"]}
            )
        assert words in sheet and "4.1.3" not in sheet, language
    assert demo_pot_event(organiser=organiser).pk == event.pk  # idempotent


def test_demo_setup_creates_the_pot_game_event_beside_the_others():
    call_command("demo_setup", stdout=open("/dev/null", "w"))
    assert Event.objects.filter(slug=POT_SLUG, variant="viennese").exists()
