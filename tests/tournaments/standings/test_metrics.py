"""Pure standings: metrics, tie-breaks, round scores and ranking (no database).

001 §4.1.3: the tournament criterion is the sum of whists; raspasy won, tricks on raspasy,
remizes and tricks on misères are the Kodeks' examples of further criteria.
"""

from __future__ import annotations

import ast
import random
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contracts import MISERE, Contract
from scoring.russian.generate import random_protocol
from scoring.russian.protocol import Call, Game, Penalty, Protocol, Raspasy
from scoring.russian.pulka import score
from scoring.russian.stats import deal_stats, pairwise_results
from tournaments.standings import (
    Adjustment,
    RoundResult,
    StandingsConfig,
    compute_standings,
    config_from_json,
    find_metric,
    round_score,
)
from tournaments.standings.rows import SIT_OUT_RULE
from tournaments.standings.scores import capped, normalised, place_points, scaled

ROOT = Path(__file__).resolve().parents[3]


def rr(entry, rnd, table, score_, final=True, stats=None, versus=None, size=3, opponents=()):
    return RoundResult(
        entry=entry,
        round=rnd,
        table=table,
        score=F(score_),
        final=final,
        table_size=size,
        stats=stats or {},
        versus=versus or {},
        opponents=tuple(opponents),
    )


def table3(rnd, table, a, b, c, final=True, stats=({}, {}, {})):
    """Three players a, b, c = (entry, score) at one table, versus = (s_p - s_q)/3."""
    people = (a, b, c)
    return [
        rr(
            e,
            rnd,
            table,
            s,
            final,
            stats[i],
            {q: F(s - t, 3) for q, t in people if q != e},
            3,
            [q for q, _ in people if q != e],
        )
        for i, (e, s) in enumerate(people)
    ]


def places(standings):
    return {r.entry: r.place_label for r in standings.ranked}


def test_the_package_imports_no_django():
    for path in (ROOT / "tournaments" / "standings").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] in ("django", "rest_framework") for n in names), path
            assert not any(
                n.startswith("tournaments.") and not n.startswith("tournaments.standings")
                for n in names
            ), path


# --- 001 §4.1.3: the sum of whists over approved protocols --------------------------------------


def test_total_is_the_sum_of_whists_over_final_rounds_only():
    rows = (
        table3(1, 10, (1, 40), (2, -10), (3, -30))
        + table3(2, 20, (1, -5), (2, 25), (3, -20))
        + table3(3, 30, (1, 100), (2, -50), (3, -50), final=False)
    )
    s = compute_standings(rows)
    data = s.as_json()
    by = {r["entry"]: r for r in data["rows"]}
    assert by[1]["total"] == 35 and by[2]["total"] == 15 and by[3]["total"] == -50
    # the provisional round is shown, never counted
    assert by[1]["provisional_total"] == 135 and by[1]["has_provisional"]
    assert by[1]["rounds"]["3"]["final"] is False and by[1]["rounds_played"] == 2
    assert places(s) == {1: "1", 2: "2", 3: "3"}


def test_provisional_rows_do_not_move_places():
    final = table3(1, 10, (1, 10), (2, 0), (3, -10))
    prov = table3(2, 20, (1, -300), (2, 0), (3, 300), final=False)
    assert places(compute_standings(final + prov)) == {1: "1", 2: "2", 3: "3"}


def test_event_penalty_is_deducted_from_the_total():
    rows = table3(1, 10, (1, 10), (2, 5), (3, -15))
    s = compute_standings(rows, adjustments=[Adjustment(1, F(-6), 1, "4.2.7")])
    assert places(s) == {2: "1", 1: "2", 3: "3"}
    assert s.as_json()["rows"][1]["adjustment"] == -6


def test_players_without_results_are_listed_after_the_ranked_ones_with_no_place():
    """A player with no counted round is not ranked above a negative total (issue 29): he
    comes after every ranked player, his place shown "—", marked as having no result."""
    s = compute_standings(table3(1, 10, (1, 10), (2, -20), (3, 10)), entries=[9])
    assert places(s) == {1: "1–2", 3: "1–2", 2: "3", 9: "4"}
    last = s.as_json()["rows"][3]
    assert last["entry"] == 9 and last["place_label"] == "—" and last["no_result"]
    assert last["rounds_played"] == 0 and last["place"] == 4


def test_unranked_players_share_the_places_after_the_ranked_ones():
    rows = table3(1, 10, (1, -10), (2, -20), (3, 30))
    s = compute_standings(rows, entries=[8, 9], no_result=[(8, 1), (9, 1)])
    assert [r.entry for r in s.ranked][:3] == [3, 1, 2]
    tail = s.as_json()["rows"][3:]
    assert {r["entry"] for r in tail} == {8, 9}
    assert all(r["place_label"] == "—" and r["no_result_rounds"] == [1] for r in tail)
    assert all(r["place"] == 4 and r["shared"] for r in tail)


