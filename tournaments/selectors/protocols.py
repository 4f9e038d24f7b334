"""Reads for the protocol pages: a table and its empty protocol, its versions, the round's
protocols, rulings, appeals, the protocols' log; who deals next. The record in words for people
(the pulka view, the findings' headings and sentences) is :mod:`tournaments.words.protocols`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from tournaments.families import domain_of_protocol, event_variant
from tournaments.families.protocols import (
    ScoringProtocol,
)
from tournaments.models import (
    Appeal,
    AuditLogEntry,
    Entry,
    EntryKind,
    Event,
    Incident,
    Player,
    Protocol,
    Round,
    Ruling,
    Seat,
    Table,
)
from tournaments.models.round import DRAW_RECORD_FIELDS, without_draw_record

__all__ = [
    "appeals_for_event",
    "next_dealer",
    "protocol_audit_log",
    "protocol_current",
    "protocol_current_or_sent",
    "protocol_versions",
    "state_text",
    "round_protocols",
    "SEATS",
    "SaveState",
    "table_locked",
    "table_save_state",
    "table_by_key",
    "table_header",
    "table_in_event",
    "table_of_event",
    "table_seats",
    "tables_of_entry",
]

#: A table's seats in order with their entries and players, for ``prefetch_related``: a table
#: read with it answers :func:`table_seats` (and so :func:`table_header`) without a query.
SEATS = Prefetch(
    "seats", queryset=Seat.objects.select_related("entry__player").order_by("position")
)


def table_by_key(key: str) -> Table:
    """The table of the private link ``key`` with its round (its draw record left out) and
    event, in one statement (:func:`_table_read`): 404 when no table has that key."""
    return _table_read("t.{url_key} = %s", [key])


def table_in_event(*, event: Event, round_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event").defer(*without_draw_record("round")),
        round__event=event,
        round__number=round_number,
        number=table_number,
    )


def table_of_event(*, slug: str, round_number: int, table_number: int) -> Table:
    """:func:`table_in_event` by the event's slug, with its round and event, in one query (the
    event is ``table.round.event``): 404 when the event, the round or the table is missing."""
    return _table_read(
        "e.{slug} = %s AND r.{round_number} = %s AND t.{table_number} = %s",
        [slug, round_number, table_number],
    )


# A table by its URL (the API's) or its private link (the phone's), with its round and event: what
# every save and every read of a table's protocol starts with, written as SQL with the models'
# own columns and conversions (issue 38: the ORM built this three-table query, about 45 columns,
# for more CPU than anything else a save did). The instances are the ORM's (``from_db``), every
# field loaded but the round's draw record (deferred, as ``without_draw_record`` leaves it).


def _fields(model, leave_out: tuple[str, ...] = ()) -> list:
    return [f for f in model._meta.concrete_fields if f.name not in leave_out]


@cache
def _table_read_parts() -> tuple[str, list[tuple[Any, list[str], list[list]]]]:
    parts = []
    columns = []
    for model, alias, leave_out in (
        (Table, "t", ()),
        (Round, "r", DRAW_RECORD_FIELDS),
        (Event, "e", ()),
    ):
        fields = _fields(model, leave_out)
        converters = []  # as the ORM's compiler applies them: the backend's, then the field's
        for f in fields:
            col = f.get_col(alias)
            got = connection.ops.get_db_converters(col) + f.get_db_converters(connection)
            converters.append([(convert, col) for convert in got])
        parts.append((model, [f.attname for f in fields], converters))
        columns += [f"{alias}.{_q(f.column)}" for f in fields]
    t, r, e = (_q(m._meta.db_table) for m in (Table, Round, Event))
    sql = (
        f"SELECT {', '.join(columns)} FROM {t} t "
        f"JOIN {r} r ON r.{_q('id')} = t.{_q(_TABLE_ROUND.column)} "
        f"JOIN {e} e ON e.{_q('id')} = r.{_q(Round._meta.get_field('event').column)} "
    )
    return sql, parts


def _table_read(where: str, params: list) -> Table:
    """The one table ``where`` names (its SQL: ``t``, ``r``, ``e`` the table, its round and
    its event; ``{slug}``, ``{round_number}``, ``{table_number}`` and ``{url_key}`` their
    columns) with its round and event; :class:`~django.http.Http404` when there is none."""
    sql, parts = _table_read_parts()
    condition = where.format(
        slug=_q(Event._meta.get_field("slug").column),
        round_number=_q(Round._meta.get_field("number").column),
        table_number=_q(Table._meta.get_field("number").column),
        url_key=_q(Table._meta.get_field("url_key").column),
    )
    with connection.cursor() as cursor:
        cursor.execute(f"{sql} WHERE {condition}", params)
        row = cursor.fetchone()
    if row is None:
        raise Http404("No such table.")
    objects = []
    start = 0
    for model, fields, converters in parts:
        values = list(row[start : start + len(fields)])
        start += len(fields)
        for i, convert in enumerate(converters):
            for converter, col in convert:
                values[i] = converter(values[i], col, connection)
        objects.append(model.from_db(connection.alias, fields, values))
    table, round_, event = objects
    _ROUND_EVENT.set_cached_value(round_, event)
    _TABLE_ROUND.set_cached_value(table, round_)
    return table


def seats_of(table: Table) -> list[Seat]:
    return list(table.seats.select_related("entry__player").order_by("position"))


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in order with their entries and players: those read with the table
    (:data:`SEATS`, as a save reads them under its lock: one query however often it asks),
    else read now."""
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return sorted(table.seats.all(), key=lambda s: s.position)
    return seats_of(table)


