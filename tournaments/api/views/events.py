"""API: events and their entries (list, detail, register, the CSV import). One class per operation
(HackSoft); rounds, draws, constraints and jobs have their own modules beside this one."""

from __future__ import annotations

from collections.abc import Mapping

from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.parsers import NestingJSONParser
from tournaments.api.permissions import EventOrganiser, EventVisible, event_from
from tournaments.api.schema import (
    BAD_REQUEST,
    NOT_FOUND,
    ORGANISER_ONLY,
    PUBLIC_AUTH,
    VISIBLE_ONLY,
    error,
)
from tournaments.errors import UserFacingError
from tournaments.models.event import FoursRemainder
from tournaments.selectors.events import (
    entries_for_event,
    events_public,
)
from tournaments.services import entries as entry_services


@extend_schema_serializer(component_name="Event")
class EventOutput(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    venue = serializers.CharField()
    variant = serializers.CharField()
    convention_options = serializers.DictField()
    pulka_target = serializers.IntegerField()
    deals_per_round = serializers.IntegerField(allow_null=True)
    rounds_planned = serializers.IntegerField()
    table_size_policy = serializers.CharField()
    fours_remainder = serializers.ChoiceField(
        choices=FoursRemainder.choices,
        help_text=(
            "At tables of four: what the draw does with the players beyond a multiple of four — "
            "refuse to draw, let them sit out in turn (credited sit_out_score), or seat "
            "substitutes (entries with substitute true, never ranked)."
        ),
    )
    sit_out_score = serializers.DecimalField(
        max_digits=9,
        decimal_places=2,
        help_text=(
            "The score a round sat out is credited, in the table's unit (whists, points, chips), "
            "as a decimal string. With the place-points round score a round sat out is worth "
            "the average place at a table of four instead; this score then counts in the "
            "whists tie-break only."
        ),
    )


class EventListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="events_list",
        tags=["events"],
        summary="List the published events",
        responses={200: EventOutput(many=True)},
    )
    def get(self, request):
        return Response(EventOutput(events_public(), many=True).data)


class EventDetailApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="events_retrieve",
        tags=["events"],
        summary="An event",
        description="Published events are public; an unpublished one only for its staff.",
        auth=PUBLIC_AUTH,
        responses={200: EventOutput, 403: VISIBLE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug):
        return Response(EventOutput(event_from(self)).data)


@extend_schema_serializer(component_name="Entry")
class EntryOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")
    city = serializers.CharField(source="player.city")
    rating = serializers.IntegerField(source="player.rating", allow_null=True)
    status = serializers.CharField()
    joined_round = serializers.IntegerField(allow_null=True)
    substitute = serializers.BooleanField(
        help_text=(
            "A substitute: seated only to fill a table of four (the event's fours_remainder "
            "substitute), never ranked."
        )
    )


class EntryListApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="entries_list",
        tags=["entries"],
        summary="The event's entries (players)",
        auth=PUBLIC_AUTH,
        responses={200: EntryOutput(many=True), 403: VISIBLE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug):
        return Response(EntryOutput(entries_for_event(event=event_from(self)), many=True).data)


class EntryRegisterApi(APIView):
    permission_classes = [EventOrganiser]

    @extend_schema_serializer(component_name="EntryRegisterInput")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        club = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)
        city = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)
        rating = serializers.IntegerField(required=False, allow_null=True, default=None)
        federation_id = serializers.CharField(
            max_length=40, required=False, default="", allow_blank=True
        )

    @extend_schema(
        operation_id="entries_register",
        tags=["entries"],
        summary="Register a player",
        description="Organisers only. The player is found by federation id, else created.",
        request=InputSerializer,
        responses={
            201: EntryOutput,
            400: BAD_REQUEST,
            403: ORGANISER_ONLY,
            404: NOT_FOUND,
        },
    )
    def post(self, request, slug):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_services.entry_register(
            event=event_from(self), by=request.user, **data.validated_data
        )
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


