"""Constraints, late entry and withdrawal, re-running from the seed, the report."""

import hashlib

import pytest

from tournaments.seating import (
    ENGINE_VERSION,
    ConstraintError,
    Constraints,
    Entry,
    Method,
    PastTable,
    SeatingError,
    TableCountError,
    TablePolicy,
    draw_round,
    draw_schedule,
    seed_commitment,
)

from .helpers import as_history, repeats, seated

ALL_METHODS = [Method.RANDOM, Method.NO_REPEATS, Method.SWISS, Method.SCHEDULE]
STANDINGS = {i: float(i % 7) for i in range(30)}


def _draw(entries, history=(), method=Method.NO_REPEATS, **kw):
    if method is Method.SWISS:
        kw.setdefault("standings", STANDINGS)
    if method is Method.SCHEDULE:
        kw.setdefault("rounds_total", 4)
    return draw_round(entries, history, method=method, **kw)


@pytest.mark.parametrize("method", ALL_METHODS)
def test_rerun_from_seed_gives_same_draw(method):
    entries = [Entry(i, rating=1500 + i) for i in range(17)]
    first = _draw(entries, method=method, seed="Sochi-2026/r1")
    history = as_history([first])
    a = _draw(entries, history, method=method, seed="Sochi-2026/r2")
    b = _draw(list(reversed(entries)), list(reversed(history)), method=method, seed="Sochi-2026/r2")
    assert a == b  # same inputs (in any order) and seed: the same tables, report and record
    assert a.seed == "Sochi-2026/r2" and a.engine_version == ENGINE_VERSION and a.method is method
    assert a.parameters["round"] == 2 and a.parameters["players"] == 17
    other = _draw(entries, history, method=method, seed="another seed")
    assert [t.seats for t in other.tables] != [t.seats for t in a.tables]


def test_seed_commitment_is_sha256_of_the_seed():
    assert seed_commitment("r1: 7781") == hashlib.sha256(b"r1: 7781").hexdigest()
    d = draw_round([Entry(i) for i in range(6)], seed="r1: 7781")
    assert d.seed_commitment == seed_commitment("r1: 7781")


@pytest.mark.parametrize("method", ALL_METHODS)
def test_must_sit_table(method):
    entries = [Entry(i) for i in range(22)]  # tables 3 × 6 + 4 (mixed)
    rules = Constraints(must_sit={5: 1, 9: 7, 12: 7})
    draws = []
    for _ in range(3):
        draws.append(_draw(entries, as_history(draws), method=method, seed=1, constraints=rules))
    for d in draws:
        table = {x: t.number for t in d.tables for x in t.seats}
        assert table[5] == 1 and table[9] == 7 and table[12] == 7
        assert "must sit at table 1" in d.report.players[5].constraints
        assert d.parameters["constraints"]["must_sit"] == [[5, 1], [9, 7], [12, 7]]
        repeat = [r for r in d.report.players[9].repeats if r.opponent == 12]
        if d.round > 1:
            assert repeat and repeat[0].reason.startswith(("constraint", "random"))


@pytest.mark.parametrize("method", ALL_METHODS)
def test_must_not_meet(method):
    entries = [Entry(f"p{i}", club="Kazan" if i < 4 else f"club{i}") for i in range(12)]
    rules = Constraints(must_not_meet=Constraints.same_club(entries))
    assert len(rules.must_not_meet) == 6
    draws = []
    for _ in range(4):
        draws.append(_draw(entries, as_history(draws), method=method, seed=2, constraints=rules))
    for d in draws:
        kazan = [t.number for t in d.tables for x in t.seats if x in {"p0", "p1", "p2", "p3"}]
        assert len(set(kazan)) == 4  # the four Kazan players at four different tables
        assert ["p0", "p1"] in d.parameters["constraints"]["must_not_meet"]


def test_impossible_constraints_raise_clear_errors():
    entries = [Entry(i) for i in range(9)]
    with pytest.raises(ConstraintError, match="table 4, but this round has tables 1–3"):
        draw_round(entries, seed=1, constraints=Constraints(must_sit={0: 4}))
    with pytest.raises(ConstraintError, match="which seats 3"):
        draw_round(entries, seed=1, constraints=Constraints(must_sit={0: 1, 1: 1, 2: 1, 3: 1}))
    with pytest.raises(ConstraintError, match="must_not_meet: 0 and 1 must both sit at table 2"):
        draw_round(
            entries,
            seed=1,
            constraints=Constraints(
                must_sit={0: 2, 1: 2}, must_not_meet=frozenset({frozenset({0, 1})})
            ),
        )
    with pytest.raises(SeatingError, match="id 3 appears twice"):
        draw_round([*entries, Entry(3)], seed=1)
    with pytest.raises(SeatingError, match="standings"):
        draw_round(entries, seed=1, method=Method.SWISS)
    with pytest.raises(SeatingError, match="rounds_total"):
        draw_round(entries, seed=1, method=Method.SCHEDULE)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_impossible_counts(n):
    with pytest.raises(TableCountError, match="every count but 1, 2 and 5"):
        draw_round([Entry(i) for i in range(n)], seed=1)


