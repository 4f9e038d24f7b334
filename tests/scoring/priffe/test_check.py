"""The checker: impossible records and wrong sheet cells are findings citing seed 004."""

from __future__ import annotations

from dataclasses import replace

from rules.priffe import Contract
from scoring.findings import Severity
from scoring.priffe.check import check
from scoring.priffe.generate import sheet_for
from scoring.priffe.protocol import Ending, Hand, Penalty, PriffeSheet, SheetEntry

from .helpers import A, B, C, game, hand


def codes(protocol, sheet=None) -> list[str]:
    report = check(protocol, sheet)
    assert all(f.source == "004" and f.rule for f in report.findings)
    return [f.code for f in report.findings]


def test_a_clean_game() -> None:
    assert codes(game(hand(A, "hjärter", 9, bids=("pass", "pass", "pass", "hjärter")))) == []


def test_an_information_bid_as_the_contract() -> None:
    # 004 "Budgivning": "Spader: Detta kan inte bli slutbud" (modern only).
    assert codes(game(hand(A, "spader", 8))) == ["INFORMATION_BID_CONTRACT"]
    assert codes(game(hand(A, "klöver", 8))) == ["INFORMATION_BID_CONTRACT"]
    assert codes(game(hand(A, "spader", 8), convention="old")) == []


def test_information_bid_only_from_the_first_two_speakers() -> None:
    # 004: "Ett spaderbud kan alltså bara avges av någon av de två första spelarna."
    # A deals the first deal, so B speaks first: B, C, D, A.
    late = hand(None, "tvångsnoll", 6, bids=("pass", "pass", "spader", "pass"))
    report = check(game(late))
    assert [f.code for f in report.findings] == ["AUCTION_INFORMATION"]
    assert "first two speakers" in report.findings[0].message
    assert str(report.findings[0]).endswith('[004 "Budgivning"] (AUCTION_INFORMATION)')


def test_the_auction_decides_contract_and_declarer() -> None:
    # The highest bid is the final contract; an information bid left standing is tvångsnoll.
    ok = hand(None, "tvångsnoll", 6, bids=("klöver", "pass", "pass", "pass"))
    assert codes(game(ok)) == []
    wrong = hand(B, "hjärter", 8, bids=("pass", "ruter", "pass", "pass"))
    assert codes(game(wrong)) == ["AUCTION_CONTRACT"]
    old_four_passes = hand(None, "tvångsnoll", 6, bids=("klöver", "pass", "pass", "pass"))
    assert codes(game(old_four_passes, convention="old")) == ["AUCTION_CONTRACT"]


def test_a_bid_not_higher_and_a_wrong_number_of_bids() -> None:
    # 004: "Ett nytt bud måste vara högre än det närmast föregående"; one round of four.
    # one code a rule (issue #37): the bid not higher, the round not of four
    assert "AUCTION_NOT_HIGHER" in codes(game(hand(C, "ruter", 8, bids=("hjärter", "ruter", "pass", "pass"))))
    assert "AUCTION_ROUND" in codes(game(hand(B, "pref", 8, bids=("pref", "pass", "pass"))))


def test_tricks_not_summing_to_13() -> None:
    bad = replace(hand(A, "pref", 8), tricks=(8, 6))
    report = check(game(bad))
    assert [f.code for f in report.findings] == ["TRICKS_SUM"]
    assert report.findings[0].written == 14


def test_honours_that_cannot_exist() -> None:
    # Four honours: two hands cannot both hold three.
    assert codes(game(hand(A, "pref", 8, honours=((A, "3"), (B, "3"))))) == ["HONOURS_IMPOSSIBLE"]


def test_declarer_at_tvangsnoll_and_missing_declarer() -> None:
    assert codes(game(Hand(0, Contract.TVANGSNOLL, A, (6, 7)))) == ["DECLARER"]
    assert codes(game(Hand(0, Contract.HJARTER, None, (6, 7)))) == ["DECLARER"]


def test_dealer_against_the_rotation() -> None:
    # The deal passes clockwise: A, B, C, D in the first sits.
    first, second = hand(A, "pref", 8), hand(A, "pref", 8)
    assert codes(game(replace(first, dealer=A), replace(second, dealer=B))) == []
    assert codes(game(replace(first, dealer=B))) == ["DEALER"]


