"""Approval is of the version the referee saw, and two approvals at once give one (issue 25,
"Results nobody can bend", items 1 and 4)."""

from __future__ import annotations

import dataclasses
import threading

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.model import Ending
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, Protocol, ProtocolConfirmation
from tournaments.services.protocols import (
    AlreadyApprovedError,
    StaleProtocolError,
    protocol_approve,
    protocol_confirm,
    protocol_version,
)

from .conftest import make_table
from .test_protocol_services import closed_protocol, save


def two_versions(setup):
    """Version 1: the pulka stopped by agreement a deal early; version 2: played to the end.
    Both check clean."""
    good = closed_protocol(setup)
    early = dataclasses.replace(good.with_deals(good.deals[:-1]), ending=Ending.AGREEMENT)
    return save(setup, early, None), save(setup, good, 1), good


def test_approving_a_version_the_table_has_since_replaced_is_refused_with_the_differences(setup):
    seen, _v2, good = two_versions(setup)  # the referee saw version 1; the table saved 2
    with pytest.raises(StaleProtocolError) as caught:
        protocol_approve(protocol=seen, by=setup.referee, confirm_missing=True)
    extra = caught.value.extra
    assert (extra["version"], extra["current_version"]) == (1, 2)
    assert [d["deal"] for d in extra["differences"]] == [len(good.deals) - 1, None]
    assert extra["differences"][0]["a"] and extra["differences"][0]["b"] == ""  # a: the table's
    # nothing approved, and "confirm for the players who have not" confirmed nothing
    assert not Protocol.objects.filter(table=setup.table, approved=True).exists()
    assert not ProtocolConfirmation.objects.exists()


def test_confirming_for_the_players_confirms_the_version_approved_only(setup):
    _v1, v2, _good = two_versions(setup)
    approved = protocol_approve(protocol=v2, by=setup.referee, confirm_missing=True)
    assert approved.version == 2 and approved.approved
    assert set(ProtocolConfirmation.objects.values_list("protocol__version", flat=True)) == {2}


def test_protocol_version_needs_a_version_the_table_saved(setup):
    save(setup, closed_protocol(setup), None)
    with pytest.raises(UserFacingError) as caught:
        protocol_version(table=setup.table, version=None)
    assert caught.value.extra["field"] == "version"
    with pytest.raises(UserFacingError, match="7"):
        protocol_version(table=setup.table, version=7)


def test_the_desk_approves_the_version_its_form_showed(client, setup):
    good = closed_protocol(setup)
    early = dataclasses.replace(good.with_deals(good.deals[:-1]), ending=Ending.AGREEMENT)
    save(setup, early, None)
    client.force_login(setup.referee)
    desk = reverse("protocol-referee", args=[setup.event.slug, 1, 1])
    page = client.get(desk).content.decode()
    assert 'name="version" value="1"' in page
    save(setup, good, 1)  # the table saves version 2 while the referee reads version 1
    approve = reverse("protocol-action", args=[setup.event.slug, 1, 1, "approve"])
    r = client.post(approve, {"version": "1", "confirm_missing": "on"})
    body = r.content.decode()
    assert r.status_code == 409 and "version 2" in body and "Saved meanwhile" in body
    assert f'href="{desk}"' in body  # "reload the current version" leads back to the desk
    assert not Protocol.objects.filter(approved=True).exists()
    r = client.post(approve, {"confirm_missing": "on"})  # a form without the version
    assert r.status_code == 302 and "error=" in r["Location"]
    assert not Protocol.objects.filter(approved=True).exists()
    r = client.post(approve, {"version": "2", "confirm_missing": "on"})
    assert r.status_code == 302 and "error" not in r["Location"], r["Location"]
    assert Protocol.objects.get(approved=True).version == 2


def test_the_api_approves_the_version_given_and_answers_409_for_another(setup):
    two_versions(setup)
    url = f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols/approve"
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    assert api.post(url, {"version": 2}, format="json").status_code == 403  # a key cannot
    api = APIClient()
    api.force_authenticate(setup.referee)
    assert api.post(url, {}, format="json").status_code == 400
    stale = api.post(url, {"version": 1, "confirm_missing": True}, format="json")
    assert stale.status_code == 409, stale.content
    assert stale.json()["extra"]["current_version"] == 2 and stale.json()["extra"]["differences"]
    unconfirmed = api.post(url, {"version": 2}, format="json")
    assert (
        unconfirmed.status_code == 400 and unconfirmed.json()["extra"]["field"] == "confirmations"
    )
    ok = api.post(url, {"version": 2, "confirm_missing": True}, format="json")
    assert ok.status_code == 200 and ok.json()["approved"] and ok.json()["version"] == 2
    again = APIClient()
    again.force_authenticate(setup.chief)
    twice = again.post(url, {"version": 2}, format="json")
    assert twice.status_code == 409
    assert twice.json()["extra"]["approved_by"] == setup.referee.username


