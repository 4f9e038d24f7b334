"""The bidding constraints (variants.md §5.3 and §6; seed 000 "Budgivningen", "Köp och
spelangivelse", "Efterköp"; seed 003)."""

from __future__ import annotations

from scoring.findings import Severity
from scoring.pot.auction import check_auction
from scoring.pot.check import check
from scoring.pot.protocol import Hand, Rundpass

from .helpers import ABCD, GO, c, codes, game


def vienna(auction, size=3, dealer=2):
    return check_auction(tuple(auction), size, dealer, 0, "viennese")


def germany(auction, **kw):
    return check_auction(tuple(auction), 3, 0, 0, "german", **kw)


def found(outcome):
    return [f.code for f in outcome.findings]


def test_forehand_holds_at_one_to_four():
    # 000 "Budgivningen": "har hen fortsättningsvis rätt att hålla bud på nivån ett till fyra"
    out = vienna([(0, "1"), (1, "2"), (2, "pass"), (0, "2"), (1, "pass")])
    assert (found(out), out.declarer, out.final, out.bidders) == ([], 0, "2", {0, 1})


def test_after_forehand_passes_the_dealer_holds_and_nobody_else():
    # 000: "Om förhand inleder med att passa, går rätten att hålla bud över till givaren"
    out = vienna([(0, "pass"), (1, "1"), (2, "1"), (1, "pass")])
    assert (found(out), out.declarer) == ([], 2)
    assert found(vienna([(0, "pass"), (1, "1"), (2, "2"), (1, "2")])) == [
        "AUCTION_HOLD",
        "AUCTION_INCOMPLETE",
    ]


def test_four_players_the_hold_passes_to_the_left_of_forehand():
    # 000 "Spel på fyra personer": "går rätten att hålla bud … över till spelaren till vänster om
    # förhand"; dealer 0 sits out, forehand 1
    out = vienna([(1, "pass"), (2, "1"), (3, "2"), (2, "2"), (3, "pass")], size=4, dealer=0)
    assert (found(out), out.declarer) == ([], 2)
    assert "AUCTION_HOLD" in found(vienna([(1, "pass"), (2, "1"), (3, "1")], size=4, dealer=0))


def test_level_lock_and_premium_at_the_first_turn():
    # 000: "En spelare som bjuder något av kontrakten ett till fyra första gången … får sedan inte
    # ge bud högre än fyra"; "måste börja med att bjuda ett premiekontrakt"
    assert found(vienna([(0, "1"), (1, "2"), (2, "pass"), (0, "5")]))[0] == "AUCTION_LEVEL_LOCK"
    assert found(vienna([(0, "spel"), (1, "pass"), (2, "pass"), (0, "5")]))[0] == \
        "AUCTION_AFTER_END"  # fmt: skip
    out = vienna([(0, "5"), (1, "6"), (2, "pass"), (0, "7"), (1, "pass")])
    assert (found(out), out.final) == ([], "7")  # a premium bidder raises at his next turn


def test_spel_the_first_names_first_and_the_second_names_higher_not_hearts():
    # 000: "Den första budgivaren måste då … ange trumffärgen … Den andra budgivaren svarar med att
    # ange en högre trumffärg — dock inte hjärter — eller passa"
    out = vienna([(0, "spel"), (1, "spel"), (2, "pass"), (0, "2u"), (1, "3u"), (0, "pass")])
    assert (found(out), out.declarer, out.final) == ([], 1, "3u")
    assert "AUCTION_NOT_HIGHER" in found(vienna([(0, "spel"), (1, "spel"), (2, "pass"), (0, "2u"),
                                                 (1, "2u")]))  # fmt: skip
    assert "AUCTION_LEVEL_LOCK" in found(vienna([(0, "spel"), (1, "spel"), (2, "pass"),
                                                 (0, "2u"), (1, "4u")]))  # fmt: skip
    assert "AUCTION_SPEL" in found(vienna([(0, "2u"), (1, "pass"), (2, "pass")]))


