"""Issue 29: an imported event's draws can be verified on the importing server. The draw record
keeps the ids it ran with (the engine's tables depend on them); the archive says which player
each id is (``draw_players``), the import records which new entry that is (``entry_ids``), and
``draw_verify EVENT ROUND`` re-runs the draw and compares it with the seating stored here.
Archives without these keys (written before them) still import. The fields added to the event,
players, rounds and protocols since the archive's first version travel too."""

from __future__ import annotations

import copy
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from tournaments.archive.export import event_archive
from tournaments.models import Entry, Protocol, Round
from tournaments.services.draw_record import draw_record, entry_ids
from tournaments.services.rounds import seats_swap, table_redraw

from .conftest import imported

pytestmark = pytest.mark.django_db


def verify(slug: str, number: int, capsys) -> str:
    call_command("draw_verify", slug, str(number))
    return capsys.readouterr().out


def test_an_imported_events_draws_verify_on_the_importing_server(demo, capsys, client):
    event, organiser = demo
    document = event_archive(event=event)
    round1 = document["rounds"][0]
    refs = {p["ref"] for p in document["players"]}
    assert round1["draw_players"] and set(round1["draw_players"].values()) <= refs
    copy_ = imported(document, organiser, "copy")
    for number in (1, 2, 3):
        original = Round.objects.get(event=event, number=number)
        here = Round.objects.get(event=copy_, number=number)
        ids = entry_ids(here)
        # the draw as it ran, and which of this event's entries each of its ids is
        assert here.draw_params["tables"] == original.draw_params["tables"]
        assert set(ids.values()) <= set(copy_.entries.values_list("pk", flat=True))
        names = dict(Entry.objects.values_list("pk", "player__name"))
        assert all(names[draw] == names[new] for draw, new in ids.items())
        out = verify("copy", number, capsys)
        assert "the engine gives the same 8 tables" in out
        assert "the seating here is the 8 tables drawn" in out
        assert out.rstrip().endswith("verified")
    # the record says which entry of this event each of its ids is (the API gives the same)
    record = draw_record(Round.objects.get(event=copy_, number=1))
    assert {int(k) for k in record["entry_ids"]} >= {
        x for t in record["tables"] for x in t["seats"]
    }
    # the round's page names the players of the draw's report, not "#<id>"
    client.force_login(organiser)
    page = client.get(reverse("manage-round", args=["copy", 2])).content.decode()
    report = page[page.index("Draw report") :]
    round2 = Round.objects.get(event=copy_, number=2)
    first_drawn = round2.draw_params["tables"][0]["seats"][0]
    first_name = Entry.objects.get(pk=entry_ids(round2)[first_drawn]).player.name
    assert first_name in report and f"#{first_drawn}" not in report


def test_corrections_travel_in_the_draws_ids(demo, capsys):
    event, organiser = demo
    round3 = Round.objects.get(event=event, number=3)
    table_redraw(round_=round3, table=2, reason="a player sat at the wrong seat")
    a, b = (t.seats.order_by("position").first() for t in round3.tables.order_by("number")[:2])
    seats_swap(round_=round3, first=a.entry_id, second=b.entry_id, reason="wrong hall")
    before = verify(event.slug, 3, capsys)
    assert "as corrected after the draw" in before and "verified" in before
    copy_ = imported(event_archive(event=event), organiser, "copy")
    here = Round.objects.get(event=copy_, number=3)
    record = draw_record(here)
    original = draw_record(Round.objects.get(event=event, number=3))
    # the corrections name the players by the record's ids, as on the server that drew it
    assert [c["data"] for c in record["corrections"]] == [
        c["data"] for c in original["corrections"]
    ]
    out = verify("copy", 3, capsys)
    assert "as corrected after the draw" in out and out.count("correction ") == 2
    assert "verified" in out
    # and the log here names this event's entries: the re-drawn table's seats are its players
    names = dict(Entry.objects.values_list("pk", "player__name"))
    redrawn = here.event.audit_log.get(action="table.redrawn").data["seats"]
    source = event.audit_log.get(action="table.redrawn").data["seats"]
    assert set(redrawn) <= set(copy_.entries.values_list("pk", flat=True))
    assert [names[e] for e in redrawn] == [names[e] for e in source]


