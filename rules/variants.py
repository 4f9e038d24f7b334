"""The rule families Pulka knows, and their conventions: what is legal and agreed, no scoring.

Like python-chess's variants, every family of Preference is registered once under a key, with its
names in its players' languages, its table sizes, the seed text it comes from and its conventions
(each a frozen parameter set with validated options). :mod:`scoring.variants` adds the scoring side
(formats, scoring, checking) on top of this registry; the Django side asks either registry and
never branches on a family's name.

A convention key is unique across all families, so an event or a protocol that names its
convention (``"sochi"``, ``"croatian"``) also names its family.

>>> family_of_convention("leningrad").key, family_of_convention("Srpski").key
('russian', 'balkan')
>>> find_family("hrvatski").key
'balkan'
>>> sorted(all_conventions())[:3]
['classic', 'croatian', 'german']
>>> find_family("wienerpreferans").key, family_of_convention("deutsch").key
('pot', 'pot')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from rules import balkan, conventions, pot, priffe
from rules.conventions import InvalidConventionError

__all__ = [
    "Family",
    "FAMILIES",
    "RUSSIAN",
    "BALKAN",
    "POT",
    "PRIFFE",
    "find_family",
    "family_of_convention",
    "find_any_convention",
    "all_conventions",
]


@dataclass(frozen=True, slots=True)
class Family:
    """A rule family: its key, names, seed, table sizes and conventions.

    ``conventions`` maps each convention key to its parameter set, an object with ``key``,
    ``name``, ``aliases``, ``with_options(**options)`` and ``options()``; ``find`` looks one up
    by key or alias; ``option_choices`` / ``option_ranges`` say which values each option takes.
    ``game_size`` names what the table agrees on before play in the players' words (the pulka's
    size for Russian, the bula for the Balkan games) with its usual values.
    """

    key: str
    name: str
    names: Mapping[str, str]
    aliases: tuple[str, ...]
    seed: str
    table_sizes: tuple[int, ...]
    conventions: Mapping[str, Any]
    default_convention: str
    find: Callable[[str], Any]
    option_choices: Mapping[str, tuple[str, ...]]
    option_ranges: Mapping[str, tuple[int, int]]
    game_size: str
    game_sizes: tuple[int, ...]

    def name_in(self, language: str) -> str:
        """The family's name in ``language`` ("ru", "hr", "sr" …), else in English."""
        return self.names.get(language, self.name)

    def table_sizes_of(self, convention: str) -> tuple[int, ...]:
        """The table sizes of one convention: its own ``table_sizes`` where it narrows the
        family's (German Préférence is for three, 003 "Spieler: 3"), else the family's.

        :raises rules.conventions.InvalidConventionError: for an unknown convention.
        """
        return tuple(getattr(self.find(convention), "table_sizes", None) or self.table_sizes)


RUSSIAN: Final = Family(
    key="russian",
    name="Russian Preference",
    names={"en": "Russian Preference", "ru": "Преферанс"},
    aliases=("russian", "преферанс", "ru", "kodeks"),
    seed="001",
    table_sizes=(3, 4),
    conventions=conventions.CONVENTIONS,
    default_convention="sochi",
    find=conventions.find_convention,
    option_choices=conventions.OPTION_CHOICES,
    option_ranges=conventions.OPTION_RANGES,
    game_size="target",
    game_sizes=(10, 20, 30, 50),
)

BALKAN: Final = Family(
    key="balkan",
    name="Croatian / Serbian / Slovenian Preference",
    names={
        "en": "Croatian / Serbian / Slovenian Preference",
        "hr": "Preferans (hrvatski, srpski, slovenski)",
        "sr": "Preferans (hrvatski, srpski, slovenački)",
    },
    aliases=("balkan", "preferans", "yu"),
    seed="002",
    table_sizes=(3,),
    conventions=balkan.CONVENTIONS,
    default_convention="croatian",
    find=balkan.find_convention,
    option_choices=balkan.OPTION_CHOICES,
    option_ranges=balkan.OPTION_RANGES,
    game_size="bula",
    game_sizes=(30, 50, 60, 100),
)

#: The pot games (seeds 000 and 003): no score sheet; chips change hands every deal between the
#: players and a pot. The agreed size is the stake: the base stake G in Vienna, the dealer's
#: chips in Germany.
POT: Final = Family(
    key="pot",
    name="Viennese and German Préférence (pot games)",
    names={
        "en": "Viennese and German Préférence (pot games)",
        "de": "Wiener und deutsche Préférence",
        "sv": "Wienerpreferans och tysk préférence",
    },
    aliases=("pot", "pot games", "potspel", "topf"),
    seed="000",
    table_sizes=(3, 4),
    conventions=pot.CONVENTIONS,
    default_convention="viennese",
    find=pot.find_convention,
    option_choices=pot.OPTION_CHOICES,
    option_ranges=pot.OPTION_RANGES,
    game_size="stake",
    game_sizes=(10, 20, 50, 100),
)

#: Swedish Priffe (seed 004): four players in two partnerships. Its ``game_size`` is the number of
#: **sits** (rubbers) the table plays: three, so that everyone partners everyone once (seed 004
#: "När alla har spelat mot alla under sammanlagt tre sitsar"), or fewer by agreement. In the
#: simpler variant (option ``play``, seed 004 "Enklare variant av Priffe") the same number is the
#: agreed count of deals (``play="deals"``) or the total below the line (``play="total"``).
PRIFFE: Final = Family(
    key="priffe",
    name="Swedish Priffe",
    names={"en": "Swedish Priffe", "sv": "Priffe"},
    aliases=("priffe", "swedish", "svensk", "preferans svensk"),
    seed="004",
    table_sizes=(4,),
    conventions=priffe.CONVENTIONS,
    default_convention="modern",
    find=priffe.find_convention,
    option_choices=priffe.OPTION_CHOICES,
    option_ranges=priffe.OPTION_RANGES,
    game_size="sits",
    game_sizes=(3, 2, 1),  # three first: everyone partners everyone (a new event's default)
)

FAMILIES: Final[dict[str, Family]] = {f.key: f for f in (RUSSIAN, BALKAN, POT, PRIFFE)}


def all_conventions() -> dict[str, Any]:
    """Every convention of every family, by key."""
    return {key: conv for f in FAMILIES.values() for key, conv in f.conventions.items()}


def family_of_convention(name: str) -> Family:
    """The family a convention key or alias belongs to.

    :raises rules.conventions.InvalidConventionError: naming every known convention.
    """
    for family in FAMILIES.values():
        try:
            family.find(name)
        except InvalidConventionError:
            continue
        return family
    known = ", ".join(all_conventions())
    raise conventions.unknown_convention(f"unknown convention {name!r}; known: {known}", name)


def find_any_convention(name: str) -> Any:
    """The convention with this key or alias, in whichever family it is."""
    return family_of_convention(name).find(name)


def find_family(name: str) -> Family:
    """A family by its key or alias, or by one of its conventions' keys or aliases."""
    wanted = name.strip().lower()
    for family in FAMILIES.values():
        if wanted == family.key or wanted in family.aliases:
            return family
    return family_of_convention(name)
