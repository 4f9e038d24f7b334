"""Draws that run as Celery jobs (issue 4: "draws for large events run as Celery jobs with
progress"): the round records its job, its page says a draw is running and offers no second
one, and a job that fails leaves its message on the round, changing nothing else."""

import datetime as dt
import hashlib

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import Entry
from tournaments.services.rounds import (
    draw_in_background,
    draw_job_queue,
    draw_job_running,
    round_create,
)

pytestmark = pytest.mark.django_db


def event_with(players: int, **fields):
    event = EventFactory(**fields)
    for _ in range(players):
        EntryFactory(event=event)
    return event


def test_a_job_draws_the_round_and_clears_itself():
    """Tests run tasks eagerly: the job has run when ``draw_job_queue`` returns."""
    round_ = round_create(event=event_with(9, table_size_policy="3"))
    job = draw_job_queue(round_=round_)
    round_.refresh_from_db()
    assert job and round_.state == "drawn" and round_.tables.count() == 3
    assert round_.draw_job_id == "" and round_.draw_job_error == ""
    assert not draw_job_running(round_)


def test_a_failed_job_keeps_its_message_and_changes_nothing_else():
    round_ = round_create(event=event_with(2))
    with pytest.raises(UserFacingError, match="at least three players"):
        draw_job_queue(round_=round_)
    round_.refresh_from_db()
    assert round_.state == "draft" and round_.tables.count() == 0
    assert "at least three players" in round_.draw_job_error
    assert round_.draw_job_id == ""


def test_no_second_draw_while_one_runs_but_a_stale_job_does_not_block():
    round_ = round_create(event=event_with(9, table_size_policy="3"))
    round_.draw_job_id = "a-job-on-a-worker"
    round_.draw_job_started_at = timezone.now() - dt.timedelta(seconds=30)
    round_.save()
    assert draw_job_running(round_)
    with pytest.raises(UserFacingError, match="already running"):
        draw_job_queue(round_=round_)
    round_.refresh_from_db()
    assert round_.draw_job_id == "a-job-on-a-worker" and round_.state == "draft"
    # a job older than a task may run (CELERY_TASK_TIME_LIMIT): its worker is gone
    round_.draw_job_started_at = timezone.now() - dt.timedelta(hours=1)
    round_.save()
    assert not draw_job_running(round_)
    draw_job_queue(round_=round_)
    round_.refresh_from_db()
    assert round_.state == "drawn" and round_.draw_job_id == ""


def test_the_round_page_shows_a_running_draw_and_refreshes_itself(client):
    round_ = round_create(event=event_with(9, table_size_policy="3"))
    round_.draw_job_id = "a-job-on-a-worker"
    round_.draw_job_started_at = timezone.now()
    round_.save()
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-round", args=[round_.event.slug, 1])
    page = client.get(url).content.decode()
    assert 'id="draw-running"' in page and 'http-equiv="refresh"' in page
    assert "'draw'" not in page and "/draw/" not in page  # no Draw button meanwhile
    russian = client.get("/ru" + url).content.decode()
    assert "Идёт жеребьёвка" in russian
    round_.draw_job_id = ""
    round_.save()
    page = client.get(url).content.decode()
    assert 'id="draw-running"' not in page and 'http-equiv="refresh"' not in page
    assert "/manage/rounds/1/draw/" in page  # the Draw button is back


def test_a_background_draw_that_fails_says_why_on_the_page(client):
    """Two players: the draw must fail (a table needs three), in the job as inline."""
    event = event_with(2)
    assert draw_in_background(event)  # (n − 1) / 2 = 0 rounds: within four of the bound
    round_create(event=event)
    client.force_login(UserFactory(is_superuser=True))
    page = client.post(
        reverse("manage-round-action", args=[event.slug, 1, "draw"]), follow=True
    ).content.decode()
    assert page.count("A draw needs at least three players present.") == 2  # message and box
    assert 'id="draw-failed"' in page
    assert event.rounds.get(number=1).state == "draft"


