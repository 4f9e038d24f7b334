"""A draw tells a reporter what it is doing (a background job's progress), and the tables
do not depend on whether anyone listens."""

import pytest

from tournaments.seating import (
    Entry,
    Method,
    PastTable,
    Progress,
    Stage,
    TablePolicy,
    draw_round,
    draw_schedule,
)
from tournaments.seating.search import STEP_EVERY

from .helpers import as_history


def _tables(draw):
    return [(t.seats, t.first_dealer) for t in draw.tables]


@pytest.mark.parametrize(
    "method, rounds_total",
    [
        (Method.RANDOM, None),
        (Method.SWISS, None),
        (Method.NO_REPEATS, None),
        (Method.NO_REPEATS, 6),
        (Method.SCHEDULE, 6),
    ],
)
def test_the_tables_do_not_depend_on_a_reporter(method, rounds_total):
    entries = [Entry(i, rating=1400 + 7 * i) for i in range(1, 23)]
    standings = {i: float(i % 5) for i in range(1, 23)} if method is Method.SWISS else None
    heard: list[Progress] = []
    history: list[PastTable] = []
    for rnd in (1, 2):
        kwargs = dict(
            seed=f"progress {method} {rounds_total}",
            method=method,
            policy=TablePolicy.MIXED,
            standings=standings,
            round_number=rnd,
            rounds_total=rounds_total,
        )
        quiet = draw_round(entries, history, **kwargs)
        told = draw_round(entries, history, progress=heard.append, **kwargs)
        assert _tables(told) == _tables(quiet)
        assert told.report == quiet.report
        history += as_history([told])
    assert heard and heard[-1].stage is Stage.SEATING


def test_a_hard_size_reports_each_stage_in_order():
    """12 players at threes over 5 rounds: no schedule without a repeat exists, so the draw
    goes through every stage: the tabu search, eight more starts, then CP-SAT's proof."""
    heard: list[Progress] = []
    draw = draw_round(
        [Entry(i) for i in range(1, 13)],
        seed="progress: every stage",
        policy=TablePolicy.THREES,
        rounds_total=5,
        progress=heard.append,
    )
    assert "proved no schedule without repeats" in draw.report.notes[-1]
    stages = []
    for p in heard:
        if not stages or stages[-1] != (p.stage, p.attempt):
            stages.append((p.stage, p.attempt))
    assert stages == [
        (Stage.DESIGN, 1),
        (Stage.SEARCH, 1),
        (Stage.PATIENT_DESIGN, 1),
        *[(Stage.RESTART, k) for k in range(1, 9)],
        (Stage.DEVELOPED, 1),
        (Stage.EXACT, 1),
        (Stage.EXTEND, 1),  # no schedule without a repeat for four rounds is built: nothing
        (Stage.SEATING, 1),
    ]
    restarts = [p for p in heard if p.stage is Stage.RESTART]
    assert {p.attempts for p in restarts} == {8}
    for k in range(1, 9):
        steps = [p.step for p in restarts if p.attempt == k]
        assert steps == sorted(steps) and steps[0] == 0
        assert steps[-1] == restarts[0].steps  # each start ends by saying it is done
        assert all(s % STEP_EVERY == 0 for s in steps[:-1])
    assert heard[-1].as_dict() == {
        "stage": "seating",
        "step": 0,
        "steps": 0,
        "attempt": 1,
        "attempts": 1,
    }


def test_a_whole_schedule_reports_too():
    heard: list[Progress] = []
    draws = draw_schedule(
        [Entry(i) for i in range(1, 16)],
        7,
        seed="progress: Kirkman",
        policy=TablePolicy.THREES,
        progress=heard.append,
    )
    assert len(draws) == 7
    assert [p.stage for p in heard][0] is Stage.DESIGN
    assert heard[-1].stage is Stage.SEATING
