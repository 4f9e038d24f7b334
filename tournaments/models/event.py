"""An event (a tournament) and the people who run it."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from rules.variants import family_of_convention
from tournaments.convention_labels import convention_name, described, family_for, game_size_label


class TableSizePolicy(models.TextChoices):
    THREE = "3", _("Tables of 3")
    FOUR = "4", _("Tables of 4")
    MIXED = "mixed", _("Tables of 3, and of 4 where the count requires")
    MIXED_PREFER_FOUR = "mixed4", _("Tables of 4, and of 3 where the count requires")


class FoursRemainder(models.TextChoices):
    """What the draw does when the players present do not fill tables of four (Priffe, seed
    004: four at a table; any fours-only event): the organiser's choice."""

    REFUSE = "refuse", _("Refuse to draw: check players in or out to a multiple of four")
    SIT_OUT = "sit_out", _("Players sit out in turn, each credited the stated score")
    SUBSTITUTE = "substitute", _("Substitutes fill the last table (not ranked)")


class DrawMethod(models.TextChoices):
    RANDOM = "random", _("Random draw (Kodeks note 8)")
    NO_REPEATS = "no_repeats", _("Avoid repeated opponents")
    SWISS = "swiss", _("Swiss: by current standings")
    SCHEDULE = "schedule", _("Pre-computed schedule for all rounds")


class Event(models.Model):
    """A Preference tournament: its rules, its format and whether the public can see it."""

    slug = models.SlugField(_("short name (URL)"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=200)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    # The convention key in rules.conventions (sochi, leningrad, rostov, classic) and validated
    # overrides of its options (001 notes: the points the Kodeks leaves to agreement).
    variant = models.CharField(_("variant and convention"), max_length=40, default="sochi")
    convention_options = models.JSONField(_("convention options"), default=dict, blank=True)
    pulka_target = models.PositiveSmallIntegerField(
        _("pulka length (pulya target per player)"),
        default=20,
        validators=[MinValueValidator(1), MaxValueValidator(500)],
    )
    deals_per_round = models.PositiveSmallIntegerField(
        _("fixed number of deals per round"),
        null=True,
        blank=True,
        help_text=_("Instead of a pulka length, play a fixed number of deals."),
    )
    round_time_limit = models.PositiveSmallIntegerField(
        _("time limit per round (minutes)"), null=True, blank=True
    )
    table_size_policy = models.CharField(
        _("table sizes"),
        max_length=8,
        choices=TableSizePolicy.choices,
        default=TableSizePolicy.MIXED,
    )
    fours_remainder = models.CharField(
        _("players beyond a multiple of four"),
        max_length=12,
        choices=FoursRemainder.choices,
        default=FoursRemainder.REFUSE,
        help_text=_(
            "At tables of four only: who sits out takes turns over the rounds (fewest rounds "
            "out first); substitutes are entries marked as substitutes."
        ),
    )
    sit_out_score = models.DecimalField(
        _("score of a round sat out"),
        max_digits=9,
        decimal_places=2,
        default=0,
        help_text=_("Credited in the standings to a player who sits out a round."),
    )
    rounds_planned = models.PositiveSmallIntegerField(_("number of rounds"), default=6)
    default_draw_method = models.CharField(
        _("draw method"), max_length=16, choices=DrawMethod.choices, default=DrawMethod.NO_REPEATS
    )
    separate_clubs = models.BooleanField(
        _("keep players of one club apart"),
        default=False,
        help_text=_("The draw treats players of the same club as players who must not meet."),
    )
    tiebreaks = models.JSONField(_("tie-break chain"), default=list, blank=True)
    double_entry = models.BooleanField(_("double entry of protocols"), default=False)
    published = models.BooleanField(_("published"), default=False)
    # the club, league or federation that runs it (issue 39); none for a stand-alone event
    organisation = models.ForeignKey(
        "tournaments.Organisation",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("organisation"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="event_ends_after_it_starts",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def convention_name(self) -> str:
        """The convention as people name it in the page's language ("Сочинка", "Hrvatski
        preferans", "Wiener Préférence"), not its key; of whichever rule family it belongs to."""
        return convention_name(self.variant)

    @property
    def family(self):
        """The rule family of the event's convention (``rules.variants.Family``)."""
        return family_of_convention(self.variant)

    @property
    def game_size_label(self) -> str:
        """What the game's size is called in the event's rule family ("Pulka size", "Bula")."""
        return game_size_label(family_for(self.variant))

    @property
    def convention_options_described(self) -> list[tuple[str, str]]:
        """The options agreed for the event, as (label, value) in the page's language."""
        return described(self.convention_options, family_for(self.variant))


class EventRole(models.Model):
    """A person's role in one event (permissions are per event from day one)."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        CHIEF_REFEREE = "chief_referee", _("Chief referee")
        REFEREE = "referee", _("Table referee")
        APPEALS = "appeals", _("Appeals committee")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(max_length=16, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "role"], name="one_role_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.event})"
