"""The fours-first prover (tests/seating_catalogue/prove_fours_first.py): both of its encodings."""

import prove_fours_first as ff
import pytest

from tournaments.seating.symmetric import developed_schedule


def _graphs(rounds, edges_from, edges_to):
    for e in range(edges_from, edges_to + 1):
        for g in ff.graphs(rounds, e):
            yield ff.decode_g6(g)[1]


def test_thirteen_players_over_five_rounds_are_refuted_for_every_graph_by_both_encodings():
    graphs = list(_graphs(5, 7, 10))
    assert len(graphs) == 8  # 20 four-seats on 13 players: 7 to 10 players twice at a four
    for edges in graphs:
        assert ff.solve(13, 5, edges)[0] is None
        assert ff.solve_meetings(13, 5, edges)[0] is False


def _known_25_by_11():
    found, _ = developed_schedule((3,) * 7 + (4,), 11)
    fours = [set(next(t for t in r if len(t) == 4)) for r in found]
    edges = [(i, j) for i in range(11) for j in range(i + 1, 11) if fours[i] & fours[j]]
    return found, edges


def test_the_known_25_by_11_schedule_satisfies_both_encodings_of_its_own_graph():
    found, edges = _known_25_by_11()
    solution, _ = ff.solve(25, 11, edges, known=found)
    assert solution is not None
    ff.check([[tuple(t) for t in r] for r in solution], (4,) + (3,) * 7)  # read back whole
    assert ff.solve_meetings(25, 11, edges, known=found)[0] is True


def test_the_25_by_11_schedule_with_two_players_swapped_satisfies_neither():
    found, edges = _known_25_by_11()
    spoiled = [list(r) for r in found]
    triples = [t for t in spoiled[3] if len(t) == 3]
    a, b = triples[0], triples[1]
    spoiled[3] = [t for t in spoiled[3] if t not in (a, b)] + [
        (b[0],) + tuple(a[1:]),
        (a[0],) + tuple(b[1:]),
    ]
    assert ff.solve(25, 11, edges, known=spoiled)[0] is None
    assert ff.solve_meetings(25, 11, edges, known=spoiled)[0] is False


def test_a_size_off_the_split_is_refused():
    with pytest.raises(ValueError, match="n - 1 - 2R = 2"):
        ff.solve_meetings(16, 5, [])


@pytest.fixture(autouse=True)
def _geng():
    import shutil

    if shutil.which("nauty-geng") is None:
        pytest.fail("nauty-geng is missing: apt-get install nauty (.ci/setup installs it)")
