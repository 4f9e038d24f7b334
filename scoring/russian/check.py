"""Checking a protocol and the sheet the players wrote: every finding, never the first only.

:func:`check` returns a :class:`~scoring.findings.CheckReport` holding

* the scorer's findings on illegal records (tricks not making 10, a whisted
  misère, half-whist on an 8, dealer out of turn, a deal after the pulka closed …);
* the auction's findings (contract below the final bid, 001 §3.4.3, and, when
  :mod:`rules.bidding` is present, its ladder rules 001 §3.3);
* every written cell that differs from the computed one (deal, player, column,
  written, expected, rule). A wrong running total that the players carried on is
  reported once, where it entered; a corrected one is reported again where it changed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from rules.bidding import check_auction
from rules.contracts import Contract, InvalidContractError

from ..findings import CheckReport, Finding, gettext_noop, templated
from .explain import CellRules, cell_rules, final_rule, rule_for_cell
from .protocol import Game, Penalty, Protocol, Raspasy, Sheet, SheetRow
from .pulka import ScoredPulka, score

__all__ = ["check", "check_sheet"]

_PASS_WORDS = frozenset({"pass", "пас", "p", "-"})


def check(protocol: Protocol, sheet: Sheet | None = None) -> CheckReport:
    """Score ``protocol`` and check it (and ``sheet``, if given); all findings.

    :raises ValueError: only for a table that cannot be scored at all (see
        :func:`scoring.russian.pulka.score`).
    """
    scored = score(protocol)
    findings = [*scored.findings, *_check_auctions(scored)]
    if sheet is not None:
        findings.extend(check_sheet(scored, sheet))
    if not findings:  # the common case: nothing to order
        return CheckReport(())
    findings.sort(key=lambda f: -1 if f.deal is None else f.deal)
    return CheckReport(tuple(findings))


def _check_auctions(scored: ScoredPulka) -> list[Finding]:
    """The auctions: rules.bidding's findings (001 §3.3, §3.4.3), or, where the dealer is not
    known, the contract not below the final bid (001 §3.4.3) and the declarer its winner
    (§3.3.13)."""
    protocol = scored.protocol
    out: list[Finding] = []
    deals = protocol.deals
    with_auction = [i for i, deal in enumerate(deals) if type(deal) is Game and deal.auction]
    if not with_auction:
        return out
    for i in with_auction:
        deal = deals[i]
        assert type(deal) is Game
        before = [d for d in deals[:i] if type(d) is not Penalty]
        after_raspasy = bool(before) and type(before[-1]) is Raspasy
        dealer = scored.dealers[i]
        assert deal.auction is not None  # with_auction holds the deals written with one
        if dealer is not None:
            min_level = scored.convention.raspasy_exit_level if after_raspasy else 6
            try:
                found = check_auction(
                    deal.auction,
                    dealer=dealer,
                    players=protocol.size,
                    contract=deal.contract,
                    declarer=deal.declarer,
                    min_level=min_level,
                )
            except ValueError as exc:
                # a call that cannot be read says so for people too (issue 36): its template
                text = re.sub(r"%\((\w+)\)s", r"{\1}", getattr(exc, "text", None) or "")
                params = tuple(getattr(exc, "params", {}).items()) if text else ()
                out.append(
                    Finding("AUCTION", f"auction not readable: {exc}", "3.3", i, column="auction",
                            text=text, params=params)  # fmt: skip
                )
                continue
            for v in found:
                code = str(getattr(v, "code", "auction")).upper().replace("-", "_")
                # the people's words: the rules' template, its seats said by the players' names
                said = {k: str(x) for k, x in v.params}
                said |= {k: _name(protocol.players, s) for k, s in v.seats}
                out.append(
                    Finding(
                        f"AUCTION_{code}",
                        str(getattr(v, "message", v)),
                        _rule(getattr(v, "rule", "3.3")),
                        i,
                        column="auction",
                        text=v.text,
                        params=tuple(said.items()) if v.text else (),
                    )
                )
            continue
        out.extend(_fallback_auction(i, deal, protocol.players))
    return out


def _name(players: Sequence[str], seat: int) -> str:
    """A seat by its player's name; its number from 1 where no player sits there."""
    return players[seat] if 0 <= seat < len(players) else str(seat + 1)


def _fallback_auction(i: int, deal: Game, players: Sequence[str]) -> list[Finding]:
    out: list[Finding] = []
    last: tuple[int, Contract] | None = None
    for seat, text in deal.auction or ():
        if text.strip().lower() in _PASS_WORDS:
            continue
        try:
            last = (seat, Contract.from_str(text))
        except InvalidContractError:
            continue
    if last is not None:
        seat, bid = last
        if seat != deal.declarer:
            out.append(
                templated(
                    "DECLARER_NOT_BIDDER",
                    gettext_noop("the auction was won by {player}"),
                    {"player": players[seat] if 0 <= seat < len(players) else seat},
                    rule="3.3.13",
                    deal=i,
                    player=deal.declarer,
                    column="declarer",
                    written=deal.declarer,
                    expected=seat,
                )
            )
        if deal.contract < bid:
            out.append(
                templated(
                    "CONTRACT_BELOW_BID",
                    gettext_noop("contract {contract} below the final bid {bid}"),
                    {"contract": str(deal.contract), "bid": str(bid)},
                    rule="3.4.3",
                    deal=i,
                    player=deal.declarer,
                    column="contract",
                    written=str(deal.contract),
                    expected=str(bid),
                )
            )
    return out


