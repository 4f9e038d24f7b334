"""The standings recomputation: service and Celery task (tasks eager here; a real worker in
test_worker.py). 001 §4.1.3: the sum of whists over approved protocols."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest
from django.db import transaction

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.jobs.result_tasks import standings_recompute as recompute_task
from tournaments.models import EventPenalty, Protocol, ProtocolStats, StandingsSnapshot
from tournaments.selectors.standings import standings_view
from tournaments.services.standings import standings_recompute, standings_schedule

pytestmark = pytest.mark.django_db


def expected_totals(event, *, approved_only=True):
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for p in Protocol.objects.filter(table__round__event=event):
        if p.approved or not approved_only:
            for r in p.result:
                totals[r["entry"]] += Fraction(r["whists"])
    return totals


@pytest.fixture
def played():
    event, entries = make_event(players=10)
    rng = random.Random(7)
    for n in (1, 2, 3):
        play_round(event, entries, n, rng=rng, approve=n < 3)
    return event, entries


def test_schedule_runs_the_job_after_commit_and_totals_sum_approved_whists(
    played, django_capture_on_commit_callbacks
):
    event, entries = played
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            standings_schedule(event_id=event.pk)
        assert StandingsSnapshot.objects.get(event=event).data == {}  # not before the commit
    assert len(callbacks) == 1
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.status == "ok" and snapshot.computed == snapshot.requested == 1
    assert not snapshot.pending and snapshot.computed_at is not None
    totals = expected_totals(event)
    rows = snapshot.data["rows"]
    assert len(rows) == 10
    for row in rows:
        assert Fraction(str(row["total"])) == totals[row["entry"]]
        assert row["rounds_played"] == 2
        assert row["rounds"]["3"]["final"] is False  # round 3: provisional, shown
    assert [r["total"] for r in rows] == sorted((r["total"] for r in rows), reverse=True)
    assert sum(Fraction(str(r["total"])) for r in rows) == 0  # every pulka is zero-sum


def test_recompute_is_idempotent(played):
    event, _ = played
    first = standings_recompute(event_id=event.pk)
    second = standings_recompute(event_id=event.pk)
    assert second.data == first.data and second.inputs_hash == first.inputs_hash
    assert [r["outcome"] for r in second.runs] == ["computed", "unchanged"]


def test_approving_a_protocol_moves_it_from_provisional_to_final(
    played, django_capture_on_commit_callbacks
):
    event, _ = played
    standings_recompute(event_id=event.pk)
    Protocol.objects.filter(table__round__number=3).update(approved=True)
    with django_capture_on_commit_callbacks(execute=True):
        standings_schedule(event_id=event.pk)
    snapshot = StandingsSnapshot.objects.get(event=event)
    totals = expected_totals(event)
    assert all(r["rounds_played"] == 3 and not r["has_provisional"] for r in snapshot.data["rows"])
    assert {r["entry"]: Fraction(str(r["total"])) for r in snapshot.data["rows"]} == dict(totals)


def test_event_penalties_are_deducted(played):
    event, entries = played
    EventPenalty.objects.create(
        event=event,
        entry=entries[0],
        kind="fixed_whists",
        whists=-40,
        rule="4.2.7",
        reason="false entry",
    )
    EventPenalty.objects.create(
        event=event,
        entry=entries[0],
        kind="fixed_whists",
        whists=-99,
        reason="reversed on appeal",
        active=False,
    )
    snapshot = standings_recompute(event_id=event.pk)
    row = next(r for r in snapshot.data["rows"] if r["entry"] == entries[0].pk)
    assert Fraction(str(row["total"])) == expected_totals(event)[entries[0].pk] - 40
    assert snapshot.data["adjustments"][0]["rule"] == "4.2.7"


def test_tiebreak_columns_and_deal_statistics_come_from_the_protocols(played):
    event, entries = played
    event.tiebreaks = ["raspasy_won", "remizes", "head_to_head"]
    event.save()
    snapshot = standings_recompute(event_id=event.pk)
    assert [c["key"] for c in snapshot.data["columns"]] == [
        "total",
        "raspasy_won",
        "remizes",
        "head_to_head",
    ]
    # the counters equal those of the stored pulkas of the approved rounds
    from scoring.russian.jsonio import from_dict
    from scoring.russian.stats import deal_stats

    won: dict[int, int] = defaultdict(int)
    for p in Protocol.objects.filter(table__round__event=event, approved=True):
        for r, s in zip(p.result, deal_stats(from_dict(p.data)[0]), strict=True):
            won[r["entry"]] += s["raspasy_won"]
    assert {r["entry"]: r["metrics"]["raspasy_won"] for r in snapshot.data["rows"]} == {
        e.pk: won[e.pk] for e in entries
    }
    # each protocol version's results and statistics are stored once, as a row of their own
    assert ProtocolStats.objects.filter(protocol__table__round__event=event).count() == (
        Protocol.objects.filter(table__round__event=event).count()
    )


def test_a_bad_tiebreak_chain_fails_visibly_and_keeps_the_last_good_standings(played):
    event, _ = played
    good = standings_recompute(event_id=event.pk)
    event.tiebreaks = ["most_luck"]
    event.save()
    with pytest.raises(ValueError, match="most_luck"):
        recompute_task.delay(event.pk)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.status == "failed" and "most_luck" in snapshot.error
    assert snapshot.data == good.data  # the organiser's pages still show the last standings
    assert snapshot.runs[-1]["outcome"].startswith("failed")
    view = standings_view(event=event)
    assert view["snapshot"].status == "failed" and len(view["rows"]) == 10


def test_selector_reads_in_a_fixed_number_of_queries(played, django_assert_max_num_queries):
    event, entries = played
    standings_recompute(event_id=event.pk)
    from tournaments.selectors.standings_inputs import standings_inputs

    stats = {str(pid): data for pid, data in ProtocolStats.objects.values_list("protocol", "data")}
    with django_assert_max_num_queries(7):
        standings_inputs(event=event, stats_cache=stats)


def test_scores_for_a_swiss_draw_come_from_the_stored_standings(played):
    from tournaments.selectors.standings import scores_for_draw

    event, entries = played
    assert scores_for_draw(event=event) == {}
    standings_recompute(event_id=event.pk)
    totals = expected_totals(event)
    assert scores_for_draw(event=event) == {e.pk: float(totals[e.pk]) for e in entries}


def test_results_read_the_same_on_postgresql_and_elsewhere(played, monkeypatch):
    from django.db import connection

    from tournaments.selectors.standings_inputs import _results

    ids = list(Protocol.objects.values_list("id", flat=True))
    on_postgres = _results(ids=ids)
    monkeypatch.setattr(connection, "vendor", "sqlite")  # the embedded default's reading
    assert _results(ids=ids) == on_postgres
    first = Protocol.objects.get(pk=ids[0])
    assert on_postgres[ids[0]] == [(r["seat"], r["entry"], r["whists"]) for r in first.result]
