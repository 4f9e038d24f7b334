"""The compact storage of a rating's changes (tournaments/ratings/compact.py): one record per
person and event round-trips to the very changes the run made (every field, floats exact),
for both models, tables of three and four, ties, and from a stored state as from scratch."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ratings.test_model import _season
from tournaments.ratings import (
    RatedEvent,
    RatedTable,
    TableResult,
    model_for,
    pack,
    rate_events,
    unpack,
)
from tournaments.ratings.compact import TABLE_FIELDS


def _round_trip(rows, start=None):
    """The records as the job writes them (JSON text) and the pages read them (decoded), each
    record's state before from the person's record before it (or ``start``)."""
    last = dict(start or {})
    stored = []
    for r in rows:
        text = r.changes_json()
        before = r.before
        assert before.last_event == last.get(r.person)
        stored.append((r.person, r.event, before, r.shown_before, json.loads(text)))
        last[r.person] = r.event
    return unpack(stored)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["weng-lin", "prefko"]))
def test_the_records_round_trip_to_the_runs_changes(seed, key):
    run = rate_events(_season(seed, events=4, players=14, rounds=3), model_for(key))
    rows = pack(run.tables)
    # one record per person and event; the changes in the order rated
    assert len({(r.person, r.event) for r in rows}) == len(rows)
    assert len(rows) == len({(c.person, c.event) for c in run.changes})
    assert sum(len(r.tables) for r in rows) == len(run.changes)
    by_event = sorted(rows, key=lambda r: (r.event, r.seq))
    assert by_event == rows
    back = _round_trip(rows)
    assert sorted(back, key=_order(run)) == run.changes
    # each record ends where the person's state ended at that event
    for r in rows:
        mine = [c for c in run.changes if (c.person, c.event) == (r.person, r.event)]
        assert (r.before, r.shown_before) == (mine[0].before, mine[0].shown_before)
        assert (r.after, r.shown_after, r.spread_after) == (
            mine[-1].after,
            mine[-1].shown_after,
            mine[-1].spread_after,
        )
        assert r.seq == 1 + [(c.person, c.event) for c in run.changes if c.event == r.event].index(
            (r.person, r.event)
        )


def _order(run):
    where = {(c.person, c.event, c.round, c.table): i for i, c in enumerate(run.changes)}
    return lambda c: where[(c.person, c.event, c.round, c.table)]


def test_a_tie_at_a_table_of_four_is_kept():
    t = RatedTable(
        2,
        5,
        (TableResult(1, 20), TableResult(2, -10), TableResult(3, -10), TableResult(4, 0)),
        game_size=30,
    )
    run = rate_events([RatedEvent(9, (t,))], model_for())
    rows = pack(run.tables)
    assert [len(r.tables) for r in rows] == [1, 1, 1, 1]
    entry = dict(zip(TABLE_FIELDS, rows[1].decoded()[0], strict=True))
    assert (entry["round"], entry["table"], entry["place"], entry["size"], entry["tied"]) == (
        2,
        5,
        3,
        4,
        2,
    )
    assert [o[0] for o in entry["opponents"]] == [1, 3, 4]
    assert sorted(_round_trip(rows), key=_order(run)) == run.changes


@pytest.mark.parametrize("key", ["weng-lin", "prefko"])
def test_from_a_stored_state_the_records_round_trip_too(key):
    events = _season(5, events=6)
    head = rate_events(events[:3], model_for(key))
    tail = rate_events(events[3:], model_for(key), head.states)
    start = {p: s.last_event for p, s in head.states.items()}
    assert sorted(_round_trip(pack(tail.tables), start), key=_order(tail)) == tail.changes
