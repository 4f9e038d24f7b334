"""The input model: a table's record of a pulka (the protocol) and the sheet it wrote.

All types are frozen dataclasses of plain values, so they hash, compare and
serialise without surprises. Seats are 0-based indexes into
:attr:`Protocol.players`, in clockwise seat order (001 §3.2.2: the deal passes
to the left, i.e. to the next seat). Nothing here computes; :mod:`scoring.russian.pulka`
scores a protocol and :mod:`scoring.russian.check` checks one.

Fields, one by one
------------------

:class:`Protocol`
  ``players``      names in seat order, 3 or 4 (001 §3.2.10: with four the dealer
                   sits out, "сидит на прикупе").
  ``target``       the pulka size: points each pulya must reach (001 §4.2.2), e.g. 10, 20, 50.
  ``convention``   key or alias of a convention in :mod:`rules.conventions`
                   (``"sochi"``, ``"leningrad"``, ``"rostov"``, ``"classic"``).
  ``options``      overrides of that convention's parameters, as sorted
                   ``(name, value)`` pairs; values are ``str``, ``int``, ``bool`` or ``None``.
                   :meth:`Protocol.with_options` builds it from keywords.
  ``first_dealer`` seat of the first dealer (001 §3.2.1: drawn by lot).
  ``deals``        the deals in playing order: :class:`Game`, :class:`Raspasy` or
                   :class:`Penalty`. A penalty is an entry, not a deal of cards: it does
                   not pass the deal on.
  ``ending``       :class:`Ending`: how the table finished (001 §4.2.3, §4.2.14, §4.2.15).

:class:`Game` (a contract for tricks, or misère)
  ``declarer``         seat of the declarer (разыгрывающий).
  ``contract``         :class:`rules.contracts.Contract`; misère is :data:`rules.contracts.MISERE`.
  ``calls``            the defenders' calls in whisting order: first the next active seat
                       clockwise from the declarer, then the one after (with four players the
                       dealer is skipped). Each a :class:`Call`. Two calls for a contract for
                       tricks; empty for misère (a misère is never whisted, 001 §3.6).
  ``declarer_tricks``  tricks the declarer took; ``None`` when the deal was not played
                       (both passed, 001 §3.5.3, or полвиста, 001 §3.8.7).
  ``defender_tricks``  optional split of the defence's tricks, in whisting order (two ints).
                       Required when both defenders whisted (001 §3.8.6 makes each answer
                       for his own half); otherwise optional.
  ``open``             the whister played open (в светлую, 001 §3.8.5); changes no writing.
  ``auction``          optional bidding as ``(seat, bid)`` pairs in speaking order, bid texts
                       as spoken: ``"6♠"``, ``"pass"``, ``"mis"`` … (checked by
                       :func:`rules.bidding.check_auction` when that module is present).
  ``multiplier``       Classic coefficient for bombs and dark bids (001 notes 29–31);
                       1 elsewhere.
  ``talon_premium``    tricks' worth of talon premium the dealer writes (001 §3.4.11);
                       0 unless the convention enables ``talon_premiums``.
  ``dealer``           the dealer as recorded on the sheet, or ``None``; checked against the
                       rotation (001 §3.2.2).

:class:`Raspasy` (all passed, распасы, 001 §3.7)
  ``tricks``      per seat; ``None`` for a seat with no count (with four players in Rostov
                  the dealer, 001 §3.7.6.2). With four players otherwise the dealer's entry
                  is the tricks the talon cards won for him (0–2, 001 §3.7.6.1).
  ``multiplier``  Classic coefficient (raspasy after a dark pass, 001 §3.3.19); 1 elsewhere.
  ``dealer``      as for :class:`Game`.

:class:`Penalty` (a referee's or the table's penalty entry)
  ``player``  the offender's seat.
  ``rule``    the rule reference, e.g. ``"3.2.21"`` (looking at the talon: 5 in the gora).
  ``gora``    points written into the offender's gora.
  ``pulya``   points written off the offender's pulya (001 §4.2.7, e.g. a false entry).
  ``whists``  ``(writer seat, amount)`` pairs: whists other players write on the offender
              (001 §3.3.16.3: "вторая рука пишет на нарушителя 52 виста").
  ``note``    free text.

:class:`Sheet` (what the players wrote, for checking)
  ``running``  per deal, the running totals written after it (001 §4.2.5), a
               :data:`SheetRow` or ``None`` where nothing was copied; may be shorter than
               the deals.
  ``final``    the final totals used for the settlement (after the end conversion of
               001 §4.2.3 / §4.2.3.3), a :data:`SheetRow`.
  ``result``   the written result of each player in whists (001 §4.2.14), after rounding.

A :data:`SheetRow` holds one :class:`SheetLine` per seat: ``pulya``, ``gora`` and
``whists`` (a tuple indexed by seat: what this player wrote on each other player,
0 at his own seat).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rules.contracts import Contract

from ..model import Bid, Ending, OptionValue

__all__ = [
    "Call",
    "Ending",
    "Game",
    "Raspasy",
    "Penalty",
    "Deal",
    "Bid",
    "OptionValue",
    "Protocol",
    "SheetLine",
    "SheetRow",
    "Sheet",
]


class Call(enum.StrEnum):
    """A defender's call on a contract for tricks (001 §3.8)."""

    WHIST = "whist"  # вист
    PASS = "pass"  # пас
    #: полвиста, 6 and 7 only: the second defender after the first passed (001 §3.8.7); in
    #: gentleman whist also the first defender after the second passed (001 §3.8.14).
    HALF = "half"
    #: said полвиста, then the partner returned the whist (001 §3.8.8): the partner's call is
    #: then ``WHIST``; the half-whister writes only consolation at the declarer's remiz
    #: (001 §3.8.14; in gentleman whist nothing at all with the option
    #: ``returned_half_consolation`` off, D21) and answers for nothing.
    HALF_RETURNED = "half-returned"


