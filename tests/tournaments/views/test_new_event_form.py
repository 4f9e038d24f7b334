"""Issue 36, "the new-event form follows the game chosen": the size field's label and default,
the table sizes the game allows and only that family's options; a post that changed the game
is shown again with the new game's settings rather than refused for (or saved with) the old
game's defaults."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def _value(page: str, name: str) -> str:
    m = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
    return m.group(1) if m else ""


def _selected(page: str, name: str) -> str:
    select = re.search(rf'<select name="{name}".*?</select>', page, re.S).group(0)
    return re.search(r'<option value="([^"]*)" selected', select).group(1)


@pytest.mark.parametrize(
    ("variant", "label", "size", "tables", "option", "foreign"),
    [
        ("sochi", "Pulka size", "20", "mixed", "option_whist_style", "option_refa_limit"),
        ("croatian", "Bula", "30", "3", "option_refa_limit", "option_whist_style"),
        ("viennese", "Stake (chips)", "10", "mixed", "option_max_amount", "option_refa_limit"),
        ("german", "Stake (chips)", "10", "3", "option_cap", "option_whist_style"),
        ("priffe", "Sits", "3", "4", "option_penalty_points", "option_max_amount"),
    ],
)
def test_the_form_starts_from_the_chosen_games_defaults(
    client, variant, label, size, tables, option, foreign
):
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("event-new") + f"?variant={variant}").content.decode()
    assert re.search(rf"<label[^>]*>{re.escape(label)}", page), label
    assert _value(page, "pulka_target") == size
    assert _selected(page, "table_size_policy") == tables
    assert f'name="{option}"' in page and f'name="{foreign}"' not in page


def test_a_changed_game_is_shown_again_with_its_settings_then_saved(client):
    client.force_login(UserFactory(is_staff=True))
    fields = {
        "slug": "wien", "name": "Wien", "starts_on": "2027-03-06", "ends_on": "2027-03-06",
        "venue": "Café", "rounds_planned": 3, "default_draw_method": "no_repeats",
    }  # fmt: skip
    # the form was shown for Sochi (20, mixed); the organiser chose the Viennese game
    r = client.post(
        reverse("event-new"),
        {**fields, "shown_family": "russian", "variant": "viennese", "pulka_target": 20,
         "table_size_policy": "mixed"},  # fmt: skip
    )
    page = r.content.decode()
    assert r.status_code == 200 and not Event.objects.filter(slug="wien").exists()
    assert "the chosen game&#x27;s settings" in page
    assert _value(page, "pulka_target") == "10" and _value(page, "name") == "Wien"
    assert 'name="option_max_amount"' in page and 'name="option_whist_style"' not in page
    r = client.post(
        reverse("event-new"),
        {**fields, "shown_family": "pot", "variant": "viennese", "pulka_target": 10,
         "table_size_policy": "mixed"},  # fmt: skip
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Event.objects.get(slug="wien").pulka_target == 10


def test_the_desk_names_the_game_size_as_the_family_does(client):
    """Issue 36: a Balkan event's desk says "Bula: 30", not "Pulka: 30"."""
    client.force_login(UserFactory(is_staff=True))
    fields = {
        "slug": "liga", "name": "Liga", "starts_on": "2027-03-06", "ends_on": "2027-03-06",
        "venue": "Klub", "rounds_planned": 3, "default_draw_method": "no_repeats",
        "variant": "croatian", "pulka_target": 30, "table_size_policy": "3",
    }  # fmt: skip
    assert client.post(reverse("event-new"), fields).status_code == 302
    page = client.get(reverse("manage", args=["liga"])).content.decode()
    assert "Bula: 30" in page and "Pulka: 30" not in page


def test_tie_breaks_and_keeping_clubs_apart_are_chosen_at_creation(client):
    """Issue 36: the new-event form offers the family's tie-breaks and keeping clubs apart."""
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("event-new") + "?variant=croatian").content.decode()
    assert 'name="tiebreaks"' in page and 'name="separate_clubs"' in page
    offered = re.findall(r'name="tiebreaks" value="([^"]+)"', page)
    assert offered, page
    fields = {
        "slug": "liga", "name": "Liga", "starts_on": "2027-03-06", "ends_on": "2027-03-06",
        "venue": "Klub", "rounds_planned": 3, "default_draw_method": "no_repeats",
        "variant": "croatian", "pulka_target": 30, "table_size_policy": "3",
        "separate_clubs": "on", "tiebreaks": list(reversed(offered[:2])),
    }  # fmt: skip
    r = client.post(reverse("event-new"), fields)
    assert r.status_code == 302, r.content.decode()[:3000]
    event = Event.objects.get(slug="liga")
    assert event.tiebreaks == offered[:2] and event.separate_clubs
