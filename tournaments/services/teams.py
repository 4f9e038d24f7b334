"""Teams in an event (issue 40): registration, editing, line-ups, withdrawal, what the draw
seats.

A team has a name, a captain and three to five members (``models.team``); each round the
members who play are its captain's line-up, entered before the round's draw, or by default
every member still playing. Every write here is one transaction, refuses bad input with a
:class:`UserFacingError` naming the field and the rule, and is recorded in the event's log.
The draw asks :func:`teams_for_draw` who plays and their teams; the seating engine never
seats two members of one team at a table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.errors import UserFacingError
from tournaments.models import Entry, Event, Round, Seat, Team, TeamLineUp, TeamMember, TeamRules
from tournaments.models.team import TEAM_MAX, TEAM_MIN
from tournaments.services.audit import audit_log
from tournaments.web_cache import versions as page_cache

__all__ = [
    "team_create",
    "team_import_problems",
    "team_line_up_set",
    "team_member_withdraw",
    "team_rules_set",
    "team_update",
    "team_withdraw",
    "teams_for_draw",
    "teams_from_import",
]

NAME_MAX = 120


def team_rules_set(
    *, event: Event, scoring_members: int, counts: str = TeamRules.Counts.RESULTS, by=None
) -> TeamRules:
    """Make ``event`` a team event, or change how its team standings count: the results of
    ``scoring_members`` members each round (1–5), as round results or place points."""
    if not 1 <= scoring_members <= TEAM_MAX:
        raise UserFacingError.said(
            gettext_noop(
                "Members who score per round: from 1 to %(max)d (a team has at most %(max)d)."
            ),
            {"max": TEAM_MAX},
            {"field": "scoring_members"},
        )
    if counts not in TeamRules.Counts.values:
        raise UserFacingError(
            _("The team's score is the sum of the members' round results or place points."),
            {"field": "counts"},
        )
    with transaction.atomic():
        rules, _created = TeamRules.objects.update_or_create(
            event=event, defaults={"scoring_members": scoring_members, "counts": counts}
        )
        page_cache.changed(event_id=event.pk)
        audit_log(
            event=event,
            action="teams.rules_set",
            by=by,
            data={"scoring_members": scoring_members, "counts": counts},
        )
    return rules


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise UserFacingError(_("A team needs a name."), {"field": "name"})
    if len(name) > NAME_MAX:
        raise UserFacingError.said(
            gettext_noop("A team's name has at most %(max)d characters."),
            {"max": NAME_MAX},
            {"field": "name"},
        )
    return name


def _name_free(event: Event, name: str, *, other_than: Team | None = None) -> None:
    taken = Team.objects.filter(event=event, name__iexact=name)
    if other_than is not None:
        taken = taken.exclude(pk=other_than.pk)
    if taken.exists():
        raise UserFacingError.said(
            gettext_noop("There is already a team %(name)s in this event."),
            {"name": name},
            {"field": "name"},
        )


def _check_members(event: Event, entries: Sequence[Entry]) -> None:
    """Three to five entries of ``event``, each once, none withdrawn, none in another team."""
    if len({e.pk for e in entries}) != len(entries):
        raise UserFacingError(_("A player is named twice in the team."), {"field": "members"})
    if not TEAM_MIN <= len(entries) <= TEAM_MAX:
        raise UserFacingError.said(
            gettext_noop("A team has %(min)d to %(max)d members, not %(n)d."),
            {"min": TEAM_MIN, "max": TEAM_MAX, "n": len(entries)},
            {"field": "members"},
        )
    _check_joining(event, entries, None)


def _captain_of(entries: Sequence[Entry], captain: Entry | None) -> Entry:
    if captain is None:
        return entries[0]
    if captain.pk not in {e.pk for e in entries}:
        raise UserFacingError.said(
            gettext_noop("The captain, %(name)s, must be a member of the team."),
            {"name": captain.player.name},
            {"field": "captain"},
        )
    return captain


@transaction.atomic
def team_create(
    *, event: Event, name: str, members: Sequence[Entry], captain: Entry | None = None, by=None
) -> Team:
    """Register a team of three to five of the event's entries; the captain is one of them
    (by default the first). The event becomes a team event (its :class:`TeamRules` made with
    the defaults: three members score per round) if it was not."""
    name = _clean_name(name)
    _name_free(event, name)
    members = list(members)
    _check_members(event, members)
    captain = _captain_of(members, captain)
    TeamRules.objects.get_or_create(event=event)
    team = Team.objects.create(event=event, name=name, captain=captain)
    TeamMember.objects.bulk_create(TeamMember(team=team, entry=e) for e in members)
    page_cache.changed(event_id=event.pk)
    audit_log(
        event=event,
        action="team.created",
        by=by,
        data={
            "team": team.pk,
            "name": name,
            "members": [e.pk for e in members],
            "captain": captain.pk,
        },
    )
    return team


def _has_played(entry_ids: Iterable[int]) -> set[int]:
    return set(Seat.objects.filter(entry_id__in=list(entry_ids)).values_list("entry_id", flat=True))


def _member_ids(team: Team) -> list[int]:
    return sorted(TeamMember.objects.filter(team=team).values_list("entry_id", flat=True))


@transaction.atomic
def team_update(
    *,
    team: Team,
    name: str | None = None,
    members: Sequence[Entry] | None = None,
    captain: Entry | None = None,
    by=None,
) -> Team:
    """Rename a team, change its captain, or change its members (three to five). A member who
    has sat at a table stays: their rounds count for the team (withdraw them instead)."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    event = team.event
    before = {"name": team.name, "captain": team.captain_id, "members": _member_ids(team)}
    if name is not None:
        name = _clean_name(name)
        _name_free(event, name, other_than=team)
        team.name = name
    current = list(Entry.objects.filter(team_membership__team=team).select_related("player"))
    if members is not None:
        members = list(members)
        kept = {e.pk for e in members}
        leaving = [e for e in current if e.pk not in kept]
        played = _has_played(e.pk for e in leaving)
        for e in leaving:
            if e.pk in played:
                raise UserFacingError.said(
                    gettext_noop(
                        "%(name)s has played for the team and stays in it; withdraw them instead."
                    ),
                    {"name": e.player.name},
                    {"field": "members"},
                )
        joining = [e for e in members if e.pk not in before["members"]]
        if len(kept) != len(members):
            raise UserFacingError(_("A player is named twice in the team."), {"field": "members"})
        if not TEAM_MIN <= len(members) <= TEAM_MAX:
            raise UserFacingError.said(
                gettext_noop("A team has %(min)d to %(max)d members, not %(n)d."),
                {"min": TEAM_MIN, "max": TEAM_MAX, "n": len(members)},
                {"field": "members"},
            )
        if joining:
            _check_joining(event, joining, team)
        TeamMember.objects.filter(team=team, entry__in=leaving).delete()
        TeamMember.objects.bulk_create(TeamMember(team=team, entry=e) for e in joining)
        current = members
    if captain is not None or team.captain_id not in {e.pk for e in current}:
        team.captain = _captain_of(current, captain)
    team.save()
    after = {"name": team.name, "captain": team.captain_id, "members": _member_ids(team)}
    page_cache.changed(event_id=event.pk)
    audit_log(
        event=event,
        action="team.updated",
        by=by,
        data={"team": team.pk, "before": before, "after": after},
    )
    return team


