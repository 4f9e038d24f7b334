"""The API tells the caller the job its write queued (issue 25, item 10): an approval, a
recomputation asked for and a document ordered answer with the job's state and its status URL,
also while Redis is unreachable (the write is kept, the job waits for the sweep)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.conftest import broker_down
from tests.tournaments.api.test_schema import documented, schema  # noqa: F401 (a fixture)
from tests.tournaments.protocols.conftest import make_table
from tests.tournaments.protocols.test_protocol_services import closed_protocol, save
from tournaments.jobs import outbox as jobs
from tournaments.models import GeneratedFile, Job, Protocol, StandingsSnapshot

# the requests commit as in production (no test transaction around them): the job is sent, or
# not, by the commit of the write, before the answer is written
pytestmark = pytest.mark.django_db(transaction=True)


def _referee(setup) -> APIClient:
    api = APIClient()
    api.force_authenticate(setup.referee)
    return api


def _approve_url(setup) -> str:
    return f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols/approve"


def test_an_approval_answers_with_the_standings_job_it_queued(schema):  # noqa: F811
    setup = make_table()
    save(setup, closed_protocol(setup), None)
    api = _referee(setup)
    r = api.post(_approve_url(setup), {"version": 1, "confirm_missing": True}, format="json")
    assert documented(schema, "protocols_approve", r).status_code == 200
    body = r.json()
    assert body["approved"] and body["version"] == 1  # the earlier fields, unchanged
    job = Job.objects.get(task="tournaments.standings_recompute", event=setup.event)
    assert body["standings"] == {
        "job": job.task_id,
        "state": "done",  # eager in the tests: sent at the commit, ran
        "status_url": f"/api/v1/jobs/{job.task_id}",
        "message": "",
    }
    assert api.get(body["standings"]["status_url"]).status_code == 200


def test_an_approval_while_redis_is_unreachable_says_the_job_is_queued(schema):  # noqa: F811
    setup = make_table()
    save(setup, closed_protocol(setup), None)
    api = _referee(setup)
    with broker_down():
        r = api.post(_approve_url(setup), {"version": 1, "confirm_missing": True}, format="json")
    assert documented(schema, "protocols_approve", r).status_code == 200
    standings = r.json()["standings"]
    assert standings["state"] == "queued"
    assert "standings recomputation is queued" in standings["message"]
    assert Protocol.objects.filter(table=setup.table, approved=True).exists()  # kept
    status = api.get(standings["status_url"])
    assert status.status_code == 409 and status.json()["extra"]["state"] == "QUEUED"
    # Redis is back: the sweep sends it (eager here: it runs), the status says done
    jobs.jobs_sweep(now=timezone.now() + dt.timedelta(minutes=5))
    assert api.get(standings["status_url"]).status_code == 200
    assert StandingsSnapshot.objects.get(event=setup.event).status == "ok"


def test_a_recomputation_and_a_document_while_redis_is_unreachable(schema):  # noqa: F811
    setup = make_table()
    api = _referee(setup)
    e = f"/api/v1/events/{setup.event.slug}"
    with broker_down():
        r = api.post(f"{e}/standings/recompute")
        d = api.post(f"{e}/documents", {"kind": "seating", "round": 1}, format="json")
    assert documented(schema, "standings_recompute", r).status_code == 202
    body = r.json()
    assert body["status_url"] == f"{e}/standings/status"  # as before
    assert body["job"]["state"] == "queued" and "is queued" in body["job"]["message"]
    assert documented(schema, "documents_create", d).status_code == 202
    document = d.json()
    assert document["status"] == "pending" and document["job"]["state"] == "queued"
    assert "The document is queued" in document["job"]["message"]
    job = Job.objects.get(task_id=document["job"]["job"])
    assert job.key == f"file:{document['id']}"
    jobs.jobs_sweep(now=timezone.now() + dt.timedelta(minutes=5))
    assert api.get(document["job"]["status_url"]).status_code == 200
    assert api.get(body["job"]["status_url"]).status_code == 200
    assert GeneratedFile.objects.get(pk=document["id"]).status == "ok"


def test_with_redis_up_the_answers_carry_the_job_that_ran(schema):  # noqa: F811
    setup = make_table()
    api = _referee(setup)
    e = f"/api/v1/events/{setup.event.slug}"
    r = api.post(f"{e}/standings/recompute")
    assert documented(schema, "standings_recompute", r).status_code == 202
    assert r.json()["job"]["state"] == "done" and r.json()["job"]["message"] == ""
    d = api.post(f"{e}/documents", {"kind": "seating", "round": 1}, format="json")
    assert documented(schema, "documents_create", d).json()["job"]["state"] == "done"
    # the same document again: the stored file is up to date, no job
    again = api.post(f"{e}/documents", {"kind": "seating", "round": 1}, format="json")
    assert documented(schema, "documents_create", again).status_code == 200
    assert again.json()["job"] is None
