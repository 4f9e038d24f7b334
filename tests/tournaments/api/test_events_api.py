"""REST API for events, entries, rounds and draws: status codes, envelopes, permissions."""

import pytest
from rest_framework.test import APIClient

from tests.conftest import eager_off
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import EventRole
from tournaments.seating.progress import Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory()
    for _ in range(12):
        EntryFactory(event=event)
    return event


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def organiser_api(event):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role="organiser")
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_public_reads(api, event):
    assert [e["slug"] for e in api.get("/api/v1/events/").json()] == [event.slug]
    detail = api.get(f"/api/v1/events/{event.slug}/").json()
    assert detail["variant"] == "sochi" and detail["pulka_target"] == 20
    entries = api.get(f"/api/v1/events/{event.slug}/entries/").json()
    assert len(entries) == 12 and "url_key" not in entries[0]
    assert api.get("/api/v1/events/nope/").status_code == 404


def test_writes_need_the_organiser(api, event):
    r = api.post(f"/api/v1/events/{event.slug}/entries/register", {"name": "Zed"})
    assert r.status_code in (401, 403)
    assert set(r.json()) == {"message", "extra"}
    other = UserFactory()
    api.force_authenticate(other)
    assert (
        api.post(f"/api/v1/events/{event.slug}/entries/register", {"name": "Zed"}).status_code
        == 403
    )


def test_register_and_import_errors_name_the_field(organiser_api, event):
    ok = organiser_api.post(
        f"/api/v1/events/{event.slug}/entries/register", {"name": "Zed", "club": "Z"}, format="json"
    )
    assert ok.status_code == 201 and ok.json()["name"] == "Zed"
    dup = organiser_api.post(
        f"/api/v1/events/{event.slug}/entries/register",
        {"name": "Zed", "federation_id": "X1"},
        format="json",
    )
    assert dup.status_code == 201
    again = organiser_api.post(
        f"/api/v1/events/{event.slug}/entries/register",
        {"name": "Zed", "federation_id": "X1"},
        format="json",
    )
    assert again.status_code == 400 and again.json()["extra"]["field"] == "federation_id"
    bad = organiser_api.post(
        f"/api/v1/events/{event.slug}/entries/import",
        {"csv": "name,rating\nA,x\n,1\n"},
        format="json",
    )
    assert bad.status_code == 400
    assert [line["line"] for line in bad.json()["extra"]["lines"]] == [2, 3]
    invalid = organiser_api.post(f"/api/v1/events/{event.slug}/entries/register", {}, format="json")
    assert invalid.status_code == 400 and "name" in invalid.json()["extra"]["fields"]
    # any JSON that is not an object (found by the API fuzz, issue 25 item 8): a 400, not a 500
    for body in (["csv"], 7, None):
        odd = organiser_api.post(f"/api/v1/events/{event.slug}/entries/import", body, format="json")
        assert odd.status_code == 400 and odd.json()["extra"]["field"] == "csv", odd.content


def test_draw_inline_then_publish(organiser_api, api, event):
    from tournaments.services.rounds import round_create

    round_create(event=event)
    drawn = organiser_api.post(
        f"/api/v1/events/{event.slug}/rounds/1/draw",
        {"method": "random", "background": False},
        format="json",
    )
    assert drawn.status_code == 200, drawn.json()
    body = drawn.json()
    assert body["state"] == "drawn" and len(body["tables"]) == 4
    assert api.get(f"/api/v1/events/{event.slug}/rounds/1/").status_code == 404  # not public
    assert organiser_api.post(f"/api/v1/events/{event.slug}/rounds/1/publish").status_code == 200
    public = api.get(f"/api/v1/events/{event.slug}/rounds/1/").json()
    assert public["draw_seed"] and len(public["tables"]) == 4


def background_draw(players: int, queue: str, running: list | None = None, **fields):
    """An organiser asks the API to draw round 1 of an event of ``players`` in a job on the
    test worker's ``queue``; the job's last status and the event. ``running`` collects the
    answers while the job runs."""
    import time

    from tournaments.services.rounds import round_create

    event = EventFactory(**fields)
    for _ in range(players):
        EntryFactory(event=event)
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role="organiser")
    client = APIClient()
    client.force_authenticate(user)
    round_create(event=event)
    with eager_off(queue=queue):
        started = client.post(
            f"/api/v1/events/{event.slug}/rounds/1/draw", {"background": True}, format="json"
        )
        assert started.status_code == 202
        deadline = time.monotonic() + 60
        while True:
            status = client.get(started.json()["status_url"])
            if status.status_code != 409 or time.monotonic() > deadline:
                return status, event
            if running is not None:
                running.append((status.json(), event.rounds.get(number=1).draw_job_progress))
            time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_large_draw_runs_as_a_job_on_a_real_worker(celery_worker_process):
    status, event = background_draw(30, celery_worker_process)
    assert status.status_code == 200, status.json()
    assert status.json()["result"]["tables"] == 10
    drawn = event.rounds.get(number=1)
    assert drawn.state == "drawn" and drawn.draw_job_id == "" and drawn.draw_job_error == ""