# --- what a save reads under its table's lock (issue 38) --------------------------------------
#
# A save runs these on every table's every deal, so they are written as SQL: building the ORM's
# query cost its web process more CPU than PostgreSQL spent answering it (docs/performance.md,
# "The event-day write path"). Their tables and columns come from the models.


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


_TABLE_FIELDS = ("id", "round_id", "number", "first_dealer", "url_key")
_SEAT_FIELDS = ("id", "round_id", "table_id", "position", "entry_id")
_ENTRY = Seat._meta.get_field("entry")
_PLAYER = Entry._meta.get_field("player")
_SEAT_TABLE = Seat._meta.get_field("table")
_TABLE_ROUND = Table._meta.get_field("round")
_ROUND_EVENT = Round._meta.get_field("event")


@cache
def _table_locked_sql() -> str:
    t, s, e, p = (_q(m._meta.db_table) for m in (Table, Seat, Entry, Player))
    columns = [f"t.{_q(Table._meta.get_field(f).column)}" for f in _TABLE_FIELDS]
    columns += [f"s.{_q(Seat._meta.get_field(f).column)}" for f in _SEAT_FIELDS]
    columns += [f"e.{_q(_PLAYER.column)}", f"p.{_q(Player._meta.get_field('name').column)}"]
    return (
        f"SELECT {', '.join(columns)} FROM {t} t "
        f"LEFT JOIN {s} s ON s.{_q(_SEAT_TABLE.column)} = t.{_q('id')} "
        f"LEFT JOIN {e} e ON e.{_q('id')} = s.{_q(_ENTRY.column)} "
        f"LEFT JOIN {p} p ON p.{_q('id')} = e.{_q(_PLAYER.column)} "
        f"WHERE t.{_q('id')} = %s "
        f"FOR NO KEY UPDATE OF t"
    )


def table_locked(table: Table) -> Table:
    """``table``'s row read again and locked until the commit (``FOR NO KEY UPDATE`` of the table
    alone), with its seats, their entries and players (the player's name only: the rest of an
    entry or a player is read if asked for) in the same statement, so that :func:`table_seats`
    (and :func:`table_header`) read nothing more. The round and event are ``table``'s own, as
    read with it (the caller reads the round's state again with its share). PostgreSQL only
    (SQLite has no row locks)."""
    with connection.cursor() as cursor:
        cursor.execute(_table_locked_sql(), [table.pk])
        rows = cursor.fetchall()
    if not rows:
        raise Table.DoesNotExist(f"table {table.pk} no longer exists")
    db = connection.alias
    n = len(_TABLE_FIELDS)
    locked = Table.from_db(db, _TABLE_FIELDS, rows[0][:n])
    _TABLE_ROUND.set_cached_value(locked, _TABLE_ROUND.get_cached_value(table))
    seats = []
    for row in rows:
        if row[n] is None:  # a table without seats (LEFT JOIN)
            continue
        seat = Seat.from_db(db, _SEAT_FIELDS, row[n : n + len(_SEAT_FIELDS)])
        player = Player.from_db(db, ("id", "name"), (row[-2], row[-1]))
        entry = Entry.from_db(db, ("id", "player_id"), (seat.entry_id, row[-2]))
        _PLAYER.set_cached_value(entry, player)
        _ENTRY.set_cached_value(seat, entry)
        _SEAT_TABLE.set_cached_value(seat, locked)
        seats.append(seat)
    seats.sort(key=lambda s: s.position)
    cached: QuerySet = QuerySet(Seat)  # as prefetch_related leaves it (table.seats.all())
    cached._result_cache = seats
    cached._prefetch_done = True
    locked._prefetched_objects_cache = {"seats": cached}
    return locked


