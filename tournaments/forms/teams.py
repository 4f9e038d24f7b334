"""The organisers' forms for a team event (issue 40): the team rules, a new team, a line-up.
The choices of players are set by the view (the event's entries)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import TeamRules
from tournaments.models.team import TEAM_MAX

__all__ = ["LineUpForm", "TeamForm", "TeamRulesForm"]


class TeamRulesForm(forms.Form):
    scoring_members = forms.IntegerField(
        label=_("members who score per round"), min_value=1, max_value=TEAM_MAX, initial=3
    )
    counts = forms.ChoiceField(
        label=_("the team's score is the sum of"), choices=TeamRules.Counts.choices
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "rules_%s")
        super().__init__(*args, **kwargs)


class TeamForm(forms.Form):
    """A new team: its name, three to five of the event's players, its captain."""

    name = forms.CharField(label=_("Team"), max_length=120)
    members = forms.TypedMultipleChoiceField(
        label=_("Members"), coerce=int, widget=forms.CheckboxSelectMultiple
    )
    captain = forms.TypedChoiceField(
        label=_("captain"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "team_%s")
        super().__init__(*args, **kwargs)


class LineUpForm(forms.Form):
    """The members a team's captain names for a round, before its draw."""

    round = forms.IntegerField(label=_("Round"), min_value=1)
    members = forms.TypedMultipleChoiceField(
        label=_("Members"), coerce=int, widget=forms.CheckboxSelectMultiple
    )
