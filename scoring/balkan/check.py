"""Checking a Balkan game and the sheet its players wrote: every finding, never the first only.

:func:`check` returns a :class:`~scoring.findings.CheckReport` holding, each citing seed 002
(``source="002"``):

* the scorer's findings on impossible records (a seat not at the table, a contract not 2–7, tricks
  not making 10 or a defence of more than 5, a drop in bettel, an invitation or a kontra by the
  wrong defender, a kontra level beyond the convention's limit, a plain two played without kontra,
  a deal after the end, the undefined failed preferans, a bettel with kontra …);
* the dealer written out of the rotation (seed 002 "Players and Deal");
* the auctions (:mod:`scoring.balkan.auction`: seed 002 "The Bidding", "The Contract");
* with a :class:`~scoring.balkan.protocol.BalkanSheet`, every written cell that differs from the
  computed one — ``column``, ``soup:<seat>`` (the soup written against that seat), ``refas``,
  ``result`` — naming the deal, the player, the written and the expected value and the rule that
  produces the cell, and soups that go down. A wrong cell the players carried on is reported
  once, where it entered.

>>> from scoring.balkan.protocol import BalkanProtocol, BalkanSheet, BalkanSheetLine, Hand
>>> p = BalkanProtocol(("A", "B", "C"), 30, (Hand(0, 3, tricks=(6, 2, 2)),), ending="in-progress")
>>> row = (BalkanSheetLine(-24, (0, 0, 0)), BalkanSheetLine(-30, (12, 0, 0)),
...        BalkanSheetLine(-30, (12, 0, 0)))
>>> check(p, BalkanSheet(running=(row,))).ok
True
>>> bad = (row[0], BalkanSheetLine(-30, (10, 0, 0)), row[2])
>>> [str(f) for f in check(p, BalkanSheet(running=(bad,))).findings]
['deal 1: B wrote 10 in the soup against A, expected 12 [002 "Scoring"] (SHEET_CELL)']
"""

from __future__ import annotations

from rules.balkan import BETTEL

from ..findings import CheckReport, Finding, Severity, gettext_noop, seat_number, templated
from .auction import check_auction
from .protocol import AllPass, BalkanProtocol, BalkanSheet, BalkanSheetRow, Hand
from .score import DealResult, ScoredBalkan, score

__all__ = ["check", "check_sheet"]

SOURCE = "002"


def check(protocol: BalkanProtocol, sheet: BalkanSheet | None = None) -> CheckReport:
    """Score ``protocol`` and check it (and ``sheet``, if given); all findings, in deal order.

    Never raises for a bad record: a table that cannot be scored at all (not three players, a
    bad bula, an unknown convention) is one finding.
    """
    try:
        scored = score(protocol)
    except ValueError as exc:
        return CheckReport((templated(
            "TABLE", gettext_noop("the table cannot be scored: {error}"), {"error": str(exc)},
            rule="Players and Deal", source=SOURCE),))
    findings = [*scored.findings, *_dealers(scored), *_auctions(scored)]
    if sheet is not None:
        findings.extend(check_sheet(scored, sheet))
    findings.sort(key=lambda f: -1 if f.deal is None else f.deal)
    return CheckReport(tuple(findings))


def _dealers(scored: ScoredBalkan) -> list[Finding]:
    out = []
    for i, deal in enumerate(scored.protocol.deals):
        if isinstance(deal, Hand | AllPass) and deal.dealer is not None:
            expected = scored.deals[i].dealer
            if deal.dealer != expected:
                out.append(templated(
                    "DEALER", gettext_noop("dealer written as seat {written}; the turn to deal "
                                           "rotates to seat {expected}"),
                    {"written": seat_number(deal.dealer), "expected": seat_number(expected)},
                    rule="Players and Deal", deal=i, column="dealer",
                    written=deal.dealer, expected=expected, source=SOURCE))
    return out


def _auctions(scored: ScoredBalkan) -> list[Finding]:
    out = []
    for i, deal in enumerate(scored.protocol.deals):
        if isinstance(deal, Hand) and deal.auction and deal.declarer in (0, 1, 2):
            dealer = scored.deals[i].dealer
            assert dealer is not None
            out.extend(check_auction(deal, dealer, scored.convention, i))
    return out


# --- the written sheet ---------------------------------------------------------------

Cells = dict[tuple[int, str], int]


def _cells(columns: tuple[int, ...], soups: tuple[tuple[int, ...], ...],
           refas: tuple[int, ...]) -> Cells:
    cells: Cells = {}
    for s in range(3):
        cells[s, "column"] = columns[s]
        for q in range(3):
            if q != s:
                cells[s, f"soup:{q}"] = soups[s][q]
        cells[s, "refas"] = refas[s]
    return cells


def _written(row: BalkanSheetRow) -> Cells | None:
    if len(row) != 3 or any(len(line.soups) != 3 for line in row):
        return None
    return _cells(tuple(x.column for x in row), tuple(tuple(x.soups) for x in row),
                  tuple(x.refas for x in row))


def _rule(d: DealResult | None, seat: int, column: str) -> str:
    """The seed 002 rule that produces a cell at deal ``d``."""
    if d is None:
        return "Scoring"
    if column == "refas" or d.kind == "all-pass":
        return "Refa"
    if d.capped:
        return "Ending the Game"
    if column == "column" and seat in d.failed:
        return "The Defenders' Decisions"
    if column == "column" and seat == d.declarer and d.refa_used:
        return "Refa"
    if d.kind == "plain-two" or d.kontra and d.contract != BETTEL:
        return "Kontra"
    return "Scoring"


