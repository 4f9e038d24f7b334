"""Seed 004's scoring examples and each scoring rule and option, citing its section."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.conventions import InvalidConventionError
from rules.priffe import MODERN, OLD, find_convention
from scoring.priffe.protocol import Ending, Penalty
from scoring.priffe.score import score

from .helpers import AC, BD, A, B, C, D, game, hand


def written(*deals, **kw):
    """Per deal ((below AC, below BD), (above AC, above BD))."""
    return [(d.below, d.above) for d in score(game(*deals, **kw)).deals]


# --- the seed's own examples (004 "Poängräkning (det moderna sättet)") ------------------------


def test_seed_nine_tricks_give_30() -> None:
    # 004: "Nio stick ger alltså 30 poäng."
    assert written(hand(A, "hjärter", 9)) == [((30, 0), (0, 0))]
    assert written(hand(B, "pref", 9)) == [((0, 30), (0, 0))]


def test_seed_side_b_takes_eight_against_hjarter_and_gets_40() -> None:
    # 004: "Om bolag A alltså bjöd hjärter men bolag B vann given genom att ta hem åtta stick,
    # får bolag B 40 poäng."
    assert written(hand(A, "hjärter", 5)) == [((0, 40), (0, 0))]


@pytest.mark.parametrize(("tricks", "points"), [(6, 10), (5, 20), (4, 30), (2, 50)])
def test_seed_made_noll_scores_per_trick_under_seven(tricks: int, points: int) -> None:
    # 004: "Tog det t.ex. sex stick får det 10 poäng, tog det fem får det 20 poäng osv."
    assert written(hand(C, "noll", tricks)) == [((points, 0), (0, 0))]


# --- each rule ------------------------------------------------------------------------------


def test_failed_noll_gives_20_per_strafftrick() -> None:
    # 004: "Misslyckas bolaget, är det istället det andra bolaget som får 20 poäng per
    # strafftrick"; variants.md §7: declaring-side tricks − 6.
    assert written(hand(B, "noll", 8)) == [((40, 0), (0, 0))]


def test_tvangsnoll_scores_the_low_side_and_has_no_strafftrick() -> None:
    # 004: "Vid tvångsnoll förekommer dock inga strafftrick."
    assert written(hand(None, "tvångsnoll", 5)) == [((20, 0), (0, 0))]
    assert written(hand(None, "tvångsnoll", 9)) == [((0, 30), (0, 0))]


def test_tvangsnoll_has_no_slam() -> None:
    # variants.md A-PR-4: none, since tvångsnoll was not bid.
    assert written(hand(None, "tvångsnoll", 0)) == [((70, 0), (0, 0))]


@pytest.mark.parametrize(
    ("contract", "tricks", "expected"),
    [
        ("pref", 12, ((60, 0), (10, 0))),  # lillslam
        ("ruter", 13, ((70, 0), (20, 0))),  # storslam
        ("noll", 1, ((60, 0), (10, 0))),  # "resp. bara ett stick när man bjöd noll"
        ("noll", 0, ((70, 0), (20, 0))),
    ],
)
def test_slams_are_bonuses_above_the_line(contract, tricks, expected) -> None:
    # 004: "10 extra poäng i bonus för lillslam ... och 20 bonuspoäng för storslam";
    # variants.md A-PR-2: above the line, never toward game.
    assert written(hand(A, contract, tricks)) == [expected]


@pytest.mark.parametrize(
    ("contract", "tricks", "expected"),
    [
        ("hjärter", 1, ((0, 120), (0, 20))),  # lilla straffslam: opponents took 12
        ("pref", 0, ((0, 140), (0, 40))),  # stora straffslam
        ("noll", 12, ((0, 120), (0, 20))),  # A-PR-3: the noll side took 12
        ("noll", 13, ((0, 140), (0, 40))),
    ],
)
def test_straffslam_on_a_capital_failure(contract, tricks, expected) -> None:
    # 004: "Misslyckas bolaget kapitalt ... 20 poäng för lilla straffslam och 40 poäng för
    # stora straffslam."
    assert written(hand(A, contract, tricks)) == [expected]


@pytest.mark.parametrize(("pattern", "points"), [("4", 50), ("3+1", 40), ("3", 30)])
def test_honours_above_the_line_to_the_side_holding_them(pattern: str, points: int) -> None:
    # 004: "50 poäng för alla fyra på samma hand, 40 poäng för tre ... och den fjärde hos
    # medspelaren, respektive 30 poäng för tre av honnörerna på samma hand."
    assert written(hand(A, "hjärter", 7, honours=((B, pattern),))) == [((10, 0), (0, points))]


def test_honours_count_at_every_contract_including_tvangsnoll() -> None:
    # 004: "de fyra tvåorna i nollissimo/tvångsnoll"
    assert written(hand(None, "tvångsnoll", 6, honours=((C, "4"),))) == [((10, 0), (50, 0))]


def test_game_at_30_from_trick_points_only() -> None:
    # 004 "Utgång": "Det bolag som först får 30 eller fler trickpoäng har uppnått utgång. Mot
    # utgång får man bara räkna poäng för trick enligt ovan, ej poäng för honnörerna."
    s = score(game(hand(A, "hjärter", 8, honours=((A, "4"),)), hand(C, "ruter", 7)))
    first, second = s.deals
    assert first.game_points == (20, 0) and first.game_won_by is None
    assert second.game_points == (30, 0) and second.game_won_by == AC
    assert second.games == (1, 0)


def test_both_sides_restart_at_zero_below_the_line_after_a_game() -> None:
    # 004: "Så snart ett bolag uppnått utgång, börjar bägge bolagen om på noll poäng under
    # strecket."
    s = score(game(hand(B, "pref", 8), hand(A, "pref", 9), hand(B, "pref", 8)))
    assert [d.game_points for d in s.deals] == [(0, 20), (30, 20), (0, 20)]
    assert [d.game for d in s.deals] == [0, 0, 1]


def test_strafftrick_points_count_toward_game_by_default() -> None:
    # variants.md A-PR-1 default: "poäng för trick enligt ovan" excludes only honours.
    s = score(game(hand(A, "hjärter", 4)))
    assert s.deals[0].below == (0, 60) and s.deals[0].game_won_by == BD


def test_option_penalty_points_above_the_line() -> None:
    # variants.md A-PR-1 alternative: bridge-like, above the line, not toward game.
    s = score(game(hand(A, "hjärter", 4), penalty_points="above"))
    assert s.deals[0].below == (0, 0) and s.deals[0].above == (0, 60)
    assert s.deals[0].game_won_by is None


def test_a_sits_is_won_with_a_sides_second_game() -> None:
    # 004: "När ett bolag uppnått sin andra utgång, har det vunnit en sits."
    s = score(game(hand(A, "pref", 9), hand(B, "pref", 9), hand(C, "pref", 9)))
    assert [d.games for d in s.deals] == [(1, 0), (1, 1), (2, 1)]
    assert [d.sits_won_by for d in s.deals] == [None, None, AC]
    assert s.sits[0].winner == AC and s.sits[0].games == (2, 1)


def test_points_are_credited_to_both_partners() -> None:
    # 004: "Alla poäng som ett bolag får ges givetvis till bägge spelarna som just då är i
    # bolaget."
    s = score(game(hand(A, "hjärter", 9, honours=((D, "3"),))))
    assert s.player_totals == (30, 30, 30, 30)
    s = score(game(hand(A, "hjärter", 10)))
    assert s.player_totals[A] == s.player_totals[C] == 40
    assert s.player_totals[B] == s.player_totals[D] == 0


def test_three_sits_with_rotating_partners_and_player_totals() -> None:
    # 004: "När alla har spelat mot alla under sammanlagt tre sitsar, vinner den spelare som
    # har flest poäng totalt."  Sits 1: A+C, sits 2: A+B, sits 3: A+D (default_sittings).
    deals = []
    for sits in range(3):
        deals += [hand(A, "pref", 9, sits=sits), hand(A, "pref", 9, sits=sits)]
    s = score(game(*deals, ending=Ending.CLOSED))
    assert [x.winner for x in s.sits] == [0, 0, 0]
    assert s.player_totals == (180, 60, 60, 60)
    assert s.closed_at == 5


def test_penalty_goes_above_the_line_to_the_opponents() -> None:
    s = score(game(Penalty(sits=0, player=B, points=50, rule="ruling")))
    assert s.deals[0].above == (50, 0) and s.deals[0].dealer is None
    assert s.player_totals == (50, 0, 50, 0)


# --- old-fashioned (004 "Priffe i gammaldags variant", variants.md §8) ------------------------


@pytest.mark.parametrize(
    ("contract", "value"),
    [("spader", 2), ("klöver", 3), ("ruter", 4), ("hjärter", 5), ("noll", 6), ("pref", 8)],
)
def test_old_trick_values(contract: str, value: int) -> None:
    # 004: "spader fick man 2 poäng, i klöver 3, i ruter 4 och i hjärter 5 poäng per trick. I
    # nollissimo fick man 6 poäng, och i preference hela 8 poäng per trick."
    tricks = 5 if contract == "noll" else 9  # two under seven / three over six
    per = 2 if contract == "noll" else 3
    [(below, _)] = written(hand(A, contract, tricks), convention="old")
    assert below == (per * value, 0)


def test_old_strafftrick_counts_double() -> None:
    # 004: "För strafftrick räknades dubbelt, i likhet med ovan." Two strafftrick at hjärter:
    # 2 × 2 × 5 = 20, a game for the opponents (+10, their first).
    assert written(hand(A, "hjärter", 5), convention="old") == [((0, 20), (0, 10))]


def test_old_tvangsnoll_has_the_nollissimo_value() -> None:
    # variants.md A-PO-2: 6 per trick under seven, no strafftrick.
    assert written(hand(None, "tvångsnoll", 4), convention="old") == [((18, 0), (0, 0))]


@pytest.mark.parametrize(("pattern", "tricks"), [("4", 4), ("3", 2), ("3+1", 2)])
def test_old_honours_are_worth_tricks(pattern: str, tricks: int) -> None:
    # 004: "För tre av honnörerna i samma hand fick man lika mycket som för två trick, och för
    # alla fyra i samma hand lika mycket som för fyra trick." A-PO-1: 3+1 counts as three.
    out = written(hand(A, "pref", 7, honours=((A, pattern),)), convention="old")
    assert out == [((8, 0), (8 * tricks, 0))]


def test_old_slams_10_and_20_and_no_straffslam() -> None:
    # 004: "Lillslam belönades med 10 poäng, och storslam med 20."; A-PO-3: no straffslam.
    assert written(hand(A, "spader", 12), convention="old") == [((12, 0), (10, 0))]
    assert written(hand(A, "spader", 13), convention="old") == [((14, 0), (20, 0))]
    # 13 tricks against spader: 7 strafftrick × 4 = 28, a game (+10), and no straffslam.
    assert written(hand(A, "spader", 0), convention="old") == [((0, 28), (0, 10))]


def test_old_option_straffslam() -> None:
    out = written(hand(A, "spader", 0), convention="old", straffslam=True)
    assert out == [((0, 28), (0, 50))]


def test_old_game_at_20_with_bonuses_10_and_20() -> None:
    # 004: "För utgång krävdes 20 poäng eller mer. Första utgång gav en bonus på 10 poäng,
    # andra utgång en bonus på 20 poäng." A-PO-4: per side.
    s = score(
        game(
            hand(A, "ruter", 10),  # 16: no game
            hand(B, "pref", 9),  # 24: B+D's first game, +10; both restart at 0
            hand(A, "hjärter", 9),  # 15
            hand(C, "ruter", 8),  # 15 + 8 = 23: A+C's first game, +10
            hand(C, "pref", 9),  # 24: A+C's second game, +20, the sits
            convention="old",
        )
    )
    assert [d.game_won_by for d in s.deals] == [None, BD, None, AC, AC]
    assert [d.above for d in s.deals] == [(0, 0), (0, 10), (0, 0), (10, 0), (20, 0)]
    assert s.sits[0].winner == AC and s.deals[-1].sits_won_by == AC


# --- the simpler variant (004 "Enklare variant av Priffe") ------------------------------------


def test_simple_variant_a_fixed_number_of_deals() -> None:
    deals = [hand(A, "pref", 10)] * 3
    s = score(game(*deals, play="deals", target=2))
    assert [d.game_won_by for d in s.deals] == [None, None, None]
    assert [d.game_points for d in s.deals] == [(40, 0), (80, 0), (120, 0)]
    assert s.closed_at == 1 and s.extra == (2,)


def test_simple_variant_to_a_total_below_the_line() -> None:
    # 004: "tills det ena bolaget kommit upp i t.ex. 100 poäng under strecket"
    deals = [hand(B, "pref", 10, honours=((B, "4"),))] * 3
    s = score(game(*deals, play="total", target=100))
    assert s.closed_at == 2 and s.sits[0].below == (0, 120) and s.sits[0].above == (0, 150)


def test_money_option_divides_the_differences() -> None:
    # variants.md A-PR-6: [wiki-priffe] divides the difference by ten.
    s = score(game(hand(A, "pref", 10), play="deals", target=1, money_divisor=10))
    assert s.money == (Fraction(8), Fraction(-8), Fraction(8), Fraction(-8))
    assert score(game(hand(A, "pref", 10))).money is None


# --- conventions ------------------------------------------------------------------------------


def test_conventions_and_aliases() -> None:
    assert find_convention("Gammaldags") is OLD and find_convention("priffe") is MODERN
    assert MODERN.game_points == 30 and OLD.game_points == 20
    assert MODERN.options()["play"] == "sits"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"play": "forever"}, "option 'play'"),
        ({"money_divisor": -1}, "option 'money_divisor'"),
        ({"straffslam": "yes"}, "option 'straffslam'"),
        ({"game_points": 40}, "unknown option 'game_points'"),
    ],
)
def test_bad_options_name_the_option(options, message) -> None:
    with pytest.raises(InvalidConventionError, match=message):
        MODERN.with_options(**options)