def test_hearts_and_fem_rank_equal():
    # 000: "en spelare som vill bjuda över hjärter eller fem måste göra det med minst fem utan köp
    # eller sex"
    assert "AUCTION_NOT_HIGHER" in found(vienna([(0, "4u"), (1, "5")]))
    assert found(vienna([(0, "4u"), (1, "5u"), (2, "pass"), (0, "pass")])) == []


def test_turns_and_passes():
    assert found(vienna([(0, "1"), (1, "pass"), (2, "2"), (1, "3")]))[:2] == [
        "AUCTION_TURN",
        "AUCTION_PASSED",
    ]
    assert found(vienna([(0, "pass"), (1, "1"), (2, "pass"), (0, "2")])) == ["AUCTION_AFTER_END"]
    assert "AUCTION_TURN" in found(vienna([(1, "1"), (0, "pass"), (2, "pass")]))
    assert found(vienna([(0, "pass"), (1, "pass"), (2, "pass")])) == []


def test_the_contract_must_fit_the_final_bid():
    # 000 "Köp och spelangivelse"; variants.md §5.3 5-6
    def hand(contract, auction, **kw):
        return game(Hand(0, c(contract), kw.pop("defence", (GO, GO)), tricks=kw.pop("tricks",
                    (6, 2, 2)), auction=tuple(auction)), opening_pot=10)  # fmt: skip

    two = [(0, "2"), (1, "pass"), (2, "pass")]
    assert codes(check(hand("1", two))) == ["CONTRACT_BID"]
    assert check(hand("3", two)).ok
    assert codes(check(hand("1u", two))) == ["CONTRACT_BID"]
    spel = [(0, "spel"), (1, "pass"), (2, "pass")]
    assert check(hand("3u", spel)).ok
    assert codes(check(hand("4u", spel))) == ["CONTRACT_BID"]
    fem = [(0, "5"), (1, "pass"), (2, "pass")]
    assert check(game(Hand(0, c("6"), tricks=(10, 0, 0), auction=tuple(fem)), opening_pot=10)).ok
    fem_uk = [(0, "5u"), (1, "pass"), (2, "pass")]
    assert codes(check(game(Hand(0, c("6u"), tricks=(10, 0, 0), auction=tuple(fem_uk)),
                            opening_pot=10))) == ["CONTRACT_BID"]  # fmt: skip
    assert codes(check(hand("2", [(0, "pass"), (1, "2"), (2, "pass")]))) == ["AUCTION_DECLARER"]


def test_efterkop_only_by_bidders():
    # 000 "Efterköp": "Var och en av de övriga spelarna som har givit minst ett bud annat än pass"
    auction = ((0, "1"), (1, "pass"), (2, "pass"))
    p = game(Hand(0, c("1"), efterkop=((1, c("5")),), tricks=(5, 0, 5), auction=auction),
             opening_pot=10)  # fmt: skip
    assert codes(check(p)) == ["EFTERKOP_BIDDER"]
    auction = ((0, "1"), (1, "2"), (2, "pass"), (0, "2"), (1, "pass"))
    assert check(p.with_deals((Hand(0, c("2"), efterkop=((1, c("5")),), tricks=(5, 0, 5),
                                    auction=auction),))).ok  # fmt: skip


def test_rundpass_needs_three_passes():
    p = game(Rundpass((3, 3, 4), auction=((0, "pass"), (1, "1"), (2, "pass"))))
    assert codes(check(p)) == ["AUCTION_DEAL"]
    assert check(game(Rundpass((3, 3, 4), auction=((0, "pass"), (1, "pass"), (2, "pass"))))).ok
    four = game(Rundpass((0, 3, 3, 4), auction=((1, "pass"), (2, "pass"), (3, "pass"))),
                players=ABCD, first_dealer=0)  # fmt: skip
    assert check(four).ok


def test_german_vorhand_says_eins_and_each_bid_is_higher():
    # 003: "Vorhand … muss also entweder passen oder melden: Eins"; variants.md §6 1
    out = germany([(1, "1"), (2, "2"), (0, "3"), (1, "pass"), (2, "pass")])
    assert (found(out), out.declarer, out.final) == ([], 0, "3")
    assert found(germany([(1, "2"), (2, "pass"), (0, "pass")])) == ["AUCTION_VORHAND"]
    assert "AUCTION_NOT_HIGHER" in found(germany([(1, "1"), (2, "1")]))