@dataclass(frozen=True, slots=True)
class Game:
    """A contract for tricks or a misère (see the module docstring)."""

    declarer: int
    contract: Contract
    calls: tuple[Call, ...] = ()
    declarer_tricks: int | None = None
    defender_tricks: tuple[int, ...] | None = None
    open: bool = False
    auction: tuple[Bid, ...] | None = None
    multiplier: int = 1
    talon_premium: int = 0
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class Raspasy:
    """All passed: tricks per seat (see the module docstring)."""

    tricks: tuple[int | None, ...]
    multiplier: int = 1
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty entry with its rule reference (see the module docstring)."""

    player: int
    rule: str
    gora: int = 0
    pulya: int = 0
    whists: tuple[tuple[int, int], ...] = ()
    note: str = ""


Deal = Game | Raspasy | Penalty


@dataclass(frozen=True, slots=True)
class Protocol:
    """A table's pulka as recorded (see the module docstring).

    >>> from rules.contracts import Contract

from ..model import Bid, Ending, OptionValue
    >>> p = Protocol(players=("Anna", "Boris", "Vera"), target=10,
    ...              deals=(Game(0, Contract.from_str("6♠"), (Call.WHIST, Call.PASS), 6),))
    >>> p.with_options(whist_style="gentleman").options
    (('whist_style', 'gentleman'),)
    """

    players: tuple[str, ...]
    target: int
    deals: tuple[Deal, ...] = ()
    convention: str = "sochi"
    options: tuple[tuple[str, OptionValue], ...] = ()
    first_dealer: int = 0
    ending: Ending = Ending.CLOSED

    @property
    def size(self) -> int:
        """Number of players at the table (3 or 4)."""
        return len(self.players)

    def with_options(self, **overrides: OptionValue) -> Protocol:
        """A copy with these convention options added or replaced."""
        merged = dict(self.options)
        merged.update(overrides)
        return _replace(self, options=tuple(sorted(merged.items())))

    def with_deals(self, deals: tuple[Deal, ...]) -> Protocol:
        """A copy with these deals."""
        return _replace(self, deals=deals)


def _replace(protocol: Protocol, **changes: object) -> Protocol:
    return replace(protocol, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One player's written totals: pulya, gora, whists on each seat."""

    pulya: int
    gora: int
    whists: tuple[int, ...]


#: One :class:`SheetLine` per seat.
SheetRow = tuple[SheetLine, ...]


@dataclass(frozen=True, slots=True)
class Sheet:
    """What the players wrote (see the module docstring)."""

    running: tuple[SheetRow | None, ...] = ()
    final: SheetRow | None = None
    result: tuple[Fraction, ...] | None = field(default=None)
