"""The input model of a pot game (seeds 000 and 003): the deals a table played and its ledger.

All types are frozen dataclasses of plain values. Seats are 0-based indexes into
:attr:`PotProtocol.players`, **clockwise** (000 "Giv": "Given går liksom spelet i övrigt medsols"),
so a player's left-hand neighbour is the next seat. The deal passes to the next seat.

Who plays a deal: with three players all three; with four the dealer sits out (000 "Spel på fyra
personer"). The **active** seats in speaking order are forehand (förhand, Vorhand: the dealer's
left), then clockwise; with three players the dealer speaks last. A declarer's **defenders**
(medspelare, Mitspieler) in defending order are the active seat to his left, then the other
(000 "Gå med eller stanna hemma": "Spelaren till vänster om spelföraren talar först").

:class:`PotProtocol`
  ``players``      3 or 4 names in seat order (German Préférence is for three, 003 "Spieler: 3").
  ``convention``   ``"viennese"`` or ``"german"`` or an alias (:mod:`rules.pot`).
  ``options``      overrides of the convention's parameters, sorted ``(name, value)`` pairs.
  ``first_dealer`` seat of the first dealer (000 "Förberedelser": highest card; 003 "ausgelost").
  ``deals``        :class:`Hand`, :class:`Rundpass` or :class:`Penalty`, in playing order.
  ``ending``       :class:`scoring.model.Ending`.
  ``opening_pot``  chips in the pot before the first deal (0 at a tournament table).

:class:`Hand` (a contract)
  ``declarer``    the auction's winner (spelförare, Spielhalter).
  ``contract``    the contract he named (:class:`rules.pot.PotContract`).
  ``efterkop``    the efterköp chain after a final bid 1–4 (000 "Efterköp"): ``(seat, contract)``
                  in order; the last efterköper is the **playing declarer** (:attr:`Hand.player`)
                  of his contract (:attr:`Hand.played`).
  ``defence``     the defenders' decisions in defending order, relative to the playing declarer:
                  :class:`Decision`. Two for 1–4, 1–3 u.k. and hjärter (and every German game);
                  empty where nobody is asked (fem and higher, and after an efterköp).
  ``tricks``      tricks per seat (a seat that did not play has 0), summing to 10; ``None`` when
                  both defenders stayed home (no play). After an invitation each defender's own.
  ``negotiated``  the tricks are an agreed split, not played (000 "Förhandling").
  ``auction``     optional bidding as ``(seat, bid)`` pairs in speaking order. Bids are ``"pass"``,
                  a contract code (``"2"``, ``"1u"``, ``"4u"`` hjärter, ``"5"``, ``"5u"`` …),
                  ``"spel"`` (000: 1–3 u.k. without naming the suit) and, German only,
                  ``"herz"`` (Herz said without "Prämie", 003).
  ``dealer``      the dealer as recorded, or ``None``; checked against the rotation.

:class:`Rundpass` (all passed)
  ``tricks``      Viennese: the krypspel tricks per seat (000 "Budgivningen", "Betalning");
                  German: ``None`` (003 says nothing; the deal is thrown in, the pot stays).
  ``auction``, ``dealer`` as for :class:`Hand`.

:class:`Penalty` (a referee's ruling; not a deal: the deal does not pass on)
  ``player``      the offender's seat.
  ``rule``        the rule reference, free text.
  ``to_pot``      chips the offender pays into the pot.
  ``to_players``  ``(seat, chips)``: what the offender pays other players.
  ``note``        free text.

:class:`Ledger` (what the players wrote, for checking)
  ``running``  per deal the row written after it (each player's cumulative net and the pot), or
               ``None`` where nothing was written.
  ``final``    each player's final result after the pot is handled at the end, or ``None``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from fractions import Fraction

from rules.pot import PotContract, PotConvention, find_convention
from scoring.model import Bid, Ending, OptionValue

__all__ = [
    "Decision",
    "Hand",
    "Rundpass",
    "Penalty",
    "PotDeal",
    "PotProtocol",
    "LedgerRow",
    "Ledger",
    "Ending",
    "PotContract",
    "active_seats",
    "defenders_of",
]


class Decision(enum.StrEnum):
    """A defender's decision (000 "Gå med eller stanna hemma"; 003 "mitgehen", "daheim bleiben")."""

    GO = "go"  # går med, mitgehen: plays, answers for 2 tricks
    HOME = "home"  # stannar hemma, daheim bleiben: lays down his cards
    INVITE = "invite"  # går med och bjuder in: plays, invites the partner, answers for 4 together
    INVITED = "invited"  # inbjuden: plays after an invitation; answers for nothing, paid nothing
    FORCED = "forced"  # tvång: plays because the pot holds one base stake

    @property
    def plays(self) -> bool:
        return self is not Decision.HOME


