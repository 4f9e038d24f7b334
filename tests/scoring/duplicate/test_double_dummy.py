"""The double-dummy count (scoring/duplicate/double_dummy.py) on endgames worked by hand: the
first lead, following suit, the duty to trump (001 §2.1.2, §3.9.1, §3.9.3), the defenders as
one side; and the fast search against a plain minimax (every legal card, no bounds, no table
of positions but the plain one of whole tricks) on random endgames of two to four tricks."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate.boards import generate_boards
from scoring.duplicate.cards import Card
from scoring.duplicate.double_dummy import DENOMINATIONS, declarer_tricks, makeable


def m(*names: str) -> int:
    return sum(1 << Card.from_short(n).index for n in names)


S, D, H, C = 0, 1, 2, 3


@pytest.mark.parametrize(
    ("hands", "trump", "declarer", "leader", "tricks"),
    [
        # no trump: seat 3 has no spades and discards; the declarer's top spades win both
        ((m("AS", "KS"), m("QS", "JS"), m("7H", "8H")), None, 0, 0, 2),
        # hearts trumps: seat 3 must trump a spade (001 §2.1.2) and takes both
        ((m("AS", "KS"), m("QS", "JS"), m("7H", "8H")), H, 0, 0, 0),
        # the defence leads: seat 2 leads a diamond, the declarer has none and must trump
        ((m("7C", "AS"), m("KD", "QD"), m("7D", "8D")), C, 0, 1, 2),
        # the defence leads its long hearts: the declarer never gets in (001 §3.9.1)
        ((m("AS", "QS"), m("7H", "8H"), m("KS", "JS")), None, 0, 1, 0),
        # the same cards with the K before the declarer: the finesse wins both
        ((m("AS", "QS"), m("KS", "JS"), m("7H", "8H")), None, 0, 1, 2),
        # the defenders are one side: seat 3 takes the ace, cashes its heart (the declarer
        # discards a spade), and the declarer makes one spade of K Q J
        ((m("KS", "QS", "JS"), m("7S", "8S", "9S"), m("AS", "XS", "7H")), None, 0, 0, 1),
    ],
)
def test_endgames(hands: tuple[int, int, int], trump: int | None, declarer: int, leader: int, tricks: int) -> None:
    assert declarer_tricks(hands, trump=trump, declarer=declarer, leader=leader) == tricks


def plain_minimax(hands: tuple[int, int, int], trump: int | None, declarer: int, leader: int) -> int:
    """The declarer's tricks by trying every legal card of every hand (Kodeks 1996, 3.9.3:
    follow suit, else trump, else any card), the declarer maximising and the defenders, one
    side, minimising."""

    def legal(hand: int, led: int | None) -> list[int]:
        cards = [i for i in range(32) if hand >> i & 1]
        if led is None:
            return cards
        follow = [c for c in cards if c // 8 == led]
        if follow:
            return follow
        trumps = [c for c in cards if trump is not None and c // 8 == trump]
        return trumps or cards

    @cache
    def tricks(h: tuple[int, int, int], lead: int) -> int:
        if not h[0]:
            return 0
        order = (lead, (lead + 1) % 3, (lead + 2) % 3)
        values = []
        for c0 in legal(h[order[0]], None):
            v1 = []
            for c1 in legal(h[order[1]], c0 // 8):
                v2 = []
                for c2 in legal(h[order[2]], c0 // 8):
                    played = (c0, c1, c2)
                    best = 0
                    for k in (1, 2):
                        c, w = played[k], played[best]
                        if c // 8 == w // 8 and c > w or (c // 8 == trump and w // 8 != trump):
                            best = k
                    winner = order[best]
                    nxt = list(h)
                    for k in range(3):
                        nxt[order[k]] &= ~(1 << played[k])
                    v2.append((winner == declarer) + tricks((nxt[0], nxt[1], nxt[2]), winner))
                v1.append(max(v2) if order[2] == declarer else min(v2))
            values.append(max(v1) if order[1] == declarer else min(v1))
        return max(values) if order[0] == declarer else min(values)

    return tricks(hands, leader)


@st.composite
def endgames(draw: st.DrawFn) -> tuple[tuple[int, int, int], int | None, int, int]:
    n = draw(st.integers(2, 4))
    cards = draw(st.permutations(range(32)))[: 3 * n]
    hands = tuple(sum(1 << c for c in cards[k * n : (k + 1) * n]) for k in range(3))
    trump = draw(st.sampled_from([None, 0, 1, 2, 3]))
    return (hands[0], hands[1], hands[2]), trump, draw(st.integers(0, 2)), draw(st.integers(0, 2))


@settings(max_examples=300, deadline=None)
@given(endgames())
def test_fast_search_agrees_with_plain_minimax(
    endgame: tuple[tuple[int, int, int], int | None, int, int],
) -> None:
    hands, trump, declarer, leader = endgame
    assert declarer_tricks(hands, trump=trump, declarer=declarer, leader=leader) == plain_minimax(
        hands, trump, declarer, leader
    )


def test_hands_of_unequal_length_are_refused() -> None:
    with pytest.raises(ValueError, match="hands"):
        declarer_tricks((m("AS", "KS"), m("QS"), m("7H", "8H")), trump=None, declarer=0, leader=0)
    with pytest.raises(ValueError, match="two hands"):
        declarer_tricks((m("AS"), m("AS"), m("7H")), trump=None, declarer=0, leader=0)


def test_a_board_has_fifteen_counts_each_within_ten_tricks() -> None:
    counts = makeable(generate_boards("example", 1)[0])
    assert set(counts) == {(seat, d) for seat in (1, 2, 3) for d in DENOMINATIONS}
    assert all(0 <= v <= 10 for v in counts.values())
