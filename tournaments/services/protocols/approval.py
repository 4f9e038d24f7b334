"""Confirming, approving and reopening a table's protocol: the players' confirmations, a
referee's approval (over the players' written errors only with his acknowledgement), the double
entry's two records compared and resolved into one, a version reopened with the reason."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.model import Ending
from tournaments import rule_sources
from tournaments.access.permissions import can_referee
from tournaments.errors import UserFacingError
from tournaments.families.protocols import stored_protocol, stored_sheet
from tournaments.models import (
    EntryKind,
    Protocol,
    ProtocolConfirmation,
    Seat,
    Table,
)
from tournaments.services.audit import audit_log

from .checks import players_sheet_errors
from .documents import on_event_rules, protocols_compare
from .saving import (
    AlreadyApprovedError,
    StaleProtocolError,
    _current,
    _lock_table,
    protocol_save,
    schedule_standings,
)

__all__ = [
    "double_entry_status",
    "protocol_approve",
    "protocol_confirm",
    "protocol_reopen",
    "protocol_resolve",
    "protocol_version",
]


def _require_current_table_version(protocol: Protocol) -> None:
    """``protocol`` (the version the user saw) must be the current version of the table's
    record; otherwise :class:`StaleProtocolError` with the differences, as a stale save gets.
    Call it with the table locked and ``protocol`` read again under the lock."""
    if protocol.entry_kind != EntryKind.TABLE:
        raise UserFacingError(
            _("Only the table's record is confirmed and approved, not the second entry."),
            {"field": "protocol"},
        )
    if protocol.is_current:
        return
    current = _current(protocol.table, EntryKind.TABLE)
    differences = []
    if current is not None:
        differences = protocols_compare(
            stored_protocol(current.data), stored_protocol(protocol.data)
        )
    raise StaleProtocolError(
        _(
            "The table saved version %(v)s after the version %(seen)s you saw. Check the "
            "differences, then confirm or approve the current version."
        )
        % {"v": current.version if current else None, "seen": protocol.version},
        {
            "field": "version",
            "version": protocol.version,
            "current_version": current.version if current else None,
            "differences": differences,
        },
    )


def protocol_version(*, table: Table, version: int | None) -> Protocol:
    """The version ``version`` of the table's record: the one a confirmation or an approval form
    showed (it carries its number).

    :raises UserFacingError: without a version, or for one the table never saved.
    """
    if version is None:
        raise UserFacingError(
            _("Say which version you confirm or approve: reload the page."), {"field": "version"}
        )
    found = Protocol.objects.filter(table=table, entry_kind=EntryKind.TABLE, version=version)
    protocol = found.first()
    if protocol is None:
        raise UserFacingError(
            _("The table has no version %(v)s.") % {"v": version}, {"field": "version"}
        )
    return protocol


@transaction.atomic
def protocol_confirm(*, protocol: Protocol, seat: int, entry=None, by=None) -> ProtocolConfirmation:
    """Seat ``seat`` confirms this version: the player (``entry``, by the private link) or a
    referee for him (``by``)."""
    table = _lock_table(protocol.table)
    protocol.refresh_from_db()
    event = table.round.event
    _require_current_table_version(protocol)
    sitter = Seat.objects.filter(table=table, position=seat).first()
    if sitter is None:
        raise UserFacingError(
            _("There is no seat %(n)d at this table.") % {"n": seat + 1}, {"field": "seat"}
        )
    if entry is not None:
        if entry.pk != sitter.entry_id:
            raise UserFacingError(
                _("Only the player in that seat can confirm it."), {"field": "seat"}
            )
    elif not can_referee(by, event):
        raise UserFacingError(_("Only the player or a referee can confirm."), {"field": "seat"})
    errors, written = players_sheet_errors(protocol)
    if protocol.error_count and not (errors and written == errors):
        # (the players' written figures alone do not stop a confirmation of the deals: the
        # referee approves the computed pulka over them, with his acknowledgement)
        raise UserFacingError(
            ngettext(
                "The protocol has %(n)d error; correct it before confirming.",
                "The protocol has %(n)d errors; correct them before confirming.",
                protocol.error_count,
            )
            % {"n": protocol.error_count},
            {"field": "protocol"},
        )
    if Ending(protocol.data.get("ending", "closed")) is Ending.IN_PROGRESS:
        raise UserFacingError(
            _("The pulka is still being played: mark how it ended first."),
            {"field": "ending", "rule": "4.2.3"},
        )
    confirmation, created = ProtocolConfirmation.objects.get_or_create(
        protocol=protocol,
        seat=seat,
        defaults={"entry_id": sitter.entry_id, "by_referee": None if entry is not None else by},
    )
    if created:
        audit_log(
            event=event,
            action="protocol.confirmed",
            by=by,
            data={
                "table": table.pk,
                "version": protocol.version,
                "seat": seat,
                "by": "player" if entry is not None else "referee",
            },
        )
    return confirmation


def double_entry_status(table: Table) -> dict[str, Any]:
    """For a double-entry event: the two current entries and their differences."""
    first = _current(table, EntryKind.TABLE)
    second = _current(table, EntryKind.REFEREE)
    if first is None or second is None:
        return {"table": first, "referee": second, "differences": None, "resolved": False}
    differences = protocols_compare(stored_protocol(first.data), stored_protocol(second.data))
    resolved = bool(first.resolution and first.resolution.get("referee_protocol") == second.pk)
    return {
        "table": first,
        "referee": second,
        "differences": differences,
        "resolved": resolved or not differences,
    }


@transaction.atomic
def protocol_approve(
    *,
    protocol: Protocol,
    by,
    confirm_missing: bool = False,
    acknowledge_players_errors: bool = False,
    note: str = "",
) -> Protocol:
    """A referee approves ``protocol``: the version he saw (the form carries its number, see
    :func:`protocol_version`). It must still be the current version (every seat confirmed, no
    errors, double entry matched or resolved); ``confirm_missing`` confirms that same version
    for the seats that have not. Exactly one approved protocol per table (database constraint).

    :raises StaleProtocolError: the table saved a newer version since; with the differences.
    :raises AlreadyApprovedError: another referee approved it first (the table row is locked,
        so of two simultaneous approvals the second waits and is told by whom).

    When the computed pulka is right and only the players' written figures differ from it
    (001 §4.2.7), ``acknowledge_players_errors`` with a ``note`` approves it: the mismatch
    stays on record in the version as the players' error, with who acknowledged it and when
    (logged), and nothing the players wrote is overwritten.
    """
    table = _lock_table(protocol.table)
    protocol.refresh_from_db()
    event = table.round.event
    if not can_referee(by, event):
        raise UserFacingError(_("Only a referee can approve a protocol."), {"field": "protocol"})
    _require_current_table_version(protocol)
    if protocol.approved:
        username = protocol.approved_by.get_username() if protocol.approved_by else None
        when = timezone.localtime(protocol.approved_at) if protocol.approved_at else None
        raise AlreadyApprovedError(
            _("Version %(v)s was already approved by %(who)s at %(time)s.")
            % {
                "v": protocol.version,
                "who": username or _("a referee"),
                "time": when.strftime("%H:%M:%S") if when else "?",
            },
            {
                "field": "version",
                "version": protocol.version,
                "approved_by": username,
                "approved_at": when.isoformat() if when else None,
            },
        )
    errors, written = players_sheet_errors(protocol)
    acknowledged = False
    if protocol.error_count and errors and written == errors and acknowledge_players_errors:
        if not note.strip():
            raise UserFacingError(
                _("Say why the players' written figures are approved as they are."),
                {"field": "note"},
            )
        acknowledged = True
    elif protocol.error_count and errors and written == errors:
        raise UserFacingError(
            _(
                "The computed pulka is right, but %(n)d figure(s) the players wrote differ "
                "from it (%(rule)s). Correct the sheet, or approve with the players' error "
                "acknowledged."
            )
            % {"n": written, "rule": rule_sources.cite("001", "4.2.7")},
            {"field": "acknowledge_players_errors", "rule": "4.2.7"},
        )
    elif protocol.error_count:
        raise UserFacingError(
            ngettext(
                "The protocol has %(n)d error; it cannot be approved.",
                "The protocol has %(n)d errors; it cannot be approved.",
                protocol.error_count,
            )
            % {"n": protocol.error_count},
            {"field": "protocol"},
        )
    if event.double_entry and not double_entry_status(table)["resolved"]:
        raise UserFacingError(
            _(
                "Double entry: the second entry is missing or differs; resolve "
                "the differences first."
            ),
            {"field": "double_entry"},
        )
    seats = list(table.seats.values_list("position", flat=True))
    if confirm_missing:
        for seat in seats:
            protocol_confirm(protocol=protocol, seat=seat, by=by)
    confirmed = set(protocol.confirmations.values_list("seat", flat=True))
    missing = [s + 1 for s in seats if s not in confirmed]
    if missing:
        raise UserFacingError(
            _("Not confirmed yet by seat(s) %(seats)s.") % {"seats": ", ".join(map(str, missing))},
            {"field": "confirmations"},
        )
    Protocol.objects.filter(table=table, approved=True).update(approved=False)
    protocol.approved = True
    protocol.approved_by = by
    protocol.approved_at = timezone.now()
    fields = ["approved", "approved_by", "approved_at"]
    if acknowledged:
        protocol.players_errors_acknowledged_by = by
        protocol.players_errors_acknowledged_at = protocol.approved_at
        protocol.players_errors_note = note.strip()
        fields += [
            "players_errors_acknowledged_by",
            "players_errors_acknowledged_at",
            "players_errors_note",
        ]
    protocol.save(update_fields=fields)
    data = {"table": table.pk, "version": protocol.version}
    if acknowledged:
        data["players_errors"] = written
    audit_log(
        event=event,
        action="protocol.approved",
        by=by,
        reason=note.strip() if acknowledged else "",
        data=data,
    )
    schedule_standings(event.pk)
    return protocol


@transaction.atomic
def protocol_reopen(*, protocol: Protocol, by, reason: str) -> Protocol:
    """Withdraw the approval (a referee, with a reason); standings follow."""
    table = _lock_table(protocol.table)
    protocol.refresh_from_db()
    event = table.round.event
    if not can_referee(by, event):
        raise UserFacingError(_("Only a referee can reopen a protocol."), {"field": "protocol"})
    if not reason.strip():
        raise UserFacingError(_("Give the reason for reopening."), {"field": "reason"})
    if protocol.approved:
        protocol.approved = False
        protocol.save(update_fields=["approved"])
        audit_log(
            event=event,
            action="protocol.reopened",
            by=by,
            reason=reason,
            data={"table": table.pk, "version": protocol.version},
        )
        schedule_standings(event.pk)
    return protocol


@transaction.atomic
def protocol_resolve(*, table: Table, choices: dict[str, str], by, reason: str = "") -> Protocol:
    """Double entry: a referee picks, deal by deal (keys: deal index as text, or ``"ending"``),
    the table's (``"a"``) or the second entry's (``"b"``) version; the merge is saved as a new
    version of the table's record, with the resolution recorded."""
    table = _lock_table(table)
    event = table.round.event
    if not can_referee(by, event):
        raise UserFacingError(_("Only a referee can resolve a double entry."), {"field": "choices"})
    status = double_entry_status(table)
    first, second = status["table"], status["referee"]
    if first is None or second is None:
        raise UserFacingError(_("Both entries are needed before resolving."), {"field": "choices"})
    a, b = stored_protocol(first.data), stored_protocol(second.data)
    deals: list[Any] = []
    for i in range(max(len(a.deals), len(b.deals))):
        side = choices.get(str(i), "a")
        if side not in ("a", "b"):
            raise UserFacingError(
                _("Choose the table's or the second entry for deal %(n)d.") % {"n": i + 1},
                {"field": f"choices.{i}"},
            )
        source = a if side == "a" else b
        if i < len(source.deals):
            deals.append(source.deals[i])
    ending = (a if choices.get("ending", "a") == "a" else b).ending
    merged = on_event_rules(table, dataclasses.replace(a, deals=tuple(deals), ending=ending))
    resolution = {
        "table_version": first.version,
        "referee_version": second.version,
        "referee_protocol": second.pk,
        "choices": dict(choices),
        "differences": status["differences"],
    }
    saved = protocol_save(
        table=table,
        protocol=merged,
        based_on_version=first.version,
        sheet=stored_sheet(a, first.sheet),
        source=Protocol.Source.RESOLUTION,
        reason=reason or _("Double entry resolved"),
        by=by,
    )
    saved.resolution = resolution
    saved.save(update_fields=["resolution"])
    audit_log(
        event=event,
        action="protocol.double_entry_resolved",
        by=by,
        reason=reason,
        data={"table": table.pk, "version": saved.version, "choices": dict(choices)},
    )
    return saved