def test_a_draw_job_that_cannot_reach_the_broker_stays_queued_and_starts_when_it_is_back(
    client,
):
    """No broker (issue 25 item 10): the draw is queued, its page says so and offers no second
    draw; once the broker is back, the sweep sends the job and the round is drawn."""
    from tests.conftest import broker_down
    from tournaments.jobs.outbox import jobs_sweep
    from tournaments.models import Job

    event = event_with(9, table_size_policy="3")
    round_ = round_create(event=event)
    with broker_down():
        job_id = draw_job_queue(round_=round_)
        assert jobs_sweep()["unreachable"] == 0  # too young for the sweep: left alone
        later = timezone.now() + dt.timedelta(seconds=30)
        assert jobs_sweep(now=later)["unreachable"] == 1  # still down: stays queued
    round_.refresh_from_db()
    job = Job.objects.get(task_id=job_id)
    assert round_.draw_job_id == job_id and job.state == "queued" and "broker" in job.error
    assert draw_job_running(round_) and round_.state == "draft"
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert 'id="draw-queued"' in page and 'name="method"' not in page
    with pytest.raises(UserFacingError, match="already running"):
        draw_job_queue(round_=round_)
    # the broker is back (eager here: the sweep's send runs the job)
    assert jobs_sweep(now=timezone.now() + dt.timedelta(seconds=30))["sent"] == 1
    round_.refresh_from_db()
    assert round_.state == "drawn" and round_.tables.count() == 3 and round_.draw_job_id == ""
    assert Job.objects.get(task_id=job_id).state == "done"


# --- progress (issue 4: "draws for large events run as Celery jobs with progress") ---------


def test_a_job_reports_the_engines_progress_and_clears_it_at_the_end():
    """Twelve players at threes over five rounds: no schedule without a repeat exists, so the
    engine goes through every stage (the tabu search, eight more starts, CP-SAT's proof)."""
    from tournaments.services.rounds import draw_job_run

    round_ = round_create(event=event_with(12, table_size_policy="3", rounds_planned=5))
    round_.draw_job_id, round_.draw_job_started_at = "job-1", timezone.now()
    round_.save()
    heard: list[dict] = []
    draw_job_run(round_id=round_.pk, job_id="job-1", on_progress=heard.append)
    stages = [h["stage"] for h in heard]
    assert stages[0] == "design" and stages[-1] == "seating"
    assert {"search", "restart", "exact"} <= set(stages)
    restarts = [h for h in heard if h["stage"] == "restart"]
    assert [h["attempt"] for h in restarts if h["step"] == 0] == list(range(1, 9))
    assert all(h["attempts"] == 8 and h["steps"] > 0 for h in restarts)
    assert all(dt.datetime.fromisoformat(h["at"]) for h in heard)
    round_.refresh_from_db()
    assert round_.state == "drawn" and round_.draw_job_progress == {}


@pytest.mark.django_db(transaction=True)
def test_the_progress_is_seen_by_others_while_the_engine_runs():
    """The engine runs outside any transaction, so the round's page (another connection) sees
    each stage as it comes, not only the end."""
    import threading

    from django.db import connection

    from tournaments.models import Round
    from tournaments.services.rounds import draw_job_run

    round_ = round_create(event=event_with(9, table_size_policy="3", rounds_planned=3))
    Round.objects.filter(pk=round_.pk).update(
        draw_job_id="job-2", draw_job_started_at=timezone.now()
    )
    seen: list[dict] = []

    def look_from_another_connection(_data):
        def look():
            seen.append(Round.objects.get(pk=round_.pk).draw_job_progress)
            connection.close()

        thread = threading.Thread(target=look)
        thread.start()
        thread.join()

    draw_job_run(round_id=round_.pk, job_id="job-2", on_progress=look_from_another_connection)
    assert seen and all(s.get("stage") for s in seen)
    assert seen[-1]["stage"] == "seating"
    assert Round.objects.get(pk=round_.pk).draw_job_progress == {}


