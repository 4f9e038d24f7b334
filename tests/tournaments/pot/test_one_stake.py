"""Issue 36, "one stake everywhere": a Viennese event created through the new-event form plays
one stake, and the settings page, the blank protocol, the filled protocol and the scoring all
read it. Before, the form's size (20, the Sochi field's value) was the scoring's stake while the
sheets printed the convention's default, "Einsatz 10 · Höchstgrenze 30"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory, UserFactory
from tournaments.models import Event, Round, Seat, Table
from tournaments.pdf import contexts as pdf_contexts
from tournaments.pdf import protocol_contexts as pdf_protocols
from tournaments.services.protocols import protocol_save, table_header

pytestmark = pytest.mark.django_db


def _created(client, stake: int) -> Event:
    client.force_login(UserFactory(is_staff=True))
    r = client.post(
        reverse("event-new"),
        {
            "slug": "wien-abend",
            "name": "Wiener Abend",
            "starts_on": "2027-03-06",
            "ends_on": "2027-03-06",
            "venue": "Café",
            "variant": "viennese",
            "pulka_target": stake,
            "table_size_policy": "mixed",
            "rounds_planned": 3,
            "default_draw_method": "no_repeats",
        },
    )
    assert r.status_code == 302, r.content.decode()[:3000]
    event = Event.objects.get(slug="wien-abend")
    round_ = Round.objects.create(event=event, number=1, state=Round.State.IN_PLAY)
    table = Table.objects.create(round=round_, number=1, first_dealer=0)
    for position, name in enumerate(("Anna", "Bertil", "Cecilia")):
        entry = EntryFactory(event=event, player=PlayerFactory(name=name))
        Seat.objects.create(round=round_, table=table, position=position, entry=entry)
    return event


@pytest.mark.parametrize("stake", [20, 10, 30])
def test_the_viennese_stake_agrees_on_the_settings_page_sheets_and_scoring(client, stake):
    event = _created(client, stake)
    table = event.rounds.get().tables.get()
    # the scoring: the protocol's header plays the stake
    header = table_header(table)
    assert header.rules().stake == stake
    # the blank protocol
    blank = pdf_contexts.blank_protocols_context(round_=table.round, base_url="http://p.test/")
    assert blank["stake"] == stake and blank["max_amount"] == 3 * stake
    # the filled protocol, of a version saved at the table
    protocol_save(table=table, protocol=header, based_on_version=None)
    filled = pdf_protocols.filled_protocol_context(table=table)
    assert filled["stake"] == stake and filled["max_amount"] == 3 * stake
    # the settings page: the stake field and the options' table say the same, and no "None"
    page = client.get(reverse("manage-settings", args=[event.slug])).content.decode()
    assert re.search(rf'name="pulka_target"[^>]*value="{stake}"', page)
    assert ">None<" not in page  # the convention table names what an unset option means
    shown = client.get(reverse("event", args=[event.slug])).content.decode()
    assert "None" not in shown