def test_an_archive_made_before_draw_players_imports_and_says_what_it_cannot_check(demo, capsys):
    event, organiser = demo
    old = event_archive(event=event)
    for r in old["rounds"]:
        r.pop("draw_players")
        r.pop("sitting_out")
    old["event"].pop("fours_remainder")
    old["event"].pop("sit_out_score")
    for p in old["players"]:
        p.pop("substitute")
    for r in old["rounds"]:
        for t in r["tables"]:
            for p in t["protocols"]:
                for key in (
                    "players_errors_acknowledged_by",
                    "players_errors_acknowledged_at",
                    "players_errors_note",
                ):
                    p.pop(key)
    copy_ = imported(old, organiser, "old")
    assert entry_ids(Round.objects.get(event=copy_, number=1)) == {}
    out = verify("old", 1, capsys)
    assert "the engine gives the same 8 tables" in out
    assert "the seating here is not compared" in out and "verified" in out


def test_a_seating_that_is_not_the_draw_fails_the_check(demo, capsys):
    event, _organiser = demo
    round1 = Round.objects.get(event=event, number=1)
    table = round1.tables.get(number=1)
    # a change behind the log's back: the first dealer, with no correction recorded
    type(table).objects.filter(pk=table.pk).update(first_dealer=(table.first_dealer + 1) % 3)
    with pytest.raises(CommandError, match="verification failed"):
        call_command("draw_verify", event.slug, "1")
    out = capsys.readouterr().out
    assert "the seating here differs from the tables drawn" in out and "table 1: here" in out


def test_the_fields_added_since_version_1_travel(demo):
    event, organiser = demo
    event.fours_remainder = "sit_out"
    event.sit_out_score = Decimal("12.50")
    event.save()
    entries = list(event.entries.order_by("pk"))
    Entry.objects.filter(pk=entries[0].pk).update(substitute=True)
    round3 = Round.objects.get(event=event, number=3)
    Round.objects.filter(pk=round3.pk).update(sitting_out=[entries[1].pk, entries[2].pk])
    protocol = Protocol.objects.filter(table__round=round3).order_by("pk").first()
    moment = timezone.now().replace(microsecond=0)
    Protocol.objects.filter(pk=protocol.pk).update(
        players_errors_acknowledged_by=organiser,
        players_errors_acknowledged_at=moment,
        players_errors_note="the players' sums, the pulka right",
    )
    document = event_archive(event=event)
    assert document["event"]["sit_out_score"] == "12.50"
    copy_ = imported(document, organiser, "copy")
    assert (copy_.fours_remainder, copy_.sit_out_score) == ("sit_out", Decimal("12.50"))
    new = list(copy_.entries.order_by("pk"))
    assert [e.substitute for e in new] == [e.pk == entries[0].pk for e in entries]
    assert Round.objects.get(event=copy_, number=3).sitting_out == [new[1].pk, new[2].pk]
    ack = Protocol.objects.get(
        table__round__event=copy_,
        table__round__number=3,
        table__number=protocol.table.number,
        entry_kind=protocol.entry_kind,
        version=protocol.version,
    )
    assert ack.players_errors_acknowledged_by == organiser
    assert ack.players_errors_acknowledged_at == moment
    assert ack.players_errors_note == "the players' sums, the pulka right"
    # and an archive of the copy is the same document
    second = event_archive(event=copy_)
    second["audit_log"].pop()
    for doc in (document, second):
        for key in ("exported_at", "exported_by"):
            doc.pop(key)
        doc["event"].pop("slug")
    assert second == document


def test_draw_players_naming_a_player_the_archive_lacks_is_refused(demo):
    event, organiser = demo
    document = copy.deepcopy(event_archive(event=event))
    document["rounds"][0]["draw_players"]["1"] = 999
    with pytest.raises(Exception, match=r"rounds\[0\]\.draw_players\.1: refers to player 999"):
        imported(document, organiser, "never")
    assert not type(event).objects.filter(slug="never").exists()
