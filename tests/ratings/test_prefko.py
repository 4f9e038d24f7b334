"""prefko's formula (tournaments/ratings/prefko.py) against prefko's own npm package.

The cases are the committed output of ``tests/ratings/prefko/make_cases.js`` (its header says
how to run it again): 3,000 random three-player tables rated by ``preferans-rating-js`` 2.3.2
itself under node. Pulka's Python formula must give the same change for every player.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournaments.ratings import (
    PlayerState,
    RatedEvent,
    RatedTable,
    RatingError,
    TableResult,
    model_for,
    rate_events,
)
from tournaments.ratings.prefko import Prefko, mathjs_round

CASES = json.loads((Path(__file__).parent / "prefko" / "cases.json").read_text())


def _changes(case):
    model = Prefko()
    table = RatedTable(
        1, 1, tuple(TableResult(p, s) for p, s in enumerate(case["scores"])), case["bula"]
    )
    states = [PlayerState(float(r), 0.0) for r in case["ratings"]]
    after = model.rate_table(table, states, [1, 2, 3])
    return [a.mu - s.mu for a, s in zip(after, states, strict=True)]


def test_the_cases_come_from_the_package():
    assert CASES["package"] == "preferans-rating-js"
    assert len(CASES["cases"]) == 3000
    assert any(c["scores"][0] == c["scores"][1] for c in CASES["cases"])  # ties among them


def test_every_case_as_the_package_computes_it():
    wrong = [
        (c, _changes(c)) for c in CASES["cases"] if _changes(c) != [float(x) for x in c["changes"]]
    ]
    assert not wrong, f"{len(wrong)} cases differ, the first: {wrong[:3]}"


def test_the_readme_example_with_its_own_signs_and_with_pulkas():
    """The README's example (scores "negative = good") gives the best player −27: the code
    rewards a larger score. Pulka passes its settlement (more is better): the best gains 23."""
    readme = {"bula": 30, "ratings": [1200, 1150, 1100], "scores": [-500, 40, 460]}
    assert _changes(readme) == [-27.0, 2.0, 25.0]
    pulka = {**readme, "scores": [500, -40, -460]}
    assert _changes(pulka) == [23.0, -2.0, -21.0]


def test_mathjs_rounding_is_half_away_from_zero():
    assert [mathjs_round(x) for x in (0.5, -0.5, 1.5, -1.5, 2.4999)] == [1, -1, 2, -2, 2]
    assert mathjs_round(-1.0005, 3) == -1.001


def test_the_parts_add_up_to_the_change():
    t = RatedTable(1, 7, (TableResult(1, 500), TableResult(2, -40), TableResult(3, -460)), 30)
    start = {1: PlayerState(1200, 0), 2: PlayerState(1150, 0), 3: PlayerState(1100, 0)}
    run = rate_events([RatedEvent(1, (t,))], model_for("prefko"), start)
    for c in run.changes:
        assert sum(p[1] for p in c.parts) == pytest.approx(c.change, abs=1e-9)
        assert [p[2] for p in c.parts if p[0] == "against"] == [o.person for o in c.opponents]
    assert [c.change for c in run.changes] == [23, -2, -21]


def test_a_table_of_four_averages_over_three_opponents():
    t = RatedTable(
        1, 1, tuple(TableResult(p, s) for p, s in ((1, 300), (2, 0), (3, -100), (4, -200))), 30
    )
    run = rate_events([RatedEvent(1, (t,))], model_for("prefko"))
    # equal ratings: D + N only. Player 1: (10 + 13.333 + 16.667 + 3 × 0.3) / 3 = 13.63 → 14;
    # 2: (−10.3 + 3.633 + 6.967) / 3 = 0.1 → 0; 3: (−13.633 − 3.633 + 3.633) / 3 → −5;
    # 4: (−16.967 − 6.967 − 3.633) / 3 = −9.19 → −9
    assert [c.change for c in run.changes] == [14, 0, -5, -9]
    assert run.changes[0].parts[0] == ("against", pytest.approx((10 + 0.3) / 3), 2)


def test_without_the_bula_the_table_is_refused_naming_it():
    t = RatedTable(2, 5, (TableResult(1, 1), TableResult(2, 0), TableResult(3, -1)), 0)
    with pytest.raises(RatingError, match="round 2, table 5: .*bula"):
        rate_events([RatedEvent(1, (t,))], model_for("prefko"))