def test_a_round_without_a_result_counts_nothing_and_is_marked():
    """A player whose table has no result in round 2 keeps his place by round 1's result;
    round 2 is in the columns and his cell says "no result" (not 0)."""
    rows = table3(1, 10, (1, 10), (2, -5), (3, -5)) + table3(2, 20, (4, 9), (5, 0), (6, -9))
    s = compute_standings(rows, entries=[7], no_result=[(1, 2), (2, 2), (3, 2)])
    data = s.as_json()
    assert data["rounds"] == [1, 2]
    by = {r["entry"]: r for r in data["rows"]}
    assert by[1]["no_result_rounds"] == [2] and "2" not in by[1]["rounds"]
    assert by[1]["total"] == 10 and by[1]["place_label"] == "1"
    assert not by[1]["no_result"] and by[7]["no_result"] and by[7]["place_label"] == "—"
    # a provisional result is a result: no "no result" mark where one exists
    s = compute_standings(rows, no_result=[(4, 2)])
    assert {r["entry"]: r["no_result_rounds"] for r in s.as_json()["rows"]}[4] == []


def test_two_results_in_one_round_are_refused():
    with pytest.raises(ValueError, match="two results in round 1"):
        compute_standings([rr(1, 1, 10, 5), rr(1, 1, 11, 5)])


# --- tie-breaks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key,better,worse",
    [
        ("raspasy_won", {"raspasy_won": 4}, {"raspasy_won": 2}),
        ("raspasy_tricks", {"raspasy_tricks": 3}, {"raspasy_tricks": 7}),
        ("remizes", {"remizes": 0}, {"remizes": 1}),
        ("misere_tricks", {"misere_tricks": 1}, {"misere_tricks": 2}),
        ("games_made", {"games_made": 5}, {"games_made": 4}),
        ("penalties", {"penalties": 0}, {"penalties": 1}),
    ],
)
def test_each_counter_tiebreak_orders_the_tied_players(key, better, worse):
    rows = table3(1, 10, (1, 20), (2, 20), (3, -40), stats=(worse, better, {}))
    assert places(compute_standings(rows)) == {1: "1–2", 2: "1–2", 3: "3"}
    s = compute_standings(rows, StandingsConfig(tiebreaks=(key,)))
    assert places(s) == {2: "1", 1: "2", 3: "3"}
    assert {r.entry: r.decided_by for r in s.ranked}[1] == key


def test_chain_goes_on_to_the_next_tiebreak_only_while_tied():
    stats = (
        {"raspasy_won": 3, "remizes": 2},
        {"raspasy_won": 3, "remizes": 0},
        {"raspasy_won": 5, "remizes": 9},
    )
    rows = table3(1, 10, (1, 0), (2, 0), (3, 0), stats=stats)
    s = compute_standings(rows, config_from_json(["raspasy_won", "remizes"]))
    assert [r.entry for r in s.ranked] == [3, 2, 1]
    assert [r.decided_by for r in s.ranked] == [None, "raspasy_won", "remizes"]


def test_head_to_head_counts_only_the_tied_players():
    # round 1: 1 and 2 meet, 1 beats 2; round 2: 2 makes up the difference elsewhere
    rows = (
        table3(1, 10, (1, 30), (2, 0), (3, -30))
        + table3(1, 11, (4, 0), (5, 0), (6, 0))
        + table3(2, 20, (1, 0), (4, 0), (5, 0))
        + table3(2, 21, (2, 30), (3, 0), (6, -30))
    )
    s = compute_standings(rows, StandingsConfig(tiebreaks=("head_to_head",)))
    assert places(s)[1] == "1" and places(s)[2] == "2"
    h2h = {r.entry: r.values.get("head_to_head") for r in s.ranked}
    assert h2h[1] == F(10) and h2h[2] == F(-10)
    assert h2h[3] == F(10) and places(s)[3] == "5"  # 3 and 6 tie too: their own meeting
    assert places(s)[4] == places(s)[5] == "3–4"  # met twice, 0 each: still tied


