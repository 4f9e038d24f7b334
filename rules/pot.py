"""The pot games: Viennese Préférence (seed 000) and German Préférence (seed 003), as parameters.

Neither game keeps a score sheet: chips (units) change hands every deal, between the players and
a **pot** (potten, der Einsatz). Each game is one frozen :class:`PotConvention` with validated
options; every point reading aid, variants §5–6 leaves open is an option whose default
is the seed's reading (A-VI-…, A-DE-…).

Vocabulary (the players' words). Viennese (000, Swedish text): **grundinsats** (base stake *G*),
**enhet** (unit, *G*/10), **maxbelopp** (maximum amount *MAX*), **potten**, **köp** (the talon
exchange), **utan köp** (u.k., without the talon), **spel** (1–3 utan köp), **premiekontrakt**
(hjärter, fem …), **efterköp**, **går med** / **stannar hemma** (go along / stay home), **bjuder
in** (invites), **tvång** (forced play), **faller** (falls), **förhandling** (negotiation),
**rundpass** / **krypspel** (all passed). German (003): **Einsatz** (stake), **Spielmarken**
(chips), **mitgehen** / **daheim bleiben**, **aus der Hand** (without the talon), **Prämie** (Herz),
**fallen**, **Höchstgrenze** (agreed maximum).

A contract is a :class:`PotContract`: a level and whether it is played without the talon.
Viennese levels 1–4 are the trump suits (klöver, spader, ruter, hjärter) with köp; ``1u``–``3u``
the spel; ``4u`` is **hjärter** ("Motsvarar fyra utan köp", 000 "Premiekontrakt"); 5–8 fem, sex,
sju, åtta with köp and ``5u``–``8u`` utan köp. German levels 1–4 are Kreuz, Pik, Karo, Herz
(Prämie); ``u`` is aus der Hand.

>>> VIENNESE.amount_for(20), VIENNESE.amount_for(50), VIENNESE.max_amount_units
(20, 30, 30)
>>> PotContract.from_code("5u").premium_stakes(), PotContract.from_code("4u").name("viennese")
(2, 'hjärter')
>>> PotContract.from_code("4u").rank == PotContract.from_code("5").rank
True
>>> find_convention("Wiener").key, find_convention("deutsch").herz_premium
('viennese', 5)
>>> VIENNESE.with_options(base_stake=25)
Traceback (most recent call last):
...
rules.conventions.InvalidConventionError: option 'base_stake': 25 is not a whole number of chips divisible by ten, from 10 to 100000 (000 "Förberedelser")
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
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
    "PotContract",
    "InvalidPotContractError",
    "PotConvention",
    "VIENNESE",
    "GERMAN",
    "CONVENTIONS",
    "OPTION_CHOICES",
    "OPTION_RANGES",
    "VIENNESE_OPTIONS",
    "GERMAN_OPTIONS",
    "find_convention",
    "with_stake",
    "LEVEL_WORDS",
]

#: Level names in the players' words (000 "Kontrakten"; 003 "Eins", "Zwei", "Drei", Herz).
LEVEL_WORDS: Final[dict[str, dict[int, str]]] = {
    "viennese": {1: "1", 2: "2", 3: "3", 4: "4", 5: "fem", 6: "sex", 7: "sju", 8: "åtta"},
    "german": {1: "Eins", 2: "Zwei", 3: "Drei", 4: "Prämie"},
}
NO_TALON_WORDS: Final = {"viennese": "utan köp", "german": "aus der Hand"}


class InvalidPotContractError(ValueError):
    """A contract code or name that names no pot-game contract; the message quotes it."""


@dataclass(frozen=True, slots=True, order=True)
class PotContract:
    """A contract of a pot game: ``level`` 1–8 and ``hand`` (without the talon: u.k., aus der Hand).

    ``code`` is the language-neutral form used in JSON: ``"3"``, ``"2u"``, ``"4u"`` (hjärter),
    ``"5"`` (fem), ``"8u"`` (åtta utan köp).
    """

    level: int
    hand: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 8:
            raise InvalidPotContractError(f"contract level {self.level!r} is not from 1 to 8")

    @classmethod
    def from_code(cls, code: str) -> PotContract:
        """``"3"``, ``"2u"`` … (see the class docstring).

        :raises InvalidPotContractError: quoting the code.
        """
        m = re.fullmatch(r"([1-8])(u?)", code.strip().lower()) if isinstance(code, str) else None
        if m is None:
            raise InvalidPotContractError(
                f"contract {code!r} is not a level 1–8 with an optional 'u' (e.g. '3', '2u', '5u')"
            )
        return cls(int(m.group(1)), bool(m.group(2)))

    @property
    def code(self) -> str:
        return f"{self.level}{'u' if self.hand else ''}"

    def __str__(self) -> str:
        return self.code

    # --- Viennese categories (000 "Kontrakten") ---------------------------------------
    @property
    def is_kop(self) -> bool:
        """Trump contracts with köp, 1–4 (000 "Trumfkontrakt med köp")."""
        return self.level <= 4 and not self.hand

    @property
    def is_spel(self) -> bool:
        """1–3 utan köp, the "spel" (000 "Spel")."""
        return self.level <= 3 and self.hand

    @property
    def is_hearts(self) -> bool:
        """Hjärter (4 u.k.), the premium contract with trumps and the go-along question."""
        return self.level == 4 and self.hand

    @property
    def is_premium(self) -> bool:
        """Hjärter and every contract from fem up (000 "Premiekontrakt")."""
        return self.level >= 5 or self.is_hearts

    @property
    def asks_defenders(self) -> bool:
        """Whether the defenders choose to go along: 1–4, 1–3 u.k. and hjärter (000 "Gå med…")."""
        return self.level <= 4

    @property
    def rank(self) -> int:
        """Viennese ladder rank (variants.md §5.2): 1–4, 1u–3u, hjärter = fem, fem u.k., sex …"""
        if self.level <= 4:
            return self.level + (4 if self.hand else 0)
        return 8 + 2 * (self.level - 5) + int(self.hand)

    def premium_stakes(self) -> int:
        """The premium in base stakes (000 "Betalning"): hjärter 1, fem 1, fem u.k. 2 … åtta u.k. 5;
        0 for the contracts without one. "Om kontraktet spelas utan köp, adderas en grundinsats."
        """
        if self.is_hearts:
            return 1
        if self.level >= 5:
            return self.level - 4 + int(self.hand)
        return 0

    def target(self) -> tuple[int, int]:
        """The declarer's tricks that make the contract, as an inclusive range (000 "Premiekontrakt"):
        fem and sju (bettel, plauderer) 0; sex and åtta (mord) 10; all others 6 or more."""
        if self.level in (5, 7):
            return (0, 0)
        if self.level in (6, 8):
            return (10, 10)
        return (6, 10)

    def made(self, tricks: int) -> bool:
        low, high = self.target()
        return low <= tricks <= high

    def name(self, game: str, *, ascii: bool = False) -> str:
        """The contract in the players' words: ``"3 utan köp"``, ``"hjärter"``, ``"Zwei aus der Hand"``."""
        if game == "viennese" and self.is_hearts:
            text = "hjärter"
        else:
            word = LEVEL_WORDS[game].get(self.level, str(self.level))
            text = f"{word} {NO_TALON_WORDS[game]}" if self.hand else word
        return _ascii(text) if ascii else text


