"""Writing the audit log (every service that changes an event's record calls this) and an
organisation's log (its roles, issue 39)."""

from __future__ import annotations

from typing import Any

from tournaments.models import AuditLogEntry, Event, Organisation, OrganisationLogEntry


def audit_log(
    *, event: Event, action: str, by=None, reason: str = "", data: dict[str, Any] | None = None
) -> AuditLogEntry:
    user = by if getattr(by, "is_authenticated", False) else None
    return AuditLogEntry.objects.create(
        event=event, user=user, action=action, reason=reason, data=data or {}
    )


def organisation_log(
    *,
    organisation: Organisation,
    action: str,
    by=None,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> OrganisationLogEntry:
    """An entry of the organisation's log (the actions and data of an event's log)."""
    user = by if getattr(by, "is_authenticated", False) else None
    return OrganisationLogEntry.objects.create(
        organisation=organisation, user=user, action=action, reason=reason, data=data or {}
    )
