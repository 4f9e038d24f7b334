"""Every worked example printed in seed 001 (the Kodeks), as a test."""

from __future__ import annotations

from fractions import Fraction

from rules.contracts import Contract
from scoring.russian import Call, Game, Protocol, Raspasy, score, settle
from scoring.russian.protocol import Deal, OptionValue
from scoring.russian.render import render_sheet

W, P = Call.WHIST, Call.PASS
NAMES = ("A", "B", "C", "D")


def c(text: str) -> Contract:
    return Contract.from_str(text)


def proto(deals: tuple[Deal, ...] | list[Deal], *, n: int = 3, target: int = 100,
          convention: str = "sochi", ending: str = "in-progress", first_dealer: int = 0,
          **options: OptionValue) -> Protocol:
    p = Protocol(NAMES[:n], target, tuple(deals), convention, (), first_dealer,
                 ending)  # type: ignore[arg-type]
    return p.with_options(**options) if options else p


def test_3_3_16_3_second_hand_loses_52_on_a_nine():
    """001 §3.3.16.3: "Вторая рука пишет на нарушителя 52 виста (стоимость девятерной)".

    Four players: a 9♦ made with one trick to the single whister is worth 52 whists
    to its declarer: 8 pulya points (60 net with the gora divided by 4) less 8 whists.
    """
    # dealer 0 sits out; the second hand (seat 2) plays 9♦, seat 3 whists and takes 1.
    s = score(proto([Game(2, c("9♦"), (W, P), 9)], n=4))
    assert s.settlement.exact[2] == 52


def test_3_3_16_3_dealer_loses_7_on_a_six_remiz_by_one():
    """001 §3.3.16.3: the dealer writes 7 whists: 2 consolation + 2 gora × 10 / 4."""
    s = score(proto([Game(3, c("6♥"), (W, P), 5)], n=4))
    assert s.settlement.exact[0] == 7
    assert s.row(0)[0].whists[3] == 2  # the sitting-out dealer's consolation (001 §3.8.1.2)


def test_3_7_2_2_rostov_raspasy_6_2_2():
    """001 §3.7.2.2: six, two, two → both two-takers write 15 on the six-taker (30 in all)."""
    s = score(proto([Raspasy((6, 2, 2))], convention="rostov"))
    row = s.row(0)
    assert row[1].whists == (15, 0, 0)
    assert row[2].whists == (15, 0, 0)
    assert [line.gora for line in row] == [0, 0, 0]
    assert s.settlement.exact[0] == -30


def test_3_7_3_amnesty_4_3_3():
    """001 §3.7.3: four, three, three → amnesty of three; the first writes one trick."""
    row = score(proto([Raspasy((4, 3, 3))])).row(0)
    assert [line.gora for line in row] == [1, 0, 0]


def test_3_7_3_four_players_dealer_without_talon_trick_means_no_amnesty():
    """001 §3.7.3, second paragraph: a dealer with no talon trick → nothing to amnesty."""
    row = score(proto([Raspasy((0, 4, 3, 3))], n=4)).row(0)
    assert [line.gora for line in row] == [0, 4, 3, 3]
    assert row[0].pulya == 0  # no zero bonus for the 4-player dealer by default (D12)


def test_3_8_6_two_whisters_two_and_one_on_a_six():
    """001 §3.8.6: "Первый взял две взятки, а второй – одну. Второй пишет в гору … без одной"."""
    row = score(proto([Game(0, c("6♠"), (W, W), 7, (2, 1))])).row(0)
    assert (row[1].gora, row[2].gora) == (0, 2)  # one trick × game cost 2 (full, 3.8.11)
    assert (row[1].whists[0], row[2].whists[0]) == (4, 2)


def test_3_8_6_declarer_took_nine_on_a_six():
    """001 §3.8.6: declarer 9 tricks; whisters 1 and 0 pay for one and for two tricks."""
    row = score(proto([Game(0, c("6♠"), (W, W), 9, (1, 0))])).row(0)
    assert (row[1].gora, row[2].gora) == (2, 4)


def test_3_8_6_eight_second_whister_pays():
    """001 §3.8.6, note 58: an 8, declarer took 10 → the second whister pays without one."""
    row = score(proto([Game(0, c("8♦"), (W, W), 10, (0, 0))])).row(0)
    assert (row[1].gora, row[2].gora) == (0, 6)


def test_4_1_1_overflow_written_off_the_gora():
    """001 §4.1.1: two points to go, a nine made: 2 into the pulya, 6 off the gora."""
    deals = [
        Game(1, c("10♠"), (P, P)),  # B closes (10 points, unwhisted: 001 §3.5.3)
        Game(2, c("10♠"), (P, P)),  # C closes
        Game(0, c("8♠"), (P, P)),  # A on 6
        Game(0, c("6♠"), (P, P)),  # A on 8: two to go
        Game(0, c("9♠"), (P, P)),  # a nine: 8 points
    ]
    s = score(proto(deals, target=10, ending="closed"))
    last = s.row(4)[0]
    assert (last.pulya, last.gora) == (10, -6)
    assert s.helps[-1] == (4, 0, -1, 6)
    assert s.closed_at == 4 and s.ok