@pytest.mark.django_db(transaction=True)
def test_a_draw_job_reports_its_progress_while_it_runs(celery_worker_process):
    """Twelve players at threes over five rounds: the engine tries eight more tabu starts and
    CP-SAT (no schedule without a repeat exists), some seconds in which the job's status and
    the round both say which stage the engine is at."""
    running: list = []
    status, event = background_draw(
        12, celery_worker_process, running, table_size_policy="3", rounds_planned=5
    )
    assert status.status_code == 200, status.json()
    stages = {stage.value for stage in Stage}
    told = [body["extra"]["progress"] for body, _ in running if "progress" in body["extra"]]
    assert told and {t["stage"] for t in told} <= stages
    # the eight more starts take most of the job's seconds: the polls see them, and as such
    assert all(t["attempts"] == 8 for t in told if t["stage"] == "restart")
    assert any(t["stage"] == "restart" for t in told)
    on_round = [progress for _, progress in running if progress]
    assert on_round and {p["stage"] for p in on_round} <= stages
    assert event.rounds.get(number=1).draw_job_progress == {}


@pytest.mark.django_db(transaction=True)
def test_a_failing_draw_job_says_why_in_the_job_and_on_the_round(celery_worker_process):
    """Two players: the worker's draw fails; the job answers 410 with the message, which the
    round keeps for its page, and nothing else changes."""
    status, event = background_draw(2, celery_worker_process)
    assert status.status_code == 410, status.json()
    assert "at least three players" in status.json()["message"]
    failed = event.rounds.get(number=1)
    assert failed.state == "draft" and failed.draw_job_id == ""
    assert "at least three players" in failed.draw_job_error


def test_draw_constraints_through_the_api(organiser_api, api, event):
    a, b, c = event.entries.order_by("pk")[:3]
    base = f"/api/v1/events/{event.slug}/constraints/"
    assert api.get(base).status_code in (401, 403)  # the public does not see them
    added = organiser_api.post(
        base + "apart", {"first": b.pk, "second": a.pk, "reason": "family"}, format="json"
    )
    assert added.status_code == 201, added.json()
    assert added.json()["first"] == a.pk and added.json()["second"] == b.pk
    again = organiser_api.post(base + "apart", {"first": a.pk, "second": b.pk}, format="json")
    assert again.status_code == 400 and again.json()["extra"] == {"field": "second"}
    missing = organiser_api.post(base + "apart", {"first": a.pk, "second": 999999}, format="json")
    assert missing.status_code == 400 and missing.json()["extra"] == {"field": "second"}
    fixed = organiser_api.post(base + "fixed-table", {"entry": c.pk, "table": 2}, format="json")
    assert fixed.status_code == 200 and fixed.json() == {"entry": c.pk, "table": 2}
    listed = organiser_api.get(base).json()
    assert listed["apart"][0]["reason"] == "family"
    assert listed["fixed_tables"] == [{"entry": c.pk, "table": 2}]
    assert api.post(base + "apart", {"first": a.pk, "second": c.pk}, format="json").status_code in (
        401,
        403,
    )
    pair = listed["apart"][0]["id"]
    assert organiser_api.delete(f"{base}apart/{pair}").status_code == 204
    freed = organiser_api.post(base + "fixed-table", {"entry": c.pk, "table": None}, format="json")
    assert freed.json() == {"entry": c.pk, "table": None}
    assert organiser_api.get(base).json() == {"apart": [], "fixed_tables": []}


def test_csv_import_takes_a_raw_csv_body_in_utf8_or_windows_1251(organiser_api, event):
    url = f"/api/v1/events/{event.slug}/entries/import"
    text = "name,club,city\nЕлена Петрова,Вист,Сочи\n"
    r = organiser_api.post(url, text.encode("utf-8-sig"), content_type="text/csv")
    assert r.status_code == 201 and r.json() == {"imported": 1, "skipped_lines": []}
    text = "name,club,city\nОльга Смирнова,Вист,Сочи\n"
    r = organiser_api.post(
        url, text.encode("cp1251"), content_type="text/csv; charset=windows-1251"
    )
    assert r.status_code == 201
    names = set(event.entries.values_list("player__name", flat=True))
    assert {"Елена Петрова", "Ольга Смирнова"} <= names
    bad = organiser_api.post(url, "name,rating\nA,strong\n", content_type="text/csv")
    assert bad.status_code == 400 and "lines" in bad.json()["extra"]
    assert organiser_api.post(url, {}, format="json").json()["extra"] == {"field": "csv"}


