"""What a table-key save costs the database (issue 38, "The event-day write path"): the statements
one save runs, counted so that they cannot creep back, and its locks: one table's save never
waits for another table's, yet a round is not closed under a save in flight."""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter

import pytest
from django.db import OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.russian.jsonio import to_dict
from tests.factories import EntryFactory, PlayerFactory
from tournaments.models import AuditLogEntry, Protocol, ProtocolStats, Ruling, Seat, Table
from tournaments.services.protocols.saving import _lock_table
from tournaments.services.round_states import round_close
from tournaments.services.rulings import incident_record, ruling_make

from .conftest import make_table
from .test_protocol_services import closed_protocol, save


def _url(setup, table: int = 1) -> str:
    return f"/api/v1/events/{setup.event.slug}/rounds/1/tables/{table}/protocols"


def _statements(captured) -> list[str]:
    """The statements run, without the test's own savepoints (``transaction.atomic`` inside
    the test's transaction; in production the save's transaction is the outermost)."""
    return [q["sql"] for q in captured if "SAVEPOINT" not in q["sql"]]


def test_a_table_key_save_runs_eight_statements(setup):
    """Read the event and table by the URL; share the round; lock the table and read its seats,
    in one statement; read its current and approved versions and whether a ruling is on it, in
    one; mark the previous version, write the version, its facts and the log entry. The seats
    were read five times, the table and the current version twice each (18 statements before
    issue 38), then 10: a save that reads more fails here."""
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
    assert kinds == {"SELECT": 4, "INSERT": 3, "UPDATE": 1}, "\n".join(sql)
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
    assert len(sql) == 9  # the eight of a save and the rulings


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
