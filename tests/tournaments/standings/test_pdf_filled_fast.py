"""The filled protocols drawn with reportlab (issue 28: a round's 333 sheets in one job under
60 s) and the whole event's in one file (issue 29).

Each sheet is read back with pdftotext page by page: its names, every deal in words, the
ending, the approval, penalties in words, its footer; a pulka longer than a page continues on
the next with the grid's header repeated; the page count is the sheets'; the bookmarks name
each round and table."""

from __future__ import annotations

import io
import random
import re
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tests.tournaments.standings.pdf_helpers import (
    api_document,
    login_referee,
    pdf_text,
    two_rounds_played,
)
from tournaments.errors import UserFacingError
from tournaments.models import EventPenalty, GeneratedFile, Table
from tournaments.pdf import documents as pdf
from tournaments.pdf import draw as pdf_draw
from tournaments.pdf import protocol_contexts as pdf_protocols
from tournaments.pdf import render as pdf_render
from tournaments.pdf.files import generated_file_request

pytestmark = pytest.mark.django_db


def pages_text(data: bytes, tmp_path: Path) -> list[str]:
    """The text of each page, its whitespace squeezed."""
    pages = pdf_text(data, tmp_path).split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return [" ".join(p.split()) for p in pages]


def outline(data: bytes) -> list[tuple[int, str, int]]:
    """The bookmarks as (level, title, 0-based page)."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    out: list[tuple[int, str, int]] = []

    def walk(items, level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, item.title, reader.get_destination_page_number(item)))

    walk(reader.outline, 0)
    return out


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture
def played(settings, tmp_path):
    return two_rounds_played(settings, tmp_path, seed=29, players=13)  # 3 tables of 3, 1 of 4


def test_each_sheet_holds_its_table_a_page_each(played, tmp_path):
    event, entries, round1, _ = played
    table = Table.objects.filter(round=round1).order_by("number").first()
    EventPenalty.objects.create(
        event=event,
        entry=table.seats.get(position=1).entry,
        round=round1,
        kind="fixed_whists",
        whists=-15,
        rule="4.2.7",
        reason="wrote into another player's pulya",
    )
    context = pdf_protocols.filled_round_context(round_=round1)
    pages = pages_text(pdf.render("filled", context).data, tmp_path)
    assert len(pages) == len(context["tables"]) == 4  # a page per sheet: no pulka is that long
    with translation.override("en"):
        for sheet, page in zip(context["tables"], pages, strict=True):
            assert f"Round 1, table {sheet['table']}" in page
            assert page.endswith(f"{event.name} — Round 1, table {sheet['table']} Page 1 / 1")
            for p in sheet["players"]:
                assert f"Seat {p['seat']}: {p['name']}" in page
            for d in sheet["deals"]:  # every deal in words, in its row
                assert squeeze(f"{d['number']} {d['dealer']} {d['text']}") in squeeze(page)
            assert f"The pulka: {sheet['protocol']['ending_words']}" in page
            assert "APPROVED" in page and "PROVISIONAL" not in page
            for s in sheet["settlement"]:
                assert s["name"] in page
            # which of 4.2.14's methods settled it (issue #37): the event's, Variant 1 here
            assert sheet["settlement_rounding"] == ("kodeks" if len(sheet["players"]) == 3
                                                    else "exact")
            said = ("Settled by Kodeks 1996, 4.2.14, Variant 1" if len(sheet["players"]) == 3
                    else "Settled exactly, without rounding.")
            assert squeeze(said) in squeeze(page)
        assert "wrote into another player's pulya" in pages[0]
        assert "Fixed whists" in pages[0]
        assert "-15" in pages[0]
        assert all("wrote into another" not in p for p in pages[1:])


def test_a_long_pulka_continues_on_the_next_page_with_its_header(played, tmp_path):
    _event, _entries, round1, _ = played
    table = Table.objects.filter(round=round1).order_by("number").first()
    context = pdf_protocols.filled_protocol_context(table=table)
    deals = [{**d, "number": i + 1} for i, d in enumerate(context["deals"] * 8)]
    long = {**context, "deals": deals}
    pages = pages_text(pdf.render("filled", long).data, tmp_path)
    assert len(pages) >= 2
    n = len(pages)
    for i, page in enumerate(pages, start=1):
        assert page.endswith(f"Page {i} / {n}")
        assert "Contract / result" in page  # the grid's header on every page
    # every row printed once, in order, across the pages (none cut at a page's foot)
    path = tmp_path / "long.pdf"
    path.write_bytes(pdf.render("filled", long).data)
    layout = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    rows = [int(m) for m in re.findall(r"^\s*(\d+)\s+\S", layout, flags=re.M)]
    assert rows == list(range(1, len(deals) + 1))
    starts = [re.search(r"^\s*(\d+)\s+\S", p, flags=re.M) for p in layout.split("\f")[1:n]]
    assert all(m is not None and int(m.group(1)) > 1 for m in starts)  # page 2 goes on
    assert "Referee: ____" in pages[-1] and "Referee: ____" not in pages[0]
    assert pages[0].count("Settlement") == 0 and "Settlement" in pages[-1]


def test_the_suits_markup_colours_red_suits_only():
    marked = pdf_draw.suits_markup("8♦ / one down, 6♠ 7♥ 9♣ <b>")
    assert marked.count(f'<font color="{pdf_draw.RED}">') == 2
    assert "♦</font>" in marked and "♥</font>" in marked
    assert "6♠ " in marked and "9♣ " in marked and "&lt;b&gt;" in marked


def test_the_whole_events_protocols_are_one_file_round_then_table(
    played, tmp_path, client, django_capture_on_commit_callbacks
):
    """Asked for from the documents page like a round's: a job with progress, listed with the
    other files, every round's every table in order, a bookmark per round and per table."""
    event, _entries, round1, round2 = played
    login_referee(client, event)
    page = client.get(reverse("documents-manage", args=[event.slug])).content.decode()
    assert 'name="kind" value="protocols"' in page
    assert "Filled protocols of the whole event" in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("documents-manage", args=[event.slug]),
            {"kind": "protocols", "paper": "A4", "language": "en"},
        )
    assert answer.status_code == 302
    f = GeneratedFile.objects.get(event=event, kind="protocols")
    assert f.status == "ok", f.error
    assert f.round is None and f.table is None and f.filename == f"{event.slug}-protocols.pdf"
    data = f.file.read()
    pages = pages_text(data, tmp_path)
    tables = list(Table.objects.filter(round__event=event).order_by("round__number", "number"))
    assert len(tables) == 8 and len(pages) == len(tables)
    for t, text in zip(tables, pages, strict=True):
        assert f"Round {t.round.number}, table {t.number}" in text
        for seat in t.seats.select_related("entry__player"):
            assert seat.entry.player.name in text
    assert all("APPROVED" in p for p in pages[:4]) and all("PROVISIONAL" in p for p in pages[4:])
    marks = outline(data)
    assert marks[0] == (0, "Round 1", 0) and marks[5] == (0, "Round 2", 4)
    assert [m for m in marks if m[0] == 1] == [
        (1, f"Table {t.number}", i) for i, t in enumerate(tables)
    ]
    listed = client.get(reverse("documents-manage", args=[event.slug])).content.decode()
    assert "Filled protocols of the event" in listed
    assert reverse("document", args=[event.slug, f.pk]) in listed
    client.logout()  # filled protocols are public: so is the whole event's file
    public = client.get(reverse("documents", args=[event.slug])).content.decode()
    assert "Filled protocols of the event" in public
    assert client.get(reverse("document", args=[event.slug, f.pk])).status_code == 200


