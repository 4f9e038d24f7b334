"""Every finding about a wrong written cell cites the rule that produces that cell (issue 29).

Each test writes the sheet the scorer computes, spoils one cell the way players do (a part left
out, a number misread) and checks the rule the finding cites, from seed 001."""

from __future__ import annotations

import dataclasses

from rules.contracts import MISERE, Contract
from scoring.russian import Call, Game, Penalty, Protocol, Raspasy, Sheet, check, score
from scoring.russian.protocol import Deal, OptionValue

W, P = Call.WHIST, Call.PASS
NAMES = ("A", "B", "C", "D")


def c(text: str) -> Contract:
    return Contract.from_str(text)


def proto(deals: list[Deal], *, n: int = 3, target: int = 20, ending: str = "in-progress",
          convention: str = "sochi", **options: OptionValue) -> Protocol:
    p = Protocol(NAMES[:n], target, tuple(deals), convention, (), 0, ending)  # type: ignore[arg-type]
    return p.with_options(**options) if options else p


def spoiled(p: Protocol, deal: int | None, player: int, column: str, by: int) -> Sheet:
    """The computed sheet with ``player``'s ``column`` after ``deal`` off by ``by`` (from that
    row on, as players carry their own error), or, for ``deal`` None, in the final row."""
    s = score(p)
    rows = [s.row(i) for i in range(len(p.deals))]
    final = s.final_row()

    def change(row):
        line = row[player]
        if column == "pulya":
            line = dataclasses.replace(line, pulya=line.pulya + by)
        elif column == "gora":
            line = dataclasses.replace(line, gora=line.gora + by)
        else:
            q = int(column.split(":")[1])
            whists = list(line.whists)
            whists[q] += by
            line = dataclasses.replace(line, whists=tuple(whists))
        return (*row[:player], line, *row[player + 1:])

    if deal is None:
        return Sheet(tuple(rows), change(final))
    rows = [change(r) if i >= deal else r for i, r in enumerate(rows)]
    return Sheet(tuple(rows))


def cited(p: Protocol, sheet: Sheet) -> list[tuple[str, int | None, int | None, str | None, str]]:
    return [(f.code, f.deal, f.player, f.column, f.rule) for f in check(p, sheet).findings]


def test_declarers_remiz_in_the_gora_cites_the_remiz_rule():
    """001 §4.2.1: "за несыгранный контракт (ремиз) запись делается в гору" (not §3.8.11)."""
    p = proto([Game(0, c("7♠"), (W, P), 5)])
    assert cited(p, spoiled(p, 0, 0, "gora", -4)) == [("SHEET_MISMATCH", 0, 0, "gora", "4.2.1")]


def test_made_contract_in_the_pulya_cites_4_2_1():
    p = proto([Game(0, c("6♠"), (W, P), 6)])
    assert cited(p, spoiled(p, 0, 0, "pulya", 2)) == [("SHEET_MISMATCH", 0, 0, "pulya", "4.2.1")]


def test_failed_misere_cites_the_misere_rule():
    """001 §3.6: a caught misère writes its tricks into the declarer's gora."""
    p = proto([Game(1, MISERE, (), 2)])
    assert cited(p, spoiled(p, 0, 1, "gora", -10)) == [("SHEET_MISMATCH", 0, 1, "gora", "3.6")]


def test_consolation_left_out_cites_3_8_1_2_and_trick_whists_3_8_1_1():
    """7♠ made 5: the whister writes 2 × 10 for his tricks (§3.8.1.1) and 2 × 4 consolation
    (§3.8.1.2); the passer writes consolation only."""
    p = proto([Game(0, c("7♠"), (W, P), 5)])
    assert cited(p, spoiled(p, 0, 1, "whists:0", -8)) == [
        ("SHEET_MISMATCH", 0, 1, "whists:0", "3.8.1.2")]
    assert cited(p, spoiled(p, 0, 1, "whists:0", -20)) == [
        ("SHEET_MISMATCH", 0, 1, "whists:0", "3.8.1.1")]
    assert cited(p, spoiled(p, 0, 2, "whists:0", -8)) == [
        ("SHEET_MISMATCH", 0, 2, "whists:0", "3.8.1.2")]


def test_whisters_shortfall_cites_full_or_half_responsibility():
    """A 6 made 9: the single whister took 1 of 4 obligatory tricks. Sochi's whist is
    responsible (001 §3.8.11), Leningrad's half-responsible (§3.8.12)."""
    deals: list[Deal] = [Game(0, c("6♠"), (W, P), 9)]
    sochi = proto(deals)
    assert cited(sochi, spoiled(sochi, 0, 1, "gora", -2)) == [
        ("SHEET_MISMATCH", 0, 1, "gora", "3.8.11")]
    leningrad = proto(deals, convention="leningrad")
    assert cited(leningrad, spoiled(leningrad, 0, 1, "gora", -2)) == [
        ("SHEET_MISMATCH", 0, 1, "gora", "3.8.12")]


