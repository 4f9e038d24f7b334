"""The deck, the denominations and the contract ladder of Russian Preference.

Everything here follows seed 001 (the Kodeks): the 32-card deck, the
denominations ♠ < ♣ < ♦ < ♥ < БК (without trumps, без козыря), the ladder of
contracts 6♠ … 10БК with misère (мизер) between 8БК and 9♠ (001 §2.2.2), the
pulya price of each level (the seed's closing line "Очки за игры: 6-рная – 2,
7-рная – 4, 8-рная – 6, 9-рная – 8, 10-рная – 10, мизер – 10") and the
whisters' obligation 4/2/1/1/1 (001 §2.2.2, §3.8.2).

>>> Contract.from_str("6S") < Contract.from_str("6♣") < Contract.from_str("6NT")
True
>>> str(Contract.from_str("мизер")), Contract.from_str("mis").price
('мизер', 10)
>>> Contract.from_str("8БК") < MISERE < Contract.from_str("9♠")
True
>>> [str(c) for c in LADDER[:3]], len(LADDER)
(['6♠', '6♣', '6♦'], 26)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

__all__ = [
    "Denomination",
    "Rank",
    "Card",
    "DECK",
    "Contract",
    "MISERE",
    "LADDER",
    "LEVELS",
    "PULYA_PRICE",
    "WHIST_OBLIGATION",
    "InvalidContractError",
]


class InvalidContractError(ValueError):
    """A contract spelling that cannot be read; the message quotes it."""


class Denomination(enum.IntEnum):
    """Trump suit or no trumps, in the order of the ladder (001 §2.2.2)."""

    SPADES = 0  # пики
    CLUBS = 1  # трефы (крести)
    DIAMONDS = 2  # бубны
    HEARTS = 3  # черви
    NO_TRUMP = 4  # без козыря, БК

    @property
    def symbol(self) -> str:
        """The symbol printed on a protocol: ``♠ ♣ ♦ ♥ БК``."""
        return _SYMBOLS[self]

    @property
    def ascii(self) -> str:
        """ASCII spelling: ``S C D H NT``."""
        return _ASCII[self]

    @classmethod
    def from_str(cls, text: str) -> Denomination:
        """Read a denomination in any accepted spelling.

        >>> Denomination.from_str("бк"), Denomination.from_str("h")
        (<Denomination.NO_TRUMP: 4>, <Denomination.HEARTS: 3>)

        :raises InvalidContractError: for an unknown spelling.
        """
        key = _normalise(text)
        try:
            return _DENOMINATION_SPELLINGS[key]
        except KeyError:
            raise InvalidContractError(f"unknown suit {text!r}") from None


_SYMBOLS: Final = {
    Denomination.SPADES: "♠",
    Denomination.CLUBS: "♣",
    Denomination.DIAMONDS: "♦",
    Denomination.HEARTS: "♥",
    Denomination.NO_TRUMP: "БК",
}
_ASCII: Final = {
    Denomination.SPADES: "S",
    Denomination.CLUBS: "C",
    Denomination.DIAMONDS: "D",
    Denomination.HEARTS: "H",
    Denomination.NO_TRUMP: "NT",
}
_DENOMINATION_SPELLINGS: Final[dict[str, Denomination]] = {
    **{s: Denomination.SPADES for s in ("♠", "♤", "s", "п", "пики", "spades")},
    **{s: Denomination.CLUBS for s in ("♣", "♧", "c", "т", "к", "трефы", "крести", "clubs")},
    **{s: Denomination.DIAMONDS for s in ("♦", "♢", "d", "б", "бубны", "diamonds")},
    **{s: Denomination.HEARTS for s in ("♥", "♡", "h", "ч", "черви", "hearts")},
    **{s: Denomination.NO_TRUMP for s in ("бк", "nt", "bk", "n", "бескозырка", "notrump")},
}


def _normalise(text: str) -> str:
    return text.strip().lower().replace("\ufe0f", "").replace(" ", "").replace("-", "")


class Rank(enum.IntEnum):
    """Card ranks of the 32-card deck, seven to ace (001 §2.1)."""

    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Suits use :class:`Denomination` without ``NO_TRUMP``."""

    rank: Rank
    suit: Denomination

    def __str__(self) -> str:
        names = {11: "J", 12: "Q", 13: "K", 14: "A"}
        return f"{names.get(self.rank, str(int(self.rank)))}{self.suit.symbol}"


#: The 32-card deck, ♠7 first (001 §2.1; 10 cards to each of three hands + 2 in the talon).
DECK: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit) for suit in list(Denomination)[:4] for rank in Rank
)

