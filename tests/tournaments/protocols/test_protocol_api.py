"""The protocol API: submit (JSON document or notation), get, versions, findings; who may."""

from __future__ import annotations

from rest_framework.test import APIClient

from scoring.russian.jsonio import to_dict
from tournaments.services.protocols import table_header

from .test_protocol_services import closed_protocol


def url(setup, tail=""):
    return f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols{tail}"


def test_submit_by_table_key_versions_findings_and_conflict(setup):
    api = APIClient()
    document = to_dict(closed_protocol(setup))
    assert api.post(url(setup), {"protocol": document}, format="json").status_code == 403
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    r = api.post(url(setup), {"protocol": document, "based_on_version": None}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["version"] == 1 and r.json()["error_count"] == 0
    assert sum(float(x["whists"]) for x in r.json()["result"]) == 0
    stale = api.post(url(setup), {"protocol": document, "based_on_version": None}, format="json")
    assert stale.status_code == 409
    assert stale.json()["extra"]["current_version"] == 1 and "message" in stale.json()
    bad = dict(document, target="ten")
    r = api.post(url(setup), {"protocol": bad, "based_on_version": 1}, format="json")
    assert r.status_code == 400 and "$.target" in r.json()["message"]
    r = api.post(
        url(setup),
        {"notation": "Anna 6♠ = w/p\nBoris 6♠ = w/w\n", "based_on_version": 1},
        format="json",
    )
    assert r.status_code == 201 and r.json()["error_count"] >= 1  # saved with its findings
    findings = api.get(url(setup, "/findings")).json()
    assert findings["version"] == 2 and any(f["rule"] for f in findings["findings"])
    versions = api.get(url(setup, "/versions")).json()
    assert [v["version"] for v in versions] == [1, 2]
    assert api.get(url(setup, "/versions/1")).json()["data"] == document
    r = api.post(url(setup), {"notation": "x", "entry_kind": "referee"}, format="json")
    assert r.status_code == 403  # the table's key cannot write the referee's second entry


def test_referee_by_login_reads_both_entries(setup):
    api = APIClient()
    api.force_authenticate(setup.referee)
    empty = api.get(url(setup)).json()
    assert empty == {"table": None, "referee": None}
    doc = to_dict(table_header(setup.table))
    r = api.post(url(setup), {"protocol": doc, "entry_kind": "referee"}, format="json")
    assert r.status_code == 201 and api.get(url(setup)).json()["referee"]["version"] == 1
