"""Conventions of the Balkan family (Croatian, Serbian, Slovenian Preference) as parameter sets.

Seed 002 describes the Croatian game of the Medjimurje region in its main text and the Serbian
and Slovenian differences in its "variations" sections; reading aid, variants §1–4
lists every point the text leaves open, with the seed's reading as the default and the
alternatives other players use. Each such point is a named option here, validated like the
Russian ones (:mod:`rules.conventions`): a convention is data, not code.

Vocabulary (the players' words): the **bula** is the declarer column's starting score (written
without a sign, meaning minus); **juha** / **supa** (soup) a defender column, one against each
opponent; **refa** / **radlc** the doubling all players get when everybody passed; the **kapa**
/ **šešir** (hat) marks a declarer column that crossed zero; **kontra**, **rekontra**,
**subkontra** (sukontra), **mortkontra** the doublings; **igra** (game) a contract without the
talon; **betl** / **bettel** / **berač** the contract to take no trick; **sans** / **sanac** /
**sans atout** no trumps.

>>> find_convention("srpski").key, find_convention("Slovenian").plain_two
('serbian', 'thrown_in')
>>> CROATIAN.refa_limit_for(50), CROATIAN.refa_limit_for(30), SERBIAN.refa_limit_for(100)
(3, 1, 3)
>>> CROATIAN.with_options(defender_quota="each").defender_quota
'each'
>>> CROATIAN.with_options(end_cap="maybe")
Traceback (most recent call last):
...
rules.conventions.InvalidConventionError: option 'end_cap': 'maybe' is not true or false
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Final

from rules.conventions import (
    InvalidConventionError,
    not_one_of,
    not_yes_or_no,
    out_of_range,
    unknown_convention,
    unknown_option,
)
from rules.worded import gettext_noop

__all__ = [
    "BalkanConvention",
    "CONVENTIONS",
    "CROATIAN",
    "SERBIAN",
    "SLOVENIAN",
    "CONTRACT_VALUES",
    "BETTEL",
    "SANS",
    "PREFERANS",
    "OPTION_CHOICES",
    "OPTION_RANGES",
    "find_convention",
    "contract_name",
    "check_option",
]

#: Contract numbers (seed 002 "Bid / Value"): 2–5 the trump suits, 6 bettel, 7 sanac; 8 the
#: Serbian preferans ("variations played in Serbia").
CONTRACT_VALUES: Final = (2, 3, 4, 5, 6, 7, 8)
BETTEL: Final = 6
SANS: Final = 7
PREFERANS: Final = 8


@dataclass(frozen=True, slots=True)
class BalkanConvention:
    """The parameters of one Balkan convention. Defaults are seed 002's (Croatian) readings."""

    key: str
    name: str
    aliases: tuple[str, ...] = ()
    #: The contract names in the players' words, by contract number (2–8).
    contract_names: tuple[tuple[int, str], ...] = (
        (2, "list"),
        (3, "bundeva"),
        (4, "srce"),
        (5, "žir"),
        (6, "betl"),
        (7, "sanac"),
        (8, "preferans"),
    )
    #: What the doubling after all passed is called: refa, or radlc in Slovenia.
    refa_word: str = "refa"

    # --- table ----------------------------------------------------------------------
    #: ``"clockwise"`` (Croatia, Slovenia) or ``"counter-clockwise"`` (Serbia). Players are
    #: always listed in playing order, so this changes no score (variants.md §3).
    direction: str = "clockwise"

    # --- refa (seed 002 "Refa") --------------------------------------------------------
    #: Whether the game is played with refas at all (seed 002 "Refa"). ``False``: a game agreed
    #: without refas; everybody passing has no effect, a plain two nobody kontras never gives
    #: one, and ``refa_limit`` must stay 0 (there is no limit to set).
    refas: bool = True
    #: The maximum number of refas; 0 means "by the bula" (:meth:`refa_limit_for`): bula 30
    #: → 1, 50 → 3 (seed 002), or in Serbia one per 30 of bula ("3 refe for a bula of 100").
    #: A game without refas says so with ``refas=False``, never with this number.
    refa_limit: int = 0
    #: ``"rounds"``: all pass gives every player a refa, at most ``refa_limit`` rounds (seed);
    #: ``"per_player"``: a refa is blocked once any player holds the maximum (variants.md §3).
    refa_count: str = "rounds"

    # --- contracts and bidding ------------------------------------------------------
    #: A plain two (no game, declarer without refa) that no defender kontras (seed 002
    #: "Kontra"): ``"declarer_wins"`` (Croatian: no play, the declarer wins 10 tricks),
    #: ``"thrown_in"`` (Slovenia: no score; a radlc for everyone when nobody is under the
    #: hat), ``"refa_or_hat"`` (Serbia: a refa for everyone when nobody is under the hat and
    #: refas remain; otherwise the declarer scores the 2 only if he is under the hat),
    #: ``"refa_or_score"`` (the Serbian alternative: otherwise he always scores it).
    plain_two: str = "declarer_wins"
    #: Whether a two said by a declarer who holds an unplayed refa counts as plain (seed 002
    #: "Kontra": a plain two is one "without 'game' and without refa"; the Serbian and Slovenian
    #: variations do not repeat the exception). ``"excluded"``: the exception is carried over,
    #: the refa holder's two is played like any contract, kontra or not (the default of every
    #: convention: the main text's definition, which the variations only amend);
    #: ``"included"``: the variation as written, any two nobody kontras follows ``plain_two``
    #: (thrown in, a refa, or scored under the hat; the refa is used only when it scores).
    #: Croatian rules say the exception in so many words, so ``"included"`` needs a
    #: ``plain_two`` other than ``"declarer_wins"``.
    plain_two_refa: str = "excluded"
    #: Serbia: a plain "igra" commits to a trump contract; igra betl / igra sans (and igra
    #: preferans) must be said at the first turn.
    igra_commits_to_trumps: bool = False
    #: Serbia: the optional contract preferans (8): no trumps, all ten tricks.
    preferans: bool = False

    # --- defence ----------------------------------------------------------------------
    #: ``"team"``: with both defenders playing, a defender fails only if the team has fewer
    #: than 4 tricks and he fewer than 2 (seed 002, note (j)); ``"each"``: each needs 2.
    defender_quota: str = "team"
    #: Who writes the defence's tricks after a kontra: ``"host"`` (the kontra-sayer, seed 002
    #: "Kontra") or ``"own"`` (each defender his own; variants.md §3).
    kontra_soups: str = "host"
    #: The longest doubling chain: 0 unlimited (seed: "and so on ad infinitum"), 1 kontra
    #: only, 2 up to rekontra, 3 up to subkontra …
    kontra_limit: int = 0
    #: A lost bettel with kontra, which the seed leaves undefined (A-HR-1): ``"host"`` (only
    #: the kontra-sayer writes 5 × v; the default reading) or ``"each"`` (both do).
    bettel_kontra: str = "host"

    # --- end of the game ----------------------------------------------------------------
    #: The end cap (seed 002 "Ending the Game", note (p)): a winning contract that would take
    #: the sum of the declarer columns past zero is reduced to reach zero exactly. Off: no
    #: cap, the game ends when the sum is ≥ 0 (variants.md §3).
    end_cap: bool = True

    def with_options(self, **overrides: object) -> BalkanConvention:
        """A copy with options changed; names and values are validated.

        :raises rules.conventions.InvalidConventionError: for an unknown option or a bad value.
        """
        for name, value in overrides.items():
            _validate(name, value)
        changed = dataclasses.replace(self, **overrides)  # type: ignore[arg-type]
        _validate_together(changed)
        return changed

    def options(self) -> dict[str, object]:
        """All options as a dict (without key, names and vocabulary)."""
        return {f: getattr(self, f) for f in OPTION_NAMES}

    def refa_limit_for(self, bula: int) -> int:
        """The maximum number of refas for a game started at ``bula``."""
        if not self.refas:
            return 0
        if self.refa_limit:
            return self.refa_limit
        if self.direction == "counter-clockwise":  # Serbia: one per 30 of bula
            return max(1, bula // 30)
        return 3 if bula >= 50 else 1  # seed 002: "Starting from 50 … three"; "from 30 … one"

    def contract_word(self, contract: int) -> str:
        """The contract's name in this convention's words (``"betl"``, ``"sans"`` …)."""
        return dict(self.contract_names).get(contract, str(contract))


_NOT_OPTIONS: Final = frozenset({"key", "name", "aliases", "contract_names", "refa_word"})
OPTION_NAMES: Final = tuple(
    f.name for f in dataclasses.fields(BalkanConvention) if f.name not in _NOT_OPTIONS
)

#: Allowed values of the string options.
OPTION_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "direction": ("clockwise", "counter-clockwise"),
    "refa_count": ("rounds", "per_player"),
    "plain_two": ("declarer_wins", "thrown_in", "refa_or_hat", "refa_or_score"),
    "plain_two_refa": ("excluded", "included"),
    "defender_quota": ("team", "each"),
    "kontra_soups": ("host", "own"),
    "bettel_kontra": ("host", "each"),
}
#: Allowed ranges of the integer options (inclusive); every other option is true or false.
OPTION_RANGES: Final[dict[str, tuple[int, int]]] = {
    "refa_limit": (0, 20),
    "kontra_limit": (0, 10),
}


