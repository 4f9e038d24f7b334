"""A double-dummy count for a board's hand record: how many tricks a declarer takes in each
denomination against the two defenders, every card seen and every player playing best.

Play follows the Kodeks (1996): the player on the dealer's left leads the first trick, then
whoever took the last (001 §3.9.1); a player must follow suit, else trump, else may discard any
card (001 §2.1.2, §3.9.3). The two defenders play as one side (open whist, 001 §3.8.5). The
count is made **on the hands as dealt, the talon set aside**: the talon exchange (and the
contracts' bidding) are not searched, so the figure says what the cards in hand are worth, as
bridge hand records print "makeable contracts" — a reading aid for the traveller, not a
ruling.

The search is a minimax over whole tricks, each position after a trick remembered, and cards of
a suit that are next to each other among the cards still out, in one hand, tried once (they
win and lose alike). It is exact but slow in CPython: a whole board's fifteen counts take
13–32 s of CPU (docs/performance.md, ``tests/bench/bench_double_dummy.py``), so nothing on the
pages uses it yet; it waits for a faster search (bounds in the remembered positions, a search
for "at least k tricks").

>>> from scoring.duplicate.cards import Card
>>> m = lambda *names: sum(1 << Card.from_short(n).index for n in names)
>>> hands = (m("AS", "KS"), m("QS", "JS"), m("7H", "8H"))
>>> declarer_tricks(hands, trump=None, declarer=0, leader=0)   # no trump: the hearts are discarded
2
>>> declarer_tricks(hands, trump=2, declarer=0, leader=0)      # hearts trumps: seat 3 must trump
0
"""

from __future__ import annotations

from functools import cache
from typing import Final

from .boards import Board
from .cards import SUITS

__all__ = ["DENOMINATIONS", "declarer_tricks", "makeable"]

#: the trump suits and no trump (``"NT"``)
DENOMINATIONS: Final[tuple[str, ...]] = (*SUITS, "NT")
_SUIT_MASKS: Final[tuple[int, ...]] = tuple(0xFF << (8 * s) for s in range(4))


def _mask(cards: object) -> int:
    out = 0
    for c in cards:  # type: ignore[attr-defined]
        out |= 1 << c.index
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _representatives(own: int, remaining: int) -> list[int]:
    """One card of each run of ``own``'s cards that are next to each other in ``remaining``
    (the cards of all hands still out), suit by suit."""
    picks = []
    for suit_mask in _SUIT_MASKS:
        mine = own & suit_mask
        if not mine:
            continue
        last_was_mine = False
        for i in _bits(remaining & suit_mask):
            is_mine = bool(mine >> i & 1)
            if is_mine and not last_was_mine:
                picks.append(i)
            last_was_mine = is_mine
    return picks


def _legal(hand: int, led: int | None, trump: int | None) -> int:
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` (a suit index)."""
    if led is None:
        return hand
    follow = hand & _SUIT_MASKS[led]
    if follow:
        return follow
    if trump is not None and hand & _SUIT_MASKS[trump]:
        return hand & _SUIT_MASKS[trump]
    return hand


def declarer_tricks(hands: tuple[int, int, int], *, trump: int | None, declarer: int, leader: int) -> int:
    """The tricks ``declarer`` (0–2) takes with best play from the position ``hands`` (a bit
    mask of card indices a hand), ``leader`` to lead; ``trump`` a suit index or ``None``."""

    @cache
    def solve(h0: int, h1: int, h2: int, lead: int) -> int:
        hs = [h0, h1, h2]
        if not (h0 | h1 | h2):
            return 0
        remaining = h0 | h1 | h2
        order = (lead, (lead + 1) % 3, (lead + 2) % 3)

        def play(k: int, cards: list[int], alpha: int, beta: int) -> int:
            if k == 3:
                winner_pos = 0
                for pos in (1, 2):
                    c, w = cards[pos], cards[winner_pos]
                    cs, ws = c // 8, w // 8
                    if cs == ws and c > w or (trump is not None and cs == trump and ws != trump):
                        winner_pos = pos
                winner = order[winner_pos]
                nxt = list(hs)
                for pos in range(3):
                    nxt[order[pos]] &= ~(1 << cards[pos])
                return (winner == declarer) + solve(nxt[0], nxt[1], nxt[2], winner)
            seat = order[k]
            suit_led = None if k == 0 else cards[0] // 8
            legal = _legal(hs[seat], suit_led, trump)
            options = _representatives(legal, remaining)
            maximise = seat == declarer  # the declarer maximises, the defenders minimise
            value = -1 if maximise else 99
            for c in options:
                v = play(k + 1, [*cards, c], alpha, beta)
                if maximise:
                    value = max(value, v)
                    alpha = max(alpha, v)
                else:
                    value = min(value, v)
                    beta = min(beta, v)
                if alpha >= beta:
                    break
            return value

        return play(0, [], -1, 99)

    return solve(hands[0], hands[1], hands[2], leader)


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
