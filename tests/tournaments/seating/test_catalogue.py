"""Schedules found offline (seating.catalogue): checked here, used by every draw method."""

import re

import pytest

from tournaments.seating import Constraints, Entry, Method, TablePolicy, draw_round, draw_schedule
from tournaments.seating.catalogue import (
    CATALOGUE,
    DEVELOPED,
    NONE_EXISTS,
    catalogued_schedule,
    proved_none,
)
from tournaments.seating.differences import _cube_root_of_unity
from tournaments.seating.sizes import table_sizes

from .helpers import as_history, design_pairs, repeats


@pytest.mark.parametrize("sizes", sorted(CATALOGUE) + sorted(DEVELOPED))
def test_every_catalogued_schedule_seats_everyone_once_and_repeats_no_meeting(sizes):
    schedule, how = catalogued_schedule(sizes, 1)
    if sizes in DEVELOPED:  # kept as base rounds: g shifts of each
        _, (g, levels, fixed, *more), text = DEVELOPED[sizes]
        kept, extra = (*more, 0, 0)[:2]  # kept ones, g / 3 shifts each; extra ones as they are
        assert g * levels + fixed == sum(sizes)
        bases = len(text.strip().splitlines()) - kept - extra
        assert len(schedule) == g * bases + g // 3 * kept + extra
        assert f"Z_{g} × {levels}" in how and (f"and {fixed} ∞" in how) == (fixed > 0)
    assert all(sorted(map(len, tables)) == list(sizes) for tables in schedule)
    assert set(design_pairs(schedule, sum(sizes)).values()) == {1}  # each round seats all once
    # the record names what found it: tests/seating_catalogue/find_schedules.py with this seed
    # re-finds it
    assert re.fullmatch(
        r"tabu search, seed \d+, [\d,]+ steps"
        r"|cyclic schedule \((\d base rounds over |a base round and one that \d+ shifts keep, over "
        r"|a base round that turning the levels keeps, over )?"
        r"Z_\d+ × \d+( and \d+ ∞)?(, and \d+ rounds? of the pairs its shifts leave)?\), "
        r"(OR-Tools [\d.]+ CP-SAT, seed 0, [\d.]+ units|CaDiCaL [\d.]+, [\d.]+ s of CPU"
        r"(; sat_developed.py of [0-9a-f]{7})?)"  # the model's commit, where it changed since
        r"|resolvable design of fours(, every player missing (one other|two others))? "
        r"\(a base round that turning the levels keeps, over "
        r"Z_\d+ × 3 and [123] ∞\), designs.turned_fours, seed \d+, [\d,]+ steps, \d+ s of CPU",
        how,
    )


