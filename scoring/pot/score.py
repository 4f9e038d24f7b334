"""Scoring a pot game: every deal's transfers between the players and the pot, exactly.

A transfer is ``(payer, payee, amount, kind)``; a party is a seat or :data:`POT`. Per deal, in
this order (Viennese, 000 "Giv" and "Betalning"):

1. the dealer's **ante** into the pot ("Denna insats skall alltid sättas");
2. *A*, the **amount played for**: min(pot, MAX); a trick is worth *A*/10; the deal is **forced**
   (tvång) when the pot holds one base stake (A-VI-1: after the ante);
3. for 1–4, 1–3 u.k. and hjärter: the declarer pays each going defender for his tricks (an
   inviter for both defenders', A-VI-4); with ≥ 6 tricks he takes *A* from the pot, else pays *A*
   into it; a going defender with < 2 tricks (A-VI-3), or an inviter whose side has < 4, falls
   and pays *A* into the pot; both staying home counts as ten tricks for the declarer;
4. the **premium** between the declarer and each defender, also one who stayed home: hjärter and
   fem 1 G, sex 2 G, sju 3 G, åtta 4 G, one more utan köp; fem and higher pay no trick money and
   no defender falls;
5. **rundpass**: the krypspel's top trick-taker(s) pay one base stake each into the pot.

German (003): the dealer's chips; the **stake** is the pot; every trick, the declarer's included,
is paid a tenth of it from the pot; both defenders home: the declarer takes the stake; a falling
declarer brings double the stake into the next pot, a going defender with < 2 tricks the single
stake (both counted as paid in at the end of the deal, variants.md §6; from min(stake, cap),
A-DE-1); Herz (Prämie) 5 chips from or to each opponent (A-DE-2).

>>> from rules.pot import PotContract
>>> from scoring.pot.protocol import Decision, Hand, PotProtocol
>>> go = (Decision.GO, Decision.GO)
>>> p = PotProtocol(players=("A", "B", "C"), opening_pot=10, first_dealer=2,
...                 deals=(Hand(0, PotContract(1), go, tricks=(5, 1, 4)),))
>>> d = score(p).deals[0]
>>> d.amount, d.trick_value, d.made, d.fell, d.nets, d.pot
(20, 2, False, (0, 1), (-30, -18, -2), 60)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from rules.pot import PotContract, PotConvention

from ..findings import gettext_noop, seat_number
from ..model import PENALTY_MAX, repeated_name
from .protocol import (
    Decision,
    Hand,
    Penalty,
    PotDeal,
    PotProtocol,
    Rundpass,
    active_seats,
    defenders_of,
)

__all__ = [
    "POT",
    "Party",
    "Transfer",
    "TrickPayment",
    "ScoredDeal",
    "ScoredGame",
    "PotScoringError",
    "score",
    "dealers",
]

#: The pot as a party of a transfer.
POT: Final = "pot"
Party = int | str


class PotScoringError(ValueError):
    """A record that cannot be scored at all: names the deal (1-based) and the field, in
    English (the command line, the API, the logs). ``text`` and ``params``: the reason for
    people, a :func:`gettext_noop` template (``{name}`` fields, as the findings') and its
    values, said in the reader's language by the Django side; a ``player`` param is a 0-based
    seat, said by the player's name (the checker's UNSCORABLE finding)."""

    def __init__(
        self, deal: int | None, field: str, message: str, text: str = "", **params: object
    ) -> None:
        place = f"deal {deal + 1}: " if deal is not None else ""
        super().__init__(f"{place}{field}: {message}")
        self.deal = deal
        self.field = field
        self.text = text
        self.params = params


@dataclass(frozen=True, slots=True)
class Transfer:
    """Chips moving from ``payer`` to ``payee`` (a seat or ``"pot"``) and why (``kind``):
    ``ante``, ``tricks``, ``take`` (the declarer takes *A*), ``fall``, ``premium``, ``rundpass``,
    ``penalty``."""

    payer: Party
    payee: Party
    amount: int
    kind: str


@dataclass(frozen=True, slots=True)
class TrickPayment:
    """A trick payment: ``payee`` paid ``amount`` for ``tricks`` tricks, by ``payer``."""

    payer: Party
    payee: int
    tricks: int
    amount: int


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """One deal scored. ``kind`` is ``hand``, ``rundpass`` or ``penalty``; fields that do not
    apply are ``None`` (a penalty has no dealer, a rundpass no amount played for)."""

    index: int
    kind: str
    dealer: int | None
    sitting_out: int | None
    pot_before: int
    ante: int
    amount: int | None
    #: A tenth of the amount: a whole number, or a :class:`~fractions.Fraction` when the
    #: amount is not a multiple of 10 (then each payment must still come out whole).
    trick_value: Fraction | int | None
    forced: bool
    declarer: int | None
    contract: PotContract | None
    made: bool | None
    fell: tuple[int, ...]
    trick_payments: tuple[TrickPayment, ...]
    premium_payments: tuple[Transfer, ...]
    transfers: tuple[Transfer, ...]
    nets: tuple[int, ...]
    pot: int
    #: German: the stake a fall is computed from (min(stake, cap)); ``None`` in Vienna.
    penalty_stake: int | None = None

    def change(self, seat: int) -> int:
        """The seat's net change in this deal."""
        got = sum(t.amount for t in self.transfers if t.payee == seat)
        return got - sum(t.amount for t in self.transfers if t.payer == seat)


