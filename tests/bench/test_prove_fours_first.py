"""The experimental fours-first prover (tests/bench/prove_fours_first.py): its encoding."""

import prove_fours_first as ff
import pytest

from tournaments.seating.symmetric import developed_schedule


def test_thirteen_players_over_five_rounds_are_refuted_for_every_graph():
    for e in range(7, 11):
        for g in ff.graphs(5, e):
            assert ff.solve(13, 5, ff.decode_g6(g)[1])[0] is None


def test_the_known_25_by_11_schedule_satisfies_the_encoding_of_its_own_graph():
    found, _ = developed_schedule((3,) * 7 + (4,), 11)
    fours = [set(next(t for t in r if len(t) == 4)) for r in found]
    edges = [(i, j) for i in range(11) for j in range(i + 1, 11) if fours[i] & fours[j]]
    solution, _ = ff.solve(25, 11, edges, known=found)
    assert solution is not None


@pytest.fixture(autouse=True)
def _geng():
    import shutil

    if shutil.which("nauty-geng") is None:
        pytest.fail("nauty-geng is missing: apt-get install nauty (.ci/setup installs it)")