def test_nothing_is_stored_when_the_players_change_while_the_engine_runs(monkeypatch):
    from tournaments.services import draw as service

    event = event_with(9, table_size_policy="3")
    round_ = round_create(event=event)
    real = service.run_engine

    def engine_while_a_player_withdraws(inputs, **kwargs):
        draw = real(inputs, **kwargs)
        Entry.objects.filter(pk=event.entries.order_by("pk").first().pk).update(
            status=Entry.Status.WITHDRAWN
        )
        return draw

    monkeypatch.setattr(service, "run_engine", engine_while_a_player_withdraws)
    with pytest.raises(UserFacingError, match="While the draw ran") as refused:
        service.round_draw(round_=round_)
    assert refused.value.extra == {"field": "draw"}
    round_.refresh_from_db()
    assert round_.state == "draft" and round_.tables.count() == 0 and round_.draw_seed == ""


def test_nothing_is_stored_when_a_seed_is_committed_while_the_engine_runs(monkeypatch):
    """The seed drawn with would not match the hash published meanwhile (commit and reveal)."""
    from tournaments.services import draw
    from tournaments.services import rounds as service

    round_ = round_create(event=event_with(9, table_size_policy="3"))
    real = service.run_engine

    def engine_while_the_seed_is_committed(inputs, **kwargs):
        draw = real(inputs, **kwargs)
        service.round_commit_seed(round_=round_)
        return draw

    monkeypatch.setattr(draw, "run_engine", engine_while_the_seed_is_committed)
    with pytest.raises(UserFacingError, match="While the draw ran"):
        service.round_draw(round_=round_)
    round_.refresh_from_db()
    assert round_.state == "draft" and round_.tables.count() == 0
    assert round_.draw_seed_hash  # the commitment stands; the next draw uses its seed
    monkeypatch.setattr(draw, "run_engine", real)
    drawn = service.round_draw(round_=round_)
    assert drawn.state == "drawn"
    assert hashlib.sha256(drawn.draw_seed.encode()).hexdigest() == drawn.draw_seed_hash


def test_the_round_page_shows_the_stage_and_a_progress_bar(client):
    round_ = round_create(event=event_with(9, table_size_policy="3"))
    round_.draw_job_id = "a-job-on-a-worker"
    round_.draw_job_started_at = timezone.now()
    round_.draw_job_progress = {
        "stage": "restart",
        "step": 1200,
        "steps": 6000,
        "attempt": 3,
        "attempts": 8,
        "at": timezone.now().isoformat(),
    }
    round_.save()
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-round", args=[round_.event.slug, 1])
    page = client.get(url).content.decode()
    assert (
        "the search again from another start: start 3 of 8, iteration 1,200 of at most 6,000"
        in (page)
    )
    assert '<progress value="1200" max="6000"' in page
    russian = client.get("/ru" + url).content.decode()
    assert "попытка 3 из 8" in russian and '<progress value="1200" max="6000"' in russian
    round_.draw_job_progress = {"stage": "exact", "step": 0, "steps": 0}
    round_.save()
    page = client.get(url).content.decode()
    assert "CP-SAT over all rounds" in page and "<progress" not in page


