"""Writing an event's archive (``docs/archive-format.md``): :func:`event_archive`.

One query per kind of row, whatever the event's size; the draw records are read round by round
(they are the large part) and every row is streamed from the database (``iterator``).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
from typing import Any

from django.db.models import DecimalField, Model
from django.utils import timezone

from tournaments.archive.refs import (
    ARCHIVE_FORMAT,
    DUPLICATE_VERSION,
    ORDINARY_VERSION,
    IdMaps,
    audit_data_mapped,
    correction_seats_mapped,
    draw_ids,
    findings_mapped,
    result_mapped,
    ruling_entries_mapped,
    words_mapped,
)
from tournaments.models import (
    Appeal,
    AuditLogEntry,
    Avoidance,
    Board,
    BoardResult,
    DuplicateEvent,
    Entry,
    Event,
    EventPenalty,
    Incident,
    Protocol,
    ProtocolConfirmation,
    Round,
    Ruling,
    Seat,
    Table,
    Team,
    TeamLineUp,
    TeamRules,
)
from tournaments.services.draw_record import entry_ids

__all__ = ["EVENT_FIELDS", "FIELDS_ADDED", "event_archive", "event_archive_json"]

#: the event's own fields, as the archive holds them (its "event" object)
EVENT_FIELDS = (
    "slug",
    "name",
    "starts_on",
    "ends_on",
    "venue",
    "variant",
    "convention_options",
    "pulka_target",
    "deals_per_round",
    "round_time_limit",
    "table_size_policy",
    "rounds_planned",
    "default_draw_method",
    "separate_clubs",
    "tiebreaks",
    "double_entry",
    "published",
    "created_at",
)
PLAYER_FIELDS = ("name", "club", "city", "rating", "federation_id")
ENTRY_FIELDS = ("status", "joined_round", "fixed_table", "registered_at")
ROUND_FIELDS = (
    "number",
    "state",
    "draw_method",
    "draw_seed",
    "draw_seed_hash",
    "draw_seed_committed_at",
    "drawn_at",
    "published_at",
    "started_at",
    "closed_at",
    "draw_params",
    "draw_report",
)
PROTOCOL_FIELDS = (
    "entry_kind",
    "version",
    "based_on_version",
    "source",
    "reason",
    "is_current",
    "approved",
    "approved_at",
    "created_at",
    "error_count",
    "warning_count",
    "notation",
    "data",
    "sheet",
    "findings",
)
INCIDENT_FIELDS = ("deal", "occurred_at", "seats", "description", "created_at")
RULING_FIELDS = (
    "kind",
    "penalty_code",
    "seat",
    "rule",
    "params",
    "entries",
    "after_deal",
    "reason",
    "active",
    "created_at",
)
APPEAL_FIELDS = ("grounds", "filed_at", "status", "decision", "decided_at")
PENALTY_FIELDS = ("kind", "whists", "rule", "reason", "active", "created_at")
DEFINITION_FIELDS = ("code", "name", "kind", "whists", "gora", "rule")
#: fields added to version 1 after it was first written, by the object that holds them: an
#: older archive has not got them, and the import gives the model's defaults
#: (docs/archive-format.md, "Added to version 1")
FIELDS_ADDED = {
    "event": ("fours_remainder", "sit_out_score"),
    "player": ("substitute",),
    "protocol": ("players_errors_acknowledged_at", "players_errors_note"),
}


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def _fields(obj: Model, names: tuple[str, ...]) -> dict[str, Any]:
    out = {}
    for name in names:
        value = getattr(obj, name)
        field = obj._meta.get_field(name)
        if isinstance(field, DecimalField) and value is not None:
            # a decimal as text with its places ("12.50"), never a float's rounding
            value = f"{decimal.Decimal(value):.{field.decimal_places}f}"
        out[name] = _plain(value)
    return out


def _user(user) -> str | None:
    return user.get_username() if user is not None else None


def _refs(queryset) -> dict[int, int]:
    """Row id → the archive's reference: 1, 2, 3 … in the order the rows were made."""
    return {pk: n for n, pk in enumerate(queryset.order_by("pk").values_list("pk", flat=True), 1)}


