"""Rounds, their tables and the seats at them."""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import DrawMethod
from .player import new_url_key

#: the draw's record: the engine's input and parameters, and its report (hundreds of KB of JSON
#: per round at 1,000 players); only the pages and commands that show it load it
DRAW_RECORD_FIELDS = ("draw_params", "draw_report")


def without_draw_record(*paths: str) -> list[str]:
    """The ``defer()`` arguments that leave the draw record of the rounds reached through
    ``paths`` (``"round"``, ``"table__round"``) out of a ``select_related`` query."""
    return [f"{path}__{name}" for path in paths for name in DRAW_RECORD_FIELDS]


class RoundQuerySet(models.QuerySet):
    def with_draw_record(self) -> RoundQuerySet:
        """Load the draw's record with the rounds (the draw report page, ``draw_verify``)."""
        return self.defer(None)


class RoundManager(models.Manager.from_queryset(RoundQuerySet)):  # type: ignore[misc]
    """Rounds without their draw record: it loads on first access (one query) or with
    :meth:`RoundQuerySet.with_draw_record`. A query that reaches a round through
    ``select_related`` defers it itself (``defer("round__draw_report", …)``)."""

    def get_queryset(self) -> RoundQuerySet:
        return super().get_queryset().defer(*DRAW_RECORD_FIELDS)


class Round(models.Model):
    """A round moves draft → drawn → published → in play → closed."""

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        DRAWN = "drawn", _("Drawn")
        PUBLISHED = "published", _("Published")
        IN_PLAY = "in_play", _("In play")
        CLOSED = "closed", _("Closed")

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(max_length=12, choices=State.choices, default=State.DRAFT)
    draw_method = models.CharField(
        max_length=16, choices=DrawMethod.choices, default=DrawMethod.NO_REPEATS
    )
    # The draw is verifiable: the seed's sha256 is published before the draw; the seed, the
    # parameters and the engine's report are kept so anyone can re-run it (manage.py redraw_check).
    draw_seed = models.CharField(max_length=64, blank=True)
    draw_seed_hash = models.CharField(max_length=64, blank=True)
    # When the hash was published before the draw (services.rounds.round_commit_seed); None
    # when the hash was only made with the draw.
    draw_seed_committed_at = models.DateTimeField(null=True, blank=True)
    draw_params = models.JSONField(default=dict, blank=True)
    #: the entries sitting this round out (tables of four only, the event's ``fours_remainder``)
    sitting_out = models.JSONField(default=list, blank=True)
    draw_report = models.JSONField(default=dict, blank=True)
    drawn_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # A draw running as a Celery job (large events): its id and start, and the error it ended
    # with, if any, so that the round's page can say so (services.rounds.draw_job_queue).
    draw_job_id = models.CharField(max_length=64, blank=True)
    draw_job_started_at = models.DateTimeField(null=True, blank=True)
    draw_job_error = models.TextField(blank=True)
    #: the error as words said again in the reader's language (``{"text", "params"}``,
    #: :func:`tournaments.errors.said_or_stored`); the text above stays the English line for the
    #: API and the logs, and is shown as it is where there are no words (older rows)
    draw_job_error_words = models.JSONField(null=True, blank=True)
    # How far the running job has gone: the engine's stage and step (seating.Progress.as_dict)
    # and when it said so; empty when no job runs.
    draw_job_progress = models.JSONField(default=dict, blank=True)
    # What the round's public page shows changed (a draw, a publication, the start or close, a
    # correction to the seating): the page is cached under this version and answers a refresh
    # whose ETag names it with a 304 (services.rounds.round_changed, views.caching).
    public_version = models.PositiveIntegerField(default=0)
    public_changed_at = models.DateTimeField(null=True, blank=True)

    objects = RoundManager()

    class Meta:
        # ``seat.round``, ``event.rounds`` and ``refresh_from_db`` go through the base manager
        base_manager_name = "objects"
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_round_number_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.event.name} — {_('round')} {self.number}"

    def refresh_from_db(self, using=None, fields=None, from_queryset=None):
        """As Django's; the draw record is reloaded too where this instance had it loaded (the
        manager defers it, so Django would keep the stale value)."""
        deferred = self.get_deferred_fields()
        if (
            fields is None
            and from_queryset is None
            and any(f not in deferred for f in DRAW_RECORD_FIELDS)
        ):
            from_queryset = type(self)._base_manager.db_manager(using).with_draw_record()
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)

    @property
    def ends_at(self):
        """When play must stop: the start and the event's time limit per round (or None)."""
        limit = self.event.round_time_limit
        if self.started_at is None or not limit:
            return None
        return self.started_at + dt.timedelta(minutes=limit)


class Table(models.Model):
    """A table of a round, with its first dealer (001 §3.2.1: drawn, "тираж")."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer's seat"), default=0)
    url_key = models.CharField(max_length=32, unique=True, default=new_url_key)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_number_per_round")
        ]

    def __str__(self) -> str:
        return f"{_('Table')} {self.number}"


class Seat(models.Model):
    """Seat ``position`` (0-based, clockwise) at a table holds one entry; an entry sits once a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table__number", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_entry_per_seat"),
            models.UniqueConstraint(fields=["round", "entry"], name="one_seat_per_round"),
            models.CheckConstraint(condition=models.Q(position__lt=4), name="seat_position_0_to_3"),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.position + 1}"
