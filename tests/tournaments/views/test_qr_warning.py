"""Before printing blank protocols (and the players' links) the organiser is told when their
QR codes would point at an address the players' phones cannot open, and how to set it
(issue 29)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import EventRole
from tournaments.pdf.files import qr_address_is_local

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("address", "local"),
    [
        ("http://localhost:8000/", True),
        ("http://127.0.0.1:8000/ru", True),
        ("http://[::1]/", True),
        ("http://0.0.0.0:8000/", True),
        ("http://pulka.local/", True),
        ("http://laptop:8000/", True),
        ("https://pulka.example.org", False),
        ("http://192.168.1.20:8000/", False),  # the club's own network: phones on its wifi reach it
    ],
)
def test_local_addresses(address, local):
    assert qr_address_is_local(address) is local


@pytest.fixture
def organiser_client(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    event, entries = make_event(players=9)
    play_round(event, entries, 1, rng=random.Random(1))
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    client.force_login(user)
    client.event = event
    return client


def test_the_documents_page_warns_while_the_address_is_local(organiser_client, settings):
    url = reverse("documents-manage", args=[organiser_client.event.slug])
    settings.PULKA_BASE_URL = "http://localhost:8000"
    page = organiser_client.get(url).content.decode()
    assert 'id="qr-warning"' in page and "http://localhost:8000" in page
    assert "PULKA_BASE_URL=https://" in page  # and says how to set it
    settings.PULKA_BASE_URL = ""  # the request's own address: the test client's "testserver"
    assert 'id="qr-warning"' in organiser_client.get(url).content.decode()
    settings.PULKA_BASE_URL = "https://pulka.example.org"
    assert 'id="qr-warning"' not in organiser_client.get(url).content.decode()


def test_printing_blank_protocols_with_a_local_address_warns_again(
    organiser_client, settings, django_capture_on_commit_callbacks
):
    settings.PULKA_BASE_URL = "http://127.0.0.1:8000"
    url = reverse("documents-manage", args=[organiser_client.event.slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(url, {"kind": "seating", "round": 1}, follow=True)
    assert not [m for m in response.context["messages"] if "PULKA_BASE_URL" in str(m)]  # no QR
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(url, {"kind": "blank", "round": 1}, follow=True)
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    assert any("http://127.0.0.1:8000" in w and "PULKA_BASE_URL" in w for w in warnings)
