"""Writing the audit log (every service that changes an event's record calls this)."""

from __future__ import annotations

from typing import Any

from tournaments.models import AuditLogEntry, Event


def audit_log(
    *, event: Event, action: str, by=None, reason: str = "", data: dict[str, Any] | None = None
) -> AuditLogEntry:
    user = by if getattr(by, "is_authenticated", False) else None
    return AuditLogEntry.objects.create(
        event=event, user=user, action=action, reason=reason, data=data or {}
    )
