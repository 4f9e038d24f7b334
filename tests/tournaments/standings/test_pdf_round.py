"""A round's filled protocols as one PDF job (issue 28): a sheet per table, the contexts from one
query per kind of row whatever the number of tables, the fonts shared, the job's progress shown
on the documents page and in the API while it renders."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.standings.factories import make_event, play_round
from tests.tournaments.standings.pdf_helpers import (
    api_document,
    login_referee,
    page_count,
    pdf_text,
    request,
    two_rounds_played,
)
from tournaments.models import EventPenalty, GeneratedFile, Protocol, Table
from tournaments.pdf import documents as pdf
from tournaments.pdf import files as pdf_files
from tournaments.pdf import protocol_contexts as pdf_protocols
from tournaments.pdf import render as pdf_render
from tournaments.pdf.files import generated_file_request

pytestmark = pytest.mark.django_db


def pages_of(data: bytes, tmp_path: Path) -> tuple[int, str]:
    return page_count(data, tmp_path, "round.pdf"), pdf_text(data, tmp_path, "round.pdf")


@pytest.fixture
def played(settings, tmp_path):
    # 3 tables of 3, 1 of 4
    return two_rounds_played(settings, tmp_path, seed=28, players=13, tiebreaks=["raspasy_won"])


def test_a_rounds_filled_protocols_are_one_file_a_sheet_per_table(
    played, tmp_path, django_capture_on_commit_callbacks
):
    event, _entries, round1, round2 = played
    table = Table.objects.filter(round=round1).order_by("number").first()
    seat = table.seats.get(position=0)
    EventPenalty.objects.create(
        event=event,
        entry=seat.entry,
        round=round1,
        kind="fixed_whists",
        whists=-20,
        rule="4.2.7",
        reason="false entry in the pulya",
    )
    f = request(django_capture_on_commit_callbacks, event=event, kind="filled", round_=round1)
    assert f.status == "ok", f.error
    assert f.table is None and f.filename == f"{event.slug}-round1-protocols.pdf"
    assert f.progress == {}
    pages, text = pages_of(f.file.read(), tmp_path)
    tables = list(Table.objects.filter(round=round1).order_by("number"))
    assert pages >= len(tables) == 4
    flat = " ".join(text.split())
    positions = [flat.index(f"Round 1, table {t.number}") for t in tables]
    assert positions == sorted(positions)  # in table order
    for p in Protocol.objects.filter(table__round=round1):
        for r in p.result:
            assert r["name"] in flat
    assert flat.count("APPROVED") >= len(tables)
    assert "false entry in the pulya" in flat
    # every sheet is the same as the table's own file
    single = pdf.render("filled", pdf_protocols.filled_protocol_context(table=table))
    _one_pages, one_text = pages_of(single.data, tmp_path)
    assert " ".join(one_text.split()).split("Page")[0] in flat

    provisional = request(
        django_capture_on_commit_callbacks,
        event=event,
        kind="filled",
        round_=round2,
        paper="letter",
    )
    _pages, text2 = pages_of(provisional.file.read(), tmp_path)
    assert text2.count("PROVISIONAL") >= 4 and "APPROVED" not in text2
    assert provisional.filename.endswith("-round2-protocols-letter.pdf")


def test_the_rounds_context_reads_the_same_queries_for_any_number_of_tables(played):
    _event, _entries, round1, _ = played
    big, entries = make_event(players=40, slug="big")
    big_round, _ = play_round(big, entries, 1, rng=random.Random(1))

    def queries(round_) -> int:
        with CaptureQueriesContext(connection) as ctx:
            context = pdf_protocols.filled_round_context(round_=round_)
        assert len(context["tables"]) == round_.tables.count()
        return len(ctx.captured_queries)

    assert queries(big_round) == queries(round1)


def test_a_round_without_tables_is_refused_by_name(played):
    from tournaments.errors import UserFacingError
    from tournaments.models import Round

    event, *_ = played
    empty = Round.objects.create(event=event, number=3)
    with pytest.raises(UserFacingError) as error:
        generated_file_request(event=event, kind="filled", round_=empty)
    assert error.value.extra["field"] == "round"
    with pytest.raises(UserFacingError) as error:
        generated_file_request(event=event, kind="filled")
    assert error.value.extra["field"] == "table"


def test_the_job_reports_its_progress_while_it_renders(
    played, monkeypatch, django_capture_on_commit_callbacks
):
    event, _entries, round1, _ = played
    monkeypatch.setattr(pdf_render, "PROGRESS_EVERY_TABLES", 1)
    seen = []
    original = pdf_files._progress

    def watch(file_id, done, total):
        original(file_id, done, total)
        f = GeneratedFile.objects.get(pk=file_id)
        seen.append((f.status, f.progress))

    monkeypatch.setattr(pdf_files, "_progress", watch)
    f = request(django_capture_on_commit_callbacks, event=event, kind="filled", round_=round1)
    assert seen == [("pending", {"done": n, "total": 4}) for n in (1, 2, 3, 4)]
    assert f.status == "ok" and f.progress == {}


def test_the_documents_page_and_the_api_show_a_renderings_progress(client, played):
    event, _entries, round1, _ = played
    f = GeneratedFile.objects.create(
        event=event,
        kind="filled",
        round=round1,
        status="pending",
        progress={"done": 40, "total": 333},
    )
    login_referee(client, event)
    html = client.get(reverse("documents-manage", args=[event.slug])).content.decode()
    assert "40 of 333 tables" in html
    assert '<progress max="333" value="40">' in html
    assert '<meta http-equiv="refresh"' in html
    assert 'value="filled">Filled protocols of every table' in html
    answer = client.get(reverse("api:document", args=[event.slug, f.pk]))
    assert answer.status_code == 409
    assert answer.json()["extra"] == {"status": "pending", "done": 40, "total": 333}
    f.status, f.progress = "ok", {}
    f.save()
    html = client.get(reverse("documents-manage", args=[event.slug])).content.decode()
    assert '<meta http-equiv="refresh"' not in html


def test_the_api_asks_for_a_rounds_protocols_with_the_round_alone(
    client, played, django_capture_on_commit_callbacks
):
    event, *_ = played
    f = api_document(
        client, event, {"kind": "filled", "round": 1}, django_capture_on_commit_callbacks
    )
    assert f.table is None and f.filename.endswith("-round1-protocols.pdf")


def test_a_long_round_is_written_in_parts_joined_in_table_order(played, tmp_path, monkeypatch):
    """The sheets are written a few at a time (bounded memory) and the parts joined."""
    _event, _entries, round1, _ = played
    monkeypatch.setattr(pdf_render, "DRAWN_SHEETS_PER_PART", 3)
    context = pdf_protocols.filled_round_context(round_=round1)
    whole = pdf.render("filled", context)
    pages, text = pages_of(whole.data, tmp_path)
    flat = " ".join(text.split())
    numbers = [t["table"] for t in context["tables"]]
    assert pages >= len(numbers) == 4
    positions = [flat.index(f"Round 1, table {n}") for n in numbers]
    assert positions == sorted(positions)
    monkeypatch.setattr(pdf_render, "DRAWN_SHEETS_PER_PART", 100)
    one_part, one_text = pages_of(pdf.render("filled", context).data, tmp_path)
    assert one_part == pages and " ".join(one_text.split()) == flat