#: The levels of contracts for tricks.
LEVELS: Final = (6, 7, 8, 9, 10)

#: Pulya price P of a level (seed 001, "Очки за игры"); misère is keyed 0.
PULYA_PRICE: Final[dict[int, int]] = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10, 0: 10}

#: Tricks the whisting side must take (001 §2.2.2, §3.8.2); no obligation on misère.
WHIST_OBLIGATION: Final[dict[int, int]] = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1, 0: 0}

_MISERE_SPELLINGS: Final = frozenset({"mis", "misere", "misère", "мизер", "миз", "m", "м"})


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract: ``level`` 6–10 with a :class:`Denomination`, or misère.

    Misère is ``Contract(0, None)`` (:data:`MISERE`). Contracts compare by their
    place on the ladder (001 §2.2.2), so ``MISERE`` sits between 8БК and 9♠.

    >>> Contract.from_str("7bk"), Contract.from_str("7NT") == Contract(7, Denomination.NO_TRUMP)
    (Contract(level=7, denomination=<Denomination.NO_TRUMP: 4>), True)
    >>> Contract.from_str("10♥").obligation, Contract.from_str("6 ♦").price
    (1, 2)
    """

    level: int
    denomination: Denomination | None

    def __post_init__(self) -> None:
        if self.denomination is None:
            if self.level != 0:
                raise InvalidContractError(f"level {self.level!r} needs a suit (misère is level 0)")
        elif self.level not in LEVELS:
            raise InvalidContractError(f"level {self.level!r} is not one of 6–10")

    @property
    def is_misere(self) -> bool:
        return self.denomination is None

    @property
    def price(self) -> int:
        """Pulya price P: 2/4/6/8/10, misère 10."""
        return PULYA_PRICE[self.level]

    @property
    def obligation(self) -> int:
        """Whisting side's obligatory tricks 4/2/1/1/1 (001 §3.8.2); 0 on misère."""
        return WHIST_OBLIGATION[self.level]

    @property
    def rank(self) -> int:
        """Index on :data:`LADDER` (0 for 6♠, 15 for misère, 25 for 10БК)."""
        if self.denomination is None:
            return 15
        step = (self.level - 6) * 5 + int(self.denomination)
        return step + 1 if self.level >= 9 else step

    def __lt__(self, other: Contract) -> bool:
        return self.rank < other.rank

    def __le__(self, other: Contract) -> bool:
        return self.rank <= other.rank

    def __gt__(self, other: Contract) -> bool:
        return self.rank > other.rank

    def __ge__(self, other: Contract) -> bool:
        return self.rank >= other.rank

    def __str__(self) -> str:
        if self.denomination is None:
            return "мизер"
        return f"{self.level}{self.denomination.symbol}"

    @property
    def ascii(self) -> str:
        """ASCII spelling: ``6S``, ``7NT``, ``mis``."""
        if self.denomination is None:
            return "mis"
        return f"{self.level}{self.denomination.ascii}"

    @classmethod
    def from_str(cls, text: str) -> Contract:
        """Read ``6♠``, ``6S``, ``6s``, ``7NT``, ``7БК``, ``7bk``, ``mis``, ``мизер`` …

        :raises InvalidContractError: quoting the text when it is not a contract.
        """
        key = _normalise(text)
        if key in _MISERE_SPELLINGS:
            return MISERE
        if key.startswith("10"):
            level_text, rest = key[:2], key[2:]
        else:
            level_text, rest = key[:1], key[1:]
        if not level_text.isdigit() or not rest:
            raise InvalidContractError(f"{text!r} is not a contract (expected e.g. 6♠, 7NT, mis)")
        level = int(level_text)
        if level not in LEVELS:
            raise InvalidContractError(f"{text!r}: level {level} is not one of 6–10")
        try:
            denomination = _DENOMINATION_SPELLINGS[rest]
        except KeyError:
            raise InvalidContractError(f"{text!r}: unknown suit {rest!r}") from None
        return _BY_KEY[(level, denomination)]


MISERE: Final = Contract(0, None)

#: The 26 contracts from 6♠ to 10БК with misère after 8БК (001 §2.2.2).
LADDER: Final[tuple[Contract, ...]] = tuple(
    sorted(
        [Contract(level, d) for level in LEVELS for d in Denomination] + [MISERE],
        key=lambda c: c.rank,
    )
)
_BY_KEY: Final[dict[tuple[int, Denomination], Contract]] = {
    (c.level, c.denomination): c for c in LADDER if c.denomination is not None
}
