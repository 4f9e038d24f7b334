"""Saving a table's protocol: every save a new version, checked and scored
(:mod:`~tournaments.services.protocols.checks`), refused when based on an old version; the
re-scoring of the current version after a ruling; the table's private link rotated."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.variants import variant_of
from tournaments import rule_sources
from tournaments.access.permissions import can_referee
from tournaments.errors import UserFacingError
from tournaments.families.protocols import ScoringProtocol, Sheet, stored_protocol, stored_sheet
from tournaments.models import (
    AuditLogEntry,
    EntryKind,
    EventRole,
    Protocol,
    ProtocolStats,
    Round,
    Table,
)
from tournaments.models.player import new_url_key
from tournaments.models.round import without_draw_record
from tournaments.selectors.protocols import (
    SEATS,
    SaveState,
    table_locked,
    table_save_state,
    table_seats,
)
from tournaments.selectors.standings import protocol_facts, protocol_stats_of
from tournaments.services.audit import audit_log
from tournaments.services.standings import standings_schedule

from .checks import _evaluate, _store_facts
from .documents import _require_event_rules, on_event_rules, protocols_compare

__all__ = [
    "AlreadyApprovedError",
    "StaleProtocolError",
    "protocol_rescore",
    "protocol_save",
    "referees_to_ask",
    "schedule_standings",
    "table_rotate_key",
]


class StaleProtocolError(UserFacingError):
    """A save, a confirmation or an approval of an old version: ``extra`` has the current
    version and the differences (``a``: the current version, ``b``: the one submitted)."""


class AlreadyApprovedError(UserFacingError):
    """An approval of a version another referee approved first: ``extra`` says who and when."""


def schedule_standings(event_id: int) -> None:
    """Ask for a recomputation of the event's standings in the caller's transaction: the job
    is written with the change that asks for it and sent after the commit (an outbox row,
    ``jobs.outbox``), so a broker outage never fails the change nor loses the job."""
    standings_schedule(event_id=event_id)


# --- saving -----------------------------------------------------------------------------------


def _lock_table(table: Table, *, seats: bool = False) -> Table:
    """The table read again with its round and event, its row locked until the commit: its
    saves, confirmations and approvals one at a time, the versions numbered under the lock.

    Only the table's row is locked for update (``FOR NO KEY UPDATE OF`` the table); its round's
    row is shared (``FOR SHARE``), taken first as the round's corrections take theirs: while a
    table writes, its round cannot be closed nor its seating corrected, yet the round's tables
    write side by side. (A plain ``select_for_update()`` with ``select_related`` locked the
    round's and the event's rows for update too, so every save of an event waited for the one
    before it: issue 38.) ``seats``: the seats read with it (``table_seats``), once.

    A table read with its round and event (the API's and the pages' table by its URL) keeps them:
    the round's state is read again with its share, and only the table's own row is read again."""
    state = None
    if connection.features.has_select_for_update:  # PostgreSQL (SQLite locks the whole file)
        with connection.cursor() as cursor:  # Django's select_for_update has no FOR SHARE
            cursor.execute(
                f"SELECT state FROM {connection.ops.quote_name(Round._meta.db_table)} "
                "WHERE id = %s FOR SHARE",
                [table.round_id],
            )
            state = cursor.fetchone()[0]
    known = _ROUND.get_cached_value(table, None)
    if state is not None and known is not None and _EVENT.is_cached(known):
        locked = table_locked(table)  # with its seats, in one statement
        known.state = state  # as it stands under the share (a close waits for this save)
        return locked
    query = Table.objects.select_for_update(of=("self",), no_key=True)
    query = query.select_related("round__event").defer(*without_draw_record("round"))
    return (query.prefetch_related(SEATS) if seats else query).get(pk=table.pk)


_ROUND = Table._meta.get_field("round")
_EVENT = Round._meta.get_field("event")


def _current(table: Table, entry_kind: str) -> Protocol | None:
    # one at most (a constraint); the model's order would join the table, round and event
    current = Protocol.objects.filter(table=table, entry_kind=entry_kind, is_current=True)
    return current.order_by().first()


# --- a save's writes as one statement (issue 38) ----------------------------------------------
#
# A save writes the previous version no longer current, the new version, its facts
# (``ProtocolStats``, what the standings read, ``checks._store_facts``) and its log entry
# (``services.audit.audit_log``): built by the ORM (a model instance each, its ``save()``, a
# statement each) they cost the web process about a third of a save's CPU. They are written here
# as one statement, the tables, columns and conversions taken from the models' fields (the
# fields' ``get_db_prep_save``, their defaults, ``auto_now_add``). No receiver listens to these
# models' saves (``web_cache.versions.connect`` and ``services.standings.connect`` name their
# senders: none of the three), and the log's ``save()`` refuses only a change, never a new
# entry, so the ORM's path did nothing more than these rows; the rare writes beside them (an
# approval reopened: its log entry, the standings' job) stay the ORM's.


def _columns(model) -> list:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@cache
def _write_sql() -> str:
    def insert(model, source: str = "") -> str:
        fields = _columns(model)
        names = ", ".join(_q(f.column) for f in fields)
        # typed, so that a value's type never depends on its literal (NULL, a JSON string)
        cast = ", ".join(f"CAST(%s AS {_cast_type(f)})" for f in fields)
        return f"INSERT INTO {_q(model._meta.db_table)} ({names}) SELECT {cast}{source}"

    pr = _q(Protocol._meta.db_table)
    is_current = _q(Protocol._meta.get_field("is_current").column)
    stats_fk = _q(ProtocolStats._meta.get_field("protocol").column)
    stats_data = ProtocolStats._meta.get_field("data")
    return (
        f"WITH old AS (UPDATE {pr} SET {is_current} = false WHERE {_q('id')} = %s "
        f"RETURNING {_q('id')}), "
        # the new version once the old one is no longer current (the unique current version):
        # its values are selected after the count of ``old``, which runs that UPDATE first
        f"new AS ({insert(Protocol, ' WHERE (SELECT count(*) FROM old) >= 0')} "
        f"RETURNING {_q('id')}), "
        f"stats AS (INSERT INTO {_q(ProtocolStats._meta.db_table)} ({stats_fk}, "
        f"{_q(stats_data.column)}) SELECT {_q('id')}, CAST(%s AS {stats_data.db_type(connection)}) "
        f"FROM new), "
        f"log AS ({insert(AuditLogEntry)}) "
        f"SELECT {_q('id')} FROM new"
    )


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _cast_type(field) -> str:
    """The type a value is cast to before its column: the column's, but a text column's
    without its length (a cast to ``varchar(n)`` would cut a longer value where the column
    refuses it, as the ORM's ``INSERT`` did)."""
    if isinstance(field, models.CharField):
        return connection.ops.cast_char_field_without_max_length
    return field.db_type(connection)


@cache
def _insert_fields(model) -> tuple[tuple[str, Any, bool], ...]:
    """(attname, field, set to the time of the write) of :func:`_columns`, once per model."""
    return tuple(
        (f.attname, f, bool(getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)))
        for f in _columns(model)
    )