def test_csv_import_again_with_skip_entered(organiser_api, event):
    url = f"/api/v1/events/{event.slug}/entries/import"
    first = organiser_api.post(url, "name\nNew One\n", content_type="text/csv")
    assert first.status_code == 201
    again = organiser_api.post(url, "name\nNew One\nNew Two\n", content_type="text/csv")
    assert again.status_code == 400 and again.json()["extra"]["lines"][0]["line"] == 2
    skipping = organiser_api.post(
        url + "?skip_entered=true", "name\nNew One\nNew Two\n", content_type="text/csv"
    )
    assert skipping.json() == {"imported": 1, "skipped_lines": [2]}


def test_seed_commitments_through_the_api(organiser_api, api, event):
    """An organiser publishes the hash of round 1's seed; the public reads it before the draw,
    the seed after the round is published; a commitment cannot be replaced."""
    import hashlib

    from tournaments.services.rounds import round_create

    round_create(event=event)
    base = f"/api/v1/events/{event.slug}/rounds/"
    assert api.post(base + "1/commit-seed").status_code in (401, 403)
    committed = organiser_api.post(base + "1/commit-seed")
    assert committed.status_code == 200, committed.json()
    digest = committed.json()["draw_seed_hash"]
    again = organiser_api.post(base + "1/commit-seed")
    assert again.status_code == 400 and again.json()["extra"] == {"field": "draw_seed_hash"}
    [listed] = api.get(base + "commitments").json()
    assert listed["round"] == 1 and listed["state"] == "draft"
    assert listed["draw_seed_hash"] == digest and listed["draw_seed"] is None
    assert listed["committed_at"]
    refused = organiser_api.post(base + "1/draw", {"seed": "another"}, format="json")
    assert refused.status_code == 400 and refused.json()["extra"] == {"field": "seed"}
    inline = organiser_api.post(base + "1/draw", {"background": False}, format="json")
    assert inline.status_code == 200, inline.json()
    assert organiser_api.post(base + "1/publish").status_code == 200
    [listed] = api.get(base + "commitments").json()
    assert hashlib.sha256(listed["draw_seed"].encode()).hexdigest() == digest


def fours_event(n: int, substitutes: int = 0, **fields):
    """A Priffe event at tables of four with ``n`` players checked in (and substitutes)."""
    from decimal import Decimal

    from tournaments.models import Entry

    event = EventFactory(
        variant="modern", table_size_policy="4", published=True,
        fours_remainder="sit_out", sit_out_score=Decimal("12.5"), **fields,
    )  # fmt: skip
    for _ in range(n):
        EntryFactory(event=event, status=Entry.Status.CHECKED_IN)
    for _ in range(substitutes):
        EntryFactory(event=event, status=Entry.Status.CHECKED_IN, substitute=True)
    return event


def test_the_fours_remainder_choice_substitutes_and_who_sat_out(api):
    from tournaments.services.rounds import round_create, round_draw, round_publish

    event = fours_event(13, substitutes=1)
    e = f"/api/v1/events/{event.slug}"
    detail = api.get(f"{e}/").json()
    assert detail["fours_remainder"] == "sit_out" and detail["sit_out_score"] == "12.50"
    entries = api.get(f"{e}/entries/").json()
    assert sorted(x["substitute"] for x in entries) == [False] * 13 + [True]
    round_ = round_create(event=event)
    round_draw(round_=round_)
    round_publish(round_=round_)
    round_.refresh_from_db()
    (sitter,) = round_.sitting_out
    name = next(x["name"] for x in entries if x["id"] == sitter)
    body = api.get(f"{e}/rounds/1/").json()
    assert body["sitting_out"] == [{"entry": sitter, "name": name}]
    assert sitter not in {s["entry"] for t in body["tables"] for s in t["seats"]}
    assert api.get(f"{e}/rounds/").json()[0]["sitting_out"] == body["sitting_out"]


def test_a_round_nobody_sat_out_lists_nobody(api, event, organiser_api):
    from tournaments.services.rounds import round_create

    detail = api.get(f"/api/v1/events/{event.slug}/").json()
    assert detail["fours_remainder"] == "refuse" and detail["sit_out_score"] == "0.00"
    round_create(event=event)
    organiser_api.post(
        f"/api/v1/events/{event.slug}/rounds/1/draw", {"background": False}, format="json"
    )
    body = organiser_api.get(f"/api/v1/events/{event.slug}/rounds/1/").json()
    assert body["sitting_out"] == [] and body["tables"]
