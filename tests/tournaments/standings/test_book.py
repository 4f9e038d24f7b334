"""The standings kept table by table (``tournaments.standings.book``, issue 28) equal the full
computation (``compute_standings``) after every change, on random events: results approved,
reopened, changed, taken away, tables left without a result; tie-breaks that compare a player
with the players tied with him (head-to-head) and that read his table (places, place points).
Pure: no database."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from tournaments.standings import (
    Adjustment,
    RoundResult,
    compute_standings,
    config_from_json,
)
from tournaments.standings.book import StandingsBook, assemble
from tournaments.standings.rows import SIT_OUT_RULE

CHAINS = [
    ["raspasy_won", "remizes", "head_to_head"],
    ["head_to_head", "table_wins"],
    ["table_wins", "best_round", "worst_round", "head_to_head"],
    ["average", "rounds_played", "whists", "misere_tricks"],
    [{"round_score": "place_points"}, "head_to_head", "remizes"],
    [{"round_score": "place_points", "four": "scaled"}, "table_wins"],
    [{"round_score": "capped", "cap": 20}, "head_to_head"],
    [{"round_score": "normalised"}, "raspasy_tricks", "penalties"],
]
STATS = ("raspasy_won", "raspasy_tricks", "remizes", "misere_tricks", "penalties")


def table_results(rng, rnd, table, players, final):
    """One table's results: zero-sum whists in halves and thirds from a small set (ties are
    common, so tie-breaks decide), pairwise results and deal counters."""
    n = len(players)
    scores = [F(rng.choice([-30, -10, 0, 10, 20, 30]), rng.choice([1, 1, 2, 3])) for _ in players]
    scores[-1] = -sum(scores[:-1], F(0))
    rows = []
    for seat, e in enumerate(players):
        others = [p for p in players if p != e]
        rows.append(
            RoundResult(
                entry=e,
                round=rnd,
                table=table,
                score=scores[seat],
                final=final,
                seat=seat,
                table_number=table % 100,
                table_size=n,
                opponents=tuple(others),
                versus={o: (scores[seat] - scores[players.index(o)]) / n for o in others},
                stats={k: rng.randint(0, 3) for k in STATS},
            )
        )
    return rows


def random_event(rng):
    players = list(range(1, rng.randint(7, 25)))
    rounds = rng.randint(1, 5)
    tables = {}  # key -> (round, players)
    for rnd in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        sizes = [3] * (len(order) // 3)
        for i in range(len(order) % 3):
            sizes[i] += 1
        start = 0
        for i, size in enumerate(sizes):
            tables[rnd * 100 + i] = (rnd, order[start : start + size])
            start += size
    return players, tables


def random_adjustments(rng, players):
    out = []
    for _ in range(rng.randint(0, 4)):
        out.append(Adjustment(rng.choice(players), F(rng.choice([-10, -5, 5])), 1, "pen", "x"))
    if rng.random() < 0.5:
        out.append(Adjustment(rng.choice(players), F(0), 2, SIT_OUT_RULE, "sat out round 2"))
    return out


def random_state(rng, rnd, players):
    """What a table holds: results (final or provisional), none yet, or none in a closed
    round (its players "without a result")."""
    roll = rng.random()
    if roll < 0.1:
        return "none", []
    if roll < 0.2:
        return "no_result", []
    return "results", None


def book_data(book, rows_cache, changed):
    """The assembled standings from the parts a store would keep: a player's row part is
    refreshed only when the book says it changed (what the snapshot writes)."""
    ranked = book.standings()
    for r in ranked:
        if r.entry in changed or r.entry not in rows_cache:
            rows_cache[r.entry] = book.row_part(r)
    for e in [e for e in rows_cache if e not in {r.entry for r in ranked}]:
        del rows_cache[e]
    tables = [book.table_part(k) for k in sorted(book.tables)]
    return assemble(book.head_part(), book.order_part(), rows_cache, tables)


def full_data(config, adjustments, players, content):
    results = [r for rows, _ in content.values() for r in rows]
    no_result = [p for _, missing in content.values() for p in missing]
    return compute_standings(results, config, adjustments, players, no_result).as_json()


@pytest.mark.parametrize("seed", range(40))
def test_table_by_table_equals_the_full_computation_after_every_change(seed):
    rng = random.Random(seed)
    players, tables = random_event(rng)
    config = config_from_json(CHAINS[seed % len(CHAINS)])
    adjustments = random_adjustments(rng, players)
    book = StandingsBook(config, adjustments, players)
    content: dict[int, tuple[list[RoundResult], list[tuple[int, int]]]] = {}
    rows_cache: dict[int, dict] = {}

    def put(key):
        rnd, seated = tables[key]
        kind, _ = random_state(rng, rnd, seated)
        if kind == "none":
            content.pop(key, None)
            return book.remove_table(key)
        if kind == "no_result":
            content[key] = ([], [(e, rnd) for e in seated])
        else:
            content[key] = (table_results(rng, rnd, key, seated, rng.random() < 0.8), [])
        return book.set_table(key, *content[key])

    for key in tables:
        put(key)
    assert book_data(book, rows_cache, book.take_changed()) == full_data(
        config, adjustments, players, content
    )
    for _ in range(25):  # one protocol approved, reopened or changed at a time
        put(rng.choice(list(tables)))
        assert book_data(book, rows_cache, book.take_changed()) == full_data(
            config, adjustments, players, content
        )


def test_a_change_touches_only_the_players_at_the_table():
    rng = random.Random(5)
    players, tables = random_event(rng)
    book = StandingsBook(config_from_json(["raspasy_won", "remizes"]), (), players)
    for key, (rnd, seated) in tables.items():
        book.set_table(key, table_results(rng, rnd, key, seated, True))
    book.standings()
    key = next(iter(tables))
    rnd, seated = tables[key]
    touched = book.set_table(key, table_results(rng, rnd, key, seated, True))
    assert touched == set(seated)
    assert book.dirty == set(seated)  # only their records are recomputed


def test_two_results_in_one_round_are_refused_and_nothing_changes():
    book = StandingsBook(entries=[1, 2, 3])
    a = [RoundResult(1, 1, 10, F(5)), RoundResult(2, 1, 10, F(-5))]
    book.set_table(10, a)
    with pytest.raises(ValueError, match="entry 1 has two results in round 1"):
        book.set_table(11, [RoundResult(1, 1, 11, F(3)), RoundResult(3, 1, 11, F(-3))])
    assert set(book.tables) == {10} and 11 not in book.at[3]
