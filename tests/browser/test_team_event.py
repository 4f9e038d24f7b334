"""Issue 40's "Done when" in a real browser, in Russian: an organiser imports six teams of three
from a CSV with a team column, sees them on the teams page, draws two rounds (never two
members of a team at a table), and the public team standings show the teams ranked by their
members' approved results."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from scoring.russian.generate import random_protocol
from scoring.russian.jsonio import to_dict
from tests.browser.steps import login_organiser
from tests.factories import EventFactory
from tests.tournaments.standings.factories import result_of
from tournaments.models import Entry, Protocol, Round, Team
from tournaments.selectors.teams import team_standings_view
from tournaments.services.round_states import round_close
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEAMS = ["Ферзь", "Вист", "Мизер", "Пуля", "Гора", "Распасы"]


def players_csv() -> str:
    lines = ["имя,клуб,команда"]
    lines += [f"Игрок {k}{i},Клуб {k},{team}" for k, team in enumerate(TEAMS) for i in range(3)]
    return "\n".join(lines)


def play(round_: Round, rng: random.Random) -> None:
    """An approved protocol for every table of the round, as the protocol service stores it."""
    for table in round_.tables.all():
        seats = list(table.seats.order_by("position").select_related("entry__player"))
        game = random_protocol(rng, players=len(seats), target=10)
        game = dataclasses.replace(game, players=tuple(s.entry.player.name for s in seats))
        Protocol.objects.create(
            table=table,
            version=1,
            data=to_dict(game),
            result=result_of(game, [s.entry_id for s in seats]),
            is_current=True,
            approved=True,
        )


def test_six_teams_of_three_through_two_rounds_in_russian(desk, live_server):
    page = desk
    login_organiser(page, live_server)
    event = EventFactory(
        slug="komandnyj", name="Командный турнир", table_size_policy="3", rounds_planned=2
    )
    base = f"{live_server.url}/ru/e/{event.slug}"

    page.goto(f"{base}/manage/entries/import/")
    page.get_by_label("…или вставьте CSV").fill(players_csv())
    with page.expect_navigation():
        page.get_by_role("button", name="Импортировать").click()
    assert Team.objects.filter(event=event).count() == 6
    page.goto(f"{base}/manage/teams/")
    assert page.get_by_role("heading", name="Команды", level=1).is_visible()
    assert page.locator("section.team").count() == 6
    assert page.get_by_role("heading", name="Ферзь").is_visible()

    team_of = {
        e.pk: e.team_membership.team.name
        for e in Entry.objects.filter(event=event).select_related("team_membership__team")
    }
    rng = random.Random(40)
    for number in (1, 2):
        page.goto(f"{base}/manage/")
        with page.expect_navigation():
            page.get_by_role("button", name="Новый тур").click()
        page.goto(f"{base}/manage/rounds/{number}/")
        with page.expect_navigation(timeout=60000):
            page.get_by_role("button", name="Жеребьёвка", exact=True).click(timeout=60000)
        assert page.get_by_text("Жеребьёвка тура проведена.").is_visible()
        with page.expect_navigation():
            page.get_by_role("button", name="Опубликовать", exact=True).click()
        with page.expect_navigation():
            page.get_by_role("button", name="Начать игру").click()
        round_ = Round.objects.get(event=event, number=number)
        for table in round_.tables.all():
            teams = [team_of[e] for e in table.seats.values_list("entry_id", flat=True)]
            assert len(set(teams)) == len(teams) == 3, teams
        play(round_, rng)
        round_close(round_=round_)

    standings_recompute(event_id=event.pk)
    page.goto(f"{base}/teams/")
    assert page.get_by_role("heading", name="Командный зачёт").is_visible()
    rows = page.locator("table.teams tbody tr")
    assert rows.count() == 6
    view = team_standings_view(event=event)
    shown = [rows.nth(i).locator("td").nth(1).locator("strong").inner_text() for i in range(6)]
    assert shown == [r["team"] for r in view["rows"]]
    totals = [Fraction(str(r["total"])) for r in view["rows"]]
    assert totals == sorted(totals, reverse=True) and len({r["team"] for r in view["rows"]}) == 6
    assert all(r["rounds"]["1"]["final"] and r["rounds"]["2"]["final"] for r in view["rows"])