def check_option(name: str, value: object) -> None:
    """Check one option's name and value alone; :meth:`BalkanConvention.with_options` also
    checks the options together (``refas=False`` with a ``refa_limit`` …).

    :raises rules.conventions.InvalidConventionError: naming the option.
    """
    _validate(name, value)


def _validate(name: str, value: object) -> None:
    if name not in OPTION_NAMES:
        known = ", ".join(sorted(OPTION_NAMES))
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


def _validate_together(conv: BalkanConvention) -> None:
    """Options that contradict each other (each value alone is valid)."""
    if not conv.refas and conv.refa_limit:
        raise InvalidConventionError(
            f"option 'refa_limit': {conv.refa_limit!r} in a game without refas (refas=false); "
            "leave it 0",
            gettext_noop("%(option)s: “%(value)s” in a game without refas; leave it 0."),
            {"option": "refa_limit", "value": conv.refa_limit},
        )
    if conv.plain_two_refa == "included" and conv.plain_two == "declarer_wins":
        raise InvalidConventionError(
            "option 'plain_two_refa': 'included' needs a plain_two other than 'declarer_wins' "
            '(seed 002 "Kontra": a plain two is one "without \'game\' and without refa")',
            gettext_noop(
                "%(option)s: “%(value)s” needs a plain two other than “%(other)s” (a plain two "
                "is one without game and without refa)."
            ),
            {"option": "plain_two_refa", "value": "included", "other": "declarer_wins"},
        )


