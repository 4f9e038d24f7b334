"""What the archive tests share: the demo's organiser, the demo event with its protocols, and an
import of a document as it travels (through JSON)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import kept_for_the_module
from tests.factories import UserFactory
from tournaments.archive.load import event_archive_import
from tournaments.demo.events import demo_event
from tournaments.demo.protocols import demo_protocols


def _demo() -> tuple[int, int]:
    organiser = UserFactory(username="demo", is_staff=True, is_superuser=True)
    event = demo_event(organiser=organiser)
    demo_protocols(event)
    return event.pk, organiser.pk


@pytest.fixture(scope="module")
def _demo_keys(django_db_setup, django_db_blocker):
    """The demo event with its protocols, built once for the module (tests/conftest.py)."""
    yield from kept_for_the_module(django_db_blocker, _demo)


@pytest.fixture
def organiser(demo):
    """The demo's organiser (its user name is taken while the module's demo event is kept)."""
    return demo[1]


@pytest.fixture
def demo(db, _demo_keys):
    """``(event, organiser)``: the demo event with its protocols, read afresh for the test."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Event

    event_pk, organiser_pk = _demo_keys
    return Event.objects.get(pk=event_pk), get_user_model().objects.get(pk=organiser_pk)


def imported(document: dict, organiser, slug: str):
    """``document`` imported as event ``slug``, read back from its JSON as a file would be."""
    return event_archive_import(document=json.loads(json.dumps(document)), by=organiser, slug=slug)
