"""Pages are localised: English by default, Russian under /ru/."""

import pytest

from tests.factories import EventFactory

pytestmark = pytest.mark.django_db


def test_pages_speak_russian(client):
    event = EventFactory()
    page = client.get(f"/ru/e/{event.slug}/")
    assert page.status_code == 200
    assert "Туры" in page.content.decode()
