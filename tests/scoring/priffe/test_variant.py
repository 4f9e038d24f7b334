"""Priffe through the variant registry: the interface the CLI and the Django side use."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules.variants import find_family
from scoring.priffe.protocol import Ending, partnership
from scoring.variants import VARIANTS, find_variant, variant_for_convention, variant_of

from .helpers import A, B, D, game, hand

V = VARIANTS["priffe"]


def test_registered_by_family_convention_and_alias() -> None:
    assert find_variant("gammaldags") is V and variant_for_convention("modern") is V
    assert find_family("priffe").table_sizes == (4,) and V.seed == "004"
    assert V.protocol_format == "pulka-priffe-protocol" and V.text_format == "priffe"


def test_blank_protocol_has_the_three_partnerships() -> None:
    p = V.blank(players=("A", "B", "C", "D"), target=3, convention="modern", first_dealer=2)
    assert p.ending == Ending.IN_PROGRESS and p.first_dealer == 2 and not p.deals
    assert len({partnership(s) for s in p.sittings}) == 3 and variant_of(p) is V
    simple = V.blank(players=("A", "B", "C", "D"), target=16, convention="old",
                     options=(("play", "deals"),))  # fmt: skip
    assert len(simple.sittings) == 1 and V.check(simple).ok


def test_settlement_pairwise_and_stats() -> None:
    p = game(hand(A, "hjärter", 9, honours=((D, "3"),)), hand(B, "noll", 8))
    assert V.settlement(p) == (Fraction(70), Fraction(30), Fraction(70), Fraction(30))
    assert V.pairwise(p)[A][B] == Fraction(40, 4)
    stats = V.deal_stats(p)
    assert set(stats[0]) == set(V.stat_keys)
    assert stats[A]["contracts_made"] == 1 and stats[B]["contracts_failed"] == 1
    assert stats[D]["honours"] == 1 and stats[D]["deals"] == 2
    assert stats[A]["games_won"] == 2 and stats[A]["sits_won"] == 1 and stats[B]["games_won"] == 0


def test_random_protocol_through_the_interface() -> None:
    p = V.random_protocol(random.Random(3), players=4)
    assert V.check(p).ok
    with pytest.raises(ValueError, match="four"):
        V.random_protocol(random.Random(3), players=3)