def check_sheet(scored: ScoredPulka, sheet: Sheet) -> list[Finding]:
    """Every cell of ``sheet`` that differs from ``scored`` (001 §4.2.5, §4.2.7)."""
    out: list[Finding] = []
    n = scored.size
    stride = n + 2
    deals = scored.protocol.deals
    if len(sheet.running) > len(deals):
        out.append(
            templated(
                "SHEET_ROWS",
                gettext_noop("{rows} written rows for {deals} deals"),
                {"rows": len(sheet.running), "deals": len(deals)},
                rule="4.2.5",
                column="running",
            )
        )
    explained: dict[int, CellRules] = {}  # deal → its writes with their rules, when needed

    def rules_of(j: int) -> CellRules:
        if j not in explained:
            explained[j] = cell_rules(scored, j)
        return explained[j]

    previous = [0] * (n * stride)  # written − expected, per cell, where last seen
    dirty = False  # some earlier written cell was wrong and may be carried on
    width = n * stride
    for i, row in enumerate(sheet.running[: len(deals)]):
        if row is None:
            continue
        expected = scored.totals[i]
        if len(row) == n:  # the whole row right? (the common case: no per-cell work)
            base = 0
            for line in row:
                if (
                    line.pulya != expected[base]
                    or line.gora != expected[base + 1]
                    or line.whists != expected[base + 2 : base + stride]
                ):
                    break
                base += stride
            else:
                if dirty:
                    previous = [0] * width
                    dirty = False
                continue
        if not _shape_ok(row, n, out, i):
            continue
        dirty = True
        for p, line in enumerate(row):
            base = p * stride
            cells = [(0, "pulya", line.pulya), (1, "gora", line.gora)]
            cells += [(2 + q, f"whists:{q}", line.whists[q]) for q in range(n) if q != p]
            for k, column, written in cells:
                diff = written - expected[base + k]
                if diff and diff != previous[base + k]:
                    error = diff - previous[base + k]
                    since = _after_written_row(sheet, i)
                    rule = rule_for_cell(scored, i, p, column, error, rules_of, since)
                    out.append(
                        _mismatch(
                            scored,
                            i,
                            p,
                            column,
                            written,
                            expected[base + k],
                            rule,
                            carried=previous[base + k],
                        )
                    )
                previous[base + k] = diff
    if sheet.final is not None and _shape_ok(sheet.final, n, out, None):
        expected = scored.final
        for p, line in enumerate(sheet.final):
            base = p * stride
            if (
                line.pulya == expected[base]
                and line.gora == expected[base + 1]
                and line.whists == expected[base + 2 : base + stride]
            ):
                continue  # the common case: the player's final line is right
            cells = [(0, "pulya", line.pulya), (1, "gora", line.gora)]
            cells += [(2 + q, f"whists:{q}", line.whists[q]) for q in range(n) if q != p]
            for k, column, written in cells:
                if written != expected[base + k]:
                    rule = final_rule(scored, p, column)
                    out.append(
                        _mismatch(scored, None, p, column, written, expected[base + k], rule)
                    )
    if sheet.result is not None:
        settlement = scored.settlement  # published totals: variant 1 after rounding (4.2.14)
        numerators, denominator = settlement.variant1_numerators, settlement.denominator
        if len(sheet.result) != n:
            out.append(
                templated(
                    "SHEET_SHAPE",
                    gettext_noop("{results} results for {n} players"),
                    {"results": len(sheet.result), "n": n},
                    rule="4.2.14",
                    column="result",
                )
            )
        else:
            for p, written_result in enumerate(sheet.result):
                if not _same_result(written_result, numerators[p], denominator):
                    totals = settlement.totals
                    out.append(
                        Finding(
                            "RESULT_MISMATCH",
                            f"{scored.protocol.players[p]}: result "
                            f"{written_result}, expected {totals[p]}",
                            "4.2.14",
                            None,
                            p,
                            "result",
                            written_result,
                            totals[p],
                        )
                    )
    return out


def _after_written_row(sheet: Sheet, i: int) -> int:
    """The first deal after the last row the players wrote before row ``i`` (0: none)."""
    for j in range(i - 1, -1, -1):
        if sheet.running[j] is not None:
            return j + 1
    return 0


def _same_result(written: Fraction | int, numerator: int, denominator: int) -> bool:
    """``written == numerator / denominator``, without building Fractions in the usual cases.

    >>> _same_result(-26, -78, 3), _same_result(Fraction(1, 2), 2, 4), _same_result(13, 40, 3)
    (True, True, False)
    """
    if type(written) is int:
        return written * denominator == numerator
    if type(written) is Fraction:
        return written.numerator * denominator == numerator * written.denominator
    return bool(Fraction(written) == Fraction(numerator, denominator))


def _shape_ok(row: SheetRow, n: int, out: list[Finding], i: int | None) -> bool:
    if len(row) != n or any(len(line.whists) != n for line in row):
        out.append(
            templated(
                "SHEET_SHAPE",
                gettext_noop("a written row needs {n} players with {n} whist columns each"),
                {"n": n},
                rule="4.2.1",
                deal=i,
                column="row",
            )
        )
        return False
    return True


def _mismatch(
    scored: ScoredPulka,
    i: int | None,
    p: int,
    column: str,
    written: int,
    expected: int,
    rule: str,
    carried: int = 0,
) -> Finding:
    names = scored.protocol.players
    label = (
        column
        if not column.startswith("whists:")
        else (f"whists on {names[int(column.split(':')[1])]}")
    )
    where = "final " if i is None else ""
    note = f" (an earlier error of {carried:+d} carried)" if carried else ""
    return Finding(
        "SHEET_MISMATCH",
        f"{names[p]}: {where}{label} written {written}, expected {expected}{note}",
        rule,
        i,
        p,
        column,
        written,
        expected,
    )


def _rule(rule: object) -> str:
    return str(rule).removeprefix("001").strip().removeprefix("§").strip()
