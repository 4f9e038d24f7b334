"""PDF documents: each kind rendered, its text extracted (pdftotext) and checked, and drawn to an
image (pdftoppm); cached until their data changes. 001 §4.2.11: the contract/result column."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from PIL import Image

from tests.tournaments.standings.pdf_helpers import pdf_text, request, two_rounds_played
from tournaments.models import EventPenalty, GeneratedFile, Player, Protocol, Table
from tournaments.pdf import contexts as pdf_contexts
from tournaments.pdf import render as pdf_render
from tournaments.pdf.files import generated_file_request
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def draw(data: bytes, tmp_path: Path) -> Image.Image:
    """First page as a PNG through pdftoppm; asserts something is drawn on it."""
    path = tmp_path / "draw.pdf"
    path.write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", str(path), str(tmp_path / "page")],
        check=True,
    )
    png = next(tmp_path.glob("page*.png"))
    image = Image.open(png).convert("L")
    dark = sum(image.histogram()[:128])
    assert dark > 500, "the page is blank"
    return image


@pytest.fixture
def event_played(settings, tmp_path):
    settings.PULKA_BASE_URL = "https://pulka.example.org"

    def cyrillic_name(entries) -> None:
        Player.objects.filter(pk=entries[0].player_id).update(name="Анна Ёлкина")

    return two_rounds_played(
        settings, tmp_path, seed=5, players=7, tiebreaks=["raspasy_won"], before_play=cyrillic_name
    )


def test_blank_protocols_one_sheet_per_table_with_qr_link(
    event_played, tmp_path, django_capture_on_commit_callbacks
):
    event, entries, round1, _ = event_played
    f = request(django_capture_on_commit_callbacks, event=event, kind="blank", round_=round1)
    assert f.status == "ok", f.error
    data = f.file.read()
    assert data.startswith(b"%PDF")
    text = pdf_text(data, tmp_path)
    tables = list(Table.objects.filter(round=round1).order_by("number"))
    assert text.count("\f") == len(tables)  # one sheet (one page) per table
    assert "Round 1, table 1" in text and f"Round 1, table {len(tables)}" in text
    assert "Анна Ёлкина" in text and "Contract / result" in text and "4.2.11" in text
    # the column's example in the page's language (issue 36: "ровно" only on a Russian sheet),
    # in DejaVu (the suits; the players' Cyrillic names above)
    assert "6♠ / exactly" in text and "ровно" not in text
    assert f"https://pulka.example.org/t/{tables[0].url_key}/" in "".join(text.split())
    assert "Pulka to: 20" in text and "First dealer" in text
    image = draw(data, tmp_path)
    assert image.width > image.height  # landscape sheet


def test_blank_protocols_on_letter_every_sheet_has_its_grid_header_and_page_number(
    event_played, tmp_path, django_capture_on_commit_callbacks
):
    """The static sheet of each table size is drawn under every page of its size (issue 6)."""
    event, entries, round1, _ = event_played
    f = request(
        django_capture_on_commit_callbacks, event=event, kind="blank", round_=round1, paper="letter"
    )
    assert f.status == "ok", f.error
    data = f.file.read()
    path = tmp_path / "letter.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    assert "792 x 612 pts (letter)" in info  # Letter, landscape
    tables = list(Table.objects.filter(round=round1).order_by("number"))
    assert sorted(t.seats.count() for t in tables) == [3, 4]  # both sheet sizes
    pages = pdf_text(data, tmp_path).split("\f")[:-1]
    assert len(pages) == len(tables)
    for number, (page, table) in enumerate(zip(pages, tables, strict=True), start=1):
        assert f"Round 1, table {table.number}" in page
        assert "Contract / result" in page and "6♠ / exactly" in page  # the background
        assert page.count("Whists on") == table.seats.count()  # one group per player
        assert f"Page {number} / {len(tables)}" in page
        for seat in table.seats.select_related("entry__player"):
            assert seat.entry.player.name in page
    draw(data, tmp_path)


def test_blank_protocol_qr_encodes_the_tables_private_link():
    uri = pdf_render.qr_data_uri("https://pulka.example.org/t/abc/")
    assert uri.startswith("data:image/png")
    assert pdf_contexts.table_link("abc", "https://x.org/") == "https://x.org/t/abc/"


def test_filled_protocol_shows_every_deal_totals_settlement_and_penalties(
    event_played, tmp_path, django_capture_on_commit_callbacks
):
    event, entries, round1, _ = event_played
    table = Table.objects.filter(round=round1).order_by("number").first()
    protocol = Protocol.objects.get(table=table)
    seat0 = table.seats.get(position=0)
    EventPenalty.objects.create(
        event=event,
        entry=seat0.entry,
        round=round1,
        kind="fixed_whists",
        whists=-20,
        rule="4.2.7",
        reason="false entry in the pulya",
    )
    f = request(django_capture_on_commit_callbacks, event=event, kind="filled", table=table)
    assert f.status == "ok", f.error
    data = f.file.read()
    text = pdf_text(data, tmp_path)
    from scoring.russian.jsonio import from_dict
    from scoring.russian.protocol import Game, Raspasy

    deals = from_dict(protocol.data)[0].deals
    flat = " ".join(text.split())
    # the notation's words in the page's language (issue 36: распасы, мизер on a Russian sheet)
    assert flat.count("raspasy") == sum(isinstance(d, Raspasy) for d in deals)
    assert "распасы" not in flat and "мизер" not in flat
    for d in deals:
        if isinstance(d, Game):  # the 001 §4.2.11 column: contract / result
            assert ("misère" if d.contract.is_misere else str(d.contract)) in flat
    assert "APPROVED" in text and "Settlement" in text and "Kodeks 1996, 4.2.14" in text
    for r in protocol.result:
        assert r["name"] in text
    assert "4.2.7" in text and "false entry in the pulya" in text and "-20" in text
    assert "Referee: ____" in text
    draw(data, tmp_path)


def test_filled_protocol_of_an_unapproved_table_is_marked_provisional(
    event_played, tmp_path, django_capture_on_commit_callbacks
):
    event, entries, _, round2 = event_played
    table = Table.objects.filter(round=round2).first()
    f = request(
        django_capture_on_commit_callbacks, event=event, kind="filled", table=table, paper="letter"
    )
    text = pdf_text(f.file.read(), tmp_path)
    assert "PROVISIONAL" in text and "APPROVED" not in text
    assert f.filename.endswith("-letter.pdf")


def test_seating_lists_by_table_and_alphabetically(
    event_played, tmp_path, django_capture_on_commit_callbacks
):
    event, entries, round1, _ = event_played
    f = request(
        django_capture_on_commit_callbacks,
        event=event,
        kind="seating",
        round_=round1,
        language="ru",
    )
    text = pdf_text(f.file.read(), tmp_path)
    names = sorted(e.player.name for e in entries)
    alpha = text[text.index("alphabetical") if "alphabetical" in text else text.index("алфавит") :]
    positions = [
        alpha.index(Player.objects.get(pk=e.player_id).name)
        for e in sorted(entries, key=lambda e: Player.objects.get(pk=e.player_id).name.casefold())
    ]
    assert positions == sorted(positions)  # alphabetical order
    assert len(names) == 7
    draw(f.file.open().read(), tmp_path)


def test_standings_pdf_marks_provisional_results(
    event_played, tmp_path, django_capture_on_commit_callbacks
):
    event, entries, _, _ = event_played
    snapshot = standings_recompute(event_id=event.pk)
    f = request(django_capture_on_commit_callbacks, event=event, kind="standings")
    data = f.file.read()
    text = pdf_text(data, tmp_path)
    first = snapshot.data["rows"][0]
    name = snapshot.data["meta"]["players"][str(first["entry"])]["name"]
    assert "Standings" in text and name in text and "4.1.3" in text
    assert "not yet approved" in " ".join(text.split())  # round 2 is provisional
    assert "RW — Raspasy won" in text
    draw(data, tmp_path)


def test_a_document_is_rendered_again_only_when_its_data_changes(
    event_played, django_capture_on_commit_callbacks
):
    event, entries, round1, _ = event_played
    first = request(django_capture_on_commit_callbacks, event=event, kind="seating", round_=round1)
    again = request(django_capture_on_commit_callbacks, event=event, kind="seating", round_=round1)
    assert again.pk == first.pk and again.rendered_at == first.rendered_at
    Player.objects.filter(pk=entries[3].player_id).update(name="Борис Новый")
    changed = request(
        django_capture_on_commit_callbacks, event=event, kind="seating", round_=round1
    )
    assert changed.pk != first.pk and changed.status == "ok"
    assert not GeneratedFile.objects.filter(pk=first.pk).exists()  # superseded, removed
    letter = request(
        django_capture_on_commit_callbacks,
        event=event,
        kind="seating",
        round_=round1,
        paper="letter",
    )
    assert letter.pk != changed.pk


def test_bad_requests_name_the_field(event_played):
    from tournaments.errors import UserFacingError

    event, *_ = event_played
    with pytest.raises(UserFacingError) as error:
        generated_file_request(event=event, kind="seating")
    assert error.value.extra["field"] == "round"
    with pytest.raises(UserFacingError) as error:
        generated_file_request(event=event, kind="standings", paper="A3")
    assert error.value.extra["field"] == "paper"


def test_filled_protocol_shows_a_rulings_entry_with_its_reference(
    event_played, tmp_path, django_capture_on_commit_callbacks
):
    from django.utils import timezone

    from tournaments.models import Incident, Ruling

    event, entries, round1, _ = event_played
    table = Table.objects.filter(round=round1).order_by("number").first()
    incident = Incident.objects.create(
        event=event,
        table=table,
        deal=0,
        seats=[1],
        occurred_at=timezone.now(),
        description="talon seen",
    )
    ruling = Ruling.objects.create(
        incident=incident,
        kind="catalogue",
        penalty_code="talon",
        seat=1,
        rule="3.2.21",
        reason="looked at the talon",
        entries=[{"player": 1, "rule": "3.2.21", "gora": 5}],
        after_deal=0,
    )
    Protocol.objects.filter(table=table).update(
        ruling_entries=[
            {
                "ruling": ruling.pk,
                "after_deal": 0,
                "entries": [{"player": 1, "rule": "3.2.21", "gora": 5}],
            }
        ]
    )
    f = request(django_capture_on_commit_callbacks, event=event, kind="filled", table=table)
    flat = " ".join(pdf_text(f.file.read(), tmp_path).split())
    # the entry in the pulka, after deal 1, in words with its rule
    assert "(ruling)" in flat and "5 into the gora (3.2.21" in flat  # as the web page says it
    assert "Rulings" in flat and "looked at the talon" in flat


def test_blank_protocol_cuts_long_names_to_their_column_and_wraps_long_lines(
    event_played, tmp_path, django_capture_on_commit_callbacks
):
    """The reportlab overlay (issue 6): a name wider than its column head is cut at the
    column's edge, and the signature line of long names wraps instead of leaving the page."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from tournaments.pdf import blank as pdf_sheets

    event, entries, round1, _ = event_played
    long = "Константин Константинопольский-Задунайский"
    for e in entries:
        Player.objects.filter(pk=e.player_id).update(name=f"{long} {e.pk}")
    f = request(django_capture_on_commit_callbacks, event=event, kind="blank", round_=round1)
    assert f.status == "ok", f.error
    data = Path(f.file.path).read_bytes()
    path = tmp_path / "long.pdf"
    path.write_bytes(data)
    bbox = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    right = [float(x) for x in __import__("re").findall(r'xMax="([\d.]+)"', bbox)]
    assert right and max(right) < 841.89  # A4 landscape: nothing drawn past the page
    text = pdf_text(data, tmp_path)
    assert "Константинопольский-Задунайский" in text and "Referee: ____" in text
    # a whist column's head: the name as large as fits its box (6 pt down to 4.5 pt), with the
    # first names as initials, cut with "…" only if even that is too wide (issue 29)
    assert sorted(t.seats.count() for t in Table.objects.filter(round=round1)) == [3, 4]
    table1 = Table.objects.get(round=round1, number=1)
    cells = table1.seats.count() * (table1.seats.count() + 1)
    width = (75.0 / cells * 277.0 / 100 - 2 * pdf_sheets.PAD_MM) * 72 / 25.4  # inside, pt
    font = pdf_sheets.FONTS["r"][0]
    cut, size = pdf_sheets.fit(long, font, 6, width, 4.5)
    assert cut.endswith("…") and cut.startswith("К. Конст") and size == 4.5
    assert stringWidth(cut, font, size) <= width
    # the names drawn (the player's number last): "К. К. 64", whole, in the column
    drawn, _ = pdf_sheets.fit(f"{long} {entries[0].pk}", font, 6, width, 4.5)
    assert drawn == f"К. К. {entries[0].pk}"
    assert drawn in text.split("Whists on", 1)[1]
