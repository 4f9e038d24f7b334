"""What the public pages and a protocol save load (issue 28): bounded query counts, and never a
round's draw record (``Round.draw_params``, ``draw_report``: hundreds of KB per round at a
national final) where it is not shown. The assertions read the SQL sent, so they fail as soon as
a query selects those columns, whatever the size of the data."""

from __future__ import annotations

import dataclasses
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.russian.generate import random_protocol
from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import AuditLogEntry, GeneratedFile, Protocol, Round, Table
from tournaments.services.protocols import protocol_save
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

DRAW_COLUMNS = ('"draw_report"', '"draw_params"')


@pytest.fixture
def event():
    event, entries = make_event(players=10, tiebreaks=["raspasy_won", "head_to_head"])
    rng = random.Random(28)
    for n in (1, 2):
        round_, tables = play_round(event, entries, n, rng=rng)
        Round.objects.filter(pk=round_.pk).update(
            draw_params={"input": {"players": [e.pk for e in entries]}},
            draw_report={"players": [{"id": e.pk, "why": "x" * 100} for e in entries]},
        )
        GeneratedFile.objects.bulk_create(
            [
                GeneratedFile(
                    kind=GeneratedFile.Kind.FILLED_PROTOCOL,
                    event=event,
                    round=round_,
                    table=t,
                    status=GeneratedFile.Status.OK,
                    filename=f"table-{n}-{t.number}.pdf",
                )
                for t in tables
            ]
            + [
                GeneratedFile(
                    kind=GeneratedFile.Kind.SEATING,
                    event=event,
                    round=round_,
                    status=GeneratedFile.Status.OK,
                    filename=f"seating-{n}.pdf",
                )
            ]
        )
    standings_recompute(event_id=event.pk)
    event.entries_list = entries
    return event


def loads(run) -> list[str]:
    """The SQL ``run()`` sends."""
    with CaptureQueriesContext(connection) as ctx:
        run()
    return [q["sql"] for q in ctx.captured_queries]


def no_draw_record(sql: list[str]) -> bool:
    return not [q for q in sql if any(c in q for c in DRAW_COLUMNS)]


def pages(event):
    entry = event.entries_list[0]
    return {
        # the players' ratings at entry (issue 41) are one query more, whatever the field size
        "event": (reverse("event", args=[event.slug]), 7),
        "round": (reverse("round-seating", args=[event.slug, 1]), 8),
        "documents": (reverse("documents", args=[event.slug]), 4),
        "standings": (reverse("standings", args=[event.slug]), 4),
        "standings-round": (reverse("standings-round", args=[event.slug, 1]), 4),
        "cross": (reverse("standings-cross", args=[event.slug]), 4),
        "player": (reverse("standings-player", args=[event.slug, entry.pk]), 8),
        "api": (reverse("api:standings", args=[event.slug]), 4),
        "standings-csv": (reverse("standings-csv", args=[event.slug]), 4),
        "cross-csv": (reverse("standings-cross-csv", args=[event.slug]), 4),
        "standings-search": (reverse("standings", args=[event.slug]) + "?q=0001", 4),
    }


@pytest.mark.parametrize(
    "page",
    [
        "event",
        "round",
        "documents",
        "standings",
        "standings-round",
        "cross",
        "player",
        "api",
        "standings-csv",
        "cross-csv",
        "standings-search",
    ],
)
def test_public_page_reads_no_draw_record_in_bounded_queries(client, event, page):
    url, most = pages(event)[page]
    responses = []
    sql = loads(lambda: responses.append(client.get(url)))
    assert responses[0].status_code == 200, url
    assert no_draw_record(sql), [q for q in sql if "draw_" in q]
    assert len(sql) <= most, sql


def test_the_documents_page_lists_the_files_without_the_rounds_records(client, event):
    html = client.get(reverse("documents", args=[event.slug])).content.decode()
    assert "seating-1.pdf" in html or "Seating" in html


def test_a_protocol_save_reads_no_draw_record(event):
    round_ = Round.objects.get(event=event, number=2)
    Round.objects.filter(pk=round_.pk).update(state=Round.State.IN_PLAY)
    table = Table.objects.filter(round=round_).order_by("number").first()
    Protocol.objects.filter(table=table).update(approved=False)
    size = table.seats.count()
    names = [s.entry.player.name for s in table.seats.select_related("entry__player")]
    game = random_protocol(random.Random(1), players=size, target=event.pulka_target)
    game = dataclasses.replace(game, players=tuple(names))
    saved = []
    referee = UserFactory(is_superuser=True)  # the generated first dealer is not the draw's
    sql = loads(
        lambda: saved.append(
            protocol_save(table=table, protocol=game, based_on_version=1, by=referee)
        )
    )
    assert saved[0].version == 2
    assert no_draw_record(sql), [q for q in sql if "draw_" in q]