def test_best_and_worst_single_round_and_table_wins():
    rows = table3(1, 10, (1, 50), (2, 10), (3, -60)) + table3(2, 20, (1, -20), (2, 20), (3, 0))
    s = compute_standings(rows, StandingsConfig(tiebreaks=("best_round",)))
    assert places(s) == {1: "1", 2: "2", 3: "3"}  # totals 30 and 30: best round 50 > 20
    s = compute_standings(rows, StandingsConfig(tiebreaks=("worst_round",)))
    assert places(s)[2] == "1"  # worst round 10 > −20
    tw = find_metric("table_wins")
    assert {
        r.entry: r.values["table_wins"]
        for r in compute_standings(rows, StandingsConfig(tiebreaks=("table_wins",))).ranked
    } == {1: 1, 2: 1, 3: 0}
    assert tw.ascending is False


def test_config_errors_name_the_key():
    with pytest.raises(ValueError, match="'most_luck'"):
        config_from_json(["most_luck"])
    with pytest.raises(ValueError, match="twice"):
        config_from_json(["remizes", "remizes"])
    with pytest.raises(ValueError, match="'cap'"):
        config_from_json([{"round_score": "whists", "cap": 3}])
    with pytest.raises(ValueError, match="'bogus'"):
        config_from_json([{"round_score": "bogus"}])


# --- round scores --------------------------------------------------------------------------------


def test_capped_scaled_normalised():
    assert capped([F(300), F(-100), F(-200)], cap=150) == (150, -100, -150)
    assert scaled([F(35), F(-35)], factor="1/10") == (F(7, 2), F(-7, 2))
    assert normalised([F(30), F(0), F(-15), F(-15)]) == (20, 0, -10, -10)
    assert normalised([F(30), F(0), F(-30)]) == (30, 0, -30)
    with pytest.raises(ValueError):
        capped([F(1)], cap=0)


def test_place_points_share_tied_places_and_fit_tables_of_four():
    assert place_points([F(10), F(0), F(-10)]) == (2, 1, 0)
    assert place_points([F(-10), F(5), F(5)]) == (0, F(3, 2), F(3, 2))
    assert place_points([F(0), F(0), F(0)]) == (1, 1, 1)
    assert place_points([F(5), F(9), F(-1), F(-13)]) == (2, 3, 1, 0)
    assert place_points([F(5), F(5), F(-1), F(-9)], four="scaled") == (F(5, 3), F(5, 3), F(2, 3), 0)
    assert place_points([F(1), F(0), F(-1)], points_3=(3, 1, 0)) == (3, 1, 0)
    with pytest.raises(ValueError, match="table of 3"):
        place_points([F(1), F(0), F(-1)], points_3=(1, 0))


def test_place_points_as_the_round_score_rank_the_event():
    rows = table3(1, 10, (1, 300), (2, -100), (3, -200)) + table3(
        2, 20, (1, -150), (2, 100), (3, 50)
    )
    cfg = config_from_json([{"round_score": "place_points"}, "whists"])
    s = compute_standings(rows, cfg)
    # place points: 1 → 2 + 0, 2 → 1 + 2, 3 → 0 + 1 — whists alone would put 1 first
    assert places(s) == {2: "1", 1: "2", 3: "3"}
    assert compute_standings(rows).ranked[0].entry == 1


def test_capped_round_score_with_event_penalty_keeps_penalty_in_total():
    rows = table3(1, 10, (1, 500), (2, -250), (3, -250))
    s = compute_standings(
        rows,
        config_from_json([{"round_score": "capped", "cap": 100}]),
        adjustments=[Adjustment(1, F(-10))],
    )
    assert {r.entry: r.values["total"] for r in s.ranked}[1] == 90


def four(rnd, table, *people):
    """Four players (entry, score) at one table of four."""
    return [rr(e, rnd, table, s, size=4) for e, s in people]


def sat_out(entry, rnd, score=25):
    return Adjustment(entry, F(score), round=rnd, rule=SIT_OUT_RULE, reason=f"sat out {rnd}")


def test_a_round_sat_out_is_worth_the_average_place_in_place_points():
    # round 1: 5 sits out; round 2: 1 sits out (tables of four, the stated score 25 points)
    rows = four(1, 10, (1, 60), (2, 30), (3, -30), (4, -60)) + four(
        2, 20, (2, 60), (3, 30), (4, -30), (5, -60)
    )
    out = [sat_out(5, 1), sat_out(1, 2)]
    s = compute_standings(rows, config_from_json([{"round_score": "place_points"}]), out)
    totals = {r.entry: r.values["total"] for r in s.ranked}
    # 3, 2, 1, 0 per place; a round sat out: the average place, (3 + 2 + 1 + 0) / 4 = 1.5,
    # not the stated 25 (a result in points, which place points cannot place without a table)
    assert totals == {1: 3 + F(3, 2), 2: 2 + 3, 3: 1 + 2, 4: 0 + 1, 5: F(3, 2) + 0}
    assert s.records[5].sat_out == F(3, 2)
    assert next(r for r in s.as_json()["rows"] if r["entry"] == 5)["sat_out"] == 1.5
    # on the scale of three (2, 4/3, 2/3, 0) the average place is 1
    scaled_cfg = config_from_json([{"round_score": "place_points", "four": "scaled"}])
    scaled_totals = {
        r.entry: r.values["total"] for r in compute_standings(rows, scaled_cfg, out).ranked
    }
    assert scaled_totals[5] == 1 + 0 and scaled_totals[1] == 2 + 1
    # the stated score still counts in the whists tie-break, and in whists it is the total
    assert find_metric("whists").value(s.records[5]) == -60 + 25
    whists = {r.entry: r.values["total"] for r in compute_standings(rows, adjustments=out).ranked}
    assert whists[5] == -60 + 25 and whists[1] == 60 + 25