@pytest.mark.parametrize("v", [60, 72, 76, 80, 84, 88, 96, 100])
def test_catalogued_designs_of_fours_are_turned_base_rounds(v):
    """Fours only at the counting bound, g = (v - 1) / 3 rounds (designs.turned_fours): the
    base round over Z_g × 3 is kept by its turn, level i to i + 1 (times μ = 3 for 80 over
    Z_26 × 3 and 2 ∞), the three ∞ of 60, 72, 84 and 96 going round, one or two ∞ staying put;
    the draw takes all g rounds from the catalogue."""
    g = (v - 1) // 3
    fixed = v - 3 * g
    _, shape, text = DEVELOPED[(4,) * (v // 4)]
    assert shape == (g, 3, fixed)
    (base,) = [
        {frozenset(map(int, t.split(","))) for t in line.split()}
        for line in text.split("\n")
        if line.strip()
    ]
    mu = _cube_root_of_unity(g) if fixed == 2 else 1

    def turn(p: int) -> int:
        if p >= 3 * g:  # ∞
            return 3 * g + (p - 3 * g + 1) % 3 if fixed == 3 else p
        return p % g * mu % g + g * ((p // g + 1) % 3)

    assert {frozenset(map(turn, t)) for t in base} == base
    assert fixed != 1 or frozenset((0, g, 2 * g, 3 * g)) in base
    draws = draw_schedule([Entry(i) for i in range(v)], g, seed="f", policy=TablePolicy.FOURS)
    assert repeats(list(draws)) == 0 and len(draws) == g
    assert draws[0].parameters["construction"].startswith("schedule found offline (resolvable")


def test_a_catalogued_schedule_serves_fewer_rounds_but_not_more():
    sizes = table_sizes(20, TablePolicy.MIXED)
    assert len(catalogued_schedule(sizes, 5)[0]) == 7
    assert catalogued_schedule(sizes, 8) is None  # the bound is 8: not found yet
    assert catalogued_schedule((3, 3, 3, 3, 3, 4), 1) is None  # no entry for 19 players


@pytest.mark.parametrize(
    "n, rounds",
    [
        (20, 7),
        (23, 9),
        (26, 10),
        (29, 12),
        (31, 14),
        (38, 16),
        (40, 18),
        (43, 20),
        (47, 20),
        (49, 23),
    ],
)
def test_sizes_only_the_offline_search_reached_draw_without_a_repeat(n, rounds):
    """Mixed tables: the draw's tabu search, the developed base rounds and CP-SAT within
    their budgets all left repeats (2 to 36 at these sizes)."""
    entries = [Entry(f"p{i}") for i in range(n)]
    draws = draw_schedule(entries, rounds, seed="club", policy=TablePolicy.MIXED)
    assert repeats(list(draws)) == 0
    assert draws[0].parameters["construction"].startswith("schedule found offline (")
    other = draw_schedule(entries, rounds, seed="other", policy=TablePolicy.MIXED)
    assert [d.tables for d in other] != [d.tables for d in draws]  # relabelled by the seed
    assert [d.tables for d in draw_schedule(entries, rounds, seed="club")] == [
        d.tables for d in draws
    ]


@pytest.mark.parametrize("rounds", [24, 28, 29])
def test_fours_only_92_short_of_the_bound_from_a_turned_base_round(rounds):
    """92 × 24–30 at fours (001 §3.2.10) left 6–252 repeats (the tabu search); over Z_28 × 3 and 8 ∞ a base
    round that (x, i) ↦ (9x, i + 1) keeps, ∞₀ and ∞₁ staying, ∞₂ → ∞₃ → ∞₄ and ∞₅ → ∞₆ → ∞₇
    (CaDiCaL, sat_turned.py), gives 28 rounds, and one round more of the pairs they leave 29."""
    g = 28
    _, shape, text = DEVELOPED[(4,) * 23]
    assert shape == (g, 3, 8, 0, 1)
    first, extra = [line for line in text.split("\n") if line.strip()]
    base = {frozenset(map(int, t.split(","))) for t in first.split()}

    def turn(p: int) -> int:
        if p < 3 * g:
            return p % g * 9 % g + g * ((p // g + 1) % 3)
        j = p - 3 * g
        return p if j < 2 else 3 * g + 2 + 3 * ((j - 2) // 3) + (j - 2 + 1) % 3

    assert {frozenset(map(turn, t)) for t in base} == base
    extra_round = [frozenset(map(int, t.split(","))) for t in extra.split()]
    assert len(extra_round) == 23 and set().union(*extra_round) == set(range(92))
    draws = draw_schedule([Entry(i) for i in range(92)], rounds, seed="t", policy=TablePolicy.FOURS)
    assert repeats(list(draws)) == 0 and len(draws) == rounds
    assert "turning the levels keeps, over Z_28 × 3 and 8 ∞" in draws[0].parameters["construction"]


@pytest.mark.parametrize("n, rounds", [(68, 18), (68, 21)])
def test_fours_only_a_round_under_the_bound_draw_without_a_repeat(n, rounds):
    """The tabu search left repeats at 68 × 18–21 (fours only, 001 §3.2.10); one base round
    over Z_21 × 3 and 5 ∞ (CaDiCaL) has none, and its first rounds serve the shorter events."""
    draws = draw_schedule([Entry(i) for i in range(n)], rounds, seed="p", policy=TablePolicy.FOURS)
    assert repeats(list(draws)) == 0 and len(draws) == rounds
    assert draws[0].parameters["construction"].startswith("schedule found offline (cyclic")


def test_a_fresh_seed_every_round_follows_a_catalogued_schedule():
    entries = [Entry(i) for i in range(20)]
    draws = []
    for k in range(7):
        draws.append(draw_round(entries, as_history(draws), seed=f"r{k}", rounds_total=7))
    assert repeats(draws) == 0
    assert "schedule found offline" in draws[-1].report.notes[-1]


def test_a_first_round_drawn_at_the_venue_is_completed_from_the_catalogue():
    """Round 1 random (the Kodeks note 8 draw); rounds 2-7 follow the catalogued schedule,
    one of its rounds mapped onto round 1 table by table."""
    entries = [Entry(i) for i in range(20)]
    draws = [draw_round(entries, seed="hall", method=Method.RANDOM)]
    for k in range(6):
        draws.append(draw_round(entries, as_history(draws), seed=f"r{k}", rounds_total=7))
    assert repeats(draws) == 0
    assert "completing the first round" in draws[1].report.notes[-1]


@pytest.mark.parametrize("n, rounds, must_sit", [(20, 7, {}), (38, 16, {5: 1})])
def test_catalogued_plans_keep_players_apart_and_at_their_tables(n, rounds, must_sit):
    """Kept-apart pairs never meet and a must-sit player keeps their table: the
    catalogued schedule is relabelled until it fits (a player always at a table of
    three needs one who never sits at a four: 38 × 16 has six, 20 × 7 none)."""
    entries = [Entry(i) for i in range(n)]
    kept_apart = frozenset({frozenset((0, 1)), frozenset((2, 3))})
    constraints = Constraints(must_not_meet=kept_apart, must_sit=must_sit)
    draws = draw_schedule(entries, rounds, seed="x", constraints=constraints)
    for d in draws:
        for t in d.tables:
            assert not {0, 1} <= set(t.seats) and not {2, 3} <= set(t.seats)
        assert all(x in d.tables[number - 1].seats for x, number in must_sit.items())
    assert repeats(list(draws)) == 0
    assert draws[0].parameters["construction"].startswith("schedule found offline")


def test_fitted_labels_place_constrained_players_or_say_none_fit():
    """The placement behind those relabellings (planning._fitted_labels)."""
    import random

    from tournaments.seating.planning import _fitted_labels

    sizes = tuple(sorted(table_sizes(38, TablePolicy.MIXED)))
    schedule, _ = catalogued_schedule(sizes, 16)
    used = list(range(16))
    kept_apart = [frozenset((0, 1)), frozenset((1, 2))]
    label = _fitted_labels(schedule, used, sizes, {5: 0, 7: 1}, kept_apart, random.Random(1))
    assert sorted(label) == list(range(38))
    point = {x: p for p, x in enumerate(label)}
    tables = [{p: i for i, t in enumerate(r) for p in t} for r in schedule]
    for a, b in [(0, 1), (1, 2)]:
        assert all(where[point[a]] != where[point[b]] for where in tables)
    for r in schedule:  # 5 and 7 at tables of three every round, never the same
        (t,) = [t for t in r if point[5] in t]
        (u,) = [u for u in r if point[7] in u]
        assert len(t) == len(u) == 3 and t != u
    # two players who must sit at one table would meet every round: no placement
    assert _fitted_labels(schedule, used, sizes, {5: 0, 7: 0}, [], random.Random(1)) is None
    # every player of 20 × 7 sits at a table of four some round: none can always sit at a three
    sizes = tuple(sorted(table_sizes(20, TablePolicy.MIXED)))
    schedule, _ = catalogued_schedule(sizes, 7)
    assert _fitted_labels(schedule, range(7), sizes, {5: 0}, [], random.Random(1)) is None


def test_proofs_cover_their_rounds_and_more_but_not_fewer():
    sizes = table_sizes(17, TablePolicy.MIXED)
    assert sorted(sizes) == [3, 3, 3, 4, 4]
    how = proved_none(sizes, 6)
    for _, proof in NONE_EXISTS.values():  # the record names what proved it
        assert re.fullmatch(
            r"SAT: \d+ (class(es)? of round 1|graphs of the fours) refuted by CaDiCaL [\d.]+, [\d.]+ s"
            r"(; checked by CaDiCaL [\d.]+ on a second encoding and Glucose 4, \d+ s)?",
            proof,
        )
    assert proved_none(sizes, 9) == how  # its first 6 rounds would be a schedule
    assert proved_none(sizes, 5) is None  # 17 × 5 has one (the tabu search finds it)
    nineteen = table_sizes(19, TablePolicy.MIXED)  # one four a round (prove_fours_first.py)
    assert "486 graphs of the fours" in proved_none(nineteen, 8)
    assert proved_none(nineteen, 7) is None  # 19 × 7 has one (the tabu search finds it)
    # a size is never both catalogued and proved impossible for the same rounds
    for key, (fewest, _) in NONE_EXISTS.items():
        found = catalogued_schedule(key, 1)
        assert found is None or len(found[0]) < fewest
    assert not set(CATALOGUE) & set(DEVELOPED)  # one entry a size


def test_a_size_proved_to_need_a_repeat_says_so_and_skips_the_searches_that_cannot_succeed():
    """17 × 6 (tests/seating_catalogue/prove_schedules.py): only the tabu starts run, and the
    report cites the proof instead of 'CP-SAT: no answer within its budget'."""
    entries = [Entry(f"p{i}") for i in range(17)]
    draws = draw_schedule(entries, 6, seed="club", policy=TablePolicy.MIXED)
    how = draws[0].parameters["construction"]
    assert repeats(list(draws)) > 0
    assert f"{repeats(list(draws))} repeated meeting(s) left" in how
    assert "no schedule without a repeat exists for 17 players over 6 rounds" in how
    assert "proved offline — SAT: 8 classes of round 1 refuted" in how
    assert "CP-SAT" not in how and "cyclic" not in how
    assert how in draws[-1].report.notes[-1]


def test_a_first_round_drawn_at_the_venue_counts_towards_the_proved_rounds():
    entries = [Entry(i) for i in range(17)]
    draws = [draw_round(entries, seed="hall", method=Method.RANDOM)]
    draws.append(draw_round(entries, as_history(draws), seed="r2", rounds_total=6))
    assert "over 6 rounds (proved offline" in draws[1].report.notes[-1]
    five = [draws[0], draw_round(entries, as_history(draws[:1]), seed="r2", rounds_total=5)]
    assert "proved offline" not in five[1].report.notes[-1]


def test_no_entry_is_written_twice():
    """A dict literal keeps the last of two equal keys without a word: count the records."""
    from pathlib import Path

    from tournaments.seating import catalogue

    source = Path(catalogue.__file__).read_text()
    records = sum(
        source.count(f'\n        "{kind}')
        for kind in ("cyclic schedule", "tabu search", "resolvable design of fours")
    )
    assert records == len(CATALOGUE) + len(DEVELOPED)
