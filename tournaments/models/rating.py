"""Ratings (issue 41): a rating list per rule family, each person's current rating in it, every
change with its explanation, and the events an organiser marked unrated.

A :class:`RatingList` is one rating: one rule family (a Russian rating is not a Croatian one),
one model (``tournaments.ratings.MODELS``: Pulka's Weng–Lin by default, prefko's formula for
the Balkan family) and its scope: every event of the family (no organisation, no series), the
events of one organisation (a federation's own rating) or of one series. It stores the model's
spec (key, version, parameters) its numbers were computed with, and the state of its
recomputation: the job (``services.ratings.ratings_recompute``) rates from the earliest changed
event on (``dirty_*``), never inside a request. :class:`PersonRating` is a person's current
rating, :class:`PersonEventRating` his rating through one event with each table's change and
its explanation; pages read these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["PersonEventRating", "PersonRating", "RatingList", "UnratedEvent"]


class RatingList(models.Model):
    """One rating: a rule family, a model, a scope, and its recomputation's state."""

    class Model(models.TextChoices):
        WENG_LIN = "weng-lin", _("Pulka's rating (Weng–Lin, Plackett–Luce)")
        PREFKO = "prefko", _("prefko's formula (three-player tables)")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        OK = "ok", _("Up to date")
        FAILED = "failed", _("Failed")

    slug = models.SlugField(_("short name (URL)"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=200)
    # the key of the rule family in rules.variants.FAMILIES
    family = models.CharField(_("rule family"), max_length=20)
    model = models.CharField(
        _("rating model"), max_length=20, choices=Model.choices, default=Model.WENG_LIN
    )
    organisation = models.ForeignKey(
        "tournaments.Organisation",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_lists",
        verbose_name=_("organisation"),
    )
    series = models.ForeignKey(
        "tournaments.Series",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_lists",
        verbose_name=_("series"),
    )
    published = models.BooleanField(_("published"), default=True)
    # ``tournaments.ratings.RatingModel.spec()`` the stored numbers were computed with
    spec = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    requested = models.PositiveIntegerField(default=0)
    computed = models.PositiveIntegerField(default=0)
    # the earliest event whose rated results changed since the last computation: the job
    # rates from it on (null: nothing to redo; both null after a request: from scratch)
    dirty_date = models.DateField(null=True, blank=True)
    dirty_event = models.IntegerField(null=True, blank=True)
    from_scratch = models.BooleanField(default=True)
    # per rated event id (text): sha256 of its rated inputs, to skip a request that changed
    # nothing the rating reads (a provisional protocol saved)
    event_digests = models.JSONField(default=dict, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["family", "name"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return self.name


class UnratedEvent(models.Model):
    """An event an organiser marked unrated: no rating counts its tables (logged in the
    event's audit log when marked and unmarked)."""

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="unrated"
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    marked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.event} (unrated)"


class PersonRating(models.Model):
    """A person's current rating in a list (what the rating list shows)."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="ratings")
    person = models.ForeignKey(
        "tournaments.Person", on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.FloatField()
    spread = models.FloatField(null=True, blank=True)
    tables = models.PositiveIntegerField()
    provisional = models.BooleanField()
    last_event = models.ForeignKey(
        "tournaments.Event", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    last_played = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "person"], name="one_rating_a_list")
        ]
        indexes = [models.Index(fields=["rating_list", "-shown"], name="rating_list_shown")]

    def __str__(self) -> str:
        return f"{self.person} {self.shown:.0f}"


class PersonEventRating(models.Model):
    """One person's rating through one event: his state before its first table and after its
    last, and every table's change in it with its explanation, as one JSON array
    (``changes``: one entry per table in the order rated, the fields of
    ``tournaments.ratings.compact.TABLE_FIELDS``: round, table, place, size, tied, μ and σ
    after it, the shown rating and its ± after it, ``parts`` ``[key, value, opponent person or
    null]`` adding up to the change, ``opponents`` ``[person, shown, ±, place]`` as they stood
    before the table). A table's rating before it is the table's before it (the first: the
    record's ``shown_before``). A season of 100 events × 150 players × 9 rounds is 15,000
    records (one per table and person would be 135,000)."""

    # no index of their own: the two below lead with the list (a season writes its records at
    # once, and every index is written with them); no database constraint either: PostgreSQL
    # checks a deferred foreign key per row at the commit, and the job writes only ids it has
    # just read from the list, the entries and the events. Django's own cascade
    # (``on_delete``) still deletes a person's, an event's and a list's records with them.
    rating_list = models.ForeignKey(
        RatingList, on_delete=models.CASCADE, related_name="event_ratings", db_index=False,
        db_constraint=False,
    )  # fmt: skip
    person = models.ForeignKey(
        "tournaments.Person", on_delete=models.CASCADE, related_name="event_ratings",
        db_index=False, db_constraint=False,
    )  # fmt: skip
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="event_ratings",
        db_index=False, db_constraint=False,
    )  # fmt: skip
    event_date = models.DateField()
    # the place of the person's first change among the event's changes (from 1): the event's
    # records in this order list its changes in the order rated
    seq = models.PositiveIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    tables_before = models.PositiveIntegerField()
    shown_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    tables_after = models.PositiveIntegerField()
    shown_after = models.FloatField()
    spread_after = models.FloatField(null=True, blank=True)
    # the tables' changes as JSON text, written by ``tournaments.ratings.compact.pack`` and
    # read whole (never queried inside): a text column costs PostgreSQL no parsing
    changes = models.TextField()

    class Meta:
        ordering = ["event_date", "event_id", "seq"]
        indexes = [
            models.Index(
                fields=["rating_list", "person", "event_date", "event"],
                name="event_rating_person",
            ),
            models.Index(fields=["rating_list", "event", "seq"], name="event_rating_event"),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} {self.change:+.1f} ({self.event_id})"

    @property
    def change(self) -> float:
        return self.shown_after - self.shown_before

    @property
    def tables(self) -> int:
        """The person's rated tables at the event."""
        return self.tables_after - self.tables_before