def test_a_fourth_sits_and_the_same_partnership_twice() -> None:
    p = game()
    four = replace(p, sittings=(*p.sittings, (0, 1, 2, 3)))
    assert codes(four) == ["FOURTH_SITS", "PARTNERSHIP_REPEATED"]
    twice = replace(p, sittings=((0, 1, 2, 3), (1, 0, 3, 2)))
    found = check(twice).findings
    assert [f.code for f in found] == ["PARTNERSHIP_REPEATED"]
    assert "A+C and B+D" in found[0].message


def test_more_than_three_sits_agreed() -> None:
    assert codes(game(target=4)) == ["TARGET"]


def test_a_sits_left_before_it_was_won_and_deals_after_it_was() -> None:
    short = game(hand(A, "pref", 9), hand(A, "pref", 9, sits=1))
    assert codes(short) == ["SITS_NOT_WON"]
    assert check(short).findings[0].severity is Severity.ERROR
    # the time limit ended the sits (issue 36): said as a warning, and scored
    timed = replace(short, ending=Ending.TIME_LIMIT)
    (found,) = check(timed).findings
    assert found.code == "SITS_NOT_WON" and found.severity is Severity.WARNING
    assert "by the time limit" in found.message
    won = [hand(A, "pref", 9), hand(A, "pref", 9)]
    assert codes(game(*won, hand(B, "pref", 9))) == ["DEAL_AFTER_SITS"]
    back = game(*won, hand(A, "pref", 9, sits=1), hand(A, "pref", 9))
    assert "SITS_ORDER" in codes(back)


def test_deals_after_the_game_and_the_ending() -> None:
    sits = [hand(A, "pref", 9, sits=k) for k in range(3) for _ in range(2)]
    assert codes(game(*sits, ending=Ending.CLOSED)) == []
    assert codes(game(*sits, hand(A, "pref", 9, sits=2), ending=Ending.CLOSED)) == [
        "DEAL_AFTER_END"
    ]
    assert codes(game(*sits[:5], ending=Ending.CLOSED)) == ["NOT_CLOSED"]
    assert codes(game(*sits)) == ["ENDING"]  # a warning: over but marked in progress
    assert check(game(*sits)).ok


def test_simple_variant_plays_one_partnership() -> None:
    assert codes(game(play="deals", target=5)) == ["SIMPLE_SITS"]


def test_negative_penalty_and_an_unknown_convention() -> None:
    assert codes(game(Penalty(0, B, -20))) == ["PENALTY"]
    assert codes(game(convention="vienna")) == ["CONVENTION"]


def test_the_written_sheet_is_checked_cell_by_cell() -> None:
    p = game(hand(A, "hjärter", 9, honours=((B, "3"),)), hand(A, "hjärter", 9))
    good = sheet_for(p)
    assert codes(p, good) == []
    bad = PriffeSheet(
        entries=(SheetEntry((30, 0), (0, 40), False), SheetEntry((30, 0), (0, 0), False)),
        sits=((60, 40),),
        result=(60, 30, 60, 40),
    )
    found = check(p, bad).findings
    assert [(f.code, f.deal, f.column, f.written, f.expected) for f in found] == [
        ("SHEET_SITS", None, "sits[0]:1", 40, 30),
        ("SHEET_RESULT", None, "result", 40, 30),
        ("SHEET_ABOVE", 0, "above:1", 40, 30),
        ("SHEET_GAME", 0, "game", False, True),
        ("SHEET_GAME", 1, "game", False, True),
    ]
    assert "B+D wrote 40 above the line, expected 30" in str(found[2])


def test_sheet_longer_than_the_deals() -> None:
    p = game(hand(A, "hjärter", 9))
    sheet = PriffeSheet(entries=(SheetEntry((30, 0), (0, 0), True), None, None))
    assert codes(p, sheet) == ["SHEET_LENGTH"]


def test_findings_cite_the_seed_sections() -> None:
    report = check(game(replace(hand(A, "spader", 8), tricks=(8, 4))))
    assert [f.citation for f in report.findings] == ['004 "Budgivning"', '004 "Antal kort"']


def test_a_penalty_past_the_bound_is_a_finding() -> None:
    # issue #37: a penalty of 10^40 points was taken silently; scoring.model.PENALTY_MAX bounds
    # every family's penalty amounts
    assert codes(game(Penalty(0, B, 10**6))) == []
    report = check(game(Penalty(0, B, 10**40)))
    assert [f.code for f in report.findings] == ["PENALTY"]
    assert report.findings[0].column == "points" and "at most 1000000" in report.findings[0].message
