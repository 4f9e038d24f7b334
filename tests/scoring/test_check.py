"""The checker: every illegal record and every written cell that differs, with its rule."""

from __future__ import annotations

import dataclasses
import random

from rules.contracts import MISERE, Contract
from scoring.findings import Severity
from scoring.russian import Call, Game, Penalty, Protocol, Raspasy, Sheet, SheetLine, check, score
from scoring.russian.generate import random_protocol
from scoring.russian.protocol import Deal, OptionValue

W, P, H = Call.WHIST, Call.PASS, Call.HALF
NAMES = ("A", "B", "C", "D")


def c(text: str) -> Contract:
    return Contract.from_str(text)


def proto(deals: list[Deal], *, n: int = 3, target: int = 100, ending: str = "in-progress",
          convention: str = "sochi", **options: OptionValue) -> Protocol:
    p = Protocol(NAMES[:n], target, tuple(deals), convention, (), 0, ending)  # type: ignore[arg-type]
    return p.with_options(**options) if options else p


def codes(p: Protocol, sheet: Sheet | None = None) -> list[tuple[str, int | None, str]]:
    return [(f.code, f.deal, f.rule) for f in check(p, sheet).findings]


def test_tricks_not_making_ten():
    """Ten tricks in a deal (001 §3.2.8: ten cards to each)."""
    assert codes(proto([Game(0, c("6♠"), (W, W), 6, (2, 1))])) == [("TRICKS_SUM", 0, "3.2.8")]
    assert codes(proto([Raspasy((3, 3, 3))])) == [("TRICKS_SUM", 0, "3.7.6.1")]


def test_misere_whisted():
    assert codes(proto([Game(0, MISERE, (W, P), 0)])) == [("MISERE_WHISTED", 0, "2.2.2")]


def test_half_whist_on_an_eight_and_by_the_first_defender():
    """001 §3.8.7: half-whist only on 6 and 7, only by the second after a pass."""
    assert codes(proto([Game(0, c("8♠"), (P, H))])) == [("HALF_WHIST", 0, "3.8.7")]
    assert codes(proto([Game(0, c("6♠"), (H, P))])) == [("HALF_WHIST", 0, "3.8.7")]
    assert codes(proto([Game(0, c("6♠"), (W, H))])) == [("HALF_WHIST", 0, "3.8.7")]


def test_dealer_out_of_turn_reported_once_and_followed():
    """001 §3.2.2: the deal passes to the left."""
    deals: list[Deal] = [Game(0, c("6♠"), (P, P), dealer=0), Game(0, c("6♠"), (P, P), dealer=2),
                         Game(0, c("6♠"), (P, P), dealer=0)]
    found = check(proto(deals)).findings
    assert [(f.code, f.deal, f.written, f.expected) for f in found] == [
        ("DEALER_OUT_OF_TURN", 1, 2, 1)]


def test_four_player_dealer_cannot_declare():
    """001 §3.2.10: with four the dealer sits out."""
    assert codes(proto([Game(0, c("6♠"), (P, P))], n=4)) == [("DEALER_DECLARES", 0, "3.2.10")]


def test_deal_after_the_pulka_closed_and_not_closed():
    """001 §4.2.14."""
    closing: list[Deal] = [Game(s, c("6♠"), (P, P)) for s in range(3)]
    assert codes(proto(closing, target=2, ending="closed")) == []
    late = closing + [Game(0, c("6♠"), (P, P))]
    assert codes(proto(late, target=2, ending="closed")) == [("DEAL_AFTER_CLOSE", 3, "4.2.14")]
    assert codes(proto(closing[:2], target=2, ending="closed")) == [("NOT_CLOSED", None, "4.2.14")]


def test_contract_below_the_final_bid():
    """001 §3.4.3: the contract may not be below the bid the declarer reached."""
    deal = Game(1, c("6♠"), (W, P), 6, auction=((1, "6♠"), (2, "6♣"), (0, "pass"), (1, "7♠"),
                                                  (2, "pass")))
    found = [f.code for f in check(proto([deal])).findings]
    assert any("BELOW_BID" in code for code in found)


