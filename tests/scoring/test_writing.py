"""What each player writes, rule by rule (seed 001 §3.5–§3.8, §4.2.3) and per convention option."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.contracts import MISERE, Contract
from scoring.russian import Call, Game, Penalty, Protocol, Raspasy, score
from scoring.russian.protocol import Deal, OptionValue

W, P, H, HR = Call.WHIST, Call.PASS, Call.HALF, Call.HALF_RETURNED
NAMES = ("A", "B", "C", "D")


def c(text: str) -> Contract:
    return Contract.from_str(text)


def proto(
    deals: list[Deal],
    *,
    n: int = 3,
    target: int = 100,
    convention: str = "sochi",
    ending: str = "in-progress",
    first_dealer: int = 0,
    **options: OptionValue,
) -> Protocol:
    p = Protocol(NAMES[:n], target, tuple(deals), convention, (), first_dealer, ending)  # type: ignore[arg-type]
    return p.with_options(**options) if options else p


def row(deals: list[Deal], **kw: object):  # type: ignore[no-untyped-def]
    s = score(proto(deals, **kw))  # type: ignore[arg-type]
    assert s.ok, [str(f) for f in s.findings]
    return s.row(len(deals) - 1)


# --- contracts for tricks -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "price"), [("6♠", 2), ("7♣", 4), ("8♦", 6), ("9♥", 8), ("10БК", 10)]
)
def test_made_contract_writes_its_price_in_the_pulya(contract, price):
    """Seed 001 "Очки за игры"; 001 §4.2.1."""
    assert (
        row([Game(0, c(contract), (W, P), int(contract[:-1].rstrip("БК")) or 10)])[0].pulya == price
    )


def test_both_pass_counts_as_made_even_on_a_ten():
    """001 §3.5.3: unwhisted games are not played and count as made; no exception for a 10."""
    r = row([Game(1, c("10♠"), (P, P))])
    assert r[1].pulya == 10 and r[0].whists == (0, 0, 0) and r[2].whists == (0, 0, 0)


def test_single_whister_writes_the_whole_defence_when_the_declarer_makes_it():
    """001 §3.8.5, §3.8.1.1: 4 defence tricks × game cost 2 on a 6."""
    r = row([Game(0, c("6♦"), (P, W), 6, (3, 1))])
    assert r[2].whists[0] == 8 and r[1].whists[0] == 0


def test_greedy_remiz_whister_writes_all_passer_only_consolation():
    """001 §3.8.13 (жлобский): declarer fails a 7 by two: defence 5 × 4, consolation 2 × 4."""
    r = row([Game(0, c("7♠"), (W, P), 5)])
    assert r[0].gora == 8  # 2 undertricks × 4 (001 §4.2.1)
    assert r[1].whists[0] == 5 * 4 + 2 * 4
    assert r[2].whists[0] == 2 * 4


def test_gentleman_remiz_splits_trick_whists():
    """001 §3.8.14 (джентльменский): the trick whists in halves, both write consolation."""
    r = row([Game(0, c("7♠"), (W, P), 5)], whist_style="gentleman")
    assert r[1].whists[0] == 10 + 8 and r[2].whists[0] == 10 + 8


def test_gentleman_returned_half_whister_writes_no_trick_whists():
    """001 §3.8.14: "уходивший за полвиста вистов при ремизе разыгрывающего не пишет"."""
    r = row([Game(0, c("6♠"), (W, HR), 5)], whist_style="gentleman")
    assert r[1].whists[0] == 5 * 2 + 2 and r[2].whists[0] == 2


def test_half_whist_writes_half_the_obligation_without_play():
    """001 §3.8.7: полвиста on a 6 → 2 tricks × 2 = 4; on a 7 → 1 × 4 = 4; declarer gets P."""
    assert row([Game(0, c("6♠"), (P, H))])[2].whists[0] == 4
    r = row([Game(0, c("7♠"), (P, H))])
    assert (r[2].whists[0], r[1].whists[0], r[0].pulya) == (4, 0, 4)
    assert row([Game(0, c("7♠"), (P, H))], convention="leningrad")[2].whists[0] == 8


def test_single_whister_shortfall_full_and_half_responsibility():
    """001 §3.8.11 (full: game cost) and §3.8.12 (half) per missing obligatory trick."""
    deal = Game(0, c("6♠"), (W, P), 8)  # defence 2 of 4
    assert row([deal])[1].gora == 2 * 2
    assert row([deal], whist_responsibility="half")[1].gora == 2 * 1
    assert row([deal], convention="leningrad")[1].gora == 2 * 2  # U = 4, half → 2 (D7)
    assert row([deal], convention="rostov")[1].gora == 2 * 1


def test_classic_responsibility_full_once_the_whisters_pulya_is_closed():
    """001 §3.8.11: in Classic the whist becomes responsible after the pulya is closed."""
    closed = [Game(1, c("10♠"), (P, P)), Game(0, c("6♠"), (W, P), 8)]
    assert row(closed, target=10, convention="classic")[1].gora == 4
    assert row(closed[1:], target=10, convention="classic")[1].gora == 2


def test_declarer_remiz_leningrad_doubles_gora_and_whists():
    """Leningrad table (russian.md D7): 6 failed by one → 4 gora, consolation 4, tricks × 4,
    split in halves by the gentleman whist (001 §3.8.14)."""
    r = row([Game(0, c("6♠"), (W, P), 5)], convention="leningrad")
    assert r[0].gora == 4 and r[1].whists[0] == r[2].whists[0] == 5 * 4 // 2 + 4


def test_rostov_consolation_is_ten_a_trick():
    """001 note 53: "в ростове – 10 вистов за каждую недобранную взятку" (D8)."""
    r = row([Game(0, c("8♠"), (W, W), 7, (2, 1))], convention="rostov")
    assert r[1].whists[0] == 2 * 6 + 10 and r[2].whists[0] == 6 + 10
    r = row([Game(0, c("8♠"), (W, W), 7, (2, 1))], convention="rostov", consolation="game_cost")
    assert r[1].whists[0] == 2 * 6 + 6


def test_four_player_dealer_writes_consolation_unless_the_option_says_otherwise():
    """001 §3.8.1.2 "Консоляцию обычно пишут все игроки, включая сдающего"; D5 options."""
    deals: list[Deal] = [Game(1, c("6♠"), (W, P), 4)]
    assert row(deals, n=4)[0].whists[1] == 4
    assert row(deals, n=4, consolation_writers="defenders")[0].whists[1] == 0
    r = row(deals, n=4, consolation_writers="none")
    assert r[3].whists[1] == 0 and r[2].whists[1] == 6 * 2


def test_two_whisters_6_options():
    """D1, D2 on 001 §3.8.6: team 3 + 0 on a 6 (short by 1)."""
    deal = Game(0, c("6♠"), (W, W), 7, (3, 0))
    assert row([deal])[2].gora == 4  # literal: 2 missing tricks × 2
    assert row([deal], pair_shortfall_6_7="capped")[2].gora == 2
    ok = Game(0, c("6♠"), (W, W), 6, (4, 0))  # team reached 4: nobody pays (default)
    assert row([ok])[2].gora == 0
    assert row([ok], pair_shortfall_6_7="each_own")[2].gora == 4


def test_two_whisters_8_both_pay_option():
    """D3: by agreement both whisters answer on 8–10."""
    r = row([Game(0, c("8♦"), (W, W), 10, (0, 0))], pair_shortfall_8_10="both")
    assert (r[1].gora, r[2].gora) == (6, 6)


def test_ten_checked_option():
    """D4 / note 38: the "checked" 10 has no obligation (the Kodeks' default is 1)."""
    deal = Game(0, c("10♠"), (W, P), 10)
    assert row([deal])[1].gora == 10
    assert row([deal], ten_checked=True)[1].gora == 0


def test_single_whister_own_tricks_option():
    """D17: the whister writes only his own tricks."""
    r = row([Game(0, c("6♠"), (W, P), 6, (1, 3))], single_whister_tricks="own")
    assert r[1].whists[0] == 2


def test_misere_made_and_failed():
    """Misère: 10 in the pulya; failed: 10 a trick in the gora (Leningrad 20); no whists."""
    assert row([Game(0, MISERE, (), 0)])[0].pulya == 10
    r = row([Game(0, MISERE, (), 2)])
    assert r[0].gora == 20 and r[1].whists == (0, 0, 0)
    assert row([Game(0, MISERE, (), 2)], convention="leningrad")[0].gora == 40
    assert row([Game(0, MISERE, (), 2)], misere_consolation=True)[1].whists[0] == 20  # D18


def test_talon_premium_option():
    """001 §3.4.11: by agreement the dealer writes a trick's consolation per premium."""
    r = row([Game(1, c("6♠"), (W, P), 6, talon_premium=2)], n=4, talon_premiums=True)
    assert r[0].whists[1] == 4


# --- raspasy --------------------------------------------------------------------------------


def test_raspasy_zero_trick_writes_a_pulya_point():
    """001 §3.7.2.1: "Игрок, не взявший ни одной взятки, пишет в пульку стоимость одной взятки"."""
    r = row([Raspasy((0, 4, 6))])
    assert r[0].pulya == 1 and (r[1].gora, r[2].gora) == (4, 6)


def test_raspasy_arithmetic_progression_with_limit():
    """001 §3.7.4.1, §3.7.4.3: 1-2-3 and then 3 for every further raspasy."""
    deals: list[Deal] = [Raspasy((1, 4, 5))] * 5
    s = score(proto(deals))
    assert s.steps == (1, 2, 3, 3, 3)
    assert s.row(4)[2].gora == 4 * (1 + 2 + 3 + 3 + 3)


def test_raspasy_geometric_progression_and_zero_bonus_grows():
    """001 §3.7.4.2: 1-2-4; the zero bonus is the current trick's cost (D10)."""
    s = score(proto([Raspasy((0, 4, 6))] * 3, raspasy_progression="geometric"))
    assert s.steps == (1, 2, 4)
    assert s.row(2)[0].pulya == 1 + 2 + 4
    s = score(proto([Raspasy((0, 4, 6))] * 3, raspasy_zero_bonus="one"))
    assert s.row(2)[0].pulya == 3


def test_leningrad_raspasy_two_four_six():
    """Leningrad raspasy 2-4-6 (russian.md §1, note 44)."""
    s = score(proto([Raspasy((1, 4, 5))] * 3, convention="leningrad"))
    assert [s.delta(i)[1].gora for i in range(3)] == [6, 12, 18]


def test_raspasy_exit_by_any_game_or_only_a_whisted_one():
    """001 §3.7.8: a game ends the streak; D16: only a whisted game, by agreement."""
    deals: list[Deal] = [Raspasy((1, 4, 5)), Game(0, c("6♠"), (P, P)), Raspasy((1, 4, 5))]
    assert score(proto(deals)).steps == (1, 0, 1)
    assert score(proto(deals, raspasy_exit="whisted_game")).steps == (1, 0, 2)


def test_raspasy_no_amnesty_option():
    """D11: without amnesty everyone writes every trick."""
    assert [x.gora for x in row([Raspasy((4, 3, 3))], raspasy_amnesty=False)] == [4, 3, 3]


def test_four_players_dealer_owns_talon_tricks():
    """001 §3.7.6.1: the dealer's talon tricks count "на общих основаниях"."""
    r = row([Raspasy((1, 3, 3, 3))], n=4)
    assert [x.gora for x in r] == [0, 2, 2, 2]


def test_rostov_four_players_dealer_writes_one():
    """001 §3.7.6.2: the talon is not used; "Сдающий пишет себе единичку в пульку"."""
    r = row([Raspasy((None, 6, 2, 2))], n=4, convention="rostov")
    assert r[0].pulya == 1 and r[2].whists[1] == 15


def test_rostov_single_least_taker_writes_on_both():
    """001 §3.7.2.2: the least taker writes 5 a trick of each opponent."""
    r = row([Raspasy((0, 4, 6))], convention="rostov")
    assert r[0].whists == (0, 20, 30) and r[0].pulya == 1


# --- help, penalties -----------------------------------------------------------------------


def test_help_goes_to_the_largest_pulya_and_ties_to_the_left():
    """001 §4.2.3, note 72: help the larger pulya; on a tie, the player on the left."""
    deals: list[Deal] = [Game(0, c("8♠"), (P, P)), Game(0, c("6♠"), (P, P))]
    s = score(proto(deals, target=6))
    assert s.helps == ((1, 0, 1, 2),)  # tie 0/0 → seat 1, left of seat 0
    r = s.row(1)
    assert (r[0].pulya, r[1].pulya, r[0].whists[1]) == (6, 2, 20)


def test_leningrad_has_no_help():
    """001 §4.2.3.3: "помощи нет"."""
    r = row(
        [Game(0, c("10♠"), (P, P)), Game(0, c("10♠"), (P, P))], target=10, convention="leningrad"
    )
    assert r[0].pulya == 20 and r[1].pulya == 0


def test_penalty_for_looking_at_the_talon():
    """001 §3.2.21: five points in the gora."""
    r = row([Penalty(2, "3.2.21", gora=5)])
    assert r[2].gora == 5


def test_stopped_by_agreement_shortfall_into_the_gora():
    """001 §4.2.3: on an agreed stop each writes what he lacks into the gora."""
    s = score(proto([Game(0, c("6♠"), (P, P))], target=10, ending="agreement"))
    assert s.conversion == (8, 10, 10)
    # 2 pulya points are worth 10 whists each, the gora shared by three (001 §4.1.1 б)
    assert s.settlement.exact == (Fraction(40, 3), Fraction(-20, 3), Fraction(-20, 3))
    assert s.settlement.variant1 == (14, -7, -7)  # gora 0/2/2: +1 each, 3 whists (4.2.12)


def test_gentleman_first_defender_may_go_for_half_after_the_partner_passed():
    """001 §3.8.14: "можно на первой руке сказать вист, а если второй партнёр спасовал,
    уйти за полвиста"; in greedy whist only the second defender may (001 §3.8.7)."""
    r = row([Game(0, c("6♠"), (H, P))], whist_style="gentleman")
    assert (r[1].whists[0], r[2].whists[0], r[0].pulya) == (4, 0, 2)
    s = score(proto([Game(0, c("6♠"), (H, P))]))
    assert [f.code for f in s.findings] == ["HALF_WHIST"]


def test_gentleman_returned_half_by_the_first_defender():
    """001 §3.8.8, §3.8.14: the partner returned the whist; the half-whister writes nothing."""
    r = row([Game(0, c("7♠"), (HR, W), 5)], whist_style="gentleman")
    assert r[2].whists[0] == 5 * 4 + 2 * 4 and r[1].whists[0] == 2 * 4


# --- D21: the former half-whister's consolation after a returned whist --------------------
# 001 §3.8.8: after "полвиста" the partner who passed may return the whist; §3.8.1.2: at the
# declarer's remiz "консоляцию обычно пишут все игроки"; §3.8.13 (greedy): "пасующий пишет
# только за безвзятие"; §3.8.14 (gentleman): "уходивший за полвиста вистов при ремизе
# разыгрывающего не пишет". Default: he writes the consolation, not the trick whists;
# ``returned_half_consolation=False``: he writes nothing at all.

RETURNED_DOWN_ONE = Game(0, c("6♠"), (W, HR), 5)  # Boris returned the whist, Vera said half


@pytest.mark.parametrize(
    ("whist_style", "option", "returner", "half_whister"),
    [
        # gentleman, default (§3.8.1.2, §3.8.14 withholds the trick whists only)
        ("gentleman", True, 5 * 2 + 1 * 2, 1 * 2),
        # gentleman, §3.8.14 read as a whole: not even the consolation
        ("gentleman", False, 5 * 2 + 1 * 2, 0),
        # greedy (§3.8.13): the passer writes only the consolation either way
        ("greedy", True, 5 * 2 + 1 * 2, 1 * 2),
        ("greedy", False, 5 * 2 + 1 * 2, 1 * 2),
    ],
)
def test_returned_whist_declarer_down_former_half_whisters_consolation(
    whist_style, option, returner, half_whister
):
    """001 §3.8.8, §3.8.13, §3.8.14, §3.8.1.2 (D21): a 6♠ down one after a returned whist;
    the returner writes the whole defence, 5 tricks × 2, and his consolation 1 × 2."""
    r = row([RETURNED_DOWN_ONE], whist_style=whist_style, returned_half_consolation=option)
    assert r[0].gora == 2  # 1 undertrick × 2 (001 §4.2.1)
    assert r[1].whists[0] == returner
    assert r[2].whists[0] == half_whister


@pytest.mark.parametrize(("option", "half_whister"), [(True, 2 * 4), (False, 0)])
def test_returned_whist_by_the_first_defender_gentleman_both_readings(option, half_whister):
    """001 §3.8.14 lets the first defender go for half, §3.8.8 lets the partner return it:
    a 7♠ down two; the returner writes 5 tricks × 4 and 2 × 4 consolation (§3.8.1.2)."""
    deal = Game(0, c("7♠"), (HR, W), 5)
    r = row([deal], whist_style="gentleman", returned_half_consolation=option)
    assert r[2].whists[0] == 5 * 4 + 2 * 4
    assert r[1].whists[0] == half_whister


@pytest.mark.parametrize("option", [True, False])
def test_returned_whist_leningrad_four_players_the_dealer_still_writes(option):
    """Leningrad is gentleman (001 §3.8.14, U = 4 on a 6, D7). The option touches only the
    former half-whister: the 4-player dealer writes the consolation (001 §3.8.1.2 "включая
    сдающего") in both readings."""
    deal = Game(1, c("6♠"), (W, HR), 5)  # dealer Anna (seat 0); defenders Vera, then Dmitri
    r = row([deal], n=4, convention="leningrad", returned_half_consolation=option)
    assert r[2].whists[1] == 5 * 4 + 4
    assert r[3].whists[1] == (4 if option else 0)
    assert r[0].whists[1] == 4


def test_without_a_returned_whist_the_option_changes_nothing():
    """001 §3.8.14: a gentleman remiz after "вист"/"пас" splits the trick whists and both
    write the consolation (§3.8.1.2); the passer never said полвиста, so D21 is not his."""
    deal = Game(0, c("7♠"), (W, P), 5)
    kw: dict[str, object] = {"whist_style": "gentleman"}
    assert row([deal], **kw) == row([deal], **kw, returned_half_consolation=False)


def test_the_notation_options_line_takes_the_option():
    """docs/protocol-format.md: `options:` names any option of rules/conventions.py."""
    from scoring.russian.notation import format, parse

    text = (
        "options: whist_style=gentleman, returned_half_consolation=false\n"
        "players: Anna, Boris, Vera\ntarget: 100\nending: in-progress\n"
        "1. Anna 6♠ / без одной w/hr\n"
    )
    p = parse(text)
    assert p.options == (("whist_style", "gentleman"), ("returned_half_consolation", False))
    assert parse(format(p)) == p
    s = score(p)
    assert s.ok, [str(f) for f in s.findings]
    assert (s.row(0)[1].whists[0], s.row(0)[2].whists[0]) == (12, 0)


@pytest.mark.parametrize(("option", "half_whister"), [(True, 2), (False, 0)])
def test_the_json_options_object_takes_the_option(option, half_whister):
    """docs/protocol-format.md (JSON): ``options`` takes the same names as the text's
    ``options:`` line; the D21 option survives both formats and is honoured on a 6♠ down one
    after a returned whist (001 §3.8.8, §3.8.14, §3.8.1.2)."""
    import json

    from scoring.russian import jsonio
    from scoring.russian.notation import format, parse

    document = {
        "format": "pulka-protocol",
        "version": 1,
        "players": ["Anna", "Boris", "Vera"],
        "target": 100,
        "ending": "in-progress",
        "options": {"whist_style": "gentleman", "returned_half_consolation": option},
        "deals": [
            {
                "type": "game",
                "declarer": 0,
                "contract": "6♠",
                "calls": ["whist", "half-returned"],
                "declarer_tricks": 5,
            }
        ],
    }
    p = jsonio.loads(json.dumps(document))
    assert p.options == (("whist_style", "gentleman"), ("returned_half_consolation", option))
    assert json.loads(jsonio.dumps(p))["options"]["returned_half_consolation"] is option
    assert jsonio.loads(jsonio.dumps(p)) == p
    assert parse(format(p)) == p  # JSON → text → the same protocol
    s = score(p)
    assert s.ok, [str(f) for f in s.findings]
    assert (s.row(0)[1].whists[0], s.row(0)[2].whists[0]) == (12, half_whister)


def test_a_bad_value_of_the_option_is_refused_naming_it():
    """An option's value out of its choices is refused naming the option (rules/conventions.py)."""
    from rules.conventions import InvalidConventionError

    bad = proto([RETURNED_DOWN_ONE], returned_half_consolation="sometimes")  # type: ignore[arg-type]
    with pytest.raises(InvalidConventionError, match="returned_half_consolation"):
        score(bad)


def test_penalty_rule_reference_and_amount_are_checked():
    """Penalties cite their rule (issue: 3.2.21, 3.4.6, 3.4.9, 3.9.11.2, 3.9.16, 3.9.18, 4.2.7)."""
    s = score(
        proto(
            [
                Penalty(0, "3.2.21", gora=4),
                Penalty(1, "9.9.9", gora=1),
                Penalty(2, "4.2.7", pulya=2, gora=2),
            ]
        )
    )
    assert [(f.code, f.deal, f.severity.value) for f in s.findings] == [
        ("PENALTY_AMOUNT", 0, "warning"),
        ("PENALTY_RULE", 1, "warning"),
    ]
    r = s.row(2)
    assert (r[2].pulya, r[2].gora) == (-2, 2)  # 001 §4.2.7 б: the false pulya off, as much up


def test_penalty_whists_on_the_offender():
    """001 §3.3.16.3: the second hand writes 52 whists, the dealer 7, on the offender."""
    r = row([Penalty(1, "3.3.16.3", whists=((2, 52), (0, 7)))], n=4)
    assert r[2].whists[1] == 52 and r[0].whists[1] == 7


def test_dealer_rotation_and_classic_repeat_after_raspasy():
    """001 §3.2.2: the deal passes to the left whatever was played; 001 §3.7.7: in Classic
    the same dealer deals again after raspasy (sliding raspasy off)."""
    deals: list[Deal] = [
        Game(1, c("6♠"), (P, P)),
        Raspasy((2, 4, 4)),
        Game(1, c("6♠"), (P, P)),
        Penalty(0, "3.2.21", gora=5),
        Game(1, c("6♠"), (P, P)),
    ]
    assert score(proto(deals, first_dealer=2)).dealers == (2, 0, 1, None, 2)
    assert score(proto(deals, first_dealer=2, convention="classic")).dealers == (2, 0, 0, None, 1)
    four: list[Deal] = [
        Game(1, c("6♠"), (P, P)),
        Raspasy((None, 2, 4, 4)),
        Game(0, c("6♠"), (P, P)),
    ]
    s = score(proto(four, n=4, first_dealer=3, convention="rostov"))
    assert s.dealers == (3, 0, 1) and s.findings == ()


def test_pulya_point_worth_twenty_doubles_help_and_overflow():
    """D7 alternative (a "Питер" preset): whists doubled, a pulya point = 20 whists."""
    deals: list[Deal] = [Game(0, c("8♠"), (P, P)), Game(0, c("6♠"), (P, P))]
    s = score(proto(deals, target=6, game_cost_multiplier=2, end_conversion=2))
    assert s.row(1)[0].whists[1] == 40
    over: list[Deal] = [
        Game(1, c("10♠"), (P, P)),
        Game(2, c("10♠"), (P, P)),
        Game(0, c("8♠"), (P, P)),
        Game(0, c("6♠"), (P, P)),
        Game(0, c("7♠"), (P, P)),
    ]
    s = score(proto(over, target=10, ending="closed", end_conversion=2))
    assert s.row(4)[0].gora == -4 and s.ok  # 2 points over, each worth 2 gora points


def test_stopped_by_the_time_limit_leningrad_doubles_the_shortfall():
    """001 §4.2.3 (stopped early: the shortfall into the gora), §4.2.3.3 (Leningrad: ×2)."""
    deals: list[Deal] = [Game(0, c("7♠"), (P, P))]
    s = score(proto(deals, target=10, convention="leningrad", ending="time-limit"))
    assert s.conversion == (12, 20, 20) and s.ok
    s = score(proto(deals, target=10, ending="time-limit"))
    assert s.conversion == (6, 10, 10)


def test_marked_stopped_although_closed_is_a_warning():
    deals: list[Deal] = [Game(s, c("6♠"), (P, P)) for s in range(3)]
    s = score(proto(deals, target=2, ending="agreement"))
    assert [(f.code, f.severity.value) for f in s.findings] == [("ALREADY_CLOSED", "warning")]
    assert score(proto(deals[:1], target=2, ending="in-progress")).findings == ()
