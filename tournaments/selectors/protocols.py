"""Reads for the protocol pages: a table and its empty protocol, its versions, the round's
protocols, rulings, appeals, the protocols' log; who deals next. The record in words for people
(the pulka view, the findings' headings and sentences) is :mod:`tournaments.words.protocols`."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from tournaments.families import domain_of_protocol, event_variant
from tournaments.families.protocols import (
    ScoringProtocol,
)
from tournaments.models import (
    Appeal,
    AuditLogEntry,
    EntryKind,
    Event,
    Incident,
    Protocol,
    Round,
    Ruling,
    Seat,
    Table,
)
from tournaments.models.round import without_draw_record

__all__ = [
    "appeals_for_event",
    "next_dealer",
    "protocol_audit_log",
    "protocol_current",
    "protocol_versions",
    "state_text",
    "round_protocols",
    "SEATS",
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
    return get_object_or_404(
        Table.objects.select_related("round__event").defer(*without_draw_record("round")),
        url_key=key,
    )


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
    return get_object_or_404(
        Table.objects.select_related("round__event").defer(*without_draw_record("round")),
        round__event__slug=slug,
        round__number=round_number,
        number=table_number,
    )


def seats_of(table: Table) -> list[Seat]:
    return list(table.seats.select_related("entry__player").order_by("position"))


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in order with their entries and players: those read with the table
    (:data:`SEATS`, as a save reads them under its lock: one query however often it asks),
    else read now."""
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return sorted(table.seats.all(), key=lambda s: s.position)
    return seats_of(table)


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
