"""A double-dummy count for a board's hand record: how many tricks a declarer takes in each
denomination against the two defenders, every card seen and every player playing best.

Play follows the Kodeks (1996): the player on the dealer's left leads the first trick, then
whoever took the last (001 §3.9.1); a player must follow suit, else trump, else may discard any
card (001 §2.1.2, §3.9.3). The two defenders play as one side (open whist, 001 §3.8.5). The
count is made **on the hands as dealt, the talon set aside**: the talon exchange (and the
contracts' bidding) are not searched, so the figure says what the cards in hand are worth, as
bridge hand records print "makeable contracts" — a reading aid for the traveller, not a
ruling.

The search (docs/performance.md, ``tests/bench/bench_double_dummy.py``: a board's fifteen
counts in well under a second of CPU):

- **Cards as bits**: a hand is one 32-bit integer, eight bits a suit (PPN's order, 7 low).
- **Ranks relative to the cards still out**: at the start of every trick each suit's remaining
  cards are renumbered from the bottom (a card's rank among the cards not yet played), so
  positions that differ only in cards already gone are one position, and cards of one hand
  that touch among the cards still out (the cards played between them counting as touching)
  are next to each other in the bits; each such run is tried once ("rank equivalence").
- **A zero-window search** ("can the declarer take at least *k* tricks?") answers yes or no;
  the count is found by a binary search over *k*.
- **A transposition table** keyed on the renumbered hands and the leader keeps, for each
  position at the start of a trick, the lower and upper bound proved so far on the declarer's
  tricks from there; every search of every *k* reuses them.
- **Sure tricks**: the leader's top cards that win however the others play (all of a suit's
  cards when the others hold no more of it than the tops; side suits only as far as no hand
  with trumps can ruff, or all of them once the leader has drawn the trumps) cut the search —
  the declarer's for "yes", the defenders' for "no".
- **Move order**: a follower who can beat the trick's card of the other side tries the
  cheapest card that wins first, else the cheapest card; the leader tries first the lead that
  decided the position in an earlier search, then top cards first. A trick whose outcome
  already decides the target is not searched further.

>>> from scoring.duplicate.cards import Card
>>> m = lambda *names: sum(1 << Card.from_short(n).index for n in names)
>>> hands = (m("AS", "KS"), m("QS", "JS"), m("7H", "8H"))
>>> declarer_tricks(hands, trump=None, declarer=0, leader=0)   # no trump: the hearts are discarded
2
>>> declarer_tricks(hands, trump=2, declarer=0, leader=0)      # hearts trumps: seat 3 must trump
0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .boards import Board
from .cards import SUITS

__all__ = ["DENOMINATIONS", "declarer_tricks", "makeable"]

#: the trump suits and no trump (``"NT"``)
DENOMINATIONS: Final[tuple[str, ...]] = (*SUITS, "NT")
_SUIT_MASKS: Final[tuple[int, int, int, int]] = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
#: each suit's lowest bit: a run of touching cards never crosses a suit
_NOT_BOTTOMS: Final[int] = 0xFFFFFFFF & ~0x01010101
_NOT_TOPS: Final[int] = 0xFFFFFFFF & ~0x80808080
#: a card's suit mask by the card's ``bit_length()`` (1–32)
_SUIT_OF_LENGTH: Final[tuple[int, ...]] = (0, *(_SUIT_MASKS[(b - 1) >> 3] for b in range(1, 33)))
_NEXT: Final[tuple[int, int, int]] = (1, 2, 0)


def _build_renumbering() -> list[int]:
    """``table[rem << 8 | sub]``: the cards ``sub`` of one suit renumbered by their rank among
    ``rem``, the suit's cards still out (``sub`` a subset of ``rem``), the lowest becoming 0."""
    table = [0] * 65536
    for rem in range(256):
        bits = [i for i in range(8) if rem >> i & 1]
        sub = rem
        while True:
            out = 0
            for j, i in enumerate(bits):
                if sub >> i & 1:
                    out |= 1 << j
            table[rem << 8 | sub] = out
            if not sub:
                break
            sub = (sub - 1) & rem
    return table


_RENUMBER: Final[list[int]] = _build_renumbering()


