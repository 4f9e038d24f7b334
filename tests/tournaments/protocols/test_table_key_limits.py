"""What a table's key may not decide (issue 38): who deals first (the draw does, 001 §3.2.1) and
a version's reason (the referee's); a referee may do both."""

from __future__ import annotations

import dataclasses

from rest_framework.test import APIClient

from scoring.russian.jsonio import to_dict

from .test_protocol_services import closed_protocol


def url(setup) -> str:
    return f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols"


def test_a_table_key_cannot_choose_the_first_dealer(setup):
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    document = to_dict(dataclasses.replace(closed_protocol(setup), first_dealer=2))
    r = api.post(url(setup), {"protocol": document, "based_on_version": None}, format="json")
    assert r.status_code == 400
    assert r.json()["extra"] == {"field": "first_dealer"}
    assert r.json()["message"].startswith(
        "The draw decides who deals first at this table: seat 1, not seat 3."
    )
    assert not setup.table.protocols.exists()
    referee = APIClient()
    referee.force_authenticate(setup.referee)
    r = referee.post(url(setup), {"protocol": document, "based_on_version": None}, format="json")
    assert r.status_code == 201


def test_a_table_key_cannot_write_a_reason(setup):
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    document = to_dict(closed_protocol(setup))
    body = {"protocol": document, "based_on_version": None, "reason": "the referee said so"}
    r = api.post(url(setup), body, format="json")
    assert r.status_code == 400 and r.json()["extra"] == {"field": "reason"}
    assert r.json()["message"] == (
        "A version's reason is the referee's: the table saves without one."
    )
    body["reason"] = "  "  # blank is no reason
    assert api.post(url(setup), body, format="json").status_code == 201
    referee = APIClient()
    referee.force_authenticate(setup.referee)
    body.update(based_on_version=1, reason="corrected after the table's call")
    r = referee.post(url(setup), body, format="json")
    assert r.status_code == 201
    assert setup.table.protocols.get(version=2).reason == "corrected after the table's call"
