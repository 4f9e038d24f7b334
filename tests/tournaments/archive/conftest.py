"""What the archive tests share: the demo's organiser, the demo event with its protocols, and an
import of a document as it travels (through JSON)."""

from __future__ import annotations

import json

import pytest

from tests.factories import UserFactory
from tournaments.archive.load import event_archive_import
from tournaments.demo.events import demo_event
from tournaments.demo.protocols import demo_protocols


@pytest.fixture
def organiser(db):
    return UserFactory(username="demo", is_staff=True, is_superuser=True)


@pytest.fixture
def demo(organiser):
    """``(event, organiser)``: the demo event with its protocols."""
    event = demo_event(organiser=organiser)
    demo_protocols(event)
    return event, organiser


def imported(document: dict, organiser, slug: str):
    """``document`` imported as event ``slug``, read back from its JSON as a file would be."""
    return event_archive_import(document=json.loads(json.dumps(document)), by=organiser, slug=slug)
