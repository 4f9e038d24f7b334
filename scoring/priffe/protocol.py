"""The input model of a Priffe game (seed 004): the sits, the deals and the sheet the table wrote.

All types are frozen dataclasses of plain values. Players are 0-based indexes into
:attr:`PriffeProtocol.players`. Partnerships (bolag) change from sits to sits, so a deal names
its **sits** and every side-by-side value (tricks, what was written below and above the line) is
a pair indexed by the **sides of that sits**: side 0 is the first and third player of its
seating, side 1 the second and fourth.

:class:`PriffeProtocol`
  ``players``      four names.
  ``target``       the agreed length: the number of sits (1–3; three, so that everyone partners
                   everyone, seed 004 "tre sitsar"), or in the simpler variant the number of deals
                   (option ``play="deals"``) or the total below the line (``play="total"``).
  ``convention``   ``"modern"`` or ``"old"`` (gammaldags) or an alias (:mod:`rules.priffe`).
  ``options``      overrides of the convention's options, sorted ``(name, value)`` pairs.
  ``sittings``     per sits its seating: the four players clockwise, starting with the sits'
                   first dealer. Seed 004 drew the first seating by lot ("Först drar man om
                   sittningen"); the schedule for changing seats after a sits is missing from the
                   text ("nedanstående schema"), so each sits' seating is recorded (A-PR-5).
  ``deals``        :class:`Hand` or :class:`Penalty` entries in playing order.
  ``ending``       :class:`scoring.model.Ending`: ``closed`` when the agreed sits were won
                   (simpler variant: the deals played, the total reached); ``time-limit`` /
                   ``agreement`` for a game stopped before; ``in-progress`` while being played.

:class:`Hand` (one deal)
  ``sits``      0-based index into ``sittings``.
  ``contract``  :class:`rules.priffe.Contract`: pref, noll, hjärter, ruter (old: klöver,
                spader), or tvångsnoll when no contract was bid (seed 004 "Budgivning").
  ``declarer``  the player who made the final bid; ``None`` at tvångsnoll.
  ``tricks``    tricks per side of the sits (side 0, side 1); they sum to 13.
  ``honours``   :class:`Honours` claims; at most one hand can hold three or four honours.
  ``bids``      optional: the four bids in speaking order from forehand (the dealer's left):
                ``"pass"`` or a contract word; checked by :func:`rules.priffe.auction_problems`.
  ``dealer``    the dealer as written, or ``None``; checked against the rotation (the dealer
                passes clockwise, seat by seat of the sits' seating).

:class:`Honours`
  ``holder``    the player holding three or all four honours in his hand.
  ``pattern``   ``"4"`` all four in one hand (modern 50), ``"3+1"`` three in one hand and the
                fourth with the partner (40), ``"3"`` three in one hand (30).

:class:`Penalty` (a referee's ruling; seed 004 defines none)
  ``sits``, ``player`` (the offender), ``points`` written **above the line for the offender's
  opponents** (bridge practice), ``rule`` and ``note`` free text.

:class:`PriffeSheet` (what the players wrote, for checking)
  ``entries``   per deal what each side wrote (:class:`SheetEntry`) or ``None`` where nothing
                was copied; may be shorter than the deals.
  ``sits``      per sits the side totals written at its end (below and above the line), or
                ``None``.
  ``result``    each player's total, or ``None``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from rules.priffe import Contract
from scoring.model import Ending, OptionValue

__all__ = [
    "Contract",
    "Ending",
    "HonoursPattern",
    "Honours",
    "Hand",
    "Penalty",
    "PriffeDeal",
    "Seating",
    "PriffeProtocol",
    "SheetEntry",
    "PriffeSheet",
    "default_sittings",
    "partnership",
]

#: Four players clockwise, the sits' first dealer first.
Seating = tuple[int, int, int, int]


class HonoursPattern(enum.StrEnum):
    """How the honours lie (seed 004 "poäng för att ha fått honnörerna")."""

    FOUR = "4"  # alla fyra på samma hand
    THREE_AND_ONE = "3+1"  # tre på en hand och den fjärde hos medspelaren
    THREE = "3"  # tre av honnörerna på samma hand


@dataclass(frozen=True, slots=True)
class Honours:
    """Honours held in one hand (see the module docstring)."""

    holder: int
    pattern: HonoursPattern


@dataclass(frozen=True, slots=True)
class Hand:
    """One deal (see the module docstring)."""

    sits: int
    contract: Contract
    declarer: int | None
    tricks: tuple[int, int]
    honours: tuple[Honours, ...] = ()
    bids: tuple[str, ...] | None = None
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class Penalty:
    """A referee's penalty entry (see the module docstring)."""

    sits: int
    player: int
    points: int
    rule: str = ""
    note: str = ""


