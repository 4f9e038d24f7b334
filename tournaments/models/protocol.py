"""Protocols: every saved version of a table's pulka, its confirmations and approval.

One :class:`Protocol` row per saved version (nothing is overwritten, issue 5). Versions are
numbered per table and per independent entry (``entry_kind``: the table's own record, or the
referee's second entry from the paper sheet when the event asks for double entry); the number is
assigned under ``select_for_update()`` in :func:`tournaments.services.protocols.protocol_save`,
never in ``save()`` (Tabbycat #1705).

The database holds the invariants (STYLE.md, "Protocols"):

* exactly one approved protocol per table — a partial unique index (PostgreSQL);
* one current version per table and entry kind;
* one row per (table, entry kind, version).

``result`` is what standings read (engineer E): a list with one object per seat, in seat
order, of the final result in whists after penalties and rulings::

    [{"seat": 0, "entry": 12, "name": "Anna", "exact": "-80/3", "whists": "-26",
      "pulya": 10, "gora": 4}, ...]

``exact`` is the exact settlement (a fraction as text), ``whists`` the published value after
the rounding of 001 §4.2.12 (a fraction as text too: with four players halves can occur).
Standings sum ``whists`` of the approved protocols plus the active :class:`EventPenalty` rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

__all__ = ["EntryKind", "Protocol", "ProtocolConfirmation"]


class EntryKind(models.TextChoices):
    #: The table's record: entered at the table through its private link, or by a referee for it.
    TABLE = "table", _("Table's entry")
    #: The second, independent entry from the paper sheet (double entry).
    REFEREE = "referee", _("Referee's second entry")


class Protocol(models.Model):
    """One saved version of a table's protocol (see the module docstring)."""

    class Source(models.TextChoices):
        TABLE_LINK = "table_link", _("At the table (private link)")
        REFEREE = "referee", _("By a referee")
        API = "api", _("Through the API")
        RULING = "ruling", _("By a ruling")
        RESOLUTION = "resolution", _("Double-entry resolution")

    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, related_name="protocols"
    )
    entry_kind = models.CharField(max_length=8, choices=EntryKind.choices, default=EntryKind.TABLE)
    version = models.PositiveIntegerField()
    #: The version this save was based on (optimistic concurrency); None for the first.
    based_on_version = models.PositiveIntegerField(null=True, blank=True)
    #: The scoring protocol as JSON (scoring.russian.protocol.Protocol, see services.protocols).
    data = models.JSONField()
    #: What the players wrote (scoring.russian.protocol.Sheet as JSON), optional.
    sheet = models.JSONField(null=True, blank=True)
    #: The text notation as typed (scoring.russian.notation), when entered that way.
    notation = models.TextField(blank=True)
    #: Findings of scoring.russian.check on the effective pulka (with rulings): list of objects.
    findings = models.JSONField(default=list, blank=True)
    error_count = models.PositiveIntegerField(default=0)
    warning_count = models.PositiveIntegerField(default=0)
    #: Each seat's final result after penalties and rulings (see the module docstring).
    result = models.JSONField(default=list, blank=True)
    #: Ids of the rulings whose entries were merged into the effective pulka of this version.
    rulings_applied = models.JSONField(default=list, blank=True)
    #: What those rulings wrote into this version, computed on this version's deals:
    #: ``[{"ruling": id, "after_deal": n or null, "entries": [scoring Penalty as JSON]}]``.
    ruling_entries = models.JSONField(default=list, blank=True)
    is_current = models.BooleanField(default=True)
    approved = models.BooleanField(default=False)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    #: A referee approved the computed pulka while the players' written figures differ from
    #: it: the mismatch stays on record as the players' error, acknowledged by him (issue 29).
    players_errors_acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    players_errors_acknowledged_at = models.DateTimeField(null=True, blank=True)
    players_errors_note = models.TextField(blank=True)
    source = models.CharField(max_length=12, choices=Source.choices, default=Source.REFEREE)
    #: Why this version was made (required for a change after approval).
    reason = models.TextField(blank=True)
    #: ``reason`` as words to be said again in the reader's language, when Pulka wrote it (a
    #: ruling's rescore): ``{"text": template, "params": {…}, "param_words": {…}}``
    #: (:func:`tournaments.words.rulings.words_said`); ``reason`` is then English.
    reason_words = models.JSONField(null=True, blank=True)
    #: Double entry: how the two entries were reconciled ({"other": id, "choices": …}).
    resolution = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_via_entry = models.ForeignKey(
        "tournaments.Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: The id the table's phone gave this save (its outbox, issue 42): a resend of the same id
    #: stores nothing new and answers this version; empty for every other save.
    client_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["table", "entry_kind", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "client_id"],
                condition=~Q(client_id=""),
                name="one_protocol_per_phone_send",
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(approved=True), name="one_approved_protocol_per_table"
            ),
            models.UniqueConstraint(
                fields=["table", "entry_kind"],
                condition=Q(is_current=True),
                name="one_current_protocol_per_entry",
            ),
            models.UniqueConstraint(
                fields=["table", "entry_kind", "version"], name="one_protocol_version_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} — {self.get_entry_kind_display()} v{self.version}"

    @property
    def state(self) -> str:
        """``approved``, ``confirmed`` (every seat confirmed), ``findings`` or ``draft``."""
        if self.approved:
            return "approved"
        if self.result and self.confirmations.count() >= len(self.result):
            return "confirmed"
        return "findings" if self.error_count else "draft"

    #: :attr:`state` as a player reads it
    STATE_LABELS = {
        "approved": _("approved"),
        "confirmed": _("confirmed by every player"),
        "findings": _("with errors"),
        "draft": _("not yet confirmed"),
    }

    @property
    def state_label(self) -> str:
        """:attr:`state` in the reader's language (the player's page shows it)."""
        state = self.state
        return str(self.STATE_LABELS.get(state, state))


class ProtocolConfirmation(models.Model):
    """A seat's confirmation of one version: by the player (private link) or a referee."""

    protocol = models.ForeignKey(Protocol, on_delete=models.CASCADE, related_name="confirmations")
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="+")
    by_referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["protocol", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["protocol", "seat"], name="one_confirmation_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.protocol} / {self.seat + 1}"
