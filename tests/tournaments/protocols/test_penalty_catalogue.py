"""The penalties catalogue (rules.penalties) and what each rule of seed 001 writes
(scoring.russian.penalties; pure, no DB)."""

from __future__ import annotations

import pytest

from rules.contracts import MISERE, Contract
from rules.penalties import CATALOGUE, PenaltyError, find_penalty
from scoring.russian.penalties import adjusted_result_entries, penalty_entries
from scoring.russian.protocol import Call, Game, Penalty, Protocol, Raspasy
from scoring.russian.pulka import score

SIX = Contract.from_str("6♠")
EIGHT = Contract.from_str("8♥")
W_P = (Call.WHIST, Call.PASS)


def proto(*deals, players=("Anna", "Boris", "Vera")) -> Protocol:
    return Protocol(players=players, target=20, deals=deals, ending="in-progress")


def with_entries(p: Protocol, after: int, entries) -> Protocol:
    deals = p.deals[: after + 1] + tuple(entries) + p.deals[after + 1 :]
    return p.with_deals(deals)


def final(p: Protocol, seat: int):
    return score(p).final_row()[seat]


def test_catalogue_covers_the_issues_rules_with_both_languages():
    rules = {p.rule for p in CATALOGUE}
    assert {
        "3.2.17",
        "3.2.21",
        "3.4.6",
        "3.4.9",
        "3.9.11.2",
        "3.9.16",
        "3.9.18",
        "4.2.7",
        "4.2.8",
    } <= rules
    for p in CATALOGUE:
        assert p.name_en and p.name_ru and p.writes_en and p.writes_ru
    assert len({p.code for p in CATALOGUE}) == len(CATALOGUE)
    with pytest.raises(PenaltyError, match="NOPE"):
        find_penalty("NOPE")


def test_talon_peek_writes_five_in_the_gora():  # 001 §3.2.21
    p = proto()
    (e,) = penalty_entries("TALON_PEEK", p, deal=None, seat=2)
    assert (e.player, e.gora, e.rule) == (2, 5, "3.2.21")


def test_second_misdeal_writes_the_agreed_remiz():  # 001 §3.2.17
    p = proto()
    assert penalty_entries("MISDEAL_FIRST", p, deal=None, seat=0) == ()
    assert penalty_entries("MISDEAL_SECOND", p, deal=None, seat=0)[0].gora == 5
    assert penalty_entries("MISDEAL_SECOND", p, deal=None, seat=0, params={"gora": 8})[0].gora == 8


@pytest.mark.parametrize(("took", "writes_for"), [(6, 4), (4, 2), (8, 4)])
def test_wrong_cards_declarer_writes_without_two(took, writes_for):
    """001 §3.9.18 example 1: on a 6 he writes for tricks − 2, and for 4 even if he took 8."""
    game = Game(0, SIX, W_P, took)
    p = proto(game)
    entries = penalty_entries("WRONG_CARDS_PLAY", p, deal=0, seat=0)
    penalised = with_entries(p, 0, entries)
    expected = proto(Game(0, SIX, W_P, writes_for))
    # the declarer's own columns are those of the penalised tricks …
    assert final(penalised, 0).pulya == final(expected, 0).pulya
    assert final(penalised, 0).gora == final(expected, 0).gora
    # … while the whister writes for the real tricks (note 68)
    assert final(penalised, 1).whists == final(p, 1).whists
    assert all(e.rule == "3.9.18" for e in entries)


def test_wrong_cards_whister_remiz_without_two_on_the_whist():  # 001 §3.9.18 example 2
    p = proto(Game(0, SIX, W_P, 6))
    (e,) = penalty_entries("WRONG_CARDS_PLAY", p, deal=0, seat=1)
    assert (e.player, e.gora) == (1, 4)  # 2 tricks × U (6♠: U = 2), full responsibility 3.8.11


def test_wrong_cards_bid_remiz_without_two_on_the_declared_game():  # 001 §3.4.6
    p = proto(Game(0, EIGHT, W_P, 9))
    (e,) = penalty_entries("WRONG_CARDS_BID", p, deal=0, seat=0)
    assert (e.pulya, e.gora) == (6, 12)  # the 6 of the made 8 written off, 2 × 6 in the gora
    p2 = proto(Game(0, EIGHT, W_P, 7))  # remiz without one, inevitable: + two penalty tricks
    (e2,) = penalty_entries("WRONG_CARDS_BID", p2, deal=0, seat=0, params={"inevitable": True})
    assert (e2.pulya, e2.gora) == (0, 12)  # without three in all: 6 + 12 = 18 = 3 × 6


def test_discard_peek_one_penalty_trick():  # 001 §3.4.9
    exact = proto(Game(0, SIX, W_P, 6))
    (e,) = penalty_entries("DISCARD_PEEK", exact, deal=0, seat=0)
    assert (e.pulya, e.gora) == (2, 2)  # exactly made → remiz without one
    over = proto(Game(0, SIX, W_P, 7))
    assert penalty_entries("DISCARD_PEEK", over, deal=0, seat=0) == ()  # cancelled by the extra
    remiz = proto(Game(0, SIX, W_P, 5))
    (e3,) = penalty_entries("DISCARD_PEEK", remiz, deal=0, seat=0)
    assert (e3.pulya, e3.gora) == (0, 2)  # one undertrick more
    with pytest.raises(PenaltyError, match="not the declarer"):
        penalty_entries("DISCARD_PEEK", exact, deal=0, seat=1)


