"""Protocols: saving versions, checking, confirmation, approval, double entry, reopening.

Every save is a new :class:`~tournaments.models.Protocol` row, checked and scored by its rule
family's variant (``scoring.variants``: any family, never branched on here) with the active
rulings' penalty entries merged in; a protocol with errors is saved with its findings, never "fixed" (CONTRIBUTING.md).
Saves carry the version they were based on: a save based on an old version is refused with the
difference (:class:`StaleProtocolError`), never written over silently. Versions are numbered
under ``select_for_update()`` of the table row (Tabbycat #1705).

The package by concern: :mod:`.documents` reads a submitted notation or JSON document onto the
event's rules; :mod:`.checks` checks and scores a version; :mod:`.saving` saves and re-scores
versions; :mod:`.approval` confirms, approves, reopens and resolves them. A table's record as
its family's objects (a stored document read, the rulings' entries merged in) is
:mod:`tournaments.families.protocols`, and a table's empty protocol
:func:`tournaments.selectors.protocols.table_header`: both re-exported here with the rest.
"""

from __future__ import annotations

from tournaments.families.protocols import (
    deal_lines,
    effective_protocol,
    stored_protocol,
    stored_sheet,
)
from tournaments.selectors.protocols import table_header

from .approval import (
    double_entry_status,
    protocol_approve,
    protocol_confirm,
    protocol_reopen,
    protocol_resolve,
    protocol_version,
)
from .checks import players_sheet_errors
from .documents import (
    notation_read,
    notation_text,
    on_event_rules,
    protocol_from_document,
    protocol_from_notation,
    protocols_compare,
)
from .resends import checked_client_id, protocol_by_client_id, protocol_save_once
from .saving import (
    AlreadyApprovedError,
    StaleProtocolError,
    protocol_rescore,
    protocol_save,
    referees_to_ask,
    schedule_standings,
    table_rotate_key,
)

__all__ = [
    "AlreadyApprovedError",
    "StaleProtocolError",
    "checked_client_id",
    "deal_lines",
    "double_entry_status",
    "effective_protocol",
    "players_sheet_errors",
    "protocol_approve",
    "protocol_by_client_id",
    "protocol_confirm",
    "protocol_from_document",
    "notation_read",
    "on_event_rules",
    "notation_text",
    "protocol_from_notation",
    "protocol_reopen",
    "protocol_rescore",
    "protocol_resolve",
    "protocol_save",
    "protocol_save_once",
    "protocol_version",
    "protocols_compare",
    "referees_to_ask",
    "schedule_standings",
    "stored_protocol",
    "stored_sheet",
    "table_header",
    "table_rotate_key",
]