def _teams(event: Event, player_ref: dict[int, int]) -> dict[str, Any]:
    """A team event's rules and teams (issue 40): ``team_rules`` and ``teams``, each team with
    its members, captain and line-ups by the players' references; nothing for an event without
    teams (its archive stays as it was)."""
    rules = TeamRules.objects.filter(event=event).first()
    if rules is None:
        return {}
    line_ups: dict[int, list[dict[str, Any]]] = {}
    for line_up in TeamLineUp.objects.filter(team__event=event).prefetch_related("entries"):
        line_ups.setdefault(line_up.team_id, []).append(
            {
                "round": line_up.round_number,
                "members": sorted(player_ref[e.pk] for e in line_up.entries.all()),
            }
        )
    return {
        "team_rules": {"scoring_members": rules.scoring_members, "counts": rules.counts},
        "teams": [
            {
                "name": t.name,
                "captain": player_ref.get(t.captain_id),
                "withdrawn": t.withdrawn,
                "members": sorted(player_ref[m.entry_id] for m in t.members.all()),
                "line_ups": sorted(line_ups.get(t.pk, []), key=lambda u: u["round"]),
            }
            for t in Team.objects.filter(event=event).prefetch_related("members").order_by("pk")
        ],
    }


#: a duplicate event's option, boards and results (issue 43, docs/duplicate.md)
DUPLICATE_FIELDS = (
    "method",
    "boards_per_set",
    "stanzas",
    "seed_hash",
    "seed_committed_at",
    "seed",
    "source",
    "prepared_at",
)
BOARD_FIELDS = ("number", "dealer", "cards")
BOARD_RESULT_FIELDS = ("deal_text", "values", "findings", "ok", "entered_by", "version", "updated_at")
#: added later to version 2 (a referee's adjusted scores): written always, read when present
DUPLICATE_LATER_FIELDS = ("average_plus_percent", "average_percent", "average_minus_percent")
BOARD_RESULT_LATER_FIELDS = ("adjusted", "adjusted_reason")


def _duplicate(event: Event) -> dict[str, Any]:
    """A duplicate event's option, its boards and each table's result on a board (the tables by
    round and number); the comparison scores are not kept, the import scores the boards again.
    Nothing for an ordinary event (its archive stays as it was)."""
    dup = DuplicateEvent.objects.filter(event=event).first()
    if dup is None:
        return {}
    results = (
        BoardResult.objects.filter(board__event=event)
        .select_related("board", "table__round")
        .order_by("board__number", "table__round__number", "table__number")
    )
    return {
        "duplicate": {
            **_fields(dup, DUPLICATE_FIELDS + DUPLICATE_LATER_FIELDS),
            "boards": [
                _fields(b, BOARD_FIELDS) for b in Board.objects.filter(event=event).order_by("number")
            ],
            "results": [
                {
                    "board": r.board.number,
                    "round": r.table.round.number,
                    "table": r.table.number,
                    **_fields(r, BOARD_RESULT_FIELDS + BOARD_RESULT_LATER_FIELDS),
                }
                for r in results
            ],
        }
    }