def test_what_the_tables_do_not_depend_on_may_change_while_the_engine_runs(monkeypatch):
    """A player registering without checking in, or new standings for a draw that is not
    Swiss, leave the tables as they are: they are stored."""
    from tournaments.services import draw as service

    event = event_with(9, table_size_policy="3")
    event.entries.update(status=Entry.Status.CHECKED_IN)
    round_ = round_create(event=event)
    real_engine, real_standings = service.run_engine, service._standings_for_draw

    def engine_while_others_change(inputs, **kwargs):
        draw = real_engine(inputs, **kwargs)
        EntryFactory(event=event, status=Entry.Status.REGISTERED)
        monkeypatch.setattr(service, "_standings_for_draw", lambda event: {"1": 9.0})
        return draw

    monkeypatch.setattr(service, "run_engine", engine_while_others_change)
    drawn = service.round_draw(round_=round_)
    assert drawn.state == "drawn" and drawn.tables.count() == 3
    assert len(drawn.draw_params["input"]["not_checked_in"]) == 1  # as the page should say
    # a Swiss draw depends on the standings: new ones meanwhile refuse it
    monkeypatch.setattr(service, "_standings_for_draw", real_standings)
    with pytest.raises(UserFacingError, match="While the draw ran"):
        service.round_draw(round_=drawn, method="swiss")
    drawn.refresh_from_db()
    assert drawn.draw_method != "swiss" and drawn.tables.count() == 3


def _committed_round():
    """A round of nine whose seed's hash is published (commit and reveal): every draw of it
    uses that seed, so two draws make the same tables and nothing else tells them apart."""
    from tournaments.services.rounds import round_commit_seed

    organiser = UserFactory(username="organiser")
    round_ = round_create(event=event_with(9, table_size_policy="3"))
    return round_commit_seed(round_=round_, by=organiser), organiser


def test_a_draw_started_inline_and_as_a_job_stores_one_draw_and_tells_the_second(monkeypatch):
    """Issue 25, item 13: the job is asked for while the inline draw's engine runs and
    finishes first; the inline draw then stores nothing and is told."""
    from tournaments.models import AuditLogEntry, Table
    from tournaments.services import draw, rounds

    round_, organiser = _committed_round()
    engine = rounds.run_engine
    calls = []

    def engine_meanwhile(*args, **kwargs):
        calls.append(1)
        draw = engine(*args, **kwargs)
        if len(calls) == 1:  # the inline draw's engine: a job draws the round meanwhile
            draw_job_queue(round_=round_, by=organiser)
        return draw

    monkeypatch.setattr(draw, "run_engine", engine_meanwhile)
    with pytest.raises(rounds.DrawnMeanwhileError, match="organiser") as caught:
        rounds.round_draw(round_=round_, by=UserFactory(username="second"))
    assert caught.value.extra["drawn_by"] == "organiser"
    assert AuditLogEntry.objects.filter(action="round.drawn").count() == 1
    round_.refresh_from_db()
    assert round_.state == "drawn" and Table.objects.filter(round=round_).count() == 3


def test_a_job_asked_for_before_an_inline_draw_stored_stores_nothing():
    """The inline draw finishes after the job was queued and before it runs: the job is told
    (its message stays on the round) and stores nothing."""
    import datetime as dt

    from tournaments.models import AuditLogEntry, Round, Table
    from tournaments.services import rounds

    round_, organiser = _committed_round()
    asked = timezone.now()
    rounds.round_draw(round_=round_, by=organiser)
    Round.objects.filter(pk=round_.pk).update(
        draw_job_id="job-1", draw_job_started_at=asked - dt.timedelta(seconds=1)
    )
    tables = set(Table.objects.filter(round=round_).values_list("pk", flat=True))
    with pytest.raises(rounds.DrawnMeanwhileError):
        rounds.draw_job_run(round_id=round_.pk, job_id="job-1")
    round_.refresh_from_db()
    assert "drawn meanwhile" in round_.draw_job_error and round_.draw_job_id == ""
    assert AuditLogEntry.objects.filter(action="round.drawn").count() == 1
    assert set(Table.objects.filter(round=round_).values_list("pk", flat=True)) == tables


def test_no_inline_draw_while_a_job_draws_the_round():
    from tournaments.services.rounds import round_draw

    round_, organiser = _committed_round()
    round_.draw_job_id = "a-job-on-a-worker"
    round_.draw_job_started_at = timezone.now()
    round_.save()
    with pytest.raises(UserFacingError, match="already running"):
        round_draw(round_=round_, by=organiser)
    round_.refresh_from_db()
    assert round_.state == "draft" and round_.tables.count() == 0