@dataclass(frozen=True, slots=True)
class ScoredGame:
    """A scored pot game: the deals, the nets and the pot at the end, and the final results."""

    protocol: PotProtocol
    convention: PotConvention
    deals: tuple[ScoredDeal, ...]
    nets: tuple[int, ...]
    pot: int
    #: What each player receives of the pot left at the end (``pot_end``).
    shares: tuple[Fraction, ...]
    #: Each player's result: net plus share.
    final: tuple[Fraction, ...]


def dealers(protocol: PotProtocol) -> tuple[int | None, ...]:
    """The dealer of every entry by the rotation (a penalty has none and does not pass the deal)."""
    out: list[int | None] = []
    dealer = protocol.first_dealer
    for deal in protocol.deals:
        if isinstance(deal, Penalty):
            out.append(None)
        else:
            out.append(dealer)
            dealer = (dealer + 1) % protocol.size
    return tuple(out)


class _Ledger:
    """Running nets and pot; every transfer is applied here."""

    def __init__(self, size: int, pot: int) -> None:
        self.nets = [0] * size
        self.pot = pot
        self.transfers: list[Transfer] = []

    def pay(self, payer: Party, payee: Party, amount: int, kind: str) -> Transfer:
        t = Transfer(payer, payee, amount, kind)
        if amount == 0:
            return t
        for party, sign in ((payer, -1), (payee, 1)):
            if party == POT:
                self.pot += sign * amount
            else:
                self.nets[party] += sign * amount  # type: ignore[index]
        self.transfers.append(t)
        return t


def _trick_value(amount: int) -> Fraction | int:
    """A trick's worth, a tenth of the amount (000 "Betalning", 003 "pro Stich ein Zehntel des
    Einsatzes"): a whole number, or the exact fraction when the amount is not a multiple of 10."""
    value = Fraction(amount, 10)
    return int(value) if value.denominator == 1 else value


def _trick_money(i: int, tricks: int, value: Fraction | int, rule: str) -> int:
    """What ``tricks`` tricks are paid, exactly: a payment that is not a whole number of chips
    cannot be paid and the deal is refused, naming the rule (issue #37: 15 in the pot makes a
    trick worth 3/2, and one trick cannot be paid)."""
    money = tricks * value
    if isinstance(money, Fraction) and money.denominator != 1:
        amount = value * 10
        raise PotScoringError(
            i, "tricks", f"{tricks} {'trick' if tricks == 1 else 'tricks'} at a tenth of {amount} "
            f"each make {money} chips, not a "
            f"whole number: each trick is worth a tenth of the amount ({rule}), and {amount} is "
            "not a multiple of 10",
            gettext_noop("{tricks} × a tenth of {amount} makes {money} chips, not a whole "
                         "number: {amount} is not a multiple of 10"),
            tricks=tricks, amount=amount, money=str(money))  # fmt: skip
    return int(money)


