"""rules.priffe: the ladder, the one-round bidding and the two scorings' data (seed 004)."""

from __future__ import annotations

import pytest

from rules.priffe import (
    MODERN,
    OLD,
    Contract,
    auction_outcome,
    auction_problems,
    parse_bid,
    parse_contract,
)


def test_the_ladders() -> None:
    # 004 "De olika buden är från högre till lägre": preference, noll, hjärter, ruter, spader,
    # klöver; gammaldags: "... ruter, klöver och så ned till spader".
    assert [c.value for c in MODERN.ladder] == ["pref", "noll", "hjärter", "ruter", "spader", "klöver"]
    assert [c.value for c in OLD.ladder] == ["pref", "noll", "hjärter", "ruter", "klöver", "spader"]


@pytest.mark.parametrize(("word", "contract"), [("Preference", "pref"), ("spel", "pref"),
                         ("spelut", "pref"), ("nollissimo", "noll"), ("stor invit", "spader"),
                         ("liten invit", "klöver")])  # fmt: skip
def test_the_players_words(word: str, contract: str) -> None:
    # 004: "Preference (även kallat priffe, spel eller spelut)"; "Noll eller nollissimo";
    # "istället för spader sade stor invit"; "liten invit".
    assert parse_contract(word) == contract


def test_tvangsnoll_is_never_a_bid() -> None:
    with pytest.raises(ValueError, match="never bid"):
        parse_bid("tvångsnoll")
    assert parse_bid("Pass") == "pass"


def test_outcome_of_the_auction() -> None:
    # 004: "Det högsta bud som avges blir slutbud"; "Skulle alla fyra spelarna passa, eller har
    # det bjudits spader eller klöver som inte följts av ett högre bud, spelas det automatiskt
    # tvångsnoll".
    assert auction_outcome(("pass",) * 4, MODERN) == (Contract.TVANGSNOLL, None)
    assert auction_outcome(("spader", "pass", "pass", "pass"), MODERN) == (Contract.TVANGSNOLL, None)
    assert auction_outcome(("spader", "ruter", "pass", "pref"), MODERN) == (Contract.PREFERENCE, 3)
    assert auction_outcome(("spader", "klöver", "pass", "pass"), OLD) == (Contract.KLOVER, 1)
    assert auction_outcome(("pass",) * 4, OLD) == (Contract.TVANGSNOLL, None)


def test_auction_problems() -> None:
    # "Ett nytt bud måste vara högre"; "Ett spaderbud kan alltså bara avges av någon av de två
    # första spelarna"; old: anybody may bid them (variants.md §8).
    assert auction_problems(("klöver", "spader", "pass", "pass"), MODERN) == []
    assert auction_problems(("spader", "klöver", "pass", "pass"), MODERN) == [
        (1, "klöver is not higher than spader")
    ]
    assert auction_problems(("pass", "pass", "pass", "klöver"), OLD) == []
    assert auction_problems(("pass", "pass", "pass", "klöver"), MODERN) == [
        (3, "klöver is an information bid of the first two speakers only")
    ]
