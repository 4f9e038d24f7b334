"""Hypothesis properties on randomly generated legal protocols (scoring.russian.generate)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.russian import Protocol, Sheet, check, score
from scoring.russian.generate import random_protocol

OPTION_SETS: tuple[tuple[tuple[str, object], ...], ...] = (
    (),
    (("whist_style", "gentleman"),),
    (("whist_style", "gentleman"), ("returned_half_consolation", False)),  # D21
    (("whist_responsibility", "half"), ("pair_shortfall_6_7", "capped")),
    (("pair_shortfall_8_10", "both"), ("ten_checked", True)),
    (("raspasy_progression", "geometric"), ("raspasy_zero_bonus", "price")),
    (("raspasy_amnesty", False), ("raspasy_exit", "whisted_game")),
    (("consolation_writers", "defenders"), ("misere_consolation", True)),
    (("single_whister_tricks", "own"), ("rounding", "exact")),
    (("talon_premiums", True), ("raspasy_dealer_zero_bonus", True)),
    # D7 alternatives: whists only doubled with a 20-whist pulya point; gora only doubled
    (("game_cost_multiplier", 2), ("end_conversion", 2)),
    (("declarer_gora_multiplier", 2), ("misere_gora_per_trick", 20)),
)

protocols = st.builds(
    lambda seed, convention, players, target, options: random_protocol(
        random.Random(seed), convention=convention, players=players, target=target,
        options=options),  # type: ignore[arg-type]
    st.integers(0, 2**32 - 1),
    st.sampled_from(("sochi", "leningrad", "rostov", "classic")),
    st.sampled_from((3, 4)),
    st.sampled_from((6, 10, 20)),
    st.sampled_from(OPTION_SETS),
)


def scorer_sheet(p: Protocol) -> Sheet:
    s = score(p)
    return Sheet(tuple(s.row(i) for i in range(len(p.deals))), s.final_row(),
                 s.settlement.totals)


@settings(max_examples=150, deadline=None)
@given(protocols)
def test_settlement_sums_to_zero_and_variants_agree(p: Protocol) -> None:
    """001 §4.2.14: "Сумма выигрышей и проигрышей при проверке должна быть равной нулю"."""
    s = score(p).settlement
    assert sum(s.exact) == 0
    assert sum(s.variant1) == 0
    assert s.exact == s.exact_variant2  # variant 1 == variant 2 before rounding
    assert s.variant1 == s.variant2
    if len(p.players) == 3 and dict(p.options).get("rounding", "kodeks") != "exact":
        assert all(x.denominator == 1 for x in s.variant1)  # 001 §4.2.12
        # own adjustment ≤ 2/3, each other player's ≤ 1/3
        assert all(abs(a - b) <= Fraction(4, 3) for a, b in zip(s.variant1, s.exact, strict=True))


@settings(max_examples=100, deadline=None)
@given(protocols)
def test_generated_protocols_are_legal_and_closed(p: Protocol) -> None:
    report = check(p)
    assert report.ok, [str(f) for f in report.findings]
    assert str(p.ending) == "closed"


@settings(max_examples=100, deadline=None)
@given(protocols)
def test_scorer_sheet_checks_clean(p: Protocol) -> None:
    assert check(p, scorer_sheet(p)).findings == ()


@settings(max_examples=150, deadline=None)
@given(protocols, st.data())
def test_altered_cell_is_found_at_its_place(p: Protocol, data: st.DataObject) -> None:
    sheet = scorer_sheet(p)
    n = len(p.players)
    i = data.draw(st.integers(0, len(p.deals) - 1), label="deal")
    who = data.draw(st.integers(0, n - 1), label="player")
    columns = ["pulya", "gora"] + [f"whists:{q}" for q in range(n) if q != who]
    column = data.draw(st.sampled_from(columns), label="column")
    delta = data.draw(st.integers(-30, 30).filter(bool), label="delta")
    line = sheet.running[i][who]  # type: ignore[index]
    if column == "pulya":
        line = dataclasses.replace(line, pulya=line.pulya + delta)
    elif column == "gora":
        line = dataclasses.replace(line, gora=line.gora + delta)
    else:
        q = int(column.split(":")[1])
        whists = list(line.whists)
        whists[q] += delta
        line = dataclasses.replace(line, whists=tuple(whists))
    rows = list(sheet.running)
    row = list(rows[i])  # type: ignore[arg-type]
    row[who] = line
    rows[i] = tuple(row)
    found = check(p, dataclasses.replace(sheet, running=tuple(rows))).findings
    assert [(f.code, f.deal, f.player, f.column, f.written - f.expected) for f in found] == [
        ("SHEET_MISMATCH", i, who, column, delta)]  # type: ignore[operator]


@settings(max_examples=100, deadline=None)
@given(protocols)
def test_help_never_changes_the_settlement(p: Protocol) -> None:
    """note 72, note 73 (russian.md §9.4): whom one helps changes no result; help at 10
    whists a point equals the shortfall written 1:1 into the gora."""
    if p.convention in ("leningrad", "classic"):
        return  # no help; Classic's responsibility depends on a closed pulya (001 §3.8.11)
    with_help = score(p).settlement.exact
    without = score(p.with_options(help=False)).settlement.exact
    assert with_help == without
    assert sum(with_help, Fraction(0)) == 0