def _tricks(i: int, deal: Hand | Rundpass, size: int, actives: tuple[int, ...]) -> tuple[int, ...]:
    tricks = deal.tricks
    if tricks is None:
        raise PotScoringError(i, "tricks", "missing: the deal was played, so its tricks are needed",
                              gettext_noop("the tricks are missing: the deal was played"))  # fmt: skip
    if len(tricks) != size or any(not 0 <= t <= 10 for t in tricks):
        raise PotScoringError(i, "tricks", f"{list(tricks)} is not one count 0–10 per seat",
                              gettext_noop("the tricks need one count from 0 to 10 per player"))  # fmt: skip
    if sum(tricks) != 10:
        raise PotScoringError(i, "tricks", f"{list(tricks)} sum to {sum(tricks)}, not 10",
                              gettext_noop("the tricks sum to {total}, not 10"), total=sum(tricks))  # fmt: skip
    for s in range(size):
        if s not in actives and tricks[s]:
            raise PotScoringError(i, "tricks", f"seat {s + 1} sits out this deal but has tricks",
                                  gettext_noop("{player} sits out this deal but has tricks"),
                                  player=s)  # fmt: skip
    return tricks


def _viennese_hand(
    i: int, conv: PotConvention, hand: Hand, size: int, dealer: int, book: _Ledger
) -> dict[str, object]:
    g = conv.base_stake
    amount = conv.amount_for(book.pot)
    value = _trick_value(amount)
    forced = book.pot == g
    player, contract = hand.player, hand.played
    defs = defenders_of(size, dealer, player)
    premium = contract.premium_stakes() * g
    if conv.premium_cap:
        premium = min(premium, conv.max_units())  # A-VI-5 alternative
    trick_payments: list[TrickPayment] = []
    fell: list[int] = []
    if contract.asks_defenders:
        if len(hand.defence) != 2:
            raise PotScoringError(i, "defence", "two decisions are needed (000 \"Gå med…\")",
                                  gettext_noop("both defenders' decisions are needed"))  # fmt: skip
        playing = [d for d, dec in zip(defs, hand.defence, strict=True) if dec.plays]
        if not playing:  # both home: "som att spelföraren har vunnit … och tagit alla tio sticken"
            made = True
        else:
            tricks = _tricks(i, hand, size, (player, *playing))
            by = dict(zip(defs, hand.defence, strict=True))
            inviter = next((d for d in defs if by[d] is Decision.INVITE), None)
            invited = next((d for d in defs if by[d] is Decision.INVITED), None)
            if inviter is not None and invited is not None and conv.invitation_pay == "inviter":
                paid = [(inviter, tricks[inviter] + tricks[invited])]
            else:
                paid = [(d, tricks[d]) for d in playing]
            for d, k in paid:
                money = _trick_money(i, k, value, '000 "Betalning"')
                book.pay(player, d, money, "tricks")
                trick_payments.append(TrickPayment(player, d, k, money))
            made = contract.made(tricks[player])
            if inviter is not None and invited is not None:
                if tricks[inviter] + tricks[invited] < 4:
                    fell.append(inviter)
            else:
                team = sum(tricks[d] for d in playing)
                for d in playing:
                    if conv.defender_quota == "team" and len(playing) == 2:
                        falls = tricks[d] < 2 and team < 4
                    else:
                        falls = tricks[d] < 2
                    if falls:
                        fell.append(d)
    else:  # fem and higher: both play, no trick money, no defender falls (000 "Betalning")
        tricks = _tricks(i, hand, size, (player, *defs))
        made = contract.made(tricks[player])
    if made:
        book.pay(POT, player, amount, "take")
    else:
        book.pay(player, POT, amount, "fall")
        fell.insert(0, player)
    for d in sorted(set(fell) - {player}, key=defs.index):
        book.pay(d, POT, amount, "fall")
    premiums = [
        book.pay(d, player, premium, "premium") if made else book.pay(player, d, premium, "premium")
        for d in defs
        if premium
    ]
    fell_sorted = tuple(s for s in (player, *defs) if s in fell)
    return dict(amount=amount, trick_value=value, forced=forced, made=made, fell=fell_sorted,
                trick_payments=tuple(trick_payments), premium_payments=tuple(premiums))  # fmt: skip