def _check_joining(event: Event, entries: Sequence[Entry], team: Team | None) -> None:
    """Entries joining a team: of the event, not withdrawn, in no other team."""
    for entry in entries:
        if entry.event_id != event.pk:
            raise UserFacingError.said(
                gettext_noop("%(name)s is not a player of this event."),
                {"name": entry.player.name},
                {"field": "members"},
            )
        if entry.status == Entry.Status.WITHDRAWN:
            raise UserFacingError.said(
                gettext_noop("%(name)s has withdrawn from the event."),
                {"name": entry.player.name},
                {"field": "members"},
            )
    elsewhere = TeamMember.objects.filter(entry__in=entries).select_related("team", "entry__player")
    if team is not None:
        elsewhere = elsewhere.exclude(team=team)
    first = elsewhere.first()
    if first is not None:
        raise UserFacingError.said(
            gettext_noop("%(name)s is already in team %(team)s."),
            {"name": first.entry.player.name, "team": first.team.name},
            {"field": "members"},
        )


def _not_a_member(entry: Entry, team: Team, field: str) -> UserFacingError:
    return UserFacingError.said(
        gettext_noop("%(name)s is not a member of team %(team)s."),
        {"name": entry.player.name, "team": team.name},
        {"field": field},
    )


def _withdraw_entry(entry: Entry, *, reason: str, by) -> None:
    """As ``entries.entry_withdraw`` (not drawn again; past rounds keep it), logged the same."""
    entry.status = Entry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    audit_log(
        event=entry.event, action="entry.withdrawn", by=by, reason=reason, data={"entry": entry.pk}
    )


