"""API: what a round's draw says about itself, the report (whom each player met, the repeats
and why) and the record (the inputs that re-run it). One class per operation (HackSoft).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.permissions import EventReferee, EventVisible, event_from
from tournaments.api.schema import (
    PUBLIC_AUTH,
    REFEREE_ONLY,
    VISIBLE_ONLY,
    error,
)
from tournaments.api.views.rounds import _visible_rounds
from tournaments.models import Round
from tournaments.services.draw_record import draw_record


@extend_schema_serializer(component_name="DrawReportPlayer")
class _DrawReportPlayerOutput(serializers.Serializer):
    """One player in the draw report: whom they met before and why their table is what it is."""

    id = serializers.IntegerField(help_text="The entry id.")
    table = serializers.IntegerField(help_text="The table they were drawn to.")
    seat = serializers.IntegerField(help_text="Their seat index at it (clockwise, from 0).")
    met_before = serializers.JSONField(
        help_text="``[[entry id, [rounds]], …]``: everyone they had met, and in which rounds."
    )
    repeats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Entry ids at this table they met before."
    )
    why = serializers.CharField(
        help_text=(
            "Why those repeats (or the constraints that placed them), in the engine's English "
            "(``tournaments/seating/report.py``); the round's page puts it into words."
        )
    )
    seat_counts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Times in each seat so far, this round included.",
    )
    first_dealer_count = serializers.IntegerField()
    four_table_count = serializers.IntegerField(help_text="Rounds at a table of four so far.")
    left_neighbours = serializers.ListField(child=serializers.IntegerField())


@extend_schema_serializer(component_name="DrawReport")
class _DrawReportOutput(serializers.Serializer):
    """The engine's report on a round's draw (as stored with it)."""

    summary = serializers.JSONField(
        help_text='``{"repeated meetings", "repeated left neighbours", "method", "engine"}``.'
    )
    notes = serializers.ListField(
        child=serializers.CharField(), help_text="How the tables were made (the engine's words)."
    )
    players = _DrawReportPlayerOutput(many=True)


class DrawReportApi(APIView):
    permission_classes = [EventReferee]

    @extend_schema(
        operation_id="rounds_draw_report",
        tags=["rounds"],
        summary="A round's draw report: whom each player met before, and why",
        description=(
            "The event's referees, once the round is drawn: what the round's page shows as "
            "the draw report, as data (entry ids; the engine's English), so that a referee can "
            'answer "why am I with him again?". The report is of the draw; corrections after '
            "it are in the draw record."
        ),
        responses={
            200: _DrawReportOutput,
            403: REFEREE_ONLY,
            404: error("No event with this slug, no such round, or a round not drawn."),
        },
    )
    def get(self, request, slug, number):
        round_ = get_object_or_404(event_from(self).rounds, number=number)
        if round_.state == Round.State.DRAFT or not round_.draw_report:
            raise NotFound(_NOT_DRAWN)
        return Response(round_.draw_report)


@extend_schema_serializer(component_name="DrawRecord")
class _DrawRecordOutput(serializers.Serializer):
    """Everything needed to re-run a round's draw (``tournaments/services/draw_record.py``)."""

    format = serializers.CharField(help_text='Always "pulka-draw-record".')
    version = serializers.IntegerField(help_text="1.")
    event = serializers.CharField(help_text="The event's slug.")
    round = serializers.IntegerField()
    engine = serializers.CharField(help_text='The engine that drew it, e.g. "pulka-seating 1.11".')
    seed = serializers.CharField()
    seed_sha256 = serializers.CharField(help_text="SHA-256 (hex) of the seed.")
    seed_published_at = serializers.DateTimeField(
        allow_null=True, help_text="When the hash was published; null: only with the draw."
    )
    drawn_at = serializers.DateTimeField(allow_null=True)
    input = serializers.JSONField(
        help_text=(
            "The engine's input: entries (id, rating, club), history (earlier rounds' tables), "
            "fixed_tables, avoid (pairs kept apart), standings, method, policy, round, "
            "rounds_planned, not_checked_in, sitting_out and remainder (players beyond a "
            "multiple of four: the choice, and for a round some sat out the earlier rounds out "
            "it counted, rounds_out, and fixed; docs/draw-record.md)."
        )
    )
    tables = serializers.JSONField(
        help_text='The tables as drawn: ``[{"seats": [entry ids clockwise], "first_dealer": seat}]``.'
    )
    corrections = serializers.JSONField(
        help_text=(
            'The referees\' corrections after the draw, oldest first: ``[{"at", "action", '
            '"reason", "data"}]`` (docs/draw-record.md); not part of the draw.'
        )
    )
    entry_ids = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text=(
            "Only for a round imported from another server's archive, whose draw keeps the ids "
            "it ran with: the record's entry id (as text) → this event's entry id. Absent when "
            "the round was drawn here (the ids are this event's)."
        ),
    )


class DrawRecordApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="rounds_draw_record",
        tags=["rounds"],
        summary="A round's draw record, to re-run its draw",
        description=(
            "Public once the round is published (referees: once it is drawn). Format "
            "``pulka-draw-record``, version 1 (docs/draw-record.md): the engine's input as "
            "stored with the draw, the seed, its SHA-256 and when that was published, the "
            "engine's version and the tables as drawn (corrections after the draw are not in "
            "it). ``manage.py draw_verify --record FILE`` re-runs the draw from it and "
            "compares."
        ),
        auth=PUBLIC_AUTH,
        responses={
            200: _DrawRecordOutput,
            403: VISIBLE_ONLY,
            404: error(
                "No event with this slug, no such round, a round not public yet, or a round not "
                "drawn."
            ),
        },
    )
    def get(self, request, slug, number):
        round_ = get_object_or_404(_visible_rounds(request, event_from(self)), number=number)
        if round_.state == Round.State.DRAFT or not round_.draw_seed:
            raise NotFound(_NOT_DRAWN)
        return Response(draw_record(round_))


_NOT_DRAWN = "This round has not been drawn."