@dataclass(frozen=True)
class SaveState:
    """What a save of one chain needs to know of the table's versions, read under its lock:
    ``(pk, version)`` of the chain's current version and of the table's approved one (``None``
    where there is none), whether any active ruling with a penalty is on the table (its entries
    are then computed on the new record), and the version a send of ``client_id`` stored."""

    current: tuple[int, int] | None
    approved: tuple[int, int] | None
    rulings: bool
    resent: int | None = None


@cache
def _save_state_sql() -> str:
    pr, ru, inc = (_q(m._meta.db_table) for m in (Protocol, Ruling, Incident))

    def c(model, name: str) -> str:
        return _q(model._meta.get_field(name).column)

    return (
        f"SELECT {c(Protocol, 'id')}, {c(Protocol, 'version')}, "
        f"{c(Protocol, 'entry_kind')} = %s AND {c(Protocol, 'is_current')}, "
        f"{c(Protocol, 'approved')}, {c(Protocol, 'client_id')} = %s, NULL "
        f"FROM {pr} WHERE {c(Protocol, 'table')} = %s AND (({c(Protocol, 'entry_kind')} = %s "
        f"AND {c(Protocol, 'is_current')}) OR {c(Protocol, 'approved')} "
        f"OR {c(Protocol, 'client_id')} = %s) "
        f"UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, EXISTS (SELECT 1 FROM {ru} r "
        f"JOIN {inc} i ON i.{c(Incident, 'id')} = r.{c(Ruling, 'incident')} "
        f"WHERE i.{c(Incident, 'table')} = %s AND r.{c(Ruling, 'active')} "
        f"AND r.{c(Ruling, 'kind')} <> %s)"
    )


def table_save_state(table: Table, entry_kind: str, client_id: str = "") -> SaveState:
    """The table's :class:`SaveState` for the ``entry_kind`` chain, in one statement (the
    version numbers only: a save reads no version's record unless it is refused)."""
    # "" matches no send: a version saved without an id has "" (the column's default), so the
    # comparison is made with a value no id can take (ids are 1 to 64 characters)
    sent = client_id or None
    with connection.cursor() as cursor:
        cursor.execute(
            _save_state_sql(),
            [entry_kind, sent, table.pk, entry_kind, sent, table.pk, Ruling.Kind.NONE],
        )
        rows = cursor.fetchall()
    current = approved = resent = None
    rulings = False
    for pk, version, is_current, is_approved, is_resent, any_ruling in rows:
        if pk is None:
            rulings = bool(any_ruling)
            continue
        if is_current:
            current = (pk, version)
        if is_approved:
            approved = (pk, version)
        if is_resent:
            resent = pk
    return SaveState(current, approved, rulings, resent)


def protocol_current_or_sent(
    table: Table, client_id: str
) -> tuple[Protocol | None, Protocol | None]:
    """The table's current version of its own entry and the version a send of ``client_id``
    (the phone's outbox) already stored there, each ``None`` where there is none, in one query:
    what a phone's send reads before it saves (no confirmations: a send shows none)."""
    current = sent = None
    for p in Protocol.objects.filter(
        Q(entry_kind=EntryKind.TABLE, is_current=True) | Q(client_id=client_id), table=table
    ).order_by():  # two at most; the model's order would join the table, round and event
        if p.client_id == client_id:
            sent = p
        if p.entry_kind == EntryKind.TABLE and p.is_current:
            current = p
    return current, sent


