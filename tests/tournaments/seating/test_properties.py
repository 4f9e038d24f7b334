"""Invariants of every draw, over generated fields, histories and constraints."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    Constraints,
    Entry,
    Method,
    PastTable,
    TablePolicy,
    draw_round,
    table_sizes,
)


@st.composite
def events(draw):
    n = draw(st.integers(min_value=9, max_value=40))
    gone = draw(st.sets(st.integers(0, n - 1), max_size=3))  # withdrawals after round 1
    late = draw(st.integers(0, 3))  # late entries
    present = [i for i in range(n) if i not in gone] + [1000 + k for k in range(late)]
    if len(present) == 5:
        present.append(2000)
    method = draw(st.sampled_from(list(Method)))
    policy = draw(st.sampled_from([TablePolicy.MIXED, TablePolicy.MIXED_PREFER_FOURS]))
    tables = len(table_sizes(len(present), policy))
    must_sit = draw(st.dictionaries(st.sampled_from(present), st.integers(1, tables), max_size=2))
    if len(set(must_sit.values())) < len(must_sit):
        must_sit = dict(list(must_sit.items())[:1])
    apart = draw(
        st.lists(st.tuples(st.sampled_from(present), st.sampled_from(present)), max_size=3)
    )
    pairs = frozenset(frozenset(p) for p in apart if p[0] != p[1] and not ({*p} <= must_sit.keys()))
    seed = draw(st.text(max_size=8))
    return n, present, method, policy, Constraints(must_sit=must_sit, must_not_meet=pairs), seed


@settings(max_examples=25, deadline=None)
@given(events())
def test_every_draw_is_a_valid_seating(event):
    n, present, method, policy, rules, seed = event
    entries = [Entry(x) for x in present]
    first = draw_round([Entry(i) for i in range(n)], seed=seed, method=Method.RANDOM, policy=policy)
    history = [PastTable(1, t.seats, t.first_dealer) for t in first.tables]
    kw = {"standings": {x: x % 5 for x in present}} if method is Method.SWISS else {}
    if method is Method.SCHEDULE:
        kw["rounds_total"] = 3
    d = draw_round(
        entries, history, seed=seed, method=method, policy=policy, constraints=rules, **kw
    )
    assert sorted(x for t in d.tables for x in t.seats) == sorted(present)
    assert tuple(len(t.seats) for t in d.tables) == table_sizes(len(present), policy)
    for t in d.tables:
        assert 0 <= t.first_dealer < len(t.seats)
        for pair in rules.must_not_meet:
            assert not pair <= set(t.seats)
    where = {x: t.number for t in d.tables for x in t.seats}
    assert all(where[x] == number for x, number in rules.must_sit.items())
    assert set(d.report.players) == set(present)
    again = draw_round(
        entries, history, seed=seed, method=method, policy=policy, constraints=rules, **kw
    )
    assert again == d
