"""The convention options on the organiser's event form: a field for every option of every rule
family's conventions, labelled by :mod:`tournaments.convention_labels` (the labels, with the rule
each comes from, and the words of every value of their choices; re-exported here).

The options themselves, their values and their validation live in ``rules/``; this module only
makes them a form's fields, in the page's language. Each option's field is blank by default, which
means "as the chosen convention has it", so changing the convention keeps the form meaningful;
the form shows beside it what each convention of the family has. The labels are data keyed by
the family's key (``FAMILY_OPTION_LABELS``), never a branch on a family's name.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.variants import FAMILIES, RUSSIAN, Family
from tournaments.convention_labels import (
    BALKAN_OPTION_LABELS,
    FAMILY_OPTION_LABELS,
    OPTION_LABELS,
    POT_OPTION_LABELS,
    PRIFFE_OPTION_LABELS,
    VALUE_LABELS,
    _shown,
    by_convention,
    convention_name,
    described,
    family_for,
    family_name,
    game_size_label,
)
from tournaments.families import playable

__all__ = [
    "BALKAN_OPTION_LABELS",
    "POT_OPTION_LABELS",
    "FAMILY_OPTION_LABELS",
    "PRIFFE_OPTION_LABELS",
    "OPTION_LABELS",
    "PREFIX",
    "VALUE_LABELS",
    "by_convention",
    "convention_choices",
    "described",
    "family_for",
    "game_size_label",
    "initial_from",
    "option_fields",
    "options_from",
]

PREFIX = "option_"


def convention_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The conventions grouped by family (an ``<optgroup>`` per family), of the families
    tournaments can be played in (those with pages: :func:`tournaments.families.playable`)."""
    return [
        (family_name(f), [(c.key, convention_name(c, f)) for c in f.conventions.values()])
        for f in FAMILIES.values()
        if playable(f.key)
    ]


def option_fields(family: Family = RUSSIAN) -> dict[str, forms.Field]:
    """A form field for each option of ``family``, named ``option_<name>``; blank: as the
    convention has it."""
    blank = ("", _("as the convention has it"))
    labels = FAMILY_OPTION_LABELS.get(family.key, {})
    options: dict[str, object] = {}  # every convention's options (the pot games differ)
    for convention in family.conventions.values():
        for name, value in convention.options().items():
            options.setdefault(name, value)
    fields: dict[str, forms.Field] = {}
    for name, default in options.items():
        if name in family.option_choices:
            choices = [blank, *((v, _shown(name, v)) for v in family.option_choices[name])]
            field: forms.Field = forms.ChoiceField(choices=choices, required=False)
        elif name in family.option_ranges:
            low, high = family.option_ranges[name]
            field = forms.IntegerField(
                min_value=low,
                max_value=high,
                required=False,
                widget=forms.NumberInput(attrs={"placeholder": "—", "class": "short"}),
            )
        else:
            assert isinstance(default, bool), name
            field = forms.ChoiceField(
                choices=[blank, ("true", _("yes")), ("false", _("no"))], required=False
            )
        field.label = labels.get(name, name)
        fields[PREFIX + name] = field
    return fields


def initial_from(options: dict[str, Any]) -> dict[str, Any]:
    """The fields' initial values for an event's stored options."""
    return {
        PREFIX + name: ("true" if value else "false") if isinstance(value, bool) else value
        for name, value in (options or {}).items()
    }


def options_from(cleaned: dict[str, Any]) -> dict[str, Any]:
    """The options set on the form (blank ones left to the convention), as ``rules`` takes
    them; the ``option_`` fields are removed from ``cleaned``."""
    options: dict[str, Any] = {}
    for key in [k for k in cleaned if k.startswith(PREFIX)]:
        value = cleaned.pop(key)
        if value in ("", None):
            continue
        name = key[len(PREFIX) :]
        options[name] = {"true": True, "false": False}.get(value, value)
    return options