def _german_hand(
    i: int, conv: PotConvention, hand: Hand, size: int, dealer: int, book: _Ledger
) -> dict[str, object]:
    stake = conv.amount_for(book.pot)
    value = _trick_value(stake)
    base = conv.penalty_base(stake)
    player, contract = hand.player, hand.played
    defs = defenders_of(size, dealer, player)
    if len(hand.defence) != 2:
        raise PotScoringError(i, "defence", "two decisions are needed (003 \"mitgehen\")",
                              gettext_noop("both defenders' decisions are needed"))  # fmt: skip
    playing = [d for d, dec in zip(defs, hand.defence, strict=True) if dec.plays]
    trick_payments: list[TrickPayment] = []
    fell: list[int] = []
    if not playing:  # "Bleiben beide Mitspieler daheim, kassiert der Spielhalter den ganzen Einsatz"
        made = True
        book.pay(POT, player, stake, "take")
    else:  # "pro Stich ein Zehntel des Einsatzes, egal, ob jeder … gemacht hat"
        tricks = _tricks(i, hand, size, (player, *playing))
        for s in (player, *defs):
            if s == player or s in playing:
                money = _trick_money(
                    i, tricks[s], value, '003 "pro Stich ein Zehntel des Einsatzes"')
                book.pay(POT, s, money, "tricks")
                trick_payments.append(TrickPayment(POT, s, tricks[s], money))
        made = contract.made(tricks[player])
        if not made:  # "den doppelten Einsatz (um den es zuletzt ging) dazulegen"
            book.pay(player, POT, 2 * base, "fall")
            fell.append(player)
        for d in playing:  # "Erreicht ein Mitgeher nicht seine zwei Stiche … den einfachen Einsatz"
            if tricks[d] < 2:
                book.pay(d, POT, base, "fall")
                fell.append(d)
    premiums: list[Transfer] = []
    if contract.level == 4 and conv.herz_premium:  # Prämie, 003
        payers = defs if conv.premium_payers == "both" else tuple(playing)
        for d in payers:
            if made:
                premiums.append(book.pay(d, player, conv.herz_premium, "premium"))
            else:
                premiums.append(book.pay(player, d, conv.herz_premium, "premium"))
    return dict(amount=stake, trick_value=value, forced=False, made=made, fell=tuple(fell),
                trick_payments=tuple(trick_payments), premium_payments=tuple(premiums),
                penalty_stake=base)  # fmt: skip


def _rundpass(
    i: int, conv: PotConvention, deal: Rundpass, size: int, dealer: int, book: _Ledger
) -> dict[str, object]:
    fell: tuple[int, ...] = ()
    if conv.game == "viennese":  # krypspel: the top trick-taker(s) pay one base stake each
        actives = active_seats(size, dealer)
        tricks = _tricks(i, deal, size, actives)
        top = max(tricks[s] for s in actives)
        fell = tuple(s for s in actives if tricks[s] == top)
        for s in fell:
            book.pay(s, POT, conv.base_stake, "rundpass")
    elif deal.tricks is not None:
        raise PotScoringError(i, "tricks", "a German all-pass deal is not played (003 is silent)",
                              gettext_noop("in the German game a deal where all pass is not "
                                           "played, so it has no tricks"))  # fmt: skip
    return dict(amount=None, trick_value=None, forced=False, made=None, fell=fell,
                trick_payments=(), premium_payments=())  # fmt: skip


