"""Boards: the prepared deals of a duplicate event, generated from a seed or read from a file.

A board (Croatian kodeks čl. 02, "natjecateljski bord") holds one deal: its number, its dealer
and the 32 cards as three hands of ten and the two-card talon. The hands belong to the board's
seats 1, 2, 3 in the order of play (clockwise); whoever sits in a seat at a table takes that
seat's hand, so every table plays the same cards from the same seats.

**From a seed.** As for the draws (docs/draw-record.md), the organiser publishes the SHA-256 of
a seed before play (:func:`seed_sha256`) and the seed afterwards; anyone re-deals the boards
with :func:`generate_boards`. Board ``n``'s cards are the deck in PPN's order shuffled by
Fisher–Yates, from the last card down, each position ``i`` swapped with ``j`` drawn uniformly
from ``0..i``: the draws come from 32-bit big-endian words of
``SHA-256("pulka-duplicate-1:" + seed + ":" + n + ":" + k)`` for ``k = 0, 1, …`` (eight words a
block), a word ``w`` rejected when ``w >= 2**32 - 2**32 % (i + 1)`` and otherwise taken as
``j = w % (i + 1)``. The first ten cards go to seat 1, the next ten to seat 2, then seat 3,
the last two are the talon. Board ``n``'s dealer is seat ``(n - 1) % 3 + 1``, as bridge boards
rotate the dealer.

**From a file.** One board a line, ``<number>. <dealer> <32 cards>``: the number, the dealer's
seat (1–3) and the cards in PPN's code (:mod:`.cards`), seat 1's ten first, then seat 2's and
seat 3's, the talon last — the first three fields of a PPN deal line. ``#`` starts a comment.

>>> b = generate_boards("example", 1)[0]
>>> b.number, b.dealer, len(b.hands[0]), len(b.talon)
(1, 1, 10, 2)
>>> read_boards(format_boards([b])) == (b,)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..findings import gettext_noop
from .cards import DECK, Card, CardError

__all__ = [
    "Board",
    "BoardFileError",
    "ALGORITHM",
    "generate_boards",
    "seed_sha256",
    "read_boards",
    "format_boards",
]

#: The name and version of the dealing algorithm, recorded beside a seed.
ALGORITHM: Final[str] = "pulka-duplicate-1"
SEATS: Final[int] = 3


class BoardFileError(ValueError):
    """A board file that cannot be read: names the line and the field.

    ``message`` is in English (the logs, the API); ``text`` and ``params`` say the whole error
    for people, a :func:`~scoring.findings.gettext_noop` template the Django side translates."""

    def __init__(self, line: int, field: str, message: str, text: str, **params: object) -> None:
        super().__init__(f"line {line}, {field}: {message}")
        self.line = line
        self.field = field
        self.message = message
        self.text = text
        self.params = {"line": line, **params}


@dataclass(frozen=True)
class Board:
    """One prepared deal. ``dealer`` is a seat, 1–3; ``hands[k]`` is seat ``k + 1``'s hand."""

    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    talon: tuple[Card, Card]

    def __post_init__(self) -> None:
        if self.number < 1:
            raise ValueError(f"a board's number is 1 or more, not {self.number}")
        if not 1 <= self.dealer <= SEATS:
            raise ValueError(f"a board's dealer is seat 1, 2 or 3, not {self.dealer}")
        if any(len(h) != 10 for h in self.hands) or len(self.talon) != 2:
            raise ValueError("a board holds three hands of ten cards and a talon of two")
        cards = [c for h in self.hands for c in h] + list(self.talon)
        if len(set(cards)) != len(DECK):
            raise ValueError("a board holds each of the 32 cards once")

    @property
    def cards(self) -> str:
        """The 32 cards in PPN's code: seat 1, seat 2, seat 3, the talon."""
        return "".join(c.code for h in self.hands for c in h) + "".join(c.code for c in self.talon)

    def sorted_hand(self, seat: int) -> tuple[Card, ...]:
        """Seat ``seat``'s (1–3) hand in deck order, for a hand record."""
        return tuple(sorted(self.hands[seat - 1], key=lambda c: c.index))

    @classmethod
    def from_cards(cls, number: int, dealer: int, cards: str) -> Board:
        """A board from its 32 cards in PPN's code; ValueError naming the problem."""
        if len(cards) != 32:
            raise ValueError(f"a board has 32 cards, {len(cards)} given")
        deck = tuple(Card.from_code(ch) for ch in cards)
        return cls(number, dealer, (deck[0:10], deck[10:20], deck[20:30]), (deck[30], deck[31]))