def test_raspasy_in_the_gora_and_rostov_whists():
    """001 §3.7.2.1: raspasy tricks into the gora; §3.7.2.2 Rostov: whists on the others."""
    p = proto([Raspasy((2, 3, 5))])
    assert cited(p, spoiled(p, 0, 2, "gora", 1)) == [("SHEET_MISMATCH", 0, 2, "gora", "3.7.2.1")]
    rostov = proto([Raspasy((2, 3, 5))], convention="rostov")
    wrong = [f for f in cited(rostov, spoiled(rostov, 0, 0, "whists:2", -5))]
    assert wrong == [("SHEET_MISMATCH", 0, 0, "whists:2", "3.7.2.2")]


def test_help_cites_4_2_3():
    """To 3: A has 2 and makes a 6 (2 points): 1 fills his pulya (001 §4.2.1), 1 goes to B's
    fuller pulya, with 10 whists written on B for it (help, 001 §4.2.3)."""
    p = proto([Game(0, c("6♠"), (P, P)), Game(1, c("6♠"), (P, P)), Game(0, c("6♠"), (P, P))],
              target=3)
    assert cited(p, spoiled(p, 2, 0, "whists:1", -10)) == [
        ("SHEET_MISMATCH", 2, 0, "whists:1", "4.2.3")]
    assert cited(p, spoiled(p, 2, 1, "pulya", -1)) == [("SHEET_MISMATCH", 2, 1, "pulya", "4.2.3")]
    assert cited(p, spoiled(p, 2, 0, "pulya", 1)) == [("SHEET_MISMATCH", 2, 0, "pulya", "4.2.1")]


def test_penalty_entry_cites_its_own_rule():
    p = proto([Game(0, c("6♠"), (P, P)), Penalty(1, "3.2.21", gora=5)])
    assert cited(p, spoiled(p, 1, 1, "gora", -5)) == [("SHEET_MISMATCH", 1, 1, "gora", "3.2.21")]


def test_final_row_cites_the_end_conversion_or_the_running_totals():
    """Stopped by agreement: each writes the unplayed pulya into the gora (001 §4.2.3; in
    Leningrad doubled, §4.2.3.3); a final whist cell carries the running total (§4.2.5)."""
    deals: list[Deal] = [Game(0, c("7♠"), (W, P), 5)]
    p = proto(deals, ending="agreement")
    assert cited(p, spoiled(p, None, 1, "gora", -20)) == [
        ("SHEET_MISMATCH", None, 1, "gora", "4.2.3")]
    assert cited(p, spoiled(p, None, 1, "whists:0", 1)) == [
        ("SHEET_MISMATCH", None, 1, "whists:0", "4.2.5")]
    leningrad = proto(deals, ending="agreement", convention="leningrad")
    assert cited(leningrad, spoiled(leningrad, None, 2, "gora", -40)) == [
        ("SHEET_MISMATCH", None, 2, "gora", "4.2.3.3")]


def test_a_cell_the_deal_should_not_touch_cites_its_columns_rule():
    """The passer on a made 6 writes nothing; whists written there break §3.8.1.1."""
    p = proto([Game(0, c("6♠"), (W, P), 6)])
    assert cited(p, spoiled(p, 0, 2, "whists:0", 4)) == [
        ("SHEET_MISMATCH", 0, 2, "whists:0", "3.8.1.1")]


def test_an_unwritten_stretch_cites_the_deal_whose_part_was_left_out():
    """Only the row after deal 2 is copied: Anna's pulya there left out her made 6 of deal 1
    (001 §4.2.1), not a raspasy rule; Boris's raspasy tricks left out cite §3.7.2.1."""
    p = proto([Game(0, c("6♠"), (W, P), 6), Raspasy((2, 5, 3))])
    s = score(p)
    row = list(s.row(1))
    row[0] = dataclasses.replace(row[0], pulya=0)
    row[1] = dataclasses.replace(row[1], gora=0)
    found = cited(p, Sheet((None, tuple(row))))
    assert found == [("SHEET_MISMATCH", 1, 0, "pulya", "4.2.1"),
                     ("SHEET_MISMATCH", 1, 1, "gora", "3.7.2.1")]


def test_a_penalty_past_the_bound_is_refused_naming_the_column():
    # issue #37: every family's penalty amounts have a bound (scoring.model.PENALTY_MAX)
    p = proto([Game(0, c("6♠"), (P, P)), Penalty(1, "3.2.21", gora=10**40)])
    found = [(f.code, f.column, f.deal) for f in check(p).findings if f.severity == "error"]
    assert found == [("PENALTY_AMOUNT", "gora", 1)]
    assert score(p).final == score(proto([Game(0, c("6♠"), (P, P))])).final