def test_4_2_3_3_leningrad_end_conversion():
    """001 §4.2.3.3: all on 48 of 50; an 8 makes 54 → he writes 8 off, the others add 4."""
    deals: list[Deal] = []
    for seat in range(3):
        deals += [Game(seat, c("10♠"), (P, P))] * 4 + [Game(seat, c("9♠"), (P, P))]
    deals.append(Game(0, c("8♠"), (P, P)))
    s = score(proto(deals, target=50, convention="leningrad", ending="closed"))
    assert [line.pulya for line in s.row(len(deals) - 1)] == [54, 48, 48]
    assert s.conversion == (-8, 4, 4)
    assert s.closed_at == len(deals) - 1 and s.ok
    # "если бы вместо восьмерной была сыграна девятерная … списано 12 очков"
    nine = score(proto(deals[:-1] + [Game(0, c("9♠"), (P, P))], target=50,
                       convention="leningrad", ending="closed"))
    assert nine.conversion == (-12, 4, 4)


def test_4_2_12_rounding_written_off_one_point():
    """001 §4.2.12: one point written off a gora; the two others write 3 whists each on him."""
    s = settle([7, 0, 0], [[0] * 3] * 3)
    assert s.adjustments == (-1, 0, 0)
    assert s.gora == (6, 0, 0)
    assert s.variant1 == (-46, 23, 23)  # 6 × 10 / 3 = 20 to each, plus 3 + 3 whists
    assert s.exact == (Fraction(-140, 3), Fraction(70, 3), Fraction(70, 3))
    # "теряя на этой операции по 0.33 виста каждый"
    assert s.exact[1] - s.variant1[1] == Fraction(1, 3)


def test_4_2_12_rounding_mirror_case_adds_one_point():
    s = settle([5, 0, 0], [[0] * 3] * 3)
    assert s.adjustments == (1, 0, 0)
    assert s.variant1 == (-34, 17, 17)  # 6 × 10 / 3 = 20 each, less the 3 he writes on each
    assert sum(s.variant1) == 0 and s.variant1 == s.variant2


def test_note_31_double_bomb_times_dark():
    """001 note 31: double bomb (×4) × dark (×2) on an 8 → 48 in the pulya, 48 a trick."""
    s = score(proto([Game(0, c("8♥"), (W, P), 8, multiplier=8)], convention="classic"))
    row = s.row(0)
    assert row[0].pulya == 48
    assert row[1].whists[0] == 2 * 48


def test_4_2_14_two_methods_with_4_2_12_rounding_option():
    """001 §4.2.14 gives two "equivalent" methods and §4.2.12 rounds "if fractional parts of
    the final sums arise" (issue #37): goras 20, 28, 18 after the end conversion. Variant 1
    divides each gora by three and rounds two of them; Variant 2's average gora, 22, divides,
    so it rounds nothing and settles at the exact result."""
    whists = [[0, 4, 2], [9, 0, 3], [7, 12, 0]]
    first = settle([20, 28, 18], whists)
    second = settle([20, 28, 18], whists, rounding="average")
    exact = settle([20, 28, 18], whists, rounding="exact")
    assert first.exact == second.exact == exact.totals
    assert all(x.denominator == 1 for x in exact.totals)
    assert first.adjustments == (1, -1, 0) and second.adjustments == (0, 0, 0)
    assert first.totals != second.totals and second.totals == second.exact
    assert (first.rounding, second.rounding, exact.rounding) == ("kodeks", "average", "exact")


def test_4_2_14_variant_2_rounds_the_sum_once_on_the_largest_gora():
    """001 §4.2.12: "одному из игроков добавляют или списывают с горы одно очко": with the
    average method only the sum is rounded, once; Pulka's reading takes the largest gora."""
    none = [[0] * 3] * 3
    down = settle([21, 28, 18], none, rounding="average")  # amnesty 3, 10, 0: sum 13
    assert down.adjustments == (0, -1, 0) and down.gora == (3, 9, 0)
    assert [int(x) for x in down.totals] == [13, -56, 43] and sum(down.totals) == 0
    assert down.totals[1] - down.exact[1] == Fraction(2, 3)  # he gains 2/3, the others lose 1/3
    up = settle([22, 28, 18], none, rounding="average")  # amnesty 4, 10, 0: sum 14
    assert up.adjustments == (0, 1, 0) and sum(up.totals) == 0
    assert all(x.denominator == 1 for x in up.totals)
    # four players: halves are exact, nothing is rounded (001 §4.2.12 is for the thirds)
    four = settle([3, 0, 0, 0], [[0] * 4] * 4, rounding="average")
    assert four.rounding == "exact" and four.totals == four.exact


def test_the_settlement_method_is_an_option_of_the_convention_and_named_on_the_sheet():
    """The option ``rounding`` picks the method; the text sheet says which was used."""
    deals = [Game(0, c("6♠"), (W, P), 3)]
    for rounding, words in (("kodeks", "Variant 1, each gora rounded"),
                            ("average", "Variant 2, the average gora rounded"),
                            ("exact", "exact, not rounded")):
        p = proto(deals, rounding=rounding)
        assert score(p).settlement.rounding == rounding
        assert words in render_sheet(score(p))