def protocol_current(table: Table, entry_kind: str = EntryKind.TABLE) -> Protocol | None:
    return (
        Protocol.objects.filter(table=table, entry_kind=entry_kind, is_current=True)
        .prefetch_related("confirmations")
        .first()
    )


def protocol_versions(table: Table) -> list[Protocol]:
    return list(
        Protocol.objects.filter(table=table)
        .select_related("created_by", "approved_by")
        .order_by("entry_kind", "-version")
    )


#: A protocol version's state (``Protocol.state``) in words.
STATES = {
    "approved": _("approved"),
    "confirmed": _("confirmed by every player"),
    "findings": _("has errors"),
    "draft": _("not confirmed yet"),
}


def state_text(protocol: Protocol) -> str:
    return str(STATES.get(protocol.state, protocol.state))


def next_dealer(protocol: Any) -> int:
    """The seat that deals next, by the protocol's family's rules."""
    return domain_of_protocol(protocol).next_dealer(protocol)


def round_protocols(round_: Round) -> list[dict[str, Any]]:
    """Each table of the round with its current record's state, in three queries."""
    tables = list(
        round_.tables.order_by("number").prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("entry__player").order_by("position")
            ),
            Prefetch(
                "protocols",
                queryset=Protocol.objects.filter(is_current=True).prefetch_related("confirmations"),
                to_attr="current_protocols",
            ),
        )
    )
    out = []
    for t in tables:
        by_kind = {p.entry_kind: p for p in t.current_protocols}
        out.append(
            {
                "table": t,
                "players": [s.entry.player.name for s in t.seats.all()],
                "protocol": by_kind.get(EntryKind.TABLE),
                "second": by_kind.get(EntryKind.REFEREE),
                "state": state_text(by_kind[EntryKind.TABLE]) if EntryKind.TABLE in by_kind else "",
            }
        )
    return out


def tables_of_entry(entry) -> list[dict[str, Any]]:
    """The tables an entry sat at, latest round first, with their current record."""
    seats = (
        Seat.objects.filter(entry=entry)
        .select_related("table__round__event")
        .defer(*without_draw_record("table__round"))
        .order_by("-round__number")
    )
    out = []
    for seat in seats:
        out.append(
            {
                "seat": seat,
                "table": seat.table,
                "round": seat.table.round,
                "protocol": protocol_current(seat.table),
            }
        )
    return out


def incidents_for_table(table: Table) -> list[Incident]:
    return list(
        table.incidents.prefetch_related(
            Prefetch(
                "rulings",
                queryset=Ruling.objects.prefetch_related("appeals").order_by("created_at"),
            )
        ).order_by("-occurred_at")
    )


def appeals_for_event(event: Event) -> list[Appeal]:
    return list(
        Appeal.objects.filter(ruling__incident__event=event)
        .select_related("ruling__incident__table__round", "filed_by_entry__player", "new_ruling")
        .defer(*without_draw_record("ruling__incident__table__round"))
        .order_by("status", "-filed_at")
    )


def protocol_audit_log(event: Event) -> list[AuditLogEntry]:
    """The append-only log of protocols, incidents, rulings and appeals (chief referee)."""
    prefixes = ("protocol.", "incident.", "ruling.", "appeal.", "penalty.")
    query = Q()
    for prefix in prefixes:
        query |= Q(action__startswith=prefix)
    return list(
        AuditLogEntry.objects.filter(query, event=event)
        .select_related("user")
        .order_by("-created_at", "-id")[:500]
    )


def table_header(table: Table, *, players: tuple[str, ...] | None = None) -> ScoringProtocol:
    """An empty scoring protocol for ``table``: its players in seat order, the event's rules
    (of whichever family: the event's convention names it).

    ``players``: names to stand in for the draw's, where only the event's rules are wanted
    (no seat is read then; a family's rules never depend on the names)."""
    event = table.round.event
    if players is None:
        players = tuple(s.entry.player.name for s in table_seats(table))
    return event_variant(event).blank(
        players=players,
        target=event.pulka_target,
        convention=event.variant,
        options=tuple(sorted((event.convention_options or {}).items())),
        first_dealer=table.first_dealer,
    )
