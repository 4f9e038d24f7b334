"""What a table-key save costs the database (issue 38, "The event-day write path"): the statements
one save runs, counted so that they cannot creep back, and its locks: one table's save never
waits for another table's, yet a round is not closed under a save in flight."""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter

import pytest
from django.db import DataError, OperationalError, connection, transaction
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.russian.jsonio import to_dict
from scoring.russian.protocol import Call, Game
from tests.factories import EntryFactory, PlayerFactory
from tournaments.api.views.protocols import ProtocolOutputSerializer, new_version_answer
from tournaments.models import AuditLogEntry, Protocol, ProtocolStats, Ruling, Seat, Table
from tournaments.models.round import DRAW_RECORD_FIELDS, without_draw_record
from tournaments.selectors.protocols import table_by_key, table_of_event, table_save_state
from tournaments.services.protocols import protocol_approve
from tournaments.services.protocols.saving import _lock_table, _save_locked
from tournaments.services.round_states import round_close
from tournaments.services.rulings import incident_record, ruling_make

from .conftest import make_table
from .test_protocol_services import SIX, closed_protocol, save


def _url(setup, table: int = 1) -> str:
    return f"/api/v1/events/{setup.event.slug}/rounds/1/tables/{table}/protocols"


def _statements(captured) -> list[str]:
    """The statements run, without the test's own savepoints (``transaction.atomic`` inside
    the test's transaction; in production the save's transaction is the outermost)."""
    return [q["sql"] for q in captured if "SAVEPOINT" not in q["sql"]]