#: a wrong cell's message by the cell's kind and whether it is in the final row
_CELL_TEXTS = {
    ("column", False): gettext_noop(
        "{player} wrote {written} in the declarer column, expected {expected}"),
    ("column", True): gettext_noop(
        "{player} wrote {written} in the declarer column in the final row, expected {expected}"),
    ("refas", False): gettext_noop(
        "{player} wrote {written} as unplayed refas, expected {expected}"),
    ("refas", True): gettext_noop(
        "{player} wrote {written} as unplayed refas in the final row, expected {expected}"),
    ("soup", False): gettext_noop(
        "{player} wrote {written} in the soup against {opponent}, expected {expected}"),
    ("soup", True): gettext_noop(
        "{player} wrote {written} in the soup against {opponent} in the final row, expected "
        "{expected}"),
}


def check_sheet(scored: ScoredBalkan, sheet: BalkanSheet) -> list[Finding]:
    """Every written cell of ``sheet`` that differs from ``scored`` (see the module docstring)."""
    names = scored.protocol.players
    out: list[Finding] = []
    deals = scored.deals
    if len(sheet.running) > len(deals):
        out.append(templated("SHEET_ROWS", gettext_noop("{rows} running rows for {deals} deals"),
                             {"rows": len(sheet.running), "deals": len(deals)}, rule="Scoring",
                             source=SOURCE))
    start = _cells((-scored.bula,) * 3, ((0, 0, 0),) * 3, (0, 0, 0))
    prev_written: Cells | None = start
    prev_expected = start
    for i, row in enumerate(sheet.running[: len(deals)]):
        if row is None:
            prev_written = None
            continue
        written = _written(row)
        d = deals[i]
        expected = _cells(d.columns, d.soups, d.refas)
        if written is None:
            out.append(templated("SHEET_SHAPE", gettext_noop(
                "a sheet row needs three players, each with a soup per seat"), rule="Scoring",
                deal=i, source=SOURCE))
            prev_written = None
            continue
        for (seat, column), value in written.items():
            want = expected[seat, column]
            before = None if prev_written is None else prev_written[seat, column]
            if column.startswith("soup:") and before is not None and want != value < before:
                out.append(templated(
                    "SOUP_DOWN", gettext_noop(
                        "{player}'s soup against {opponent} went down from {before} to "
                        "{written}; soups are only added to, never subtracted"),
                    {"player": names[seat], "opponent": names[int(column[5:])],
                     "before": before, "written": value},
                    rule="Scoring", deal=i, player=seat,
                    column=column, written=value, expected=want, source=SOURCE))
            if value == want:
                continue
            carried = before is not None and before != prev_expected[seat, column] and (
                value - before == want - prev_expected[seat, column])
            if not carried:
                out.append(_cell(scored, d, i, seat, column, value, want))
        prev_written, prev_expected = written, expected
    if sheet.final is not None:
        written = _written(sheet.final)
        expected = _cells(scored.columns, scored.soups, scored.refas)
        if written is None:
            out.append(templated("SHEET_SHAPE", gettext_noop(
                "the final row needs three players, each with a soup per seat"), rule="Scoring",
                source=SOURCE))
        else:
            for (seat, column), value in written.items():
                if value != expected[seat, column]:
                    out.append(_cell(scored, None, None, seat, column, value,
                                     expected[seat, column]))
    if sheet.result is not None:
        if len(sheet.result) != 3:
            out.append(templated("SHEET_SHAPE", gettext_noop(
                "the result needs one number per player"), rule="Ending the Game",
                column="result", source=SOURCE))
        else:
            for seat, (value, want) in enumerate(zip(sheet.result, scored.settlement,
                                                     strict=True)):
                if value != want:
                    out.append(templated(
                        "SHEET_RESULT", gettext_noop("{player}'s result written as {written}, "
                                                     "the final calculation gives {expected}"),
                        {"player": names[seat], "written": value, "expected": want},
                        rule="Ending the Game", player=seat,
                        column="result", written=value, expected=want, source=SOURCE))
    return out


def _cell(scored: ScoredBalkan, d: DealResult | None, i: int | None, seat: int, column: str,
          value: int, want: int) -> Finding:
    names = scored.protocol.players
    if column == "refas" and value > want and value > scored.refa_limit:
        return templated(
            "REFA_BEYOND_LIMIT", gettext_noop(
                "{player} wrote {written} unplayed refas; at most {limit} can be given with bula "
                "{bula}, and {expected} remain"),
            {"player": names[seat], "written": value, "limit": scored.refa_limit,
             "bula": scored.bula, "expected": want},
            rule="Refa", deal=i, player=seat, column=column, written=value, expected=want,
            source=SOURCE)
    kind = column if column in ("column", "refas") else "soup"
    params: dict[str, object] = {"player": names[seat], "written": value, "expected": want}
    if kind == "soup":
        params["opponent"] = names[int(column.split(":")[1])]
    return templated(
        "SHEET_CELL", _CELL_TEXTS[kind, d is None], params, rule=_rule(d, seat, column),
        deal=i, player=seat, column=column, written=value, expected=want, source=SOURCE,
        severity=Severity.ERROR)