#: Croatian Preference, seed 002's main text (Medjimurje): German-suited cards.
CROATIAN: Final = BalkanConvention(
    key="croatian",
    name="Hrvatski preferans (Croatian)",
    aliases=("hrvatski", "hr", "croatia", "medjimurje", "međimurje"),
)

#: Serbian Preference (seed 002 "variations played in Serbia"): counter-clockwise, pik, karo,
#: herc, tref, betl, sans; pik without kontra gives a refa or scores only under the hat; igra
#: betl / sans only at the first turn; preferans (8) as an option.
SERBIAN: Final = BalkanConvention(
    key="serbian",
    name="Srpski preferans (Serbian)",
    aliases=("srpski", "sr", "serbia", "српски"),
    contract_names=(
        (2, "pik"),
        (3, "karo"),
        (4, "herc"),
        (5, "tref"),
        (6, "betl"),
        (7, "sans"),
        (8, "preferans"),
    ),
    direction="counter-clockwise",
    plain_two="refa_or_hat",
    igra_commits_to_trumps=True,
)

#: Slovenian Preference (seed 002 "variations played in Slovenia"): berač, sans atout, radlc;
#: leaves without kontra is thrown in, with a radlc for everyone when nobody is under the hat.
SLOVENIAN: Final = BalkanConvention(
    key="slovenian",
    name="Slovenski preferans (Slovenian)",
    aliases=("slovenski", "sl", "slovenia"),
    contract_names=(
        (2, "pik"),
        (3, "karo"),
        (4, "srce"),
        (5, "križ"),
        (6, "berač"),
        (7, "sans atout"),
        (8, "preferans"),
    ),
    refa_word="radlc",
    plain_two="thrown_in",
)

CONVENTIONS: Final[dict[str, BalkanConvention]] = {
    c.key: c for c in (CROATIAN, SERBIAN, SLOVENIAN)
}
_BY_NAME: Final[dict[str, BalkanConvention]] = {
    name.lower(): c for c in CONVENTIONS.values() for name in (c.key, *c.aliases)
}


def find_convention(name: str) -> BalkanConvention:
    """The Balkan convention with this key or alias (case-insensitive).

    :raises rules.conventions.InvalidConventionError: naming the known conventions.
    """
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        known = ", ".join(CONVENTIONS)
        raise unknown_convention(f"unknown convention {name!r}; known: {known}", name) from None


def contract_name(contract: int, game: bool = False) -> str:
    """The contract in neutral words: ``"5"``, ``"igra 5"``, ``"betl"``, ``"igra sans"``."""
    word = {BETTEL: "betl", SANS: "sans", PREFERANS: "preferans"}.get(contract, str(contract))
    return f"igra {word}" if game else word
