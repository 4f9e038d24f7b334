"""A series' archive (issue 39, docs/archive-format.md "The series archive"): a league with its
events and persons exported and imported again (a round trip gives the same table and the same
document), persons matched by federation id rather than duplicated, an event's archive of the
format as it was still importing through the same door, and a bad or newer archive refused
with nothing imported."""

from __future__ import annotations

import json

import pytest

from tests.tournaments.views.test_series_pages import evening
from tournaments.archive import ArchiveError
from tournaments.archive.export import FIELDS_ADDED, event_archive
from tournaments.archive.series import (
    archive_import_any_json,
    series_archive,
    series_archive_import,
    series_archive_json,
)
from tournaments.models import Entry, Event, Organisation, Person, Series
from tournaments.services import series as service
from tournaments.services.persons import person_new
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_season():
    league = Organisation.objects.create(slug="mpl", name="Međimurska liga", kind="league")
    persons = [
        person_new(
            name=f"Igrač Broj{i}",
            club="Čakovec",
            federation_id=f"HR-{i:04d}" if i % 2 == 0 else "",
        )
        for i in range(6)
    ]
    Person.objects.filter(pk=persons[1].pk).update(shown_as="initials")
    events = [evening(1, persons, league), evening(2, persons[:3], league)]
    series = service.series_create(
        organisation=league, slug="liga", name="Liga 2026", family="russian", best_of=1
    )
    service.series_event_add(series=series, event=events[0])
    service.series_event_add(series=series, event=events[1], category="A", weight="1.5")
    service.series_update(series=series, published=True)
    service.series_standings_recompute(series_id=series.pk)
    return series


def table(series: Series) -> list[tuple]:
    """The stored table by the persons' names and federation ids (not their ids)."""
    series.refresh_from_db()
    rows = series.standings_snapshot.data["rows"]
    people = {p.pk: (p.name, p.federation_id, p.shown_as) for p in Person.objects.all()}
    return [(people[r["person"]], r["place_label"], r["total"], r["cells"]) for r in rows]


def computed(series: Series) -> None:
    for event in series.events.all():
        standings_recompute(event_id=event.pk)
    service.series_standings_recompute(series_id=series.pk)


def without_times(document: dict) -> dict:
    """The document without what differs between two exports of the same series: when and by
    whom, the events' logs (an import adds its own entry), the persons' numbering."""
    out = json.loads(json.dumps(document))
    out.pop("exported_at"), out.pop("exported_by")
    for item in out["events"]:
        item["archive"].pop("exported_at"), item["archive"].pop("exported_by")
        item["archive"].pop("audit_log")
        item["archive"]["event"].pop("created_at")
    return out


def test_a_series_round_trip_gives_the_same_table_and_document(league_season):
    series = league_season
    before = table(series)
    document = json.loads(series_archive_json(series=series))
    assert document["format"] == "pulka-series-archive" and document["version"] == 1
    assert [e["archive"]["event"]["slug"] for e in document["events"]] == ["vecer-1", "vecer-2"]
    assert [e["weight"] for e in document["events"]] == ["1.000", "1.500"]
    assert len(document["persons"]) == 6 and len(document["events"][1]["persons"]) == 3

    # as into another Pulka: the short names free, nobody holding the federation ids (the
    # records of an event stay for good: the originals are renamed, not deleted)
    Series.objects.filter(pk=series.pk).update(slug="liga-old")
    for event in series.events.all():
        Event.objects.filter(pk=event.pk).update(slug=f"{event.slug}-old")
    Person.objects.update(federation_id="")
    imported = series_archive_import(document=document, by=None)
    assert (imported.slug, imported.organisation.slug, imported.best_of) == ("liga", "mpl", 1)
    assert Person.objects.count() == 12
    assert sorted(
        Person.objects.exclude(federation_id="").values_list("federation_id", flat=True)
    ) == [
        "HR-0000",
        "HR-0002",
        "HR-0004",
    ]
    computed(imported)
    assert table(imported) == before
    again = series_archive(series=imported)
    assert without_times(again) == without_times(document)


def test_persons_are_matched_by_federation_id_not_duplicated(league_season):
    series = league_season
    document = series_archive(series=series)
    persons_before = Person.objects.count()
    with_id = set(Person.objects.exclude(federation_id="").values_list("pk", flat=True))
    imported = series_archive_import(document=document, by=None, slug="liga-b", event_suffix="-b")
    assert [e.slug for e in imported.events.order_by("slug")] == ["vecer-1-b", "vecer-2-b"]
    # the three with a federation id are the same persons; the three without are new
    assert Person.objects.count() == persons_before + 3
    linked = set(Entry.objects.filter(event__series=imported).values_list("person_id", flat=True))
    assert with_id <= linked and len(linked) == 6
    assert not Entry.objects.filter(event__series=imported, person__isnull=True).exists()
    computed(imported)
    assert [row[1:] for row in table(imported)] == [row[1:] for row in table(series)]


def test_an_events_archive_of_the_format_as_it_was_still_imports(league_season):
    event = league_season.events.get(slug="vecer-1")
    document = event_archive(event=event)
    for item in document["players"]:  # as an archive written before those keys were added
        for key in FIELDS_ADDED["player"]:
            item.pop(key)
    for key in FIELDS_ADDED["event"]:
        document["event"].pop(key)
    imported = archive_import_any_json(text=json.dumps(document), by=None, slug="vecer-1-old")
    assert isinstance(imported, Event) and imported.entries.count() == 6


def test_a_bad_or_newer_series_archive_is_refused_and_nothing_imported(league_season):
    document = series_archive(series=league_season)
    newer = {**document, "version": 2}
    with pytest.raises(ArchiveError) as error:
        series_archive_import(document=newer, by=None, slug="liga-new")
    assert error.value.path == "$.version" and "newer Pulka" in error.value.message
    taken = json.loads(json.dumps(document))
    with pytest.raises(ArchiveError) as error:
        series_archive_import(document=taken, by=None)
    assert error.value.path == "$.series.slug"
    broken = json.loads(json.dumps(document))
    broken["events"][1]["archive"]["players"][0]["name"] = 7
    counts = (Series.objects.count(), Event.objects.count(), Person.objects.count())
    with pytest.raises(ArchiveError) as error:
        series_archive_import(document=broken, by=None, slug="liga-x", event_suffix="-x")
    assert error.value.path == "$.events[1].archive.players[0].name"
    assert (Series.objects.count(), Event.objects.count(), Person.objects.count()) == counts
    with pytest.raises(ArchiveError) as error:
        archive_import_any_json(text=json.dumps({"format": "something else"}), by=None)
    assert error.value.path == "$.format"


def test_the_commands_export_and_import_a_series(league_season, tmp_path):
    from django.core.management import call_command

    path = tmp_path / "liga.json"
    call_command("archive_export", "liga", "--series", "-o", str(path))
    assert json.loads(path.read_text())["format"] == "pulka-series-archive"
    from io import StringIO

    out = StringIO()
    call_command(
        "archive_import", str(path), "--slug", "liga-2", "--event-suffix", "-2", stdout=out
    )
    assert "liga-2: imported (2 events)" in out.getvalue()
    assert Series.objects.get(slug="liga-2").events.filter(slug="vecer-1-2").exists()
