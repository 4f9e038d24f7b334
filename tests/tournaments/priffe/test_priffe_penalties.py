"""A referee's penalty in a Priffe event (tournaments.variants.priffe): written above the line
for the offender's opponents in the sits it was given in — the partnerships change from sits to
sits, so the sits decides who the opponents are. A ruling's entry takes the sits of the deal it
follows; an entry naming no sits is refused, naming the field (it used to go to sits 1)."""

from __future__ import annotations

import pytest

from rules.priffe import Contract
from scoring.priffe.protocol import Hand, Penalty
from tests.factories import UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import EventRole, PenaltyKind
from tournaments.services.protocols import protocol_save, stored_protocol, table_header
from tournaments.services.rulings import incident_record, penalty_definition_create, ruling_make
from tournaments.variants import ui_for

from .test_priffe_event import current, priffe_table

pytestmark = pytest.mark.django_db

UI = ui_for("modern")


def _two_sits_played(table):
    """Sits 1 won by Bertil & David (two hjärter games of 30), then one deal of sits 2."""
    header = table_header(table)
    assert header.sittings[1] == (0, 2, 1, 3)  # sits 2: Anna & Bertil against Cecilia & David
    deals = (
        Hand(0, Contract.HJARTER, 1, (4, 9)),
        Hand(0, Contract.HJARTER, 1, (4, 9)),
        Hand(1, Contract.RUTER, 0, (7, 6)),
    )
    return protocol_save(table=table, protocol=header.with_deals(deals), based_on_version=None)


def test_a_ruling_after_a_deal_of_sits_2_is_written_in_sits_2():
    event, (table,), referee = priffe_table()
    _two_sits_played(table)
    organiser = UserFactory(username="org-priffe-pen")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    definition = penalty_definition_create(
        event=event, code="R1", name="Revoke", kind=PenaltyKind.FIXED_GORA, gora=50,
        rule="revoke", by=organiser,
    )  # fmt: skip
    incident = incident_record(table=table, description="revoke", by=referee, deal=2, seats=[2])
    ruling_make(
        incident=incident, kind="event", reason="revoke", by=referee, seat=2, definition=definition
    )
    version = current(table)
    assert version.error_count == 0, version.findings
    rows = [int(r["whists"]) for r in version.result]
    # sits 1: Bertil & David 30 + 30 below, and the sits; sits 2: Anna & Bertil 10 below.
    # Cecilia (sits 2: with David) offended: 50 above for Anna & Bertil, not for her sits-1
    # opponents Bertil & David.
    assert rows == [10 + 50, 60 + 10 + 50, 0, 60]
    applied = UI.penalty_placement(stored_protocol(version.data), 2)
    assert applied == {"sits": 1}


def test_a_ruling_at_the_end_takes_the_last_deal_s_sits():
    event, (table,), _ = priffe_table()
    game = stored_protocol(_two_sits_played(table).data)
    assert UI.penalty_placement(game, None) == {"sits": 1}
    assert UI.penalty_placement(game, 0) == {"sits": 0}
    assert UI.penalty_placement(game.with_deals(()), None) == {"sits": 0}


def test_a_penalty_entry_without_its_sits_is_refused_naming_the_field():
    with pytest.raises(UserFacingError) as err:
        UI.penalty_from_json({"player": 2, "gora": 50, "rule": "revoke"})
    assert err.value.extra == {"field": "sits"} and "sits" in str(err.value)
    with pytest.raises(UserFacingError) as err:
        UI.penalty_from_json({"sits": 1, "gora": 50})
    assert err.value.extra == {"field": "player"}
    with pytest.raises(UserFacingError) as err:
        UI.penalty_from_json({"sits": 1, "player": 2, "gora": "fifty"})
    assert err.value.extra == {"field": "gora"}
    assert UI.penalty_from_json({"sits": 0, "player": 2, "gora": 50, "whists": [[1, 10]]}) == (
        Penalty(0, 2, 60)
    )
    # a stored entry round-trips with its sits
    entry = Penalty(2, 1, 20, "revoke", "late")
    assert UI.penalty_from_json(UI.penalty_to_json(entry)) == entry