def _ascii(text: str) -> str:
    return (
        text.replace("Prämie", "Praemie").replace("ä", "a").replace("å", "a").replace("ö", "o")
        .replace("Ä", "A").replace("Å", "A").replace("Ö", "O")
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class PotConvention:
    """The parameters of one pot game. Defaults are the seeds' readings; amounts are in chips.

    ``game`` is ``"viennese"`` (seed 000) or ``"german"`` (seed 003); :attr:`option_names` are the
    options that apply to it (the other game's options are refused).
    """

    key: str
    name: str
    game: str
    aliases: tuple[str, ...] = ()
    #: The language of the players' words in the text notation: "sv" (000) or "de" (003).
    language: str = "sv"
    #: Players at a table: three or four in Vienna (000 "Spel på fyra personer": the dealer
    #: sits out), three in Germany (003 "Spieler: 3").
    table_sizes: tuple[int, ...] = (3, 4)
    #: The seed the game's rules come from.
    seed: str = "000"

    # --- both games -----------------------------------------------------------------------
    #: What the dealer puts into the pot every deal. Viennese: ``None`` means one base stake
    #: (000 "Giv": "sätter en grundinsats i den"); German: the dealer's ten Spielmarken (003).
    ante: int | None = None
    #: The pot left when the table stops (the issue's event option; the seeds are silent):
    #: ``"share"`` shared equally among the table's players, so the table sums to zero;
    #: ``"keep"`` left in the pot: each result is the player's net and the table sums to minus
    #: the pot.
    pot_end: str = "share"

    # --- Viennese (000) ---------------------------------------------------------------------
    #: G, the base stake (grundinsats) in chips, divisible by ten: a unit is G/10 (000 "Förberedelser").
    base_stake: int = 10
    #: MAX, the maximum amount played for, in chips; ``None`` means three base stakes (the
    #: seed's example, 000 "Förberedelser": "till exempel tre grundinsatser").
    max_amount: int | None = None
    #: A-VI-3: ``"each"`` every going defender needs 2 tricks (000; the payment example), or the
    #: Croatian-style ``"team"``: with both going, one falls only if the defence has < 4 and he < 2.
    defender_quota: str = "each"
    #: A-VI-4: after an invitation ``"inviter"`` is paid for both defenders' tricks (000
    #: "Betalning"), or ``"own"``: each defender is paid for his own.
    invitation_pay: str = "inviter"
    #: A-VI-5: premium payments are a fixed number of G (default), or each is cut to MAX.
    premium_cap: bool = False
    #: 000 "Varianter": ``"all"`` premium contracts, ``"five_six"`` (without sju and åtta) or
    #: ``"hearts"`` (hjärter only; no "illustrerad préférence").
    premiums: str = "all"
    #: 000 "Förhandling": whether a negotiated split is allowed at this table.
    negotiation: bool = True
    #: 000 "Varianter": trumftvång (must trump when void). Changes the play, not the payments.
    trump_obligation: bool = False

    # --- German (003) -----------------------------------------------------------------------
    #: The Prämie: each opponent pays the Herz declarer this many chips, or is paid it (003).
    herz_premium: int = 5
    #: The agreed maximum (Höchstgrenze, 003: "sollte eine Höchstgrenze festgelegt werden");
    #: 0 means none agreed.
    cap: int = 0
    #: A-DE-1: the cap limits ``"penalties"`` (the double and single stakes brought into the next
    #: pot are computed from min(stake, cap); the stake paid out is never cut) or the ``"stake"``
    #: itself (only min(pot, cap) is paid out, the rest stays, as in Vienna).
    cap_applies: str = "penalties"
    #: A-DE-2: the Prämie is paid by and to ``"both"`` opponents, including one who stayed home,
    #: or only the ``"going"`` ones.
    premium_payers: str = "both"
    #: A-DE-3: a hand game of the same suit as a talon bid is ``"suit"`` not higher (flagged as
    #: undefined), or ``"hand_higher"``: it outranks it.
    hand_game_rank: str = "suit"
    #: How long the German auction lasts. 003 names one turn each ("Vorhand muss also entweder
    #: passen oder melden: Eins … Mittelhand kann ebenfalls passen oder muss überbieten (Zwei).
    #: Der Kartengeber hat das gleiche Recht: er passt oder meldet Drei") but also "Wer am
    #: höchsten gereizt hat" and "Wer schon gereizt hat, darf kein Handspiel mehr ansagen",
    #: which presuppose a bidder speaking again. ``"rounds"`` (default, that reading): the
    #: auction goes round until two have passed, and a bidder may raise again; ``"one_round"``
    #: (the seeds' README: "one-round bidding Eins/Zwei/Drei"): each speaks once.
    bidding: str = "rounds"

    def __post_init__(self) -> None:
        if self.game == "viennese" and self.max_units() < self.base_stake:
            raise InvalidConventionError(
                f"option 'max_amount': {self.max_amount!r} is below the base stake "
                f'{self.base_stake} (000 "Förberedelser")',
                gettext_noop("%(option)s: “%(value)s” is below the base stake %(stake)s."),
                {"option": "max_amount", "value": self.max_amount, "stake": self.base_stake},
            )

    # --- options ------------------------------------------------------------------------------
    @property
    def option_names(self) -> tuple[str, ...]:
        return VIENNESE_OPTIONS if self.game == "viennese" else GERMAN_OPTIONS

    def with_options(self, **overrides: object) -> PotConvention:
        """A copy with options changed; names and values are validated.

        :raises rules.conventions.InvalidConventionError: an unknown option, an option of the
            other game, or a bad value (quoting it and the seed section).
        """
        for name, value in overrides.items():
            if name not in self.option_names:
                known = ", ".join(self.option_names)
                raise unknown_option(
                    f"unknown option {name!r} for {self.name}; known options: {known}", name
                )
            _validate(name, value)
        return dataclasses.replace(self, **overrides)  # type: ignore[arg-type]

    def options(self) -> dict[str, object]:
        """This game's options as a dict."""
        return {name: getattr(self, name) for name in self.option_names}

    # --- derived amounts -------------------------------------------------------------------------
    @property
    def ante_units(self) -> int:
        """The dealer's ante in chips."""
        if self.ante is not None:
            return self.ante
        return self.base_stake if self.game == "viennese" else 10

    def max_units(self) -> int:
        return 3 * self.base_stake if self.max_amount is None else self.max_amount

    @property
    def max_amount_units(self) -> int:
        """MAX in chips (three base stakes unless agreed otherwise)."""
        return self.max_units()

    @property
    def stake(self) -> int:
        """The table's unit of agreement: G (Viennese) or the dealer's chips (German)."""
        return self.base_stake if self.game == "viennese" else self.ante_units

    def amount_for(self, pot: int) -> int:
        """What a deal is played for, given the pot after the ante.

        Viennese A = min(pot, MAX) (000 "Betalning"); German the whole pot (003 "Einsatz"), or
        min(pot, cap) when the cap applies to the stake (A-DE-1 alternative).
        """
        if self.game == "viennese":
            return min(pot, self.max_units())
        if self.cap and self.cap_applies == "stake":
            return min(pot, self.cap)
        return pot

    def penalty_base(self, stake: int) -> int:
        """German: the stake a fall is computed from (A-DE-1: min(stake, cap) if a cap is agreed)."""
        return min(stake, self.cap) if self.cap else stake

    def allows(self, contract: PotContract) -> bool:
        """Whether the contract exists in this game with these options (000 "Varianter"; 003)."""
        if self.game == "german":
            return contract.level <= 4
        if contract.level <= 4:
            return True
        if self.premiums == "hearts":
            return False
        return self.premiums == "all" or contract.level <= 6


_SHARED: Final = ("ante", "pot_end")
VIENNESE_OPTIONS: Final = (
    "base_stake", "max_amount", *_SHARED, "defender_quota", "invitation_pay", "premium_cap",
    "premiums", "negotiation", "trump_obligation",
)  # fmt: skip
GERMAN_OPTIONS: Final = (
    *_SHARED, "herz_premium", "cap", "cap_applies", "premium_payers", "hand_game_rank",
    "bidding",
)  # fmt: skip

#: Allowed values of the string options.
OPTION_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "pot_end": ("share", "keep"),
    "defender_quota": ("each", "team"),
    "invitation_pay": ("inviter", "own"),
    "premiums": ("all", "five_six", "hearts"),
    "cap_applies": ("penalties", "stake"),
    "premium_payers": ("both", "going"),
    "hand_game_rank": ("suit", "hand_higher"),
    "bidding": ("rounds", "one_round"),
}
#: Allowed ranges of the integer options (inclusive). ``ante`` and ``max_amount`` may also be
#: ``None`` (their seed defaults); chip amounts marked in :data:`_TENS` must divide by ten.
OPTION_RANGES: Final[dict[str, tuple[int, int]]] = {
    "base_stake": (10, 100_000),
    "max_amount": (10, 1_000_000),
    "ante": (10, 100_000),
    "herz_premium": (0, 100_000),
    "cap": (0, 1_000_000),
}
_TENS: Final = {
    "base_stake": '000 "Förberedelser"',
    "max_amount": '000 "Förberedelser"',
    "ante": '000 "Giv", 003',
    "cap": "003",
}
_NULLABLE: Final = frozenset({"ante", "max_amount"})


