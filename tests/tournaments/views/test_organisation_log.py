"""An organisation's log (issue 39): its roles given and taken are logged as an event's are
(``role.granted``, ``role.revoked``, ``account.created``, by whom, with the same data) and
shown on its log page to its organisers, in words in every language; the log is append-only."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory
from tournaments.models import AuditLogIsAppendOnly, Organisation, OrganisationLogEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def creator():
    return UserFactory(is_staff=True, username="ana")


@pytest.fixture
def league(client, creator):
    client.force_login(creator)
    client.post(
        reverse("organisation-new"), {"slug": "mpl", "name": "Međimurska liga", "kind": "league"}
    )
    return Organisation.objects.get(slug="mpl")


def entries(organisation):
    return [
        (e.action, e.user.username if e.user else None, e.data)
        for e in organisation.log.order_by("pk")
    ]


def test_roles_granted_and_revoked_are_logged_and_shown(client, creator, league):
    url = reverse("organisation-staff", args=["mpl"])
    client.post(url, {"username": "marko", "role": "organiser"})
    UserFactory(username="ivana")
    client.post(url, {"username": "ivana", "role": "referee"})
    client.post(url, {"username": "ivana", "role": "chief_referee"})  # a second role
    revoked = league.roles.get(user__username="ivana", role="referee")
    client.post(url, {"action": "revoke", "role": revoked.pk})
    last = league.roles.filter(role="organiser")
    client.post(url, {"action": "revoke", "role": last.get(user__username="marko").pk})
    client.post(url, {"action": "revoke", "role": last.get().pk})  # refused: the last one
    assert entries(league) == [
        ("role.granted", "ana", {"user": "ana", "role": "organiser"}),
        ("account.created", "ana", {"user": "marko"}),
        ("role.granted", "ana", {"user": "marko", "role": "organiser"}),
        ("role.granted", "ana", {"user": "ivana", "role": "referee"}),
        ("role.granted", "ana", {"user": "ivana", "role": "chief_referee"}),
        ("role.revoked", "ana", {"user": "ivana", "role": "referee"}),
        ("role.revoked", "ana", {"user": "marko", "role": "organiser"}),
    ]
    assert reverse("organisation-log", args=["mpl"]) in client.get(url).content.decode()
    page = client.get(reverse("organisation-log", args=["mpl"])).content.decode()
    assert "ivana: role Table referee revoked" in page
    assert "marko: role Organiser granted" in page and "Account marko created" in page
    assert "role.granted" not in page  # words, not codes


def test_the_log_page_in_croatian(client, league):
    client.post(
        reverse("organisation-staff", args=["mpl"]), {"username": "marko", "role": "referee"}
    )
    page = client.get("/hr" + reverse("organisation-log", args=["mpl"])).content.decode()
    with translation.override("hr"):
        granted = translation.gettext("%(user)s: role %(role)s granted") % {
            "user": "marko",
            "role": translation.gettext("Table referee"),
        }
        title = translation.gettext("Log")
    assert granted in page and f"<h1>{title}</h1>" in page and title != "Log"


def test_only_the_organisers_read_the_log(client, league):
    url = reverse("organisation-log", args=["mpl"])
    client.logout()
    assert client.get(url).status_code == 302  # to the login
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403


def test_the_organisations_log_is_append_only(league):
    entry = league.log.get()
    entry.action = "changed"
    with pytest.raises(AuditLogIsAppendOnly):
        entry.save()
    with pytest.raises(AuditLogIsAppendOnly):
        entry.delete()
    with pytest.raises(AuditLogIsAppendOnly):
        OrganisationLogEntry.objects.filter(pk=entry.pk).update(action="changed")
    # and the database refuses it too (a trigger)
    with pytest.raises(Exception, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM tournaments_organisationlogentry WHERE id = %s", [entry.pk])
    assert league.log.count() == 1
