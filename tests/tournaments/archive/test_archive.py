"""The event archive (issue 29): export the demo event, import it as a new event, export again:
the same document (ids and the export's own time aside); refusals leave nothing behind."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.archive import ARCHIVE_VERSION, ArchiveError
from tournaments.archive.export import event_archive
from tournaments.archive.load import event_archive_import, event_archive_import_json
from tournaments.archive.refs import ORDINARY_VERSION
from tournaments.models import (
    Appeal,
    AuditLogEntry,
    Entry,
    Event,
    Player,
    Protocol,
    Round,
    Ruling,
    Table,
)

from .conftest import imported

pytestmark = pytest.mark.django_db


def _comparable(document: dict) -> dict:
    """The archive without what differs between two exports of the same record: the export's
    own time and author, and the event's short name (an import takes a new one)."""
    doc = copy.deepcopy(document)
    doc.pop("exported_at")
    doc.pop("exported_by")
    doc["event"].pop("slug")
    return doc


def _counts() -> dict[str, int]:
    return {
        m.__name__: m.objects.count()
        for m in (Event, Entry, Player, Round, Table, Protocol, Ruling, Appeal, AuditLogEntry)
    }


def test_round_trip_of_the_demo_event(demo, client):
    event, organiser = demo
    first = event_archive(event=event)
    # the demo has what the archive must carry: versions, findings, rulings, an appeal, a log
    # an ordinary event's archive stays version 1, which every Pulka reads
    assert first["version"] == ORDINARY_VERSION == 1 and first["format"] == "pulka-event-archive"
    assert len(first["players"]) == 26
    assert [r["number"] for r in first["rounds"]] == [1, 2, 3, 4]
    versions = [p for r in first["rounds"] for t in r["tables"] for p in t["protocols"]]
    assert any(p["findings"] for p in versions) and any(p["approved"] for p in versions)
    assert first["rulings"] and first["appeals"] and first["audit_log"]
    # no database id: results name players by the archive's references
    refs = {p["ref"] for p in first["players"]}
    assert all(row["entry"] in refs for p in versions for row in p["result"])

    copy_ = imported(first, organiser, "copy")
    assert copy_.pk != event.pk and copy_.slug == "copy"
    second = event_archive(event=copy_)
    logged = second["audit_log"].pop()
    assert logged["action"] == "event.imported" and logged["data"]["from"] == event.slug
    assert _comparable(second) == _comparable(first)
    # the imported rows are new rows, with new private links
    assert not set(copy_.entries.values_list("url_key", flat=True)) & set(
        event.entries.values_list("url_key", flat=True)
    )
    # the imported event reads as the original: same approved results, same log in words
    original = Protocol.objects.filter(table__round__event=event, approved=True)
    again = Protocol.objects.filter(table__round__event=copy_, approved=True)
    names = lambda qs: sorted(  # noqa: E731
        (p.table.round.number, p.table.number, tuple((r["name"], r["whists"]) for r in p.result))
        for p in qs
    )
    assert names(again) == names(original)
    assert {e.player.name for e in copy_.entries.all()} == {
        e.player.name for e in event.entries.all()
    }
    # and its pages work: the public round, the referees' protocols, the table's versions
    client.force_login(organiser)
    for url in (
        "/e/copy/",
        "/e/copy/rounds/3/",
        "/e/copy/manage/",
        "/e/copy/manage/rounds/3/protocols",
        "/e/copy/manage/rounds/3/tables/4/protocol/versions",
        "/e/copy/manage/appeals/",
        "/e/copy/manage/log/",
    ):
        assert client.get(url).status_code == 200, url


def test_an_archive_of_a_newer_version_is_refused(demo):
    event, organiser = demo
    document = event_archive(event=event)
    document["version"] = ARCHIVE_VERSION + 1
    before = _counts()
    with pytest.raises(ArchiveError) as refused:
        event_archive_import(document=document, by=organiser, slug="newer")
    assert refused.value.path == "$.version"
    assert (
        "newer Pulka" in refused.value.message and "Nothing was imported" in refused.value.message
    )
    assert _counts() == before


def test_a_fault_at_the_end_leaves_nothing_half_imported(demo):
    event, organiser = demo
    document = event_archive(event=event)
    last = len(document["audit_log"]) - 1
    document["audit_log"][last]["created_at"] = "yesterday"
    before = _counts()
    with pytest.raises(ArchiveError) as refused:
        event_archive_import(document=document, by=organiser, slug="broken")
    assert refused.value.path == f"$.audit_log[{last}].created_at"
    assert _counts() == before  # the event, its players, rounds and protocols: all rolled back
    assert not Event.objects.filter(slug="broken").exists()


