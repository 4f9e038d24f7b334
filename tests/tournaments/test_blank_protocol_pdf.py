"""The blank protocols' layout (issue 29), read back from the PDF: the grid's header sits under
the head in every language (a decimal comma once moved it to the top of the Russian sheets), the
QR code's caption ends above the grid's top border, and the names in the narrow whist columns
are whole or shortened, never cut at the border."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.factories import UserFactory
from tournaments.demo.events import demo_event
from tournaments.models import Round
from tournaments.pdf import blank as pdf_sheets
from tournaments.pdf import contexts as pdf_contexts
from tournaments.pdf import documents as pdf

pytestmark = pytest.mark.django_db

MM = 72 / 25.4
#: the grid's top border on the page: the top margin and the head above it, pt
GRID_TOP = (pdf_sheets.MARGINS_MM[0] + pdf_sheets.HEAD_MM) * MM


def _words(data: bytes, page: int) -> list[tuple[str, float, float]]:
    """(word, top, bottom) in pt of one page, from pdftotext's bounding boxes."""
    folder = Path(tempfile.mkdtemp(prefix="pulka-blank-"))
    (folder / "b.pdf").write_bytes(data)
    subprocess.run(
        [
            "pdftotext",
            "-bbox",
            "-f",
            str(page),
            "-l",
            str(page),
            str(folder / "b.pdf"),
            str(folder / "b.html"),
        ],
        check=True,
    )
    html = (folder / "b.html").read_text()
    return [
        (w, float(y0), float(y1))
        for y0, y1, w in re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<', html)
    ]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_head_the_caption_and_the_grid_do_not_overlap(db, language):
    event = demo_event(organiser=UserFactory(username="demo", is_superuser=True))
    round_ = Round.objects.get(event=event, number=3)
    context = pdf_contexts.blank_protocols_context(
        round_=round_, base_url="https://pulka.example.org/ru"
    )
    data = pdf.render("blank", context, language=language).data
    four = next(i for i, t in enumerate(context["tables"], 1) if t["size"] == 4)
    for page in (1, four):
        words = _words(data, page)
        key = context["tables"][page - 1]["link"].rstrip("/").rsplit("/", 1)[1]
        caption = [w for w in words if "pulka.example.org" in w[0] or key in w[0]]
        assert caption, words
        assert max(bottom for _, _, bottom in caption) < GRID_TOP  # above the grid's border
        pulya = "Пуля" if language == "ru" else "Pulya"
        heads = [top for w, top, _ in words if w == pulya]
        assert heads and min(heads) > GRID_TOP  # the header is under the head, not on it
        assert not any(w.endswith("…") and len(w) < 3 for w, _, _ in words)
    # the whist columns of a four-player table name the players, shortened where narrow
    opponents = {w for w, top, _ in _words(data, four) if top > GRID_TOP + 6 * MM}
    seated = context["tables"][four - 1]["players"]
    assert all(
        p["name"].split()[-1] in opponents
        or any(o.startswith(p["name"].split()[-1][:4]) for o in opponents)
        for p in seated
    )
