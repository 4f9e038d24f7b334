"""Stored standings and generated files (pretix ``CachedFile``).

Pages read the stored :class:`StandingsSnapshot`; they never compute standings per request.
A recomputation (``tournaments.services.standings.standings_recompute``) holds a row lock on the
snapshot (``select_for_update``) for its whole transaction, so two workers never interleave one
event's recomputation (Tabbycat #1705: a thread lock does not guard a multi-process invariant).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["GeneratedFile", "StandingsSnapshot"]


class StandingsSnapshot(models.Model):
    """The last computed standings of an event, and the state of its recomputation.

    ``requested`` counts the recomputations asked for (:func:`standings_schedule`), ``computed``
    the request number the stored rows include: a recomputation is pending while
    ``requested > computed``.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        OK = "ok", _("Up to date")
        FAILED = "failed", _("Failed")

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="standings_snapshot"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    requested = models.PositiveIntegerField(default=0)
    computed = models.PositiveIntegerField(default=0)
    requested_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    # sha256 of the inputs (approved and provisional results, penalties, tie-break chain)
    inputs_hash = models.CharField(max_length=64, blank=True)
    # {"version": 1, "columns": [...], "rounds": [...], "rows": [...], "tables": [...]}
    data = models.JSONField(default=dict, blank=True)
    # the last runs: [{"started": iso, "finished": iso, "pid": int, "outcome": str}], newest last
    runs = models.JSONField(default=list, blank=True)
    # deal statistics per protocol version, {"<protocol id>": {"stats": [...], "versus": [...]}}:
    # a protocol version never changes, so its statistics are computed once (pages defer this)
    protocol_stats = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("standings snapshot")

    def __str__(self) -> str:
        return f"{self.event} — {self.get_status_display()}"

    @property
    def pending(self) -> bool:
        """A recomputation was asked for after the stored rows were computed."""
        return self.requested > self.computed or self.status in (
            self.Status.PENDING,
            self.Status.RUNNING,
        )


def generated_file_path(instance: GeneratedFile, filename: str) -> str:
    return f"generated/{instance.event_id}/{instance.kind}/{filename}"


class GeneratedFile(models.Model):
    """A rendered file (a PDF), cached until the data it was made from changes.

    ``inputs_hash`` is the sha256 of everything the renderer reads; a request for the same kind,
    scope, options and hash returns the stored file instead of rendering again.
    """

    class Kind(models.TextChoices):
        BLANK_PROTOCOLS = "blank", _("Blank protocols")
        FILLED_PROTOCOL = "filled", _("Filled protocol")
        # every round's filled protocols in one file, for the referees' archive (issue 29)
        EVENT_PROTOCOLS = "protocols", _("Filled protocols of the event")
        SEATING = "seating", _("Seating list")
        STANDINGS = "standings", _("Standings")
        PLAYER_LINKS = "links", _("Players' private links")
        ARCHIVE = "archive", _("Event archive (JSON)")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        OK = "ok", _("Ready")
        FAILED = "failed", _("Failed")

    kind = models.CharField(max_length=12, choices=Kind.choices)
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="generated_files"
    )
    round = models.ForeignKey(
        "tournaments.Round",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="generated_files",
    )
    table = models.ForeignKey(
        "tournaments.Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="generated_files",
    )
    paper = models.CharField(max_length=8, default="A4")  # A4 or letter
    # the site address the QR codes of blank protocols link to (PULKA_BASE_URL or the request's)
    base_url = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=8, default="en")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    error = models.TextField(blank=True)
    file = models.FileField(upload_to=generated_file_path, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=60, default="application/pdf")
    inputs_hash = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    rendered_at = models.DateTimeField(null=True, blank=True)
    # how far a long rendering has got, {"done": tables, "total": tables} (a round's filled
    # protocols, pdf_files.generated_file_render); empty otherwise
    progress = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["event", "kind", "round", "table"])]

    def __str__(self) -> str:
        return self.filename or f"{self.get_kind_display()} ({self.event_id})"

    @property
    def language_name(self) -> str:
        """The document's language by its own name (``Hrvatski``), as the switcher shows it."""
        from django.conf import settings

        return dict(settings.LANGUAGES).get(self.language, self.language)
