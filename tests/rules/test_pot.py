"""The pot-game conventions (rules.pot) and their registration as the family "pot"."""

from __future__ import annotations

import pytest

from rules.conventions import InvalidConventionError
from rules.pot import GERMAN, VIENNESE, PotContract, find_convention
from rules.variants import FAMILIES, family_of_convention, find_family


@pytest.mark.parametrize("name", ["wienerpreferans", "Wiener", "viennese", "österreichisch"])
def test_viennese_aliases(name):
    assert find_convention(name) is VIENNESE and find_family(name).key == "pot"


@pytest.mark.parametrize("name", ["deutsch", "german", "Préférence"])
def test_german_aliases(name):
    assert find_convention(name) is GERMAN and family_of_convention(name).key == "pot"


def test_the_family_is_registered():
    pot = FAMILIES["pot"]
    assert pot.table_sizes == (3, 4) and pot.game_size == "stake"
    assert set(pot.conventions) == {"viennese", "german"}
    assert pot.option_choices["pot_end"] == ("share", "keep")


def test_seed_defaults():
    # 000 "Förberedelser": G divisible by ten, e.g. three base stakes as the maximum;
    # 000 "Giv": the dealer antes one base stake; 003: ten chips, Prämie 5
    assert (VIENNESE.base_stake, VIENNESE.max_units(), VIENNESE.ante_units) == (10, 30, 10)
    assert (GERMAN.ante_units, GERMAN.herz_premium, GERMAN.cap) == (10, 5, 0)
    assert VIENNESE.defender_quota == "each" and GERMAN.cap_applies == "penalties"


@pytest.mark.parametrize(("option", "value"), [
    ("base_stake", 25), ("max_amount", 35), ("ante", 5), ("pot_end", "burn"),
    ("defender_quota", "both"), ("negotiation", "yes"), ("premiums", "none"),
])  # fmt: skip
def test_bad_viennese_options_are_refused(option, value):
    with pytest.raises(InvalidConventionError, match=repr(option)):
        VIENNESE.with_options(**{option: value})


@pytest.mark.parametrize(("option", "value"), [
    ("cap", 15), ("cap_applies", "pot"), ("premium_payers", "all"), ("herz_premium", -1),
    ("max_amount", 30),
])  # fmt: skip
def test_bad_german_options_are_refused(option, value):
    with pytest.raises(InvalidConventionError, match=repr(option)):
        GERMAN.with_options(**{option: value})


def test_the_ladder():
    # variants.md §5.2: 1 < 2 < 3 < 4 < 1u < 2u < 3u < hjärter = fem < fem u.k. < sex < …
    ladder = ["1", "2", "3", "4", "1u", "2u", "3u", "5", "5u", "6", "6u", "7", "7u", "8", "8u"]
    ranks = [PotContract.from_code(x).rank for x in ladder]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert PotContract.from_code("4u").rank == PotContract.from_code("5").rank
    assert PotContract.from_code("4u").name("viennese") == "hjärter"
    assert PotContract.from_code("2u").name("german") == "Zwei aus der Hand"
    assert PotContract.from_code("4").name("german", ascii=True) == "Praemie"