def _prepared(model, values: dict[str, Any], now) -> tuple[list, list, list]:
    """The model's columns' values for an INSERT (``values`` by attname, else the field's
    default; ``auto_now_add`` fields ``now``): the Python values and the database's, and the
    attnames, in the order of :func:`_columns`."""
    python, prepared, names = [], [], []
    for name, f, stamped in _insert_fields(model):
        if name in values:
            value = values[name]
        else:
            value = now if stamped else f.get_default()
        python.append(value)
        prepared.append(f.get_db_prep_save(value, connection))
        names.append(name)
    return python, prepared, names


def _write_version(
    *, previous: int | None, values: dict[str, Any], facts: dict[str, Any], log: dict[str, Any]
) -> Protocol:
    """``previous`` (a version's id, or None) no longer current, a new version of ``values``
    (by attname; the rest the fields' defaults), its ``facts`` and a log entry of ``log`` (by
    attname), in one statement; the new version as the ORM would have returned it."""
    if connection.vendor != "postgresql":  # SQLite (the development default): the ORM's writes
        if previous is not None:
            Protocol.objects.filter(pk=previous).update(is_current=False)
        saved = Protocol.objects.create(**values)
        ProtocolStats.objects.create(protocol=saved, data=facts)
        AuditLogEntry.objects.create(**log)
        return saved
    now = timezone.now()
    python, prepared, names = _prepared(Protocol, values, now)
    _log_python, log_prepared, _names = _prepared(AuditLogEntry, log, now)
    stats = _STATS_DATA.get_db_prep_save(facts, connection)
    with connection.cursor() as cursor:
        cursor.execute(_write_sql(), [previous, *prepared, stats, *log_prepared])
        (pk,) = cursor.fetchone()
    return Protocol.from_db(connection.alias, ["id", *names], [pk, *python])


_STATS_DATA = ProtocolStats._meta.get_field("data")
_TABLE = Protocol._meta.get_field("table")
_CREATED_BY = Protocol._meta.get_field("created_by")
_VIA_ENTRY = Protocol._meta.get_field("created_via_entry")


def referees_to_ask(event) -> list[str]:
    """Whom a table asks to correct its protocol once it can no longer: the event's chief
    referees, else its referees (names, or usernames)."""
    for roles in ((EventRole.Role.CHIEF_REFEREE,), (EventRole.Role.REFEREE,)):
        users = [
            r.user.get_full_name() or r.user.get_username()
            for r in EventRole.objects.filter(event=event, role__in=roles)
            .select_related("user")
            .order_by("user__username")
        ]
        if users:
            return users
    return []


