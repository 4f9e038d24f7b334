"""The organisers' forms of a series (issue 39). They only shape input; ``services.series``
holds the rules and names the field at fault."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.variants import FAMILIES
from tournaments.models import Organisation, OrganisationRole, Series
from tournaments.standings.series import SERIES_TIEBREAKS

#: the series tie-breaks as the pages name them
TIEBREAK_LABELS = {
    "events_won": _("More events won"),
    "best_result": _("Better best place in an event"),
    "head_to_head": _("Head-to-head: places against the tied players in the events both played"),
    "events_played": _("More events played"),
}


class SeriesForm(forms.Form):
    slug = forms.SlugField(label=_("Short name (URL)"), max_length=60)
    name = forms.CharField(label=_("Name"), max_length=200)
    season = forms.CharField(label=_("Season"), max_length=40, required=False)
    family = forms.ChoiceField(label=_("Rule family"))
    points = forms.ChoiceField(label=_("Points per event"), choices=Series.Points.choices)
    place_points = forms.CharField(
        label=_("Place-points table"),
        required=False,
        help_text=_(
            "Points for 1st, 2nd, 3rd … place, separated by spaces; empty: 25 20 16 13 11 10 9 "
            "8 7 6 5 4 3 2 1. Players who share a place share its points."
        ),
    )
    best_of = forms.IntegerField(
        label=_("Events counted (best N)"),
        required=False,
        min_value=1,
        help_text=_("Only a player's best N events count; empty: every event counts."),
    )
    min_events = forms.IntegerField(label=_("Events needed to be ranked"), min_value=1, initial=1)
    tiebreaks = forms.MultipleChoiceField(
        label=_("Tie-breaks, in this order"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        initial=["events_won", "best_result", "head_to_head"],
    )
    published = forms.BooleanField(label=_("Published"), required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["family"].choices = [(f.key, f.name) for f in FAMILIES.values()]
        self.fields["tiebreaks"].choices = [(k, TIEBREAK_LABELS[k]) for k in SERIES_TIEBREAKS]

    def clean_place_points(self) -> list[str]:
        text = self.cleaned_data.get("place_points") or ""
        return text.replace(",", " ").replace(";", " ").split()

    @staticmethod
    def initial_of(series: Series) -> dict:
        return {
            "slug": series.slug,
            "name": series.name,
            "season": series.season,
            "family": series.family,
            "points": series.points,
            "place_points": " ".join(str(p) for p in series.place_points),
            "best_of": series.best_of,
            "min_events": series.min_events,
            "tiebreaks": series.tiebreaks or ["events_won", "best_result", "head_to_head"],
            "published": series.published,
        }


class SeriesEventForm(forms.Form):
    event = forms.ChoiceField(label=_("Event"))
    category = forms.CharField(label=_("Category"), max_length=40, required=False)
    weight = forms.DecimalField(
        label=_("Weight"), initial=1, min_value=0, max_digits=6, decimal_places=3
    )

    def __init__(self, *args, events=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].choices = [(e.slug, f"{e.name} ({e.starts_on})") for e in events]


class PersonMergeForm(forms.Form):
    keep = forms.IntegerField(label=_("Keep this person (number)"), min_value=1)
    drop = forms.IntegerField(label=_("Merge this person into it (number)"), min_value=1)


class OrganisationForm(forms.Form):
    """A club, a league or a federation (issue 39): created and edited from Pulka's pages."""

    slug = forms.SlugField(
        label=_("Short name (URL)"),
        max_length=60,
        help_text=_("Letters, digits and hyphens: the organisation's page is /o/<short name>/."),
    )
    name = forms.CharField(label=_("Name"), max_length=200)
    kind = forms.ChoiceField(
        label=_("Kind"), choices=Organisation.Kind.choices, initial=Organisation.Kind.CLUB
    )
    city = forms.CharField(label=_("City"), max_length=120, required=False)


class OrganisationStaffForm(forms.Form):
    """A person's role in an organisation; a new user name gets an account."""

    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=OrganisationRole.Role.choices,
        initial=OrganisationRole.Role.ORGANISER,
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "staff_%s")
        super().__init__(*args, **kwargs)