def test_late_entry_and_withdrawal():
    entries = [Entry(i) for i in range(12)]
    first = draw_round(entries, seed="w")
    second = draw_round(entries, as_history([first]), seed="w")
    # players 0 and 1 withdraw, 100, 101 and 102 enter late: 13 players, (3, 3, 3, 4)
    now = [Entry(i) for i in range(2, 12)] + [Entry(100), Entry(101), Entry(102)]
    rules = Constraints(must_sit={0: 1})  # a constraint on a withdrawn player is ignored
    third = draw_round(now, as_history([first, second]), seed="w", constraints=rules)
    assert seated(third) == sorted(e.id for e in now)
    assert third.round == 3
    assert third.report.repeated_meetings == 0
    assert any("not present" in note for note in third.report.notes)
    late = third.report.players[100]
    assert late.met_before == {} and late.repeats == () and late.left_neighbours[:-1] == ()
    assert sum(late.seats_so_far.values()) == 1


def test_report_explains_repeats_and_neighbours():
    """6 players at tables of three: from round 3 on, repeats are unavoidable."""
    entries = [Entry(x) for x in "ABCDEF"]
    draws = []
    for _ in range(3):
        draws.append(draw_round(entries, as_history(draws), seed=9, policy=TablePolicy.THREES))
    third = draws[-1]
    assert third.report.repeated_meetings > 0
    for x in "ABCDEF":
        rep = third.report.players[x]
        table = next(t for t in third.tables if t.number == rep.table)
        assert table.seats[rep.seat] == x
        assert (
            len(rep.left_neighbours) == 3
            and rep.left_neighbours[-1] == table.seats[(rep.seat + 1) % 3]
        )
        assert sum(rep.seats_so_far.values()) == 3
        for r in rep.repeats:
            assert r.opponent in table.seats and r.earlier_rounds
            assert set(r.earlier_rounds) <= {1, 2}
            assert r.reason.startswith(("unavoidable", "not avoided"))
        for other, rounds in rep.met_before.items():
            assert all(
                other in t.seats and x in t.seats
                for rnd in rounds
                for t in draws[rnd - 1].tables
                if x in t.seats
            )


def test_random_draw_reports_its_repeats_as_random():
    entries = [Entry(i) for i in range(9)]
    draws = []
    for _ in range(4):
        draws.append(draw_round(entries, as_history(draws), seed=4, method=Method.RANDOM))
    assert repeats(draws) > 0
    reasons = {r.reason for d in draws for p in d.report.players.values() for r in p.repeats}
    assert reasons and all(reason.startswith("random draw") for reason in reasons)


def test_swiss_groups_by_standings():
    entries = [Entry(i) for i in range(18)]
    standings = {i: float(100 - i) for i in range(18)}  # 0 leads, 17 is last
    first = draw_round(entries, seed=5, method=Method.SWISS, standings=standings)
    assert [sorted(t.seats) for t in first.tables] == [
        [3 * k, 3 * k + 1, 3 * k + 2] for k in range(6)
    ]
    second = draw_round(
        entries, as_history([first]), seed=5, method=Method.SWISS, standings=standings
    )
    assert second.report.repeated_meetings == 0
    for t in second.tables:  # still close in the standings
        assert max(t.seats) - min(t.seats) <= 8
    assert max(second.tables[0].seats) < 9 and min(second.tables[-1].seats) > 8