def event_archive(*, event: Event, exported_by=None) -> dict[str, Any]:
    """The whole record of ``event`` as one JSON-ready document (``docs/archive-format.md``)."""
    entries = Entry.objects.filter(event=event)
    maps: IdMaps = {
        "entry": _refs(entries),
        "incident": _refs(Incident.objects.filter(event=event)),
        "ruling": _refs(Ruling.objects.filter(incident__event=event)),
        "appeal": _refs(Appeal.objects.filter(ruling__incident__event=event)),
        "table": {
            pk: (r, t)
            for pk, r, t in Table.objects.filter(round__event=event).values_list(
                "pk", "round__number", "number"
            )
        },
    }
    player_ref = maps["entry"]
    # a round imported from another server keeps its draw in that server's ids: the log's
    # corrections name the seats of a table seated anew in the same ids (round → id → draw id)
    to_draw: dict[int, dict[int, int]] = {}
    players = [
        {
            "ref": player_ref[e.pk],
            **_fields(e.player, PLAYER_FIELDS),
            **_fields(e, ENTRY_FIELDS),
            **_fields(e, FIELDS_ADDED["player"]),
        }
        for e in entries.select_related("player").order_by("pk").iterator()
    ]
    duplicate = _duplicate(event)
    return {
        "format": ARCHIVE_FORMAT,
        # a duplicate event's archive is version 2, which a Pulka reading only version 1 refuses
        "version": DUPLICATE_VERSION if duplicate else ORDINARY_VERSION,
        "exported_at": timezone.now().isoformat(),
        "exported_by": _user(exported_by),
        "event": {**_fields(event, EVENT_FIELDS), **_fields(event, FIELDS_ADDED["event"])},
        "staff": [
            {"user": username, "role": role}
            for username, role in event.roles.order_by("user__username", "role").values_list(
                "user__username", "role"
            )
        ],
        "penalty_definitions": [
            _fields(d, DEFINITION_FIELDS) for d in event.penalty_definitions.order_by("code")
        ],
        "players": players,
        "avoidances": [
            {"first": player_ref[a.first_id], "second": player_ref[a.second_id], "reason": a.reason}
            for a in Avoidance.objects.filter(event=event).order_by("pk")
        ],
        **_teams(event, player_ref),
        **duplicate,
        "rounds": _rounds(event, maps, to_draw),
        "incidents": [
            {
                "ref": maps["incident"][i.pk],
                "table": list(maps["table"][i.table_id]),
                **_fields(i, INCIDENT_FIELDS),
                "reported_by": _user(i.reported_by),
            }
            for i in Incident.objects.filter(event=event)
            .select_related("reported_by")
            .order_by("pk")
        ],
        "rulings": [
            {
                "ref": maps["ruling"][r.pk],
                "incident": maps["incident"][r.incident_id],
                **_fields(r, RULING_FIELDS),
                "definition": r.definition.code if r.definition else None,
                "replaces": maps["ruling"].get(r.replaces_id),
                "by": _user(r.by),
            }
            for r in Ruling.objects.filter(incident__event=event)
            .select_related("definition", "by")
            .order_by("pk")
        ],
        "appeals": [
            {
                "ref": maps["appeal"][a.pk],
                "ruling": maps["ruling"][a.ruling_id],
                **_fields(a, APPEAL_FIELDS),
                "filed_by_player": player_ref.get(a.filed_by_entry_id),
                "filed_by": _user(a.filed_by),
                "decided_by": _user(a.decided_by),
                "new_ruling": maps["ruling"].get(a.new_ruling_id),
            }
            for a in Appeal.objects.filter(ruling__incident__event=event)
            .select_related("filed_by", "decided_by")
            .order_by("pk")
        ],
        "event_penalties": [
            {
                "player": player_ref[p.entry_id],
                "round": p.round.number if p.round else None,
                **_fields(p, PENALTY_FIELDS),
                "definition": p.definition.code if p.definition else None,
                "ruling": maps["ruling"].get(p.ruling_id),
                "by": _user(p.by),
            }
            for p in EventPenalty.objects.filter(event=event)
            .select_related("round", "definition", "by")
            .defer(*(f"round__{f}" for f in ("draw_params", "draw_report")))
            .order_by("pk")
        ],
        "audit_log": [
            {
                "created_at": _plain(e.created_at),
                "user": _user(e.user),
                "action": e.action,
                "reason": e.reason,
                "data": audit_data_mapped(
                    e.action,
                    correction_seats_mapped(e.action, e.data, to_draw.get(_round_of(e.data), {})),
                    maps,
                ),
            }
            for e in AuditLogEntry.objects.filter(event=event)
            .select_related("user")
            .order_by("created_at", "pk")
            .iterator()
        ],
    }


def _round_of(data: Any) -> Any:
    return data.get("round") if isinstance(data, dict) else None


def _draw_players(round_: Round, player_ref: dict[int, int]) -> dict[str, int]:
    """The players the round's draw record names, by its ids: id → the archive's reference
    (for a round imported here, through the ids it was imported with)."""
    local = entry_ids(round_)
    out = {}
    for draw_id in draw_ids(round_.draw_params):
        ref = player_ref.get(local.get(draw_id, draw_id) if local else draw_id)
        if ref is not None:
            out[str(draw_id)] = ref
    return out