def test_a_second_approval_is_told_it_was_approved_and_by_whom(setup):
    v1 = save(setup, closed_protocol(setup), None)
    protocol_approve(protocol=v1, by=setup.referee, confirm_missing=True)
    with pytest.raises(AlreadyApprovedError, match=setup.referee.username) as caught:
        protocol_approve(protocol=protocol_version(table=setup.table, version=1), by=setup.chief)
    assert caught.value.extra["approved_by"] == setup.referee.username
    assert AuditLogEntry.objects.filter(action="protocol.approved").count() == 1


@pytest.mark.django_db(transaction=True)
def test_simultaneous_approvals_one_approves_the_other_is_told_by_whom():
    setup = make_table(slug="approve-race")
    v1 = save(setup, closed_protocol(setup), None)
    for seat, entry in enumerate(setup.entries):
        protocol_confirm(protocol=v1, seat=seat, entry=entry)
    barrier = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def referee(user) -> None:
        try:
            barrier.wait()
            protocol_approve(protocol=protocol_version(table=setup.table, version=1), by=user)
            outcomes[user.username] = "approved"
        except AlreadyApprovedError as exc:
            outcomes[user.username] = exc.extra["approved_by"]
        finally:
            connection.close()

    threads = [threading.Thread(target=referee, args=(u,)) for u in (setup.referee, setup.chief)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    [winner] = [name for name, outcome in outcomes.items() if outcome == "approved"]
    [loser] = [name for name in outcomes if name != winner]
    assert outcomes[loser] == winner  # told who approved it
    assert AuditLogEntry.objects.filter(action="protocol.approved").count() == 1
    assert Protocol.objects.get(approved=True).approved_by.username == winner


def test_the_desk_confirms_for_a_player_the_version_its_form_showed(client, setup):
    """Item 1 on the page: "Confirm for this player" carries the version shown; once the table
    saved a newer one, the desk answers 409 with the differences and confirms nothing."""
    good = closed_protocol(setup)
    early = dataclasses.replace(good.with_deals(good.deals[:-1]), ending=Ending.AGREEMENT)
    save(setup, early, None)
    client.force_login(setup.referee)
    desk = client.get(reverse("protocol-referee", args=[setup.event.slug, 1, 1])).content.decode()
    assert 'name="seat" value="0"><input type="hidden" name="version" value="1"' in desk
    save(setup, good, 1)
    confirm = reverse("protocol-action", args=[setup.event.slug, 1, 1, "confirm"])
    r = client.post(confirm, {"seat": "0", "version": "1"})
    assert r.status_code == 409 and "Saved meanwhile" in r.content.decode()
    assert not ProtocolConfirmation.objects.exists()
    r = client.post(confirm, {"seat": "0", "version": "2"})
    assert r.status_code == 302 and "error" not in r["Location"], r["Location"]
    assert list(ProtocolConfirmation.objects.values_list("protocol__version", "seat")) == [(2, 0)]


def test_the_desk_tells_the_second_referee_who_approved_it(client, setup):
    """Item 4 on the page: the second approval of a version is refused naming who approved it."""
    v1 = save(setup, closed_protocol(setup), None)
    protocol_approve(protocol=v1, by=setup.referee, confirm_missing=True)
    client.force_login(setup.chief)
    approve = reverse("protocol-action", args=[setup.event.slug, 1, 1, "approve"])
    r = client.post(approve, {"version": "1"}, follow=True)
    assert f"already approved by {setup.referee.username}" in r.content.decode()
    assert AuditLogEntry.objects.filter(action="protocol.approved").count() == 1
    assert Protocol.objects.get(approved=True).approved_by == setup.referee


def test_a_player_confirms_on_his_page_the_version_he_was_shown(client, setup):
    """The player's own page (``/p/<key>/protocols/``) posts the version it showed: once the
    table saved a newer one, nothing is confirmed and the page says so."""
    good = closed_protocol(setup)
    early = dataclasses.replace(good.with_deals(good.deals[:-1]), ending=Ending.AGREEMENT)
    v1 = save(setup, early, None)
    page = reverse("protocol-player", args=[setup.entries[1].url_key])
    assert f'name="protocol" value="{v1.pk}"' in client.get(page).content.decode()
    v2 = save(setup, good, 1)
    r = client.post(page, {"protocol": str(v1.pk)})
    assert r.status_code == 400 and "version 2" in r.content.decode()
    assert not ProtocolConfirmation.objects.exists()
    assert client.post(page, {"protocol": str(v2.pk)}).status_code == 302
    assert list(ProtocolConfirmation.objects.values_list("protocol__version", "seat")) == [(2, 1)]
