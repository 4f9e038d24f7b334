"""Teams in an event (issue 40): registration, CSV import with a team column, editing,
line-ups entered before the draw, withdrawal of a member or a team, and draws that never
seat two members of one team at a table, re-checked by ``draw_verify``."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import EntryFactory, EventFactory
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, Entry, Team, TeamRules
from tournaments.services.draw_record import draw_record, verify
from tournaments.services.entries import CsvImportError, entries_import_csv
from tournaments.services.rounds import round_create, round_draw, round_publish
from tournaments.services.teams import (
    team_create,
    team_line_up_set,
    team_member_withdraw,
    team_rules_set,
    team_update,
    team_withdraw,
)

pytestmark = pytest.mark.django_db


def team_event(sizes, **fields):
    """An event with teams of the given sizes, named A, B, C, …; (event, teams)."""
    event = EventFactory(**{"table_size_policy": "3", "rounds_planned": 3, **fields})
    teams = []
    for k, size in enumerate(sizes):
        members = [EntryFactory(event=event) for _ in range(size)]
        teams.append(team_create(event=event, name="ABCDEFGHIJ"[k], members=members))
    return event, teams


def tables_of(round_) -> list[set[int]]:
    return [set(t.seats.values_list("entry_id", flat=True)) for t in round_.tables.all()]


def team_of(event) -> dict[int, str]:
    return {
        e.pk: e.team_membership.team.name
        for e in Entry.objects.filter(event=event, team_membership__isnull=False).select_related(
            "team_membership__team"
        )
    }


def no_teammates_together(round_) -> bool:
    teams = team_of(round_.event)
    return all(
        len({teams[x] for x in t if x in teams}) == len([x for x in t if x in teams])
        for t in tables_of(round_)
    )


def test_a_team_has_three_to_five_members_and_a_captain_among_them():
    event = EventFactory()
    entries = [EntryFactory(event=event) for _ in range(12)]
    team = team_create(event=event, name="  Ферзь  ", members=entries[:3], captain=entries[1])
    assert team.name == "Ферзь" and team.captain == entries[1]
    assert TeamRules.objects.get(event=event).scoring_members == 3  # a team event now
    assert AuditLogEntry.objects.filter(event=event, action="team.created").count() == 1
    for members, says in (
        (entries[3:5], "A team has 3 to 5 members, not 2"),
        (entries[3:9], "A team has 3 to 5 members, not 6"),
        ([entries[3], entries[3], entries[4]], "named twice"),
        (entries[2:5], "already in team Ферзь"),
    ):
        with pytest.raises(UserFacingError, match=says) as err:
            team_create(event=event, name="Вист", members=members)
        assert err.value.extra == {"field": "members"}
    with pytest.raises(UserFacingError, match="already a team ферзь"):
        team_create(event=event, name="ферзь", members=entries[3:6])
    with pytest.raises(UserFacingError, match="must be a member"):
        team_create(event=event, name="Вист", members=entries[3:6], captain=entries[0])
    stranger = EntryFactory()
    with pytest.raises(UserFacingError, match="not a player of this event"):
        team_create(event=event, name="Вист", members=[*entries[3:5], stranger])
    with pytest.raises(UserFacingError, match="needs a name"):
        team_create(event=event, name=" ", members=entries[3:6])


def test_editing_a_team_keeps_who_has_played():
    event, (a, _b, _c) = team_event([4, 3, 3], table_size_policy="mixed")
    a_members = list(Entry.objects.filter(team_membership__team=a).order_by("pk"))
    extra = EntryFactory(event=event)  # 11 players: 3-4-4
    team_update(team=a, name="Мизер", members=[*a_members[:2], extra], captain=extra)
    a.refresh_from_db()
    assert a.name == "Мизер" and a.captain == extra
    assert set(Entry.objects.filter(team_membership__team=a)) == {*a_members[:2], extra}
    round_draw(round_=round_create(event=event))
    with pytest.raises(UserFacingError, match="has played for the team and stays in it"):
        team_update(team=a, members=[a_members[0], extra, a_members[3]])
    with pytest.raises(UserFacingError, match="A team's name has at most 120"):
        team_update(team=a, name="x" * 121)
    log = AuditLogEntry.objects.get(event=event, action="team.updated")
    assert log.data["before"]["name"] == "A" and log.data["after"]["captain"] == extra.pk


def test_six_teams_of_three_two_rounds_never_seat_teammates_together():
    event, _teams = team_event([3] * 6)
    for number in (1, 2):
        round_ = round_draw(round_=round_create(event=event))
        assert round_.number == number
        assert no_teammates_together(round_)
        record = draw_record(round_)
        assert record["input"]["teams"] == {str(k): v for k, v in sorted(team_of(event).items())}
        findings = verify(record, engine_version=record["engine"])
        assert all(f.ok for f in findings), findings
        assert any("no two members of one team at a table (6 teams)" in f.message for f in findings)
        meetings = round_.draw_report["team_meetings"]
        assert len(meetings) == 15  # every pair of the six teams
        assert sum(n for _a, _b, n in meetings) == 18 * number  # 3 pairs a table, 6 tables
        round_publish(round_=round_)


def test_draw_verify_finds_teammates_seated_together(tmp_path, capsys):
    event, _teams = team_event([3] * 3)
    round_ = round_draw(round_=round_create(event=event))
    record = draw_record(round_)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    call_command("draw_verify", record=str(path))
    assert "no two members of one team at a table (3 teams)" in capsys.readouterr().out
    teams = record["input"]["teams"]
    t1, t2 = record["tables"][0]["seats"], record["tables"][1]["seats"]
    # swap so that table 1 seats two of one team
    mate = next(x for x in t2 if teams[str(x)] == teams[str(t1[0])])
    i, j = t2.index(mate), 1
    t1[j], t2[i] = t2[i], t1[j]
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CommandError, match="verification failed"):
        call_command("draw_verify", record=str(path))
    out = capsys.readouterr().out
    assert "two members of one team at a table:" in out
    assert f"both of team {teams[str(t1[0])]}" in out


def test_line_ups_change_between_rounds_and_the_benched_are_not_seated():
    event, (a, b, _c, _d) = team_event([4, 4, 4, 3], table_size_policy="mixed")  # 14 play: 3-3-4-4
    a_members = list(Entry.objects.filter(team_membership__team=a).order_by("pk"))
    team_line_up_set(team=a, round_number=1, members=a_members[:3])
    round1 = round_draw(round_=round_create(event=event))
    seated = set().union(*tables_of(round1))
    assert a_members[3].pk not in seated and len(seated) == 14
    assert round1.draw_params["input"]["benched"] == [a_members[3].pk]
    assert no_teammates_together(round1)
    log = AuditLogEntry.objects.get(event=event, action="team.line_up_set")
    assert log.data == {"team": a.pk, "round": 1, "members": [e.pk for e in a_members[:3]]}
    round_publish(round_=round1)
    with pytest.raises(UserFacingError, match="Round 1 is published"):
        team_line_up_set(team=a, round_number=1, members=a_members[1:])
    team_line_up_set(team=a, round_number=2, members=a_members[1:])
    with pytest.raises(UserFacingError, match="not a member of team B"):
        team_line_up_set(team=b, round_number=2, members=a_members[:1])
    round2 = round_draw(round_=round_create(event=event))
    seated = set().union(*tables_of(round2))
    assert a_members[0].pk not in seated and a_members[3].pk in seated
    assert no_teammates_together(round2)


def test_a_team_with_more_players_than_tables_is_refused_with_the_reason():
    event, (a, _b, _c) = team_event([4, 3, 3], table_size_policy="mixed")  # 10: 3-3-4
    round_ = round_create(event=event)
    with pytest.raises(UserFacingError, match="Team A has 4 players to seat, but the round has 3"):
        round_draw(round_=round_)
    team_line_up_set(
        team=a, round_number=1, members=list(Entry.objects.filter(team_membership__team=a))[:3]
    )
    assert no_teammates_together(round_draw(round_=round_))


def test_a_member_withdrawn_mid_event_and_a_team_withdrawn():
    event, (a, b, c, d) = team_event([4, 3, 3, 3], table_size_policy="mixed")  # 13
    round1 = round_draw(round_=round_create(event=event))
    round_publish(round_=round1)
    leaving = Entry.objects.filter(team_membership__team=a).first()
    team_line_up_set(
        team=a, round_number=2, members=list(Entry.objects.filter(team_membership__team=a))
    )
    team_member_withdraw(team=a, entry=leaving, reason="ill")
    leaving.refresh_from_db()
    assert leaving.status == Entry.Status.WITHDRAWN
    with pytest.raises(UserFacingError, match="withdrawn already"):
        team_member_withdraw(team=a, entry=leaving)
    with pytest.raises(UserFacingError, match="not a member of team B"):
        team_member_withdraw(team=b, entry=Entry.objects.filter(team_membership__team=a).last())
    round2 = round_draw(round_=round_create(event=event))
    seated = set().union(*tables_of(round2))
    assert leaving.pk not in seated and len(seated) == 12
    assert no_teammates_together(round2)
    round_publish(round_=round2)
    team_withdraw(team=d, reason="left")
    assert (
        not Entry.objects.filter(team_membership__team=d)
        .exclude(status=Entry.Status.WITHDRAWN)
        .exists()
    )
    with pytest.raises(UserFacingError, match="Team D has withdrawn already"):
        team_withdraw(team=d)
    with pytest.raises(UserFacingError, match="Team D has withdrawn"):
        team_line_up_set(team=d, round_number=3, members=[])
    round3 = round_draw(round_=round_create(event=event))
    assert len(set().union(*tables_of(round3))) == 9
    assert no_teammates_together(round3)
    assert set(
        AuditLogEntry.objects.filter(event=event, action__startswith="team.").values_list(
            "action", flat=True
        )
    ) >= {"team.created", "team.line_up_set", "team.member_withdrawn", "team.withdrawn"}


def test_csv_import_with_a_team_column():
    event = EventFactory()
    text = "name;club;team\n" + "\n".join(
        f"Player {i};Club;{team}" for i, team in enumerate(["Север"] * 3 + ["Юг"] * 4 + [""] * 2)
    )
    result = entries_import_csv(event=event, text=text)
    assert len(result.entries) == 9
    teams = {t.name: t.members.count() for t in Team.objects.filter(event=event)}
    assert teams == {"Север": 3, "Юг": 4}
    assert Team.objects.get(name="Юг").captain.player.name == "Player 3"
    # more members for a team already made; a team the file would leave too small or too big
    text = "name,команда\nPlayer 20,юг\nPlayer 21,Запад\nPlayer 22,Запад\n"
    with pytest.raises(CsvImportError) as err:
        entries_import_csv(event=event, text=text)
    said = [str(e) for e in err.value.errors]
    assert said == ["line 4, Team: team Запад would have 2 members; a team has 3 to 5"]
    assert Entry.objects.filter(event=event).count() == 9  # nothing imported
    entries_import_csv(event=event, text="name,team\nPlayer 20,юг\n")
    assert Team.objects.get(name="Юг").members.count() == 5
    with pytest.raises(CsvImportError, match="") as err:
        entries_import_csv(event=event, text="name,team\nPlayer 30,Юг\n")
    assert "team Юг would have 6 members" in str(err.value.errors[0])


def test_team_rules_are_checked():
    event = EventFactory()
    rules = team_rules_set(event=event, scoring_members=2, counts="places")
    assert (rules.scoring_members, rules.counts) == (2, "places")
    with pytest.raises(UserFacingError, match="from 1 to 5") as err:
        team_rules_set(event=event, scoring_members=6)
    assert err.value.extra == {"field": "scoring_members"}
    with pytest.raises(UserFacingError, match="sum of the members"):
        team_rules_set(event=event, scoring_members=3, counts="goals")
