"""The CP-SAT search: schedules without repeats are found, or proved impossible."""

import copy
import random
from itertools import combinations

import pytest

from tournaments.seating.exact import ExactResult, ortools_version, zero_repeat_schedule
from tournaments.seating.search import Problem


def problem(sizes, rounds, *, met=(), forbid=(), fixed=None):
    n = sum(sizes)
    meet = [[0] * n for _ in range(n)]
    for a, b in met:
        meet[a][b] = meet[b][a] = 1
    return Problem(
        n=n,
        sizes=tuple(sizes),
        rounds=rounds,
        meet=meet,
        fours=[0] * n,
        forbid={x for a, b in forbid for x in (a * n + b, b * n + a)},
        fixed=dict(fixed or {}),
    )


def check(p: Problem, result: ExactResult) -> None:
    """Verify a found schedule from scratch: shapes, no repeats, constraints."""
    assert result.status == "found" and result.tables is not None
    assert len(result.tables) == p.rounds
    seen: set[frozenset] = set()
    for rnd in result.tables:
        assert [len(t) for t in rnd] == list(p.sizes)
        assert sorted(x for t in rnd for x in t) == list(range(p.n))
        for index, members in enumerate(rnd):
            assert members == sorted(members)
            for a, b in combinations(members, 2):
                assert frozenset((a, b)) not in seen, f"{a} and {b} meet twice"
                seen.add(frozenset((a, b)))
                assert p.meet[a][b] == 0, f"{a} and {b} met before"
                assert a * p.n + b not in p.forbid, f"{a} and {b} must not meet"
            for unit, table in p.fixed.items():
                assert (unit in members) == (table == index)


def test_found_3344_four_rounds():
    p = problem((3, 3, 4, 4), 4)
    result = zero_repeat_schedule(p, seed=1)
    check(p, result)
    assert result.detail == "CP-SAT found a schedule without repeats"


def test_found_kirkman_nine_and_fourteen_over_five():
    for sizes, rounds in (((3, 3, 3), 4), ((3, 3, 3, 4, 4), 5)):
        p = problem(sizes, rounds)
        check(p, zero_repeat_schedule(p, seed=2))


@pytest.mark.parametrize(
    "sizes, rounds",
    [((3, 3), 2), ((3, 3, 4), 3), ((3, 3, 3), 5), ((3, 3, 3, 3), 5)],
)
def test_none_exists(sizes, rounds):
    result = zero_repeat_schedule(problem(sizes, rounds), seed=3)
    assert result.status == "none exists" and result.tables is None
    n = sum(sizes)
    assert result.detail == (
        f"CP-SAT proved no schedule without repeats exists for {n} players over {rounds} rounds"
    )


def test_history_respected():
    met = [(0, 1), (0, 2), (3, 4), (5, 9), (7, 12), (10, 13), (2, 11)]
    p = problem((3, 3, 4, 4), 3, met=met)
    check(p, zero_repeat_schedule(p, seed=4))


def test_history_can_make_it_impossible():
    # unit 0 has met everyone but 1 and 2: a table of three is all it can still fill once
    met = [(0, q) for q in range(3, 9)]
    result = zero_repeat_schedule(problem((3, 3, 3), 2, met=met), seed=5)
    assert result.status == "none exists"
    assert result.detail.endswith("given the earlier meetings and constraints")


def test_forbid_respected():
    forbid = [(0, 1), (0, 5), (2, 3), (6, 13), (8, 9)]
    p = problem((3, 3, 4, 4), 4, forbid=forbid)
    check(p, zero_repeat_schedule(p, seed=6))


def test_fixed_respected():
    p = problem((3, 3, 4, 4), 3, fixed={0: 3, 5: 0}, forbid=[(1, 2)], met=[(3, 4)])
    check(p, zero_repeat_schedule(p, seed=7))
    p = problem((3, 3, 4, 4), 3, fixed={2: 1, 9: 2})
    check(p, zero_repeat_schedule(p, seed=7))


def test_fixed_at_three_tables_is_impossible():
    # the eleven free units cannot fill the seats around units 0, 5 and 13 for
    # three rounds; proved at once since free units are interchangeable
    result = zero_repeat_schedule(problem((3, 3, 4, 4), 3, fixed={0: 3, 5: 0, 13: 2}), seed=7)
    assert result.status == "none exists"


def test_fixed_together_twice_is_impossible():
    result = zero_repeat_schedule(problem((3, 3, 3), 2, fixed={0: 1, 4: 1}), seed=8)
    assert result.status == "none exists"


def test_deterministic_and_problem_untouched():
    p = problem((3, 3, 3, 4), 3, met=[(0, 1), (2, 7)], forbid=[(3, 8)], fixed={12: 1})
    before = copy.deepcopy(p)
    first = zero_repeat_schedule(p, seed=123456789012)
    second = zero_repeat_schedule(p, seed=123456789012)
    check(p, first)
    assert first == second
    assert p == before


def test_symmetry_breaking_keeps_every_answer():
    """Small random instances: the same yes/no with and without symmetry breaking."""
    rng = random.Random(2024)
    shapes = [(3, 3), (3, 4), (4, 4), (3, 3, 3), (3, 3, 4), (2, 3, 3)]
    for i in range(40):
        sizes = rng.choice(shapes)
        n = sum(sizes)
        pairs = list(combinations(range(n), 2))
        p = problem(
            sizes,
            rng.randint(1, 4),
            met=rng.sample(pairs, rng.randint(0, 3)),
            forbid=rng.sample(pairs, rng.randint(0, 2)),
            fixed={rng.randrange(n): rng.randrange(len(sizes)) for _ in range(rng.randint(0, 3))},
        )
        if i % 2:  # fixed units only: the stronger symmetry breaking applies
            p.meet, p.forbid = [[0] * n for _ in range(n)], set()
        plain = zero_repeat_schedule(p, seed=i, _symmetry=False)
        broken = zero_repeat_schedule(p, seed=i)
        assert broken.status == plain.status != "unknown"
        if broken.status == "found":
            check(p, broken)


def test_budget_exhausted_is_unknown():
    result = zero_repeat_schedule(problem((3,) * 6, 7), seed=9, budget=0.0)
    assert result == ExactResult("unknown", None, "CP-SAT: no answer within its budget")


def test_rejects_sizes_not_seating_everyone():
    with pytest.raises(ValueError, match="seat 9 units, not 10"):
        zero_repeat_schedule(
            Problem(n=10, sizes=(3, 3, 3), rounds=1, meet=[[0] * 10] * 10, fours=[0] * 10),
            seed=0,
        )


def test_ortools_version():
    major, minor = (int(x) for x in ortools_version().split(".")[:2])
    assert (major, minor) >= (9, 12)