@dataclass(frozen=True, slots=True)
class Hand:
    """A contract (see the module docstring)."""

    declarer: int
    contract: PotContract
    defence: tuple[Decision, ...] = ()
    tricks: tuple[int, ...] | None = None
    efterkop: tuple[tuple[int, PotContract], ...] = ()
    negotiated: bool = False
    auction: tuple[Bid, ...] | None = None
    dealer: int | None = None

    @property
    def player(self) -> int:
        """The playing declarer: the last efterköper, else the declarer."""
        return self.efterkop[-1][0] if self.efterkop else self.declarer

    @property
    def played(self) -> PotContract:
        """The contract played: the last efterköp's, else the declarer's."""
        return self.efterkop[-1][1] if self.efterkop else self.contract


@dataclass(frozen=True, slots=True)
class Rundpass:
    """All passed (see the module docstring)."""

    tricks: tuple[int, ...] | None = None
    auction: tuple[Bid, ...] | None = None
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class Penalty:
    """A referee's penalty entry (see the module docstring)."""

    player: int
    rule: str = ""
    to_pot: int = 0
    to_players: tuple[tuple[int, int], ...] = ()
    note: str = ""


PotDeal = Hand | Rundpass | Penalty


@dataclass(frozen=True, slots=True)
class PotProtocol:
    """A table's pot game as recorded (see the module docstring)."""

    players: tuple[str, ...]
    deals: tuple[PotDeal, ...] = ()
    convention: str = "viennese"
    options: tuple[tuple[str, OptionValue], ...] = ()
    first_dealer: int = 0
    ending: Ending = Ending.CLOSED
    opening_pot: int = 0

    @property
    def size(self) -> int:
        return len(self.players)

    def rules(self) -> PotConvention:
        """The convention with the options applied.

        :raises rules.conventions.InvalidConventionError: an unknown name or option.
        """
        conv = find_convention(self.convention)
        return conv.with_options(**dict(self.options)) if self.options else conv

    @property
    def target(self) -> int:
        """The agreed stake (the family's "game size"): G in Vienna, the dealer's chips in Germany."""
        return self.rules().stake

    def with_options(self, **overrides: OptionValue) -> PotProtocol:
        merged = dict(self.options)
        merged.update(overrides)
        return replace(self, options=tuple(sorted(merged.items())))

    def with_deals(self, deals: tuple[PotDeal, ...]) -> PotProtocol:
        return replace(self, deals=deals)


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One written ledger line: each player's cumulative net and the pot, in chips."""

    nets: tuple[int, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class Ledger:
    """What the players wrote (see the module docstring)."""

    running: tuple[LedgerRow | None, ...] = ()
    final: tuple[Fraction, ...] | None = None


def active_seats(size: int, dealer: int) -> tuple[int, ...]:
    """The seats that play a deal, in speaking order from forehand (000 "Giv", "Spel på fyra").

    >>> active_seats(3, 0), active_seats(4, 0)
    ((1, 2, 0), (1, 2, 3))
    """
    if size == 4:
        return tuple((dealer + k) % 4 for k in (1, 2, 3))
    return tuple((dealer + k) % size for k in (1, 2, 3))


def defenders_of(size: int, dealer: int, declarer: int) -> tuple[int, int]:
    """The declarer's defenders in defending order: his left (the next active seat), then right.

    >>> defenders_of(3, 0, 1), defenders_of(4, 0, 3)
    ((2, 0), (1, 2))
    """
    seats = active_seats(size, dealer)
    if declarer not in seats:
        raise ValueError(f"seat {declarer + 1} does not play this deal (dealer {dealer + 1} sits out)")
    order = sorted((s for s in seats if s != declarer), key=lambda s: (s - declarer) % size)
    return (order[0], order[1])
