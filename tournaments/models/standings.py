"""Stored standings and generated files (pretix ``CachedFile``).

Pages read the stored :class:`StandingsSnapshot`; they never compute standings per request.
A recomputation (``tournaments.services.standings.standings_recompute``) holds a row lock on the
snapshot (``select_for_update``) for its whole transaction, so two workers never interleave one
event's recomputation (Tabbycat #1705: a thread lock does not guard a multi-process invariant).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["GeneratedFile", "ProtocolStats", "StandingsPart", "StandingsSnapshot", "data_read_by"]

#: what :attr:`StandingsSnapshot.data` reads with: ``selectors.standings.snapshot_data``, set by
#: that module when it loads (:func:`data_read_by`; the models import no selector)
_read_data: Callable[[Any], dict] | None = None


def data_read_by(reader: Callable[[Any], dict]) -> None:
    """Set what :attr:`StandingsSnapshot.data` reads the stored standings with."""
    global _read_data
    _read_data = reader


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
    #: the error as words said again in the reader's language (``{"text", "params"}``,
    #: :func:`tournaments.errors.said_or_stored`); the text above stays the English line for the
    #: API and the logs, and is shown as it is where there are no words (older rows)
    error_words = models.JSONField(null=True, blank=True)
    # sha256 of the inputs (approved and provisional results, penalties, tie-break chain)
    inputs_hash = models.CharField(max_length=64, blank=True)
    # what the standings say is stored in parts (issue 28: a change writes only the parts it
    # changes, not one 3 MB blob): this head ({"version", "round_score", "columns", "rounds",
    # "adjustments", "round_states"}) and the rows of :class:`StandingsPart`. A snapshot stored
    # before the parts holds the whole standings here ({"rows": [...], ...}, read as it is
    # until its next recomputation writes the parts)
    head = models.JSONField(default=dict, blank=True)
    # the last runs: [{"started": iso, "finished": iso, "pid": int, "outcome": str}], newest last
    runs = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("standings snapshot")

    def __str__(self) -> str:
        return f"{self.event} — {self.get_status_display()}"

    @property
    def data(self) -> dict:
        """The stored standings as one document (``Standings.as_json`` with ``meta``), joined
        from the head and the parts (once per stored version and process:
        ``selectors.standings.decoded_standings``); ``{}`` before the first computation."""
        assert _read_data is not None, "selectors.standings is loaded with the app"
        return _read_data(self)

    @property
    def pending(self) -> bool:
        """A recomputation was asked for after the stored rows were computed."""
        return self.requested > self.computed or self.status in (
            self.Status.PENDING,
            self.Status.RUNNING,
        )


class StandingsPart(models.Model):
    """One part of an event's stored standings (a row, written only when it changes):
    ``order`` (places), ``players`` (names), ``r:<entry>`` (a player's values), ``t:<table>``
    (a table's cells, its protocol version and warnings)."""

    snapshot = models.ForeignKey(StandingsSnapshot, on_delete=models.CASCADE, related_name="parts")
    key = models.CharField(max_length=32)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "key"], name="one_standings_part_per_key")
        ]

    def __str__(self) -> str:
        return f"{self.snapshot_id}:{self.key}"


class ProtocolStats(models.Model):
    """What the standings read of one protocol version, computed once (a version never
    changes): ``{"r": [[seat, entry, whists], ...], "k": [stat key ...], "s": [[counter per
    key] per seat], "v": [[[num, den] per seat] per seat]}`` or ``{"r": ..., "error": text}``
    for a pulka the scorer cannot read (``selectors.standings.protocol_facts``)."""

    protocol = models.OneToOneField(
        "tournaments.Protocol", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    data = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"stats of protocol {self.protocol_id}"


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
        # a duplicate event's hand records and board slips (issue 43): referees only
        DUPLICATE_BOARDS = "boards", _("Duplicate boards")

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
    #: the error as words said again in the reader's language (``{"text", "params"}``,
    #: :func:`tournaments.errors.said_or_stored`); the text above stays the English line for the
    #: API and the logs, and is shown as it is where there are no words (older rows)
    error_words = models.JSONField(null=True, blank=True)
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
        return dict(settings.LANGUAGES).get(self.language, self.language)
