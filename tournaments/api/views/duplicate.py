"""A duplicate event (issue 43, docs/duplicate.md): ``GET /api/v1/events/<slug>/duplicate``
(the option, the seed's commitment and the standings) and
``GET /api/v1/events/<slug>/duplicate/boards/<n>`` (a board's traveller; its hand record once
its round is closed), and a table's result on a board,
``/api/v1/events/<slug>/rounds/<n>/tables/<t>/boards/<board>``: read and entered by the table
with its key (``X-Table-Key``) or a referee, as the protocols API does for ordinary events,
with the version it was based on (409 for another)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.duplicate.comparison import Adjustment
from tournaments.api.permissions import EventVisible, event_from
from tournaments.api.schema import NOT_FOUND, PUBLIC_AUTH, VISIBLE_ONLY, error
from tournaments.api.views.protocols import (
    _FORBIDDEN,
    _TABLE_NOT_FOUND,
    TABLE_KEY,
    _error,
    _TableApi,
)
from tournaments.errors import UserFacingError
from tournaments.models import Board, BoardResult, Round
from tournaments.selectors import duplicate as sel
from tournaments.services import duplicate as svc

__all__ = ["DuplicateApi", "DuplicateBoardApi", "DuplicateBoardResultApi"]


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
    adjusted = serializers.ListField(
        child=serializers.CharField(),
        help_text='A referee\'s adjusted score per board seat ("plus", "average", "minus"); [] '
        "for a board played (docs/duplicate.md).",
    )
    adjusted_reason = serializers.CharField(help_text="Why the referee adjusted it.")
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
                    "adjusted": list(r.adjusted),
                    "adjusted_reason": r.result.adjusted_reason if r.result else "",
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


# --- a table's result on a board: read and enter (issue 43) ------------------------------------


@extend_schema_serializer(component_name="DuplicateBoardResult")
class _ResultOutput(serializers.Serializer):
    board = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Send it back as ``based_on_version``.")
    deal = serializers.CharField(help_text='The deal in the family\'s notation; "" when adjusted.')
    values = serializers.ListField(
        child=serializers.CharField(), help_text="Each board seat's value, exact (fractions' text)."
    )
    adjusted = serializers.ListField(
        child=serializers.CharField(),
        help_text='A referee\'s adjusted score per board seat ("plus", "average", "minus"); [] '
        "for a board played.",
    )
    adjusted_reason = serializers.CharField()
    entered_by = serializers.CharField(help_text='"table" or "referee".')
    ok = serializers.BooleanField(help_text="No finding of an error.")
    findings = serializers.ListField(child=serializers.CharField(), help_text="The findings' codes.")


def _result_data(result) -> dict:
    return {
        "board": result.board.number,
        "round": result.table.round.number,
        "table": result.table.number,
        "version": result.version,
        "deal": result.deal_text,
        "values": list(result.values),
        "adjusted": list(result.adjusted),
        "adjusted_reason": result.adjusted_reason,
        "entered_by": result.entered_by,
        "ok": result.ok,
        "findings": [f.get("code", "") for f in result.findings],
    }


@extend_schema_serializer(component_name="StaleBoardResultExtra")
class _StaleExtra(serializers.Serializer):
    field = serializers.CharField(help_text='Always "based_on_version".')
    current_version = serializers.IntegerField(
        allow_null=True, help_text="The current version (null: no result yet)."
    )


@extend_schema_serializer(component_name="StaleBoardResult")
class _StaleOutput(serializers.Serializer):
    message = serializers.CharField()
    extra = _StaleExtra()


class DuplicateBoardResultApi(_TableApi):
    """GET: the table's result on a board; POST: enter it (or a referee's adjusted score)."""

    @extend_schema_serializer(component_name="DuplicateBoardResultInput")
    class InputSerializer(serializers.Serializer):
        deal = serializers.CharField(
            required=False, allow_blank=False,
            help_text="The deal line in the family's text notation, as on the table's page.",
        )
        adjusted = serializers.ListField(
            child=serializers.ChoiceField(choices=[a.value for a in Adjustment]),
            required=False, min_length=3, max_length=3,
            help_text="A referee only: each board seat's adjusted score, seat 1 first.",
        )
        based_on_version = serializers.IntegerField(
            allow_null=True, min_value=1,
            help_text="The version of the result you started from; null when there is none yet.",
        )
        reason = serializers.CharField(required=False, allow_blank=True, default="")

        def validate(self, attrs):
            if ("deal" in attrs) == ("adjusted" in attrs):
                raise serializers.ValidationError("give either 'deal' or 'adjusted'")
            return attrs

    @extend_schema(
        operation_id="duplicate_board_result_get",
        tags=["protocols"],
        summary="A table's result on a duplicate board",
        description="A referee of the event, or the table by its key. 404 while there is none.",
        parameters=[TABLE_KEY],
        responses={
            200: _ResultOutput,
            403: _FORBIDDEN,
            404: error("No such event, round, table or board, or no result yet."),
        },
    )
    def get(self, request, slug: str, number: int, table_number: int, board: int) -> Response:
        table, referee = self.allowed(request, slug, number, table_number)
        result = get_object_or_404(
            BoardResult.objects.select_related("board", "table__round"),
            table=table, board__number=board,
        )
        return Response(_ResultOutput(_result_data(result)).data)

    @extend_schema(
        operation_id="duplicate_board_result_submit",
        tags=["protocols"],
        summary="Enter a table's result on a duplicate board",
        description=(
            "A referee of the event, or the table by its key (``X-Table-Key``) while its round "
            "is in play. ``deal``: the deal line in the family's notation (as on the table's "
            "page); or, a referee only, ``adjusted``: average-plus, average or average-minus "
            "for each board seat, with a ``reason`` (docs/duplicate.md). ``based_on_version``: "
            "the result's version you started from, null for the first; another is refused "
            "with 409 and the current version. A referee's correction of a closed round needs "
            "a ``reason``. The board's comparison is re-scored by a job."
        ),
        parameters=[TABLE_KEY],
        request=InputSerializer,
        responses={
            201: _ResultOutput,
            400: error(
                'Invalid input: ``message`` is "Invalid input." and ``extra`` maps each field '
                "(or ``non_field_errors``) to its errors; or a result the rules refuse: "
                "``extra.field`` names ``board`` (not this table's this round, not prepared, the "
                "round not in play), ``deal`` (with ``column`` for the notation), ``adjusted`` "
                "or ``reason``."
            ),
            403: error(
                "Neither a referee's login nor the table's key (``X-Table-Key``); or an adjusted "
                "score without a referee's login."
            ),
            404: _TABLE_NOT_FOUND,
            409: error(
                "``based_on_version`` is not the current version: reload and enter it again.",
                _StaleOutput,
            ),
        },
    )
    def post(self, request, slug: str, number: int, table_number: int, board: int) -> Response:
        table, referee = self.allowed(request, slug, number, table_number)
        serializer = self.InputSerializer(data=request.data)
        if not serializer.is_valid():
            return self.invalid(serializer)
        data = serializer.validated_data
        try:
            if "adjusted" in data:
                if not referee:
                    return self.forbidden()
                result = svc.board_result_adjust(
                    table=table, board_number=board, adjusted=data["adjusted"],
                    reason=data["reason"], by=request.user,
                    based_on_version=data["based_on_version"],
                )
            else:
                result = svc.board_result_enter(
                    table=table, board_number=board, text=data["deal"], by=request.user,
                    referee=referee, reason=data["reason"],
                    based_on_version=data["based_on_version"],
                )
        except svc.StaleBoardResult as exc:
            return _error(exc, status.HTTP_409_CONFLICT)
        except UserFacingError as exc:
            return _error(exc)
        result = BoardResult.objects.select_related("board", "table__round").get(pk=result.pk)
        return Response(_ResultOutput(_result_data(result)).data, status=status.HTTP_201_CREATED)