def _rounds(event: Event, maps: IdMaps, to_draw: dict[int, dict[int, int]]) -> list[dict[str, Any]]:
    """The rounds with their tables and protocols; fills ``to_draw`` (round number → this
    event's entry id → the draw record's id) for the rounds imported with other ids."""
    player_ref = maps["entry"]
    seats: dict[int, list[dict[str, int]]] = {}
    for table_id, position, entry_id in (
        Seat.objects.filter(round__event=event)
        .order_by("table_id", "position")
        .values_list("table_id", "position", "entry_id")
    ):
        seats.setdefault(table_id, []).append(
            {"position": position, "player": player_ref[entry_id]}
        )
    confirmations: dict[int, list[dict[str, Any]]] = {}
    for c in (
        ProtocolConfirmation.objects.filter(protocol__table__round__event=event)
        .select_related("by_referee")
        .order_by("protocol_id", "seat")
    ):
        confirmations.setdefault(c.protocol_id, []).append(
            {
                "seat": c.seat,
                "player": player_ref[c.entry_id],
                "by_referee": _user(c.by_referee),
                "confirmed_at": _plain(c.confirmed_at),
            }
        )
    versions: dict[int, list[dict[str, Any]]] = {}
    protocols = (
        Protocol.objects.filter(table__round__event=event)
        .select_related("approved_by", "created_by", "players_errors_acknowledged_by")
        .order_by("table_id", "entry_kind", "version")
    )
    for p in protocols.iterator(chunk_size=200):
        resolution = p.resolution
        if isinstance(resolution, dict) and "referee_protocol" in resolution:
            # the second entry is named by its version in the archive (``referee_version``)
            resolution = {k: v for k, v in resolution.items() if k != "referee_protocol"}
        versions.setdefault(p.table_id, []).append(
            {
                **_fields(p, PROTOCOL_FIELDS),
                **_fields(p, FIELDS_ADDED["protocol"]),
                "players_errors_acknowledged_by": _user(p.players_errors_acknowledged_by),
                "result": result_mapped(p.result, maps),
                "rulings_applied": [maps["ruling"].get(r, r) for r in p.rulings_applied or []],
                "ruling_entries": ruling_entries_mapped(p.ruling_entries, maps),
                "findings": findings_mapped(p.findings, maps),
                "reason_words": words_mapped(p.reason_words, maps),
                "resolution": resolution,
                "approved_by": _user(p.approved_by),
                "created_by": _user(p.created_by),
                "created_via_player": player_ref.get(p.created_via_entry_id),
                "confirmations": confirmations.get(p.pk, []),
            }
        )
    tables: dict[int, list[dict[str, Any]]] = {}
    for t in Table.objects.filter(round__event=event).order_by("round_id", "number"):
        tables.setdefault(t.round_id, []).append(
            {
                "number": t.number,
                "first_dealer": t.first_dealer,
                "seats": seats.get(t.pk, []),
                "protocols": versions.get(t.pk, []),
            }
        )
    out = []
    for pk in Round.objects.filter(event=event).order_by("number").values_list("pk", flat=True):
        round_ = Round.objects.with_draw_record().get(pk=pk)  # one draw record in memory at once
        item = _fields(round_, ROUND_FIELDS)
        ids = entry_ids(round_)
        if ids:  # the import's translation is this server's, not the draw's
            to_draw[round_.number] = {local: draw for draw, local in ids.items()}
            item["draw_params"] = {k: v for k, v in item["draw_params"].items() if k != "entry_ids"}
        item["draw_players"] = _draw_players(round_, player_ref)
        item["sitting_out"] = [player_ref[e] for e in round_.sitting_out or [] if e in player_ref]
        out.append({**item, "tables": tables.get(pk, [])})
    return out


def event_archive_json(*, event: Event, exported_by=None) -> bytes:
    """The archive as UTF-8 JSON, the file an organiser downloads."""
    document = event_archive(event=event, exported_by=exported_by)
    return json.dumps(document, ensure_ascii=False, indent=1).encode()
