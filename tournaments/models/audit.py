"""An append-only record of who changed what, and why (pretix's log entries).

Append-only (issue 25, item 5): an entry is written once, by ``services.audit.audit_log``, and
never changed or deleted — not by the app (``save()`` of a stored entry, ``delete()`` and the
queryset's ``update()``/``delete()`` raise :class:`AuditLogIsAppendOnly`), not by the admin (read
only), and not by SQL (a database trigger refuses ``UPDATE`` and ``DELETE``, migration 0007).
An event or an account that appears in the log cannot be deleted (``PROTECT``): deactivate an
account instead; an event stays, with its log.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

__all__ = ["AuditLogEntry", "AuditLogIsAppendOnly", "OrganisationLogEntry"]


class AuditLogIsAppendOnly(Exception):
    """Something tried to change or delete an audit log entry."""


class _AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AuditLogIsAppendOnly("the audit log is append-only: entries are never changed")

    def delete(self):
        raise AuditLogIsAppendOnly("the audit log is append-only: entries are never deleted")


class _AppendOnlyEntry(models.Model):
    """What an append-only log's entry holds besides its owner and its user, and the refusals
    of a change or a deletion (abstract: each log has its own table and trigger)."""

    action = models.CharField(max_length=60)  # e.g. "round.drawn", "seat.swapped"
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = _AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise AuditLogIsAppendOnly("the audit log is append-only: entries are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AuditLogIsAppendOnly("the audit log is append-only: entries are never deleted")


class AuditLogEntry(_AppendOnlyEntry):
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.PROTECT, related_name="audit_log"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )


class OrganisationLogEntry(_AppendOnlyEntry):
    """An organisation's log (issue 39): who gave or took a role in it, as an event's log
    records its roles (the same actions, ``role.granted``, ``role.revoked``,
    ``account.created``, and the same data). Append-only as :class:`AuditLogEntry` is (the
    same refusals here, and a database trigger, migration 0027)."""

    organisation = models.ForeignKey(
        "tournaments.Organisation", on_delete=models.PROTECT, related_name="log"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
