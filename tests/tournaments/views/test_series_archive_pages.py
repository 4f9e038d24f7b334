"""A series' archive from Pulka's own pages (issue 39): its organisers download it from the
series' page, an organisation's organisers import one as a new series of theirs (a person
matched by his federation id), a bad file refused naming the place at fault with nothing
imported; nobody else does either; the pages' words in every language."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory
from tests.tournaments.archive.test_series_archive import (  # noqa: F401
    computed,
    league_season,
    table,
)
from tournaments.models import Event, Organisation, OrganisationRole, Person, Series

pytestmark = pytest.mark.django_db


def organiser_of(organisation: Organisation):
    user = UserFactory()
    OrganisationRole.objects.create(organisation=organisation, user=user, role="organiser")
    return user


def upload(data: bytes, name: str = "liga.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/json")


def test_an_organiser_downloads_the_series_archive_and_imports_it_into_another_organisation(
    client,
    league_season,  # noqa: F811
):
    series = league_season
    client.force_login(organiser_of(series.organisation))
    manage = client.get(reverse("series-manage", args=[series.slug])).content.decode()
    assert reverse("series-archive", args=[series.slug]) in manage
    response = client.get(reverse("series-archive", args=[series.slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="liga-series-archive-')
    document = json.loads(response.content)
    assert document["format"] == "pulka-series-archive" and len(document["events"]) == 2

    club = Organisation.objects.create(slug="klub", name="Šahovski klub")
    client.force_login(organiser_of(club))
    page = client.get(reverse("organisation", args=["klub"])).content.decode()
    assert reverse("organisation-import-series", args=["klub"]) in page
    persons_before = Person.objects.count()
    imported = client.post(
        reverse("organisation-import-series", args=["klub"]),
        {"archive": upload(response.content), "slug": "liga-kopija", "event_suffix": "-k"},
    )
    assert imported.status_code == 302
    assert imported["Location"] == reverse("series-manage", args=["liga-kopija"])
    copy = Series.objects.get(slug="liga-kopija")
    assert copy.organisation == club
    assert set(copy.events.values_list("organisation_id", flat=True)) == {club.pk}
    assert sorted(copy.events.values_list("slug", flat=True)) == ["vecer-1-k", "vecer-2-k"]
    # the persons with a federation id are the same persons, the others new ones
    assert Person.objects.count() == persons_before + 3
    computed(copy)  # the jobs the import asked for
    assert table(copy) == table(series)


def test_a_bad_archive_is_refused_naming_the_place_and_nothing_is_imported(
    client,
    league_season,  # noqa: F811
):
    series = league_season
    client.force_login(organiser_of(series.organisation))
    document = json.loads(client.get(reverse("series-archive", args=[series.slug])).content)
    events_before, series_before = Event.objects.count(), Series.objects.count()
    url = reverse("organisation-import-series", args=[series.organisation.slug])

    taken = client.post(url, {"archive": upload(json.dumps(document).encode())})
    assert taken.status_code == 400
    assert "$.series.slug" in taken.content.decode() and "liga" in taken.content.decode()

    document["events"][1]["archive"]["players"][0]["name"] = 7
    wrong = client.post(
        url,
        {"archive": upload(json.dumps(document).encode()), "slug": "nova", "event_suffix": "-n"},
    ).content.decode()
    assert "$.events[1].archive.players[0].name" in wrong and "Nothing was imported." in wrong

    not_json = client.post(url, {"archive": upload(b"{nope")}).content.decode()
    assert "not JSON" in not_json
    bad_slug = client.post(url, {"archive": upload(b"{}"), "slug": "a b"}).content.decode()
    assert "$.series.slug" in bad_slug
    missing = client.post(url, {})
    assert missing.status_code == 400 and "Choose the archive file" in missing.content.decode()
    assert (Event.objects.count(), Series.objects.count()) == (events_before, series_before)
    assert not Series.objects.filter(slug="nova").exists()


def test_a_series_too_large_for_the_page_is_sent_to_the_command_line(
    client,
    league_season,  # noqa: F811
    settings,
):
    series = league_season
    client.force_login(organiser_of(series.organisation))
    settings.PULKA_SERIES_ARCHIVE_WEB_LIMIT = 1
    refused = client.get(reverse("series-archive", args=[series.slug]), follow=True)
    assert refused.redirect_chain[-1][0] == reverse("series-manage", args=[series.slug])
    assert "manage.py archive_export liga --series" in refused.content.decode()


def test_only_the_organisations_organisers_download_or_import(client, league_season):  # noqa: F811
    series = league_season
    archive_url = reverse("series-archive", args=[series.slug])
    import_url = reverse("organisation-import-series", args=[series.organisation.slug])
    assert client.get(archive_url).status_code == 302  # to the login
    assert client.get(import_url).status_code == 302
    client.force_login(UserFactory())
    assert client.get(archive_url).status_code == 403
    assert client.get(import_url).status_code == 403
    assert client.post(import_url, {"archive": upload(b"{}")}).status_code == 403


@pytest.mark.parametrize(
    "language, words",
    [
        ("hr", "Uvezi"),
        ("sr-latn", "Uvezi"),
        ("ru", "Импорт"),
        ("de", "Import"),
        ("sv", "Importera"),
    ],
)
def test_the_import_page_in_every_language(client, league_season, language, words):  # noqa: F811
    series = league_season
    client.force_login(organiser_of(series.organisation))
    with translation.override("en"):  # the paths without a language
        import_url = reverse("organisation-import-series", args=[series.organisation.slug])
        manage_url = reverse("series-manage", args=[series.slug])
    page = client.get(f"/{language}{import_url}").content.decode()
    manage = client.get(f"/{language}{manage_url}").content
    with translation.override(language):
        heading = translation.gettext("Import a series from its archive")
        download = translation.gettext("Download the series' archive (.json)")
    assert heading != "Import a series from its archive" and heading in page
    assert words in page
    assert download.replace("'", "&#x27;") in manage.decode()