def test_closed_trick_whister_loses_one_trick_not_given_to_the_declarer():  # 001 §3.9.11.2, 3.9.12
    p = proto(Game(0, SIX, W_P, 6, (3, 1)))
    entries = penalty_entries("CLOSED_TRICK_PEEK", p, deal=0, seat=1)
    penalised = with_entries(p, 0, entries)
    assert final(penalised, 0).pulya == final(p, 0).pulya  # the declarer gains no trick
    # the greedy whister's 4 tricks × U=2 = 8 whists become 3 × 2 = 6, and with 3 of the 4
    # obligatory tricks he is short one: U = 2 in his gora (001 §3.8.11)
    assert final(penalised, 1).whists[0] == final(p, 1).whists[0] - 2
    assert final(penalised, 1).gora == final(p, 1).gora + 2


def test_closed_trick_on_raspasy_writes_an_eleventh_trick():
    p = proto(Raspasy((4, 3, 3)))
    (e,) = penalty_entries("CLOSED_TRICK_PEEK", p, deal=0, seat=2)
    assert e.gora == 1  # Sochi: 1 per trick, first raspasy


def test_revoke_gives_a_trick_to_the_opponents():  # 001 §3.9.16.2
    p = proto(Game(0, SIX, W_P, 6, (3, 1)))
    entries = penalty_entries("REVOKE", p, deal=0, seat=0)
    penalised = with_entries(p, 0, entries)
    like = proto(Game(0, SIX, W_P, 5, (4, 1)))
    assert score(penalised).final == score(like).final


def test_recording_error_equal_to_the_excess():  # 001 §4.2.7 examples а) and б)
    p = proto()
    (a,) = penalty_entries(
        "RECORDING_ERROR", p, deal=None, seat=0, params={"column": "whists", "on": 1, "amount": 12}
    )
    assert a == Penalty(0, "4.2.7", whists=((1, 12),), note="RECORDING_ERROR")
    (b,) = penalty_entries(
        "RECORDING_ERROR", p, deal=None, seat=0, params={"column": "pulya", "amount": 4}
    )
    assert b.gora == 4
    assert penalty_entries("RECORDING_PENCIL", p, deal=None, seat=0) == ()  # 4.2.8


def test_adjusted_result_3_8_5_1_b():
    """The whister's plan was played (declarer made 6); by the passer's plan the declarer would
    have gone down one. The passer gets his compensating result; the lot decides the declarer's."""
    played = Game(0, SIX, W_P, 6, (3, 1))
    other = Game(0, SIX, W_P, 5, (4, 1))
    p = proto(played)
    keep = adjusted_result_entries(p, 0, other=other, passer=2, lot="played")
    got = with_entries(p, 0, keep)
    assert final(got, 0) == final(p, 0)  # the declarer keeps the played result
    assert final(got, 2) == final(proto(other), 2)  # the passer: consolation of the other plan
    swap = adjusted_result_entries(p, 0, other=other, passer=2, lot="other")
    got2 = with_entries(p, 0, swap)
    assert final(got2, 0).pulya == final(proto(other), 0).pulya
    assert final(got2, 0).gora == final(proto(other), 0).gora


def test_wrong_cards_bid_on_a_game_not_played_and_on_a_misere():
    """3.4.6 applies when both passed too (the game counted as made becomes without two), and on
    a misère "without two" means two tricks taken."""
    passed = proto(Game(0, SIX, (Call.PASS, Call.PASS)))
    (e,) = penalty_entries("WRONG_CARDS_BID", passed, deal=0, seat=0)
    assert (e.pulya, e.gora) == (2, 4)  # the 2 of the passed 6♠ off the pulya, 2 × 2 in the gora
    clean = proto(Game(0, MISERE, (), 0))
    (m,) = penalty_entries("WRONG_CARDS_BID", clean, deal=0, seat=0)
    assert (m.pulya, m.gora) == (10, 20)  # misère made (10) → two tricks: 2 × 10 in the gora
    (w,) = penalty_entries("WRONG_CARDS_PLAY", clean, deal=0, seat=0)
    assert (w.pulya, w.gora) == (10, 20)  # 3.9.18: at least two tricks on a misère


def test_penalty_never_improves_the_declarers_result():
    """3.4.6: a declarer already down three is not lifted to "without two". 3.9.18 example 1:
    two are taken off what he took ("если взял 4 взятки, пишет за 2")."""
    down3 = proto(Game(0, SIX, W_P, 3))
    assert penalty_entries("WRONG_CARDS_BID", down3, deal=0, seat=0) == ()
    (e,) = penalty_entries("WRONG_CARDS_PLAY", down3, deal=0, seat=0)
    assert (e.pulya, e.gora) == (0, 4)  # without five instead of three: 2 × P more
