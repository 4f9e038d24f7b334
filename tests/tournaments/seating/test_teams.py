"""Team events (issue 40): never two members of one team at a table, the teams' meetings spread.

The hard constraint at every size the engine handles (threes, fours, mixed, fours first,
Priffe's partnerships) and under every method; teams of five of whom three play, with
line-ups changing between rounds; the meetings matrix of the report; a round that cannot
keep a team apart refused with the reason; the spread of the meetings against the
referees' random draw.
"""

import statistics
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    ConstraintError,
    Constraints,
    Entry,
    Method,
    PastTable,
    TablePolicy,
    draw_round,
    draw_schedule,
    table_sizes,
)

from .helpers import as_history, repeats


def league(sizes: list[int]) -> dict[int, str]:
    """Entry → team for teams of the given sizes: team ``k`` is "T<k>", its members k*10+i."""
    return {k * 10 + i: f"T{k}" for k, size in enumerate(sizes) for i in range(size)}


def teammates_at_a_table(tables, teams) -> list:
    return [
        t.seats
        for t in tables
        if len({teams[x] for x in t.seats if x in teams}) != len([x for x in t.seats if x in teams])
    ]


def rounds_of(entries, teams, rounds, *, method, policy, seed="teams", **kw):
    """``rounds`` rounds drawn one by one as an event draws them; each round's draw."""
    draws: list = []
    for r in range(1, rounds + 1):
        draws.append(
            draw_round(
                entries,
                as_history(draws),
                seed=f"{seed} {r}",
                method=method,
                policy=policy,
                constraints=Constraints(teams=teams),
                standings=(
                    {e.id: float(e.id % 7) for e in entries} if method is Method.SWISS else None
                ),
                rounds_total=rounds if method is not Method.SWISS else None,
                **kw,
            )
        )
    return draws


SIZES = {  # a policy → teams that fit its tables (every team at most one per table)
    TablePolicy.THREES: [3, 3, 3, 3, 3, 3],  # 18: six threes
    TablePolicy.FOURS: [4, 4, 4, 4],  # 16: four fours, each team at every table
    TablePolicy.MIXED: [3, 3, 3, 3, 3, 2],  # 17: 3-3-3-4-4
    TablePolicy.MIXED_PREFER_FOURS: [3, 3, 3, 2],  # 11: 4-4-3
}


@pytest.mark.parametrize("policy", list(SIZES))
@pytest.mark.parametrize(
    "method", [Method.RANDOM, Method.NO_REPEATS, Method.SWISS, Method.SCHEDULE]
)
def test_no_two_teammates_at_a_table_at_every_size_and_method(policy, method):
    teams = league(SIZES[policy])
    entries = [Entry(x) for x in teams]
    for d in rounds_of(entries, teams, 3, method=method, policy=policy):
        assert not teammates_at_a_table(d.tables, teams), (policy, method, d.round)
        assert sorted(x for t in d.tables for x in t.seats) == sorted(teams)
        assert d.parameters["constraints"]["teams"] == [[x, teams[x]] for x in sorted(teams)]


def test_a_whole_schedule_keeps_teams_apart_and_never_repeats():
    teams = league([3] * 7)  # 21 players: a Kirkman triple system over 10 rounds
    draws = draw_schedule(
        [Entry(x) for x in teams], 6, seed="KTS", constraints=Constraints(teams=teams)
    )
    for d in draws:
        assert not teammates_at_a_table(d.tables, teams)
    assert repeats(list(draws)) == 0


def test_partnerships_keep_a_clubs_squad_apart():
    """Priffe (004): the partners are the game's own; a team is a club's squad, never two of it
    at one table."""
    teams = league([4, 4, 4, 4])  # 16 players, four tables of four
    partners = ((0, 10), (1, 11), (2, 12), (3, 13), (20, 30), (21, 31), (22, 32), (23, 33))
    draws = rounds_of(
        [Entry(x) for x in teams],
        teams,
        3,
        method=Method.NO_REPEATS,
        policy=TablePolicy.PARTNERSHIPS,
    )
    for d in draws:
        assert not teammates_at_a_table(d.tables, teams)
    d = draw_round(
        [Entry(x) for x in teams],
        seed="priffe",
        policy=TablePolicy.PARTNERSHIPS,
        constraints=Constraints(partners=partners, teams=teams),
    )
    assert not teammates_at_a_table(d.tables, teams)
    for t in d.tables:
        assert {frozenset((t.seats[0], t.seats[2])), frozenset((t.seats[1], t.seats[3]))} <= {
            frozenset(p) for p in partners
        }


