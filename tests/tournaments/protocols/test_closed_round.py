"""A closed round takes no more table entries; table keys are revoked and reissued (issue 25,
"Results nobody can bend", item 3)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.russian.jsonio import to_dict
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, Protocol, Round

from .test_protocol_services import closed_protocol, save


def close(setup) -> None:
    Round.objects.filter(pk=setup.round.pk).update(state=Round.State.CLOSED)
    setup.table.refresh_from_db()


def test_a_closed_rounds_table_key_no_longer_saves_and_says_whom_to_ask(client, setup):
    good = closed_protocol(setup)
    save(setup, good.with_deals(good.deals[:-1]), None)
    close(setup)
    chief = setup.chief.get_full_name() or setup.chief.username  # whom the table asks
    with pytest.raises(UserFacingError, match=f"closed.*{chief}") as caught:
        save(setup, good, 1)  # the table's link: no user
    assert caught.value.extra["field"] == "round"
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    url = f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols"
    r = api.post(url, {"protocol": to_dict(good), "based_on_version": 1}, format="json")
    assert r.status_code == 400 and r.json()["extra"]["field"] == "round"
    page = client.get(reverse("protocol-table", args=[setup.table.url_key]))
    body = page.content.decode()
    assert "Round 1 is closed" in body and chief in body
    assert 'id="form"' not in body  # no deal form
    assert 'class="edit"' not in body  # and no "correct" link on its deals (issue 36)
    r = client.post(
        reverse("protocol-table", args=[setup.table.url_key]),
        {"action": "ending", "ending": "agreement", "based_on_version": "1"},
    )
    assert r.status_code == 400 and "is closed" in r.content.decode()
    assert Protocol.objects.count() == 1


def test_a_referee_still_corrects_a_closed_round_with_a_reason(setup):
    good = closed_protocol(setup)
    save(setup, good.with_deals(good.deals[:-1]), None)
    close(setup)
    with pytest.raises(UserFacingError) as caught:
        save(setup, good, 1, by=setup.referee)
    assert caught.value.extra["field"] == "reason"
    v2 = save(setup, good, 1, by=setup.referee, reason="last deal from the paper sheet")
    assert v2.version == 2 and v2.reason


def test_the_table_key_is_revoked_and_reissued_with_a_log_entry(client, setup):
    old = setup.table.url_key
    client.force_login(setup.referee)
    r = client.post(reverse("protocol-action", args=[setup.event.slug, 1, 1, "new-key"]))
    assert r.status_code == 302
    setup.table.refresh_from_db()
    assert setup.table.url_key != old
    assert client.get(reverse("protocol-table", args=[old])).status_code == 404
    assert client.get(reverse("protocol-table", args=[setup.table.url_key])).status_code == 200
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=old)
    url = f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols"
    assert api.get(url).status_code == 403
    entry = AuditLogEntry.objects.get(action="table.key_rotated")
    assert entry.user == setup.referee and entry.data == {"round": 1, "table": 1}
    client.force_login(setup.chief)
    log = client.get(reverse("manage-log", args=[setup.event.slug])).content.decode()
    assert "table 1 got a new private link" in log
