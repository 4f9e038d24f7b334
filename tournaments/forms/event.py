"""Forms of the organiser's pages. They only shape input; services hold the rules."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.conventions import InvalidConventionError
from rules.variants import family_of_convention
from tournaments.convention_labels import convention_name
from tournaments.forms import convention_options
from tournaments.models import DuplicateEvent, Event, EventRole
from tournaments.models.event import DrawMethod
from tournaments.services.events import event_defaults
from tournaments.standings.metrics import tiebreak_keys_for
from tournaments.variants import ui_for


def draw_method_choices(family_key: str) -> list[tuple[str, str]]:
    """The draw methods, the random draw citing the family's rule for it (the Kodeks' note 8
    for Russian Preference; none where the family's texts say nothing)."""
    try:
        citation = ui_for(family_key).random_draw_citation
    except LookupError:
        citation = ""
    random = _("Random draw") + (f" ({citation})" if citation else "")
    return [
        (value, random if value == DrawMethod.RANDOM else label)
        for value, label in DrawMethod.choices
    ]


#: the new-event form's duplicate fields (``duplicate_<name>``)
DUPLICATE_FIELDS = ("method", "boards_per_set", "seed")


def _duplicate_fields() -> dict[str, forms.Field]:
    return {
        "duplicate": forms.BooleanField(
            label=_("A duplicate event: the same prepared boards at every table of three"),
            help_text=_(
                "Each result is compared with the others on the same board in the same seat, "
                "as in bridge. The boards are prepared on the event's duplicate page."
            ),
            required=False,
        ),
        "duplicate_method": forms.ChoiceField(
            label=_("Comparison"), choices=DuplicateEvent.Method.choices, required=False,
            initial=DuplicateEvent.Method.MATCHPOINTS,
        ),
        "duplicate_boards_per_set": forms.IntegerField(
            label=_("Boards in a set"),
            help_text=_(
                "Each round a table plays one set of boards from each table of the round: with "
                "three tables and sets of 2, six boards a round."
            ),
            min_value=1, max_value=10, initial=1, required=False,
        ),
        "duplicate_seed": forms.CharField(
            label=_("Seed of the boards"),
            help_text=_(
                "Only its SHA-256 is published now; keep the seed: the boards are dealt from it "
                "before play, and it is revealed once every round is closed."
            ),
            max_length=200, required=False, widget=forms.TextInput(attrs={"autocomplete": "off"}),
        ),
    }


