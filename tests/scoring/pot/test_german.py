"""German Préférence (seed 003): each payment rule and option, citing the seed.

Seats Anna 0, Bertil 1, Cecilia 2; Anna deals first (and puts in the ten chips), Bertil is
Vorhand; a declarer Bertil's defenders are Cecilia (left), then Anna.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.pot.check import check
from scoring.pot.protocol import Hand, Rundpass
from scoring.pot.score import POT, PotScoringError, Transfer, TrickPayment, score

from .helpers import ABCD, GO, HOME, INVITE, INVITED, c, codes, game


def german(*deals, **kw):
    return game(*deals, convention="german", first_dealer=0, **kw)


def test_every_trick_is_paid_a_tenth_of_the_stake_from_the_pot_declarer_included():
    # 003: "pro Stich ein Zehntel des Einsatzes, egal, ob jeder seine vorgeschriebene Anzahl an
    # Stichen gemacht hat"
    d = score(german(Hand(1, c("1"), (GO, GO), tricks=(3, 6, 1)))).deals[0]
    assert (d.ante, d.amount, d.trick_value, d.made) == (10, 10, 1, True)
    assert d.trick_payments == (TrickPayment(POT, 1, 6, 6), TrickPayment(POT, 2, 1, 1),
                                TrickPayment(POT, 0, 3, 3))  # fmt: skip
    # Cecilia went along with one trick: the single stake into the next pot
    assert d.fell == (2,) and d.transfers[-1] == Transfer(2, POT, 10, "fall")
    assert d.nets == (-7, 6, -9) and d.pot == 10


def test_a_failed_declarer_brings_double_the_stake_into_the_next_pot():
    # 003: "muss er beim nächsten Spiel … den doppelten Einsatz (um den es zuletzt ging) dazulegen"
    p = german(Hand(1, c("1"), (GO, GO), tricks=(2, 5, 3)), Hand(2, c("2"), (GO, GO),
               tricks=(2, 2, 6)))  # fmt: skip
    first, second = score(p).deals
    assert first.fell == (1,) and first.pot == 20 and first.penalty_stake == 10
    assert (second.amount, second.trick_value) == (30, 3)  # the stake: 20 + the dealer's 10


def test_both_stay_home_the_declarer_collects_the_whole_stake():
    # 003: "Bleiben beide Mitspieler daheim, kassiert der Spielhalter den ganzen Einsatz"
    d = score(german(Hand(1, c("2"), (HOME, HOME)))).deals[0]
    assert d.transfers == (Transfer(0, POT, 10, "ante"), Transfer(POT, 1, 10, "take"))


def test_praemie_five_chips_each_way_including_a_defender_at_home():
    # 003: "Nur für das Spiel in Herz zahlt jeder Mitspieler dem Hauptspieler … 5 Marken"; A-DE-2
    d = score(german(Hand(1, c("4"), (HOME, GO), tricks=(3, 7, 0)))).deals[0]
    assert d.premium_payments == (Transfer(2, 1, 5, "premium"), Transfer(0, 1, 5, "premium"))
    going = score(german(Hand(1, c("4"), (HOME, GO), tricks=(3, 7, 0)),
                         premium_payers="going")).deals[0]  # fmt: skip
    assert going.premium_payments == (Transfer(0, 1, 5, "premium"),)
    lost = score(german(Hand(1, c("4"), (GO, GO), tricks=(2, 5, 3)))).deals[0]
    # "Fällt der Hauptspieler, muss er jedem anderen 5 Marken zahlen und … den doppelten Einsatz"
    assert lost.premium_payments == (Transfer(1, 2, 5, "premium"), Transfer(1, 0, 5, "premium"))
    assert Transfer(1, POT, 20, "fall") in lost.transfers
    assert score(german(Hand(1, c("4"), (GO, GO), tricks=(2, 6, 2)),
                        herz_premium=10)).deals[0].premium_payments[0].amount == 10  # fmt: skip


def test_aus_der_hand_is_paid_like_a_normal_game():
    # 003: "Ausgezahlt wird wie beim normalen Spiel."
    hand = score(german(Hand(1, c("2u"), (GO, GO), tricks=(2, 6, 2)))).deals[0]
    talon = score(german(Hand(1, c("2"), (GO, GO), tricks=(2, 6, 2)))).deals[0]
    assert hand.transfers == talon.transfers


def test_the_agreed_maximum_limits_the_penalties_by_default():
    # 003: "Um allzu hohe Einsätze zu vermeiden, sollte eine Höchstgrenze festgelegt werden";
    # A-DE-1: penalties from min(stake, cap); the stake paid out is never cut
    deals = (Hand(1, c("1"), (GO, GO), tricks=(2, 5, 3)), Hand(2, c("2"), (GO, GO), tricks=(2, 5, 3)))
    d = score(german(*deals, cap=20)).deals[1]
    assert (d.amount, d.trick_value, d.penalty_stake) == (30, 3, 20)
    assert Transfer(2, POT, 40, "fall") in d.transfers
    d = score(german(*deals, cap=20, cap_applies="stake")).deals[1]
    assert (d.amount, d.trick_value, d.penalty_stake) == (20, 2, 20)
    assert d.pot_before + d.ante - d.amount == 10  # the excess stays in the pot


def test_the_dealers_chips_are_an_option():
    d = score(german(Hand(1, c("1"), (GO, GO), tricks=(2, 6, 2)), ante=20)).deals[0]
    assert (d.ante, d.amount, d.trick_value) == (20, 20, 2)


def test_german_is_for_three_players():
    # 003: "Spieler: 3"
    p = game(Hand(1, c("1"), (GO, GO), tricks=(0, 6, 2, 2)), convention="german", players=ABCD,
             first_dealer=0)  # fmt: skip
    with pytest.raises(PotScoringError, match="players"):
        score(p)
    assert codes(check(p)) == ["PLAYERS"]


def test_what_the_german_game_does_not_have_is_found():
    inv = german(Hand(1, c("1"), (INVITE, INVITED), tricks=(2, 6, 2)))
    assert codes(check(inv)).count("DECISION") == 2
    assert "CONTRACT" in codes(check(german(Hand(1, c("5"), (GO, GO), tricks=(2, 6, 2)))))
    assert "NEGOTIATION" in codes(check(german(Hand(1, c("1"), (GO, HOME), tricks=(0, 7, 3),
                                                    negotiated=True))))  # fmt: skip
    report = check(german(Rundpass()))
    assert codes(report) == ["ALL_PASS"] and report.ok  # 003 is silent: a warning, thrown in
    assert score(german(Rundpass())).pot == 10
    assert check(german(Hand(1, c("1"), (GO, GO), tricks=(2, 6, 2)))).findings == ()


def test_option_hand_game_rank_reaches_the_checker():
    # A-DE-3: 003 "Melden mehrere Spieler, so macht der mit dem höchsten Spiel das Rennen" does
    # not rank "Zwei aus der Hand" against a talon "Zwei": flagged by default, higher by option
    auction = ((1, "pass"), (2, "2"), (0, "2u"), (2, "pass"))
    hand = Hand(0, c("2u"), (GO, GO), tricks=(6, 2, 2), auction=auction)
    report = check(german(hand))
    assert codes(report) == ["AUCTION_HAND_TIE"] and report.ok  # a warning only
    assert codes(check(german(hand, hand_game_rank="hand_higher"))) == []


def test_trick_money_of_a_stake_not_a_multiple_of_ten_is_paid_exactly_or_refused():
    # 003: "pro Stich ein Zehntel des Einsatzes"; 5 chips left in the pot and the dealer's ten
    # make a stake of 15: a trick is worth 3/2 (issue #37)
    d = score(german(Hand(1, c("1"), (GO, GO), tricks=(2, 6, 2)), opening_pot=5)).deals[0]
    assert (d.amount, d.trick_value) == (15, Fraction(3, 2))
    assert d.trick_payments == (TrickPayment(POT, 1, 6, 9), TrickPayment(POT, 2, 2, 3),
                                TrickPayment(POT, 0, 2, 3))  # fmt: skip
    with pytest.raises(PotScoringError, match=r"1 trick at .* 3/2 chips.*Zehntel"):
        score(german(Hand(1, c("1"), (GO, GO), tricks=(3, 6, 1)), opening_pot=5))
