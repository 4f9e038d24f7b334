"""A duplicate event (issue 43, docs/duplicate.md): ``GET /api/v1/events/<slug>/duplicate``
(the option, the seed's commitment and the standings) and
``GET /api/v1/events/<slug>/duplicate/boards/<n>`` (a board's traveller; its hand record once
its round is closed). Read-only; the tables and referees enter results on their pages."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.permissions import EventVisible, event_from
from tournaments.api.schema import NOT_FOUND, PUBLIC_AUTH, VISIBLE_ONLY
from tournaments.models import Board, Round
from tournaments.selectors import duplicate as sel

__all__ = ["DuplicateApi", "DuplicateBoardApi"]


class _StandingOutput(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.IntegerField()
    total = serializers.CharField(help_text="Exact, as a fraction's text (\"17/2\").")
    boards = serializers.IntegerField()
    tops = serializers.IntegerField()
    values = serializers.CharField(help_text="The sum of the player's own deal values, exact.")
    percent = serializers.FloatField(allow_null=True, help_text="Matchpoints only.")


@extend_schema_serializer(component_name="Duplicate")
class _DuplicateOutput(serializers.Serializer):
    method = serializers.ChoiceField(choices=["matchpoints", "average"])
    boards_per_set = serializers.IntegerField()
    stanzas = serializers.IntegerField(allow_null=True, help_text="null: every table of the round.")
    boards = serializers.IntegerField()
    source = serializers.CharField(help_text='"seed", "file" or "" (not prepared).')
    algorithm = serializers.CharField(help_text="The dealing algorithm of a seed.")
    seed_sha256 = serializers.CharField()
    seed_published_at = serializers.DateTimeField(allow_null=True)
    seed = serializers.CharField(help_text="Revealed once every planned round is closed, else \"\".")
    standings = _StandingOutput(many=True)


class _SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    value = serializers.CharField(allow_null=True)
    score = serializers.CharField(allow_null=True)


class _TableOutput(serializers.Serializer):
    table = serializers.IntegerField()
    deal = serializers.CharField(allow_null=True, help_text="The family's notation of the deal.")
    entered_by = serializers.CharField(allow_null=True)
    findings = serializers.ListField(child=serializers.CharField())
    seats = _SeatOutput(many=True)


@extend_schema_serializer(component_name="DuplicateBoard")
class _BoardOutput(serializers.Serializer):
    number = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    dealer = serializers.IntegerField(help_text="The dealer's seat, 1–3.")
    cards = serializers.CharField(
        allow_null=True,
        help_text="The 32 cards in PPN's code (seat 1, 2, 3, the talon), once the round is closed.",
    )
    tables = _TableOutput(many=True)


def _answer(request, data) -> Response | HttpResponse:
    """JSON rendered here (as the standings API's), so that the page cache can store an
    anonymous client's answer (``views.caching``); the browsable API is rendered by DRF."""
    if request.accepted_renderer.format != "json":
        return Response(data)
    return HttpResponse(JSONRenderer().render(data), content_type="application/json")


def _duplicate(view):
    event = event_from(view)
    dup = sel.duplicate_of(event)
    if dup is None:
        raise Http404
    return event, dup


class DuplicateApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="duplicate_retrieve",
        tags=["standings"],
        summary="A duplicate event: its option, the seed's commitment and the standings",
        description="A 404 for an event that is not a duplicate event (docs/duplicate.md).",
        auth=PUBLIC_AUTH,
        responses={200: _DuplicateOutput, 403: VISIBLE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug: str):
        event, dup = _duplicate(self)
        table, entries = sel.duplicate_standings(event)
        return _answer(
            request,
            _DuplicateOutput(
                {
                    "method": dup.method,
                    "boards_per_set": dup.boards_per_set,
                    "stanzas": dup.stanzas,
                    "boards": Board.objects.filter(event=event).count(),
                    "source": dup.source,
                    "algorithm": "pulka-duplicate-1",
                    "seed_sha256": dup.seed_hash,
                    "seed_published_at": dup.seed_committed_at,
                    "seed": sel.seed_revealed(event, dup),
                    "standings": [
                        {
                            "entry": s.player,
                            "name": entries[s.player].player.name,
                            "place": s.place,
                            "total": str(s.total),
                            "boards": s.boards,
                            "tops": s.tops,
                            "values": str(s.values),
                            "percent": None if s.percent is None else float(s.percent * 100),
                        }
                        for s in table
                    ],
                }
            ).data
        )


class DuplicateBoardApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="duplicate_board_retrieve",
        tags=["standings"],
        summary="A duplicate board's traveller",
        description=(
            "Every table's result on the board with each seat's value and comparison score "
            "(exact fractions' text); the cards once the board's round is closed."
        ),
        auth=PUBLIC_AUTH,
        responses={200: _BoardOutput, 403: VISIBLE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug: str, number: int):
        event, _dup = _duplicate(self)
        board = get_object_or_404(Board, event=event, number=number)
        round_number = sel.board_round(event, number)
        closed = Round.objects.filter(
            event=event, number=round_number, state=Round.State.CLOSED
        ).exists()
        tables = []
        for r in sel.traveller(board):
            tables.append(
                {
                    "table": r.table.number,
                    "deal": r.result.deal_text if r.result else None,
                    "entered_by": r.result.entered_by if r.result else None,
                    "findings": [f.get("code", "") for f in r.result.findings] if r.result else [],
                    "seats": [
                        {
                            "seat": k + 1,
                            "entry": seat_entry.id,
                            "name": seat_entry.player.name,
                            "value": str(r.values[k]) if r.values else None,
                            "score": None if not r.scores or r.scores[k] is None else str(r.scores[k]),
                        }
                        for k, seat_entry in enumerate(r.entries)
                    ],
                }
            )
        return _answer(
            request,
            _BoardOutput(
                {
                    "number": board.number,
                    "round": round_number,
                    "dealer": board.dealer,
                    "cards": board.cards if closed else None,
                    "tables": tables,
                }
            ).data
        )