def _require_correction_of_closed_round(table: Table, by, reason: str) -> None:
    """A closed round takes no more entries from its tables (their keys stop saving); a
    referee may still correct a protocol, giving the reason."""
    event = table.round.event
    if not can_referee(by, event):
        who = ", ".join(referees_to_ask(event)) or _("the chief referee")
        raise UserFacingError(
            _(
                "Round %(n)d is closed: the table's entries are no longer saved. Ask %(who)s "
                "to correct the protocol."
            )
            % {"n": table.round.number, "who": who},
            {"field": "round", "state": "closed"},
        )
    if not reason.strip():
        raise UserFacingError(
            _("Round %(n)d is closed: give the reason for correcting its protocol.")
            % {"n": table.round.number},
            {"field": "reason"},
        )


@transaction.atomic
def table_rotate_key(*, table: Table, by=None) -> Table:
    """Revoke the table's private link (``/t/<key>/`` and ``X-Table-Key``) and issue a new one,
    as :func:`tournaments.services.entries.entry_rotate_key` does for a player's."""
    table = _lock_table(table)
    table.url_key = new_url_key()
    table.save(update_fields=["url_key"])
    audit_log(
        event=table.round.event,
        action="table.key_rotated",
        by=by,
        data={"round": table.round.number, "table": table.number},
    )
    return table


@transaction.atomic
def protocol_save(*, table: Table, entry_kind: str = EntryKind.TABLE, **save) -> Protocol:
    """Save a new version of the table's protocol (the ``entry_kind`` chain); ``save``: the
    other arguments of :func:`_save_locked` (``protocol`` and ``based_on_version`` needed).

    ``draw_players``: the protocol is put on the draw's players and the event's rules under the
    table's lock (:func:`~.documents.on_event_rules`, the seats read with the lock), as the
    table page's form rebuilds a stored version with its deal; else a protocol that names other
    players or rules is refused, naming the field.

    :raises StaleProtocolError: when ``based_on_version`` is not the current version.
    :raises UserFacingError: a change after approval without a referee or a reason.
    """
    table = _lock_table(table, seats=True)
    return _save_locked(
        table=table, state=table_save_state(table, entry_kind), entry_kind=entry_kind, **save
    )