def _renumber(h0: int, h1: int, h2: int) -> tuple[int, int, int]:
    """The three hands with each suit's cards renumbered among the cards still out."""
    rem = h0 | h1 | h2
    n0 = n1 = n2 = 0
    table = _RENUMBER
    for shift in (0, 8, 16, 24):
        r = rem >> shift & 0xFF
        if not r:
            continue
        if r == 0xFF:
            suit = 0xFF << shift
            n0 |= h0 & suit
            n1 |= h1 & suit
            n2 |= h2 & suit
            continue
        base = r << 8
        n0 |= table[base | (h0 >> shift & 0xFF)] << shift
        n1 |= table[base | (h1 >> shift & 0xFF)] << shift
        n2 |= table[base | (h2 >> shift & 0xFF)] << shift
    return n0, n1, n2


def _bits_high_first(mask: int) -> list[int]:
    out = []
    while mask:
        top = 1 << (mask.bit_length() - 1)
        out.append(top)
        mask ^= top
    return out


def _bits_low_first(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _top_run(mine: int, others: int) -> int:
    """How many of the highest cards of one suit (renumbered, ``mine | others`` its cards still
    out) are ``mine`` in a row from the top."""
    k = 0
    top = (mine | others).bit_length()
    while top and mine >> (top - 1) & 1:
        k += 1
        top -= 1
    return k


def _sure_tricks(mine: int, a: int, b: int, trump: int | None) -> int:
    """The tricks the hand ``mine``, on lead, takes whatever the hands ``a`` and ``b`` play
    (all renumbered): its top cards cashed suit by suit; a suit's small cards too when the
    others have no more of it than the tops (and cannot ruff them)."""
    if trump is None:
        ruffers = False
    else:
        tm = _SUIT_MASKS[trump]
        mt = mine & tm
        at, bt = a & tm, b & tm
        ruffers = bool(at or bt)
        total = 0
        if mt:
            k = _top_run(mt, at | bt)
            if k >= max(at.bit_count(), bt.bit_count()):
                total = mt.bit_count()
                ruffers = False  # the trumps drawn first: the side suits are safe after them
            else:
                total = k
    if trump is None:
        total = 0
    for s, sm in enumerate(_SUIT_MASKS):
        if s == trump:
            continue
        ms = mine & sm
        if not ms:
            continue
        as_, bs = a & sm, b & sm
        k = _top_run(ms, as_ | bs)
        if not k:
            continue
        la, lb = as_.bit_count(), bs.bit_count()
        if ruffers:
            assert trump is not None
            tm = _SUIT_MASKS[trump]
            if a & tm:
                k = min(k, la)
            if b & tm:
                k = min(k, lb)
            total += k
        elif k >= la and k >= lb:
            total += ms.bit_count()
        else:
            total += k
    return total


def _solver(trump: int | None, declarer: int) -> Callable[[int, int, int, int, int], bool]:
    """``at_least(h0, h1, h2, leader, target)``: whether ``declarer`` takes at least ``target``
    tricks from the renumbered position, ``leader`` to lead; its table lives as long as it."""
    table: dict[tuple[int, int, int, int], tuple[int, int]] = {}
    best_lead: dict[tuple[int, int, int, int], int] = {}
    trump_mask = _SUIT_MASKS[trump] if trump is not None else 0
    suit_of = _SUIT_OF_LENGTH

    def beats(card: int, best: int) -> bool:
        """Whether ``card`` beats the trick's best card so far."""
        best_suit = suit_of[best.bit_length()]
        if card & best_suit:
            return card > best
        return bool(card & trump_mask)

    def followers(hand: int, led_suit: int, best: int, best_is_mine: bool) -> list[int]:
        """One card of each run of the cards ``hand`` may play, in the order tried."""
        legal = hand & led_suit
        if not legal:
            legal = hand & trump_mask or hand
        runs = legal & ~((legal << 1) & _NOT_BOTTOMS)  # the lowest card of each run
        cards = _bits_low_first(runs)
        if best_is_mine or len(cards) == 1:
            return cards
        winners = [c for c in cards if beats(c, best)]
        if not winners or len(winners) == len(cards):
            return cards
        return winners + [c for c in cards if not beats(c, best)]

    def at_least(h0: int, h1: int, h2: int, leader: int, target: int) -> bool:
        if target <= 0:
            return True
        n = h0.bit_count()
        if target > n:
            return False
        key = (h0, h1, h2, leader)
        low, high = table.get(key, (0, n))
        if low >= target:
            return True
        if high < target:
            return False
        hands = (h0, h1, h2)
        second = _NEXT[leader]
        third = _NEXT[second]
        lead_hand, a, b = hands[leader], hands[second], hands[third]
        sure = _sure_tricks(lead_hand, a, b, trump)
        if leader == declarer:
            if sure > low:
                low = sure
        elif n - sure < high:
            high = n - sure
        if low >= target or high < target:
            table[key] = (low, high)
            return low >= target
        if n == 1:
            best, winner = lead_hand, leader
            if beats(a, best):
                best, winner = a, second
            if beats(b, best):
                winner = third
            value = int(winner == declarer)
            table[key] = (value, value)
            return value >= target
        result = _trick(lead_hand, a, b, leader, second, third, target, key)
        if result:
            low = target
        else:
            high = target - 1
        table[key] = (low, high)
        return result

    def _trick(
        lead_hand: int, a: int, b: int, leader: int, second: int, third: int, target: int,
        key: tuple[int, int, int, int],
    ) -> bool:
        declarer_leads = leader == declarer
        second_is_declarer = second == declarer
        third_is_declarer = third == declarer
        rest = lead_hand.bit_count() - 1  # the tricks after this one
        runs = lead_hand & ~((lead_hand >> 1) & _NOT_TOPS)  # the highest card of each run
        leads = _bits_high_first(runs)
        killer = best_lead.get(key)
        if killer is not None and killer in leads and leads[0] != killer:
            leads.remove(killer)
            leads.insert(0, killer)
        for c0 in leads:
            led_suit = suit_of[c0.bit_length()]
            # the second hand: the declarer needs one card that works, a defender one that refutes
            second_ok = not second_is_declarer
            for c1 in followers(a, led_suit, c0, not declarer_leads and not second_is_declarer):
                if beats(c1, c0):
                    best1, side1, winner1 = c1, second_is_declarer, second
                else:
                    best1, side1, winner1 = c0, declarer_leads, leader
                # the third hand
                third_ok = not third_is_declarer
                for c2 in followers(b, led_suit, best1, side1 == third_is_declarer):
                    if beats(c2, best1):
                        declarer_wins, winner = third_is_declarer, third
                    else:
                        declarer_wins, winner = side1, winner1
                    need = target - declarer_wins
                    if need <= 0:
                        ok = True
                    elif need > rest:
                        ok = False
                    else:
                        hands = [0, 0, 0]
                        hands[leader] = lead_hand & ~c0
                        hands[second] = a & ~c1
                        hands[third] = b & ~c2
                        n0, n1, n2 = _renumber(hands[0], hands[1], hands[2])
                        ok = at_least(n0, n1, n2, winner, need)
                    if ok == third_is_declarer:
                        third_ok = ok
                        break
                if third_ok == second_is_declarer:
                    second_ok = third_ok
                    break
            if second_ok == declarer_leads:
                best_lead[key] = c0  # tried first in this position's next search
                return second_ok
        return not declarer_leads

    return at_least


def declarer_tricks(hands: tuple[int, int, int], *, trump: int | None, declarer: int, leader: int) -> int:
    """The tricks ``declarer`` (0–2) takes with best play from the position ``hands`` (a bit
    mask of card indices a hand, every hand as many cards), ``leader`` to lead; ``trump`` a
    suit index or ``None``."""
    sizes = {h.bit_count() for h in hands}
    if len(sizes) != 1:
        raise ValueError(f"hands: the three hands must hold as many cards each, not {sorted(sizes)}")
    if hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2]:
        raise ValueError("hands: a card is in two hands")
    at_least = _solver(trump, declarer)
    h0, h1, h2 = _renumber(*hands)
    low, high = 0, hands[0].bit_count()
    while low < high:
        middle = (low + high + 1) // 2
        if at_least(h0, h1, h2, leader, middle):
            low = middle
        else:
            high = middle - 1
    return low


def _mask(cards: object) -> int:
    out = 0
    for c in cards:  # type: ignore[attr-defined]
        out |= 1 << c.index
    return out


def makeable(board: Board) -> dict[tuple[int, str], int]:
    """``(declarer's seat 1–3, denomination) → tricks`` for every seat and denomination of
    ``board`` (see the module's text); the first hand, on the dealer's left, leads."""
    hands = (_mask(board.hands[0]), _mask(board.hands[1]), _mask(board.hands[2]))
    leader = board.dealer % 3  # the seat on the dealer's left, 0-based
    out = {}
    for denomination in DENOMINATIONS:
        trump = None if denomination == "NT" else SUITS.index(denomination)
        for declarer in range(3):
            out[(declarer + 1, denomination)] = declarer_tricks(
                hands, trump=trump, declarer=declarer, leader=leader
            )
    return out
