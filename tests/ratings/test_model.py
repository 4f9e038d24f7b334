"""The rating machinery and Pulka's default model (tournaments/ratings): determinism, ties,
tables of 3 and 4, rating from a stored state as from scratch, the explanation adding up."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ratings import (
    DEFAULT_MODEL,
    RatedEvent,
    RatedTable,
    RatingError,
    TableResult,
    model_for,
    model_from_spec,
    rate_events,
)


def _season(seed: int, events: int = 6, players: int = 24, rounds: int = 4, fours: bool = True):
    rng = random.Random(seed)
    out = []
    for e in range(1, events + 1):
        field = rng.sample(range(1, players + 1), k=players - rng.randrange(0, 4))
        tables = []
        for r in range(1, rounds + 1):
            rng.shuffle(field)
            sizes, left = [], len(field)
            while left:
                size = 4 if (fours and left % 3) else 3
                size = min(size, left) if left >= 3 else left
                sizes.append(size)
                left -= size
            at = 0
            for t, size in enumerate(sizes, 1):
                seat = field[at : at + size]
                at += size
                if size < 2:
                    continue
                scores = [rng.choice((-30, -10, 0, 10, 20, 40)) for _ in seat]
                tables.append(RatedTable(r, t, tuple(map(TableResult, seat, scores)), game_size=30))
        out.append(RatedEvent(e, tuple(tables)))
    return out


@pytest.mark.parametrize("key", ["weng-lin", "prefko"])
def test_two_recomputations_from_scratch_are_equal(key):
    events = _season(1)
    a = rate_events(events, model_for(key))
    b = rate_events(events, model_from_spec(model_for(key).spec()))
    assert a.states == b.states
    assert [c.as_json() for c in a.changes] == [c.as_json() for c in b.changes]


def test_the_spec_names_model_parameters_and_version():
    spec = model_for().spec()
    assert spec["model"] == DEFAULT_MODEL == "weng-lin"
    assert spec["version"] == 1
    assert spec["params"]["library_model"] == "PlackettLuce"
    assert spec["params"]["sigma"] == pytest.approx(25 / 3)
    with pytest.raises(RatingError, match="stored version 0"):
        model_from_spec({**spec, "version": 0})
    with pytest.raises(RatingError, match="unknown model 'elo'"):
        model_for("elo")


def test_ties_share_the_place_and_the_change():
    t = RatedTable(1, 1, (TableResult(1, 20), TableResult(2, -10), TableResult(3, -10)))
    run = rate_events([RatedEvent(1, (t,))], model_for())
    first, second, third = run.changes
    assert (first.place, second.place, third.place) == (1, 2, 2)
    assert (second.tied, third.tied) == (2, 2)
    assert second.change == pytest.approx(third.change)
    assert first.change > second.change
    # a tie is not a loss: the tied second does better than a clear third would
    clear = rate_events(
        [
            RatedEvent(
                1, (RatedTable(1, 1, (TableResult(1, 2), TableResult(2, 1), TableResult(3, 0))),)
            )
        ],
        model_for(),
    )
    assert third.change > clear.changes[2].change


@pytest.mark.parametrize("size", [3, 4])
def test_tables_of_three_and_four_order_the_changes_by_place(size):
    t = RatedTable(1, 1, tuple(TableResult(p, 10 * (size - p)) for p in range(size)))
    run = rate_events([RatedEvent(1, (t,))], model_for())
    changes = [c.change for c in run.changes]
    assert changes == sorted(changes, reverse=True)
    assert [c.place for c in run.changes] == list(range(1, size + 1))
    assert all(len(c.opponents) == size - 1 for c in run.changes)
    # the last of four loses to three players: he drops below where he started
    assert run.changes[-1].after.mu < run.changes[-1].before.mu


def test_rating_from_a_stored_state_equals_rating_from_scratch():
    """What the incremental job relies on: the states after event k, then events k+1 … give
    exactly what all the events give from scratch (a correction re-rates from its event on)."""
    events = _season(2, events=8)
    whole = rate_events(events, model_for())
    head = rate_events(events[:5], model_for())
    tail = rate_events(events[5:], model_for(), head.states)
    assert tail.states == whole.states
    assert [c.as_json() for c in tail.changes] == [
        c.as_json() for c in whole.changes if c.event > 5
    ]


def test_a_corrected_result_changes_that_event_and_the_later_ones_only():
    events = _season(3, events=5)
    t = events[2].tables[0]
    swapped = RatedTable(
        t.round, t.table, tuple(TableResult(r.person, -r.score) for r in t.results), t.game_size
    )
    corrected = events[:2] + [RatedEvent(3, (swapped,) + events[2].tables[1:])] + events[3:]
    a, b = rate_events(events, model_for()), rate_events(corrected, model_for())
    before = [c.as_json() for c in a.changes if c.event < 3]
    assert before == [c.as_json() for c in b.changes if c.event < 3]
    assert [c.as_json() for c in a.changes if c.event >= 3] != [
        c.as_json() for c in b.changes if c.event >= 3
    ]


def test_a_table_of_one_is_refused_naming_it():
    with pytest.raises(RatingError, match="event 4, round 2, table 3: .*at least 2"):
        rate_events([RatedEvent(4, (RatedTable(2, 3, (TableResult(1, 0),)),))], model_for())


def test_provisional_below_twelve_tables():
    events = _season(4, events=3, players=12, rounds=4, fours=False)
    run = rate_events(events, model_for())
    model = model_for()
    assert all(model.provisional(s) == (s.tables < 12) for s in run.states.values())
    assert any(s.tables == 12 and not model.provisional(s) for s in run.states.values())


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["weng-lin", "prefko"]))
def test_the_explanation_adds_up_to_the_change(seed, key):
    run = rate_events(_season(seed, events=2, players=10, rounds=3), model_for(key))
    for person, state in run.states.items():
        history = run.history(person)
        assert history[-1].after == state
        for c in history:
            assert c.change == pytest.approx(c.shown_after - c.shown_before, abs=1e-9)
            assert sum(p[1] for p in c.parts) == pytest.approx(c.change, abs=1e-9)
        for earlier, later in zip(history, history[1:], strict=False):
            assert earlier.shown_after == later.shown_before
