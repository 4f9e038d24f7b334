"""The event form sets the convention's options (issue 4: "the variant and convention with its
options, validated against rules/"): every option of ``rules`` has a labelled field, blank means
"as the convention has it", and a bad value is refused naming the option."""

import dataclasses

import pytest
from django.urls import reverse

from rules.conventions import OPTION_CHOICES, SOCHI, Convention
from tests.factories import EventFactory, UserFactory
from tournaments.forms import convention_options
from tournaments.forms.event import EventForm

pytestmark = pytest.mark.django_db

SETTINGS = {
    "name": "Club Cup",
    "starts_on": "2027-01-09",
    "ends_on": "2027-01-09",
    "venue": "Club",
    "variant": "sochi",
    "pulka_target": 20,
    "table_size_policy": "mixed",
    "rounds_planned": 6,
    "default_draw_method": "no_repeats",
    "published": "on",
}


def test_every_option_of_the_rules_has_a_label_and_every_choice_a_name():
    options = {f.name for f in dataclasses.fields(Convention)} - {"key", "name", "aliases"}
    assert set(convention_options.OPTION_LABELS) == options
    for name, values in OPTION_CHOICES.items():
        for value in values:
            assert (name, value) in convention_options.VALUE_LABELS, (name, value)
    assert set(SOCHI.options()) == options


def test_settings_store_only_the_options_set_and_show_them_again(client):
    event = EventFactory(slug="club-cup")
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-settings", args=[event.slug])
    data = {
        **SETTINGS,
        "option_whist_style": "gentleman",
        "option_raspasy_price": "2",
        "option_help": "false",
        "option_rounding": "",  # blank: as the convention has it
    }
    page = client.post(url, data)
    assert page.status_code == 302, page.content.decode()[:3000]
    event.refresh_from_db()
    assert event.convention_options == {"whist_style": "gentleman", "raspasy_price": 2, "help": False}
    form = client.get(url).content.decode()
    assert '<option value="gentleman" selected>' in form
    assert 'name="option_raspasy_price" value="2"' in form
    assert '<option value="false" selected>' in form
    dashboard = client.get(reverse("manage", args=[event.slug])).content.decode()
    assert "Whist (Kodeks 1996, 3.8.13, 3.8.14): gentleman&#x27;s (джентльменский)" in dashboard
    # blank everywhere: back to the convention
    client.post(url, SETTINGS)
    event.refresh_from_db()
    assert event.convention_options == {}


def test_a_value_out_of_the_rules_range_is_refused_naming_the_option(client):
    event = EventFactory(slug="club-cup", convention_options={"whist_style": "gentleman"})
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-settings", args=[event.slug])
    page = client.post(url, {**SETTINGS, "option_raspasy_exit_level": "11"})
    assert page.status_code == 200
    body = page.content.decode()
    assert "Lowest contract right after raspasy" in body and "10" in body
    form = page.context["form"]
    assert "option_raspasy_exit_level" in form.errors
    event.refresh_from_db()
    assert event.convention_options == {"whist_style": "gentleman"}  # nothing lost


def test_a_new_event_takes_its_options():
    form = EventForm(
        {**SETTINGS, "slug": "new-cup", "variant": "rostov", "option_raspasy_amnesty": "true"}
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["convention_options"] == {"raspasy_amnesty": True}
    assert not any(k.startswith("option_") for k in form.cleaned_data)


def test_the_russian_form_names_the_options_in_russian(client):
    event = EventFactory(slug="club-cup")
    client.force_login(UserFactory(is_superuser=True))
    page = client.get("/ru" + reverse("manage-settings", args=[event.slug])).content.decode()
    assert "Ответственность вистующего (Кодекс 1996, 3.8.11, 3.8.12)" in page
    assert "джентльменский" in page and "по конвенции" in page


def test_the_public_event_page_names_the_convention_and_its_options(client):
    event = EventFactory(variant="leningrad", convention_options={"raspasy_price": 3})
    page = client.get(reverse("event", args=[event.slug])).content.decode()
    assert "Leningrad" in page and "Ленинградка" not in page  # in the page's language (#36)
    assert "Raspasy price per trick (Kodeks 1996, note 44): 3" in page
    page = client.get("/ru" + reverse("event", args=[event.slug])).content.decode()
    assert "Ленинградка" in page and "(Leningrad)" not in page


def test_the_returned_half_consolation_option_d21_is_set_and_shown_in_both_languages(client):
    """D21 (001 §3.8.8, §3.8.14, §3.8.1.2): the organiser turns the former half-whister's
    consolation off; the event stores it and the pages name it with its source."""
    event = EventFactory(slug="club-cup", variant="leningrad")
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-settings", args=[event.slug])
    form = client.get(url).content.decode()
    assert 'name="option_returned_half_consolation"' in form
    page = client.post(
        url, {**SETTINGS, "variant": "leningrad", "option_returned_half_consolation": "false"}
    )
    assert page.status_code == 302, page.content.decode()[:3000]
    event.refresh_from_db()
    assert event.convention_options == {"returned_half_consolation": False}
    public = client.get(reverse("event", args=[event.slug])).content.decode()
    assert (
        "Gentleman whist, whist returned: the former half-whister writes the consolation"
        " (Kodeks 1996, 3.8.8, 3.8.14, 3.8.1.2): no"
    ) in public
    russian = client.get("/ru" + url).content.decode()
    assert "уходивший за полвиста пишет консоляцию (Кодекс 1996, 3.8.8, 3.8.14, 3.8.1.2)" in russian
