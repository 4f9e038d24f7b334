"""Conventions as parameter sets with named options (seed 001; reading aid, russian)."""

from __future__ import annotations

import pytest

from rules.conventions import (
    CLASSIC,
    CONVENTIONS,
    LENINGRAD,
    ROSTOV,
    SOCHI,
    Convention,
    InvalidConventionError,
    find_convention,
)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("sochi", "sochi"),
        ("Сочи", "sochi"),
        ("сочинка", "sochi"),
        ("Питер", "leningrad"),
        ("ленинградка", "leningrad"),
        ("ROSTOV", "rostov"),
        ("московская", "rostov"),
        ("классика", "classic"),
    ],
)
def test_registry_with_aliases(name, key):
    assert find_convention(name).key == key


def test_unknown_convention_names_the_known_ones():
    with pytest.raises(InvalidConventionError, match="'vienna'.*sochi, leningrad, rostov, classic"):
        find_convention("vienna")


def test_sochi_is_the_kodeks_default():
    """001 §3.8.11, §3.8.13: responsible greedy whist; §4.2.3 help; §3.7.3 amnesty."""
    assert SOCHI == Convention("sochi", SOCHI.name, SOCHI.aliases)
    assert (SOCHI.whist_responsibility, SOCHI.whist_style, SOCHI.help) == ("full", "greedy", True)


def test_leningrad_parameters():
    """001 §3.8.12, §3.8.14, §4.2.3.3; note 44; russian.md D7."""
    assert (LENINGRAD.game_cost_multiplier, LENINGRAD.declarer_gora_multiplier) == (2, 2)
    assert (LENINGRAD.help, LENINGRAD.end_conversion, LENINGRAD.raspasy_price) == (False, 2, 2)
    assert LENINGRAD.misere_gora_per_trick == 20


def test_rostov_parameters():
    """Note 53 (10 a trick), 001 §3.7.2.2 (5 whists), note 45 (no amnesty), §3.7.6.2."""
    assert (ROSTOV.consolation, ROSTOV.consolation_flat) == ("flat", 10)
    assert (ROSTOV.raspasy_mode, ROSTOV.raspasy_price, ROSTOV.raspasy_amnesty) == (
        "whists",
        5,
        False,
    )
    assert ROSTOV.raspasy_talon_to_dealer is False and ROSTOV.raspasy_dealer_zero_bonus is True


def test_classic_parameters():
    """001 §3.8.11: half-responsible until the pulya closes; notes 29–31: multipliers."""
    assert CLASSIC.whist_responsibility == "half_then_full" and CLASSIC.multipliers


def test_with_options_validates_names_and_values():
    assert SOCHI.with_options(raspasy_progression="geometric").raspasy_progression == "geometric"
    assert SOCHI.with_options(ten_checked=True).ten_checked is True
    with pytest.raises(InvalidConventionError, match="unknown option 'whist'"):
        SOCHI.with_options(whist="greedy")
    with pytest.raises(InvalidConventionError, match="'raspasy_price': 0 is not an integer"):
        SOCHI.with_options(raspasy_price=0)
    with pytest.raises(InvalidConventionError, match="'help': 'yes' is not true or false"):
        SOCHI.with_options(help="yes")
    with pytest.raises(InvalidConventionError, match="unknown option 'key'"):
        SOCHI.with_options(key="x")


def test_every_disputed_point_is_an_option():
    """russian.md D1–D21 (the options the reading aid asks for) all exist with a default."""
    names = set(SOCHI.options())
    for option in (
        "pair_shortfall_6_7",
        "pair_shortfall_8_10",
        "ten_checked",
        "consolation_writers",
        "whist_style",
        "whist_responsibility",
        "game_cost_multiplier",
        "declarer_gora_multiplier",
        "consolation",
        "raspasy_whists_base",
        "raspasy_zero_bonus",
        "raspasy_amnesty",
        "raspasy_dealer_zero_bonus",
        "rounding",
        "raspasy_exit",
        "single_whister_tricks",
        "misere_consolation",
        "end_conversion",
        "returned_half_consolation",
    ):
        assert option in names
    assert set(CONVENTIONS) == {"sochi", "leningrad", "rostov", "classic"}


def test_docstring_examples():
    import doctest

    import rules.conventions

    result = doctest.testmod(rules.conventions)
    assert result.attempted > 0 and result.failed == 0


def test_returned_half_consolation_is_written_by_default_in_every_convention():
    """D21: after a returned whist (001 §3.8.8) the former half-whister writes the consolation
    (001 §3.8.1.2 "консоляцию обычно пишут все игроки"; §3.8.14 withholds the trick whists,
    "висты" as §3.8.13 tells them apart from "за безвзятие"); the alternative reads §3.8.14
    as a whole. A yes-or-no option."""
    assert all(c.returned_half_consolation is True for c in CONVENTIONS.values())
    off = find_convention("leningrad").with_options(returned_half_consolation=False)
    assert off.returned_half_consolation is False and off.whist_style == "gentleman"
    with pytest.raises(InvalidConventionError, match="'returned_half_consolation': 'no'"):
        SOCHI.with_options(returned_half_consolation="no")
