"""The Balkan checker: every impossible record is a finding citing seed 002, never a crash."""

import pytest

from scoring.balkan.check import check
from scoring.balkan.protocol import (
    AllPass,
    BalkanProtocol,
    BalkanSheet,
    BalkanSheetLine,
    Defence,
    Hand,
    Penalty,
)
from scoring.balkan.score import score

from .worked_example import PROTOCOL

PLAY, DROP, INVITE = Defence.PLAY, Defence.DROP, Defence.INVITE


def game(*deals, convention="croatian", **options):
    return BalkanProtocol(("A", "B", "C"), 30, tuple(deals), convention=convention,
                          options=tuple(sorted(options.items())), ending="in-progress")


#: the headings of seed 002 a finding cites (and its "variations played in Serbia/Slovenia")
SECTIONS = {
    "Idea of the Game", "Players and Deal", "The Bidding", "The Exchange", "The Contract",
    "The Defenders' Decisions", "Kontra", "The Play", "Scoring", "Refa", "Ending the Game",
    "variations played in Serbia", "variations played in Slovenia",
}


def found(protocol, sheet=None):
    report = check(protocol, sheet)
    for f in report.findings:
        # every finding cites a section of seed 002 by its heading, never the reading aid's id
        assert f.source == "002" and f.rule in SECTIONS, f
        assert f.citation == f'002 "{f.rule}"'
        # and carries its message as a template and parameters, for the reader's language
        assert f.text and f.message == f.text.format(**dict(f.params)), f
    return [f.code for f in report.findings]


@pytest.mark.parametrize("deal, code, rule", [
    (Hand(3, 3, tricks=(6, 2, 2)), "SEAT", "Players and Deal"),
    (Hand(0, 9, tricks=(6, 2, 2)), "CONTRACT", "The Bidding"),
    (Hand(0, 1, tricks=(6, 2, 2)), "CONTRACT", "The Bidding"),
    (Hand(0, 3, tricks=(6, 2, 1)), "TRICKS_SUM", "Idea of the Game"),
    (Hand(0, 3, tricks=(6, 3, 2)), "TRICKS_SUM", "Idea of the Game"),
    (Hand(0, 3, tricks=(4, 3, 3)), "DEFENCE_TRICKS", "The Defenders' Decisions"),
    (Hand(0, 3, tricks=None), "TRICKS_MISSING", "The Play"),
    (Hand(0, 6, defence=(PLAY, DROP), tricks=(1, 9, 0)), "DROP_IN_BETTEL", "The Contract"),
    (Hand(0, 3, defence=(INVITE, PLAY), tricks=(6, 2, 2)), "INVITATION",
     "The Defenders' Decisions"),
    (Hand(0, 3, defence=(PLAY, DROP), tricks=(6, 2, 2)), "TRICKS_DROPPED",
     "The Defenders' Decisions"),
    (Hand(0, 3, kontra=1, kontra_by=0, tricks=(6, 2, 2)), "KONTRA_BY", "Kontra"),
    (Hand(0, 3, kontra=1, tricks=(6, 2, 2)), "KONTRA_BY", "Kontra"),
    (Hand(0, 3, defence=(DROP, PLAY), kontra=1, kontra_by=1, tricks=(6, 2, 2)), "KONTRA_BY",
     "Kontra"),
    (Hand(0, 2, tricks=(6, 2, 2)), "KONTRA_MISSING", "Kontra"),
])
def test_impossible_records(deal, code, rule):
    report = check(game(deal))
    assert [f.code for f in report.findings] == [code]
    assert report.findings[0].rule == rule and report.findings[0].deal == 0
    assert not report.ok


def test_early_stop_with_a_defence_of_five_is_fine():
    assert found(game(Hand(0, 3, tricks=(3, 3, 2)))) == []


def test_kontra_beyond_the_limit():
    assert found(game(Hand(0, 3, kontra=2, kontra_by=1, tricks=(6, 2, 2)), kontra_limit=1)) == [
        "KONTRA_LEVEL"]


def test_tricks_on_an_unplayed_hand_is_a_warning():
    report = check(game(Hand(0, 3, defence=(DROP, DROP), tricks=(10, 0, 0))))
    assert [f.code for f in report.findings] == ["TRICKS_UNPLAYED"] and report.ok


def test_dealer_out_of_rotation():
    report = check(game(AllPass(dealer=0), Hand(0, 3, tricks=(6, 2, 2), dealer=2)))
    assert [(f.code, f.deal, f.expected) for f in report.findings] == [("DEALER", 1, 1)]


