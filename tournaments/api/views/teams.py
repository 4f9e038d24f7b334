"""A team event's team standings (issue 40): ``GET /api/v1/events/<slug>/team-standings``."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.permissions import EventVisible, event_from
from tournaments.api.schema import NOT_FOUND, PUBLIC_AUTH, VISIBLE_ONLY
from tournaments.selectors.teams import team_standings_view

__all__ = ["TeamStandingsApi"]


class _MemberOutput(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    captain = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


class _TeamRoundOutput(serializers.Serializer):
    score = serializers.FloatField()
    counted = serializers.ListField(
        child=serializers.IntegerField(), help_text="The members whose results counted."
    )
    played = serializers.ListField(child=serializers.IntegerField())
    final = serializers.BooleanField(help_text="False while a result of the round is provisional.")


@extend_schema_serializer(component_name="TeamStandingsRow")
class _TeamRowOutput(serializers.Serializer):
    team = serializers.CharField()
    place = serializers.IntegerField()
    place_label = serializers.CharField()
    shared = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    members = _MemberOutput(many=True)
    total = serializers.FloatField(help_text="Approved results only.")
    provisional_total = serializers.FloatField(help_text="With the rounds still open.")
    has_provisional = serializers.BooleanField()
    rounds = serializers.DictField(child=_TeamRoundOutput(), help_text="By round number.")
    best_member = serializers.IntegerField(allow_null=True)
    best_place = serializers.IntegerField(allow_null=True)
    head_to_head = serializers.FloatField(
        allow_null=True, help_text="Against the teams tied with it; null when not tied."
    )
    decided_by = serializers.CharField(
        allow_null=True, help_text='"total", "best_member", "head_to_head" or null (shared).'
    )


@extend_schema_serializer(component_name="TeamStandings")
class _TeamStandingsOutput(serializers.Serializer):
    version = serializers.IntegerField()
    scoring_members = serializers.IntegerField()
    counts = serializers.ChoiceField(choices=["results", "places"])
    rounds = serializers.ListField(child=serializers.IntegerField())
    rows = _TeamRowOutput(many=True)


class TeamStandingsApi(APIView):
    """The team standings, from the individual standings as last computed."""

    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="team_standings_retrieve",
        tags=["standings"],
        summary="A team event's team standings",
        description=(
            "Each round, the sum of the best ``scoring_members`` members' round results (or "
            "place points, ``counts``); ties by the best member's individual place, then head "
            "to head. Computed from the individual standings as last computed (see "
            "``standings``), provisional totals beside the counted ones while a round is open. "
            "A 404 for an event without teams."
        ),
        auth=PUBLIC_AUTH,
        responses={200: _TeamStandingsOutput, 403: VISIBLE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug: str):
        view = team_standings_view(event=event_from(self))
        if view is None:
            raise Http404
        return Response(_TeamStandingsOutput(view).data)
