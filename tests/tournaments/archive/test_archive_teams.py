"""Issue 40: the archive carries a team event's rules, teams and line-ups, and an imported team
event's draws verify (the record's teams name the draw's ids)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.archive.export import event_archive
from tournaments.archive.load import event_archive_import
from tournaments.archive.refs import ArchiveError
from tournaments.models import Entry, Team, TeamLineUp, TeamRules
from tournaments.services.rounds import round_create, round_draw, round_publish
from tournaments.services.teams import (
    team_create,
    team_line_up_set,
    team_member_withdraw,
    team_rules_set,
)

pytestmark = pytest.mark.django_db


def team_event():
    event = EventFactory(slug="teams-cup", table_size_policy="3", rounds_planned=3)
    teams = []
    for k, size in enumerate([4, 3, 3, 3]):
        members = [EntryFactory(event=event) for _ in range(size)]
        teams.append(team_create(event=event, name=f"Команда {k}", members=members))
    team_rules_set(event=event, scoring_members=2, counts="places")
    first = list(Entry.objects.filter(team_membership__team=teams[0]).order_by("pk"))
    team_line_up_set(team=teams[0], round_number=1, members=first[:3])
    round_publish(round_=round_draw(round_=round_create(event=event)))
    team_member_withdraw(team=teams[0], entry=first[0], reason="ill")
    return event


def shape(event):
    """The teams as names: comparable between the event and its copy."""
    name = dict(Entry.objects.filter(event=event).values_list("pk", "player__name"))
    return sorted(
        (
            t.name,
            name.get(t.captain_id),
            t.withdrawn,
            sorted(name[m.entry_id] for m in t.members.all()),
            sorted(
                (u.round_number, sorted(name[e.pk] for e in u.entries.all()))
                for u in TeamLineUp.objects.filter(team=t)
            ),
        )
        for t in Team.objects.filter(event=event)
    )


def test_a_team_event_travels_with_its_teams_and_line_ups(capsys):
    event = team_event()
    organiser = UserFactory(username="importer", is_staff=True, is_superuser=True)
    document = event_archive(event=event)
    assert document["team_rules"] == {"scoring_members": 2, "counts": "places"}
    assert len(document["teams"]) == 4 and document["teams"][0]["line_ups"][0]["round"] == 1
    copy = event_archive_import(
        document=json.loads(json.dumps(document)), by=organiser, slug="teams-copy"
    )
    rules = TeamRules.objects.get(event=copy)
    assert (rules.scoring_members, rules.counts) == (2, "places")
    assert shape(copy) == shape(event)
    call_command("draw_verify", "teams-copy", "1")
    out = capsys.readouterr().out
    assert "no two members of one team at a table (4 teams)" in out and "verified" in out


def test_an_archive_without_teams_imports_as_before_and_bad_teams_are_refused():
    event = EventFactory(slug="solo-cup")
    EntryFactory(event=event)
    organiser = UserFactory(username="importer2", is_staff=True, is_superuser=True)
    document = event_archive(event=event)
    assert "teams" not in document and "team_rules" not in document
    copy = event_archive_import(document=document, by=organiser, slug="solo-copy")
    assert not TeamRules.objects.filter(event=copy).exists()
    bad = {
        **document,
        "team_rules": {"scoring_members": 3, "counts": "results"},
        "teams": [{"name": "X", "captain": None, "members": [99]}],
    }
    with pytest.raises(ArchiveError, match=r"\$\.teams\[0\]\.members\[0\]"):
        event_archive_import(document=bad, by=organiser, slug="bad-copy")