def test_deal_after_end():
    report = check(PROTOCOL.with_deals(PROTOCOL.deals + (AllPass(),)))
    assert [(f.code, f.rule) for f in report.findings] == [("DEAL_AFTER_END", "Ending the Game")]


def test_failed_preferans_is_flagged():
    p = game(Hand(0, 8, tricks=(9, 1, 0)), convention="serbian", preferans=True)
    assert found(p) == ["UNDEFINED"]


def test_a_table_that_cannot_be_scored_is_one_finding():
    report = check(BalkanProtocol(("A", "B"), 30))
    assert [f.code for f in report.findings] == ["TABLE"]
    assert [f.code for f in check(BalkanProtocol(("A", "B", "C"), 0)).findings] == ["TABLE"]
    assert [f.code for f in check(BalkanProtocol(("A", "B", "C"), 30,
                                                 convention="nowhere")).findings] == ["TABLE"]


def test_bad_penalty_is_a_finding():
    assert found(game(Penalty(4, column=2))) == ["PENALTY"]


def test_closed_but_not_ended():
    p = BalkanProtocol(("A", "B", "C"), 30, (Hand(0, 3, tricks=(6, 2, 2)),))
    assert found(p) == ["NOT_ENDED"]


# --- auctions (seed 002 "The Bidding", "The Contract") -------------------------------

def auction(*bids, declarer=2, contract=5, game_=False, convention="croatian", **options):
    # the first dealer is seat 0, so seat 1 bids first
    hand = Hand(declarer, contract, game_, defence=(DROP, DROP), auction=tuple(bids))
    if contract == 6:  # bettel is always played (002 "The Contract")
        tricks = tuple(0 if s == declarer else 5 for s in range(3))
        hand = Hand(declarer, contract, game_, tricks=tricks, auction=tuple(bids))
    return found(BalkanProtocol(("A", "B", "C"), 30, (hand,), convention=convention,
                                options=tuple(sorted(options.items())), ending="in-progress"))


def test_seed_bidding_examples_are_clean():
    # the examples of seed 002 "The Bidding" (A first bidder = seat 1, B seat 2, C dealer 0)
    assert auction((1, "2"), (2, "3"), (0, "4"), (1, "pass"), (2, "pass"),
                   declarer=0, contract=4) == []
    assert auction((1, "pass"), (2, "2"), (0, "3"), (2, "same"), (0, "4"), (2, "same"),
                   (0, "pass"), declarer=2, contract=5) == []
    assert auction((1, "2"), (2, "igra"), (0, "igra"), (2, "igra 4"), (0, "igra 5"),
                   declarer=0, contract=5, game_=True) == []
    assert auction((1, "igra"), (2, "pass"), (0, "pass"), (1, "igra 3"),
                   declarer=1, contract=3, game_=True) == []
    assert auction((1, "2"), (2, "betl"), (0, "sanac"), declarer=0, contract=7,
                   game_=True) == []


def test_jump_bid():
    assert auction((1, "3"), (2, "pass"), (0, "pass"), declarer=1) == ["JUMP_BID",
                                                                       "AUCTION_WINNER"]


def test_same_by_a_later_player():
    codes = auction((1, "2"), (2, "3"), (0, "same"), (1, "pass"), (2, "pass"), declarer=2)
    assert "SAME" in codes


def test_pass_is_final():
    codes = auction((1, "pass"), (2, "2"), (0, "pass"), (1, "3"), declarer=2)
    assert "PASS_FINAL" in codes


def test_igra_only_at_the_first_turn():
    codes = auction((1, "2"), (2, "3"), (0, "pass"), (1, "igra"), declarer=2)
    assert "IGRA_FIRST_TURN" in codes


def test_no_numbers_after_igra():
    codes = auction((1, "igra"), (2, "2"), declarer=1, contract=3, game_=True)
    assert "NUMBER_AFTER_IGRA" in codes


def test_contract_below_the_bid():
    codes = auction((1, "2"), (2, "3"), (0, "pass"), (1, "pass"), declarer=2, contract=2)
    assert codes == ["CONTRACT_BID"]


def test_game_flag_against_the_auction_is_a_finding_not_a_crash():
    # 002 "The Contract": a game is played without the talon only after igra was bid (these two
    # findings name the "game" field and once crashed the checker)
    assert auction((1, "2"), (2, "pass"), (0, "pass"), declarer=1, contract=3,
                   game_=True) == ["CONTRACT_BID"]
    assert auction((1, "igra"), (2, "pass"), (0, "pass"), declarer=1, contract=3) == [
        "CONTRACT_BID"]