@pytest.mark.parametrize(
    ("damage", "path"),
    [
        (lambda d: d.pop("players"), "$.players"),
        (lambda d: d.update(format="pulka-protocol"), "$.format"),
        (
            lambda d: d["rounds"][0]["tables"][0]["seats"][0].update(player=999),
            "$.rounds[0].tables[0].seats[0].player",
        ),
        (lambda d: d["rounds"][0].update(number="one"), "$.rounds[0].number"),
        (
            lambda d: d["rounds"][0]["tables"][0]["protocols"][0]["data"].update(deals="x"),
            "$.rounds[0].tables[0].protocols[0].data",
        ),
        (lambda d: d["event"].update(table_size_policy="five"), "$.event"),
        (lambda d: d["rulings"][0].update(incident=77), "$.rulings[0].incident"),
        (lambda d: d["event"].update(variant="bridge"), "$.event.variant"),
    ],
)
def test_a_malformed_archive_is_refused_naming_the_place(demo, damage, path):
    event, organiser = demo
    document = event_archive(event=event)
    damage(document)
    before = _counts()
    with pytest.raises(ArchiveError) as refused:
        event_archive_import(document=document, by=organiser, slug="malformed")
    assert refused.value.path == path, refused.value.message
    assert _counts() == before


def test_not_json_and_a_taken_short_name_are_refused(demo):
    event, organiser = demo
    with pytest.raises(ArchiveError, match="not JSON"):
        event_archive_import_json(text=b"{ not json", by=organiser)
    with pytest.raises(ArchiveError, match="exists already"):
        event_archive_import(document=event_archive(event=event), by=organiser)


def _decodes(text: str) -> bool:
    try:
        json.loads(text)
    except RecursionError:
        return False
    return True


def test_json_nested_too_deeply_is_refused_and_nothing_imported(demo):
    """Issue 25 item 7: nesting the decoder refuses, and nesting it takes but that is too deep
    to check and store (an audit entry's data here), are ArchiveErrors, not RecursionErrors."""
    event, organiser = demo
    before = _counts()
    with pytest.raises(ArchiveError, match="nested too deeply"):
        event_archive_import_json(text="[" * 100_000, by=organiser)
    deep = next(d for d in range(3000, 0, -10) if _decodes("[" * d + "]" * d)) - 10
    document = json.loads(json.dumps(event_archive(event=event)))
    document["audit_log"][0]["data"] = json.loads("[" * deep + "]" * deep)
    with pytest.raises(ArchiveError, match="nested too deeply"):
        event_archive_import_json(text=json.dumps(document), by=organiser, slug="deep")
    assert _counts() == before and not Event.objects.filter(slug="deep").exists()


def test_management_commands_export_and_import(demo, tmp_path):
    event, organiser = demo
    out = tmp_path / "demo.json"
    call_command("archive_export", event.slug, "-o", str(out))
    call_command("archive_import", str(out), "--slug", "from-file", "--user", "demo")
    copied = Event.objects.get(slug="from-file")
    assert copied.entries.count() == 26 and copied.rounds.count() == 4
    document = json.loads(out.read_text())
    document["version"] = 99
    out.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="version 99"):
        call_command("archive_import", str(out), "--slug", "never")
    assert not Event.objects.filter(slug="never").exists()


@pytest.mark.parametrize(
    "make",
    [
        "tournaments.demo.balkan.demo_balkan_event",
        "tournaments.demo.pot.demo_pot_event",
        "tournaments.demo.priffe.demo_priffe_event",
    ],
)
def test_round_trip_of_every_rule_familys_demo(organiser, make):
    """Each family's protocols are read back by its own scoring module on import."""
    from django.utils.module_loading import import_string

    event = import_string(make)(organiser=organiser)
    first = event_archive(event=event)
    versions = [p for r in first["rounds"] for t in r["tables"] for p in t["protocols"]]
    assert versions, "the demo has protocols"
    copy_ = event_archive_import(document=first, by=organiser, slug=f"{event.slug}-copy")
    second = event_archive(event=copy_)
    assert second["audit_log"].pop()["action"] == "event.imported"
    assert _comparable(second) == _comparable(first)


def test_the_import_reports_its_steps_in_order_up_to_the_last(demo):
    from tournaments.archive.load import import_steps

    event, organiser = demo
    document = event_archive(event=event)
    seen: list[tuple[int, int]] = []
    event_archive_import(
        document=document, by=organiser, slug="stepped", on_progress=lambda *s: seen.append(s)
    )
    total = import_steps(document)
    assert total == 6 + len(document["rounds"])
    assert seen == [(i, total) for i in range(1, total + 1)]
