"""Properties of the pot games over random legal games (both conventions, 3 and 4 players)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.pot import jsonio, notation
from scoring.pot.check import check
from scoring.pot.generate import random_protocol
from scoring.pot.protocol import Hand, Ledger, LedgerRow, Rundpass
from scoring.pot.score import PotScoringError, score
from scoring.pot.variant import PotVariant, pairwise_results

TABLES = st.sampled_from([("viennese", 3), ("viennese", 4), ("german", 3)])
OPTIONS = st.sampled_from([
    (), (("max_amount", 50),), (("defender_quota", "team"),), (("invitation_pay", "own"),),
    (("premiums", "five_six"),), (("premiums", "hearts"),), (("negotiation", False),),
    (("base_stake", 20),), (("premium_cap", True),), (("pot_end", "keep"),),
])  # fmt: skip
GERMAN_OPTIONS = st.sampled_from([
    (), (("cap", 20),), (("cap", 30), ("cap_applies", "stake")), (("premium_payers", "going"),),
    (("herz_premium", 10),), (("ante", 20),), (("hand_game_rank", "hand_higher"),),
    (("bidding", "one_round"),),
])  # fmt: skip


@st.composite
def games(draw):
    convention, players = draw(TABLES)
    options = draw(OPTIONS if convention == "viennese" else GERMAN_OPTIONS)
    seed = draw(st.integers(0, 2**32))
    return random_protocol(random.Random(seed), convention=convention, players=players,
                           options=options)  # fmt: skip


@settings(deadline=None, max_examples=150)
@given(games(), st.integers(0, 200))
def test_the_pot_identity_holds_after_every_deal(p, opening):
    p = type(p)(**{**{f: getattr(p, f) for f in p.__dataclass_fields__}, "opening_pot": opening * 10})
    game = score(p)
    for d in game.deals:
        assert sum(d.nets) + d.pot == p.opening_pot
        assert sum(d.change(s) for s in range(p.size)) == -(d.pot - d.pot_before)
    if game.convention.pot_end == "share":
        assert sum(game.final) == p.opening_pot


@settings(deadline=None, max_examples=150)
@given(games())
def test_the_checker_is_clean_on_generated_games(p):
    report = check(p)
    assert report.ok, [str(f) for f in report.errors]


@settings(deadline=None, max_examples=150)
@given(games(), st.booleans())
def test_json_and_text_round_trip(p, with_ledger):
    ledger = None
    if with_ledger:
        game = score(p)
        ledger = Ledger(tuple(LedgerRow(d.nets, d.pot) for d in game.deals), game.final)
        assert check(p, ledger).ok
    assert jsonio.loads_with_ledger(jsonio.dumps(p, ledger)) == (p, ledger)
    assert notation.parse(notation.format(p, ledger)) == (p, ledger)
    assert notation.parse(notation.format(p, ledger, ascii=True)) == (p, ledger)


@settings(deadline=None, max_examples=60)
@given(games())
def test_pairwise_is_antisymmetric_and_sums_to_the_shared_result(p):
    r = pairwise_results(p)
    n = p.size
    assert all(r[a][b] == -r[b][a] for a in range(n) for b in range(n))
    game = score(p)
    shared = [Fraction(x) + Fraction(game.pot, n) for x in game.nets]
    assert [sum(row) for row in r] == shared
    assert sum(PotVariant().settlement(p)) == (0 if game.convention.pot_end == "share"
                                               else -game.pot)  # fmt: skip


def test_the_generator_covers_both_games_and_table_sizes():
    seen = set()
    kinds = set()
    for seed in range(300):
        for convention, players in (("viennese", 3), ("viennese", 4), ("german", 3)):
            p = random_protocol(random.Random(seed), convention=convention, players=players)
            seen.add((p.rules().game, p.size))
            for d in p.deals:
                if isinstance(d, Hand):
                    kinds.add((p.rules().game, "efterkop" if d.efterkop else
                               "negotiated" if d.negotiated else d.played.code))  # fmt: skip
                    kinds.update((p.rules().game, dec.value) for dec in d.defence)
                elif isinstance(d, Rundpass):
                    kinds.add((p.rules().game, "rundpass"))
    assert seen == {("viennese", 3), ("viennese", 4), ("german", 3)}
    for wanted in ("efterkop", "negotiated", "rundpass", "4u", "8u", "invite", "forced", "home"):
        assert ("viennese", wanted) in kinds, wanted
    for wanted in ("4", "2u", "rundpass", "home"):
        assert ("german", wanted) in kinds, wanted


@settings(deadline=None, max_examples=100)
@given(games(), st.integers(0, 9))
def test_trick_money_is_a_tenth_of_the_amount_exactly_or_refused(p, odd):
    """000 "Betalning" / 003 "pro Stich ein Zehntel des Einsatzes" (issue #37): with any opening
    pot, each trick payment is exactly tricks × amount / 10, or the game is refused naming the
    tricks; it is never rounded down."""
    shifted = replace(p, opening_pot=p.opening_pot + odd)
    try:
        game = score(shifted)
    except PotScoringError as error:
        assert error.field == "tricks" and "not a multiple of 10" in str(error)
        return
    for d in game.deals:
        for t in d.trick_payments:
            assert t.amount == t.tricks * Fraction(d.amount, 10)
    assert sum(game.nets) + game.pot == shifted.opening_pot