def test_teams_of_five_of_whom_three_play_with_line_ups_changing():
    """Teams of 3–5, three playing each round (the Moscow regulation); the line-ups change
    between rounds, and a member who does not play is simply not seated."""
    teams = league([5] * 8)  # 40 registered, 24 play: eight tables of three
    draws: list = []
    for r in range(1, 6):
        playing = [Entry(k * 10 + (r + k + i) % 5) for k in range(8) for i in range(3)]
        d = draw_round(
            playing,
            as_history(draws),
            seed=f"line-up {r}",
            policy=TablePolicy.THREES,
            constraints=Constraints(teams=teams),
            rounds_total=5,
        )
        assert not teammates_at_a_table(d.tables, teams)
        assert sorted(x for t in d.tables for x in t.seats) == sorted(e.id for e in playing)
        draws.append(d)
    assert len({frozenset(x for t in d.tables for x in t.seats) for d in draws}) == 5
    # the matrix counts the meetings of members who sit this round out too
    total = Counter()
    for d in draws:
        for t in d.tables:
            for a, b in combinations(t.seats, 2):
                total[tuple(sorted((teams[a], teams[b])))] += 1
    assert dict(draws[-1].report.team_meetings) == {
        pair: total[pair] for pair in combinations(sorted(set(teams.values())), 2)
    }


def test_a_member_withdrawn_mid_event_leaves_the_rest_apart():
    teams = league([3] * 6)
    entries = [Entry(x) for x in teams]
    draws = rounds_of(entries, teams, 2, method=Method.NO_REPEATS, policy=TablePolicy.MIXED)
    left = [e for e in entries if e.id != 51]  # T5 plays on with two
    d = draw_round(
        left,
        as_history(draws),
        seed="after",
        policy=TablePolicy.MIXED,
        constraints=Constraints(teams=teams),
        rounds_total=4,
    )
    assert not teammates_at_a_table(d.tables, teams)
    assert 51 not in {x for t in d.tables for x in t.seats}
    assert d.report.team_meetings[("T0", "T5")] >= sum(
        1 for r in draws for t in r.tables if {teams[x] for x in t.seats} >= {"T0", "T5"}
    )


