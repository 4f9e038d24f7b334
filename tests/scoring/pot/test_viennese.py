"""Viennese Préférence (seed 000): each payment rule and option, citing its section.

Seats Anna 0, Bertil 1, Cecilia 2; Cecilia deals first, so Anna is forehand and a declarer Anna's
defenders are Bertil (left) and Cecilia (right). ``opening_pot=10`` makes the pot 20 after the
ante: not forced.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.conventions import InvalidConventionError
from rules.pot import VIENNESE
from scoring.jsonio import JsonFormatError
from scoring.pot.check import check
from scoring.pot.jsonio import from_dict
from scoring.pot.protocol import Hand, Ledger, LedgerRow, Penalty, Rundpass
from scoring.pot.score import POT, PotScoringError, Transfer, TrickPayment, score

from .helpers import ABCD, FORCED, GO, HOME, INVITE, INVITED, c, codes, game


def one(deal, **kw):
    return score(game(deal, **kw)).deals[0]


def test_ante_every_deal_even_when_the_pot_is_not_empty():
    # 000 "Giv": "Denna insats skall alltid sättas, även om potten har kvar ett innehåll"
    d = one(Hand(0, c("1"), (HOME, HOME)), opening_pot=70)
    assert d.transfers[0] == Transfer(2, POT, 10, "ante")
    assert (d.pot_before, d.amount) == (70, 30)  # MAX = 3 G by default (000 "Förberedelser")


def test_both_stay_home_counts_as_ten_tricks_and_pays_no_trick_money():
    # 000 "Gå med…": "räknas det som att spelföraren har vunnit sitt kontrakt och tagit alla tio"
    d = one(Hand(0, c("2"), (HOME, HOME)), opening_pot=10)
    assert (d.made, d.trick_payments, d.fell) == (True, (), ())
    assert d.nets == (20, 0, -10) and d.pot == 0


def test_hearts_premium_is_paid_by_a_defender_who_stayed_home():
    # 000 "Betalning": "premiebetalningen även erhålls, alternativt betalas, av medspelare som
    # stannat hemma"
    d = one(Hand(0, c("4u"), (HOME, HOME)), opening_pot=10)
    assert d.premium_payments == (Transfer(1, 0, 10, "premium"), Transfer(2, 0, 10, "premium"))
    assert d.nets == (40, -10, -20)
    lost = one(Hand(0, c("4u"), (GO, HOME), tricks=(5, 5, 0)), opening_pot=10)
    assert lost.premium_payments == (Transfer(0, 1, 10, "premium"), Transfer(0, 2, 10, "premium"))


def test_one_defender_home_only_the_goer_is_paid_and_may_fall():
    # 000 "Betalning": "En medspelare som stannat hemma … får inte betalt"; "Gå med…": two tricks
    d = one(Hand(0, c("1"), (GO, HOME), tricks=(8, 2, 0)), opening_pot=10)
    assert d.trick_payments == (TrickPayment(0, 1, 2, 4),) and d.fell == ()
    assert d.nets == (16, 4, -10) and d.pot == 0
    d = one(Hand(0, c("1"), (GO, HOME), tricks=(9, 1, 0)), opening_pot=10)
    assert d.fell == (1,) and d.nets == (18, -18, -10) and d.pot == 20


def test_invitation_pays_the_inviter_for_both_and_only_he_can_fall():
    # 000 "Gå med…": "Det är då endast medspelaren som bjuder in som riskerar att falla, men också
    # endast hen som får betalt"; "sammanlagt ta minst fyra stick"; A-VI-4
    d = one(Hand(0, c("2"), (INVITE, INVITED), tricks=(6, 1, 3)), opening_pot=10)
    assert d.trick_payments == (TrickPayment(0, 1, 4, 8),) and d.fell == ()
    assert d.nets == (12, 8, -10)
    d = one(Hand(0, c("2"), (INVITED, INVITE), tricks=(7, 3, 0)), opening_pot=10)
    assert d.fell == (2,)  # the inviter (right) falls with 3 together; the invitee never
    assert d.trick_payments == (TrickPayment(0, 2, 3, 6),)


def test_option_invitation_pay_own():
    d = one(Hand(0, c("2"), (INVITE, INVITED), tricks=(6, 1, 3)), opening_pot=10,
            invitation_pay="own")  # fmt: skip
    assert d.trick_payments == (TrickPayment(0, 1, 1, 2), TrickPayment(0, 2, 3, 6))


def test_defender_quota_each_is_the_seed_reading_and_team_an_option():
    # A-VI-3: the seed's example makes the 1-trick defender fall although the side had 5
    deal = Hand(0, c("3"), (GO, GO), tricks=(5, 1, 4))
    assert one(deal, opening_pot=10).fell == (0, 1)
    assert one(deal, opening_pot=10, defender_quota="team").fell == (0,)
    assert one(Hand(0, c("3"), (GO, GO), tricks=(7, 1, 2)), opening_pot=10,
               defender_quota="team").fell == (1,)  # fmt: skip


def test_fem_made_takes_a_and_one_base_stake_from_each_without_trick_money():
    # 000 "Premiekontrakt" fem: no trick; "Betalning": no trick money, no defender falls
    d = one(Hand(0, c("5"), (), tricks=(0, 5, 5)), opening_pot=10)
    assert (d.made, d.trick_payments, d.fell) == (True, (), ())
    assert d.nets == (40, -10, -20) and d.pot == 0


def test_sex_utan_kop_failed_pays_a_and_three_stakes_to_each():
    # 000: "Sex utan köp … Premiebetalningen är tre grundinsatser"; defenders cannot fall
    d = one(Hand(0, c("6u"), (), tricks=(9, 1, 0)), opening_pot=10)
    assert (d.made, d.fell) == (False, (0,))
    assert d.premium_payments == (Transfer(0, 1, 30, "premium"), Transfer(0, 2, 30, "premium"))
    assert d.nets == (-80, 30, 20) and d.pot == 40


@pytest.mark.parametrize(("code", "stakes", "made_with"), [
    ("4u", 1, 6), ("5", 1, 0), ("5u", 2, 0), ("6", 2, 10), ("6u", 3, 10),
    ("7", 3, 0), ("7u", 4, 0), ("8", 4, 10), ("8u", 5, 10),
])  # fmt: skip
def test_premium_table_and_win_conditions(code, stakes, made_with):
    # 000 "Premiekontrakt" and "Betalning": fem, sex, sju, åtta 1–4 G, one more utan köp
    assert c(code).premium_stakes() == stakes
    assert c(code).made(made_with)
    assert not c(code).made(5)


def test_premium_is_not_limited_by_max_unless_the_option_says_so():
    # A-VI-5
    deal = Hand(0, c("8u"), (), tricks=(10, 0, 0))
    assert one(deal, opening_pot=10).premium_payments[0].amount == 50
    assert one(deal, opening_pot=10, premium_cap=True).premium_payments[0].amount == 30


def test_efterkop_makes_the_last_buyer_declarer_with_his_named_premium():
    # 000 "Efterköp"; A-VI-2: the premium of the named level with köp
    d = one(Hand(0, c("2"), efterkop=((1, c("6")),), tricks=(0, 10, 0)), opening_pot=10)
    assert (d.declarer, d.contract, d.made) == (1, c("6"), True)
    assert d.premium_payments == (Transfer(2, 1, 20, "premium"), Transfer(0, 1, 20, "premium"))
    assert d.nets == (-20, 60, -30)


def test_negotiated_split_is_paid_as_if_played():
    # 000 "Förhandling": "betalning sker enligt den överenskomna stickfördelningen"
    d = one(Hand(0, c("3u"), (GO, HOME), tricks=(7, 3, 0), negotiated=True), opening_pot=10)
    assert d.trick_payments == (TrickPayment(0, 1, 3, 6),) and d.made
    assert check(game(Hand(0, c("3u"), (GO, HOME), tricks=(7, 3, 0), negotiated=True),
                      opening_pot=10)).ok  # fmt: skip


def test_rundpass_top_trick_takers_pay_one_base_stake_even_from_a_bigger_pot():
    # 000 "Betalning": "straffavgiften vid krypspel alltid bara är en grundinsats"; ties both pay
    d = one(Rundpass((4, 4, 2)), opening_pot=40)
    assert d.fell == (0, 1) and d.amount is None
    assert d.transfers[1:] == (Transfer(0, POT, 10, "rundpass"), Transfer(1, POT, 10, "rundpass"))
    assert d.pot == 70


def test_four_players_the_dealer_antes_and_sits_out():
    # 000 "Spel på fyra personer": "Den som är givare delar ut korten och står sedan över"
    p = game(Hand(1, c("1"), (FORCED, FORCED), tricks=(0, 6, 2, 2)), Rundpass((3, 0, 3, 4)),
             players=ABCD, first_dealer=0)  # fmt: skip
    first, second = score(p).deals
    assert (first.sitting_out, first.forced, first.trick_value) == (0, True, 1)
    assert first.nets == (-10, 6, 2, 2)
    assert second.dealer == 1 and second.fell == (3,)  # David had most krypspel tricks
    assert check(p).ok
    bad = game(Hand(1, c("1"), (FORCED, FORCED), tricks=(1, 5, 2, 2)), players=ABCD,
               first_dealer=0)  # fmt: skip
    assert "TRICKS_NOT_PLAYING" in codes(check(bad))


def test_the_first_deal_is_forced_and_nobody_may_stay_home():
    # 000 "Gå med…": "Det är dock tvång att gå med om potten bara innehåller en grundinsats";
    # A-VI-1: tested after the ante; variants.md §5.3 10
    assert one(Hand(0, c("1"), (GO, GO), tricks=(6, 2, 2))).forced
    report = check(game(Hand(0, c("1"), (HOME, GO), tricks=(6, 0, 4))))
    assert codes(report) == ["TVANG"] and report.findings[0].source == "000"
    assert report.findings[0].rule == "Gå med eller stanna hemma"
    assert codes(check(game(Hand(0, c("1"), (FORCED, GO), tricks=(6, 2, 2)),
                            opening_pot=10))) == ["NOT_FORCED"]  # fmt: skip


def test_impossible_decisions_and_tricks_are_found():
    assert codes(check(game(Hand(0, c("5"), (GO, GO), tricks=(0, 5, 5)), opening_pot=10))) == [
        "DEFENCE_NOT_ASKED"
    ]  # 000 "Gå med…": "I alla premiekontrakt utom hjärter ställs ingen fråga"
    assert codes(check(game(Hand(0, c("2"), (INVITE, GO), tricks=(6, 2, 2)), opening_pot=10))) == [
        "INVITATION"
    ]
    assert codes(check(game(Hand(0, c("2"), (GO,), tricks=(6, 4, 0)), opening_pot=10))) == [
        "DEFENCE_COUNT"
    ]
    assert "TRICKS_SUM" in codes(check(game(Hand(0, c("2"), (GO, GO), tricks=(6, 2, 1)))))
    assert "TRICKS_MISSING" in codes(check(game(Hand(0, c("2"), (GO, GO)))))
    assert "TRICKS_NOT_PLAYING" in codes(check(game(Hand(0, c("2"), (GO, HOME), tricks=(6, 2, 2)),
                                                    opening_pot=10)))  # fmt: skip


def test_negotiation_rules():
    # 000 "Förhandling": only one going and one home; "Det är inte tillåtet att sluta ett avtal
    # som innebär att den ena spelaren faller"; variants.md §5.3 11
    both = Hand(0, c("2"), (GO, GO), tricks=(7, 2, 1), negotiated=True)
    assert "NEGOTIATION" in codes(check(game(both, opening_pot=10)))
    fall = Hand(0, c("2"), (GO, HOME), tricks=(5, 5, 0), negotiated=True)
    assert codes(check(game(fall, opening_pot=10))) == ["NEGOTIATION_FALL"]
    ok = Hand(0, c("2"), (GO, HOME), tricks=(7, 3, 0), negotiated=True)
    assert codes(check(game(ok, opening_pot=10, negotiation=False))) == ["NEGOTIATION"]


def test_efterkop_rules():
    # 000 "Efterköp"; variants.md §5.3 7-9
    low = Hand(0, c("2"), efterkop=((1, c("4")),), tricks=(0, 10, 0))
    assert "EFTERKOP_LEVEL" in codes(check(game(low, opening_pot=10)))
    flat = Hand(0, c("2"), efterkop=((1, c("5")), (0, c("5"))), tricks=(0, 0, 10))
    # two rules of 000 "Efterköp", two codes (issue #37): "minst nivån fem", "på högre nivå"
    assert "EFTERKOP_NOT_HIGHER" in codes(check(game(flat, opening_pot=10)))
    assert "EFTERKOP_LEVEL" not in codes(check(game(flat, opening_pot=10)))
    spel = Hand(0, c("2u"), efterkop=((1, c("5")),), tricks=(5, 0, 5))
    assert "EFTERKOP" in codes(check(game(spel, opening_pot=10)))
    own = Hand(0, c("2"), efterkop=((0, c("5")),), tricks=(0, 5, 5))
    assert "EFTERKOP_ORDER" in codes(check(game(own, opening_pot=10)))
    utan = Hand(0, c("2"), efterkop=((1, c("5u")),), tricks=(5, 0, 5))
    assert "EFTERKOP_LEVEL" in codes(check(game(utan, opening_pot=10)))


def test_option_premiums_limits_the_contracts():
    # 000 "Varianter": hjärter only, or without sju and åtta
    sju = Hand(0, c("7"), (), tricks=(0, 5, 5))
    assert codes(check(game(sju, opening_pot=10, premiums="five_six"))) == ["CONTRACT"]
    fem = Hand(0, c("5"), (), tricks=(0, 5, 5))
    assert codes(check(game(fem, opening_pot=10, premiums="hearts"))) == ["CONTRACT"]
    assert check(game(fem, opening_pot=10, premiums="five_six")).ok


def test_dealer_rotation_is_checked():
    # 000 "Giv": "Turen att ge går vidare medsols"
    report = check(game(Hand(0, c("1"), (GO, GO), tricks=(6, 2, 2), dealer=1)))
    assert codes(report) == ["DEALER"] and report.findings[0].expected == 2
    # read by people: the players by name, never a 0-based seat (issue 29)
    players = game(Hand(0, c("1"), (GO, GO), tricks=(6, 2, 2))).players
    message = report.findings[0].message
    assert players[1] in message and players[2] in message and "seat" not in message


def test_the_written_ledger_is_checked_cell_by_cell():
    p = game(Hand(0, c("3"), (GO, GO), tricks=(5, 1, 4)), opening_pot=10)
    good = Ledger((LedgerRow((-30, -18, -2), 60),), final=(-10, 2, 18))
    assert check(p, good).ok
    bad = Ledger((LedgerRow((-30, -16, -2), 40),), final=(-10, 2, 17))
    report = check(p, bad)
    assert codes(report) == ["LEDGER_NET", "LEDGER_POT", "LEDGER_RESULT"]
    net = report.findings[0]
    assert (net.player, net.column, net.written, net.expected) == (1, "net:1", -16, -18)


def test_pot_end_share_or_keep():
    # issue 26: the pot left at the end is shared equally by default, so the table sums to zero
    deal = Hand(0, c("3"), (GO, GO), tricks=(5, 1, 4))
    shared = score(game(deal))
    assert sum(shared.final) == 0 and shared.shares[0] == shared.pot / 3
    kept = score(game(deal, pot_end="keep"))
    assert kept.final == kept.nets and sum(kept.final) == -kept.pot


def test_options_are_validated_with_the_seed_section():
    with pytest.raises(InvalidConventionError, match="divisible by ten"):
        VIENNESE.with_options(base_stake=15)
    with pytest.raises(InvalidConventionError, match="below the base stake"):
        VIENNESE.with_options(base_stake=50, max_amount=40)
    with pytest.raises(InvalidConventionError, match="unknown option 'herz_premium'"):
        VIENNESE.with_options(herz_premium=5)
    assert VIENNESE.with_options(base_stake=50).max_units() == 150
    assert codes(check(game(Hand(0, c("1"), (GO, GO), tricks=(6, 2, 2)), base_stake=7))) == [
        "CONVENTION"
    ]


def test_a_larger_base_stake_and_ante_scale_every_amount():
    d = one(Hand(0, c("4u"), (GO, GO), tricks=(6, 2, 2)), base_stake=20)
    assert (d.ante, d.amount, d.trick_value, d.forced) == (20, 20, 2, True)
    assert d.premium_payments[0].amount == 20
    assert one(Hand(0, c("1"), (GO, GO), tricks=(6, 2, 2)), ante=20).forced is False


def test_efterkop_chain_in_turn_order_left_right_declarer_and_round_again():
    # 000 "Efterköp": "Spelaren till vänster om spelföraren agerar först och turen går vidare
    # medsols" … "kan spelaren till höger fortsätta och göra ett efterköp på efterköpet" … "går
    # turen tillbaka till spelföraren som också kan göra efterköp på tidigare efterköp" … "Turen …
    # fortsätter medsols tills ingen … vill göra ett nytt efterköp". Dealer Cecilia (2): Anna
    # (0) declares, Bertil (1) is her left, Cecilia her right.
    chain = ((1, c("5")), (2, c("6")), (0, c("7")), (1, c("8")))
    full = Hand(0, c("2"), efterkop=chain, tricks=(0, 10, 0))
    assert check(game(full, opening_pot=10)).ok
    d = one(full, opening_pot=10)
    assert (d.declarer, d.contract, d.made) == (1, c("8"), True)  # the last buyer plays åtta
    assert d.premium_payments == (Transfer(2, 1, 40, "premium"), Transfer(0, 1, 40, "premium"))
    # the right-hand defender may buy when the left passed, and the declarer after either
    for ok in (((2, c("5")),), ((1, c("5")), (0, c("6"))), ((2, c("5")), (1, c("6")))):
        assert check(game(Hand(0, c("2"), efterkop=ok, tricks=(0, 0, 10) if ok[-1][0] == 2 else
                                (0, 10, 0)), opening_pot=10)).ok, ok  # fmt: skip


def test_efterkop_out_of_turn_is_found_naming_the_turn():
    # 000 "Efterköp": the declarer does not buy first, nobody buys on his own efterköp
    first = check(game(Hand(0, c("2"), efterkop=((0, c("5")),), tricks=(0, 5, 5)), opening_pot=10))
    (f,) = first.findings
    assert (f.code, f.rule, f.source, f.player) == ("EFTERKOP_ORDER", "Efterköp", "000", 0)
    assert "turn begins at his left, Bertil, then his right, Cecilia" in f.message
    twice = Hand(0, c("2"), efterkop=((1, c("5")), (1, c("6"))), tricks=(0, 10, 0))
    (f,) = check(game(twice, opening_pot=10)).findings
    assert f.code == "EFTERKOP_ORDER" and "clockwise to Cecilia, then Anna" in f.message
    again = Hand(0, c("2"), efterkop=((1, c("5")), (0, c("6")), (0, c("7"))), tricks=(10, 0, 0))
    (f,) = check(game(again, opening_pot=10)).findings
    assert f.code == "EFTERKOP_ORDER" and "clockwise to Bertil, then Cecilia" in f.message


def test_efterkop_chain_only_by_bidders_when_the_auction_is_recorded():
    # 000 "Efterköp": "Var och en av de övriga spelarna som har givit minst ett bud annat än pass
    # har rätt att göra efterköp"; Cecilia passed, so she may not buy on Bertil's efterköp
    auction = ((0, "1"), (1, "2"), (2, "pass"), (0, "2"), (1, "pass"))
    fine = Hand(0, c("2"), efterkop=((1, c("5")), (0, c("6"))), tricks=(10, 0, 0), auction=auction)
    assert check(game(fine, opening_pot=10)).ok
    bad = Hand(0, c("2"), efterkop=((1, c("5")), (2, c("6"))), tricks=(0, 0, 10), auction=auction)
    (f,) = check(game(bad, opening_pot=10)).findings
    assert (f.code, f.player, f.rule) == ("EFTERKOP_BIDDER", 2, "Efterköp")
    assert "minst ett bud annat än pass" in f.message


def test_an_efterkop_chain_reads_and_writes_in_json_and_text_in_turn_order():
    from scoring.pot import jsonio, notation

    chain = ((1, c("5")), (2, c("6")), (0, c("7")))
    p = game(Hand(0, c("2"), efterkop=chain, tricks=(10, 0, 0)), opening_pot=10)
    data = jsonio.to_dict(p)
    assert data["version"] == 1  # the list of [seat, contract] pairs was always a chain
    assert data["deals"][0]["efterkop"] == [[1, "5"], [2, "6"], [0, "7"]]
    assert jsonio.from_dict(data)[0] == p
    text = notation.format(p)
    assert "Anna 2 efterköp Bertil fem efterköp Cecilia sex efterköp Anna sju / 10-0-0" in text
    assert notation.parse(text)[0] == p


def test_option_trump_obligation_changes_the_play_not_the_payments():
    # 000 "Varianter": "Det finns många kretsar som … också har så kallat trumftvång" — a rule of
    # the play of the cards; the protocol records tricks, so the payments are the same
    deals = (Hand(0, c("1"), (FORCED, FORCED), tricks=(6, 2, 2)),
             Hand(1, c("2"), (GO, GO), tricks=(3, 5, 2)))  # fmt: skip
    plain, strict = game(*deals), game(*deals, trump_obligation=True)
    assert strict.rules().trump_obligation and not plain.rules().trump_obligation
    assert score(strict).deals == score(plain).deals and check(strict).ok
    with pytest.raises(InvalidConventionError):
        game(*deals, convention="german", trump_obligation=True).rules()  # 003 has none


def test_trick_money_of_a_pot_not_a_multiple_of_ten_is_paid_exactly_or_refused():
    # 000 "Betalning": "Varje stick är värt en tiondel av beloppet"; an opening pot of 5 makes
    # 15 after the ante: a trick is worth 3/2 (issue #37), two tricks 3 chips, three 9/2
    d = one(Hand(0, c("1"), (GO, HOME), tricks=(8, 2, 0)), opening_pot=5)
    assert (d.amount, d.trick_value) == (15, Fraction(3, 2))
    assert d.trick_payments == (TrickPayment(0, 1, 2, 3),)  # integer division paid 2
    with pytest.raises(PotScoringError, match=r'deal 1: tricks: 3 tricks .* 9/2 chips.*"Betalning"'):
        score(game(Hand(0, c("1"), (GO, HOME), tricks=(7, 3, 0)), opening_pot=5))
    report = check(game(Hand(0, c("1"), (GO, HOME), tricks=(7, 3, 0)), opening_pot=5))
    assert codes(report) == ["UNSCORABLE"] and "multiple of 10" in report.findings[0].message


def test_two_players_with_the_same_name_are_refused_naming_the_field():
    # 000 "Förberedelser": the players agree the stakes among themselves; each has his net and a
    # column in the ledger, so each needs a name of his own (issue #37)
    same = game(Hand(0, c("1"), (HOME, HOME)), players=("A", "B", "a"))
    assert codes(check(same)) == ["PLAYER_NAMES"] and check(same).findings[0].column == "players"
    with pytest.raises(PotScoringError, match="players: seat 3 has the name of seat 1"):
        score(same)
    data = {"format": "pulka-pot-protocol", "version": 1, "players": ["A", "A", "A"], "deals": []}
    with pytest.raises(JsonFormatError, match=r"\$\.players\[1\]: 'A' is also the name at "
                                              r"\$\.players\[0\]"):
        from_dict(data)


def test_a_penalty_past_the_bound_is_refused_naming_the_field():
    # issue #37: every family's penalty amounts have a bound (scoring.model.PENALTY_MAX)
    from_ = game(Penalty(0, to_pot=10**40))
    with pytest.raises(PotScoringError, match=r"deal 1: to_pot: .* \(at most 1000000\)"):
        score(from_)
    assert codes(check(from_)) == ["UNSCORABLE"] and check(from_).findings[0].column == "to_pot"
    with pytest.raises(PotScoringError, match=r"deal 1: to_players: "):
        score(game(Penalty(0, to_players=((1, 10**7),))))
