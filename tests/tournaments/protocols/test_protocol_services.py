"""The protocol's whole path through the services (issue 5, "Done when"), on PostgreSQL."""

from __future__ import annotations

import dataclasses
import random
import threading
from fractions import Fraction

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import translation

from rules.contracts import Contract
from scoring.russian.generate import random_protocol
from scoring.russian.jsonio import from_dict
from scoring.russian.protocol import Call, Ending, Game, Raspasy
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, EntryKind, Protocol, Ruling
from tournaments.services.protocols import (
    StaleProtocolError,
    double_entry_status,
    protocol_approve,
    protocol_confirm,
    protocol_from_notation,
    protocol_reopen,
    protocol_resolve,
    protocol_save,
    table_header,
)
from tournaments.services.protocols.checks import _rulings_applied
from tournaments.services.rulings import appeal_decide, appeal_file, incident_record, ruling_make
from tournaments.words.protocols import finding_message
from tournaments.words.rulings import ruling_in_words

from .conftest import make_table

SIX = Contract.from_str("6♠")


def closed_protocol(setup, seed: int = 3):
    """A legal pulka played to the end for the setup's table (its first dealer follows it)."""
    p = random_protocol(random.Random(seed), target=setup.event.pulka_target)
    setup.table.first_dealer = p.first_dealer
    setup.table.save()
    return dataclasses.replace(p, players=table_header(setup.table).players)


def save(setup, protocol, based_on, **kw):
    kw.setdefault("source", Protocol.Source.TABLE_LINK)
    return protocol_save(table=setup.table, protocol=protocol, based_on_version=based_on, **kw)


def whists(version):
    return [Fraction(r["whists"]) for r in version.result]


def test_table_entry_with_errors_fixed_confirmed_by_three_approved(setup):
    good = closed_protocol(setup)
    eleven = Game(0, SIX, (Call.WHIST, Call.PASS), 11)  # not a trick count at all
    with pytest.raises(UserFacingError, match=r"\$\.deals\[0\]\.declarer_tricks") as caught:
        save(setup, good.with_deals((eleven,) + good.deals[1:]), None)
    assert caught.value.extra["field"] == "data" and not Protocol.objects.exists()
    bad_deal = Game(0, SIX, (Call.WHIST, Call.PASS), 6, (3, 3))  # 6 + 3 + 3 tricks (3.2.8)
    v1 = save(setup, good.with_deals((bad_deal,) + good.deals[1:]), None)
    assert v1.version == 1 and v1.error_count >= 1
    assert any(f["code"] == "TRICKS_SUM" and f["deal"] == 0 and f["rule"] for f in v1.findings)
    with pytest.raises(UserFacingError, match="error"):
        protocol_confirm(protocol=v1, seat=0, entry=setup.entries[0])
    v2 = save(setup, good, 1)
    assert (v2.version, v2.error_count, v2.is_current) == (2, 0, True)
    v1.refresh_from_db()
    assert not v1.is_current and v1.data != v2.data  # the old version is kept, unchanged
    with pytest.raises(UserFacingError, match="player in that seat"):
        protocol_confirm(protocol=v2, seat=1, entry=setup.entries[0])
    for seat, entry in enumerate(setup.entries[:2]):
        protocol_confirm(protocol=v2, seat=seat, entry=entry)
    with pytest.raises(UserFacingError, match="3"):
        protocol_approve(protocol=v2, by=setup.referee)  # seat 3 has not confirmed
    protocol_confirm(protocol=v2, seat=2, entry=setup.entries[2])
    assert v2.state == "confirmed"
    with pytest.raises(UserFacingError):
        protocol_approve(protocol=v2, by=None)
    approved = protocol_approve(protocol=v2, by=setup.referee)
    assert approved.approved and approved.state == "approved"
    assert sum(whists(approved)) == 0
    actions = set(AuditLogEntry.objects.filter(event=setup.event).values_list("action", flat=True))
    assert {"protocol.saved", "protocol.confirmed", "protocol.approved"} <= actions


def test_change_after_approval_needs_a_referee_and_a_reason_and_reopens(setup):
    good = closed_protocol(setup)
    v1 = save(setup, good, None)
    protocol_approve(protocol=v1, by=setup.referee, confirm_missing=True)
    with pytest.raises(UserFacingError, match="referee"):
        save(setup, good, 1, by=None)
    with pytest.raises(UserFacingError, match="reason"):
        save(setup, good, 1, by=setup.referee)
    v2 = save(
        setup,
        good,
        1,
        by=setup.referee,
        reason="tricks of deal 2 misread",
        source=Protocol.Source.REFEREE,
    )
    v1.refresh_from_db()
    assert not v1.approved and not v2.approved
    assert AuditLogEntry.objects.filter(action="protocol.reopened").count() == 1
    protocol_approve(protocol=v2, by=setup.referee, confirm_missing=True)
    with pytest.raises(UserFacingError, match="reason"):
        protocol_reopen(protocol=v2, by=setup.referee, reason=" ")
    protocol_reopen(protocol=v2, by=setup.referee, reason="appeal pending")
    v2.refresh_from_db()
    assert not v2.approved