def _save_locked(
    *,
    table: Table,
    state: SaveState,
    protocol: ScoringProtocol,
    based_on_version: int | None,
    sheet: Sheet | None = None,
    notation: str = "",
    entry_kind: str = EntryKind.TABLE,
    source: str = Protocol.Source.REFEREE,
    reason: str = "",
    by=None,
    via_entry=None,
    client_id: str = "",
    draw_players: bool = False,
) -> Protocol:
    """:func:`protocol_save` with the table locked (:func:`_lock_table`, its seats read) and its
    versions' ``state`` read under the lock; ``client_id``: the phone's id of the send
    (``resends``), stored with the version."""
    event = table.round.event
    if protocol.size != len(table_seats(table)):
        raise UserFacingError(
            _("The protocol has %(n)d players; the table seats %(m)d.")
            % {"n": protocol.size, "m": len(table_seats(table))},
            {"field": "players", "rule": "3.2.10"},
        )
    if table.round.state == Round.State.CLOSED:
        _require_correction_of_closed_round(table, by, reason)
    if not can_referee(by, event):  # the table's key or a player's link (issue 38)
        if protocol.first_dealer != table.first_dealer:
            raise UserFacingError(
                _(
                    "The draw decides who deals first at this table: seat %(seat)d, not seat "
                    "%(given)d. A referee changes it if the table agreed otherwise."
                )
                % {"seat": table.first_dealer + 1, "given": protocol.first_dealer + 1},
                {"field": "first_dealer"},
            )
        if reason.strip():
            raise UserFacingError(
                _("A version's reason is the referee's: the table saves without one."),
                {"field": "reason"},
            )
    if draw_players:  # the form's pulka on the seats read under the lock
        protocol = on_event_rules(table, protocol)
    else:
        protocol = _require_event_rules(table, protocol)
    current, approved = state.current, state.approved  # (pk, version) or None
    current_version = current[1] if current else None
    if based_on_version != current_version:
        differences = []
        if current is not None:  # its record read only now, to say what differs
            data = Protocol.objects.filter(pk=current[0]).values_list("data", flat=True).get()
            differences = protocols_compare(stored_protocol(data), protocol)
        raise StaleProtocolError(
            _(
                "This protocol was changed by someone else (now version %(v)s) after you opened "
                "it. Reload it and check the differences before saving again."
            )
            % {"v": current_version},
            {
                "field": "based_on_version",
                "current_version": current_version,
                "differences": differences,
            },
        )
    if approved is not None:
        if not can_referee(by, event):
            raise UserFacingError(
                _("This protocol is approved: only a referee can change it."), {"field": "protocol"}
            )
        if not reason.strip():
            raise UserFacingError(
                _("Give the reason for changing an approved protocol."), {"field": "reason"}
            )
    variant = variant_of(protocol)
    data = variant.to_dict(protocol)
    try:  # the stored JSON must read back (the family's public format, versioned)
        stored, _sheet = variant.from_dict(data)
        if sheet is not None:
            variant.sheet_from_dict(variant.sheet_to_dict(sheet))
    except ValueError as exc:  # JsonFormatError, naming the path
        raise UserFacingError(
            rule_sources.cited_in(str(exc)), {"field": "data", "path": getattr(exc, "path", None)}
        ) from exc
    fields = _evaluate(table, protocol, sheet, rulings=state.rulings)
    if approved is not None:  # a change reopens the approval (issue 5)
        Protocol.objects.filter(pk=approved[0]).update(approved=False)
        audit_log(
            event=event,
            action="protocol.reopened",
            by=by,
            reason=reason,
            data={"table": table.pk, "version": approved[1]},
        )
        schedule_standings(event.pk)
    user = by if getattr(by, "is_authenticated", False) else None
    values = {
        "table_id": table.pk,
        "entry_kind": entry_kind,
        "version": (current_version or 0) + 1,
        "based_on_version": based_on_version,
        "data": data,
        "sheet": variant.sheet_to_dict(sheet) if sheet is not None else None,
        "notation": notation,
        "source": source,
        "reason": reason,
        "created_by_id": getattr(user, "pk", None),
        "created_via_entry_id": getattr(via_entry, "pk", None),
        "client_id": client_id,
        **fields,
    }
    log = {
        "table": table.pk,
        "round": table.round.number,
        "table_number": table.number,
        "entry_kind": entry_kind,
        "version": values["version"],
        "errors": fields["error_count"],
        # who saved it where no account did: the table's phone, by the player it names
        "source": source,
        "via_entry": getattr(via_entry, "pk", None),
    }
    facts = protocol_facts(fields["result"], None, protocol_stats_of(variant, stored))
    saved = _write_version(
        previous=current[0] if current else None,
        values=values,
        facts=facts,
        log={
            "event_id": event.pk,
            "user_id": values["created_by_id"],
            "action": "protocol.saved",
            "reason": reason,
            "data": log,
        },
    )
    _TABLE.set_cached_value(saved, table)
    if user is not None:
        _CREATED_BY.set_cached_value(saved, user)
    if via_entry is not None:
        _VIA_ENTRY.set_cached_value(saved, via_entry)
    return saved


@transaction.atomic
def protocol_rescore(
    *, table: Table, by=None, reason: str, reason_words: dict[str, Any] | None = None
) -> Protocol | None:
    """A new version of the table's record with the same data, re-scored with the rulings now
    active (a ruling or an appeal changed them). The approval carries over: the change is itself
    a referee's or the committee's decision. ``None`` when the table has no protocol yet.

    ``reason_words``: the reason as words said again in the reader's language
    (:func:`tournaments.words.protocols.version_reason`); ``reason`` is then English."""
    table = _lock_table(table, seats=True)
    current = _current(table, EntryKind.TABLE)
    if current is None:
        return None
    event = table.round.event
    protocol = stored_protocol(current.data)
    sheet = stored_sheet(protocol, current.sheet)
    fields = _evaluate(table, protocol, sheet)
    was_approved = current.approved
    Protocol.objects.filter(pk=current.pk).update(is_current=False, approved=False)
    saved = Protocol.objects.create(
        table=table,
        entry_kind=EntryKind.TABLE,
        version=current.version + 1,
        based_on_version=current.version,
        data=current.data,
        sheet=current.sheet,
        notation=current.notation,
        source=Protocol.Source.RULING,
        reason=reason,
        reason_words=reason_words,
        resolution=current.resolution,
        approved=was_approved,
        approved_by=current.approved_by if was_approved else None,
        approved_at=timezone.now() if was_approved else None,
        created_by=by if getattr(by, "is_authenticated", False) else None,
        **fields,
    )
    _store_facts(saved, variant_of(protocol), protocol)
    audit_log(
        event=event,
        action="protocol.rescored",
        by=by,
        reason=reason,
        data={
            "table": table.pk,
            "version": saved.version,
            "approved": was_approved,
            **({"reason_words": reason_words} if reason_words else {}),
        },
    )
    if was_approved:
        schedule_standings(event.pk)
    return saved
