"""The organiser's pages of a Balkan event (issue 24 §4): the settings page names the bula and
offers the family's options (seed 002); the standings page offers the family's tie-breaks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EventFactory, UserFactory

pytestmark = pytest.mark.django_db

SETTINGS = {
    "name": "Liga",
    "starts_on": "2027-01-09",
    "ends_on": "2027-01-09",
    "venue": "Klub",
    "variant": "croatian",
    "pulka_target": 50,
    "table_size_policy": "3",
    "rounds_planned": 5,
    "default_draw_method": "no_repeats",
}


def test_settings_page_sets_the_bula_and_the_refa_limit(client):
    event = EventFactory(slug="liga", variant="croatian", pulka_target=30, table_size_policy="3")
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-settings", args=[event.slug])
    page = client.get(url).content.decode()
    assert "Bula" in page and 'name="option_refa_limit"' in page
    assert "002" in page and 'name="option_whist_style"' not in page
    assert "Hrvatski preferans (Croatian)" in page and "Сочинка" in page  # grouped choices
    r = client.post(url, {**SETTINGS, "option_refa_limit": "2", "option_plain_two": ""})
    assert r.status_code == 302, r.content.decode()[:3000]
    event.refresh_from_db()
    assert (event.pulka_target, event.convention_options) == (50, {"refa_limit": 2})
    r = client.post(url, {**SETTINGS, "table_size_policy": "mixed"})
    assert r.status_code == 200 and "002" in r.content.decode()  # tables of three only
    event.refresh_from_db()
    assert event.table_size_policy == "3"


def test_standings_page_offers_the_balkan_tiebreaks(client):
    event = EventFactory(slug="liga", variant="croatian", pulka_target=30, table_size_policy="3")
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("standings-manage", args=[event.slug])).content.decode()
    assert "Contracts lost" in page and "Defences failed" in page
    assert "Raspasy won" not in page
    assert '<option value="place_points"' in page
    assert '<option value="normalised"' not in page  # every Balkan table seats three
