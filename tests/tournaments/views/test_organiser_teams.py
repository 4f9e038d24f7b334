"""The organisers' teams page (issue 40): the team rules, a new team, a line-up before the draw,
the withdrawal of a member or a team; referees read it, only organisers write."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import EntryFactory, EventFactory
from tournaments.models import AuditLogEntry, Entry, EventRole, Team, TeamRules
from tournaments.services.rounds import round_create, round_draw
from tournaments.services.teams import team_create

pytestmark = pytest.mark.django_db


def user_with(event, role):
    user = get_user_model().objects.create_user(f"{role}-teams", password="pw")
    EventRole.objects.create(event=event, user=user, role=role)
    return user


@pytest.fixture
def event():
    event = EventFactory(slug="team-cup", table_size_policy="3")
    for _ in range(10):
        EntryFactory(event=event)
    return event


def test_an_organiser_registers_teams_and_line_ups(client, event):
    url = reverse("manage-teams", args=[event.slug])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(user_with(event, "organiser"))
    ids = list(Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))
    answer = client.post(url, {"action": "rules", "scoring_members": "2", "counts": "places"})
    assert answer.status_code == 302
    assert TeamRules.objects.get(event=event).counts == "places"
    answer = client.post(
        url,
        {"action": "team-add", "name": "Ферзь", "members": ids[:4], "captain": str(ids[1])},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    team = Team.objects.get(event=event, name="Ферзь")
    assert team.captain_id == ids[1] and team.members.count() == 4
    # two members: refused, the form shows why
    answer = client.post(url, {"action": "team-add", "name": "Вист", "members": ids[4:6]})
    assert answer.status_code == 200
    assert "A team has 3 to 5 members, not 2." in answer.content.decode()
    answer = client.post(
        url, {"action": "line-up", "team": str(team.pk), "round": "1", "members": ids[:3]}
    )
    assert answer.status_code == 302
    assert AuditLogEntry.objects.filter(event=event, action="team.line_up_set").exists()
    page = client.get(url).content.decode()
    assert "Ферзь" in page and "round 1" in page
    client.post(url, {"action": "member-withdraw", "team": str(team.pk), "entry": str(ids[3])})
    assert Entry.objects.get(pk=ids[3]).status == Entry.Status.WITHDRAWN
    client.post(url, {"action": "team-withdraw", "team": str(team.pk)})
    team.refresh_from_db()
    assert team.withdrawn


def test_a_referee_reads_the_page_but_does_not_write(client, event):
    client.force_login(user_with(event, "referee"))
    url = reverse("manage-teams", args=[event.slug])
    assert client.get(url).status_code == 200
    assert client.post(url, {"action": "rules", "scoring_members": "2"}).status_code == 403
    assert not TeamRules.objects.filter(event=event).exists()


def test_the_rounds_draw_report_shows_the_teams_meetings(client, event):
    entries = list(Entry.objects.filter(event=event).order_by("pk"))[:9]
    Entry.objects.filter(event=event).exclude(pk__in=[e.pk for e in entries]).delete()
    for k, name in enumerate(["Ферзь", "Вист", "Мизер"]):
        team_create(event=event, name=name, members=entries[k * 3 : k * 3 + 3])
    round_draw(round_=round_create(event=event))
    client.force_login(user_with(event, "referee"))
    html = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert "Meetings of the teams" in html and "from 3 to 3" in html  # one of each at a table