def test_declarer_not_the_winner():
    codes = auction((1, "2"), (2, "pass"), (0, "pass"), declarer=2, contract=3)
    assert codes == ["AUCTION_WINNER"]


def test_serbian_plain_igra_commits_to_trumps():
    bids = ((1, "igra"), (2, "pass"), (0, "pass"), (1, "igra betl"))
    assert auction(*bids, declarer=1, contract=6, game_=True) == []
    serbian = auction(*bids, declarer=1, contract=6, game_=True, convention="serbian")
    assert serbian == ["IGRA_COMMITS"]
    assert auction((1, "igra betl"), (2, "pass"), (0, "pass"), declarer=1, contract=6,
                   game_=True, convention="serbian") == []


def test_unknown_bid():
    assert auction((1, "seven hearts"), declarer=1) == ["BID"]


# --- the written sheet -----------------------------------------------------------------

def sheet_of(scored, *, result=True):
    rows = tuple(
        tuple(BalkanSheetLine(d.columns[s], d.soups[s], d.refas[s]) for s in range(3))
        for d in scored.deals
    )
    return BalkanSheet(running=rows, final=rows[-1],
                       result=scored.settlement if result else None)


def test_a_correct_sheet_is_clean():
    assert check(PROTOCOL, sheet_of(score(PROTOCOL))).findings == ()


@pytest.mark.parametrize("deal, seat, column, rule", [
    (0, 1, "soup:2", "Scoring"),
    (3, 0, "column", "Refa"),
    (5, 1, "column", "The Defenders' Decisions"),
    (14, 2, "soup:1", "Ending the Game"),
    (2, 0, "refas", "Refa"),
])
def test_one_wrong_cell_gives_one_finding(deal, seat, column, rule):
    good = sheet_of(score(PROTOCOL), result=False)
    rows = [list(r) for r in good.running]
    line = rows[deal][seat]
    if column == "column":
        wrong = BalkanSheetLine(line.column + 2, line.soups, line.refas)
        written = line.column + 2
    elif column == "refas":
        wrong = BalkanSheetLine(line.column, line.soups, 0)
        written = 0
    else:
        q = int(column[5:])
        soups = list(line.soups)
        soups[q] += 2
        written = soups[q]
        wrong = BalkanSheetLine(line.column, tuple(soups), line.refas)
    rows[deal][seat] = wrong
    sheet = BalkanSheet(running=tuple(tuple(r) for r in rows), final=good.final)
    findings = check(PROTOCOL, sheet).findings
    assert len(findings) == 1
    f = findings[0]
    assert (f.code, f.deal, f.player, f.column, f.written, f.rule) == (
        "SHEET_CELL", deal, seat, column, written, rule)


def test_a_carried_error_is_reported_once():
    good = sheet_of(score(PROTOCOL), result=False)
    rows = [list(r) for r in good.running]
    for i in range(4, len(rows)):  # B's column off by 2 from deal 5 on
        line = rows[i][1]
        rows[i][1] = BalkanSheetLine(line.column - 2, line.soups, line.refas)
    findings = check(PROTOCOL, BalkanSheet(running=tuple(tuple(r) for r in rows))).findings
    assert [(f.code, f.deal) for f in findings] == [("SHEET_CELL", 4)]


def test_soups_going_down_and_wrong_result():
    good = sheet_of(score(PROTOCOL))
    rows = [list(r) for r in good.running]
    line = rows[1][0]
    rows[1][0] = BalkanSheetLine(line.column, (0, 0, 6), line.refas)  # A's 12 against C → 6
    sheet = BalkanSheet(running=tuple(tuple(r) for r in rows), final=good.final,
                        result=(506, -496, -11))
    codes = [(f.code, f.deal, f.column) for f in check(PROTOCOL, sheet).findings]
    assert ("SOUP_DOWN", 1, "soup:2") in codes and ("SHEET_CELL", 1, "soup:2") in codes
    assert ("SHEET_RESULT", None, "result") in codes


def test_refa_beyond_the_limit_on_the_sheet():
    p = game(AllPass(), AllPass())
    s = score(p)
    rows = sheet_of(s, result=False).running
    rows = (rows[0], tuple(BalkanSheetLine(x.column, x.soups, 2) for x in rows[1]))
    findings = check(p, BalkanSheet(running=rows)).findings
    assert [(f.code, f.rule, f.written, f.expected) for f in findings] == [
        ("REFA_BEYOND_LIMIT", "Refa", 2, 1)] * 3