class EventForm(forms.ModelForm):
    """The event's settings. The convention choices are grouped by rule family; the options
    shown are those of the chosen convention's family (after a change of family, saving shows
    the new family's options), and the game size is named as the family names it."""

    variant = forms.ChoiceField(
        label=_("Variant and convention"), choices=convention_options.convention_choices
    )

    class Meta:
        model = Event
        fields = [
            "slug",
            "name",
            "starts_on",
            "ends_on",
            "venue",
            "variant",
            "pulka_target",
            "deals_per_round",
            "round_time_limit",
            "table_size_policy",
            "fours_remainder",
            "sit_out_score",
            "rounds_planned",
            "default_draw_method",
            "separate_clubs",
            "double_entry",
            "published",
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }

    #: the family the form was shown for: a post that chose another family is shown again
    #: with that family's size, table sizes and options (issue 36), not saved with the old ones
    shown_family = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        chosen = (
            (self.data.get("variant") if self.is_bound else None)
            or self.initial.get("variant")
            or self.instance.variant
        )
        self.family = convention_options.family_for(chosen)
        self.initial["shown_family"] = self.family.key
        shown = self.data.get("shown_family") if self.is_bound else None
        self.family_changed = bool(shown) and shown != self.family.key
        self.fields.update(convention_options.option_fields(self.family))
        self.fields["pulka_target"].label = convention_options.game_size_label(self.family)
        # in the family's words: no pulka, and the random draw's rule only where it has one
        self.fields["deals_per_round"].help_text = _(
            "Instead of playing to the game size above, play a fixed number of deals."
        )
        self.fields["default_draw_method"].choices = draw_method_choices(self.family.key)
        for name in self.KEEP_WHEN_BLANK:
            self.fields[name].required = False
        if not self.instance.pk:  # tie-breaks at creation, the family's (issue 36); later on
            # the standings page, where the order is set too
            ui = ui_for(self.family.key)
            self.fields["tiebreaks"] = forms.MultipleChoiceField(
                label=_("Tie-breaks, in this order, for players still tied"),
                choices=[
                    (k, ui.metric_label(k)["name"]) for k in tiebreak_keys_for(ui.variant.stat_keys)
                ],
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        if not self.instance.pk:  # a duplicate event from the start (issue 43, docs/duplicate.md)
            self.fields.update(_duplicate_fields())
        if self.instance.pk and self.family == convention_options.family_for(self.instance.variant):
            self.initial.update(convention_options.initial_from(self.instance.convention_options))

    #: fields a form may leave out (an older page, a script): they keep the event's value
    KEEP_WHEN_BLANK = ("fours_remainder", "sit_out_score")

    #: the fields whose label, default or choices are the family's: the new-event form's
    #: script (event-form.js) swaps them for the chosen game's when the game changes
    FAMILY_FIELDS = ("pulka_target", "table_size_policy", "default_draw_method", "tiebreaks")

    @classmethod
    def for_new_event(cls, request) -> EventForm:
        """The new-event form of ``request``: posted, else for the game the address chooses
        (``?variant=``, how a page without scripts and the form's script ask for a game's
        form), with that game's size and table sizes; a post that changed the game is shown
        again for it (:attr:`family_changed`, :meth:`for_the_chosen_family`)."""
        variant = request.GET.get("variant") or "sochi"
        try:  # the game chosen sets the size and table sizes the form starts with (issue 36)
            defaults = event_defaults(variant)
            variant = family_of_convention(variant).find(variant).key  # "priffe": "modern"
        except InvalidConventionError:
            variant, defaults = "sochi", event_defaults("sochi")
        return cls(request.POST or None, initial={"variant": variant, **defaults})

    def clean(self):
        cleaned = super().clean()
        starts, ends = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts and ends and ends < starts:
            # said here, beside the field: the database's check would only name its constraint
            self.add_error("ends_on", _("The last day cannot be before the first."))
        cleaned.pop("shown_family", None)  # the page's, not the event's
        if "tiebreaks" in self.fields:  # in the order offered
            chosen = set(cleaned.get("tiebreaks") or ())
            cleaned["tiebreaks"] = [
                k for k, _label in self.fields["tiebreaks"].choices if k in chosen
            ]
        cleaned["convention_options"] = convention_options.options_from(cleaned)
        if "duplicate" in self.fields:  # the duplicate option: the duplicate service's, not
            # the event's fields
            wanted = cleaned.pop("duplicate", False)
            chosen = {name: cleaned.pop(f"duplicate_{name}", None) for name in DUPLICATE_FIELDS}
            cleaned["duplicate"] = (
                {
                    "method": chosen["method"] or DuplicateEvent.Method.MATCHPOINTS,
                    "boards_per_set": chosen["boards_per_set"] or 1,
                    "seed": (chosen["seed"] or "").strip(),
                }
                if wanted
                else None
            )
        for name in self.KEEP_WHEN_BLANK:
            if cleaned.get(name) in (None, ""):
                cleaned[name] = getattr(self.instance, name)
                self.errors.pop(name, None)
        return cleaned

    def main_fields(self):
        return [
            f
            for f in self
            if not f.name.startswith(convention_options.PREFIX) and f.name != "shown_family"
        ]

    def for_the_chosen_family(self) -> EventForm:
        """The form again for the family a post chose (a changed family): what the organiser
        typed kept, the game size and table sizes the new family's defaults, its own options
        blank; nothing saved."""
        kept = {
            name: self.data.get(name)
            for name in self.fields
            if not name.startswith(convention_options.PREFIX)
            and name not in ("shown_family", "pulka_target", "table_size_policy")
            and name in self.data
        }
        variant = str(self.data.get("variant") or "")
        return EventForm(
            initial={**kept, "variant": variant, **event_defaults(variant)},
            instance=self.instance,
        )

    def option_rows(self):
        """Each option's field with what each convention has (the columns of the form)."""
        prefix = convention_options.PREFIX
        return [
            (f, convention_options.by_convention(f.name[len(prefix) :], self.family))
            for f in self
            if f.name.startswith(prefix)
        ]

    def convention_names(self):
        return [convention_name(c, self.family) for c in self.family.conventions.values()]


class EntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    city = forms.CharField(label=_("City"), max_length=120, required=False)
    rating = forms.IntegerField(label=_("Rating"), required=False)
    federation_id = forms.CharField(label=_("Federation id"), max_length=40, required=False)


class RoundCloseForm(forms.Form):
    """Closing a round whose tables are not all approved: the organiser confirms it and says
    why (the log keeps the reason and the tables)."""

    confirm = forms.BooleanField(
        label=_("Close the round anyway: these tables get no result for it"), required=True
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        help_text=_('For the log, e.g. "the table left after the time limit".'),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "close_%s")
        super().__init__(*args, **kwargs)


class CsvImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("…or paste the CSV"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )
    skip_entered = forms.BooleanField(
        label=_("Skip players already entered"),
        required=False,
        help_text=_("To import an extended list again: its players already entered are left out."),
    )

    def csv_text(self) -> str:
        upload = self.cleaned_data.get("file")
        if upload:
            raw = upload.read()
            for encoding in ("utf-8-sig", "cp1251"):
                try:
                    return raw.decode(encoding)
                except UnicodeDecodeError:
                    continue
            raise forms.ValidationError(_("The file is neither UTF-8 nor Windows-1251 text."))
        return self.cleaned_data.get("text") or ""


class ReasonForm(forms.Form):
    """A correction with its reason. The round page shows the three corrections side by side,
    so each form's fields get ids of their own (``swap_reason``, ``move_reason``, …): a label
    must point at the field of its own form."""

    id_prefix = "correction"
    reason = forms.CharField(label=_("Reason"), max_length=500)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)