def test_the_whole_events_job_reports_its_progress(played, monkeypatch):
    event, *_ = played
    monkeypatch.setattr(pdf_render, "PROGRESS_EVERY_TABLES", 3)
    seen: list[tuple[int, int]] = []
    pdf.render(
        "protocols",
        pdf_protocols.filled_event_context(event=event),
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(3, 8), (6, 8), (8, 8)]


def test_an_event_without_tables_is_refused_by_name(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    event, _ = make_event(players=6, slug="empty")
    with pytest.raises(UserFacingError) as error:
        generated_file_request(event=event, kind="protocols")
    assert error.value.extra["field"] == "kind"


def test_another_familys_sheets_join_the_event_file(db, tmp_path):
    """Another family's sheets (the pot games' ledger, tournaments.pdf.layouts) are drawn the
    same way and join the same file in order."""
    from tournaments.demo.pot import demo_pot_event

    event = demo_pot_event(organiser=UserFactory(username="demo", is_superuser=True))
    context = pdf_protocols.filled_event_context(event=event)
    assert context["tables"] and all(t["layout"] for t in context["tables"])
    pages = pages_text(pdf.render("protocols", context).data, tmp_path)
    order = [(t["round"], t["table"]) for t in context["tables"]]
    assert order == sorted(order)
    flat = " ".join(pages)
    positions = [flat.index(f"Round {r}, table {t}") for r, t in order]
    assert positions == sorted(positions) and len(pages) >= len(order)


def test_findings_rulings_and_a_provisional_stamp_in_words(played, tmp_path):
    """What the checker found is printed as the sentence with its rule, never a code; an
    unapproved protocol is stamped provisional."""
    _event, _entries, _round1, round2 = played
    table = Table.objects.filter(round=round2).order_by("number").first()
    context = pdf_protocols.filled_protocol_context(table=table)
    finding = {
        "severity": "error",
        "title": "Tricks do not add up",
        "sentence": "the tricks of deal 2 add up to 11: a deal has 10",
        "message": "",
        "rule": "3.4.4",
        "citation": "001 §3.4.4",
        "deal": 1,
    }
    pages = pages_text(pdf.render("filled", {**context, "findings": [finding]}).data, tmp_path)
    text = " ".join(pages)
    assert "Findings" in text and "Error 2 Tricks do not add up: the tricks of deal 2" in text
    assert "3.4.4" in text and "PROVISIONAL — not approved" in text and "APPROVED" not in text


def test_the_api_asks_for_the_whole_events_protocols_without_a_round(
    played, client, django_capture_on_commit_callbacks
):
    event, *_ = played
    f = api_document(
        client, event, {"kind": "protocols", "paper": "letter"}, django_capture_on_commit_callbacks
    )
    assert f.round is None and f.filename == f"{event.slug}-protocols-letter.pdf"


def test_one_tables_sheet_reads_its_own_rows_whatever_the_rounds_size(played):
    """Issue 28: one table's PDF loaded the whole round's seats (0.44 s a table at 1,000
    players); now the same queries whatever the round's size, and only the table's seats."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _event, _entries, round1, _ = played
    big, entries = make_event(players=60, slug="big")
    big_round, _ = play_round(big, entries, 1, rng=random.Random(2))

    def reads(round_) -> tuple[int, int]:
        table = Table.objects.filter(round=round_).order_by("number").last()
        with CaptureQueriesContext(connection) as ctx:
            context = pdf_protocols.filled_protocol_context(table=table)
        assert [p["seat"] for p in context["players"]] == list(range(1, table.seats.count() + 1))
        seat_queries = [q["sql"] for q in ctx.captured_queries if '"tournaments_seat"' in q["sql"]]
        assert seat_queries and all(
            f'"tournaments_seat"."table_id" IN ({table.pk})' in q for q in seat_queries
        )
        return len(ctx.captured_queries), len(context["players"])

    assert reads(big_round)[0] == reads(round1)[0]


def test_the_fonts_are_debians_and_italic_falls_back_to_upright(monkeypatch):
    """The Docker image installs fonts-dejavu-core only (no oblique): the sheet then uses the
    upright face rather than fail."""
    import os

    assert pdf_draw.font_file(pdf_draw.FONT).endswith("/dejavu/DejaVuSans.ttf")
    real = os.path.exists
    monkeypatch.setattr(os.path, "exists", lambda p: "Oblique" not in p and real(p))
    assert pdf_draw.font_file(pdf_draw.ITALIC).endswith("/DejaVuSans.ttf")
    assert pdf_draw.font_file(pdf_draw.BOLD_ITALIC).endswith("/DejaVuSans-Bold.ttf")


@pytest.mark.parametrize("language", ["en", "ru", "hr", "sr-latn", "de", "sv"])
def test_the_sheet_speaks_the_documents_language(played, tmp_path, language):
    _event, _entries, round1, _ = played
    context = pdf_protocols.filled_round_context(round_=round1)
    pages = pages_text(pdf.render("filled", context, language=language).data, tmp_path)
    assert len(pages) == len(context["tables"])
    with translation.override(language):
        words = [
            translation.gettext("Contract / result"),
            translation.gettext("Settlement"),
            translation.gettext("Referee"),
            translation.gettext("Round %(r)s, table %(t)s") % {"r": 1, "t": 1},
            f"{translation.gettext('Page')} 1 / 1",
        ]
    if language != "en":
        assert words[0] != "Contract / result"  # translated, so the check below means it
    for word in words:
        assert word in pages[0], word


def test_asking_for_the_whole_events_file_builds_no_sheet_and_finds_the_stored_one(
    played, monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 28: the request hashes the sheets' inputs, not the sheets (scoring every protocol
    of a 12-round event took seconds in the request); the job stores the same hash, so asking
    again for unchanged data returns the stored file."""
    event, *_ = played
    with django_capture_on_commit_callbacks(execute=True):
        first = generated_file_request(event=event, kind="protocols")
    first.refresh_from_db()
    assert first.status == "ok"

    def no_sheet(**kw):
        raise AssertionError("a sheet built in the request")

    monkeypatch.setattr(pdf_protocols, "_filled_sheet", no_sheet)
    again = generated_file_request(event=event, kind="protocols")
    assert again.pk == first.pk and again.status == "ok"


def test_the_whole_events_hash_follows_every_input_of_its_sheets(played):
    from django.utils import timezone

    from tournaments.models import Incident, Player, Protocol, Ruling

    event, entries, round1, round2 = played

    def digest() -> str:
        inputs = pdf_protocols.filled_event_inputs(event=event)
        return pdf.context_hash("protocols", inputs, paper="A4", language="en")

    seen = {digest()}
    assert digest() in seen  # the same data, the same hash

    def changed() -> None:
        now = digest()
        assert now not in seen
        seen.add(now)

    table = Table.objects.filter(round=round1).order_by("number").first()
    Player.objects.filter(pk=entries[0].player_id).update(name="Анна Ёлкина")
    changed()
    Protocol.objects.filter(table=table, approved=True).update(
        ruling_entries=[{"ruling": 1, "after_deal": 0, "entries": [{"player": 1, "gora": 5}]}]
    )
    changed()
    incident = Incident.objects.create(
        event=event, table=table, deal=0, seats=[1], occurred_at=timezone.now(), description="x"
    )
    ruling = Ruling.objects.create(
        incident=incident, kind="catalogue", seat=1, rule="3.2.21", reason="talon seen"
    )
    changed()
    Ruling.objects.filter(pk=ruling.pk).update(active=False)
    changed()
    penalty = EventPenalty.objects.create(
        event=event, entry=entries[1], round=round1, kind="fixed_whists", whists=-5, rule="4.2.7"
    )
    changed()
    EventPenalty.objects.filter(pk=penalty.pk).update(reason="late")
    changed()
    current = Protocol.objects.filter(table__round=round2, is_current=True).first()
    Protocol.objects.filter(pk=current.pk).update(approved=True, approved_at=timezone.now())
    changed()


def test_asking_for_a_rounds_file_builds_no_sheet_either(
    played, monkeypatch, django_capture_on_commit_callbacks
):
    event, _entries, round1, round2 = played
    with django_capture_on_commit_callbacks(execute=True):
        first = generated_file_request(event=event, kind="filled", round_=round1)
    first.refresh_from_db()
    assert first.status == "ok"

    def no_sheet(**kw):
        raise AssertionError("a sheet built in the request")

    monkeypatch.setattr(pdf_protocols, "_filled_sheet", no_sheet)
    assert generated_file_request(event=event, kind="filled", round_=round1).pk == first.pk
    # the other round's data is not this file's
    round_two = pdf_protocols.filled_event_inputs(event=event, round_=round2)
    assert {t[1] for t in round_two["tables"]} == {round2.pk}
