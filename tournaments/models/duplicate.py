"""Duplicate events (issue 43, docs/duplicate.md): the event's duplicate option, its boards,
each table's result on a board and the board's comparison scores.

An event is a duplicate event when it has a :class:`DuplicateEvent` row. Its boards are dealt
from a seed the organiser committed to (its SHA-256 published first, as for the draws) or read
from a board file; the tables play them by the movement (``scoring.duplicate.movement``), and
each table's result on a board is kept with the deal's values per seat and its findings. The
scores are written by a job (``tournaments.duplicate_board_rescore``), never in a request.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["DuplicateEvent", "Board", "BoardResult", "BoardScore"]


class DuplicateEvent(models.Model):
    class Method(models.TextChoices):
        MATCHPOINTS = "matchpoints", _("Matchpoints")
        AVERAGE = "average", _("Difference from the board's average")

    class Source(models.TextChoices):
        NONE = "", _("Not yet prepared")
        SEED = "seed", _("Dealt from the published seed")
        FILE = "file", _("Read from a board file")

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="duplicate"
    )
    method = models.CharField(
        _("comparison"), max_length=12, choices=Method.choices, default=Method.MATCHPOINTS
    )
    boards_per_set = models.PositiveSmallIntegerField(_("boards in a set"), default=1)
    #: how many tables play each board: ``None`` for every table of the round
    stanzas = models.PositiveSmallIntegerField(_("tables that play each board"), null=True, blank=True)
    seed_hash = models.CharField(max_length=64, blank=True)
    seed_committed_at = models.DateTimeField(null=True, blank=True)
    seed = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=4, choices=Source.choices, default=Source.NONE, blank=True)
    prepared_at = models.DateTimeField(null=True, blank=True)
    #: a referee's adjusted scores as percentages of the board's top (bridge's 60 / 50 / 40)
    average_plus_percent = models.PositiveSmallIntegerField(_("average-plus, percent of the top"), default=60)
    average_percent = models.PositiveSmallIntegerField(_("average, percent of the top"), default=50)
    average_minus_percent = models.PositiveSmallIntegerField(_("average-minus, percent of the top"), default=40)

    class Meta:
        verbose_name = _("duplicate event")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(average_minus_percent__lte=models.F("average_percent"))
                & models.Q(average_percent__lte=models.F("average_plus_percent"))
                & models.Q(average_plus_percent__lte=100),
                name="duplicate_adjusted_percents_in_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_id}: {self.method}"


class Board(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("board"))
    dealer = models.PositiveSmallIntegerField(_("dealer's seat"))
    #: the 32 cards in PPN's code: seat 1's ten, seat 2's, seat 3's, the talon
    cards = models.CharField(max_length=32)
    #: the double-dummy count of the hands as dealt (``scoring.duplicate.double_dummy``), written
    #: by the job ``tournaments.duplicate_board_makeable``: the declarer's tricks, ``[[seat 1's
    #: in ♠ ♦ ♥ ♣ NT], [seat 2's], [seat 3's]]``; ``None`` until counted
    makeable = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="board_number_once_an_event"),
            models.CheckConstraint(
                condition=models.Q(dealer__gte=1, dealer__lte=3), name="board_dealer_is_a_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} #{self.number}"


class BoardResult(models.Model):
    class By(models.TextChoices):
        TABLE = "table", _("the table")
        REFEREE = "referee", _("a referee")

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results")
    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, related_name="board_results"
    )
    #: the deal in the family's text notation (one deal line, without its number); "" for a
    #: result a referee adjusted
    deal_text = models.TextField(blank=True)
    #: a referee's adjusted score, one of ``scoring.duplicate.comparison.Adjustment`` per board
    #: seat (seat 1 first), for a board not played or fouled; empty for a result played
    adjusted = models.JSONField(default=list, blank=True)
    #: why the referee adjusted it (shown on the traveller and the standings)
    adjusted_reason = models.TextField(blank=True)
    #: each board seat's value of the deal (text of a Fraction), seat 1 first
    values = models.JSONField(default=list, blank=True)  # [] for a result a referee adjusted
    findings = models.JSONField(default=list, blank=True)
    ok = models.BooleanField(default=True)
    entered_by = models.CharField(max_length=8, choices=By.choices, default=By.TABLE)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["board", "table"]
        constraints = [
            models.UniqueConstraint(fields=["board", "table"], name="board_result_once_a_table")
        ]

    def __str__(self) -> str:
        return f"{self.board_id} @ {self.table_id}: {self.deal_text}"


class BoardScore(models.Model):
    """One board seat's comparison score at one table (written by the rescoring job)."""

    result = models.ForeignKey(BoardResult, on_delete=models.CASCADE, related_name="scores")
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="board_scores")
    value = models.CharField(max_length=40)
    score = models.CharField(max_length=40)
    top = models.CharField(max_length=40, blank=True)
    played = models.PositiveSmallIntegerField()
    is_top = models.BooleanField(default=False)

    class Meta:
        ordering = ["result", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["result", "seat"], name="board_score_once_a_seat")
        ]

    def __str__(self) -> str:
        return f"{self.result_id} seat {self.seat}: {self.score}"
