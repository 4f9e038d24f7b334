"""The worked example and illustrations of seed 000 "Betalning", transfer by transfer."""

from __future__ import annotations

from rules.pot import PotContract
from scoring.pot.protocol import Decision, Hand, PotProtocol
from scoring.pot.score import POT, Transfer, TrickPayment, score

GO = (Decision.GO, Decision.GO)


def _one(deal, *, opening_pot=0, players=("Anna", "Bertil", "Cecilia"), first_dealer=2, **options):
    p = PotProtocol(players=players, deals=(deal,), opening_pot=opening_pot,
                    first_dealer=first_dealer).with_options(**options)
    return score(p)


def test_seed_000_payment_example_pot_20_max_30_tricks_5_1_4():
    # 000 "Betalning", Exempel: "Det ligger tjugo enheter i potten, och maxbeloppet är trettio
    # enheter. Spelföraren tar fem stick, medspelaren till vänster ett stick, och medspelaren
    # till höger fyra stick." The pot holds 20 after the dealer's ante of one base stake.
    game = _one(Hand(0, PotContract(3), GO, tricks=(5, 1, 4)), opening_pot=10, max_amount=30)
    d = game.deals[0]
    assert (d.pot_before, d.ante, d.amount, d.trick_value, d.forced) == (10, 10, 20, 2, False)
    assert d.made is False
    # "Spelföraren och medspelaren till vänster har fallit och skall betala vardera tjugo enheter"
    assert d.fell == (0, 1)
    # "… ge spelaren till vänster två enheter och spelaren till höger åtta enheter"
    assert d.trick_payments == (TrickPayment(0, 1, 1, 2), TrickPayment(0, 2, 4, 8))
    assert d.premium_payments == ()
    assert d.transfers == (
        Transfer(2, POT, 10, "ante"),
        Transfer(0, 1, 2, "tricks"),
        Transfer(0, 2, 8, "tricks"),
        Transfer(0, POT, 20, "fall"),
        Transfer(1, POT, 20, "fall"),
    )
    assert d.nets == (-30, -18, -2)
    assert d.pot == 60  # the falling payments stay in the pot for the next deal
    assert sum(d.nets) + d.pot == 10


def test_seed_000_one_base_stake_in_the_pot_makes_a_trick_one_unit_and_forces_play():
    # 000 "Betalning": "Om det till exempel ligger en grundinsats på tio enheter i potten, är
    # varje stick värt en enhet." 000 "Gå med…": "Den första given i ett parti är således alltid
    # tvång."
    d = _one(Hand(0, PotContract(1), (Decision.FORCED, Decision.FORCED), tricks=(6, 2, 2))).deals[0]
    assert (d.amount, d.trick_value, d.forced, d.made, d.fell) == (10, 1, True, True, ())
    assert d.trick_payments == (TrickPayment(0, 1, 2, 2), TrickPayment(0, 2, 2, 2))
    assert d.nets == (10 - 4, 2, 2 - 10) and d.pot == 0


def test_seed_000_five_base_stakes_with_max_three_makes_a_trick_three_units():
    # 000 "Betalning": "Om det ligger fem grundinsatser i potten och maxbeloppet är tre
    # grundinsatser, är varje stick värt tre enheter." The excess stays for the next deal.
    d = _one(Hand(0, PotContract(2), GO, tricks=(7, 2, 1)), opening_pot=40).deals[0]
    assert (d.amount, d.trick_value, d.made, d.fell) == (30, 3, True, (2,))
    assert d.trick_payments == (TrickPayment(0, 1, 2, 6), TrickPayment(0, 2, 1, 3))
    # the declarer takes A = 30 of the 50; the falling right defender pays 30 in
    assert d.pot == 50 - 30 + 30
    assert d.nets == (30 - 9, 6, 3 - 30 - 10)
