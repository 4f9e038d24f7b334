"""The deck and the contract ladder (seed 001 §2.2.2, §3.8.2)."""

from __future__ import annotations

import pytest

from rules.contracts import (
    DECK,
    LADDER,
    MISERE,
    Contract,
    Denomination,
    InvalidContractError,
)


def test_deck_has_32_cards_seven_to_ace_in_four_suits():
    assert len(DECK) == 32 and len(set(DECK)) == 32
    assert str(DECK[0]) == "7♠" and str(DECK[-1]) == "A♥"


def test_suit_order_spades_clubs_diamonds_hearts_no_trump():
    """001 §2.2.2: ♠ < ♣ < ♦ < ♥ < БК."""
    assert [d.symbol for d in sorted(Denomination)] == ["♠", "♣", "♦", "♥", "БК"]


def test_ladder_from_six_spades_to_ten_no_trump_with_misere_after_eight_no_trump():
    """001 §2.2.2: misère ranks between 8БК and 9♠."""
    assert len(LADDER) == 26
    assert str(LADDER[0]) == "6♠" and str(LADDER[-1]) == "10БК"
    i = LADDER.index(MISERE)
    assert str(LADDER[i - 1]) == "8БК" and str(LADDER[i + 1]) == "9♠"
    assert list(LADDER) == sorted(LADDER)
    assert all(a < b for a, b in zip(LADDER, LADDER[1:], strict=False))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("6♠", "6♠"),
        ("6S", "6♠"),
        ("6s", "6♠"),
        ("7NT", "7БК"),
        ("7БК", "7БК"),
        ("7bk", "7БК"),
        ("7 бк", "7БК"),
        ("10♥", "10♥"),
        ("10h", "10♥"),
        ("8♦", "8♦"),
        ("6♣", "6♣"),
        ("9C", "9♣"),
        ("6♥\ufe0f", "6♥"),
        ("mis", "мизер"),
        ("misere", "мизер"),
        ("мизер", "мизер"),
        ("Мизер", "мизер"),
    ],
)
def test_spellings(text, expected):
    assert str(Contract.from_str(text)) == expected


@pytest.mark.parametrize("text", ["5♠", "11S", "6", "6X", "", "pass", "7♠♠"])
def test_bad_spellings_quote_the_input(text):
    with pytest.raises(InvalidContractError) as error:
        Contract.from_str(text)
    assert repr(text) in str(error.value)


def test_round_trip_of_every_contract_through_both_spellings():
    for contract in LADDER:
        assert Contract.from_str(str(contract)) == contract
        assert Contract.from_str(contract.ascii) == contract


def test_prices_and_obligations():
    """Seed 001 "Очки за игры" 2/4/6/8/10, misère 10; obligations 4/2/1/1/1 (001 §3.8.2)."""
    assert [Contract(level, Denomination.HEARTS).price for level in range(6, 11)] == [
        2,
        4,
        6,
        8,
        10,
    ]
    assert [Contract(level, Denomination.SPADES).obligation for level in range(6, 11)] == [
        4,
        2,
        1,
        1,
        1,
    ]
    assert MISERE.price == 10 and MISERE.obligation == 0 and MISERE.is_misere


def test_invalid_construction():
    with pytest.raises(InvalidContractError):
        Contract(5, Denomination.SPADES)
    with pytest.raises(InvalidContractError):
        Contract(7, None)


def test_docstring_examples():
    import doctest

    import rules.contracts

    result = doctest.testmod(rules.contracts)
    assert result.attempted > 0 and result.failed == 0
