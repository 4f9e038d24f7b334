"""Issue 36: the log names the round and table of every protocol entry ("round 1, table 1:
version 1 saved") and who saved it, the table's phone when no account did."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.protocols.test_protocol_services import closed_protocol, save
from tournaments.services.protocols import protocol_approve

pytestmark = pytest.mark.django_db


def test_the_log_names_round_table_and_who_saved_a_protocol(client, setup):
    good = closed_protocol(setup)
    save(setup, good, None)  # from the table's phone: no account
    version = setup.table.protocols.get(is_current=True)
    protocol_approve(protocol=version, by=setup.chief, confirm_missing=True)
    client.force_login(setup.chief)
    page = html.unescape(client.get(reverse("manage-log", args=[setup.event.slug])).content.decode())
    rows = [r for r in page.split("<tr>") if "version 1" in r]
    saved = next(r for r in rows if "version 1 saved" in r)
    approved = next(r for r in rows if "version 1 approved" in r)
    assert "round 1, table 1: version 1 saved" in saved and "at the table" in saved
    assert "round 1, table 1: version 1 approved" in approved
    assert setup.chief.get_username() in approved


def test_the_referee_page_says_approved_after_an_approval(client, setup):
    """Issue 36: "Approved" after an approval, not "Saved."; in the page's language too."""
    save(setup, closed_protocol(setup), None)
    client.force_login(setup.chief)
    url = reverse("protocol-action", args=[setup.event.slug, 1, 1, "approve"])
    r = client.post(url, {"version": "1", "confirm_missing": "1"}, follow=True)
    page = r.content.decode()
    assert 'id="done">Approved.</p>' in page and 'id="done">Saved.' not in page
    assert r.redirect_chain and "saved=approve" in r.redirect_chain[-1][0]
    page = client.get(f"/ru{r.redirect_chain[-1][0]}").content.decode()
    assert 'id="done">Утверждено.</p>' in page
