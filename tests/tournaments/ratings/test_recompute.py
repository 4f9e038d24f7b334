"""Ratings stored by their job (services.ratings, issue 41): the family's own rating made on the
first request, from scratch and incremental alike (two recomputations equal), a correction of an
approved protocol re-rating that event and the later ones only, an event marked unrated (and
logged), prefko's formula for a Balkan rating, a provisional protocol changing nothing."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from tests.tournaments.ratings.factories import make_event, make_persons, play_event
from tournaments.errors import UserFacingError
from tournaments.jobs import outbox as jobs
from tournaments.models import (
    AuditLogEntry,
    Job,
    PersonEventRating,
    PersonRating,
    Protocol,
    RatingList,
)
from tournaments.ratings import RatedEvent, model_for, rate_events
from tournaments.selectors.ratings import (
    event_changes,
    person_history,
    rated_events,
    rated_inputs,
    stored_changes,
)
from tournaments.services import ratings as service

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 1)


@pytest.fixture
def season():
    """Three evenings of 10 of 12 persons, 3 rounds each, a week apart (Croatian rules)."""
    persons = make_persons(12)
    rng = random.Random(41)
    events = []
    for n in range(3):
        field = rng.sample(persons, 10)
        event, entries = make_event(field, slug=f"vecer-{n}", day=DAY + dt.timedelta(days=7 * n))
        play_event(entries, event, rounds=3, rng=rng)
        events.append(event)
    return persons, events


def _in_order(changes):
    """Changes in the order rated: by event, round, table (a person once a table)."""
    order = {e: i for i, e in enumerate(dict.fromkeys(c.event for c in changes))}
    return sorted(changes, key=lambda c: (order[c.event], c.round, c.table, c.person))


def _stored(rating):
    changes = [
        (
            c.person, c.event, c.round, c.table, c.place, c.after.mu, c.after.sigma,
            c.shown_before, c.shown_after, c.parts, c.opponents,
        )
        for c in _in_order(stored_changes(rating_list=rating))
    ]  # fmt: skip
    ratings = sorted(
        PersonRating.objects.filter(rating_list=rating).values_list(
            "person_id", "mu", "sigma", "shown", "tables", "provisional", "last_event_id"
        )
    )
    return changes, ratings


def _family_rating(event):
    service.ratings_schedule_for_event(event_id=event.pk)
    rating = RatingList.objects.get(family="balkan", organisation=None, series=None)
    return service.ratings_recompute(list_id=rating.pk)


def _pure(rating):
    """The same rating computed by the pure code from what the selector reads."""
    keys = rated_events(rating_list=rating)
    return rate_events([i.rated for i in rated_inputs(keys=keys)], model_for(rating.model))


def test_the_familys_rating_is_made_on_the_first_request_and_matches_the_pure_code(season):
    _persons, events = season
    rating = _family_rating(events[0])
    assert (rating.slug, rating.model, rating.status) == ("balkan", "weng-lin", "ok")
    assert rating.spec == model_for().spec()
    run = _pure(rating)
    changes, ratings = _stored(rating)
    assert len(changes) == len(run.changes) == 3 * 3 * 10
    assert [(c[0], c[1], c[8]) for c in changes] == [
        (c.person, c.event, pytest.approx(c.shown_after)) for c in _in_order(run.changes)
    ]
    assert {r[0]: r[3] for r in ratings} == pytest.approx(
        {p: model_for().shown(s) for p, s in run.states.items()}
    )
    assert all(r[5] for r in ratings)  # at most 9 tables each: provisional (below 12)


def test_two_recomputations_from_scratch_are_equal(season):
    _persons, events = season
    rating = _family_rating(events[0])
    first = _stored(rating)
    RatingList.objects.filter(pk=rating.pk).update(from_scratch=True)
    service.ratings_recompute(list_id=rating.pk)
    assert _stored(rating) == first


def test_a_correction_re_rates_that_event_and_the_later_ones_only(season):
    _persons, events = season
    rating = _family_rating(events[0])
    before = _stored(rating)[0]
    ids_before = set(PersonEventRating.objects.filter(event=events[0]).values_list("pk", flat=True))
    # the referee corrects round 2, table 1 of the second evening: a new approved version
    old = Protocol.objects.get(
        table__round__event=events[1], table__round__number=2, table__number=1
    )
    Protocol.objects.filter(pk=old.pk).update(approved=False, is_current=False)
    Protocol.objects.create(
        table=old.table, version=2, data={}, approved=True, is_current=True,
        result=[{**r, "whists": str(-float(r["whists"]) + 1)} for r in old.result],
    )  # fmt: skip
    service.ratings_schedule_for_event(event_id=events[1].pk)
    service.ratings_recompute(list_id=rating.pk)
    after = _stored(rating)
    # the first evening's changes are the same rows, untouched
    assert (
        set(PersonEventRating.objects.filter(event=events[0]).values_list("pk", flat=True))
        == ids_before
    )
    first = [c for c in before if c[1] == events[0].pk]
    assert [c for c in after[0] if c[1] == events[0].pk] == first
    assert [c for c in after[0] if c[1] != events[0].pk] != [
        c for c in before if c[1] != events[0].pk
    ]
    # and the incremental result is what a recomputation from scratch gives
    RatingList.objects.filter(pk=rating.pk).update(from_scratch=True)
    service.ratings_recompute(list_id=rating.pk)
    assert _stored(rating) == after


def test_an_unrated_event_is_left_out_and_logged(season, django_user_model):
    _persons, events = season
    rating = _family_rating(events[0])
    organiser = django_user_model.objects.create_user("org", password="x")
    service.event_mark_unrated(event=events[1], by=organiser, reason="friendly evening")
    service.ratings_recompute(list_id=rating.pk)
    assert not PersonEventRating.objects.filter(event=events[1]).exists()
    assert len([c for c in stored_changes(rating_list=rating) if c.event == events[2].pk]) == 30
    log = AuditLogEntry.objects.get(event=events[1], action="event.unrated")
    assert (log.user, log.reason) == (organiser, "friendly evening")
    run = _pure(rating)
    assert {c.event for c in run.changes} == {events[0].pk, events[2].pk}
    stored = dict(PersonRating.objects.filter(rating_list=rating).values_list("person_id", "mu"))
    assert stored == pytest.approx({p: s.mu for p, s in run.states.items()})
    # rated again: as before
    service.event_mark_rated(event=events[1], by=organiser)
    service.ratings_recompute(list_id=rating.pk)
    assert len([c for c in stored_changes(rating_list=rating) if c.event == events[1].pk]) == 30
    assert AuditLogEntry.objects.filter(event=events[1], action="event.rated").count() == 1


def test_a_provisional_protocol_changes_nothing(season):
    _persons, events = season
    rating = _family_rating(events[0])
    ids = sorted(PersonEventRating.objects.values_list("pk", flat=True))
    table = Protocol.objects.filter(table__round__event=events[2]).first().table
    Protocol.objects.filter(table=table).update(is_current=False)  # still the approved one
    Protocol.objects.create(table=table, version=2, data={}, approved=False, result=[])
    service.ratings_schedule_for_event(event_id=events[2].pk)
    service.ratings_recompute(list_id=rating.pk)
    assert sorted(PersonEventRating.objects.values_list("pk", flat=True)) == ids


def test_prefkos_formula_for_a_balkan_rating(season):
    _persons, events = season
    rating = service.rating_list_create(
        slug="prefko", name="prefko", family="balkan", model="prefko"
    )
    rating = service.ratings_recompute(list_id=rating.pk)
    run = _pure(rating)
    shown = dict(PersonRating.objects.filter(rating_list=rating).values_list("person_id", "shown"))
    assert shown == {p: s.mu for p, s in run.states.items()}
    assert all(float(v).is_integer() for v in shown.values())
    assert rating.spec["model"] == "prefko"


def test_the_jobs_of_a_burst_are_merged(season, django_capture_on_commit_callbacks):
    _persons, events = season
    with django_capture_on_commit_callbacks(execute=False):
        for e in events:
            service.ratings_schedule_for_event(event_id=e.pk)
    rating = RatingList.objects.get(slug="balkan")
    assert Job.objects.filter(task=service.TASK, key=f"rating:{rating.pk}").count() == 1
    assert (rating.dirty_date, rating.dirty_event) == (events[0].starts_on, events[0].pk)
    assert rating.requested == 3
    assert jobs is not None


def test_bad_rating_lists_are_refused_naming_the_field(season):
    with pytest.raises(UserFacingError) as found:
        service.rating_list_create(slug="x", name="X", family="bridge")
    assert "bridge" in str(found.value)
    with pytest.raises(UserFacingError, match="elo"):
        service.rating_list_create(slug="x", name="X", family="balkan", model="elo")
    with pytest.raises(UserFacingError, match="russian is taken"):  # a family's own list's
        service.rating_list_create(slug="russian", name="X", family="balkan", model="prefko")


def test_the_rated_data_of_an_event(season):
    _persons, events = season
    rating = _family_rating(events[0])
    (first, *_rest) = rated_inputs(keys=rated_events(rating_list=rating))
    assert isinstance(first.rated, RatedEvent)
    assert len(first.rated.tables) == 9  # 3 rounds × 3 tables (10 players: 4 + 3 + 3)
    assert {len(t.results) for t in first.rated.tables} == {3, 4}
    assert all(t.game_size == 30 for t in first.rated.tables)


def test_the_stored_records_round_trip_to_the_pure_runs_changes(season):
    """One record per person and event (15,000 for a season of 135,000 changes): read back,
    every change is the one the pure code makes, exactly (floats, parts, opponents)."""
    _persons, events = season
    rating = _family_rating(events[0])
    run = _pure(rating)
    records = PersonEventRating.objects.filter(rating_list=rating)
    assert records.count() == len({(c.person, c.event) for c in run.changes}) == 3 * 10
    assert _in_order(stored_changes(rating_list=rating)) == _in_order(run.changes)
    # incremental (a correction of the last evening) as from scratch
    service.ratings_schedule_for_event(event_id=events[2].pk)
    RatingList.objects.filter(pk=rating.pk).update(event_digests={})
    service.ratings_recompute(list_id=rating.pk)
    assert _in_order(stored_changes(rating_list=rating)) == _in_order(run.changes)


def test_the_pages_read_the_numbers_of_the_pure_run(season):
    """A person's history (the page, the API) and an event's changes read the numbers the
    pure code made: each change's rating before and after it, its ±, his tables, the parts
    (adding up to the change) and the opponents as they stood."""
    persons, events = season
    rating = _family_rating(events[0])
    run = _pure(rating)
    for person in persons:
        mine = run.history(person.pk)
        shown = person_history(rating_list=rating, person=person)["changes"]
        assert [
            (c["event"], c["round"], c["table"], c["place"], c["size"], c["tied"]) for c in shown
        ] == [(c.event, c.round, c.table, c.place, c.size, c.tied) for c in mine]
        assert [
            (c["before"], c["after"], c["change"], c["spread"], c["tables"]) for c in shown
        ] == [
            (c.shown_before, c.shown_after, c.change, c.spread_after, c.after.tables) for c in mine
        ]
        assert [c["parts"] for c in shown] == [[list(p) for p in c.parts] for c in mine]
        assert [c["opponents"] for c in shown] == [
            [[o.person, o.shown, o.spread, o.place] for o in c.opponents] for c in mine
        ]
        for c in shown:
            assert sum(p[1] for p in c["parts"]) == pytest.approx(c["change"], abs=1e-9)
    for event in events:
        rows = {r["person"]: r for r in event_changes(rating_list=rating, event=event)}
        for person, row in rows.items():
            mine = [c for c in run.history(person) if c.event == event.pk]
            assert (row["before"], row["after"], row["spread"], row["tables"]) == (
                mine[0].shown_before,
                mine[-1].shown_after,
                mine[-1].spread_after,
                len(mine),
            )
        assert set(rows) == {c.person for c in run.changes if c.event == event.pk}
