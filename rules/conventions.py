"""Conventions of Russian Preference as parameter sets (Sochi, Leningrad, Rostov, Classic).

A convention is data, not code: one frozen :class:`Convention` per variant, in a
registry looked up by name or alias. Every point the Kodeks (seed 001) leaves to
the players' agreement, and every disputed point D1–D21 of the reading aid
reading aid, russian, is a named option whose default is the Kodeks'
reading. :meth:`Convention.with_options` changes options with validation.

>>> find_convention("сочи").key, find_convention("Питер").key
('sochi', 'leningrad')
>>> find_convention("leningrad").game_cost_multiplier
2
>>> find_convention("sochi").with_options(whist_style="gentleman").whist_style
'gentleman'
>>> find_convention("sochi").with_options(whist_style="polite")
Traceback (most recent call last):
...
rules.conventions.InvalidConventionError: option 'whist_style': 'polite' is not one of 'greedy', 'gentleman'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Final

from rules.worded import WordedError, gettext_noop

__all__ = [
    "Convention",
    "InvalidConventionError",
    "CONVENTIONS",
    "SOCHI",
    "LENINGRAD",
    "ROSTOV",
    "CLASSIC",
    "OPTION_CHOICES",
    "OPTION_RANGES",
    "find_convention",
]


class InvalidConventionError(WordedError):
    """An unknown convention name, option name or option value; the message quotes it (in
    English, for the API, the command line and the logs). ``text`` and ``params``: the same for
    people, a :func:`gettext_noop` template (``%(name)s``) with its values (``option``: an
    option's name, ``value``/``choices``: its values), said in the reader's language with the
    options' labels by the Django side (``tournaments.convention_labels.convention_error``)."""


def unknown_option(message: str, name: str) -> InvalidConventionError:
    return InvalidConventionError(
        message, gettext_noop("“%(option)s” is not an option of this game."), {"option": name}
    )


def not_one_of(
    message: str, name: str, value: object, choices: tuple[object, ...]
) -> InvalidConventionError:
    return InvalidConventionError(
        message,
        gettext_noop("%(option)s: “%(value)s” is not one of %(choices)s."),
        {"option": name, "value": value, "choices": list(choices)},
    )


def out_of_range(name: str, value: object, low: int, high: int) -> InvalidConventionError:
    """An integer option outside its range, the same words in every family."""
    return InvalidConventionError(
        f"option {name!r}: {value!r} is not an integer from {low} to {high}",
        gettext_noop("%(option)s: “%(value)s” is not a whole number from %(low)s to %(high)s."),
        {"option": name, "value": value, "low": low, "high": high},
    )


def not_yes_or_no(message: str, name: str, value: object) -> InvalidConventionError:
    return InvalidConventionError(
        message,
        gettext_noop("%(option)s: “%(value)s” is neither yes nor no."),
        {"option": name, "value": value},
    )


def unknown_convention(message: str, name: str) -> InvalidConventionError:
    return InvalidConventionError(
        message, gettext_noop("“%(value)s” is not a convention Pulka knows."), {"value": name}
    )


@dataclass(frozen=True, slots=True)
class Convention:
    """The parameters of one convention. Defaults are the Kodeks' (Sochi) readings.

    Prices: P is the pulya price of the level (2/4/6/8/10, misère 10).
    """

    key: str
    name: str
    aliases: tuple[str, ...] = ()

    # --- prices -----------------------------------------------------------------
    #: Game cost U = P × this: whists per defence trick (note 52; Leningrad 2, D7).
    game_cost_multiplier: int = 1
    #: Declarer's gora per undertrick = P × this (001 §4.2.1; Leningrad 2, D7).
    declarer_gora_multiplier: int = 1
    #: Gora per trick on a failed misère (Sochi 10, Leningrad 20; D7).
    misere_gora_per_trick: int = 10
    #: Consolation per undertrick: ``"game_cost"`` = U (note 53, Sochi/Leningrad) or
    #: ``"flat"`` = :attr:`consolation_flat` whists (Rostov, note 53; D8).
    consolation: str = "game_cost"
    consolation_flat: int = 10
    #: Who writes consolation (001 §3.8.1.2; D5): ``"all"`` opponents including the
    #: 4-player dealer, ``"defenders"`` only, or ``"none"``.
    consolation_writers: str = "all"
    #: Consolation on a failed misère, per trick (D18): off by default.
    misere_consolation: bool = False
    #: Dealer's talon premium (001 §3.4.11, "не желательно"): off by default.
    talon_premiums: bool = False

    # --- whist ------------------------------------------------------------------
    #: ``"full"`` (ответственный, 001 §3.8.11: U per missing trick), ``"half"``
    #: (полуответственный, §3.8.12: U/2) or ``"half_then_full"`` (Classic: half until the
    #: whister's pulya is closed, §3.8.11).
    whist_responsibility: str = "full"
    #: ``"greedy"`` (жлобский, 001 §3.8.13) or ``"gentleman"`` (джентльменский, §3.8.14).
    whist_style: str = "greedy"
    #: Two whisters on 6/7 (001 §3.8.6; D1, D2): ``"kodeks"`` (only if the team is short,
    #: each whister below half pays his own deficit), ``"capped"`` (the same, capped at the
    #: team shortfall; equal to the proportional split), ``"each_own"`` (own deficit always).
    pair_shortfall_6_7: str = "kodeks"
    #: Two whisters on 8–10 (001 §3.8.6, note 58; D3): ``"second"`` or ``"both"`` pay.
    pair_shortfall_8_10: str = "second"
    #: The 10-level "checked" (note 38, rejected by the Kodeks; D4): obligation 0 instead of 1.
    ten_checked: bool = False
    #: Single whister's trick whists (001 §3.8.5; D17): ``"defence"`` (all the defence's
    #: tricks) or ``"own"`` (only his own; needs the trick split).
    single_whister_tricks: str = "defence"
    #: After a returned half-whist (001 §3.8.8) in gentleman whist, the former half-whister
    #: writes the consolation on the declarer's remiz (D21): yes by default, as consolation is
    #: written by all (§3.8.1.2) and §3.8.14 withholds only the trick whists ("висты", told
    #: apart from "за безвзятие" in §3.8.13); off: he writes nothing (§3.8.14 read as a whole).
    #: Greedy whist is not affected: the passer writes the consolation only (§3.8.13).
    returned_half_consolation: bool = True

    # --- raspasy (001 §3.7) ----------------------------------------------------------
    #: ``"gora"`` (001 §3.7.2.1) or ``"whists"`` (Rostov, §3.7.2.2).
    raspasy_mode: str = "gora"
    #: Per trick: gora points (Sochi 1, Leningrad 2, note 44) or whists (Rostov 5).
    raspasy_price: int = 1
    #: ``"none"``, ``"arithmetic"`` (1-2-3) or ``"geometric"`` (1-2-4) (001 §3.7.4).
    raspasy_progression: str = "arithmetic"
    #: Steps after which the progression stops (001 §3.7.4.3 recommends 3); 0 = unlimited.
    raspasy_progression_limit: int = 3
    #: Amnesty: subtract the smallest count (001 §3.7.3; D11).
    raspasy_amnesty: bool = True
    #: Rostov whists on the opponents' ``"full"`` counts (3.7.2.2; D9) or the ``"difference"``.
    raspasy_whists_base: str = "full"
    #: Zero-trick bonus in the pulya (001 §3.7.2.1; D10): ``"step"`` (the progression step
    #: 1/2/3), ``"one"`` (always 1) or ``"price"`` (raspasy price × step).
    raspasy_zero_bonus: str = "step"
    #: 4-player dealer with no tricks writes the zero bonus (D12; Rostov yes, 3.7.6.2).
    raspasy_dealer_zero_bonus: bool = False
    #: 4-player dealer owns the talon's tricks (001 §3.7.6.1; Rostov no, 3.7.6.2).
    raspasy_talon_to_dealer: bool = True
    #: What ends a raspasy streak (001 §3.7.8; D16): ``"any_game"`` or ``"whisted_game"``.
    raspasy_exit: str = "any_game"
    #: Lowest contract level allowed right after raspasy (6; archaic Classic 7, 001 §3.7.8).
    raspasy_exit_level: int = 6
    #: Sliding raspasy (скользящая, 001 §3.7.7): after raspasy the deal passes on as always;
    #: off in Classic, where the same dealer deals again.
    raspasy_sliding: bool = True

    # --- end of the pulka ---------------------------------------------------------
    #: Помощь (001 §4.2.3): points over the target go to an opponent, 10 whists a point.
    #: Off (Leningrad, §4.2.3.3): the pulka closes when Σ pulya ≥ n × target.
    help: bool = True
    #: Gora points a pulya point is worth (001 §4.2.3; Leningrad 2, §4.2.3.3; D7): the end
    #: conversion (target − pulya) × this into the gora, the help whists (10 × this a point)
    #: and an overflow written off the gora (× this, 001 §4.1.1).
    end_conversion: int = 1
    #: The settlement's rounding with 3 players (001 §4.2.14 gives two "equivalent" methods,
    #: each rounding by §4.2.12 "if fractional parts of the final sums arise"):
    #: ``"kodeks"``, Variant 1, each gora that does not divide by three is rounded (the
    #: default, as Pulka always settled); ``"average"``, Variant 2, only the sum of the goras
    #: when it does not divide (once, on the largest gora); ``"exact"``, none (D15).
    rounding: str = "kodeks"
    #: Classic coefficients (bombs, dark bids: notes 29–31) allowed on deals.
    multipliers: bool = False

    def with_options(self, **overrides: object) -> Convention:
        """A copy with options changed; names and values are validated.

        :raises InvalidConventionError: for an unknown option or a bad value.
        """
        for name, value in overrides.items():
            _validate(name, value)
        return dataclasses.replace(self, **overrides)  # type: ignore[arg-type]

    def options(self) -> dict[str, object]:
        """All options as a dict (without key, name and aliases)."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in ("key", "name", "aliases")
        }


#: Allowed values of the string options; ints and bools are checked by type.
OPTION_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "consolation": ("game_cost", "flat"),
    "consolation_writers": ("all", "defenders", "none"),
    "whist_responsibility": ("full", "half", "half_then_full"),
    "whist_style": ("greedy", "gentleman"),
    "pair_shortfall_6_7": ("kodeks", "capped", "each_own"),
    "pair_shortfall_8_10": ("second", "both"),
    "single_whister_tricks": ("defence", "own"),
    "raspasy_mode": ("gora", "whists"),
    "raspasy_progression": ("none", "arithmetic", "geometric"),
    "raspasy_whists_base": ("full", "difference"),
    "raspasy_zero_bonus": ("step", "one", "price"),
    "raspasy_exit": ("any_game", "whisted_game"),
    "rounding": ("kodeks", "average", "exact"),
}
#: Allowed ranges of the integer options (inclusive); every other option is true or false.
OPTION_RANGES: Final[dict[str, tuple[int, int]]] = {
    "game_cost_multiplier": (1, 2),
    "declarer_gora_multiplier": (1, 2),
    "misere_gora_per_trick": (1, 100),
    "consolation_flat": (0, 100),
    "raspasy_price": (1, 20),
    "raspasy_progression_limit": (0, 20),
    "raspasy_exit_level": (6, 10),
    "end_conversion": (1, 2),
}


def _validate(name: str, value: object) -> None:
    fields = {f.name: f for f in dataclasses.fields(Convention)}
    if name in ("key", "name", "aliases") or name not in fields:
        known = ", ".join(sorted(set(fields) - {"key", "name", "aliases"}))
        raise unknown_option(f"unknown option {name!r}; known options: {known}", name)
    if name in OPTION_CHOICES:
        choices = OPTION_CHOICES[name]
        if value not in choices:
            allowed = ", ".join(repr(c) for c in choices)
            raise not_one_of(
                f"option {name!r}: {value!r} is not one of {allowed}",
                name,
                value,
                tuple(OPTION_CHOICES[name]),
            )
    elif name in OPTION_RANGES:
        low, high = OPTION_RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise out_of_range(name, value, low, high)
    elif not isinstance(value, bool):
        raise not_yes_or_no(f"option {name!r}: {value!r} is not true or false", name, value)


#: Сочинка: the Kodeks' defaults (001 §3.8.11, §3.8.13, §3.7.2.1, §4.2.3).
SOCHI: Final = Convention(key="sochi", name="Сочинка (Sochi)", aliases=("сочи", "сочинка"))

#: Ленинградка: doubled game cost, gentleman half-responsible whist, raspasy 2-4-6,
#: no help and the ×2 end conversion (001 §3.8.12, §3.8.14, note 44, §4.2.3.3; D7).
LENINGRAD: Final = Convention(
    key="leningrad",
    name="Ленинградка (Leningrad)",
    aliases=("ленинград", "ленинградка", "питер", "piter", "spb"),
    game_cost_multiplier=2,
    declarer_gora_multiplier=2,
    misere_gora_per_trick=20,
    whist_responsibility="half",
    whist_style="gentleman",
    raspasy_price=2,
    help=False,
    end_conversion=2,
)

#: Ростов (московская): consolation 10 flat, half-responsible gentleman whist, raspasy
#: on whists 5 a trick without amnesty or talon (note 53, §3.8.12, §3.7.2.2, §3.7.6.2; D8, D20).
ROSTOV: Final = Convention(
    key="rostov",
    name="Ростов (Rostov)",
    aliases=("ростов", "ростовская", "московская", "moscow"),
    consolation="flat",
    whist_responsibility="half",
    whist_style="gentleman",
    raspasy_mode="whists",
    raspasy_price=5,
    raspasy_progression="none",
    raspasy_amnesty=False,
    raspasy_zero_bonus="one",
    raspasy_dealer_zero_bonus=True,
    raspasy_talon_to_dealer=False,
)

#: Классика: half-responsible until the pulya is closed, greedy whist, bombs and dark
#: bids as multipliers, progression via dark passes only, the dealer repeats after raspasy
#: (001 §3.8.11, §3.7.7, notes 29–31).
CLASSIC: Final = Convention(
    key="classic",
    name="Классика (Classic)",
    aliases=("классика", "классическая"),
    whist_responsibility="half_then_full",
    raspasy_progression="none",
    multipliers=True,
    raspasy_sliding=False,
)

CONVENTIONS: Final[dict[str, Convention]] = {c.key: c for c in (SOCHI, LENINGRAD, ROSTOV, CLASSIC)}
_BY_NAME: Final[dict[str, Convention]] = {
    name.lower(): c for c in CONVENTIONS.values() for name in (c.key, *c.aliases)
}


def find_convention(name: str) -> Convention:
    """The convention with this key or alias (case-insensitive).

    :raises InvalidConventionError: naming the known conventions.
    """
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        known = ", ".join(CONVENTIONS)
        raise unknown_convention(f"unknown convention {name!r}; known: {known}", name) from None
