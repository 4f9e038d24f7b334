"""Team standings (issue 40), the pure computation: the best members' results a round,
provisional while a round is open, place points, tie-breaks by the best member and head to
head, and equal to a recomputation by hand on random events."""

from collections import defaultdict
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings.scores import place_points
from tournaments.standings.teams import MemberRound, TeamConfig, team_standings


def table(rnd, number, results, final=True):
    """Cells of one table: ``results`` entry → whists (summing to zero), versus split evenly."""
    out = []
    for e, w in results.items():
        others = [o for o in results if o != e]
        versus = {o: F(w - results[o], len(results)) for o in others}
        out.append(MemberRound(e, rnd, number, F(w), F(w), final, versus))
    return out


TEAMS = {"Север": (1, 2, 3), "Юг": (4, 5, 6), "Запад": (7, 8, 9)}


def two_rounds(final_second=True):
    return [
        *table(1, 1, {1: 40, 4: -10, 7: -30}),
        *table(1, 2, {2: 20, 5: 0, 8: -20}),
        *table(1, 3, {3: -50, 6: 30, 9: 20}),
        *table(2, 1, {1: -20, 5: 50, 9: -30}, final_second),
        *table(2, 2, {2: 10, 6: -10, 7: 0}, final_second),
        *table(2, 3, {3: 5, 4: 5, 8: -10}, final_second),
    ]


def test_the_best_members_results_count_each_round():
    s = team_standings(two_rounds(), TEAMS, TeamConfig(scoring_members=2))
    by = {r.team: r for r in s.rows}
    # round 1: Север 40 + 20 (−50 not counted), Юг 30 + 0, Запад 20 − 20
    assert by["Север"].rounds[1].score == 60 and by["Север"].rounds[1].counted == (1, 2)
    assert by["Юг"].rounds[1].score == 30 and by["Запад"].rounds[1].score == 0
    # round 2: Север 10 + 5, Юг 50 + 5, Запад 0 − 10
    assert [(r.team, r.total, r.place) for r in s.rows] == [
        ("Юг", F(85), 1),
        ("Север", F(75), 2),
        ("Запад", F(-10), 3),
    ]
    assert s.as_json()["rows"][0]["rounds"]["2"] == {
        "score": 55,
        "counted": [5, 4],
        "played": [4, 5, 6],
        "final": True,
    }
    all_three = team_standings(two_rounds(), TEAMS, TeamConfig(scoring_members=3))
    assert sum(r.total for r in all_three.rows) == 0  # every result counted: a zero sum


def test_a_round_still_open_is_provisional():
    s = team_standings(two_rounds(final_second=False), TEAMS, TeamConfig(scoring_members=2))
    by = {r.team: r for r in s.rows}
    assert (by["Север"].total, by["Север"].provisional_total) == (60, 75)
    assert (by["Юг"].total, by["Юг"].provisional_total) == (30, 85)
    assert by["Север"].has_provisional and not by["Север"].rounds[2].final
    assert [r.team for r in s.rows] == ["Север", "Юг", "Запад"]  # ranked on approved only


def test_place_points_instead_of_results():
    s = team_standings(two_rounds(), TEAMS, TeamConfig(scoring_members=3, counts="places"))
    by = {r.team: r for r in s.rows}
    # round 1 places: Север 1st, 1st, 3rd (2+2+0); round 2: 2nd, 1st, 1st= (1+2+1.5)
    assert by["Север"].total == 4 + F(9, 2)
    assert sum(r.total for r in s.rows) == 6 * 3  # 2+1+0 a table, three tables, two rounds


def test_fewer_members_than_score_count_those_playing_and_a_withdrawn_member_keeps_his_rounds():
    teams = {"A": (1, 2, 3, 10), "B": (4, 5, 6)}
    rows = [*table(1, 1, {1: 30, 4: -30, 10: 0}), *table(1, 2, {2: 10, 5: -5, 6: -5})]
    rows += table(2, 1, {1: 20, 4: -20, 5: 0})  # round 2: A's 2, 3 and 10 do not play
    s = team_standings(rows, teams, TeamConfig(scoring_members=3))
    by = {r.team: r for r in s.rows}
    assert by["A"].rounds[2].counted == (1,) and by["A"].rounds[2].score == 20
    assert by["A"].total == 30 + 0 + 10 + 20


