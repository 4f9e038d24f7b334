"""Incidents at a table, the referees' rulings, appeals (001 §4.2.16) and event penalties.

An :class:`Incident` records what happened (time, deal, players, description). A
:class:`Ruling` decides it: a penalty from the catalogue (:mod:`rules.penalties`), an
organiser's own penalty (:class:`PenaltyDefinition`), an adjusted result (001 §3.8.5.1 Б) or no
penalty. What a ruling writes into the pulka is kept in ``entries`` (scoring ``Penalty`` entries
as JSON, inserted after the deal they concern); what it deducts from the standings is an
:class:`EventPenalty`. An :class:`Appeal` against a ruling is decided by the appeals committee,
which may uphold, reverse or replace it; a replaced or reversed ruling stays, ``active=False``.

Standings (engineer E) add ``EventPenalty.whists`` of the rows with ``active=True`` to the sum of
the approved protocols' results (a deduction is a negative number of whists).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Appeal", "EventPenalty", "Incident", "PenaltyDefinition", "PenaltyKind", "Ruling"]


class PenaltyKind(models.TextChoices):
    WARNING = "warning", _("Warning")
    YELLOW_CARD = "yellow_card", _("Yellow card")
    FIXED_WHISTS = "fixed_whists", _("Fixed whists")
    FIXED_GORA = "fixed_gora", _("Fixed gora")
    DISQUALIFICATION = "disqualification", _("Disqualification")


class PenaltyDefinition(models.Model):
    """A penalty of the event's own regulations, defined by the organiser."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="penalty_definitions"
    )
    code = models.SlugField(max_length=40)
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(max_length=16, choices=PenaltyKind.choices)
    #: Whists deducted from the standings (positive number) for fixed whists.
    whists = models.PositiveIntegerField(default=0)
    #: Points written into the offender's gora for a fixed gora.
    gora = models.PositiveIntegerField(default=0)
    rule = models.CharField(_("rule reference"), max_length=40, blank=True)

    class Meta:
        ordering = ["event", "code"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="one_penalty_code_per_event"),
        ]

    def __str__(self) -> str:
        return self.name


class Incident(models.Model):
    """Something a referee was called for at a table."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="incidents"
    )
    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, related_name="incidents"
    )
    #: 0-based index of the deal in the table's protocol (None: not about one deal).
    deal = models.PositiveIntegerField(null=True, blank=True)
    occurred_at = models.DateTimeField()
    #: Seats (0-based) of the players involved.
    seats = models.JSONField(default=list, blank=True)
    description = models.TextField()
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-occurred_at", "-id"]

    def __str__(self) -> str:
        return f"{self.table} — {self.occurred_at:%H:%M}"


class Ruling(models.Model):
    """A referee's decision on an incident."""

    class Kind(models.TextChoices):
        CATALOGUE = "catalogue", _("Penalty from the rules")
        EVENT = "event", _("Penalty of the event's regulations")
        ADJUSTED = "adjusted", _("Adjusted result (3.8.5.1 Б)")
        NONE = "none", _("No penalty")

    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="rulings")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    #: rules.penalties code (catalogue) or PenaltyDefinition code (event).
    penalty_code = models.CharField(max_length=40, blank=True)
    definition = models.ForeignKey(
        PenaltyDefinition, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    #: The offender's seat, when there is one.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    rule = models.CharField(_("rule reference"), max_length=40, blank=True)
    #: The inputs of the penalty (agreed remiz, tricks under the other plan, lot drawn …).
    params = models.JSONField(default=dict, blank=True)
    #: scoring Penalty entries (JSON) this ruling writes after deal ``after_deal``.
    entries = models.JSONField(default=list, blank=True)
    after_deal = models.PositiveIntegerField(null=True, blank=True)
    reason = models.TextField()
    active = models.BooleanField(default=True)
    #: The ruling this one replaced (an appeal's decision), if any.
    replaces = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.rule}".strip()


class Appeal(models.Model):
    """An appeal against a ruling (001 §4.2.16), decided by the appeals committee."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        UPHELD = "upheld", _("Ruling upheld")
        REVERSED = "reversed", _("Ruling reversed")
        CHANGED = "changed", _("Ruling changed")

    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="appeals")
    filed_by_entry = models.ForeignKey(
        "tournaments.Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    grounds = models.TextField()
    filed_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decision = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    #: The ruling that replaced the appealed one (status ``changed``).
    new_ruling = models.ForeignKey(
        Ruling, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-filed_at", "-id"]

    def __str__(self) -> str:
        return f"{_('Appeal')} #{self.pk} ({self.get_status_display()})"


class EventPenalty(models.Model):
    """A penalty against an entry in the standings (or a warning/card on its record)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="event_penalties"
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="penalties"
    )
    round = models.ForeignKey(
        "tournaments.Round", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=PenaltyKind.choices)
    #: Whists added to the entry's total: negative for a deduction (0 for warnings and cards).
    whists = models.IntegerField(default=0)
    rule = models.CharField(_("rule reference"), max_length=40, blank=True)
    reason = models.TextField()
    definition = models.ForeignKey(
        PenaltyDefinition, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ruling = models.ForeignKey(
        Ruling, null=True, blank=True, on_delete=models.SET_NULL, related_name="event_penalties"
    )
    #: False once reversed (an appeal) — kept for the record.
    active = models.BooleanField(default=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = _("event penalties")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.entry}"
