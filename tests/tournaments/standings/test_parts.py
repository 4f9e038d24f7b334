"""Standings stored in parts and recomputed table by table (issue 28).

After every change on a generated event (a protocol approved, reopened, replaced by a new
version, taken away; a penalty; the tie-break chain; a round closed) the stored standings, as
the pages read them, equal the reference computation from scratch (``standings_inputs`` and
``compute_standings``); a protocol's change is computed incrementally and writes only the parts
it changes; a full recomputation of the same inputs in a new process writes nothing."""

from __future__ import annotations

import json
import random

import pytest

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import EventPenalty, Protocol, Round, StandingsPart, StandingsSnapshot
from tournaments.selectors.standings_inputs import standings_inputs
from tournaments.services import standings as service
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db


def reference(event) -> dict:
    inputs = standings_inputs(event=event)
    standings = compute_standings(
        inputs.rows, inputs.config, inputs.adjustments, inputs.entries, inputs.no_result
    )
    return json.loads(json.dumps({**standings.as_json(), "meta": inputs.meta}, default=str))


def stored(event) -> dict:
    snapshot = StandingsSnapshot.objects.get(event=event)
    return json.loads(json.dumps(snapshot.data, default=str))


def new_version(protocol: Protocol, rng: random.Random, approved: bool) -> Protocol:
    """A corrected version of a table's protocol: the results moved between the seats."""
    whists = [r["whists"] for r in protocol.result]
    rng.shuffle(whists)
    result = [{**r, "whists": w} for r, w in zip(protocol.result, whists, strict=True)]
    Protocol.objects.filter(table=protocol.table).update(is_current=False, approved=False)
    return Protocol.objects.create(
        table=protocol.table,
        version=protocol.version + 1,
        data=protocol.data,
        result=result,
        is_current=True,
        approved=approved,
    )


@pytest.fixture
def event():
    event, entries = make_event(players=13, tiebreaks=["raspasy_won", "head_to_head"])
    rng = random.Random(29)
    for n in (1, 2, 3):
        play_round(event, entries, n, rng=rng, approve=0.8)
    Round.objects.filter(event=event, number=3).update(state=Round.State.IN_PLAY)
    return event


@pytest.mark.parametrize("seed", range(4))
def test_parts_equal_the_full_computation_after_every_change(event, seed):
    rng = random.Random(seed)
    service._kept.clear()
    first = service.standings_recompute(event_id=event.pk)
    assert first.runs[-1]["mode"] == "full"
    assert stored(event) == reference(event)
    players = StandingsSnapshot.objects.get(event=event).data["rows"]
    for step in range(14):
        current = list(Protocol.objects.filter(table__round__event=event, is_current=True))
        p = rng.choice(current)
        kind = rng.choice(["approve", "reopen", "version", "version", "delete", "global"])
        incremental = True
        if kind == "approve":
            Protocol.objects.filter(pk=p.pk).update(approved=True)
        elif kind == "reopen":
            Protocol.objects.filter(pk=p.pk).update(approved=False)
        elif kind == "version":
            new_version(p, rng, approved=rng.random() < 0.7)
        elif kind == "delete":
            Protocol.objects.filter(table=p.table).delete()  # no result at the table
        else:
            incremental = False
            what = rng.choice(["penalty", "chain", "close"])
            if what == "penalty":
                EventPenalty.objects.create(
                    event=event,
                    entry_id=rng.choice(players)["entry"],
                    kind="fixed_whists",
                    whists=-rng.choice([10, 20]),
                    rule="4.2.7",
                    reason="late",
                )
            elif what == "chain":
                event.tiebreaks = rng.choice(
                    [["head_to_head", "table_wins"], ["remizes"], ["raspasy_won", "head_to_head"]]
                )
                event.save(update_fields=["tiebreaks"])
            else:
                Round.objects.filter(event=event, number=3).update(state=Round.State.CLOSED)
        snapshot = service.standings_recompute(event_id=event.pk)
        run = snapshot.runs[-1]
        assert stored(event) == reference(event), (step, kind)
        if run["outcome"] == "computed":
            assert run["mode"] == ("incremental" if incremental else "full"), (step, kind)
        if incremental and run["outcome"] == "computed":
            # one table: its part, its players' rows (and those a tied group changed), the order
            assert run["written"] < 13, run

    # a new process (nothing kept) computing the same inputs from scratch stores the same parts
    before = dict(StandingsPart.objects.filter(snapshot__event=event).values_list("key", "data"))
    service._kept.clear()
    StandingsSnapshot.objects.filter(event=event).update(inputs_hash="")
    again = service.standings_recompute(event_id=event.pk)
    assert again.runs[-1]["mode"] == "full" and again.runs[-1]["written"] == 0
    after = dict(StandingsPart.objects.filter(snapshot__event=event).values_list("key", "data"))
    assert after == before


def test_another_process_computing_meanwhile_makes_the_next_run_full(event):
    service._kept.clear()
    service.standings_recompute(event_id=event.pk)
    p = Protocol.objects.filter(table__round__event=event, approved=True).first()
    Protocol.objects.filter(pk=p.pk).update(approved=False)
    # another worker computed and stored this change: this process's memory is stale
    kept = service._kept.pop(event.pk)
    service.standings_recompute(event_id=event.pk)
    service._kept[event.pk] = kept
    Protocol.objects.filter(pk=p.pk).update(approved=True)
    snapshot = service.standings_recompute(event_id=event.pk)
    assert snapshot.runs[-1]["mode"] == "full"
    assert stored(event) == reference(event)


def test_a_snapshot_stored_before_the_parts_is_read_until_its_next_recomputation(event):
    service._kept.clear()
    service.standings_recompute(event_id=event.pk)
    whole = stored(event)
    # as migration 0014 leaves a snapshot computed before it: the whole document in the head,
    # no parts, the inputs' hash of the older layout
    StandingsPart.objects.filter(snapshot__event=event).delete()
    StandingsSnapshot.objects.filter(event=event).update(head=whole, inputs_hash="old-layout")
    service._kept.clear()
    assert stored(event) == whole
    snapshot = service.standings_recompute(event_id=event.pk)
    assert snapshot.runs[-1]["mode"] == "full" and stored(event) == whole
    head = StandingsSnapshot.objects.get(event=event).head
    assert "rows" not in head and StandingsPart.objects.filter(snapshot__event=event).exists()


def test_the_embedded_databases_reads_and_writes_store_the_same(event, monkeypatch):
    """The parts' plain-SQL reads and writes have ORM equivalents for the embedded default
    (SQLite): run here with the vendor check pointed at them, they store the same standings."""
    from django.db import connection

    service._kept.clear()
    service._known_facts.clear()
    monkeypatch.setattr(connection, "vendor", "sqlite")
    service.standings_recompute(event_id=event.pk)  # facts computed and stored, parts written
    p = Protocol.objects.filter(table__round__event=event, approved=True).first()
    Protocol.objects.filter(pk=p.pk).update(approved=False)
    assert service.standings_recompute(event_id=event.pk).runs[-1]["mode"] == "incremental"
    service._kept.clear()
    service._known_facts.clear()
    Protocol.objects.filter(pk=p.pk).update(approved=True)
    # a new process: facts from their rows, the stored parts read for the comparison
    assert service.standings_recompute(event_id=event.pk).runs[-1]["mode"] == "full"
    elsewhere = stored(event)
    monkeypatch.undo()
    assert elsewhere == stored(event) == reference(event)
