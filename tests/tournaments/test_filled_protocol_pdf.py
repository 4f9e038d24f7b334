"""The filled protocol's PDF (issue 29): it names the rules (family, convention, options), the
event's dates and how the pulka ended, prints the approval time in the document's language and
what a ruling wrote into the pulka in words (names, not seats or JSON)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from django.utils import translation

from tests.factories import UserFactory
from tournaments.demo.events import demo_event
from tournaments.demo.protocols import demo_protocols
from tournaments.models import Table
from tournaments.pdf import documents as pdf
from tournaments.pdf import protocol_contexts as pdf_protocols
from tournaments.words.penalties import penalty_entry_words

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db):
    event = demo_event(organiser=UserFactory(username="demo", is_superuser=True))
    demo_protocols(event)
    return event


def _text(data: bytes, layout: bool = True) -> str:
    folder = Path(tempfile.mkdtemp(prefix="pulka-filled-"))
    (folder / "p.pdf").write_bytes(data)
    subprocess.run(
        ["pdftotext", *(["-layout"] if layout else []), str(folder / "p.pdf")], check=True
    )
    if os.environ.get("PULKA_SCREENSHOTS"):  # pages as PNG, to look at (not committed)
        shots = Path(os.environ["PULKA_SCREENSHOTS"])
        shots.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["pdftoppm", "-png", "-r", "70", str(folder / "p.pdf"), str(shots / "filled")],
            check=True,
        )
    text = (folder / "p.txt").read_text()
    shutil.rmtree(folder)
    return " ".join(text.split())


def test_the_filled_protocol_names_rules_dates_ending_and_the_ruling_in_words(demo):
    table = Table.objects.get(round__event=demo, round__number=3, number=4)  # the 3.2.21 ruling
    context = pdf_protocols.filled_protocol_context(table=table)
    wrote = context["rulings"][0]["wrote"]
    offender = table.seats.order_by("position")[1].entry.player.name
    assert wrote and wrote[0].startswith(f"{offender}: ") and "3.2.21" in wrote[0]
    assert "{" not in wrote[0] and "seat" not in wrote[0]
    data = pdf.render("filled", context, language="en").data
    text = _text(data)
    assert "Russian Preference — Сочинка (Sochi)" in text or "Russian Preference — Sochi" in text
    assert "Dec. 5, 2026 – Dec. 6, 2026" in text
    assert "The pulka: closed (every pulya reached the target)" in text
    # in reading order: with -layout, a ruling wrapped in its cell can interleave with the
    # neighbouring column, depending on how long the demo's (random) names are
    # (compared without white space: a wrap may fall anywhere in the cell)
    assert "".join(wrote[0].split()) in "".join(_text(data, layout=False).split())
    # the penalty lines of the grid too: in words, not the notation's ``gora=5 note=…``
    lines = [d["text"] for d in context["deals"] if d["penalty"]]
    players = [p["name"] for p in context["players"]]
    assert lines and all(t.split(": ")[0] in players and "=" not in t for t in lines)
    assert any(t.startswith(f"{offender}: 5 into the gora (3.2.21") for t in lines)
    assert "gora=" not in text
    approved = context["protocol"]["approved_on"]
    assert approved is not None and approved.isoformat()[:16] not in text  # not the raw ISO
    ru = _text(pdf.render("filled", context, language="ru").data)
    assert "Преферанс" in ru and "5 декабря 2026" in ru


def test_a_pulka_stopped_by_agreement_says_so(demo):
    table = Table.objects.get(round__event=demo, round__number=3, number=5)  # 3.8.5.1 Б
    context = pdf_protocols.filled_protocol_context(table=table)
    with translation.override("en"):
        assert str(context["protocol"]["ending_words"]) == "stopped by agreement"


def test_penalty_entries_in_words():
    names = ["Anna", "Boris", "Vera"]
    assert penalty_entry_words({"player": 0, "pulya": 1, "whists": [[2, 10]]}, names) == (
        "Anna: 1 into the pulya, 10 whists on Vera"
    )
    assert penalty_entry_words({"player": 2, "rule": "4.2.9", "note": "late"}, names) == (
        "Vera: nothing written (4.2.9, late)"
    )


@pytest.mark.parametrize(
    ("make", "language"),
    [
        ("tournaments.demo.balkan.demo_balkan_event", "hr"),
        ("tournaments.demo.pot.demo_pot_event", "de"),
        ("tournaments.demo.priffe.demo_priffe_event", "sv"),
    ],
)
def test_every_familys_filled_protocol_names_its_rules_and_ending(db, make, language):
    from django.utils.module_loading import import_string

    from tournaments.models import Protocol

    event = import_string(make)(organiser=UserFactory(username="demo", is_superuser=True))
    approved = Protocol.objects.filter(table__round__event=event, approved=True).first()
    context = pdf_protocols.filled_protocol_context(table=approved.table)
    text = _text(pdf.render("filled", context, language=language).data, layout=False)
    assert event.family.name_in(language) in text
    with translation.override(language):
        # the convention by its name in the sheet's language (issue 36), whoever built it
        assert event.convention_name in text
        assert str(context["protocol"]["ending_words"]) in text


def test_a_russian_sheets_penalty_rows_and_rulings_are_in_russian(demo):
    """Issue 36: the Russian filled protocol's penalty rows and rulings table read in Russian
    ("5 в гору (3.2.21, подсмотрел прикуп)"), as the web page does, when the document is made in
    Russian: its words are said in the document's language, whoever asked for it."""
    from tournaments.models import GeneratedFile
    from tournaments.pdf.files import generated_file_render, generated_file_request

    table = Table.objects.get(round__event=demo, round__number=3, number=4)  # the 3.2.21 ruling
    with translation.override("en"):  # asked from an English page, for a Russian sheet
        f = generated_file_request(
            event=demo, kind=GeneratedFile.Kind.FILLED_PROTOCOL, table=table, language="ru"
        )
    f = generated_file_render(file_id=f.pk)
    text = _text(f.file.read())
    offender = table.seats.order_by("position")[1].entry.player.name
    assert f"{offender}: 5 в гору (3.2.21, подсмотрел прикуп)" in text, text
    assert "into the gora" not in text and "looked at the talon" not in text
    assert "Penalty from the rules" not in text