def test_the_meetings_matrix_is_a_recount_of_the_tables():
    teams = league([3, 3, 3, 2])
    entries = [Entry(x) for x in teams]
    d = draw_round(entries, seed="matrix", constraints=Constraints(teams=teams))
    expected = {pair: 0 for pair in combinations(["T0", "T1", "T2", "T3"], 2)}
    for t in d.tables:
        for a, b in combinations(t.seats, 2):
            expected[tuple(sorted((teams[a], teams[b])))] += 1
    assert dict(d.report.team_meetings) == expected
    assert sum(expected.values()) == sum(len(t.seats) * (len(t.seats) - 1) // 2 for t in d.tables)


def test_a_draw_without_teams_reports_no_matrix_and_records_no_teams():
    d = draw_round([Entry(i) for i in range(1, 10)], seed="plain")
    assert d.report.team_meetings == {}
    assert "teams" not in d.parameters["constraints"]


def spread(draws) -> tuple[int, float]:
    m = list(draws[-1].report.team_meetings.values())
    return max(m) - min(m), statistics.pstdev(m)


def test_the_teams_meet_more_evenly_than_in_the_random_draw():
    """20 teams of three over 7 rounds: each team meets the 19 others 42 times, 2.2 each on
    average; the draw keeps every pair of teams within 1–3 meetings and without a repeated
    meeting of players, where the referees' random draw (001 note 8), kept to the team
    constraint only, leaves pairs of teams that never meet and pairs that meet five times."""
    teams = league([3] * 20)
    entries = [Entry(x) for x in teams]
    ours = rounds_of(entries, teams, 7, method=Method.NO_REPEATS, policy=TablePolicy.THREES)
    referees = rounds_of(entries, teams, 7, method=Method.RANDOM, policy=TablePolicy.THREES)
    for d in ours + referees:
        assert not teammates_at_a_table(d.tables, teams)
    assert repeats(ours) == 0
    (ours_range, ours_sd), (random_range, random_sd) = spread(ours), spread(referees)
    assert ours_range <= 2 < random_range
    assert ours_sd < random_sd / 2


def test_the_spread_without_the_team_term_is_what_the_term_improves():
    """The same draw with the teams given as kept-apart pairs only (what an organiser could do
    before teams): apart, but the meetings spread no better than chance."""
    teams = league([3] * 20)
    entries = [Entry(x) for x in teams]
    apart = frozenset(
        frozenset((a, b)) for a in teams for b in teams if a < b and teams[a] == teams[b]
    )
    draws: list = []
    for r in range(1, 8):
        draws.append(
            draw_round(
                entries,
                as_history(draws),
                seed=f"teams {r}",
                policy=TablePolicy.THREES,
                constraints=Constraints(must_not_meet=apart),
                rounds_total=7,
            )
        )
    met = Counter()
    for d in draws:
        for t in d.tables:
            for a, b in combinations(t.seats, 2):
                met[tuple(sorted((teams[a], teams[b])))] += 1
    pairs = [met[p] for p in combinations(sorted(set(teams.values())), 2)]
    ours = rounds_of(entries, teams, 7, method=Method.NO_REPEATS, policy=TablePolicy.THREES)
    assert spread(ours)[1] < statistics.pstdev(pairs)


def test_a_team_with_more_players_than_tables_is_refused_with_the_reason():
    teams = league([4, 3, 3])  # 10 players: three tables, and team T0 has four present
    with pytest.raises(
        ConstraintError,
        match=r"teams: team 'T0' has 4 players present, but this round has 3 tables",
    ):
        draw_round(
            [Entry(x) for x in teams],
            seed="x",
            policy=TablePolicy.MIXED,
            constraints=Constraints(teams=teams),
        )
    # with one of them absent, the round is drawn
    d = draw_round(
        [Entry(x) for x in teams if x != 3],
        seed="x",
        policy=TablePolicy.MIXED,
        constraints=Constraints(teams=teams),
    )
    assert not teammates_at_a_table(d.tables, teams)


def test_contradictions_with_the_other_constraints_are_refused():
    teams = league([3, 3, 3])
    entries = [Entry(x) for x in teams]
    with pytest.raises(
        ConstraintError, match="teams: 0 and 1 of team 'T0' must both sit at table 2"
    ):
        draw_round(entries, seed="x", constraints=Constraints(teams=teams, must_sit={0: 2, 1: 2}))
    with pytest.raises(ConstraintError, match="a team is named by a non-empty text"):
        draw_round(entries, seed="x", constraints=Constraints(teams={**teams, 0: " "}))
    four = league([4, 4, 4, 4])
    with pytest.raises(ConstraintError, match="partners: 0 and 1 are both of team 'T0'"):
        draw_round(
            [Entry(x) for x in four],
            seed="x",
            policy=TablePolicy.PARTNERSHIPS,
            constraints=Constraints(
                teams=four,
                partners=(
                    (0, 1),
                    (2, 3),
                    (10, 11),
                    (12, 13),
                    (20, 21),
                    (22, 23),
                    (30, 31),
                    (32, 33),
                ),
            ),
        )


def test_a_team_that_fills_every_table_with_a_fixed_player_is_still_seated():
    """Four teams of four at four tables: every table seats one of each team; a player fixed
    at a table leaves the search the rest."""
    teams = league([4, 4, 4, 4])
    d = draw_round(
        [Entry(x) for x in teams],
        seed="tight",
        policy=TablePolicy.FOURS,
        constraints=Constraints(teams=teams, must_sit={0: 1, 11: 1}),
    )
    assert not teammates_at_a_table(d.tables, teams)
    assert {0, 11} <= set(d.tables[0].seats)


@st.composite
def team_events(draw):
    policy = draw(st.sampled_from([TablePolicy.THREES, TablePolicy.FOURS, TablePolicy.MIXED]))
    n = draw(st.integers(6, 30))
    try:
        tables = len(table_sizes(n, policy))
    except ValueError:
        tables = 0
    if not tables:
        n, policy = 9, TablePolicy.THREES
        tables = 3
    sizes: list[int] = []
    while sum(sizes) < n:
        sizes.append(min(draw(st.integers(1, min(5, tables))), n - sum(sizes)))
    method = draw(st.sampled_from([Method.RANDOM, Method.NO_REPEATS, Method.SWISS]))
    return policy, sizes, method, draw(st.integers(0, 10**6)), draw(st.integers(1, 3))


@settings(max_examples=30, deadline=None)
@given(team_events())
def test_property_no_teammates_at_a_table(event):
    """Any split into teams of at most one member per table is seated so, round after round."""
    policy, sizes, method, seed, rounds = event
    teams = league(sizes)
    for d in rounds_of(
        [Entry(x) for x in teams], teams, rounds, method=method, policy=policy, seed=seed
    ):
        assert not teammates_at_a_table(d.tables, teams)
        assert sum(d.report.team_meetings.values()) >= 0


def test_history_with_a_table_that_seated_teammates_is_counted_not_refused():
    """A round seated by hand before the teams were entered: the matrix counts it as played."""
    teams = league([3, 3, 3])
    history = [
        PastTable(1, (0, 1, 2), 0),
        PastTable(1, (10, 11, 12), 0),
        PastTable(1, (20, 21, 22), 0),
    ]
    d = draw_round(
        [Entry(x) for x in teams], history, seed="x", constraints=Constraints(teams=teams)
    )
    assert not teammates_at_a_table(d.tables, teams)
    assert all(v == 3 for v in d.report.team_meetings.values())