def test_a_table_key_save_runs_five_statements(setup):
    """Read the event and table by the URL; share the round; lock the table and read its seats,
    in one statement; read its current and approved versions and whether a ruling is on it, in
    one; mark the previous version, write the version, its facts and the log entry, in one. The
    seats were read five times, the table and the current version twice each (18 statements
    before issue 38), then 10, then 8: a save that reads or writes more fails here."""
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    document = to_dict(closed_protocol(setup))
    first = api.post(_url(setup), {"protocol": document, "based_on_version": None}, format="json")
    assert first.status_code == 201, first.content
    with CaptureQueriesContext(connection) as ctx:
        r = api.post(_url(setup), {"protocol": document, "based_on_version": 1}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["version"] == 2 and r.json()["confirmations"] == []
    sql = _statements(ctx.captured_queries)
    kinds = Counter(s.split(None, 1)[0] for s in sql)
    assert kinds == {"SELECT": 4, "WITH": 1}, "\n".join(sql)
    assert sum('"tournaments_seat"' in s for s in sql) == 1
    assert sum('"tournaments_ruling"' in s for s in sql) == 1  # no ruling: none read
    # the locks: the round shared, the table alone for update; never the event's row
    locks = [s for s in sql if " FOR " in s]
    assert len(locks) == 2
    assert locks[0].startswith('SELECT state FROM "tournaments_round"') and locks[0].endswith(
        "FOR SHARE"
    )
    assert locks[1].endswith("FOR NO KEY UPDATE OF t")
    assert '"tournaments_round"' not in locks[1] and '"tournaments_event"' not in locks[1]
    # everything a save keeps is still written: the version, its facts, the log
    v2 = Protocol.objects.get(table=setup.table, version=2)
    assert v2.is_current and not Protocol.objects.get(table=setup.table, version=1).is_current
    assert ProtocolStats.objects.filter(protocol=v2).exists()
    assert AuditLogEntry.objects.filter(action="protocol.saved", data__version=2).exists()


def test_the_written_version_is_what_the_orm_reads_back(setup):
    """The save's one statement writes what the ORM's instances wrote (every field: the
    defaults, the JSON, the creation time), returns the version as the ORM reads it, and its
    facts and log entry as ``_store_facts`` and ``audit_log`` wrote them."""
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    document = to_dict(closed_protocol(setup))
    api.post(_url(setup), {"protocol": document, "based_on_version": None}, format="json")
    r = api.post(_url(setup), {"protocol": document, "based_on_version": 1}, format="json")
    assert r.status_code == 201, r.content
    stored = Protocol.objects.get(pk=r.json()["id"])
    assert r.json() == new_version_answer(stored)
    assert stored.version == 2 and stored.based_on_version == 1 and stored.is_current
    assert not stored.approved and stored.approved_by_id is None and stored.approved_at is None
    assert stored.reason == "" and stored.reason_words is None and stored.resolution is None
    assert stored.source == Protocol.Source.API and stored.client_id == ""
    assert stored.created_by_id is None and stored.created_via_entry_id is None
    assert stored.data == document or stored.data["deals"] == document["deals"]
    assert stored.result and stored.findings == r.json()["findings"]
    facts = ProtocolStats.objects.get(protocol=stored).data
    assert [row[2] for row in facts["r"]] == [row["whists"] for row in stored.result]
    entry = AuditLogEntry.objects.filter(action="protocol.saved").order_by("-id").first()
    assert entry.data == {
        "table": setup.table.pk,
        "round": 1,
        "table_number": 1,
        "entry_kind": "table",
        "version": 2,
        "errors": stored.error_count,
        "source": "api",
        "via_entry": None,
    }
    assert entry.user_id is None and entry.event_id == setup.event.pk
    assert abs((entry.created_at - stored.created_at).total_seconds()) < 1
    assert not Protocol.objects.get(table=setup.table, version=1).is_current


def test_a_save_on_a_table_with_a_ruling_reads_and_applies_it(setup):
    """The rulings are read only when one with a penalty is active on the table (the versions'
    statement says so): then the table's next save merges its entries in, as before."""
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    document = to_dict(closed_protocol(setup))
    first = api.post(_url(setup), {"protocol": document, "based_on_version": None}, format="json")
    assert first.status_code == 201 and first.json()["rulings_applied"] == []
    incident = incident_record(
        table=setup.table, deal=2, seats=[1], by=setup.referee, description="talon seen"
    )
    ruling = ruling_make(
        incident=incident,
        kind=Ruling.Kind.CATALOGUE,
        penalty_code="TALON_PEEK",
        seat=1,
        reason="seen by the referee",
        by=setup.referee,
    )
    current = Protocol.objects.get(table=setup.table, is_current=True)
    assert current.version == 2  # the ruling re-scored the record
    with CaptureQueriesContext(connection) as ctx:
        r = api.post(_url(setup), {"protocol": document, "based_on_version": 2}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["version"] == 3 and r.json()["rulings_applied"] == [ruling.pk]
    assert r.json()["ruling_entries"][0]["entries"] == ruling.entries
    sql = _statements(ctx.captured_queries)
    assert sum(s.startswith('SELECT "tournaments_ruling".') for s in sql) == 1  # read once
    assert len(sql) == 6  # the five of a save and the rulings


def _second_table(setup) -> Table:
    table = Table.objects.create(round=setup.round, number=2, first_dealer=0)
    for position, name in enumerate(("Galina", "Denis", "Elena")):
        entry = EntryFactory(event=setup.event, player=PlayerFactory(name=name))
        Seat.objects.create(round=setup.round, table=table, position=position, entry=entry)
    return table


def _holding_the_lock(table: Table):
    """A thread that takes ``table``'s save lock and keeps it until told to let go."""
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                _lock_table(table, seats=True)
                taken.set()
                release.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(30)
    return thread, release


@pytest.mark.django_db(transaction=True)
def test_a_save_does_not_wait_for_another_tables_save():
    setup = make_table(slug="side-by-side")
    other = _second_table(setup)
    thread, release = _holding_the_lock(setup.table)  # table 1 in the middle of its save
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:  # waiting at all is failing
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            at_other = dataclasses.replace(setup, table=other)
            saved = save(at_other, closed_protocol(at_other), None)
        assert saved.version == 1 and saved.table_id == other.pk
    finally:
        release.set()
        thread.join()


@pytest.mark.django_db(transaction=True)
def test_a_round_is_not_closed_under_a_save_in_flight():
    setup = make_table(slug="closing")
    thread, release = _holding_the_lock(setup.table)
    try:
        with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '1s'")
            round_close(round_=setup.round, unfinished_reason="closing under a save")
    finally:
        release.set()
        thread.join()
    setup.round.refresh_from_db()
    assert setup.round.state != setup.round.State.CLOSED
    # once the save is over, the round closes
    round_close(round_=setup.round, unfinished_reason="the save is over")
    setup.round.refresh_from_db()
    assert setup.round.state == setup.round.State.CLOSED


def _loaded(obj) -> dict:
    """The fields loaded on ``obj`` (its deferred ones left out) and their values."""
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
            if f.attname in obj.__dict__}  # fmt: skip


def test_the_table_read_by_sql_is_the_orms(setup):
    """The table by its URL and by its key (written as SQL for a save's CPU) holds what the
    ORM's ``select_related`` read holds: every field of the table, its round (but the draw
    record, left out as before) and its event, converted as the ORM converts them (JSON, dates)."""
    event = setup.event
    event.convention_options = {"stalingrad": True}
    event.save()
    setup.round.sitting_out = [1, 2]
    setup.round.save()
    orm = (
        Table.objects.select_related("round__event")
        .defer(*without_draw_record("round"))
        .get(pk=setup.table.pk)
    )
    for read in (
        table_of_event(slug=event.slug, round_number=1, table_number=1),
        table_by_key(setup.table.url_key),
    ):
        assert _loaded(read) == _loaded(orm)
        assert _loaded(read.round) == _loaded(orm.round)
        assert _loaded(read.round.event) == _loaded(orm.round.event)
        assert read.round.event.convention_options == {"stalingrad": True}
        assert set(DRAW_RECORD_FIELDS) <= read.round.get_deferred_fields()
    with pytest.raises(Http404):
        table_of_event(slug=event.slug, round_number=1, table_number=9)
    with pytest.raises(Http404):
        table_by_key("no-such-key")


def test_a_saves_answer_is_the_serializers(setup):
    """The 201's body (built without a serializer for each save) is what
    ``ProtocolOutputSerializer`` says of the version: every field, in its order, dates and
    JSON as DRF writes them; a version with findings and a reason, saved by a referee."""
    good = closed_protocol(setup)
    v1 = save(setup, good, None)
    bad = Game(0, SIX, (Call.WHIST, Call.PASS), 6, (3, 3))  # 12 tricks (3.2.8)
    protocol_approve(protocol=v1, by=setup.referee, confirm_missing=True)
    v2 = save(setup, good.with_deals((bad,) + good.deals[1:]), 1, by=setup.referee, reason="why")
    v2.refresh_from_db()
    assert v2.findings and v2.reason == "why"
    v1.refresh_from_db()
    for version in (v1, v2):
        answer = new_version_answer(version)
        expected = dict(ProtocolOutputSerializer(version).data)
        if version is v1:  # confirmed by the three: a version just saved has nobody's yet
            assert expected["confirmations"] == [0, 1, 2]
            expected["confirmations"] = []
        assert list(answer) == list(expected) and answer == expected


def test_the_orms_writes_where_the_database_is_not_postgresql(setup, monkeypatch):
    """SQLite (the development default) has no data-modifying WITH: the save writes the same
    rows through the ORM there (the vendor patched: the statements still run on PostgreSQL)."""
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    document = to_dict(closed_protocol(setup))
    api.post(_url(setup), {"protocol": document, "based_on_version": None}, format="json")
    monkeypatch.setattr(connection, "vendor", "sqlite")
    with CaptureQueriesContext(connection) as ctx:
        r = api.post(_url(setup), {"protocol": document, "based_on_version": 1}, format="json")
    monkeypatch.undo()
    assert r.status_code == 201, r.content
    sql = _statements(ctx.captured_queries)
    assert not any(s.startswith("WITH") for s in sql)
    stored = Protocol.objects.get(pk=r.json()["id"])
    assert r.json() == new_version_answer(stored) and stored.is_current and stored.version == 2
    assert not Protocol.objects.get(table=setup.table, version=1).is_current
    assert ProtocolStats.objects.filter(protocol=stored).exists()
    assert AuditLogEntry.objects.filter(action="protocol.saved", data__version=2).exists()


def test_a_value_too_long_for_its_column_is_refused_not_cut(setup):
    """The write casts its values to the columns' types without a text column's length, so a
    value longer than its column is refused by the database, as the ORM's ``INSERT`` was, never
    cut (the services check a send's id first: ``checked_client_id``)."""
    protocol = closed_protocol(setup)
    with pytest.raises(DataError), transaction.atomic():
        table = _lock_table(setup.table, seats=True)
        _save_locked(
            table=table,
            state=table_save_state(table, "table"),
            protocol=protocol,
            based_on_version=None,
            client_id="x" * 65,
        )
    assert not Protocol.objects.filter(table=setup.table).exists()