def test_the_draw_record_still_loads_where_it_is_shown(event):
    round_ = Round.objects.get(event=event, number=1)
    assert "draw_report" in round_.get_deferred_fields()
    assert round_.draw_report["players"][0]["why"] == "x" * 100  # loaded on access
    full = Round.objects.with_draw_record().get(pk=round_.pk)
    assert not full.get_deferred_fields() & {"draw_report", "draw_params"}


SNAPSHOT_DATA = '"tournaments_standingssnapshot"."data"'


def test_a_players_page_reads_his_slice_not_the_snapshot(client, event):
    """The stored standings are decoded and indexed once per version (per process); a player's
    page then takes his row and his tables from the index, without reading the snapshot's data."""
    first, second = event.entries_list[0], event.entries_list[1]
    client.get(reverse("standings-player", args=[event.slug, first.pk]))
    sql = loads(lambda: client.get(reverse("standings-player", args=[event.slug, second.pk])))
    assert not [q for q in sql if SNAPSHOT_DATA in q]
    for name in ("standings", "standings-cross"):
        sql = loads(lambda n=name: client.get(reverse(n, args=[event.slug])))
        assert not [q for q in sql if SNAPSHOT_DATA in q], name


def test_a_recomputation_shows_at_once(client, event):
    """The decoded standings are cached by version: a new computation is read again."""
    entry = event.entries_list[0]
    url = reverse("standings-player", args=[event.slug, entry.pk])
    assert "Fined at the desk" not in client.get(url).content.decode()
    standings_url = reverse("standings", args=[event.slug])
    before = client.get(standings_url).content.decode()  # its table now cached
    from tournaments.models import EventPenalty

    EventPenalty.objects.create(
        event=event,
        entry=entry,
        kind="fixed_whists",
        whists=-40,
        rule="3.2.21",
        reason="Fined at the desk",
    )
    standings_recompute(event_id=event.pk)
    html = client.get(url).content.decode()
    assert "Fined at the desk" in html
    snapshot = event.standings_snapshot
    snapshot.refresh_from_db()
    row = next(r for r in snapshot.data["rows"] if r["entry"] == entry.pk)
    assert f"<strong>{row['total']}</strong>" in html
    after = client.get(standings_url).content.decode()
    assert after != before and f"<strong>{row['total']}</strong>" in after


def test_the_cross_table_is_written_once_per_version_and_escaped(client, event):
    from tournaments.models import Player

    top = event.entries_list[0]
    Player.objects.filter(pk=top.player_id).update(name="<b>Bold</b>")
    standings_recompute(event_id=event.pk)
    url = reverse("standings-cross", args=[event.slug])
    html = client.get(url).content.decode()
    assert "&lt;b&gt;Bold&lt;/b&gt;" in html and "<b>Bold" not in html
    snapshot = event.standings_snapshot
    snapshot.refresh_from_db()
    rows = snapshot.data["rows"]
    # one met pair: the sum of the row player's results against the column player
    a = rows[0]
    cell = next(iter(a["rounds"].values()))
    other, _ = next(iter(cell["versus"].items()))
    total = sum(c["versus"][other] for c in a["rounds"].values() if other in c.get("versus", {}))
    assert f">{round(total, 2)}</td>" in html or f">{round(total, 2):g}</td>" in html
    assert html.count('<td class="self">×</td>') == len(rows)
    sql = loads(lambda: client.get(url))
    assert not [q for q in sql if SNAPSHOT_DATA in q]
    table = html[html.index('<table class="cross">') : html.index("</table>")]
    assert table in client.get(url).content.decode()


def test_a_recompute_after_one_approval_reads_no_pulka_and_no_stored_statistics(event):
    """The deal statistics of a protocol version are computed once; the worker that computed
    or read them keeps them, so the usual job (one approval changed) parses no protocol and
    neither reads nor rewrites the stored statistics."""
    standings_recompute(event_id=event.pk)  # this process now knows every version's statistics
    one = Protocol.objects.filter(table__round__event=event, approved=True).first()
    Protocol.objects.filter(pk=one.pk).update(approved=False)
    sql = loads(lambda: standings_recompute(event_id=event.pk))
    assert not [q for q in sql if '"tournaments_protocol"."data"' in q]
    assert not [q for q in sql if '"protocol_stats"' in q]
    snapshot = event.standings_snapshot
    snapshot.refresh_from_db()
    assert snapshot.runs[-1]["outcome"] == "computed"
    assert any(r["has_provisional"] for r in snapshot.data["rows"])


def test_the_protocols_log_reads_no_draw_record(event):
    """The log names each entry's round and table by their numbers only (a ``select_related``
    of the round would read its draw record, which the round manager's deferral misses)."""
    from tournaments.selectors.protocols import protocol_audit_log
    from tournaments.words.rulings import log_rows

    for table in Table.objects.filter(round__event=event):
        AuditLogEntry.objects.create(
            event=event, action="protocol.approved", data={"table": table.pk, "version": 1}
        )
    entries = protocol_audit_log(event)
    assert entries
    sql = loads(lambda: log_rows(event, entries))
    assert no_draw_record(sql), [q for q in sql if "draw_" in q]
