"""Organisations from Pulka's own pages (issue 39): an organiser creates a club, a league or a
federation, names its organisers and referees (the roles events have), edits its name and kind,
and creates series under it; in every language Pulka offers."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory
from tournaments.models import Organisation, OrganisationRole, Series

pytestmark = pytest.mark.django_db


@pytest.fixture
def creator():
    return UserFactory(is_staff=True)


def _create(client, **fields):
    data = {"slug": "mpl", "name": "Međimurska liga", "kind": "league", "city": "Čakovec"}
    return client.post(reverse("organisation-new"), {**data, **fields})


def test_an_organiser_creates_an_organisation_and_becomes_its_organiser(client, creator):
    client.force_login(creator)
    assert reverse("organisation-new") in client.get("/").content.decode()  # linked from home
    response = _create(client)
    assert response.status_code == 302 and response["Location"] == reverse("organisation", args=["mpl"])
    league = Organisation.objects.get(slug="mpl")
    assert (league.name, league.kind, league.city) == ("Međimurska liga", "league", "Čakovec")
    assert OrganisationRole.objects.filter(
        organisation=league, user=creator, role="organiser"
    ).exists()
    home = client.get("/").content.decode()
    assert "Your organisations" in home and "Međimurska liga" in home
    page = client.get(reverse("organisation", args=["mpl"])).content.decode()
    assert reverse("organisation-staff", args=["mpl"]) in page and 'id="series-new"' in page


def test_a_taken_short_name_and_a_missing_name_are_said_beside_their_fields(client, creator):
    client.force_login(creator)
    _create(client)
    again = _create(client).content.decode()
    assert "The short name mpl is taken." in again
    assert Organisation.objects.count() == 1
    nameless = _create(client, slug="other", name=" ").content.decode()
    assert "This field is required." in nameless or "An organisation needs a name." in nameless
    assert not Organisation.objects.filter(slug="other").exists()


def test_only_those_who_may_create_events_create_organisations(client):
    assert client.get(reverse("organisation-new")).status_code == 302  # to the login
    client.force_login(UserFactory())
    assert _create(client).status_code == 403
    assert not Organisation.objects.exists()


def test_the_organisers_name_organisers_and_referees(client, creator):
    client.force_login(creator)
    _create(client)
    url = reverse("organisation-staff", args=["mpl"])
    new = client.post(url, {"username": "marko", "role": "organiser"}, follow=True)
    assert "Account marko created with the password" in new.content.decode()
    marko = get_user_model().objects.get(username="marko")
    existing = UserFactory(username="ivana")
    client.post(url, {"username": "ivana", "role": "referee"})
    league = Organisation.objects.get(slug="mpl")
    assert set(league.roles.values_list("user__username", "role")) == {
        (creator.username, "organiser"),
        ("marko", "organiser"),
        ("ivana", "referee"),
    }
    # the new organiser creates a series under it; the referee may not
    client.force_login(marko)
    created = client.post(
        reverse("organisation", args=["mpl"]),
        {
            "slug": "liga-2026",
            "name": "Liga 2026",
            "family": "balkan",
            "points": "place_points",
            "min_events": 1,
            "tiebreaks": ["events_won"],
        },
    )
    assert created.status_code == 302
    assert Series.objects.get(slug="liga-2026").organisation == league
    client.force_login(existing)
    assert client.get(url).status_code == 403
    # a role revoked; the last organiser stays
    client.force_login(creator)
    for role in league.roles.filter(user__username__in=["marko", "ivana"]):
        client.post(url, {"action": "revoke", "role": role.pk})
    assert list(league.roles.values_list("user__username", flat=True)) == [creator.username]
    kept = client.post(
        url, {"action": "revoke", "role": league.roles.get().pk}, follow=True
    ).content.decode()
    assert "keeps at least one organiser" in kept and league.roles.count() == 1


def test_the_organisers_edit_its_name_and_kind_not_its_short_name(client, creator):
    client.force_login(creator)
    _create(client)
    url = reverse("organisation-settings", args=["mpl"])
    client.post(url, {"slug": "changed", "name": "Međimurski savez", "kind": "federation"})
    league = Organisation.objects.get()
    assert (league.slug, league.name, league.kind, league.city) == (
        "mpl",
        "Međimurski savez",
        "federation",
        "",
    )
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403


@pytest.mark.parametrize("language", ["hr", "sr-latn", "ru", "de", "sv"])
def test_the_organisation_pages_in_every_language(client, creator, language):
    client.force_login(creator)
    _create(client)
    english = {
        reverse("organisation-new"): "New organisation",
        reverse("organisation-staff", args=["mpl"]): "Organisers and referees",
        reverse("organisation-settings", args=["mpl"]): "The organisation's page",
        reverse("organisation", args=["mpl"]): "Name and kind",
    }
    for url, words in english.items():
        with translation.override(language):
            said = translation.gettext(words)
            localised = f"/{language}{url}"
        assert said != words, (language, words)
        body = client.get(localised).content.decode()
        assert said.replace("'", "&#x27;") in body, (language, url)
