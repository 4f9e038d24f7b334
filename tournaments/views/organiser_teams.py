"""A team event's organiser page (issue 40): ``/e/<slug>/manage/teams/`` — the team rules, the
teams with their members and line-ups, a new team, a captain's line-up for a round, the
withdrawal of a member or a team. Thin: every write is a service of
:mod:`tournaments.services.teams`."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments.access import permissions
from tournaments.forms.teams import LineUpForm, TeamForm, TeamRulesForm
from tournaments.models import Entry, Round, Team, TeamRules
from tournaments.selectors.teams import event_teams
from tournaments.services import teams as team_services
from tournaments.views.decorators import event_view, posted_id, run_form_service, run_service

__all__ = ["teams"]


def _choices(event) -> list[tuple[int, str]]:
    """The players who can join a team: playing, in no team yet."""
    return [
        (e.pk, e.player.name)
        for e in Entry.objects.filter(event=event, team_membership__isnull=True)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("player")
        .order_by("player__name")
    ]


def _next_round(event) -> int:
    """The first round not drawn yet: a line-up is entered before its draw."""
    drawn = (
        event.rounds.exclude(state=Round.State.DRAFT)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return (drawn or 0) + 1


@event_view(roles=permissions.REFEREE)
def teams(request, event):
    rules = TeamRules.objects.filter(event=event).first()
    rules_form = TeamRulesForm(
        initial={"scoring_members": rules.scoring_members, "counts": rules.counts}
        if rules
        else None
    )
    team_form = TeamForm()
    line_up_form = LineUpForm(initial={"round": _next_round(event)})
    if request.method == "POST":
        if not permissions.can_organise(request.user, event):
            raise PermissionDenied
        action = request.POST.get("action")
        done = False
        if action == "rules":
            rules_form = TeamRulesForm(request.POST)
            if rules_form.is_valid():
                _result, error = run_form_service(
                    request,
                    rules_form,
                    team_services.team_rules_set,
                    event=event,
                    by=request.user,
                    success=_("The team rules are saved."),
                    **rules_form.cleaned_data,
                )
                done = not error
        elif action == "team-add":
            team_form = TeamForm(request.POST)
            _set(team_form, _choices(event))
            if team_form.is_valid():
                data = team_form.cleaned_data
                members = list(
                    event.entries.filter(pk__in=data["members"]).select_related("player")
                )
                members.sort(key=lambda e: data["members"].index(e.pk))
                captain = next((e for e in members if e.pk == data["captain"]), None)
                _result, error = run_form_service(
                    request,
                    team_form,
                    team_services.team_create,
                    event=event,
                    name=data["name"],
                    members=members,
                    captain=captain,
                    by=request.user,
                    success=_("The team is registered."),
                )
                done = not error
        elif action == "line-up":
            team = get_object_or_404(Team, event=event, pk=posted_id(request.POST.get("team")))
            line_up_form = LineUpForm(request.POST)
            _set(line_up_form, [(m["entry"], m["name"]) for m in _members(event, team)])
            if line_up_form.is_valid():
                data = line_up_form.cleaned_data
                _result, error = run_form_service(
                    request,
                    line_up_form,
                    team_services.team_line_up_set,
                    team=team,
                    round_number=data["round"],
                    members=list(event.entries.filter(pk__in=data["members"])),
                    by=request.user,
                    success=_("The line-up is saved."),
                )
                done = not error
        elif action == "member-withdraw":
            team = get_object_or_404(Team, event=event, pk=posted_id(request.POST.get("team")))
            entry = get_object_or_404(event.entries, pk=posted_id(request.POST.get("entry")))
            run_service(
                request,
                team_services.team_member_withdraw,
                team=team,
                entry=entry,
                reason=request.POST.get("reason", ""),
                by=request.user,
                success=_("The member has withdrawn."),
            )
            done = True
        elif action == "team-withdraw":
            team = get_object_or_404(Team, event=event, pk=posted_id(request.POST.get("team")))
            run_service(
                request,
                team_services.team_withdraw,
                team=team,
                reason=request.POST.get("reason", ""),
                by=request.user,
                success=_("The team has withdrawn."),
            )
            done = True
        else:
            raise PermissionDenied
        if done:
            return redirect("manage-teams", slug=event.slug)
    _set(team_form, _choices(event))
    listed = event_teams(event=event)
    for team in listed:
        team["line_up_choices"] = [m for m in team["members"] if not m["withdrawn"]]
    return render(
        request,
        "tournaments/organiser/teams.html",
        {
            "event": event,
            "rules": rules,
            "teams": listed,
            "rules_form": rules_form,
            "team_form": team_form,
            "line_up_round": line_up_form["round"].value(),
            "can_organise": permissions.can_organise(request.user, event),
        },
    )


def _members(event, team: Team) -> list[dict]:
    return next(t["members"] for t in event_teams(event=event) if t["id"] == team.pk)


def _set(form, choices) -> None:
    form.fields["members"].choices = choices
    if "captain" in form.fields:
        form.fields["captain"].choices = [("", "—"), *choices]
