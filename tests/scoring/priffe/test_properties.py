"""Invariants of Priffe scoring over random legal games (hypothesis, deadline=None)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from scoring.priffe import jsonio, notation
from scoring.priffe.check import check
from scoring.priffe.generate import random_protocol, sheet_for
from scoring.priffe.protocol import Ending, partnership
from scoring.priffe.score import score
from scoring.variants import VARIANTS

from .strategies import legal_games

SETTINGS = settings(deadline=None, max_examples=80)


@SETTINGS
@given(legal_games())
def test_a_game_ends_exactly_when_a_side_reaches_the_game_points(protocol) -> None:
    # 004 "Utgång": the first side to 30 (old: 20) trick points or more wins the game; both
    # restart at zero.
    s = score(protocol)
    conv = s.convention
    if conv.simple:
        assert all(d.game_won_by is None for d in s.deals)
        return
    before = {k: (0, 0) for k in range(len(protocol.sittings))}
    for d in s.deals:
        assert max(before[d.sits]) < conv.game_points  # no game was pending
        reached = [side for side in (0, 1) if d.game_points[side] >= conv.game_points]
        assert (d.game_won_by is not None) == bool(reached)
        if reached:
            assert d.game_won_by in reached and d.below[d.game_won_by] > 0
        before[d.sits] = (0, 0) if d.game_won_by is not None else d.game_points


@SETTINGS
@given(legal_games())
def test_each_sits_has_a_winner_and_three_sits_use_the_three_partnerships(protocol) -> None:
    # 004: a side's second game wins the sits; "När alla har spelat mot alla under sammanlagt
    # tre sitsar".
    s = score(protocol)
    if s.convention.simple:
        assert len(protocol.sittings) == 1
        return
    assert len({partnership(x) for x in protocol.sittings}) == 3
    pairs = {pair for x in protocol.sittings for pair in partnership(x)}
    assert len(pairs) == 6  # everyone partners everyone once
    if protocol.ending == Ending.CLOSED:
        for sits in s.sits:
            assert sits.winner is not None
            assert sits.games[sits.winner] == 2 and sits.games[1 - sits.winner] <= 1
            assert sits.deals[-1] == sits.won_at


@SETTINGS
@given(legal_games())
def test_player_totals_are_the_sides_points_credited_to_both_partners(protocol) -> None:
    s = score(protocol)
    assert sum(s.player_totals) == 2 * sum(sum(x.totals) for x in s.sits)
    for sits in s.sits:
        assert sum(s.deals[i].below[0] + s.deals[i].above[0] for i in sits.deals) == sits.totals[0]


@SETTINGS
@given(legal_games())
def test_checker_is_clean_on_generated_games_and_their_sheets(protocol) -> None:
    report = check(protocol, sheet_for(protocol))
    assert report.ok, [str(f) for f in report.findings]
    assert not report.findings


@SETTINGS
@given(legal_games())
def test_legal_games_round_trip_through_json_and_text(protocol) -> None:
    sheet = sheet_for(protocol)
    assert jsonio.loads_with_sheet(jsonio.dumps(protocol, sheet)) == (protocol, sheet)
    assert notation.parse_with_sheet(notation.format(protocol, sheet)) == (protocol, sheet)


@SETTINGS
@given(legal_games())
def test_pairwise_is_antisymmetric_and_sums_to_the_total_minus_the_mean(protocol) -> None:
    v = VARIANTS["priffe"]
    r = v.pairwise(protocol)
    totals = v.settlement(protocol)
    mean = sum(totals) / 4
    for p in range(4):
        assert sum(r[p]) == totals[p] - mean
        for q in range(4):
            assert r[p][q] == -r[q][p]


@pytest.mark.parametrize(
    ("convention", "options"),
    [("modern", ()), ("old", ()), ("modern", (("play", "deals"),)),
     ("old", (("play", "total"),)), ("modern", (("penalty_points", "above"),))],
)  # fmt: skip
def test_the_generator_covers_both_scorings_and_the_simple_variant(convention, options) -> None:
    rng = random.Random(7)
    seen = set()
    for _ in range(25):
        p = random_protocol(rng, convention=convention, options=options, cut=False)
        assert check(p).ok and score(p).closed_at is not None
        seen |= {getattr(d, "contract", None) for d in p.deals}
    if convention == "old":
        assert {"klöver", "spader", "tvångsnoll"} <= seen
    else:
        assert {"pref", "noll", "hjärter", "ruter", "tvångsnoll"} <= seen
        assert not {"klöver", "spader"} & seen