def _validate(name: str, value: object) -> None:
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
        if value is None and name in _NULLABLE:
            return
        low, high = OPTION_RANGES[name]
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        if name in _TENS:
            if not ok or value % 10:  # type: ignore[operator]
                raise InvalidConventionError(
                    f"option {name!r}: {value!r} is not a whole number of chips divisible by "
                    f"ten, from {low} to {high} ({_TENS[name]})",
                    gettext_noop(
                        "%(option)s: “%(value)s” is not a whole number of chips divisible by "
                        "ten, from %(low)s to %(high)s."
                    ),
                    {"option": name, "value": value, "low": low, "high": high},
                )
        elif not ok:
            raise out_of_range(name, value, low, high)
    elif not isinstance(value, bool):
        raise not_yes_or_no(f"option {name!r}: {value!r} is not true or false", name, value)


#: Viennese Préférence, seed 000 (the Swedish text on the Austrian game).
VIENNESE: Final = PotConvention(
    key="viennese",
    name="Wiener Préférence (Viennese)",
    game="viennese",
    aliases=(
        "wienerpreferans",
        "wiener",
        "wien",
        "österreichisch",
        "osterreichisch",
        "austrian",
        "vienna",
        "wiener préférence",
    ),
    language="sv",
)

#: German Préférence, seed 003.
GERMAN: Final = PotConvention(
    key="german",
    name="Deutsche Préférence (German)",
    game="german",
    aliases=("deutsch", "deutsche", "préférence", "preference", "de"),
    language="de",
    table_sizes=(3,),
    seed="003",
    ante=10,
)