@transaction.atomic
def team_member_withdraw(*, team: Team, entry: Entry, reason: str = "", by=None) -> Entry:
    """Withdraw a member between rounds: not drawn again, out of the line-ups of rounds not
    drawn yet; the rounds played count for the team, which plays on with the others."""
    if not TeamMember.objects.filter(team=team, entry=entry).exists():
        raise _not_a_member(entry, team, "entry")
    if entry.status == Entry.Status.WITHDRAWN:
        raise UserFacingError.said(
            gettext_noop("%(name)s has withdrawn already."),
            {"name": entry.player.name},
            {"field": "entry"},
        )
    _withdraw_entry(entry, reason=reason, by=by)
    for line_up in TeamLineUp.objects.filter(
        team=team, round_number__in=_undrawn_numbers(team.event, team)
    ):
        line_up.entries.remove(entry)
    page_cache.changed(event_id=team.event_id)
    audit_log(
        event=team.event,
        action="team.member_withdrawn",
        by=by,
        reason=reason,
        data={"team": team.pk, "entry": entry.pk},
    )
    return entry


@transaction.atomic
def team_withdraw(*, team: Team, reason: str = "", by=None) -> Team:
    """Withdraw a whole team between rounds: its members are not drawn again; the rounds
    played stay in the standings."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    if team.withdrawn:
        raise UserFacingError.said(
            gettext_noop("Team %(team)s has withdrawn already."),
            {"team": team.name},
            {"field": "team"},
        )
    team.withdrawn = True
    team.save(update_fields=["withdrawn"])
    for entry in Entry.objects.filter(team_membership__team=team).exclude(
        status=Entry.Status.WITHDRAWN
    ):
        _withdraw_entry(entry, reason=reason, by=by)
    page_cache.changed(event_id=team.event_id)
    audit_log(
        event=team.event, action="team.withdrawn", by=by, reason=reason, data={"team": team.pk}
    )
    return team


def _undrawn_numbers(event: Event, team: Team) -> list[int]:
    """Numbers of the rounds a line-up of ``team`` names that are not drawn yet."""
    numbers = set(TeamLineUp.objects.filter(team=team).values_list("round_number", flat=True))
    drawn = set(
        Round.objects.filter(event=event, number__in=numbers)
        .exclude(state=Round.State.DRAFT)
        .values_list("number", flat=True)
    )
    return sorted(numbers - drawn)


@transaction.atomic
def team_line_up_set(
    *, team: Team, round_number: int, members: Sequence[Entry], by=None
) -> TeamLineUp:
    """The captain's line-up for a round: the members who play it, entered before its draw
    (a round drawn already is refused; drawing it again takes the new line-up). At least
    one member, each a member still playing; recorded in the event's log."""
    team = Team.objects.select_for_update().select_related("event").get(pk=team.pk)
    event = team.event
    if team.withdrawn:
        raise UserFacingError.said(
            gettext_noop("Team %(team)s has withdrawn."), {"team": team.name}, {"field": "team"}
        )
    if round_number < 1:
        raise UserFacingError(_("A round's number is 1 or more."), {"field": "round"})
    round_ = Round.objects.filter(event=event, number=round_number).first()
    if round_ is not None and round_.state not in (Round.State.DRAFT, Round.State.DRAWN):
        raise UserFacingError.said(
            gettext_noop("Round %(n)d is published: a line-up is entered before the round's draw."),
            {"n": round_number},
            {"field": "round"},
        )
    members = list(members)
    if not members:
        raise UserFacingError(_("A line-up names at least one member."), {"field": "members"})
    ids = set(TeamMember.objects.filter(team=team).values_list("entry_id", flat=True))
    for entry in members:
        if entry.pk not in ids:
            raise _not_a_member(entry, team, "members")
        if entry.status == Entry.Status.WITHDRAWN:
            raise UserFacingError.said(
                gettext_noop("%(name)s has withdrawn from the event."),
                {"name": entry.player.name},
                {"field": "members"},
            )
    line_up, _created = TeamLineUp.objects.get_or_create(team=team, round_number=round_number)
    line_up.entries.set(members)
    line_up.save()
    page_cache.changed(event_id=event.pk)
    audit_log(
        event=event,
        action="team.line_up_set",
        by=by,
        data={"team": team.pk, "round": round_number, "members": sorted(e.pk for e in members)},
    )
    return line_up