PriffeDeal = Hand | Penalty


def partnership(seating: Seating) -> frozenset[frozenset[int]]:
    """The two partnerships of a seating: first and third, second and fourth.

    >>> sorted(sorted(p) for p in partnership((0, 1, 2, 3)))
    [[0, 2], [1, 3]]
    """
    return frozenset({frozenset({seating[0], seating[2]}), frozenset({seating[1], seating[3]})})


def default_sittings(first_dealer: int = 0) -> tuple[Seating, Seating, Seating]:
    """Pulka's seating schedule for the three sits, used where the table records none.

    The seed's schedule is missing (A-PR-5); this one gives each player each partner once, the
    first dealer of the game dealing first in every sits: with players a, b, c, d clockwise,
    a+c, then a+b, then a+d.

    >>> default_sittings(0)
    ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))
    >>> default_sittings(2)[0]
    (2, 3, 0, 1)
    """
    a, b, c, d = ((first_dealer + k) % 4 for k in range(4))
    return ((a, b, c, d), (a, c, b, d), (a, b, d, c))


@dataclass(frozen=True, slots=True)
class PriffeProtocol:
    """A table's Priffe game as recorded (see the module docstring)."""

    players: tuple[str, ...]
    target: int = 3
    sittings: tuple[Seating, ...] = ()
    deals: tuple[PriffeDeal, ...] = ()
    convention: str = "modern"
    options: tuple[tuple[str, OptionValue], ...] = ()
    ending: Ending = Ending.CLOSED

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def first_dealer(self) -> int:
        """The first dealer of the game: the first seating's first player."""
        return self.sittings[0][0] if self.sittings else 0

    def with_options(self, **overrides: OptionValue) -> PriffeProtocol:
        merged = dict(self.options)
        merged.update(overrides)
        return replace(self, options=tuple(sorted(merged.items())))

    def with_deals(self, deals: tuple[PriffeDeal, ...]) -> PriffeProtocol:
        return replace(self, deals=deals)

    def seating(self, sits: int) -> Seating | None:
        """The seating of sits ``sits`` (0-based), or ``None`` when it was not recorded."""
        return self.sittings[sits] if 0 <= sits < len(self.sittings) else None

    def side_of(self, player: int, sits: int) -> int | None:
        """The side (0 or 1) of ``player`` in sits ``sits``, or ``None``."""
        seating = self.seating(sits)
        if seating is None or player not in seating:
            return None
        return seating.index(player) % 2


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """What the two sides wrote for one deal: below and above the line, and whether a line was
    drawn under it (utgång: a game was won)."""

    below: tuple[int, int] = (0, 0)
    above: tuple[int, int] = (0, 0)
    game: bool = False


@dataclass(frozen=True, slots=True)
class PriffeSheet:
    """What the players wrote (see the module docstring)."""

    entries: tuple[SheetEntry | None, ...] = ()
    sits: tuple[tuple[int, int] | None, ...] = ()
    result: tuple[int, ...] | None = None