def test_a_save_based_on_an_old_version_is_refused_with_the_difference(setup):
    good = closed_protocol(setup)
    save(setup, good.with_deals(good.deals[:3]), None)
    save(setup, good.with_deals(good.deals[:4]), 1)  # someone else saved version 2
    with pytest.raises(StaleProtocolError) as caught:
        save(setup, good.with_deals(good.deals[:3] + (Raspasy((4, 3, 3)),)), 1)
    extra = caught.value.extra
    assert extra["current_version"] == 2
    assert [d["deal"] for d in extra["differences"]] == [3]
    assert extra["differences"][0]["b"].startswith(("распасы", "raspasy"))
    assert Protocol.objects.filter(table=setup.table).count() == 2  # nothing overwritten


@pytest.mark.django_db(transaction=True)
def test_concurrent_saves_one_wins_the_other_is_told_to_reload():
    setup = make_table(slug="concurrent")
    good = closed_protocol(setup)
    save(setup, good.with_deals(good.deals[:2]), None)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def worker(k: int) -> None:
        try:
            barrier.wait()
            save(setup, good.with_deals(good.deals[: 3 + k]), 1)
            outcomes.append("saved")
        except StaleProtocolError:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["saved", "stale"]
    versions = list(Protocol.objects.filter(table=setup.table).values_list("version", flat=True))
    assert sorted(versions) == [1, 2]


