"""Teams in an event (issue 40): a team of three to five entries with a captain, the members
who play each round (its line-up), and the event's team rules (how many members score).

A team event is an event with :class:`TeamRules`; its teams are :class:`Team` rows, their
members :class:`TeamMember` rows (an entry belongs to one team at most), and a captain's
line-up for a round a :class:`TeamLineUp` (without one, every member still playing plays).
The draw never seats two members of one team at a table (``tournaments.seating``'s
``Constraints.teams``). Writes are in ``tournaments.services.teams``.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["TEAM_MAX", "TEAM_MIN", "Team", "TeamLineUp", "TeamMember", "TeamRules"]

TEAM_MIN = 3  #: members a team has at least (issue 40: teams of three to five)
TEAM_MAX = 5  #: … and at most


class TeamRules(models.Model):
    """A team event's rules: how many members' results count for the team each round."""

    class Counts(models.TextChoices):
        RESULTS = "results", _("the members' round results")
        PLACES = "places", _("the members' place points")

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="team_rules"
    )
    scoring_members = models.PositiveSmallIntegerField(
        _("members who score per round"),
        default=3,
        help_text=_(
            "The best results of this many members count for the team each round; a team "
            "with fewer members playing counts those it has."
        ),
    )
    counts = models.CharField(
        _("the team's score is the sum of"),
        max_length=8,
        choices=Counts.choices,
        default=Counts.RESULTS,
    )

    def __str__(self) -> str:
        return f"team rules of {self.event_id}"


class Team(models.Model):
    """A team of an event: its name, its captain (one of its members) and whether it has
    withdrawn (its members are not drawn again; its rounds played stay in the standings)."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team"), max_length=120)
    captain = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("captain"),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="team_name_once_per_event")
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """An entry's place in a team; an entry is in one team at most. A member withdrawn keeps
    the row: the rounds played count for the team."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="team_membership"
    )

    class Meta:
        ordering = ["team", "entry__player__name"]

    def __str__(self) -> str:
        return f"{self.entry_id} in {self.team_id}"


class TeamLineUp(models.Model):
    """The members a team's captain names to play a round, entered before its draw (the
    event's log records who set it and when). Without one, every member still playing plays."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="line_ups")
    round_number = models.PositiveSmallIntegerField(_("round"))
    entries = models.ManyToManyField("tournaments.Entry", related_name="+")
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["team", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["team", "round_number"], name="one_line_up_a_round")
        ]

    def __str__(self) -> str:
        return f"line-up of {self.team_id} in round {self.round_number}"