class SwapForm(ReasonForm):
    id_prefix = "swap"
    first = forms.IntegerField(label=_("Player"), widget=forms.Select)
    second = forms.IntegerField(label=_("with player"), widget=forms.Select)


class MoveForm(ReasonForm):
    id_prefix = "move"
    entry = forms.IntegerField(label=_("Player"), widget=forms.Select)
    table = forms.IntegerField(label=_("to table"), min_value=1)


class RedrawTableForm(ReasonForm):
    id_prefix = "redraw"
    table = forms.IntegerField(label=_("Table"), min_value=1)


class SeatAsDrawnForm(ReasonForm):
    """The seats and first dealer as the players drew them at the table (001 §3.1.1, §3.2.1)."""

    id_prefix = "drawn"
    table = forms.IntegerField(label=_("Table"), min_value=1)
    seat_1 = forms.IntegerField(label=_("Seat 1"), widget=forms.Select)
    seat_2 = forms.IntegerField(label=_("Seat 2"), widget=forms.Select)
    seat_3 = forms.IntegerField(label=_("Seat 3"), widget=forms.Select)
    seat_4 = forms.IntegerField(
        label=_("Seat 4 (a table of four)"), widget=forms.Select, required=False
    )
    first_dealer = forms.IntegerField(label=_("First dealer"), widget=forms.Select)
    player_fields = ("seat_1", "seat_2", "seat_3", "seat_4", "first_dealer")

    def clean(self):
        cleaned = super().clean()
        order = [cleaned.pop(f"seat_{i}", None) for i in range(1, 5)]
        cleaned["order"] = [entry for entry in order if entry is not None]
        return cleaned


class KeepApartForm(forms.Form):
    """Two players the draw keeps apart (choices: the event's players, set by the view)."""

    first = forms.IntegerField(label=_("Player"), widget=forms.Select)
    second = forms.IntegerField(label=_("and player"), widget=forms.Select)
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "apart_%s")
        super().__init__(*args, **kwargs)


class FixedTableForm(forms.Form):
    """A player who must sit at a table in every draw; no table frees them."""

    entry = forms.IntegerField(label=_("Player"), widget=forms.Select)
    table = forms.IntegerField(
        label=_("Table"),
        min_value=1,
        max_value=32767,  # the column's (a small integer): past it a 500, issue 38
        required=False,
        help_text=_("Blank: no fixed table."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "fixed_%s")
        super().__init__(*args, **kwargs)


class StaffForm(forms.Form):
    """A person's role in the event; a new user name gets an account."""

    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"), choices=EventRole.Role.choices, initial=EventRole.Role.REFEREE
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "staff_%s")
        super().__init__(*args, **kwargs)
