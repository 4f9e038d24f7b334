"""No input is a 500 (issue 38, "No input is a 500"): the six probes that were, each a 4xx with
a clear message naming what is wrong."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import EventFactory, UserFactory
from tests.tournaments.protocols.conftest import make_table
from tournaments.errors import INT_MAX, UserFacingError, whole_number
from tournaments.models import EventRole
from tournaments.services.events import event_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/t/%00/", "/p/%00/", "/p/%00/protocols/", "/e/a%00b/", "/e/x/rounds/1/%00"]
)
def test_a_nul_in_a_page_path_is_a_400(path):
    r = Client(raise_request_exception=False).get(path)
    assert r.status_code == 400
    assert "The address holds a NUL character" in r.content.decode()


def test_a_nul_in_an_api_path_is_a_json_400():
    r = APIClient().get("/api/v1/jobs/abc%00def")
    assert r.status_code == 400
    assert r.json()["message"] == "The address holds a NUL character, which no address may contain."


@pytest.mark.parametrize(
    ("deal", "says"),
    [
        ("99999999999999999999", "99999999999999999999 is out of range"),
        ("9" * 40, "99999999999… is not a whole number between"),
        ("3000000000", "3000000000 is out of range"),
        ("-5", "There is no deal -5: deals are numbered from 1 to 9999."),
        ("10000", "There is no deal 10000"),
    ],
)
def test_an_incidents_deal_out_of_range_is_a_form_error(client, deal, says):
    setup = make_table()
    client.force_login(setup.referee)
    url = f"/e/{setup.event.slug}/manage/rounds/1/tables/1/incidents"
    r = client.post(url, {"action": "incident", "description": "talon seen", "deal": deal})
    assert r.status_code == 400
    assert says in r.content.decode()
    assert not setup.table.incidents.exists()
    ok = client.post(url, {"action": "incident", "description": "talon seen", "deal": "9999"})
    assert ok.status_code == 302 and setup.table.incidents.get().deal == 9998


def test_whole_number_bounds_name_the_field():
    assert whole_number(str(INT_MAX)) == INT_MAX
    with pytest.raises(UserFacingError) as refused:
        whole_number(str(INT_MAX + 1), "whists")
    assert refused.value.extra == {"field": "whists"}
    assert "out of range" in refused.value.message
    with pytest.raises(UserFacingError):
        whole_number("1" * 5000)  # not parsed at all: longer than any bound


def test_a_lone_surrogate_in_an_imported_csv_is_refused_naming_the_line():
    event = EventFactory()
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    api = APIClient()
    api.force_authenticate(user)
    body = '{"csv": "name,club\\nAnna,A\\nSur \\ud800 Gate,B\\n"}'  # JSON's own escape
    r = api.post(f"/api/v1/events/{event.slug}/entries/import", body,
                 content_type="application/json")  # fmt: skip
    assert r.status_code == 400, r.content
    assert r.json()["extra"]["lines"] == [
        {
            "line": 3,
            "field": "name",
            "message": "contains the surrogate character U+D800, which is not text",
        }
    ]
    assert not event.entries.exists()


def test_an_unknown_table_size_policy_is_refused_when_the_event_is_made():
    with pytest.raises(UserFacingError) as refused:
        event_create(slug="three", name="Cup", starts_on=dt.date(2026, 1, 1),
                     table_size_policy="three")  # fmt: skip
    assert refused.value.extra == {"field": "table_size_policy"}
    assert refused.value.message == (
        "'three' is not a table-size policy; choose one of 3, 4, mixed, mixed4."
    )


def test_a_fixed_table_past_the_columns_range_is_a_form_error(client):
    setup = make_table()
    organiser = UserFactory()
    EventRole.objects.create(event=setup.event, user=organiser, role=EventRole.Role.ORGANISER)
    client.force_login(organiser)
    r = client.post(
        f"/e/{setup.event.slug}/manage/constraints/",
        {"action": "fix-table", "entry": str(setup.entries[0].pk), "table": "2147483648"},
    )
    assert r.status_code in (200, 400)
    assert "Ensure this value is less than or equal to 32767." in r.content.decode()
    setup.entries[0].refresh_from_db()
    assert setup.entries[0].fixed_table is None
