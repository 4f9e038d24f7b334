"""A series' table from its events' stored standings, recomputed by a job (issue 39): the
evenings of a league, an event added, removed or reopened, provisional → final, a person merged
mid-season, the jobs merged like the events' standings jobs, the organiser's errors."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.errors import UserFacingError
from tournaments.jobs import outbox as jobs
from tournaments.models import (
    Entry,
    Job,
    Organisation,
    Person,
    PersonLogEntry,
    Round,
    SeriesStandingsRow,
    SeriesStandingsSnapshot,
)
from tournaments.selectors.series import series_inputs, series_table
from tournaments.selectors.standings import snapshot_data
from tournaments.services import series as service
from tournaments.services.persons import person_merge, person_update
from tournaments.services.standings import standings_recompute, standings_schedule
from tournaments.standings.series import (
    EventPlace,
    SeriesEventResult,
    compute_series_standings,
    rules_from_fields,
)

pytestmark = pytest.mark.django_db

PLAYERS = 9


@pytest.fixture
def persons():
    return [Person.objects.create(name=f"Igrač {i}", club=f"Klub {i % 3}") for i in range(PLAYERS)]


@pytest.fixture
def league():
    return Organisation.objects.create(slug="mpl", name="Međimurska liga", kind="league")


def evening(n, persons, *, closed=True, rounds=2, seed=None):
    """A league evening of the persons (in order), its rounds played and, when ``closed``,
    every round closed; its standings computed."""
    event, entries = make_event(players=len(persons), slug=f"vecer-{n}", rounds_planned=rounds)
    for entry, person in zip(entries, persons, strict=True):
        Entry.objects.filter(pk=entry.pk).update(person=person)
    rng = random.Random(seed if seed is not None else n)
    for r in range(1, rounds + 1):
        play_round(event, entries, r, rng=rng)
    if not closed:
        Round.objects.filter(event=event, number=rounds).update(state=Round.State.IN_PLAY)
    standings_recompute(event_id=event.pk)
    return event


def make_series(league, events, **rules):
    series = service.series_create(
        organisation=league, slug="liga", name="Liga 2026/27", family="russian", **rules
    )
    for event in events:
        service.series_event_add(series=series, event=event)
    service.series_standings_recompute(series_id=series.pk)
    return series


def expected_table(events, rules, weights=None):
    """The table computed straight from each event's stored rows (place by entry, the entry's
    person): an independent path to the one the service takes."""
    results = []
    for event in events:
        data = snapshot_data(event.standings_snapshot)
        person_of = dict(Entry.objects.filter(event=event).values_list("pk", "person_id"))
        places = tuple(
            EventPlace(person_of[row["entry"]], row["place"])
            for row in data["rows"]
            if row["rounds_played"]
        )
        closed = not event.rounds.exclude(state=Round.State.CLOSED).exists()
        weight = Fraction((weights or {}).get(event.pk, 1))
        results.append(SeriesEventResult(event.pk, places, closed, weight))
    return compute_series_standings(results, rules)


def stored_rows(series):
    data = SeriesStandingsSnapshot.objects.get(series=series).data
    return [(r["person"], r["place_label"], r["total"]) for r in data["rows"]]


def rows_of(standings):
    data = standings.as_json()
    return [(r["person"], r["place_label"], r["total"]) for r in data["rows"]]


def test_the_league_table_adds_up_the_evenings_place_points(league, persons):
    events = [evening(n, persons) for n in (1, 2, 3)]
    series = make_series(league, events)
    rules = rules_from_fields(
        points="place_points", place_points=[], best_of=None, min_events=1, tiebreaks=None
    )
    assert stored_rows(series) == rows_of(expected_table(events, rules))
    table = series_table(series=series)
    assert table["final"] and not table["pending"]
    assert [e["slug"] for e in table["events"]] == ["vecer-1", "vecer-2", "vecer-3"]
    first = table["rows"][0]
    assert first["name"].startswith("Igrač") and len(first["cells"]) == 3
    assert all(cell["counted"] for cell in first["cells"])
    # 25 + 20 + 16 + … shared among 9 players of each evening
    assert sum(Fraction(str(r["total"])) for r in table["rows"]) == 3 * (
        25 + 20 + 16 + 13 + 11 + 10 + 9 + 8 + 7
    )


def test_best_n_a_weight_and_the_minimum_events(league, persons):
    events = [evening(1, persons), evening(2, persons[:6]), evening(3, persons)]
    series = make_series(league, events, best_of=2, min_events=3, place_points=[10, 6, 3, 1])
    service.series_event_add(series=series, event=events[2], category="A", weight="1.5")
    service.series_standings_recompute(series_id=series.pk)
    rules = rules_from_fields(
        points="place_points", place_points=[10, 6, 3, 1], best_of=2, min_events=3, tiebreaks=None
    )
    expected = expected_table(events, rules, weights={events[2].pk: "1.5"})
    assert stored_rows(series) == rows_of(expected)
    data = SeriesStandingsSnapshot.objects.get(series=series).data
    unranked = {r["person"] for r in data["rows"] if r["place"] is None}
    assert unranked == {p.pk for p in persons[6:]}  # two evenings of three
    assert data["event_info"][str(events[2].pk)]["category"] == "A"
    for row in data["rows"]:
        counted = sum(c[2] for c in row["cells"] if c is not None)
        assert counted == min(2, row["events_played"])


def test_provisional_while_an_evening_runs_final_once_it_closes(league, persons):
    played = evening(1, persons)
    running = evening(2, persons, closed=False)
    series = make_series(league, [played, running])
    assert not series_table(series=series)["final"]
    Round.objects.filter(event=running).update(state=Round.State.CLOSED)
    standings_recompute(event_id=running.pk)  # its round states changed: new standings
    service.series_standings_recompute(series_id=series.pk)
    assert series_table(series=series)["final"]


def test_the_round_closed_by_the_service_makes_the_series_final(
    league, persons, django_capture_on_commit_callbacks
):
    """Closing the round through its service asks for the standings (they hold the rounds'
    states), whose new version asks for the series: final without anyone recomputing by hand
    (the jobs run eagerly after the commit, as on a server without a broker)."""
    from tournaments.services.round_states import round_close

    played = evening(1, persons)
    running = evening(2, persons, closed=False)
    series = make_series(league, [played, running])
    assert not series_table(series=series)["final"]
    # the jobs asked for above wait for a commit this test never makes: as if they had run
    Job.objects.filter(state=Job.State.QUEUED).delete()
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round_=running.rounds.get(number=2))
    assert series_table(series=series)["final"]


def test_an_evening_scheduled_but_not_played_keeps_the_table_provisional(league, persons):
    played = evening(1, persons)
    scheduled, _entries = make_event(players=0, slug="vecer-4")
    series = make_series(league, [played, scheduled])
    table = series_table(series=series)
    assert not table["final"]
    assert table["events"][1]["players"] == 0


def test_an_event_added_and_removed(league, persons):
    one, two = evening(1, persons), evening(2, persons[:3] + [Person.objects.create(name="Gost")])
    series = make_series(league, [one])
    before = stored_rows(series)
    service.series_event_add(series=series, event=two)
    service.series_standings_recompute(series_id=series.pk)
    assert len(stored_rows(series)) == PLAYERS + 1
    service.series_event_remove(series=series, event=two)
    service.series_standings_recompute(series_id=series.pk)
    assert stored_rows(series) == before
    with pytest.raises(UserFacingError) as error:
        service.series_event_remove(series=series, event=two)
    assert error.value.extra == {"field": "event"}


def test_a_person_merged_mid_season_equals_a_recomputation(league, persons):
    # Igrač 0 registered again without his record at the second evening: two persons
    again = Person.objects.create(name="Igrač 0")
    one = evening(1, persons)
    two = evening(2, [again, *persons[1:]])
    series = make_series(league, [one, two])
    assert len(stored_rows(series)) == PLAYERS + 1
    person_merge(keep=persons[0], drop=again)
    service.series_standings_recompute(series_id=series.pk)
    assert not Person.objects.filter(pk=again.pk).exists()
    rules = rules_from_fields(
        points="place_points", place_points=[], best_of=None, min_events=1, tiebreaks=None
    )
    assert stored_rows(series) == rows_of(expected_table([one, two], rules))
    merged = next(r for r in series_table(series=series)["rows"] if r["person"] == persons[0].pk)
    assert merged["events_played"] == 2
    log = PersonLogEntry.objects.get(person=persons[0], action="person.merged")
    assert log.data["merged"]["id"] == again.pk and log.data["events"] == [two.pk]
    assert one.audit_log.filter(action="person.merged").count() == 0
    assert two.audit_log.filter(action="person.merged").count() == 1


def test_two_persons_of_one_event_cannot_be_merged(persons):
    event = evening(1, persons)
    with pytest.raises(UserFacingError, match=event.name):
        person_merge(keep=persons[0], drop=persons[1])
    with pytest.raises(UserFacingError):
        person_merge(keep=persons[0], drop=persons[0])


def test_an_events_new_standings_schedule_its_series_in_one_merged_job(
    league, persons, django_capture_on_commit_callbacks
):
    one, two = evening(1, persons), evening(2, persons)
    series = make_series(league, [one, two])
    other = service.series_create(organisation=league, slug="kup", name="Kup", family="russian")
    service.series_event_add(series=other, event=one)
    Job.objects.filter(task=service.TASK).delete()
    Round.objects.filter(event=one, number=2).update(state=Round.State.IN_PLAY)  # reopened
    standings_recompute(event_id=one.pk)
    standings_recompute(event_id=one.pk)  # unchanged: nothing more asked
    service.series_schedule(series_id=series.pk)
    waiting = Job.objects.filter(task=service.TASK)
    assert sorted(waiting.values_list("key", flat=True)) == sorted(
        [f"series:{other.pk}", f"series:{series.pk}"]
    )  # one job per series for three requests
    with django_capture_on_commit_callbacks(execute=True):
        for job in waiting:
            jobs.job_send(job=job)
    assert set(Job.objects.filter(task=service.TASK).values_list("state", flat=True)) == {"done"}
    assert not series_table(series=series)["final"]  # the reopened evening
    snapshot = SeriesStandingsSnapshot.objects.get(series=series)
    assert snapshot.computed == snapshot.requested and snapshot.status == "ok"


def test_the_job_runs_after_the_events_standings_job(
    league, persons, django_capture_on_commit_callbacks
):
    one = evening(1, persons)
    series = make_series(league, [one])
    Job.objects.filter(task=service.TASK).delete()  # sent after the commits of its making
    Round.objects.filter(event=one, number=2).update(state=Round.State.IN_PLAY)
    with django_capture_on_commit_callbacks(execute=True):
        standings_schedule(event_id=one.pk)  # the event's job, then the series' job it asks for
    assert Job.objects.get(task=service.TASK).state == "done"
    assert not series_table(series=series)["final"]


def test_an_unchanged_recomputation_stores_nothing_new(league, persons):
    series = make_series(league, [evening(1, persons)])
    snapshot = SeriesStandingsSnapshot.objects.get(series=series)
    digest = series_inputs(series=series).digest
    assert snapshot.inputs_hash == digest
    service.series_standings_recompute(series_id=series.pk)
    assert SeriesStandingsSnapshot.objects.get(series=series).data == snapshot.data


def test_the_table_is_stored_in_parts_and_a_change_writes_only_the_rows_it_changes(league, persons):
    """After one evening changed (reopened: its cells are provisional again), only the rows of
    its persons are written again (the others keep their stored rows); the table stored equals
    a recomputation, and the pages read the rows they show only."""
    events = [evening(1, persons), evening(2, persons), evening(3, persons[:6])]
    series = make_series(league, events)
    snapshot = SeriesStandingsSnapshot.objects.get(series=series)
    assert "rows" not in snapshot.head and len(snapshot.head["order"]) == PLAYERS
    before = dict(
        SeriesStandingsRow.objects.filter(snapshot=snapshot).values_list("person_id", "pk")
    )
    assert set(before) == {p.pk for p in persons}
    Round.objects.filter(event=events[2], number=2).update(state=Round.State.IN_PLAY)
    standings_recompute(event_id=events[2].pk)
    service.series_standings_recompute(series_id=series.pk)
    after = dict(
        SeriesStandingsRow.objects.filter(snapshot=snapshot).values_list("person_id", "pk")
    )
    kept = {p for p in after if after[p] == before[p]}
    assert kept == {p.pk for p in persons[6:]}  # they did not play the changed evening
    rules = rules_from_fields(
        points="place_points", place_points=[], best_of=None, min_events=1, tiebreaks=None
    )
    expected = expected_table(events, rules).as_json()
    data = SeriesStandingsSnapshot.objects.get(series=series).data
    assert data["rows"] == expected["rows"] and data["final"] is False
    # a page of the table reads its own rows only
    page = series_table(series=series, page=(2, 4))
    assert page["page"] == 2 and page["row_count"] == PLAYERS
    assert [r["person"] for r in page["rows"]] == [r["person"] for r in expected["rows"][4:8]]
    assert page["rows"][0]["cells"][1] is not None and len(page["rows"][0]["cells"]) == 3
    assert series_table(series=series, page=(99, 4))["page"] == 3  # the last page


def test_a_table_stored_before_the_parts_is_read_until_recomputed(league, persons):
    series = make_series(league, [evening(1, persons)])
    snapshot = SeriesStandingsSnapshot.objects.get(series=series)
    whole = snapshot.data
    SeriesStandingsRow.objects.filter(snapshot=snapshot).delete()
    SeriesStandingsSnapshot.objects.filter(pk=snapshot.pk).update(
        head={**whole, "version": 2}, inputs_hash=""
    )
    table = series_table(series=series)
    assert [r["person"] for r in table["rows"]] == [r["person"] for r in whole["rows"]]
    service.series_standings_recompute(series_id=series.pk)  # the parts written again
    snapshot = SeriesStandingsSnapshot.objects.get(series=series)
    assert snapshot.head["version"] == 3 and snapshot.data["rows"] == whole["rows"]
    assert SeriesStandingsRow.objects.filter(snapshot=snapshot).count() == PLAYERS


def test_the_persons_shown_by_initials(league, persons):
    series = make_series(league, [evening(1, persons)])
    person_update(person=persons[0], shown_as="initials")
    # the table reads the names as it shows them: no recomputation needed
    row = next(r for r in series_table(series=series)["rows"] if r["person"] == persons[0].pk)
    assert row["name"] == "I. 0."
    with pytest.raises(UserFacingError) as error:
        person_update(person=persons[0], shown_as="nickname")
    assert error.value.extra == {"field": "shown_as"}


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"place_points": [1, 5]}, "place_points"),
        ({"place_points": ["x"]}, "place_points"),
        ({"best_of": 0}, "best_of"),
        ({"tiebreaks": ["remizes"]}, "tiebreaks"),
        ({"family": "bridge"}, "family"),
        ({"name": " "}, "name"),
    ],
)
def test_a_series_that_cannot_be_made_names_its_field(league, rules, field):
    fields = {"slug": "s", "name": "Liga", "family": "russian", **rules}
    with pytest.raises(UserFacingError) as error:
        service.series_create(organisation=league, **fields)
    assert error.value.extra == {"field": field}


def test_an_event_of_another_family_is_refused(league):
    series = service.series_create(organisation=league, slug="s", name="Liga", family="balkan")
    event, _entries = make_event(players=0, slug="ru")
    with pytest.raises(UserFacingError) as error:
        service.series_event_add(series=series, event=event)
    assert error.value.extra == {"field": "event"}
    with pytest.raises(UserFacingError) as error:
        service.series_event_add(
            series=service.series_create(
                organisation=league, slug="t", name="Kup", family="russian"
            ),
            event=event,
            weight="-1",
        )
    assert error.value.extra == {"field": "weight"}