def test_only_the_sit_out_award_is_converted_to_place_points():
    rows = four(1, 10, (1, 60), (2, 30), (3, -30), (4, -60))
    penalty = Adjustment(1, F(-10), round=1, rule="001 §4.2", reason="late")
    s = compute_standings(rows, config_from_json([{"round_score": "place_points"}]), [penalty])
    assert s.records[1].sat_out == 0 and s.ranked[0].values["total"] == 3


# --- deal statistics from the scoring protocol ---------------------------------------------------

SIX = Contract.from_str("6♠")


def test_deal_stats_count_raspasy_remizes_miseres():
    p = Protocol(
        players=("A", "B", "C"),
        target=10,
        deals=(
            Raspasy((0, 4, 6)),
            Raspasy((2, 2, 6)),  # two share the fewest: each wins it
            Game(0, SIX, (Call.WHIST, Call.PASS), 4),  # remiz
            Game(1, SIX, (Call.PASS, Call.PASS)),  # not played: made
            Game(2, MISERE, (), 1),
            Penalty(1, "3.2.21", gora=5),
        ),
    )
    a, b, c = deal_stats(p)
    assert (a["raspasy"], a["raspasy_won"], a["raspasy_tricks"]) == (2, 2, 2)
    assert (b["raspasy_won"], b["raspasy_tricks"], c["raspasy_won"]) == (1, 6, 0)
    assert (a["remizes"], a["games"], a["games_made"]) == (1, 1, 0)
    assert (b["games_made"], b["penalties"]) == (1, 1)
    assert (c["miseres"], c["misere_tricks"], c["games_made"]) == (1, 1, 0)


def test_four_players_the_sitting_out_dealer_is_not_counted_on_raspasy():
    # 001 §3.2.10, §3.7.6.1: dealer seat 0 sits out the first deal; his talon trick is not play
    p = Protocol(
        players=("A", "B", "C", "D"), target=10, first_dealer=0, deals=(Raspasy((0, 2, 3, 5)),)
    )
    stats = deal_stats(p)
    assert stats[0]["raspasy"] == 0 and stats[0]["raspasy_won"] == 0
    assert stats[1]["raspasy_won"] == 1 and stats[1]["raspasy_tricks"] == 2


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_pairwise_results_are_antisymmetric_and_sum_to_the_exact_settlement(seed):
    p = random_protocol(random.Random(seed), players=3, target=10)
    r = pairwise_results(p)
    exact = score(p).settlement.exact
    for i in range(3):
        assert sum(r[i]) == exact[i]
        for j in range(3):
            assert r[i][j] == -r[j][i]


# --- ranking invariants --------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-300, 300), min_size=3, max_size=30), st.randoms())
def test_places_follow_the_totals_and_tied_players_share(scores, rnd):
    rows = [rr(e, 1, e // 3, s) for e, s in enumerate(scores)]
    s = compute_standings(rows, StandingsConfig(tiebreaks=("raspasy_won",)))
    seen = [(r.values["total"], r.place, r.last_place) for r in s.ranked]
    assert [t for t, _, _ in seen] == sorted((F(x) for x in scores), reverse=True)
    for (t1, p1, l1), (t2, p2, _) in zip(seen, seen[1:], strict=False):
        assert (p1 == p2) == (t1 == t2)
        assert p2 == (p1 if t1 == t2 else l1 + 1)
    assert round_score("whists")([F(1)]) == (F(1),)


@pytest.mark.parametrize("module", ["ranker", "scores", "table"])  # stats: scoring.russian.stats
def test_doctests(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"tournaments.standings.{module}"))
    assert result.attempted > 0 and result.failed == 0


def test_an_event_with_no_one_entered_ranks_no_one():
    """The standings job of a new event (settings saved before any player): nothing to rank,
    not an IndexError."""
    from tournaments.standings.table import compute_standings

    assert compute_standings([], None, [], []).ranked == ()
