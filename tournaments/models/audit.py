"""An append-only record of who changed what, and why (pretix's log entries)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditLogEntry(models.Model):
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="audit_log"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    action = models.CharField(max_length=60)  # e.g. "round.drawn", "seat.swapped"
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}"
