"""The input model of a Balkan game (seed 002): the deals a table played and the sheet it wrote.

All types are frozen dataclasses of plain values. Seats are 0-based indexes into
:attr:`BalkanProtocol.players`, listed **in playing order** (seed 002 "Players and Deal":
clockwise in Croatia and Slovenia, counter-clockwise in Serbia), so one set of rules serves both
directions (reading aid, variants §1.1): the deal and the bidding pass to the next seat,
and a declarer's **defenders** are, in that order, the next seat and the one after.

:class:`BalkanProtocol`
  ``players``      three names in playing order.
  ``bula``         the declarer columns' starting score (seed 002 "Scoring": "typical starting
                   levels are 30, 50, or more"), written without a sign, meaning minus.
  ``convention``   ``"croatian"``, ``"serbian"``, ``"slovenian"`` or an alias (:mod:`rules.balkan`).
  ``options``      overrides of the convention's parameters, sorted ``(name, value)`` pairs.
  ``first_dealer`` seat of the first dealer.
  ``deals``        :class:`Hand`, :class:`AllPass` or :class:`Penalty`, in playing order.
  ``ending``       :class:`scoring.model.Ending`: ``closed`` means the declarer columns summed
                   to zero (seed 002 "Ending the Game"); ``time-limit`` / ``agreement`` a game
                   stopped before (A-HR-4).

:class:`Hand` (a contract was declared)
  ``declarer``        seat.
  ``contract``        2–5 the trump suit (leaves/pik, bells/karo, hearts/herc, acorns/tref),
                      6 betl (bettel, berač), 7 sans (sanac, sans atout), 8 preferans (Serbia).
  ``game``            igra: played without the talon, worth one more (seed 002 "The Contract").
  ``defence``         the two defenders' decisions in defending order (the declarer's next seat,
                      then the other): ``play`` (ide), ``drop`` (ne ide) or ``invite`` (plays and
                      invites the partner who dropped, seed 002 "The Defenders' Decisions").
  ``kontra``          the doubling level: 0 none, 1 kontra, 2 rekontra, 3 subkontra, 4 mortkontra …
  ``kontra_by``       the seat of the defender who said kontra (the host of the defence); ``None``
                      without kontra.
  ``tricks``          tricks per seat (a defender who dropped and was not invited has 0);
                      ``None`` when there was no play (both defenders dropped; a plain two no one
                      kontra'd). Play stops when the defence has five (seed 002), so the tricks
                      sum to 10, or the defenders' to 5.
  ``auction``         optional bidding as ``(seat, bid)`` pairs in speaking order; bids are
                      ``"pass"``, ``"2"``…``"8"``, ``"same"`` (i ja), ``"igra"``, and a revealed
                      game ``"igra 5"``, ``"igra betl"``, ``"igra sans"`` (checked by the checker).
  ``dealer``          the dealer as written on the sheet, or ``None``; checked against the rotation.

:class:`AllPass` (everybody passed: a refa / radlc round, seed 002 "Refa")
  ``dealer``          as for :class:`Hand`.

:class:`Penalty` (a referee's ruling written on the sheet; seed 002 defines none)
  ``player``          the offender's seat.
  ``rule``            the rule or ruling reference, free text.
  ``column``          points added to the offender's declarer column (against him).
  ``soups``           ``(writer seat, points)``: soup other players write against the offender.
  ``note``            free text.

:class:`BalkanSheet` (what the players wrote, for checking)
  ``running``         per deal the row written after it, or ``None`` where nothing was copied.
  ``final``           the last row, or ``None``.
  ``result``          each player's final calculation, or ``None``.
Each row holds one :class:`BalkanSheetLine` per seat: the declarer column **signed** (−bula at
the start, positive under the hat), the soups written against each seat (0 at his own) and the
number of unplayed refas (the horizontal lines without a diagonal stroke).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from scoring.model import Bid, Ending, OptionValue

__all__ = [
    "Defence",
    "Hand",
    "AllPass",
    "Penalty",
    "BalkanDeal",
    "BalkanProtocol",
    "BalkanSheetLine",
    "BalkanSheetRow",
    "BalkanSheet",
    "Ending",
]


class Defence(enum.StrEnum):
    """A defender's decision (seed 002 "The Defenders' Decisions")."""

    PLAY = "play"  # ide, igram: plays, with a quota of two tricks
    DROP = "drop"  # ne ide, dalje: does not play
    INVITE = "invite"  # zove: plays and invites the partner, answering for four tricks


@dataclass(frozen=True, slots=True)
class Hand:
    """A declared contract (see the module docstring)."""

    declarer: int
    contract: int
    game: bool = False
    defence: tuple[Defence, ...] = (Defence.PLAY, Defence.PLAY)
    kontra: int = 0
    kontra_by: int | None = None
    tricks: tuple[int, ...] | None = None
    auction: tuple[Bid, ...] | None = None
    dealer: int | None = None

    def defenders(self, size: int = 3) -> tuple[int, int]:
        """The defenders' seats in defending order: the declarer's next seat, then the other."""
        return ((self.declarer + 1) % size, (self.declarer + 2) % size)


@dataclass(frozen=True, slots=True)
class AllPass:
    """Everybody passed (see the module docstring)."""

    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class Penalty:
    """A referee's penalty entry (see the module docstring)."""

    player: int
    rule: str = ""
    column: int = 0
    soups: tuple[tuple[int, int], ...] = ()
    note: str = ""


BalkanDeal = Hand | AllPass | Penalty


@dataclass(frozen=True, slots=True)
class BalkanProtocol:
    """A table's Balkan game as recorded (see the module docstring)."""

    players: tuple[str, ...]
    bula: int
    deals: tuple[BalkanDeal, ...] = ()
    convention: str = "croatian"
    options: tuple[tuple[str, OptionValue], ...] = ()
    first_dealer: int = 0
    ending: Ending = Ending.CLOSED

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def target(self) -> int:
        """The agreed size of the game, as every family names it for the tournament: the bula."""
        return self.bula

    def with_options(self, **overrides: OptionValue) -> BalkanProtocol:
        merged = dict(self.options)
        merged.update(overrides)
        return replace(self, options=tuple(sorted(merged.items())))

    def with_deals(self, deals: tuple[BalkanDeal, ...]) -> BalkanProtocol:
        return replace(self, deals=deals)


@dataclass(frozen=True, slots=True)
class BalkanSheetLine:
    """One player's written state: declarer column (signed), soups against each seat, refas."""

    column: int
    soups: tuple[int, ...]
    refas: int = 0


BalkanSheetRow = tuple[BalkanSheetLine, ...]


@dataclass(frozen=True, slots=True)
class BalkanSheet:
    """What the players wrote (see the module docstring)."""

    running: tuple[BalkanSheetRow | None, ...] = ()
    final: BalkanSheetRow | None = None
    result: tuple[int, ...] | None = field(default=None)