def test_german_hand_game_only_before_bidding_and_herz_is_praemie():
    # 003: "Wer schon gereizt hat, darf kein Handspiel mehr ansagen"; "Ein Spiel in Herz heißt
    # Prämie und muss auch so angesagt werden"
    out = germany([(1, "1"), (2, "2"), (0, "pass"), (1, "3u"), (2, "pass")])
    assert found(out) == ["AUCTION_HAND_AFTER_BID"]
    assert found(germany([(1, "pass"), (2, "herz"), (0, "pass")])) == ["AUCTION_PRAEMIE"]
    assert found(germany([(1, "pass"), (2, "4"), (0, "pass")])) == []


def test_german_hand_game_of_the_same_suit_is_undefined_unless_ranked_by_option():
    # A-DE-3
    auction = [(1, "pass"), (2, "2"), (0, "2u"), (2, "pass")]
    out = germany(auction)
    assert found(out) == ["AUCTION_HAND_TIE"] and out.findings[0].severity is Severity.WARNING
    assert out.declarer == 0
    assert found(germany(auction, hand_higher=True)) == []


def test_german_trump_at_least_the_bid():
    # 003: "bestimmt die Trumpffarbe — die mindestens dem Höchstgebot entsprechen muss"
    auction = ((1, "1"), (2, "2"), (0, "pass"), (1, "pass"))
    low = game(Hand(2, c("1"), (GO, GO), tricks=(2, 2, 6), auction=auction), convention="german",
               first_dealer=0)  # fmt: skip
    assert codes(check(low)) == ["CONTRACT_BID"]
    assert check(low.with_deals((Hand(2, c("4"), (GO, GO), tricks=(2, 2, 6), auction=auction),))).ok


def test_german_bidding_past_the_first_round_is_the_default_reading():
    # 003: "Wer am höchsten gereizt hat, macht das Spiel"; "Wer schon gereizt hat, darf kein
    # Handspiel mehr ansagen" presupposes a bidder speaking again: by default (option bidding
    # "rounds") the auction goes round until two have passed
    out = germany([(1, "1"), (2, "2"), (0, "pass"), (1, "3"), (2, "pass")])
    assert (found(out), out.declarer, out.final) == ([], 1, "3")
    out = germany([(1, "1"), (2, "2"), (0, "3")])  # nobody has passed yet: not ended
    assert found(out) == ["AUCTION_INCOMPLETE"]


def test_german_one_round_bidding_each_speaks_once():
    # 003: "Vorhand muss also entweder passen oder melden: Eins … Mittelhand kann ebenfalls
    # passen oder muss überbieten (Zwei). Der Kartengeber hat das gleiche Recht: er passt oder
    # meldet Drei"; the seeds' README: "one-round bidding" (option bidding="one_round")
    out = germany([(1, "1"), (2, "2"), (0, "3")], one_round=True)
    assert (found(out), out.declarer, out.final) == ([], 0, "3")
    out = germany([(1, "1"), (2, "2"), (0, "pass"), (1, "3"), (2, "pass")], one_round=True)
    (f,) = out.findings
    assert f.code == "AUCTION_AFTER_END" and "each speaks once" in f.message and f.source == "003"
    assert (out.declarer, out.final) == (2, "2")
    assert found(germany([(1, "pass"), (2, "pass"), (0, "pass")], one_round=True)) == []
    # the Viennese auction does not change with it
    assert found(vienna([(0, "1"), (1, "2"), (2, "pass"), (0, "2"), (1, "pass")])) == []


def test_german_bidding_option_reaches_the_checker():
    from rules.pot import find_convention

    assert find_convention("german").bidding == "rounds"
    auction = ((1, "1"), (2, "2"), (0, "pass"), (1, "3"), (2, "pass"))
    hand = Hand(1, c("3"), (GO, GO), tricks=(2, 6, 2), auction=auction)
    assert check(game(hand, convention="german", first_dealer=0)).ok
    report = check(game(hand, convention="german", first_dealer=0, bidding="one_round"))
    assert "AUCTION_AFTER_END" in codes(report)