def seed_sha256(seed: str) -> str:
    """The hash an organiser publishes before play (the commitment)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def _words(seed: str, number: int) -> Iterable[int]:
    k = 0
    while True:
        block = hashlib.sha256(f"{ALGORITHM}:{seed}:{number}:{k}".encode()).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        k += 1


def _shuffled(seed: str, number: int) -> list[Card]:
    deck = list(DECK)
    words = iter(_words(seed, number))
    for i in range(len(deck) - 1, 0, -1):
        span = i + 1
        limit = 2**32 - 2**32 % span
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % span
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def generate_boards(seed: str, count: int, *, first: int = 1) -> tuple[Board, ...]:
    """Boards ``first`` … ``first + count - 1`` dealt from ``seed`` (see the module's text)."""
    if not seed:
        raise ValueError("seed: a board's seed may not be empty")
    if count < 1 or first < 1:
        raise ValueError("count: at least one board, numbered from 1")
    out = []
    for n in range(first, first + count):
        deck = _shuffled(seed, n)
        out.append(
            Board(n, (n - 1) % SEATS + 1, (tuple(deck[0:10]), tuple(deck[10:20]), tuple(deck[20:30])),
                  (deck[30], deck[31]))
        )
    return tuple(out)


def read_boards(text: str) -> tuple[Board, ...]:
    """Boards from a board file (see the module's text); :class:`BoardFileError` if bad."""
    boards: list[Board] = []
    seen: set[int] = set()
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) < 3:
            raise BoardFileError(
                line_no, "line", "expected '<number>. <dealer> <32 cards>'",
                gettext_noop("Line %(line)d: expected the board's number and a dot, the dealer's seat and the 32 cards."),
            )
        number_text, dealer_text, cards = fields[0], fields[1], fields[2]
        if not number_text.endswith(".") or not number_text[:-1].isdigit() or int(number_text[:-1]) < 1:
            raise BoardFileError(
                line_no, "number", f"expected a board number and a dot, found {number_text!r}",
                gettext_noop("Line %(line)d: expected the board's number and a dot, found “%(found)s”."),
                found=number_text,
            )
        number = int(number_text[:-1])
        if number in seen:
            raise BoardFileError(
                line_no, "number", f"board {number} is given twice",
                gettext_noop("Line %(line)d: board %(board)d is given twice."), board=number,
            )
        if dealer_text not in ("1", "2", "3"):
            raise BoardFileError(
                line_no, "dealer", f"expected the dealer's seat 1, 2 or 3, found {dealer_text!r}",
                gettext_noop("Line %(line)d: the dealer's seat is 1, 2 or 3, not “%(found)s”."),
                found=dealer_text,
            )
        if len(cards) != 32:
            raise BoardFileError(
                line_no, "cards", f"expected 32 cards, found {len(cards)}",
                gettext_noop("Line %(line)d: a board has 32 cards, not %(n)d."), n=len(cards),
            )
        try:
            board = Board.from_cards(number, int(dealer_text), cards)
        except CardError as e:
            raise BoardFileError(
                line_no, "cards", str(e),
                gettext_noop("Line %(line)d: “%(found)s” holds a character that is not a card's code."),
                found=cards,
            ) from None
        except ValueError as e:
            raise BoardFileError(
                line_no, "cards", str(e),
                gettext_noop("Line %(line)d: a board holds each of the 32 cards once."),
            ) from None
        seen.add(number)
        boards.append(board)
    if not boards:
        raise BoardFileError(1, "file", "no board in the file", gettext_noop("The file holds no board."))
    return tuple(sorted(boards, key=lambda b: b.number))


def format_boards(boards: Sequence[Board]) -> str:
    """The board file of ``boards``."""
    return "".join(f"{b.number}. {b.dealer} {b.cards}\n" for b in boards)
