"""Issue 29 in a real browser: a referee orders every filled protocol of the event as one PDF
from the documents page, sees it listed with the other files, and the file holds every table
of every round in order, a bookmark per round and per table. The page fits a phone.

Screenshots go to ``PULKA_SCREENSHOTS`` (default: a temporary folder), to look at."""

from __future__ import annotations

import io
import random
import subprocess

import pytest

from tests.browser.conftest import login
from tests.browser.steps import FITS, screenshots
from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import EventRole, GeneratedFile, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_referee_orders_the_whole_events_protocols(desk, phone, live_server, tmp_path):
    from pypdf import PdfReader

    shots = screenshots("pulka-docs-")
    event, entries = make_event(players=10, slug="archive-cup")  # 2 tables of 3, 1 of 4
    rng = random.Random(7)
    play_round(event, entries, 1, rng=rng)
    play_round(event, entries, 2, rng=rng, approve=False)
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)

    page = desk
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/e/archive-cup/manage/documents/")
    button = page.get_by_role("button", name="Filled protocols of the whole event")
    form = page.locator("form", has=button)
    form.locator("select[name=language]").select_option("en")
    with page.expect_navigation():
        button.click()
    f = GeneratedFile.objects.get(event=event, kind="protocols")
    assert f.status == GeneratedFile.Status.OK, f.error
    files = page.locator("table", has_text="Filled protocols of the event")
    link = files.get_by_role("link", name="Filled protocols of the event")
    assert link.is_visible()
    page.screenshot(path=str(shots / "01-documents.png"), full_page=True)
    with page.expect_download() as download:
        page.evaluate(
            "(a) => { a.setAttribute('download', ''); a.click(); }", link.element_handle()
        )
    path = tmp_path / "event.pdf"
    download.value.save_as(path)

    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = [" ".join(p.split()) for p in text.split("\f") if p.strip()]
    tables = list(Table.objects.filter(round__event=event).order_by("round__number", "number"))
    assert len(tables) == 6 and len(pages) == len(tables)
    for t, sheet in zip(tables, pages, strict=True):
        assert f"Round {t.round.number}, table {t.number}" in sheet
        for seat in t.seats.select_related("entry__player"):
            assert seat.entry.player.name in sheet
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    titles = [
        [x.title for x in item] if isinstance(item, list) else item.title for item in reader.outline
    ]
    tables_of_a_round = ["Table 1", "Table 2", "Table 3"]
    assert titles == ["Round 1", tables_of_a_round, "Round 2", tables_of_a_round]

    # the documents page on a phone: no sideways scrolling of the page
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/e/archive-cup/manage/documents/")
    assert phone.evaluate(FITS)
    phone.screenshot(path=str(shots / "02-documents-phone.png"), full_page=True)
