"""Players and their entries in events."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _


def new_url_key() -> str:
    """An unguessable private-link key (Tabbycat ``Person.url_key``): 128 bits."""
    return secrets.token_urlsafe(16)


class Player(models.Model):
    """A person who plays; the same player can enter many events."""

    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    federation_id = models.CharField(_("federation id"), max_length=40, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation_id"],
                condition=~models.Q(federation_id=""),
                name="federation_id_unique_when_given",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player's entry in one event: status, private link, and when they joined or left."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    # the person across events (issue 39: series, a person's page); null for an entry whose
    # likely person the organiser has not confirmed yet (services.persons)
    person = models.ForeignKey(
        "tournaments.Person",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED)
    url_key = models.CharField(max_length=32, unique=True, default=new_url_key)
    # The first round the entry is drawn for (late entry); None: from the first round.
    joined_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # A player who must sit at a given table number (e.g. accessibility), honoured by the draw.
    fixed_table = models.PositiveSmallIntegerField(_("must sit at table"), null=True, blank=True)
    substitute = models.BooleanField(
        _("substitute"),
        default=False,
        help_text=_(
            "Plays only to fill a table of four when the others do not (the event's choice); "
            "not ranked."
        ),
    )
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player__name"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player.name} ({self.event.slug})"

    @property
    def plays(self) -> bool:
        return self.status != self.Status.WITHDRAWN


class Avoidance(models.Model):
    """Two entries the draw must keep apart (family, a request the organiser accepted)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="avoidances"
    )
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "first", "second"], name="avoid_pair_once"),
            models.CheckConstraint(
                condition=~models.Q(first=models.F("second")), name="avoid_two_different_entries"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first.player.name} ≠ {self.second.player.name}"