def _check_seat(i: int, field: str, seat: object, size: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < size:
        raise PotScoringError(i, field, f"seat {seat_number(seat)} is not at the table (seats 1 "
                              f"to {size})", gettext_noop("a seat that is not at the table"))  # fmt: skip


def _score_deal(
    i: int, conv: PotConvention, deal: PotDeal, size: int, dealer: int | None, book: _Ledger
) -> ScoredDeal:
    book.transfers = []
    before = book.pot
    if isinstance(deal, Penalty):
        _check_seat(i, "player", deal.player, size)
        for field, chips in (("to_pot", deal.to_pot), *(("to_players", c) for _, c in deal.to_players)):
            if chips > PENALTY_MAX:
                raise PotScoringError(i, field, f"{chips} chips are more than a penalty may be "
                                      f"(at most {PENALTY_MAX})",
                                      gettext_noop("{chips} chips are more than a penalty may be "
                                                   "(at most {most})"),
                                      chips=chips, most=PENALTY_MAX)  # fmt: skip
        book.pay(deal.player, POT, deal.to_pot, "penalty")
        for seat, chips in deal.to_players:
            _check_seat(i, "to_players", seat, size)
            book.pay(deal.player, seat, chips, "penalty")
        return ScoredDeal(i, "penalty", None, None, before, 0, None, None, False, deal.player,
                          None, None, (), (), (), tuple(book.transfers), tuple(book.nets),
                          book.pot)  # fmt: skip
    assert dealer is not None
    ante = conv.ante_units
    book.pay(dealer, POT, ante, "ante")
    sitting_out = dealer if size == 4 else None
    if isinstance(deal, Hand):
        _check_seat(i, "declarer", deal.declarer, size)
        for k, (seat, _) in enumerate(deal.efterkop):
            _check_seat(i, f"efterkop[{k}]", seat, size)
        if deal.player == sitting_out or deal.declarer == sitting_out:
            raise PotScoringError(i, "declarer", f"seat {seat_number(deal.player)} deals and sits out",
                                  gettext_noop("{player} deals and sits out this deal"),
                                  player=sitting_out)  # fmt: skip
        hand = _viennese_hand if conv.game == "viennese" else _german_hand
        parts = hand(i, conv, deal, size, dealer, book)
        kind, declarer, contract = "hand", deal.player, deal.played
    else:
        parts = _rundpass(i, conv, deal, size, dealer, book)
        kind, declarer, contract = "rundpass", None, None
    return ScoredDeal(
        index=i, kind=kind, dealer=dealer, sitting_out=sitting_out, pot_before=before, ante=ante,
        declarer=declarer, contract=contract, transfers=tuple(book.transfers),
        nets=tuple(book.nets), pot=book.pot, **parts,  # type: ignore[arg-type]
    )  # fmt: skip


def score(protocol: PotProtocol) -> ScoredGame:
    """Score every deal: transfers, nets and pot after each, and the final results.

    :raises PotScoringError: a record that cannot be scored (naming the deal and field).
    :raises rules.conventions.InvalidConventionError: an unknown convention or option.
    """
    conv = protocol.rules()
    size = protocol.size
    if size not in (3, 4):
        raise PotScoringError(None, "players", f"{size} players; a pot game has 3 or 4 (000)",
                              gettext_noop("{n} players; the game is for 3 or 4"), n=size)  # fmt: skip
    if conv.game == "german" and size != 3:
        raise PotScoringError(None, "players", f"{size} players; German Préférence has three "
                              '(003 "Spieler: 3")', gettext_noop("{n} players; German Préférence "
                              "is for three"), n=size)  # fmt: skip
    same = repeated_name(protocol.players)
    if same is not None:
        raise PotScoringError(None, "players", f"seat {same[1] + 1} has the name of seat "
                              f"{same[0] + 1} ({protocol.players[same[1]]!r}); each player needs "
                              'a name of his own (000 "Förberedelser")',
                              gettext_noop("two players are named {name}; each needs a name of "
                                           "his own"), name=protocol.players[same[1]])  # fmt: skip
    _check_seat(None, "first_dealer", protocol.first_dealer, size)  # type: ignore[arg-type]
    book = _Ledger(size, protocol.opening_pot)
    scored = []
    for i, (deal, dealer) in enumerate(zip(protocol.deals, dealers(protocol), strict=True)):
        scored.append(_score_deal(i, conv, deal, size, dealer, book))
        assert sum(book.nets) + book.pot == protocol.opening_pot  # the pot identity, §5.1
    nets = tuple(book.nets)
    if conv.pot_end == "share":
        shares = tuple(Fraction(book.pot, size) for _ in range(size))
    else:
        shares = tuple(Fraction(0) for _ in range(size))
    final = tuple(Fraction(n) + s for n, s in zip(nets, shares, strict=True))
    return ScoredGame(protocol, conv, tuple(scored), nets, book.pot, shares, final)
