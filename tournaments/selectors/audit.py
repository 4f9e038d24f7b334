"""The event's audit log as an export: every entry, oldest first, for organisers (issue 25,
item 5). The log is append-only (``models.audit``), so an export taken once is a prefix of any
later one: entries are only ever added after it."""

from __future__ import annotations

import csv
import io
from typing import Any

from tournaments.models import AuditLogEntry, Event
from tournaments.words import audit as audit_text

__all__ = ["AUDIT_EXPORT_COLUMNS", "audit_log_csv", "audit_log_export"]

#: The columns of the CSV export, and the keys of each JSON entry.
AUDIT_EXPORT_COLUMNS = ("id", "created_at", "user", "action", "described", "reason", "data")


def audit_log_export(*, event: Event) -> list[dict[str, Any]]:
    """Every entry of ``event``'s log, oldest first: its id, time (ISO 8601, UTC), the user's
    name (``None``: a table's or a player's link, or the system), the action code, the action
    in words (the current language), the reason and the data as recorded."""
    names = dict(event.entries.values_list("pk", "player__name"))
    entries = (
        AuditLogEntry.objects.filter(event=event)
        .select_related("user")
        .order_by("created_at", "id")
    )
    return [
        {
            "id": e.pk,
            "created_at": e.created_at.isoformat(),
            "user": e.user.get_username() if e.user else None,
            "action": e.action,
            "described": audit_text.described(e.action, e.data, names),
            "reason": e.reason,
            "data": e.data,
        }
        for e in entries.iterator()
    ]


def audit_log_csv(rows: list[dict[str, Any]]) -> str:
    """The export as CSV (a header line, then one line an entry; ``data`` as JSON)."""
    import json

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(AUDIT_EXPORT_COLUMNS)
    for row in rows:
        writer.writerow(
            [
                json.dumps(row[c], ensure_ascii=False, sort_keys=True)
                if c == "data"
                else row[c] or ""
                for c in AUDIT_EXPORT_COLUMNS
            ]
        )
    return out.getvalue()
