"""A board's deal scored alone, through the family's registry entry (docs/duplicate.md)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from scoring.duplicate.values import DealError, board_protocol, deal_values
from scoring.variants import VARIANTS

RUSSIAN = """format: pulka 1
convention: sochi
target: 10
players: Anna, Boris, Vera
first dealer: Vera
ending: in-progress

1. Anna 6♠ / ровно w/p
"""

BALKAN = """format: balkan 1
convention: croatian
bula: 30
players: Ana, Branko, Vesna
first dealer: Vesna
ending: in-progress

1. Branko žir ne ide/ide štihovi 2-8-0
"""


def test_russian_six_made_in_whists() -> None:
    # 001 §4.2: a six brings the declarer 2 in pulya; Boris whists and takes 4 tricks, 2 whists
    # each on Anna (Sochi). §4.2.14 settlement of a pulya of 10: the pulya missing to 10 goes
    # to gora (Anna 8, Boris 10, Vera 10), the gora's mean 28/3, times ten whists over three:
    # Anna +40/3, the others −20/3; with the whists Anna 40/3 − 8 = 16/3, Boris −20/3 + 8 = 4/3
    v = VARIANTS["russian"]
    protocol, _ = v.parse_text(RUSSIAN)
    assert v.check(protocol).ok
    assert deal_values(v, protocol) == (F(16, 3), F(4, 3), F(-20, 3))


def test_balkan_game_passed_with_a_soup() -> None:
    # 002: Branko plays acorns (5) and passes: his bula drops by 2 × 5 = 10, 100 in the final
    # calculation; Ana goes along and takes 2 tricks, 2 × 5 each written on Branko: 20
    v = VARIANTS["balkan"]
    protocol, _ = v.parse_text(BALKAN)
    assert v.check(protocol).ok
    assert deal_values(v, protocol) == (F(20), F(80), F(0))


@pytest.mark.parametrize("family", ["russian", "balkan", "pot"])
def test_every_three_handed_family_scores_any_deal_alone(family: str) -> None:
    v = VARIANTS[family]
    rng = random.Random(43)
    for _ in range(5):
        game = v.random_protocol(rng, players=3)
        for k, deal in enumerate(game.deals[:6]):
            p = board_protocol(
                v, players=game.players, dealer=deal_dealer(game, k, deal), convention=game.convention,
                target=game.target, options=game.options, deal=deal,
            )
            got = deal_values(v, p)
            assert len(got) == 3
            if family == "russian":
                assert sum(got) == 0  # a pulka's settlement sums to zero (001 §4.2.14)


def deal_dealer(game: object, k: int, deal: object) -> int:
    """The seat (1–3) that dealt deal ``k``: as recorded, or by the order of dealing."""
    recorded = getattr(deal, "dealer", None)
    if recorded is not None:
        return int(recorded) + 1
    return (game.first_dealer + k) % 3 + 1  # type: ignore[attr-defined]


def test_a_board_result_is_one_deal() -> None:
    v = VARIANTS["russian"]
    protocol, _ = v.parse_text(RUSSIAN)
    with pytest.raises(DealError, match="deals"):
        deal_values(v, protocol.with_deals(()))
    with pytest.raises(DealError, match="deals"):
        deal_values(v, protocol.with_deals(protocol.deals * 2))
    with pytest.raises(DealError, match="dealer"):
        board_protocol(v, players=("A", "B", "C"), dealer=4, convention="sochi", target=10)
