"""The double-dummy count (scoring/duplicate/double_dummy.py) on endgames worked by hand: the
first lead, following suit, the duty to trump (001 §2.1.2, §3.9.1, §3.9.3), the defenders as
one side."""

from __future__ import annotations

import pytest

from scoring.duplicate.cards import Card
from scoring.duplicate.double_dummy import declarer_tricks


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
