"""Who sits out, who substitutes (tournaments.seating.remainder): players beyond a multiple of
four at tables of four take turns sitting out, fairly and reproducibly from the round's seed."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.seating.remainder import remainder_of, sitting_out, substitutes


@pytest.mark.parametrize("n", [13, 14, 15, 17, 22])
def test_everyone_sits_out_once_before_anyone_sits_out_twice(n):
    players = list(range(100, 100 + n))
    out: Counter = Counter()
    for rnd in range(1, 2 * n + 1):
        k = remainder_of(n)
        chosen = sitting_out(players, k=k, rounds_out=out, seed=f"seed-{rnd}")
        assert len(chosen) == k == len(set(chosen))
        out.update(chosen)
        counts = [out[p] for p in players]
        assert max(counts) - min(counts) <= 1, (rnd, counts)


def test_the_choice_is_reproducible_from_the_seed_and_varies_with_it():
    players = list(range(1, 14))
    one = sitting_out(players, k=1, rounds_out={}, seed="abc")
    assert sitting_out(players, k=1, rounds_out={}, seed="abc") == one
    firsts = {sitting_out(players, k=1, rounds_out={}, seed=f"s{i}")[0] for i in range(40)}
    assert len(firsts) > 5  # by lot, not always the same player


def test_a_player_fixed_at_a_table_sits_out_only_when_no_one_else_can():
    players = [1, 2, 3, 4, 5]
    for seed in ("a", "b", "c", "d"):
        assert 3 not in sitting_out(players, k=1, rounds_out={}, seed=seed, fixed={3})
    # everyone else has sat out once: now the fixed player takes his turn
    assert sitting_out(players, k=1, rounds_out={1: 1, 2: 1, 4: 1, 5: 1}, seed="a", fixed={3})
    assert sitting_out(players, k=1, rounds_out={1: 1, 2: 1, 4: 1, 5: 1}, seed="a", fixed={3}) == (
        3,
    )


def test_bad_counts_are_refused():
    with pytest.raises(ValueError, match="cannot sit out 3 of 2"):
        sitting_out([1, 2], k=3, rounds_out={}, seed="")


def test_substitutes_who_played_least_fill_the_table():
    assert substitutes([7, 8, 9], k=2, played={7: 3, 8: 1}) == (8, 9)
    assert substitutes([7, 8, 9], k=2, played={}) == (7, 8)
    assert substitutes([7], k=3, played={}) == (7,)  # fewer available: the service refuses