def test_partnerships_fixed_pairs_sit_opposite():
    """Priffe (seed 004): partners face each other; pairs rotate opponents."""
    entries = [Entry(i) for i in range(16)]
    pairs = tuple((2 * k, 2 * k + 1) for k in range(8))
    rules = Constraints(partners=pairs)
    draws = []
    for method in (Method.NO_REPEATS, Method.NO_REPEATS, Method.RANDOM):
        draws.append(
            draw_round(
                entries,
                as_history(draws),
                seed=6,
                method=method,
                policy=TablePolicy.PARTNERSHIPS,
                constraints=rules,
            )
        )
    for d in draws:
        for t in d.tables:
            assert len(t.seats) == 4
            assert {frozenset((t.seats[0], t.seats[2])), frozenset((t.seats[1], t.seats[3]))} <= {
                frozenset(p) for p in pairs
            }
    # the two drawn rounds pair every team against a new team
    met = [frozenset((t.seats[0] // 2, t.seats[1] // 2)) for d in draws[:2] for t in d.tables]
    assert len(met) == len(set(met))
    with pytest.raises(ConstraintError, match="have no partner"):
        draw_round(
            entries,
            seed=1,
            policy=TablePolicy.PARTNERSHIPS,
            constraints=Constraints(partners=pairs[:-1]),
        )
    with pytest.raises(ConstraintError, match="partnerships policy"):
        draw_round(entries, seed=1, constraints=Constraints(partners=pairs))


def test_partnerships_without_fixed_pairs_rotate_partners():
    entries = [Entry(i) for i in range(8)]
    draws = []
    for _ in range(3):
        draws.append(
            draw_round(entries, as_history(draws), seed=8, policy=TablePolicy.PARTNERSHIPS)
        )
    partnerships = [
        frozenset((t.seats[i], t.seats[i + 2])) for d in draws for t in d.tables for i in (0, 1)
    ]
    assert len(partnerships) == len(set(partnerships))  # nobody partners the same player twice


def test_schedule_equals_round_by_round_schedule_method():
    entries = [Entry(i) for i in range(12)]
    plan = draw_schedule(entries, 4, seed="league", policy=TablePolicy.THREES)
    assert [d.round for d in plan] == [1, 2, 3, 4]
    assert repeats(list(plan)) == 0
    drawn = []
    for _ in range(4):
        drawn.append(
            draw_round(
                entries,
                as_history(drawn),
                seed="league",
                method=Method.SCHEDULE,
                rounds_total=4,
                policy=TablePolicy.THREES,
            )
        )
    for p, d in zip(plan, drawn, strict=True):
        assert {frozenset(t.seats) for t in p.tables} == {frozenset(t.seats) for t in d.tables}


def test_history_validation():
    with pytest.raises(SeatingError, match="repeats a player"):
        PastTable(1, ("a", "a", "b"))
    with pytest.raises(SeatingError, match="first_dealer 3 is not a seat"):
        PastTable(1, ("a", "b", "c"), first_dealer=3)


def test_same_draw_in_another_process():
    """Re-running is independent of Python's hash randomisation (str ids, club constraints)."""
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "from tournaments.seating import *\n"
        "es = [Entry(f'p{i}', club=f'c{i % 4}') for i in range(14)]\n"
        "c = Constraints(must_not_meet=Constraints.same_club(es[:8]), must_sit={'p3': 2})\n"
        "h = []\n"
        "for r in (1, 2, 3):\n"
        "    d = draw_round(es, h, seed='x', constraints=c)\n"
        "    h += [PastTable(r, t.seats, t.first_dealer) for t in d.tables]\n"
        "print([t.seats for t in d.tables], d.tables[0].first_dealer)\n"
    )
    here = {}
    exec(script.replace("print(", "result = ("), here)  # this process: another hash seed
    other = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
        cwd=str(Path(__file__).resolve().parents[3]),
    ).stdout
    assert other.strip() == " ".join(map(str, here["result"]))
    assert "p3" in other


def test_unsatisfiable_must_not_meet_is_an_error():
    """Four players, one table: nobody can be kept apart."""
    entries = [Entry(x) for x in "abcd"]
    rules = Constraints(must_not_meet=frozenset({frozenset("ab")}))
    with pytest.raises(ConstraintError, match="keeps 'a' and 'b' apart"):
        draw_round(entries, seed=1, constraints=rules)


def test_partnership_schedule_is_a_round_robin_of_pairs():
    """8 fixed Priffe pairs over 7 rounds: every pair meets every other pair once."""
    pairs = tuple((2 * k, 2 * k + 1) for k in range(8))
    plan = draw_schedule(
        [Entry(i) for i in range(16)],
        7,
        seed="priffe",
        policy=TablePolicy.PARTNERSHIPS,
        constraints=Constraints(partners=pairs),
    )
    matches = [frozenset((t.seats[0] // 2, t.seats[1] // 2)) for d in plan for t in d.tables]
    assert len(matches) == len(set(matches)) == 28
    assert all(t.seats[0] // 2 == t.seats[2] // 2 for d in plan for t in d.tables)


def test_after_a_withdrawal_only_the_plan_that_can_fit_is_made(monkeypatch):
    """A round after a player left cannot follow a plan made before they left (a plan seats the
    players present now), so the draw makes only the plan anchored on every round played:
    before, it made one for each earlier round too, which near the bound took seconds each."""
    from tournaments.seating import engine

    entries = [Entry(i) for i in range(1, 16)]
    history: list[PastTable] = []
    for rnd in (1, 2, 3):
        drawn = draw_round(entries, history, seed="w", round_number=rnd, rounds_total=6)
        history += as_history([drawn])
    made = []
    real = engine._anchored_plan

    def counting(setup, entries_, history_, anchor_rounds, *args):
        made.append(list(anchor_rounds))
        return real(setup, entries_, history_, anchor_rounds, *args)

    monkeypatch.setattr(engine, "_anchored_plan", counting)
    fewer = [e for e in entries if e.id != 7]
    fourth = draw_round(fewer, history, seed="w", round_number=4, rounds_total=6)
    assert made == [[1, 2, 3]]
    assert "plan made after round 3" in fourth.report.notes[-1]
    assert 7 not in seated(fourth)
