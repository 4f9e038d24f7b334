"""Bidding and dealing order (rules.bidding), each test citing the rule of seed 001."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bidding import (
    AuctionCall,
    CallKind,
    InvalidCallError,
    active_seats,
    auction_outcome,
    check_auction,
    check_contract,
    dealer_of_deal,
    exit_level,
    first_hand,
    next_dealer,
    whisting_order,
)
from rules.contracts import LADDER, MISERE, Contract


def c(text: str) -> Contract:
    return Contract.from_str(text)


def codes(auction: list[tuple[int, str]], **kwargs: object) -> list[str]:
    kwargs.setdefault("dealer", 0)
    kwargs.setdefault("players", 3)
    return [v.code for v in check_auction(auction, **kwargs)]  # type: ignore[arg-type]


# --- dealing: 001 §3.2.2, §3.2.10, §3.7.7 ------------------------------------------------


def test_deal_passes_to_the_left_whatever_was_played_3_2_2() -> None:
    assert [dealer_of_deal(k, 2, 3) for k in range(5)] == [2, 0, 1, 2, 0]
    assert [dealer_of_deal(k, 1, 4) for k in range(5)] == [1, 2, 3, 0, 1]
    assert next_dealer(2, 3) == 0
    assert next_dealer(2, 3, raspasy=True) == 0  # sliding raspasy, 001 §3.7.7


def test_classic_non_sliding_raspasy_keeps_the_dealer_3_7_7() -> None:
    assert next_dealer(1, 3, raspasy=True, sliding=False) == 1
    assert next_dealer(1, 3, raspasy=False, sliding=False) == 2


def test_three_players_dealer_plays_as_third_hand_3_2_10() -> None:
    assert active_seats(0, 3) == (1, 2, 0)
    assert first_hand(2, 3) == 0  # the player left of the dealer speaks first, 001 §3.3.2


def test_four_players_dealer_sits_out_3_2_10() -> None:
    assert active_seats(0, 4) == (1, 2, 3)
    assert active_seats(2, 4) == (3, 0, 1)
    assert 2 not in active_seats(2, 4)


def test_five_players_two_left_neighbours_and_the_right_one_play_3_2_10() -> None:
    assert active_seats(0, 5) == (1, 2, 4)


def test_bad_seats_are_rejected() -> None:
    with pytest.raises(ValueError, match="seat 3"):
        next_dealer(3, 3)
    with pytest.raises(ValueError, match="3 or more"):
        active_seats(0, 2)
    with pytest.raises(ValueError, match="does not play"):
        whisting_order(1, 1, 4)  # the dealer sits out with four
    with pytest.raises(ValueError, match="negative"):
        dealer_of_deal(-1, 0, 3)
    with pytest.raises(ValueError, match="dealer seat 4"):
        active_seats(4, 4)


def test_whisting_order_starts_left_of_the_declarer_3_8_1() -> None:
    assert whisting_order(0, 2, 3) == (1, 2)
    assert whisting_order(2, 2, 3) == (0, 1)  # wraps round the table
    # four players, dealer 0 sits out: after seat 3 comes seat 1, skipping the dealer
    assert whisting_order(3, 0, 4) == (1, 2)
    assert whisting_order(1, 0, 4) == (2, 3)


@given(st.integers(3, 4), st.integers(0, 3), st.integers(0, 40))
def test_rotation_every_active_seat_bids_once_per_round(n: int, first: int, k: int) -> None:
    first %= n
    dealer = dealer_of_deal(k, first, n)
    seats = active_seats(dealer, n)
    assert len(set(seats)) == 3 and all(0 <= s < n for s in seats)
    for declarer in seats:
        order = whisting_order(declarer, dealer, n)
        assert set(order) | {declarer} == set(seats)


# --- calls --------------------------------------------------------------------------------


def test_call_spellings() -> None:
    assert AuctionCall.from_str("пас").kind is CallKind.PASS
    assert AuctionCall.from_str("Pass").kind is CallKind.PASS
    assert AuctionCall.from_str("мизер").kind is CallKind.MISERE
    assert AuctionCall.from_str("mis").kind is CallKind.MISERE
    assert AuctionCall.from_str("здесь") == AuctionCall(CallKind.HOLD)
    assert AuctionCall.from_str("6♣ здесь") == AuctionCall(CallKind.HOLD, c("6C"))
    assert AuctionCall.from_str("беру").kind is CallKind.TAKE
    assert AuctionCall.from_str("7 NT") == AuctionCall(CallKind.BID, c("7БК"))
    assert str(AuctionCall.from_str("8h")) == "8♥"


@pytest.mark.parametrize("text", ["", "11♠", "пасую всем", "mis здесь"])
def test_unreadable_calls_quote_the_text(text: str) -> None:
    with pytest.raises(InvalidCallError):
        AuctionCall.from_str(text)


# --- the ladder: 001 §3.3.7 - §3.3.9 -------------------------------------------------------


def test_clean_auction_with_hold_3_3_8() -> None:
    # Kodeks example of 3.3.8: first hand "пики", second pass, third "трефы", first "трефы здесь"
    auction = [(1, "6♠"), (2, "pass"), (0, "6♣"), (1, "6♣ здесь"), (0, "6♦"), (1, "pass")]
    assert codes(auction) == []
    outcome = auction_outcome(auction, dealer=0, players=3)
    assert outcome.declarer == 0 and outcome.final_bid == c("6♦")


def test_a_bare_repeat_by_the_first_hand_is_a_hold_3_3_8() -> None:
    assert codes([(1, "6♠"), (2, "6♣"), (0, "pass"), (1, "6♣"), (2, "pass")]) == []


def test_only_the_first_hand_may_hold_3_3_8() -> None:
    assert codes([(1, "6♠"), (2, "6♠"), (0, "pass"), (1, "pass")]) == ["hold-not-first-hand"]
    assert codes([(1, "6♠"), (2, "здесь"), (0, "pass"), (1, "pass")]) == ["hold-not-first-hand"]


def test_no_skipping_a_step_3_3_8() -> None:
    assert codes([(1, "6♠"), (2, "6♦"), (0, "pass"), (1, "pass")]) == ["jump"]
    assert codes([(1, "7♠"), (2, "pass"), (0, "pass")]) == ["jump"]  # the first step is 6♠
    assert codes([(1, "6♠"), (2, "6♣"), (0, "6♦"), (1, "pass"), (2, "6♥"), (0, "6БК"),
                  (2, "7♠"), (0, "pass")]) == []  # fmt: skip


def test_next_step_after_8nt_is_9_spades_not_misere_3_3_7() -> None:
    auction = [(1, "8БК"), (2, "9♠"), (0, "pass"), (1, "pass")]
    assert codes(auction, dealer=0) == ["jump"]  # only the opening 8БК jumps


def test_insufficient_bid_note_22() -> None:
    # the insufficient bid is void and its maker speaks again (note 22)
    assert codes([(1, "6♣"), (2, "6♠"), (2, "pass"), (0, "pass")]) == ["jump", "insufficient"]
    auction = [(1, "6♠"), (2, "6♣"), (0, "6♠"), (0, "6♦"), (1, "pass"), (2, "pass")]
    assert codes(auction) == ["insufficient"]
    assert auction_outcome(auction, dealer=0, players=3).declarer == 0


def test_misere_only_as_a_first_bid_3_3_9() -> None:
    found = check_auction([(1, "6♠"), (2, "6♣"), (0, "pass"), (1, "мизер"), (2, "pass")],
                          dealer=0, players=3)  # fmt: skip
    assert [v.code for v in found] == ["misere-not-first"]
    assert found[0].rule == "001 §3.3.9" and found[0].call == 3


def test_misere_over_a_six_is_a_first_bid_and_legal_3_3_9() -> None:
    assert codes([(1, "6♠"), (2, "mis"), (0, "pass"), (1, "pass")]) == []


def test_misere_beaten_only_by_a_nine_3_6_4() -> None:
    assert codes([(1, "mis"), (2, "9♠"), (0, "pass"), (1, "pass")]) == []
    found = check_auction([(1, "mis"), (2, "8БК"), (2, "pass"), (0, "pass")], dealer=0, players=3)
    assert [(v.code, v.rule) for v in found] == [("insufficient", "001 §3.6.4")]
    assert codes([(1, "mis"), (2, "9♦"), (0, "pass"), (1, "pass")]) == ["jump"]
    assert codes([(1, "9♠"), (2, "mis"), (2, "pass"), (0, "pass")]) == ["jump", "insufficient"]


def test_a_pass_is_final_3_3_10() -> None:
    assert codes([(1, "pass"), (2, "6♠"), (0, "6♣"), (1, "6♦"), (2, "pass")]) == [
        "bid-after-pass",
    ]


def test_out_of_turn_3_3_18_and_not_in_deal_3_2_10() -> None:
    assert codes([(1, "pass"), (0, "6♠"), (2, "pass")]) == ["out-of-turn"]
    found = codes([(0, "6♠"), (1, "pass"), (2, "pass"), (3, "pass")], dealer=0, players=4)
    assert found == ["not-in-deal"]  # the three others then pass: raspasy


def test_every_violation_is_reported_not_just_the_first() -> None:
    auction = [(1, "7♠"), (2, "7♠"), (0, "mis"), (1, "mis"), (2, "pass"), (1, "6♠")]
    assert codes(auction) == [
        "jump",  # 7♠ opens above 6♠ (001 §3.3.8)
        "hold-not-first-hand",  # the second hand repeats 7♠
        "misere-not-first",  # seat 2 bid 7♠ before (001 §3.3.9)
        "insufficient",  # …and misère does not beat misère: void, he speaks again (note 22)
        "out-of-turn",  # so seat 3 speaks out of turn (001 §3.3.18)
        "out-of-turn",  # and seat 2 after him, while seat 1 was to speak
        "insufficient",  # 6♠ does not beat misère (001 §3.6.4)
        "incomplete",
    ]


def test_all_pass_is_raspasy_3_3_12() -> None:
    outcome = auction_outcome([(1, "pass"), (2, "pass"), (0, "pass")], dealer=0, players=3)
    assert outcome.raspasy and outcome.declarer is None
    assert codes([(1, "pass"), (2, "pass"), (0, "pass")], raspasy=True) == []
    assert codes([(1, "pass"), (2, "pass"), (0, "pass")], contract=c("6♠"), declarer=0) == [
        "contract-after-all-pass"
    ]
    assert codes([(1, "6♠"), (2, "pass"), (0, "pass")], raspasy=True) == ["raspasy-after-bid"]


def test_third_hand_takes_the_talon_after_two_passes_3_3_15() -> None:
    auction = [(1, "pass"), (2, "pass"), (0, "беру")]
    outcome = auction_outcome(auction, dealer=0, players=3)
    assert outcome.declarer == 0 and outcome.took_talon and outcome.final_bid is None
    assert codes(auction, contract=c("6♠"), declarer=0) == []
    assert codes(auction, contract=MISERE, declarer=0) == ["take-misere"]
    # four players: the third hand is the dealer's right neighbour
    assert codes([(1, "pass"), (2, "pass"), (3, "take")], dealer=0, players=4) == []


def test_only_the_third_hand_after_two_passes_may_take_3_3_15() -> None:
    assert codes([(1, "pass"), (2, "take")]) == ["take-not-allowed"]
    assert codes([(1, "6♠"), (2, "pass"), (0, "take")]) == ["take-not-allowed"]


def test_incomplete_and_after_end() -> None:
    assert codes([(1, "6♠"), (2, "pass")]) == ["incomplete"]
    assert codes([(1, "6♠"), (2, "pass"), (0, "pass"), (2, "6♣")]) == ["after-end"]


def test_unreadable_call_is_a_finding_not_an_exception() -> None:
    found = check_auction([(1, "шесть"), (1, "6♠"), (2, "pass"), (0, "pass")],
                          dealer=0, players=3)  # fmt: skip
    assert [v.code for v in found] == ["unreadable-call"]
    assert "'шесть'" in found[0].message


# --- the contract: 001 §3.4.3, §3.3.9, §3.3.13 ---------------------------------------------


def test_contract_not_below_the_final_bid_3_4_3() -> None:
    auction = [(1, "6♠"), (2, "6♣"), (0, "6♦"), (1, "pass"), (2, "pass")]
    assert codes(auction, contract=c("6♦"), declarer=0) == []
    assert codes(auction, contract=c("8♠"), declarer=0) == []
    found = check_auction(auction, dealer=0, players=3, contract=c("6♣"), declarer=0)
    assert [(v.code, v.rule) for v in found] == [("below-bid", "001 §3.4.3")]
    assert "6♣" in found[0].message and "6♦" in found[0].message


def test_misere_contract_needs_a_misere_bid_3_3_9() -> None:
    auction = [(1, "mis"), (2, "pass"), (0, "pass")]
    assert codes(auction, contract=MISERE, declarer=1) == []
    assert codes([(1, "6♠"), (2, "pass"), (0, "pass")], contract=MISERE, declarer=1) == [
        "misere-not-bid"
    ]


def test_declarer_is_the_winner_3_3_13() -> None:
    auction = [(1, "6♠"), (2, "pass"), (0, "pass")]
    assert codes(auction, contract=c("6♠"), declarer=2) == ["declarer-not-winner"]


def test_exit_from_raspasy_3_7_8_and_archaic_3_7_7() -> None:
    assert exit_level(0) == exit_level(3) == 6  # any 6-level game exits (001 §3.7.8)
    assert [exit_level(k, archaic=True) for k in (0, 1, 2, 5)] == [6, 7, 8, 10]
    auction = [(1, "7♠"), (2, "pass"), (0, "pass")]
    assert codes(auction, contract=c("7♠"), declarer=1, min_level=7) == []
    low = [(1, "6♠"), (2, "pass"), (0, "pass")]
    assert codes(low, contract=c("6♠"), declarer=1, min_level=7) == [
        "below-exit-level",
        "below-exit-level",
    ]
    with pytest.raises(ValueError):
        exit_level(-1)


def test_check_contract_direct() -> None:
    outcome = auction_outcome([(1, "6♠"), (2, "pass"), (0, "pass")], dealer=0, players=3)
    assert [v.code for v in check_contract(outcome, None)] == ["raspasy-after-bid"]
    assert str(check_contract(outcome, c("6♠"), declarer=0)[0]).endswith("(001 §3.3.13)")


# --- property: every legal auction checks clean --------------------------------------------


@st.composite
def legal_auctions(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, str]], int | None, str]:
    """A legal auction played by the rules of 001 §3.3, independently of rules.bidding:
    returns (players, dealer, auction, expected declarer, expected final bid or "")."""
    n = draw(st.sampled_from([3, 4]))
    dealer = draw(st.integers(0, n - 1))
    seats = active_seats(dealer, n)
    ladder = [x for x in LADDER if not x.is_misere]
    high: Contract | None = None
    high_seat: int | None = None
    passed: set[int] = set()
    spoke: set[int] = set()
    auction: list[tuple[int, str]] = []
    turn = 0
    while True:
        seat = seats[turn]
        options = ["pass"]
        nxt = None
        if high is None:
            nxt = ladder[0]
        elif high.is_misere:
            nxt = c("9♠")
        elif high != ladder[-1]:
            nxt = ladder[ladder.index(high) + 1]
        if nxt is not None:
            options.append("raise")
        if seat == seats[0] and high is not None and not high.is_misere and high_seat != seat:
            options.append("hold")
        if seat not in spoke and (high is None or high < MISERE):
            options.append("misere")
        if seat == seats[2] and passed == set(seats[:2]) and high is None:
            options.append("take")
        choice = draw(st.sampled_from(options))
        if choice == "pass":
            passed.add(seat)
            auction.append((seat, draw(st.sampled_from(["pass", "пас", "Pass"]))))
        elif choice == "raise":
            assert nxt is not None
            high, high_seat = nxt, seat
            auction.append((seat, draw(st.sampled_from([str(nxt), nxt.ascii, nxt.ascii.lower()]))))
        elif choice == "hold":
            auction.append((seat, draw(st.sampled_from(["здесь", f"{high} здесь", str(high)]))))
            high_seat = seat
        elif choice == "misere":
            high, high_seat = MISERE, seat
            auction.append((seat, draw(st.sampled_from(["mis", "мизер"]))))
        else:
            auction.append((seat, "беру"))
            return n, dealer, auction, seat, ""
        spoke.add(seat)
        live = [s for s in seats if s not in passed]
        if len(passed) == 3:
            return n, dealer, auction, None, ""
        if high is not None and live == [high_seat]:
            return n, dealer, auction, high_seat, str(high)
        position = seats.index(seat)
        turn = next(
            (position + k) % 3 for k in (1, 2, 3) if seats[(position + k) % 3] not in passed
        )


@settings(max_examples=300)
@given(legal_auctions())
def test_every_legal_auction_checks_clean(
    case: tuple[int, int, list[tuple[int, str]], int | None, str],
) -> None:
    n, dealer, auction, declarer, final = case
    outcome = auction_outcome(auction, dealer=dealer, players=n)
    assert outcome.declarer == declarer
    assert (str(outcome.final_bid) if outcome.final_bid else "") == final
    assert check_auction(auction, dealer=dealer, players=n) == []
    if declarer is None:
        assert check_auction(auction, dealer=dealer, players=n, raspasy=True) == []
    else:
        contract = outcome.final_bid or c("6♠")
        assert check_auction(
            auction, dealer=dealer, players=n, contract=contract, declarer=declarer
        ) == []  # fmt: skip
        higher = [x for x in LADDER if x > contract and not x.is_misere]
        if higher:  # any contract above the final bid is allowed too (001 §3.4.3)
            assert not check_auction(
                auction, dealer=dealer, players=n, contract=higher[-1], declarer=declarer
            )


@settings(max_examples=300)
@given(legal_auctions(), st.data())
def test_a_dropped_call_or_a_wrong_seat_is_found(
    case: tuple[int, int, list[tuple[int, str]], int | None, str], data: st.DataObject
) -> None:
    n, dealer, auction, _, _ = case
    if len(auction) < 2:
        return
    k = data.draw(st.integers(0, len(auction) - 2))
    dropped = auction[:k] + auction[k + 1 :]
    moved = list(auction)
    seat = moved[k][0]
    moved[k] = (data.draw(st.sampled_from([s for s in range(n) if s != seat])), moved[k][1])
    for broken in (dropped, moved):
        if broken == auction:
            continue
        assert check_auction(broken, dealer=dealer, players=n)