def test_raspasy_exit_level_classic_archaic():
    """001 §3.7.7–3.7.8: a 6 after raspasy breaks an agreed exit level of 7."""
    deals: list[Deal] = [Raspasy((2, 4, 4)), Game(1, c("6♠"), (P, P))]
    assert codes(proto(deals)) == []
    assert codes(proto(deals, raspasy_exit_level=7)) == [("RASPASY_EXIT", 1, "3.7.8")]


def test_multiplier_outside_classic():
    assert codes(proto([Game(0, c("6♠"), (P, P), multiplier=2)])) == [("MULTIPLIER", 0, "4.1.2")]


def test_all_findings_reported_not_just_the_first():
    deals: list[Deal] = [Game(0, MISERE, (W, P), 0), Raspasy((3, 3, 3)),
                         Game(0, c("9♠"), (P, H)), Game(5, c("6♠"), (P, P))]
    assert [code for code, _, _ in codes(proto(deals))] == [
        "MISERE_WHISTED", "TRICKS_SUM", "HALF_WHIST", "BAD_SEAT"]


def test_unplayed_deal_with_tricks_is_a_warning():
    found = check(proto([Game(0, c("6♠"), (P, P), 6)])).findings
    assert [(f.code, f.severity) for f in found] == [("UNPLAYED_TRICKS", Severity.WARNING)]


def _sheet_of(p: Protocol) -> Sheet:
    s = score(p)
    return Sheet(tuple(s.row(i) for i in range(len(p.deals))), s.final_row(),
                 s.settlement.totals)


def test_sheet_written_by_the_scorer_checks_clean():
    p = random_protocol(random.Random(3), target=20)
    assert check(p, _sheet_of(p)).findings == ()


def test_altered_cell_found_with_place_written_expected_and_rule():
    """001 §4.2.5: running totals; a wrong cell is reported where it is, once."""
    p = proto([Game(0, c("7♠"), (W, P), 5), Raspasy((0, 4, 6)), Penalty(1, "3.2.21", gora=5)])
    sheet = _sheet_of(p)
    rows = list(sheet.running)
    line = rows[0][1]
    rows[0] = (rows[0][0], dataclasses.replace(line, whists=(line.whists[0] + 1, 0, 0)),
               rows[0][2])
    found = check(p, dataclasses.replace(sheet, running=tuple(rows))).findings
    assert [(f.code, f.deal, f.player, f.column, f.written, f.expected, f.rule)
            for f in found] == [("SHEET_MISMATCH", 0, 1, "whists:0", 29, 28, "3.8.1.1")]


def test_carried_error_reported_where_it_entered():
    p = proto([Game(0, c("6♠"), (P, P)), Game(1, c("6♠"), (P, P)), Game(2, c("6♠"), (P, P))])
    sheet = _sheet_of(p)
    rows = [tuple(dataclasses.replace(x, pulya=x.pulya + (1 if i >= 1 and p_ == 0 else 0))
                  for p_, x in enumerate(r)) for i, r in enumerate(sheet.running)]
    found = check(p, Sheet(tuple(rows))).findings
    assert [(f.deal, f.player, f.column) for f in found] == [(1, 0, "pulya")]


def test_written_final_and_result_checked():
    p = proto([Game(0, c("6♠"), (P, P))], target=10, ending="agreement")
    sheet = _sheet_of(p)
    final = (SheetLine(2, 0, (0, 0, 0)),) + sheet.final[1:]  # forgot the shortfall (4.2.3)
    bad = Sheet(final=final, result=(sheet.result[0] + 1, *sheet.result[1:]))
    found = check(p, bad).findings
    assert [(f.code, f.column, f.rule) for f in found] == [
        ("SHEET_MISMATCH", "gora", "4.2.3"), ("RESULT_MISMATCH", "result", "4.2.14")]


def test_sheet_of_wrong_shape():
    p = proto([Game(0, c("6♠"), (P, P))])
    found = check(p, Sheet(running=((SheetLine(2, 0, (0, 0)),),))).findings
    assert [f.code for f in found] == ["SHEET_SHAPE"]
