"""Hall mode (issue 42, docs/hall-mode.md): an event run from a laptop on the hall's own network.
``PULKA_BASE_URL`` names the laptop's address on that network: ``bash .ci/demo`` then answers to
that host too, and the QR codes of the blank protocols and the players' links point at it."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import GeneratedFile, Table
from tournaments.pdf.contexts import blank_protocols_context, player_links_context
from tournaments.pdf.files import generated_file_request, qr_address_is_local

SCRIPT = Path(__file__).resolve().parent.parent / ".ci" / "demo"


def allowed_hosts(**env: str) -> str:
    """``ALLOWED_HOSTS`` after the demo's address block, run alone with ``env``."""
    text = SCRIPT.read_text()
    block = re.search(r"# --- the address served.*?\n(.*?)# --- end of the address", text, re.S)
    out = subprocess.run(
        ["bash", "-c", block.group(1) + 'echo "${ALLOWED_HOSTS:-}"'],
        env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return out.stdout.strip()


@pytest.mark.parametrize(
    ("base", "host"),
    [
        ("http://192.168.1.20:8000", "192.168.1.20"),
        ("http://192.168.1.20:8000/", "192.168.1.20"),
        ("https://hall.example.org", "hall.example.org"),
        ("http://[fd00::5]:8000/", "[fd00::5]"),
    ],
)
def test_the_demo_answers_to_the_halls_address(base, host):
    hosts = allowed_hosts(PULKA_ADDR="0.0.0.0:8000", PULKA_BASE_URL=base).split(",")
    assert host in hosts and "localhost" in hosts


def test_the_demo_keeps_hosts_given_and_adds_none_without_a_base_url():
    assert allowed_hosts(PULKA_BASE_URL="http://10.0.0.2:8000", ALLOWED_HOSTS="a.b") == "a.b"
    assert allowed_hosts(PULKA_ADDR="0.0.0.0:8000") == ""


@pytest.mark.django_db
def test_the_qr_codes_and_links_point_at_the_halls_address(settings, client, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PULKA_BASE_URL = "http://192.168.1.20:8000"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20"]
    assert not qr_address_is_local(settings.PULKA_BASE_URL)  # no warning before printing
    event, entries = make_event(players=9, slug="hall-cup")
    play_round(event, entries, 1, rng=random.Random(1))
    round_ = event.rounds.get(number=1)
    # asked from the laptop itself, the documents still point at the hall's address
    blank = generated_file_request(
        event=event, kind=GeneratedFile.Kind.BLANK_PROTOCOLS, round_=round_,
        base_url="http://localhost:8000",
    )  # fmt: skip
    assert blank.base_url == "http://192.168.1.20:8000"
    tables = blank_protocols_context(round_=round_, base_url=blank.base_url)["tables"]
    table = Table.objects.get(round=round_, number=1)
    assert tables[0]["link"] == f"http://192.168.1.20:8000/t/{table.url_key}/"
    links = generated_file_request(
        event=event, kind=GeneratedFile.Kind.PLAYER_LINKS, base_url="http://localhost:8000"
    )
    context = player_links_context(event=event, base_url=links.base_url)
    assert "http://192.168.1.20:8000/p/" in repr(context)
    # a phone on the hall's network opens the table's page and its service worker there
    page = reverse("protocol-table", args=[table.url_key])
    assert client.get(page, HTTP_HOST="192.168.1.20:8000").status_code == 200
    worker = reverse("protocol-table-worker", args=[table.url_key])
    assert client.get(worker, HTTP_HOST="192.168.1.20:8000").status_code == 200
