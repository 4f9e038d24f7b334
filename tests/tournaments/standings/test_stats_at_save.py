"""What the standings read of a protocol version (``ProtocolStats``: its results and deal
statistics) is stored when the version is saved, from the pulka at hand (issue 28): the
standings job then parses no protocol JSON for it, and the standings are those computed from
the JSON."""

from __future__ import annotations

import dataclasses
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.russian.generate import random_protocol
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Protocol, ProtocolStats, Round, StandingsSnapshot
from tournaments.selectors import standings_inputs as selectors
from tournaments.services import standings as service
from tournaments.services.protocols import protocol_rescore, protocol_save

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved(monkeypatch):
    """An event of 10 players whose round's protocols were saved through the protocol service
    and approved; the worker's memory of facts is empty (a new worker)."""
    monkeypatch.setattr(service, "_known_facts", {})
    monkeypatch.setattr(service, "_kept", {})
    event, entries = make_event(players=10, tiebreaks=["raspasy_won", "head_to_head"])
    rng = random.Random(2028)
    round_, tables = play_round(event, entries, 1, rng=rng, protocols=False)
    Round.objects.filter(pk=round_.pk).update(state=Round.State.IN_PLAY)
    versions = []
    for table in tables:
        seats = table.seats.select_related("entry__player").order_by("position")
        game = random_protocol(rng, players=seats.count(), target=event.pulka_target)
        # the draw decides who deals first (issue 38): the saved protocol agrees with it
        game = dataclasses.replace(
            game,
            players=tuple(s.entry.player.name for s in seats),
            first_dealer=table.first_dealer,
        )
        versions.append(protocol_save(table=table, protocol=game, based_on_version=None))
    Protocol.objects.filter(pk__in=[p.pk for p in versions]).update(approved=True)
    return event, versions


def counting(monkeypatch) -> list[object]:
    """The protocols whose JSON the standings parse for their statistics."""
    calls: list[object] = []
    parse = selectors.protocol_stats

    def counted(data):
        calls.append(data)
        return parse(data)

    monkeypatch.setattr(selectors, "protocol_stats", counted)
    return calls


def test_a_saved_version_has_its_facts_equal_to_those_read_from_its_json(saved):
    _event, versions = saved
    stored = dict(
        ProtocolStats.objects.filter(protocol__in=versions).values_list("protocol", "data")
    )
    assert set(stored) == {p.pk for p in versions}
    for p in Protocol.objects.filter(pk__in=stored):
        assert "k" in stored[p.pk] and len(stored[p.pk]["r"]) == len(p.result)
        assert stored[p.pk] == selectors.protocol_facts(p.result, p.data)


def test_the_job_parses_no_protocol_json_for_versions_saved_with_their_facts(saved, monkeypatch):
    event, versions = saved
    parsed = counting(monkeypatch)
    with CaptureQueriesContext(connection) as ctx:
        snapshot = service.standings_recompute(event_id=event.pk)
    assert parsed == []
    assert not [q for q in ctx.captured_queries if '"tournaments_protocol"."data"' in q["sql"]]
    assert snapshot.runs[-1]["outcome"] == "computed"
    computed = snapshot.data

    # the same standings computed from the protocols' JSON (as for versions saved before)
    ProtocolStats.objects.filter(protocol__in=versions).delete()
    monkeypatch.setattr(service, "_known_facts", {})
    monkeypatch.setattr(service, "_kept", {})
    StandingsSnapshot.objects.filter(event=event).update(inputs_hash="")
    again = service.standings_recompute(event_id=event.pk)
    assert len(parsed) == len(versions)  # the job filled the missing rows in
    assert ProtocolStats.objects.filter(protocol__in=versions).count() == len(versions)
    assert again.data == computed
    assert len(computed["rows"]) == 10


def test_a_rescored_version_has_its_facts_too(saved, monkeypatch):
    _event, versions = saved
    table = versions[0].table
    rescored = protocol_rescore(table=table, reason="a ruling withdrawn")
    stored = ProtocolStats.objects.get(protocol=rescored).data
    rescored.refresh_from_db()
    assert stored == selectors.protocol_facts(rescored.result, rescored.data)