def test_two_approved_protocols_for_one_table_fail_in_the_database(setup):
    good = closed_protocol(setup)
    v1 = save(setup, good, None)
    Protocol.objects.filter(pk=v1.pk).update(approved=True)
    v1.refresh_from_db()
    clone = Protocol(
        table=setup.table, entry_kind=EntryKind.REFEREE, version=1, data=v1.data, approved=True
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        clone.save()  # bypasses every service: the partial unique index refuses it


def test_referee_entry_from_the_notation(setup):
    text = "Anna 6♠ / ровно w/p\nBoris 7♦ / без одной p/w\nраспасы 4-3-3\n"
    protocol = protocol_from_notation(setup.table, text)
    v = protocol_save(
        table=setup.table, protocol=protocol, based_on_version=None, notation=text, by=setup.referee
    )
    data = from_dict(v.data)[0]
    assert [type(d).__name__ for d in data.deals] == ["Game", "Game", "Raspasy"]
    assert data.deals[1].declarer_tricks == 6 and data.players == ("Anna", "Boris", "Vera")
    assert v.notation == text
    with pytest.raises(UserFacingError, match="Line 2, column") as caught:
        protocol_from_notation(setup.table, "Anna 6♠ = w/p\nGleb 6♠ = w/p\n")
    assert caught.value.extra["line"] == 2


@pytest.mark.django_db
def test_double_entry_difference_resolved_deal_by_deal():
    setup = make_table(double_entry=True, slug="double")
    good = closed_protocol(setup)
    table_v = save(setup, good, None)
    wrong = list(good.deals)
    k = next(
        i
        for i, d in enumerate(wrong)
        if type(d) is Game
        and d.declarer_tricks
        and list(d.calls).count(Call.WHIST) == 1
        and not d.contract.is_misere
    )
    wrong[k] = dataclasses.replace(
        wrong[k], declarer_tricks=wrong[k].declarer_tricks - 1, defender_tricks=None
    )  # the referee misread the tricks
    referee_v = protocol_save(
        table=setup.table,
        protocol=good.with_deals(tuple(wrong)),
        based_on_version=None,
        entry_kind=EntryKind.REFEREE,
        by=setup.referee,
    )
    status = double_entry_status(setup.table)
    assert [d["deal"] for d in status["differences"]] == [k] and not status["resolved"]
    with pytest.raises(UserFacingError, match="Double entry"):
        protocol_approve(protocol=table_v, by=setup.referee, confirm_missing=True)
    merged = protocol_resolve(
        table=setup.table,
        choices={str(k): "a"},
        by=setup.referee,
        reason="the players' sheet shows the table's tricks",
    )
    assert merged.resolution["referee_protocol"] == referee_v.pk
    assert merged.resolution["choices"] == {str(k): "a"}
    assert double_entry_status(setup.table)["resolved"]
    approved = protocol_approve(protocol=merged, by=setup.referee, confirm_missing=True)
    assert approved.approved and from_dict(approved.data)[0].deals == good.deals


def test_catalogue_penalty_changes_the_pulka_and_an_appeal_reverses_it(setup):
    good = closed_protocol(setup)
    v1 = save(setup, good, None)
    protocol_approve(protocol=v1, by=setup.referee, confirm_missing=True)
    before = whists(v1)
    incident = incident_record(
        table=setup.table,
        deal=2,
        seats=[1],
        by=setup.referee,
        description="Boris looked at the talon before it was bought",
    )
    ruling = ruling_make(
        incident=incident,
        kind=Ruling.Kind.CATALOGUE,
        penalty_code="TALON_PEEK",
        seat=1,
        reason="seen by the referee",
        by=setup.referee,
    )
    assert ruling.rule == "3.2.21" and ruling.entries[0]["gora"] == 5
    v2 = Protocol.objects.get(table=setup.table, is_current=True, entry_kind=EntryKind.TABLE)
    assert v2.version == 2 and v2.approved and v2.rulings_applied == [ruling.pk]
    assert v2.data == v1.data  # what the table entered is unchanged; the ruling is merged in
    gora_delta = v2.result[1]["gora"] - v1.result[1]["gora"]
    assert gora_delta == 5  # 001 §3.2.21: 5 in the gora
    assert whists(v2)[1] < before[1] and sum(whists(v2)) == 0
    with pytest.raises(UserFacingError, match="player at the table"):
        appeal_file(ruling=ruling, grounds="not me", entry=make_table(slug="other").entries[0])
    appeal = appeal_file(ruling=ruling, grounds="I did not look", entry=setup.entries[1])
    with pytest.raises(UserFacingError, match="appeals committee"):
        appeal_decide(appeal=appeal, status="reversed", decision="x", by=setup.referee)
    appeal_decide(
        appeal=appeal, status="reversed", decision="the witness was mistaken", by=setup.appeals
    )
    ruling.refresh_from_db()
    assert not ruling.active
    v3 = Protocol.objects.get(table=setup.table, is_current=True, entry_kind=EntryKind.TABLE)
    assert v3.version == 3 and v3.rulings_applied == [] and whists(v3) == before
    assert v3.approved
    # the versions' reasons say the ruling in words, never its database id (issue 29)
    boris = setup.entries[1].player.name
    assert v2.reason.startswith("Ruling on round 1, table 1, deal 3: " + boris + ": 5")
    assert "3.2.21" in v2.reason and v2.reason.endswith("Reason: seen by the referee")
    assert v3.reason.startswith("Appeal decided: the ruling on round 1, table 1, deal 3: ")
    assert boris in v3.reason
    for text in (v2.reason, v3.reason):
        assert "#" not in text and "Ruling #" not in text
    with translation.override("ru"):
        assert ruling_in_words(ruling).startswith("тур 1, стол 1, сдача 3: ")
    log = list(AuditLogEntry.objects.filter(event=setup.event).values_list("action", flat=True))
    for action in (
        "incident.recorded",
        "ruling.made",
        "appeal.filed",
        "appeal.decided",
        "protocol.rescored",
    ):
        assert action in log


def test_adjusted_result_and_appeal_changing_the_ruling(setup):
    deals = (Game(0, SIX, (Call.WHIST, Call.PASS), 6, (3, 1), dealer=0),)
    v1 = save(setup, table_header(setup.table).with_deals(deals), None)
    incident = incident_record(
        table=setup.table,
        deal=0,
        seats=[1, 2],
        by=setup.referee,
        description="whister and passer disagree on the plan",
    )
    ruling = ruling_make(
        incident=incident,
        kind=Ruling.Kind.ADJUSTED,
        by=setup.referee,
        reason="3.8.5.1 Б",
        params={"other_tricks": 5, "other_split": [4, 1], "passer": 2, "lot": "played"},
    )
    assert ruling.rule == "3.8.5.1" and ruling.entries
    v2 = Protocol.objects.get(table=setup.table, is_current=True)
    # the declarer keeps the played result by lot; the passer gets the other plan's consolation
    assert (v2.result[0]["pulya"], v2.result[0]["gora"]) == (
        v1.result[0]["pulya"],
        v1.result[0]["gora"],
    )
    assert sum(whists(v2)) == 0 and whists(v2)[2] > whists(v1)[2]
    appeal = appeal_file(ruling=ruling, grounds="the lot was not drawn", by=setup.referee)
    appeal_decide(
        appeal=appeal,
        status="changed",
        decision="lot redrawn",
        by=setup.appeals,
        new_ruling={
            "kind": Ruling.Kind.ADJUSTED,
            "params": {"other_tricks": 5, "other_split": [4, 1], "passer": 2, "lot": "other"},
        },
    )
    appeal.refresh_from_db()
    assert appeal.new_ruling.replaces == ruling and appeal.new_ruling.params["lot"] == "other"
    v3 = Protocol.objects.get(table=setup.table, is_current=True)
    # 6♠ without one: no pulya, 2 in the gora, and 2 more by the end conversion (4.2.3)
    assert v3.result[0]["pulya"] == 0 and v3.result[0]["gora"] == v1.result[0]["gora"] + 4


def test_event_penalty_definition_and_fixed_whists(setup):
    from tournaments.models import EventPenalty, EventRole
    from tournaments.services.rulings import penalty_definition_create

    organiser = setup.chief
    EventRole.objects.create(event=setup.event, user=organiser, role=EventRole.Role.ORGANISER)
    definition = penalty_definition_create(
        event=setup.event,
        code="late",
        name="Late start",
        kind="fixed_whists",
        whists=30,
        rule="reg. 5",
        by=organiser,
    )
    with pytest.raises(UserFacingError):
        penalty_definition_create(
            event=setup.event, code="x", name="x", kind="warning", by=setup.referee
        )
    incident = incident_record(
        table=setup.table, by=setup.referee, seats=[0], description="came 10 minutes late"
    )
    ruling = ruling_make(
        incident=incident,
        kind=Ruling.Kind.EVENT,
        definition=definition,
        seat=0,
        reason="regulations 5",
        by=setup.referee,
    )
    penalty = EventPenalty.objects.get(ruling=ruling)
    assert (penalty.whists, penalty.entry, penalty.active) == (-30, setup.entries[0], True)
    appeal = appeal_file(ruling=ruling, grounds="the clock was wrong", entry=setup.entries[0])
    appeal_decide(appeal=appeal, status="reversed", decision="clock wrong", by=setup.appeals)
    penalty.refresh_from_db()
    assert not penalty.active


def test_in_progress_protocol_cannot_be_confirmed(setup):
    p = table_header(setup.table).with_deals((Game(0, SIX, (Call.WHIST, Call.PASS), 6, dealer=0),))
    assert p.ending == Ending.IN_PROGRESS
    v = save(setup, p, None)
    with pytest.raises(UserFacingError, match="still being played"):
        protocol_confirm(protocol=v, seat=0, entry=setup.entries[0])


def test_a_ruling_is_recomputed_when_the_deal_is_corrected(setup):
    """3.4.9 on a 6♠ made exactly: remiz without one. The table then corrects the deal to
    7 tricks: the penalty trick cancels the overtrick and nothing is written (001 §3.4.9)."""
    header = table_header(setup.table)
    exact = Game(0, SIX, (Call.WHIST, Call.PASS), 6)
    v1 = save(setup, header.with_deals((exact,)), None)
    incident = incident_record(
        table=setup.table,
        deal=0,
        seats=[0],
        by=setup.referee,
        description="Anna looked at her discard after the first lead",
    )
    ruling_make(
        incident=incident,
        kind=Ruling.Kind.CATALOGUE,
        penalty_code="DISCARD_PEEK",
        seat=0,
        reason="seen",
        by=setup.referee,
    )
    v2 = Protocol.objects.get(table=setup.table, is_current=True)
    assert v2.ruling_entries[0]["entries"][0]["gora"] == 2  # without one on a 6: P = 2
    assert v2.result[0]["pulya"] == v1.result[0]["pulya"] - 2
    over = dataclasses.replace(exact, declarer_tricks=7)
    v3 = save(setup, header.with_deals((over,)), v2.version)
    assert v3.ruling_entries == [] and v3.result[0]["pulya"] == v1.result[0]["pulya"]
    v4 = save(setup, header.with_deals(()), v3.version)  # the deal deleted: ruling kept as made
    (kept,) = [f for f in v4.findings if f["code"] == "RULING_NOT_RECOMPUTED"]
    anna = setup.entries[0].player.name
    assert finding_message(kept).startswith(f"the ruling on round 1, table 1, deal 1: {anna}")
    assert "#" not in finding_message(kept)
    # the English message (the API's and the logs') names the ruling in words too, whatever
    # the language the version was saved in
    assert kept["message"].startswith(f"the ruling on round 1, table 1, deal 1: {anna}: ")
    assert " kept as made: " in kept["message"] and "#" not in kept["message"]
    with translation.override("ru"):  # saved by a referee reading Russian: still English
        _applied, (again,) = _rulings_applied(setup.table, header.with_deals(()))
    assert again["message"].startswith(f"the ruling on round 1, table 1, deal 1: {anna}: ")
    assert v4.ruling_entries and v4.error_count == 0
