"""The convention options on the organiser's event form: a label (with the rule it comes from)
for every option of :class:`rules.conventions.Convention` and for every value of its choices.

The options themselves, their values and their validation live in ``rules/``; this module only
names them for people, in the page's language. Each option's field is blank by default, which
means "as the chosen convention has it", so changing the convention keeps the form meaningful;
the form shows beside it what each convention has.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.conventions import CONVENTIONS, OPTION_CHOICES, OPTION_RANGES, SOCHI

__all__ = [
    "OPTION_LABELS",
    "PREFIX",
    "VALUE_LABELS",
    "by_convention",
    "described",
    "initial_from",
    "option_fields",
    "options_from",
]

PREFIX = "option_"

#: Option → its label, citing the rule text (seed 001: the Kodeks) where the option lives.
OPTION_LABELS: dict[str, Any] = {
    "game_cost_multiplier": _("Game cost: the contract's pulya price × (note 52)"),
    "declarer_gora_multiplier": _("Declarer's gora per undertrick: pulya price × (001 §4.2.1)"),
    "misere_gora_per_trick": _("Gora per trick on a failed misère"),
    "consolation": _("Consolation per undertrick (note 53)"),
    "consolation_flat": _("Flat consolation: whists per undertrick"),
    "consolation_writers": _("Who writes consolation (001 §3.8.1.2)"),
    "misere_consolation": _("Consolation on a failed misère"),
    "talon_premiums": _("Dealer's talon premium (001 §3.4.11)"),
    "whist_responsibility": _("Whister's responsibility (001 §3.8.11, §3.8.12)"),
    "whist_style": _("Whist (001 §3.8.13, §3.8.14)"),
    "pair_shortfall_6_7": _("Two whisters short on a 6 or 7 (001 §3.8.6)"),
    "pair_shortfall_8_10": _("Two whisters short on 8 to 10 (001 §3.8.6, note 58)"),
    "ten_checked": _("Tens checked: no obligation to whist (note 38)"),
    "single_whister_tricks": _("A single whister writes whists for (001 §3.8.5)"),
    "returned_half_consolation": _(
        "Gentleman whist, whist returned: the former half-whister writes the consolation"
        " (001 §3.8.8, §3.8.14, §3.8.1.2)"
    ),
    "raspasy_mode": _("Raspasy are written in (001 §3.7.2)"),
    "raspasy_price": _("Raspasy price per trick (note 44)"),
    "raspasy_progression": _("Raspasy progression (001 §3.7.4)"),
    "raspasy_progression_limit": _("The progression stops after this many steps; 0: never"),
    "raspasy_amnesty": _("Raspasy amnesty: the smallest count is subtracted (001 §3.7.3)"),
    "raspasy_whists_base": _("Raspasy whists on (001 §3.7.2.2)"),
    "raspasy_zero_bonus": _("Zero-trick bonus in the pulya (001 §3.7.2.1)"),
    "raspasy_dealer_zero_bonus": _("A 4-player dealer with no tricks writes the zero bonus"),
    "raspasy_talon_to_dealer": _("A 4-player dealer owns the talon's tricks (001 §3.7.6.1)"),
    "raspasy_exit": _("What ends a run of raspasy (001 §3.7.8)"),
    "raspasy_exit_level": _("Lowest contract right after raspasy (001 §3.7.8)"),
    "raspasy_sliding": _("Sliding raspasy: the deal passes on (001 §3.7.7)"),
    "help": _("Help: points over the target go to an opponent (001 §4.2.3)"),
    "end_conversion": _("Gora points a pulya point is worth (001 §4.2.3)"),
    "rounding": _("Rounding of the result (001 §4.2.12)"),
    "multipliers": _("Bombs and dark bids as multipliers (notes 29–31)"),
}

#: (option, value) → label of a choice; true and false are "yes" and "no".
VALUE_LABELS: dict[tuple[str, str], Any] = {
    ("consolation", "game_cost"): _("the game's cost"),
    ("consolation", "flat"): _("a flat number of whists"),
    ("consolation_writers", "all"): _("all opponents, a 4-player dealer too"),
    ("consolation_writers", "defenders"): _("the defenders only"),
    ("consolation_writers", "none"): _("nobody"),
    ("whist_responsibility", "full"): _("full (ответственный)"),
    ("whist_responsibility", "half"): _("half (полуответственный)"),
    ("whist_responsibility", "half_then_full"): _("half until the whister's pulya is closed"),
    ("whist_style", "greedy"): _("greedy (жлобский)"),
    ("whist_style", "gentleman"): _("gentleman's (джентльменский)"),
    ("pair_shortfall_6_7", "kodeks"): _("as the Kodeks: only when the pair is short"),
    ("pair_shortfall_6_7", "capped"): _("capped at the pair's shortfall"),
    ("pair_shortfall_6_7", "each_own"): _("each pays his own shortfall"),
    ("pair_shortfall_8_10", "second"): _("the second whister pays"),
    ("pair_shortfall_8_10", "both"): _("both whisters pay"),
    ("single_whister_tricks", "defence"): _("all the defence's tricks"),
    ("single_whister_tricks", "own"): _("his own tricks only"),
    ("raspasy_mode", "gora"): _("the gora"),
    ("raspasy_mode", "whists"): _("whists"),
    ("raspasy_progression", "none"): _("none"),
    ("raspasy_progression", "arithmetic"): _("arithmetic, 1-2-3"),
    ("raspasy_progression", "geometric"): _("geometric, 1-2-4"),
    ("raspasy_whists_base", "full"): _("the opponents' full counts"),
    ("raspasy_whists_base", "difference"): _("the difference of the counts"),
    ("raspasy_zero_bonus", "step"): _("the progression's step"),
    ("raspasy_zero_bonus", "one"): _("always 1"),
    ("raspasy_zero_bonus", "price"): _("the price × the step"),
    ("raspasy_exit", "any_game"): _("any game"),
    ("raspasy_exit", "whisted_game"): _("a whisted game"),
    ("rounding", "kodeks"): _("as the Kodeks"),
    ("rounding", "exact"): _("exact"),
}


def _shown(name: str, value: object) -> str:
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    return str(VALUE_LABELS.get((name, str(value)), value))


def by_convention(name: str) -> list[str]:
    """What each convention (in the order of ``CONVENTIONS``) has for the option ``name``."""
    return [_shown(name, getattr(c, name)) for c in CONVENTIONS.values()]


def option_fields() -> dict[str, forms.Field]:
    """A form field for each option, named ``option_<name>``; blank: as the convention has it."""
    blank = ("", _("as the convention has it"))
    fields: dict[str, forms.Field] = {}
    for name, default in SOCHI.options().items():
        if name in OPTION_CHOICES:
            choices = [blank, *((v, _shown(name, v)) for v in OPTION_CHOICES[name])]
            field: forms.Field = forms.ChoiceField(choices=choices, required=False)
        elif name in OPTION_RANGES:
            low, high = OPTION_RANGES[name]
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
        field.label = OPTION_LABELS[name]
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


def described(options: dict[str, Any]) -> list[tuple[str, str]]:
    """An event's options as (label, value) for people, in the page's language."""
    return [
        (str(OPTION_LABELS.get(name, name)), _shown(name, value))
        for name, value in sorted((options or {}).items())
    ]
