"""The 32-card deck of the three-handed families and its one-character code.

The code is that of prefko's Portable Preferans Notation (PPN, the ``cards`` field): the cards
7 to ace of spades are ``1``–``8``, of diamonds ``9``, ``A``–``G``, of hearts ``H``–``O``, of
clubs ``P``–``W``. A card's short name is its rank (``7 8 9 X J Q K A``; ``X`` is the ten, as
PPN writes it) and its suit letter (``S D H C``).

>>> Card.from_code("1"), Card.from_code("W").short, len(DECK)
(Card(suit='S', rank='7'), 'AC', 32)
>>> [c.code for c in DECK[:3]], DECK[-1].code
(['1', '2', '3'], 'W')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["Card", "DECK", "SUITS", "RANKS", "CardError"]

#: Suits in PPN's order: spades, diamonds, hearts, clubs.
SUITS: Final[str] = "SDHC"
#: Ranks low to high; ``X`` is the ten.
RANKS: Final[str] = "789XJQKA"
_CODES: Final[str] = "12345678" "9ABCDEFG" "HIJKLMNO" "PQRSTUVW"
#: The suits' symbols, for hand records.
SYMBOLS: Final[dict[str, str]] = {"S": "♠", "D": "♦", "H": "♥", "C": "♣"}


class CardError(ValueError):
    """A card that does not exist in the 32-card deck."""


@dataclass(frozen=True)
class Card:
    suit: str
    rank: str

    def __post_init__(self) -> None:
        if self.suit not in SUITS or self.rank not in RANKS or len(self.suit) != 1 or len(self.rank) != 1:
            raise CardError(f"no card {self.rank}{self.suit} in the 32-card deck")

    @property
    def index(self) -> int:
        """0–31 in PPN's order."""
        return SUITS.index(self.suit) * 8 + RANKS.index(self.rank)

    @property
    def code(self) -> str:
        """PPN's one-character code."""
        return _CODES[self.index]

    @property
    def short(self) -> str:
        """Rank and suit letter, e.g. ``XH`` for the ten of hearts."""
        return f"{self.rank}{self.suit}"

    @property
    def label(self) -> str:
        """Rank and suit symbol for people, e.g. ``10♥``."""
        return ("10" if self.rank == "X" else self.rank) + SYMBOLS[self.suit]

    @classmethod
    def from_code(cls, code: str) -> Card:
        i = _CODES.find(code.upper()) if len(code) == 1 else -1
        if i < 0:
            raise CardError(f"{code!r} is not a card's code (PPN: 1–8, 9, A–W)")
        return DECK[i]

    @classmethod
    def from_short(cls, text: str) -> Card:
        t = text.strip().upper()
        if t.startswith("10"):
            t = "X" + t[2:]
        if len(t) != 2:
            raise CardError(f"{text!r} is not a card (rank 7 8 9 X J Q K A and suit S D H C)")
        return cls(t[1], t[0])


DECK: Final[tuple[Card, ...]] = tuple(Card(s, r) for s in SUITS for r in RANKS)
