"""♦ and ♥ red, ♠ and ♣ black in the PDFs as on the pages (issue 29): the filled protocol's
contracts go through the suit filter, and the red is really drawn (pdftoppm)."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Table
from tournaments.pdf import documents as pdf
from tournaments.pdf import draw as pdf_draw
from tournaments.pdf import protocol_contexts as pdf_protocols

pytestmark = pytest.mark.django_db


def red_pixels(data: bytes, tmp_path: Path) -> int:
    """How many pixels of the first page are clearly red (the suits' #c8102e)."""
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    for old in tmp_path.glob("page*.png"):
        old.unlink()
    subprocess.run(
        ["pdftoppm", "-png", "-r", "100", "-f", "1", "-l", "1", str(path), str(tmp_path / "page")],
        check=True,
    )
    image = Image.open(next(tmp_path.glob("page*.png"))).convert("RGB")
    px = image.tobytes()  # r, g, b bytes, pixel after pixel
    return sum(
        1 for i in range(0, len(px), 3) if px[i] > 150 and px[i + 1] < 90 and px[i + 2] < 110
    )


def test_the_filled_protocol_prints_red_suits_red(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    event, entries = make_event(players=6)
    play_round(event, entries, 1, rng=random.Random(3))
    contexts = [pdf_protocols.filled_protocol_context(table=t) for t in Table.objects.all()]
    context = next(c for c in contexts if any(re.search("[♦♥]", d["text"]) for d in c["deals"]))
    assert context["layout"] == "pulka"  # the Russian pulka sheet (pdf_layouts)
    marked = [pdf_draw.suits_markup(d["text"]) for d in context["deals"]]
    red = f'<font color="{pdf_draw.RED}">'
    assert any(re.search(f"{red}[♦♥]</font>", m) for m in marked)
    assert not any(re.search(f"{red}[♠♣]", m) for m in marked)
    assert red_pixels(pdf.render("filled", context).data, tmp_path) > 20
    # the same protocol without the suit symbols has no red at all: the red is the suits'
    plain = {
        **context,
        "deals": [{**d, "text": re.sub("[♠♣♦♥]", "", d["text"])} for d in context["deals"]],
    }
    assert red_pixels(pdf.render("filled", plain).data, tmp_path) == 0
