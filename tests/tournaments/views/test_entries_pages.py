"""The players page's CSV import: bad lines listed, nothing half-imported; an extended list
imported again with "skip players already entered"."""

import pytest
from django.urls import reverse

from tests.factories import EventFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_importing_an_extended_list_again_from_the_page(client):
    event = EventFactory()
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-entries-import", args=[event.slug])
    client.post(url, {"text": "name,club\nАнна,Ферзь\nBoris,B\n"})
    extended = "name,club\nАнна,Ферзь\nBoris,B\nVera,V\n"
    page = client.post(url, {"text": extended})
    body = page.content.decode()
    assert page.status_code == 200 and "already entered" in body
    assert event.entries.count() == 2
    page = client.post(url, {"text": extended, "skip_entered": "on"}, follow=True)
    body = page.content.decode()
    assert "1 player imported." in body and "Skipped as already entered: lines 2, 3." in body
    assert event.entries.count() == 3