def teams_for_draw(event: Event, round_number: int, entry_ids: Iterable[int]) -> dict[str, Any]:
    """Who of ``entry_ids`` (the entries the draw would seat) plays round ``round_number`` in a
    team event, and their teams: ``{"teams": {entry: team name}, "benched": [entries]}`` —
    members left out of their captain's line-up for the round are benched (not seated).
    Entries in no team play as they are. Empty for an event without teams."""
    ids = set(entry_ids)
    members = list(
        TeamMember.objects.filter(team__event=event, entry_id__in=ids).values_list(
            "entry_id", "team_id", "team__name"
        )
    )
    if not members:
        return {}
    line_ups: dict[int, set[int]] = {}
    for team_id, entry_id in TeamLineUp.objects.filter(
        team__event=event, round_number=round_number
    ).values_list("team_id", "entries"):
        line_ups.setdefault(team_id, set())
        if entry_id is not None:
            line_ups[team_id].add(entry_id)
    teams, benched = {}, []
    for entry_id, team_id, name in members:
        if team_id in line_ups and entry_id not in line_ups[team_id]:
            benched.append(entry_id)
        else:
            teams[entry_id] = name
    return {"teams": teams, "benched": sorted(benched)}


def team_import_problems(
    event: Event, lines: Sequence[tuple[int, str]], entered: int = 0
) -> list[tuple[int, str]]:
    """What is wrong with the team column of a CSV import (``lines``: line number, team name,
    "" for none): (line, message) for a team the import would leave with more than five
    members or fewer than three, counting the members it has already."""
    problems = []
    named: dict[str, list[int]] = {}
    shown: dict[str, str] = {}
    for line, name in lines:
        name = " ".join(name.split())
        if not name:
            continue
        if len(name) > NAME_MAX:
            problems.append(
                (line, _("a team's name has at most %(max)d characters") % {"max": NAME_MAX})
            )
            continue
        named.setdefault(name.casefold(), []).append(line)
        shown.setdefault(name.casefold(), name)
    existing = {
        t.name.casefold(): t.members.count()
        for t in Team.objects.filter(event=event).prefetch_related("members")
    }
    for key, at in named.items():
        total = existing.get(key, 0) + len(at)
        if not TEAM_MIN <= total <= TEAM_MAX:
            problems.append(
                (
                    at[-1],
                    _("team %(team)s would have %(n)d members; a team has %(min)d to %(max)d")
                    % {"team": shown[key], "n": total, "min": TEAM_MIN, "max": TEAM_MAX},
                )
            )
    return problems


def teams_from_import(event: Event, rows: Sequence[tuple[Entry, str]], *, by=None) -> list[Team]:
    """After a CSV import checked by :func:`team_import_problems`: each entry with a team name
    joins the team of that name (made, its first member its captain, when new)."""
    by_name: dict[str, list[Entry]] = {}
    shown: dict[str, str] = {}
    for entry, name in rows:
        name = " ".join(name.split())
        if name:
            by_name.setdefault(name.casefold(), []).append(entry)
            shown.setdefault(name.casefold(), name)
    teams = []
    for key, entries in by_name.items():
        team = Team.objects.filter(event=event, name__iexact=shown[key]).first()
        if team is None:
            teams.append(team_create(event=event, name=shown[key], members=entries, by=by))
            continue
        team_update(
            team=team,
            members=[*Entry.objects.filter(team_membership__team=team), *entries],
            by=by,
        )
        teams.append(team)
    return teams