CONVENTIONS: Final[dict[str, PotConvention]] = {c.key: c for c in (VIENNESE, GERMAN)}
_BY_NAME: Final[dict[str, PotConvention]] = {
    name.lower(): c for c in CONVENTIONS.values() for name in (c.key, *c.aliases)
}


def find_convention(name: str) -> PotConvention:
    """The pot-game convention with this key or alias (case-insensitive).

    :raises rules.conventions.InvalidConventionError: naming the known conventions.
    """
    try:
        return _BY_NAME[name.strip().lower()]
    except (KeyError, AttributeError):
        known = ", ".join(CONVENTIONS)
        raise unknown_convention(f"unknown convention {name!r}; known: {known}", name) from None


def with_stake(
    convention: str, stake: int | None, options: Mapping[str, object] | None = None
) -> dict[str, object]:
    """``options`` with the event's stake, its game size (G, the grundinsats, in Vienna: 000
    "Förberedelser"; the dealer's chips in Germany: 003), where they do not set it themselves:
    the one place the protocol's header, the blank and filled sheets and the settings page read
    the stake from, so that they all play the same one.

    >>> with_stake("viennese", 20, {})
    {'base_stake': 20}
    >>> with_stake("viennese", 10, {}), with_stake("german", 10, {"cap": 30})
    ({}, {'cap': 30})
    >>> with_stake("viennese", 20, {"base_stake": 30})
    {'base_stake': 30}
    """
    conv = find_convention(convention)
    merged = dict(options or {})
    if stake is not None and stake != conv.stake:
        merged.setdefault("base_stake" if conv.game == "viennese" else "ante", stake)
    return merged
