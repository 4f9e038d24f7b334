"""The audit log is append-only and exportable (issue 25, "Results nobody can bend", item 5)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.admin.sites import site
from django.db import DatabaseError, connection, transaction
from django.db.models import ProtectedError
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import EventFactory, UserFactory
from tournaments.models import AuditLogEntry, AuditLogIsAppendOnly, Event, EventRole
from tournaments.services.audit import audit_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged():
    event = EventFactory(slug="logged")
    chief = UserFactory(username="chief")
    EventRole.objects.create(event=event, user=chief, role=EventRole.Role.CHIEF_REFEREE)
    audit_log(event=event, action="round.created", by=chief, data={"round": 1})
    audit_log(event=event, action="round.closed", reason="time", data={"round": 1})
    return event, chief


def test_no_entry_is_changed_or_deleted_by_the_app(logged):
    event, _chief = logged
    entry = AuditLogEntry.objects.filter(event=event).first()
    entry.action = "round.published"
    with pytest.raises(AuditLogIsAppendOnly):
        entry.save()
    with pytest.raises(AuditLogIsAppendOnly):
        entry.delete()
    with pytest.raises(AuditLogIsAppendOnly):
        AuditLogEntry.objects.filter(event=event).update(reason="forged")
    with pytest.raises(AuditLogIsAppendOnly):
        AuditLogEntry.objects.filter(event=event).delete()
    assert set(AuditLogEntry.objects.values_list("action", flat=True)) == {
        "round.created",
        "round.closed",
    }


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is checked on PG")
def test_the_database_refuses_to_change_or_delete_an_entry(logged):
    event, _chief = logged
    for sql in (
        "UPDATE tournaments_auditlogentry SET reason = 'forged'",
        "DELETE FROM tournaments_auditlogentry",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql)
    assert AuditLogEntry.objects.filter(event=event, reason="forged").count() == 0
    assert AuditLogEntry.objects.filter(event=event).count() == 2


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is checked on PG")
def test_the_database_refuses_to_truncate_the_log(logged):
    """Issue 38: TRUNCATE fires no row trigger; a statement trigger refuses it (migration 0017),
    with CASCADE too, and a session's setting lets only a superuser through (the tests' flush)."""
    event, _chief = logged
    for sql in (
        "TRUNCATE tournaments_auditlogentry",
        "TRUNCATE tournaments_auditlogentry CASCADE",
    ):
        with pytest.raises(DatabaseError, match="never truncated"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's rows' checks
                cursor.execute("SET LOCAL pulka.audit_log_truncate = 'no'")
                cursor.execute(sql)
    with pytest.raises(DatabaseError, match="never truncated"), transaction.atomic():
        with connection.cursor() as cursor:  # the setting alone does not do for another role
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("CREATE ROLE pulka_test_app NOSUPERUSER")
            cursor.execute("GRANT ALL ON tournaments_auditlogentry TO pulka_test_app")
            cursor.execute("SET LOCAL ROLE pulka_test_app")
            cursor.execute("SET LOCAL pulka.audit_log_truncate = 'allowed'")
            cursor.execute("TRUNCATE tournaments_auditlogentry")
    assert AuditLogEntry.objects.filter(event=event).count() == 2


def test_deleting_an_event_or_an_account_in_the_log_is_refused(logged):
    event, chief = logged
    with pytest.raises(ProtectedError):
        event.delete()
    with pytest.raises(ProtectedError):
        chief.delete()
    assert Event.objects.filter(pk=event.pk).exists()
    assert AuditLogEntry.objects.filter(event=event).count() == 2


def test_the_admin_only_reads_the_log(logged):
    event, _chief = logged
    admin = site._registry[AuditLogEntry]
    request = RequestFactory().get("/admin/")
    request.user = UserFactory(username="root", is_superuser=True, is_staff=True)
    entry = AuditLogEntry.objects.filter(event=event).first()
    assert not admin.has_add_permission(request)
    assert not admin.has_change_permission(request, entry)
    assert not admin.has_delete_permission(request, entry)
    assert admin.has_view_permission(request, entry)


def test_the_admin_pages_refuse_to_add_change_or_delete_an_entry_or_its_event(client, logged):
    """Through the admin's own pages, as a superuser: the log's list and an entry are shown;
    adding, changing, deleting one and the bulk delete action are refused; deleting the event
    (its page or the bulk action) or an account in the log deletes nothing."""
    event, chief = logged
    client.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    entry = AuditLogEntry.objects.filter(event=event).first()
    changelist = reverse("admin:tournaments_auditlogentry_changelist")
    change = reverse("admin:tournaments_auditlogentry_change", args=[entry.pk])
    assert client.get(changelist).status_code == 200
    page = client.get(change)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.get(reverse("admin:tournaments_auditlogentry_add")).status_code == 403
    r = client.post(
        reverse("admin:tournaments_auditlogentry_add"), {"action": "x", "event": event.pk}
    )
    assert r.status_code == 403
    r = client.post(change, {"action": "round.published", "reason": "forged", "event": event.pk})
    assert r.status_code == 403
    delete = reverse("admin:tournaments_auditlogentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"}
    client.post(changelist, bulk)
    r = client.post(reverse("admin:tournaments_event_delete", args=[event.pk]), {"post": "yes"})
    assert r.status_code in (200, 403) and "Cannot delete" in r.content.decode()
    client.post(
        reverse("admin:tournaments_event_changelist"),
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
    )
    r = client.post(reverse("admin:auth_user_delete", args=[chief.pk]), {"post": "yes"})
    assert "Cannot delete" in r.content.decode()
    assert (
        Event.objects.filter(pk=event.pk).exists()
        and chief.__class__.objects.filter(pk=chief.pk).exists()
    )
    assert [(e.action, e.reason) for e in AuditLogEntry.objects.order_by("pk")] == [
        ("round.created", ""),
        ("round.closed", "time"),
    ]


def test_organisers_download_the_log_as_csv_and_json_and_through_the_api(client, logged):
    event, chief = logged
    url = reverse("manage-log-export", args=[event.slug])
    client.force_login(UserFactory(username="someone"))
    assert client.get(url).status_code == 403
    client.force_login(chief)
    assert "?format=csv" in client.get(reverse("manage-log", args=[event.slug])).content.decode()
    r = client.get(url + "?format=csv")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    assert "attachment" in r["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(r.content.decode())))
    assert [row["action"] for row in rows] == ["round.created", "round.closed"]  # oldest first
    assert rows[0]["user"] == "chief" and rows[1]["user"] == "" and rows[1]["reason"] == "time"
    assert json.loads(rows[0]["data"]) == {"round": 1}
    assert rows[0]["described"] == "Round 1 created"
    r = client.get(url + "?format=json")
    body = json.loads(r.content)
    assert body["event"] == "logged" and [e["action"] for e in body["entries"]] == [
        "round.created",
        "round.closed",
    ]
    api = APIClient()
    assert api.get(f"/api/v1/events/{event.slug}/log").status_code == 403
    api.force_authenticate(chief)
    r = api.get(f"/api/v1/events/{event.slug}/log")
    assert r.status_code == 200 and r.json()["entries"] == body["entries"]
