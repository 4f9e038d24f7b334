"""The team standings' page, CSV and API (issue 40), for every rule family: the teams' totals
are the best members' approved results recounted from the individual standings, provisional
while a round is open; a member withdrawn mid-event keeps his rounds for the team."""

import csv
import io
import random
from collections import defaultdict
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from rules.variants import FAMILIES
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.selectors.standings import snapshot_data, standings_header
from tournaments.services.standings import standings_recompute
from tournaments.services.teams import team_create, team_member_withdraw, team_rules_set

pytestmark = pytest.mark.django_db


def by_hand(event, teams, k):
    """Each team's approved total recounted from the stored individual standings."""
    data = snapshot_data(standings_header(event=event))
    team_of = {e.pk: name for name, members in teams.items() for e in members}
    per = defaultdict(lambda: defaultdict(list))
    for row in data["rows"]:
        for n, cell in row["rounds"].items():
            if cell["final"] and row["entry"] in team_of:
                per[team_of[row["entry"]]][n].append(Fraction(str(cell["score"])))
    return {
        name: sum(
            (sum(sorted(v, reverse=True)[:k], Fraction(0)) for v in rounds.values()), Fraction(0)
        )
        for name, rounds in per.items()
    }


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_team_standings_for_every_rule_family(client, family):
    convention = FAMILIES[family].default_convention
    event, entries = make_event(players=12, slug=f"teams-{family}", variant=convention)
    teams = {
        name: entries[i * 3 : i * 3 + 3]
        for i, name in enumerate(["Север", "Юг", "Запад", "Восток"])
    }
    for name, members in teams.items():
        team_create(event=event, name=name, members=members)
    team_rules_set(event=event, scoring_members=2)
    rng = random.Random(family)
    play_round(event, entries, 1, rng=rng, family=family, target=None)
    team_member_withdraw(team=event.teams.get(name="Юг"), entry=teams["Юг"][0], reason="ill")
    play_round(event, entries, 2, rng=rng, family=family, target=None, approve=False)  # open
    standings_recompute(event_id=event.pk)

    api = client.get(f"/api/v1/events/{event.slug}/team-standings")
    assert api.status_code == 200, api.content
    body = api.json()
    assert (body["scoring_members"], body["counts"], body["rounds"]) == (2, "results", [1, 2])
    expected = by_hand(event, teams, 2)
    assert {r["team"]: Fraction(str(r["total"])) for r in body["rows"]} == expected
    totals = [r["total"] for r in body["rows"]]
    assert totals == sorted(totals, reverse=True)
    assert all(r["has_provisional"] and not r["rounds"]["2"]["final"] for r in body["rows"])
    south = next(r for r in body["rows"] if r["team"] == "Юг")
    assert [m["withdrawn"] for m in south["members"] if m["entry"] == teams["Юг"][0].pk] == [True]
    assert teams["Юг"][0].pk in south["rounds"]["1"]["played"]  # his round counts for the team

    for url in (reverse("standings", args=[event.slug]), reverse("event", args=[event.slug])):
        linked = client.get(url).content.decode()
        assert f'href="{reverse("team-standings", args=[event.slug])}"' in linked
    individual = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert f'href="{reverse("team-standings", args=[event.slug])}"' in individual
    page = client.get(reverse("team-standings", args=[event.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    for name in teams:
        assert name in html
    download = client.get(reverse("team-standings-csv", args=[event.slug]))
    rows = list(csv.reader(io.StringIO(download.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Place", "Team", "Members"] and len(rows) == 5
    assert [r[1] for r in rows[1:]] == [r["team"] for r in body["rows"]]


def test_an_event_without_teams_has_no_team_standings(client):
    event, _entries = make_event(players=9, slug="solo")
    assert client.get(reverse("team-standings", args=[event.slug])).status_code == 404
    assert client.get(f"/api/v1/events/{event.slug}/team-standings").status_code == 404


def test_the_team_page_in_russian(client):
    event, entries = make_event(players=9, slug="moscow")
    for i, name in enumerate(["Ферзь", "Вист", "Мизер"]):
        team_create(event=event, name=name, members=entries[i * 3 : i * 3 + 3])
    play_round(event, entries, 1, rng=random.Random(1))
    standings_recompute(event_id=event.pk)
    with translation.override("ru"):
        url = reverse("team-standings", args=[event.slug])
    html = client.get(url).content.decode()
    assert "Командный зачёт" in html and "Лучший игрок" in html


def test_the_hall_shows_the_team_standings_after_the_individual_ones(client):
    event, entries = make_event(players=9, slug="hall-teams")
    play_round(event, entries, 1, rng=random.Random(3))
    standings_recompute(event_id=event.pk)
    html = client.get(reverse("hall", args=[event.slug])).content.decode()
    assert 'data-kind="team-standings"' not in html  # no teams: no team page
    for i, name in enumerate(["Ферзь", "Вист", "Мизер"]):
        team_create(event=event, name=name, members=entries[i * 3 : i * 3 + 3])
    html = client.get(reverse("hall", args=[event.slug])).content.decode()
    assert html.count('data-kind="team-standings"') == 1
    assert html.index('data-kind="standings"') < html.index('data-kind="team-standings"')
    assert all(name in html for name in ["Ферзь", "Вист", "Мизер"])