_CSV_IMPORT_INPUT = inline_serializer(
    "EntryImportInput",
    {
        "csv": serializers.CharField(
            help_text=(
                "The CSV text: a header line, then one player a line, separated by ``,``, ``;`` "
                "or tabs. Columns: ``name`` (required), ``club``, ``city``, ``rating``, "
                "``federation_id`` (Russian headers such as ``имя``, ``клуб`` also work)."
            )
        )
    },
)


@extend_schema_serializer(component_name="CsvLineError")
class _CsvLineErrorOutput(serializers.Serializer):
    line = serializers.IntegerField(help_text="The line of the file, from 1 (the header).")
    field = serializers.CharField(help_text='The column, or "file".')
    message = serializers.CharField()


@extend_schema_serializer(component_name="CsvImportErrorExtra")
class _CsvImportErrorExtra(serializers.Serializer):
    lines = _CsvLineErrorOutput(
        many=True, required=False, help_text="Every bad line (absent for a body that is not JSON)."
    )


@extend_schema_serializer(component_name="CsvImportError")
class _CsvImportErrorOutput(serializers.Serializer):
    message = serializers.CharField()
    extra = _CsvImportErrorExtra()


class CsvTextParser(BaseParser):
    """A raw ``text/csv`` (or ``text/plain``) body: the text, UTF-8 with or without a BOM, or
    Windows-1251 (as spreadsheets in Russian save it)."""

    media_type = "text/*"

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return raw.decode("cp1251")


class EntryImportApi(APIView):
    """POST text/csv (or {"csv": "..."}): all lines or none; 400 lists every bad line."""

    permission_classes = [EventOrganiser]
    parser_classes = [NestingJSONParser, FormParser, MultiPartParser, CsvTextParser]

    @extend_schema(
        operation_id="entries_import",
        tags=["entries"],
        parameters=[
            OpenApiParameter(
                "skip_entered",
                bool,
                OpenApiParameter.QUERY,
                description=(
                    "Skip the lines of players already entered (the same federation id, or "
                    "without one the same name) instead of refusing them: to import an extended "
                    "list again."
                ),
            )
        ],
        summary="Import players from CSV",
        description=(
            "Organisers only. The CSV text is the body (``text/csv``, UTF-8 or Windows-1251) "
            'or the field ``csv`` of a JSON body (``{"csv": "name,club\\nIvanov,Sochi\\n"}``) '
            "or of a form. All lines are imported or none: a 400 lists every bad line."
        ),
        request={
            "text/csv": {"type": "string"},
            "application/json": _CSV_IMPORT_INPUT,
            "application/x-www-form-urlencoded": _CSV_IMPORT_INPUT,
            "multipart/form-data": _CSV_IMPORT_INPUT,
        },
        responses={
            201: inline_serializer(
                "EntryImportOutput",
                {
                    "imported": serializers.IntegerField(
                        help_text="How many players were entered."
                    ),
                    "skipped_lines": serializers.ListField(
                        child=serializers.IntegerField(),
                        help_text="With ``skip_entered``: the lines of players already entered.",
                    ),
                },
            ),
            400: error(
                "Nothing was imported: ``extra.lines`` lists every bad line (also a body that "
                "is not valid JSON, without ``lines``).",
                _CsvImportErrorOutput,
            ),
            403: ORGANISER_ONLY,
            404: NOT_FOUND,
            415: error("The body is none of CSV text, JSON or a form."),
        },
    )
    def post(self, request, slug):
        data = request.data  # CSV text, or a JSON document or form (any JSON: a list, a number)
        if isinstance(data, str):
            text = data
        else:
            text = data.get("csv") if isinstance(data, Mapping) else None
        if not isinstance(text, str):
            raise UserFacingError(
                "csv: send the CSV as a text/csv body, or as the field 'csv' of JSON or a form",
                {"field": "csv"},
            )
        skip = request.query_params.get("skip_entered", "").lower() in ("1", "true", "yes")
        result = entry_services.entries_import_csv(
            event=event_from(self), text=text, skip_entered=skip, by=request.user
        )
        return Response(
            {"imported": len(result.entries), "skipped_lines": list(result.skipped)},
            status=status.HTTP_201_CREATED,
        )