def test_ties_by_the_best_member_then_head_to_head_then_shared():
    teams = {"A": (1, 2), "B": (3, 4), "C": (5, 6), "D": (7, 8)}
    rows = [*table(1, 1, {1: 10, 3: -10}), *table(1, 2, {2: 0, 4: 0})]
    rows += [*table(1, 3, {5: 5, 7: -5}), *table(1, 4, {6: -5, 8: 5})]
    places = {1: 1, 5: 2, 7: 2, 3: 5}  # the individual standings
    s = team_standings(rows, teams, TeamConfig(scoring_members=2), places)
    # A 10, B −10, C 0, D 0: C and D tied on total; C's best member is 2nd, D's 2nd too
    assert [r.team for r in s.rows] == ["A", "C", "D", "B"]
    c, d = s.rows[1], s.rows[2]
    assert (c.head_to_head, d.head_to_head) == (F(5 - 5, 1), F(0))  # +5 and −5 at each table
    assert c.shared and d.shared and c.place_label == d.place_label == "2="
    assert s.rows[0].decided_by == "total" and c.decided_by is None
    places[5] = 1  # now C's best member is better placed
    s = team_standings(rows, teams, TeamConfig(scoring_members=2), places)
    assert [(r.team, r.place_label, r.decided_by) for r in s.rows[1:3]] == [
        ("C", "2", "best_member"),
        ("D", "3", "best_member"),
    ]


def test_head_to_head_parts_teams_tied_on_total_and_best_member():
    """One member scores a round (k = 1): C and D both 30, no individual places given; at the
    tables where they met, D's members took 10 more from C's than they lost."""
    teams = {"A": (1, 2), "C": (5, 6), "D": (7, 8)}
    rows = [*table(1, 3, {5: 30, 7: 0, 1: -30}), *table(1, 4, {6: -30, 8: 30, 2: 0})]
    s = team_standings(rows, teams, TeamConfig(scoring_members=1))
    assert [(r.team, r.total, r.head_to_head, r.decided_by) for r in s.rows] == [
        ("D", F(30), F(10), "head_to_head"),
        ("C", F(30), F(-10), "head_to_head"),  # from D by head to head, from A by the total
        ("A", F(0), None, "total"),
    ]


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="scoring_members: 6"):
        TeamConfig(scoring_members=6)
    with pytest.raises(ValueError, match="counts: 'goals'"):
        TeamConfig(counts="goals")
    with pytest.raises(ValueError, match="entry 1 is in teams 'A' and 'B'"):
        team_standings([], {"A": (1, 2, 3), "B": (1, 4, 5)})
    with pytest.raises(ValueError, match="entry 1 has two results in round 1"):
        team_standings([*table(1, 1, {1: 0, 2: 0}), *table(1, 2, {1: 0, 3: 0})], {"A": (1,)})


def test_a_team_without_an_approved_result_has_no_place():
    rows = table(1, 1, {1: 10, 4: -10})
    s = team_standings(rows, {"A": (1, 2, 3), "B": (4, 5, 6), "C": (7, 8, 9)})
    assert [(r.team, r.place_label) for r in s.rows] == [("A", "1"), ("B", "2"), ("C", "—")]


@st.composite
def events(draw):
    n_teams = draw(st.integers(2, 6))
    size = draw(st.integers(3, 5))
    teams = {f"T{t}": tuple(t * 10 + i for i in range(size)) for t in range(n_teams)}
    players = [e for members in teams.values() for e in members]
    rows = []
    for rnd in range(1, draw(st.integers(1, 4)) + 1):
        playing = draw(st.permutations(players))[: len(players) - len(players) % 3]
        final = draw(st.booleans())
        for number, k in enumerate(range(0, len(playing), 3), start=1):
            a, b = draw(st.integers(-100, 100)), draw(st.integers(-100, 100))
            rows += table(
                rnd, number, dict(zip(playing[k : k + 3], (a, b, -a - b), strict=True)), final
            )
    k = draw(st.integers(1, size))
    return teams, rows, k, draw(st.sampled_from(["results", "places"]))


@settings(max_examples=60, deadline=None)
@given(events())
def test_property_the_team_standings_equal_a_recomputation(event):
    """Each team's total is the sum, over the rounds, of its best k members' approved values
    (recounted here by hand), and the teams are in order of their totals."""
    teams, rows, k, counts = event
    s = team_standings(rows, teams, TeamConfig(scoring_members=k, counts=counts))
    value = {}
    by_table = defaultdict(list)
    for r in rows:
        by_table[(r.round, r.table)].append(r)
    for seated in by_table.values():
        points = place_points([r.whists for r in seated])
        for r, p in zip(seated, points, strict=True):
            value[(r.entry, r.round)] = p if counts == "places" else r.score
    for row in s.rows:
        expected = F(0)
        for rnd in {r.round for r in rows}:
            mine = sorted(
                (
                    value[(r.entry, rnd)]
                    for r in rows
                    if r.round == rnd and r.final and r.entry in teams[row.team]
                ),
                reverse=True,
            )
            expected += sum(mine[:k], F(0))
        assert row.total == expected
    ranked = [r.total for r in s.rows if r.place_label != "—"]
    assert ranked == sorted(ranked, reverse=True)
