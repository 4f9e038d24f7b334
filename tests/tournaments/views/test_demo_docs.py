"""The README's and docs/demo.md's description of the demo matches what it shows (issue 36):
the organiser's desk counts the players as the two quote it, the rounds are in the states they
say, and the README names the cup, its convention and its players' number as the demo has them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.factories import UserFactory
from tournaments.demo.events import demo_event
from tournaments.models import Round

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def quoted_count(path: Path) -> str:
    text = " ".join(path.read_text().split())
    return re.search(r"the players' count \(\"([^\"]+)\"", text).group(1)


def test_the_desk_counts_the_players_as_the_readme_and_the_demo_page_say(client):
    organiser = UserFactory(username="demo", is_superuser=True)
    event = demo_event(organiser=organiser)
    client.force_login(organiser)
    page = " ".join(client.get(f"/e/{event.slug}/manage/").content.decode().split())
    for doc in (ROOT / "README.md", ROOT / "docs" / "demo.md"):
        assert quoted_count(doc) in page, doc
    assert event.slug == "demo-cup" and event.entries.count() == 26
    states = dict(event.rounds.values_list("number", "state"))
    assert states[1] == states[2] == Round.State.CLOSED and states[3] == Round.State.IN_PLAY
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "pulka to 20, 26 players" in readme and event.pulka_target == 20
