"""D21 (issue 30) from the event's settings to the table's sheet: the organiser's option
``returned_half_consolation`` decides whether the former half-whister writes the consolation
after a returned whist in gentleman whist (001 §3.8.8, §3.8.14, §3.8.1.2), on a deal the table
enters through its link."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from scoring.russian import score
from scoring.russian.jsonio import from_dict
from tournaments.models import EntryKind, Protocol

from .conftest import deal_form


@pytest.mark.parametrize(
    ("options", "half_whister"),
    [
        ({}, 4),  # the convention's default: the consolation, 1 undertrick × U = 4 (§3.8.1.2)
        ({"returned_half_consolation": False}, 0),  # §3.8.14 read as a whole: nothing
    ],
)
def test_the_events_option_decides_the_former_half_whisters_consolation(
    client, setup, options, half_whister
):
    """Leningrad is gentleman whist with U = 4 on a 6 (001 §3.8.14; D7). Anna's 6♠ goes down
    one; Vera said полвиста and Boris returned the whist (001 §3.8.8): Boris writes the five
    defence tricks and his consolation, 5 × 4 + 4; Vera as the event's option says."""
    setup.event.variant = "leningrad"
    setup.event.convention_options = options
    setup.event.save()
    r = client.post(
        reverse("protocol-table", args=[setup.table.url_key]),
        deal_form(
            "",
            "game",
            declarer="0",
            contract="6♠",
            call_1="whist",
            call_2="half-returned",
            tricks_0="5",
        ),
    )
    assert r.status_code == 302, r.content.decode()[:3000]
    saved = Protocol.objects.get(table=setup.table, entry_kind=EntryKind.TABLE, is_current=True)
    assert saved.error_count == 0, saved.findings
    stored = from_dict(saved.data)[0]
    assert (stored.convention, dict(stored.options)) == ("leningrad", options)
    scored = score(stored)
    boris, vera = scored.row(0)[1], scored.row(0)[2]
    assert boris.whists[0] == 5 * 4 + 4
    assert vera.whists[0] == half_whister
    # the stored result is this sheet's settlement: Vera's consolation counts or not
    assert [Fraction(r["whists"]) for r in saved.result] == list(scored.settlement.totals)
