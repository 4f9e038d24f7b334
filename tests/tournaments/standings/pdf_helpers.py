"""What the PDF tests share: a PDF's text and page count read back with poppler (pdftotext,
pdfinfo), a document asked for with its job run, an event with two rounds played (the second
not approved), and a document asked for through the API by a referee."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

from django.contrib.auth import get_user_model

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import EventRole, GeneratedFile
from tournaments.pdf.files import generated_file_request

__all__ = [
    "api_document",
    "login_referee",
    "page_count",
    "pdf_text",
    "request",
    "two_rounds_played",
]


def pdf_text(data: bytes, tmp_path: Path, name: str = "doc.pdf") -> str:
    """The PDF's text as ``pdftotext -layout`` gives it (pages end with a form feed)."""
    path = tmp_path / name
    path.write_bytes(data)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def page_count(data: bytes, tmp_path: Path, name: str = "doc.pdf") -> int:
    """The PDF's pages as ``pdfinfo`` counts them."""
    path = tmp_path / name
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    return int(next(x.split()[-1] for x in info.stdout.splitlines() if x.startswith("Pages:")))


def request(django_capture_on_commit_callbacks, **kw) -> GeneratedFile:
    """A document asked for (``generated_file_request``), its job run at the commit."""
    with django_capture_on_commit_callbacks(execute=True):
        f = generated_file_request(**kw)
    f.refresh_from_db()
    return f


def two_rounds_played(settings, tmp_path, *, seed: int, players: int, before_play=None, **event):
    """``(event, entries, round1, round2)``: round 1 played and approved, round 2 played and
    not approved; the files under ``tmp_path``. ``before_play(entries)``: what to change first
    (a player's name, say)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    made, entries = make_event(players=players, **event)
    if before_play is not None:
        before_play(entries)
    rng = random.Random(seed)
    round1, _ = play_round(made, entries, 1, rng=rng)
    round2, _ = play_round(made, entries, 2, rng=rng, approve=False)
    return made, entries, round1, round2


def login_referee(client, event):
    """``client`` logged in as a new referee of ``event`` (user name "ref")."""
    user = get_user_model().objects.create_user("ref", password="pw")
    EventRole.objects.create(event=event, user=user, role="referee")
    client.force_login(user)
    return user


def api_document(client, event, body: dict, django_capture_on_commit_callbacks) -> GeneratedFile:
    """A referee asks for a document through the API, its job run at the commit: 202, then
    the PDF from its URL."""
    login_referee(client, event)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/v1/events/{event.slug}/documents", body, content_type="application/json"
        )
    assert response.status_code == 202, response.content
    got = client.get(response.json()["url"])
    assert got.status_code == 200 and got["Content-Type"] == "application/pdf"
    return GeneratedFile.objects.get(pk=response.json()["id"])
