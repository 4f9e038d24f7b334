"""API: events, entries, rounds and draws. One class per operation (HackSoft)."""

from __future__ import annotations

from collections.abc import Mapping

from celery.result import AsyncResult
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.access import permissions
from tournaments.api.parsers import NestingJSONParser
from tournaments.api.permissions import EventOrganiser, EventReferee, EventVisible, event_from
from tournaments.api.schema import (
    BAD_REQUEST,
    LOCATION,
    NOT_FOUND,
    ORGANISER_ONLY,
    PUBLIC_AUTH,
    REFEREE_ONLY,
    VISIBLE_ONLY,
    JobDoneOutput,
    JobFailedOutput,
    JobRunningOutput,
    JobStartedOutput,
    error,
    location_header,
)
from tournaments.errors import UserFacingError
from tournaments.models import Round
from tournaments.models.event import FoursRemainder
from tournaments.selectors.events import (
    PUBLIC_STATES,
    entries_for_event,
    events_public,
    seed_commitments,
    tables_for_round,
)
from tournaments.selectors.sit_out import sitting_out_of_round
from tournaments.services import constraints as constraint_services
from tournaments.services import entries as entry_services
from tournaments.services import rounds as round_services
from tournaments.services.draw_record import draw_record


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


@extend_schema_serializer(component_name="Seat")
class SeatOutput(serializers.Serializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField(source="entry.player.name")


@extend_schema_serializer(component_name="Table")
class TableOutput(serializers.Serializer):
    number = serializers.IntegerField()
    first_dealer = serializers.IntegerField()
    seats = SeatOutput(many=True, source="seats.all")


@extend_schema_serializer(component_name="SittingOut")
class _SittingOutOutput(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()


@extend_schema_serializer(component_name="Round")
class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.CharField()
    draw_method = serializers.CharField()
    draw_seed_hash = serializers.CharField()
    draw_seed = serializers.SerializerMethodField()
    sitting_out = serializers.SerializerMethodField()

    @extend_schema_field(
        _SittingOutOutput(
            many=True,
            help_text=(
                "The entries who sat this round out (tables of four, the event's "
                "fours_remainder sit_out), by name; empty otherwise."
            ),
        )
    )
    def get_sitting_out(self, round_):
        return _SittingOutOutput(sitting_out_of_round(round_=round_), many=True).data

    @extend_schema_field(
        serializers.CharField(
            allow_null=True, help_text="The seed, revealed once the round is drawn (else null)."
        )
    )
    def get_draw_seed(self, round_):
        # The seed is revealed once the draw is made (commit and reveal).
        return round_.draw_seed if round_.state != Round.State.DRAFT else None


@extend_schema_serializer(component_name="RoundWithTables")
class _RoundWithTablesOutput(RoundOutput):
    """A round with its tables and their seats."""

    tables = TableOutput(many=True)


_ROUND_NOT_FOUND = error(
    "No event with this slug, or no such round (a round not yet published is hidden from all "
    "but the event's referees)."
)
_ROUND_NOT_FOUND_STAFF = error("No event with this slug, or no such round.")


def _visible_rounds(request, event):
    rounds = event.rounds.order_by("number")
    if not permissions.can_referee(request.user, event):
        rounds = rounds.filter(state__in=PUBLIC_STATES)
    return rounds


class RoundListApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="rounds_list",
        tags=["rounds"],
        summary="The event's rounds",
        description="Published rounds; the event's referees also see drafts and drawn rounds.",
        auth=PUBLIC_AUTH,
        responses={200: RoundOutput(many=True), 403: VISIBLE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug):
        return Response(RoundOutput(_visible_rounds(request, event_from(self)), many=True).data)


@extend_schema_serializer(component_name="RoundAhead")
class _RoundAheadOutput(serializers.Serializer):
    round = serializers.IntegerField()
    tables = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Each table's entry ids (sorted; the seats are drawn with the round).",
    )
    sitting_out = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text=(
            "The entries who sit the round out (tables of four, the event's fours_remainder "
            "sit_out), in turn as the draws choose them."
        ),
    )


@extend_schema_serializer(component_name="SeedCommitment")
class _SeedCommitmentOutput(serializers.Serializer):
    round = serializers.IntegerField(source="number")
    state = serializers.CharField()
    draw_seed_hash = serializers.CharField(help_text="SHA-256 (hex) of the seed the draw uses.")
    committed_at = serializers.DateTimeField(
        source="draw_seed_committed_at", help_text="When the hash was published."
    )
    draw_seed = serializers.SerializerMethodField()

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="The seed, revealed once the round is public (else null): its SHA-256 is "
            "``draw_seed_hash``.",
        )
    )
    def get_draw_seed(self, round_):
        return round_.draw_seed if round_.state in PUBLIC_STATES else None


class SeedCommitmentsApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="rounds_commitments",
        tags=["rounds"],
        summary="Seeds' hashes published before the draw",
        description=(
            "Public. Each round whose seed's hash the organiser published before its draw "
            "(commit and reveal), drafts included: the hash, when it was published, and the "
            "seed once the round is public. With the seed, ``manage.py draw_verify`` re-runs "
            "the draw."
        ),
        auth=PUBLIC_AUTH,
        responses={200: _SeedCommitmentOutput(many=True), 403: VISIBLE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug):
        rounds = seed_commitments(event=event_from(self))
        return Response(_SeedCommitmentOutput(rounds, many=True).data)


class RoundCommitSeedApi(APIView):
    permission_classes = [EventOrganiser]

    @extend_schema(
        operation_id="rounds_commit_seed",
        tags=["rounds"],
        summary="Publish the hash of the seed a draft round will be drawn with",
        description=(
            "Organisers only. No body. Chooses the seed and publishes its SHA-256 at once "
            "(``GET …/rounds/commitments``); the seed is revealed with the round. Once "
            "published, a commitment cannot be changed, and a draw with another seed is "
            "refused."
        ),
        request=None,
        responses={
            200: RoundOutput,
            400: error(
                "The round is not a draft (``extra.field`` ``state``), or its hash is published "
                "already (``draw_seed_hash``)."
            ),
            403: ORGANISER_ONLY,
            404: _ROUND_NOT_FOUND_STAFF,
        },
    )
    def post(self, request, slug, number):
        round_ = get_object_or_404(event_from(self).rounds, number=number)
        round_ = round_services.round_commit_seed(round_=round_, by=request.user)
        return Response(RoundOutput(round_).data)


class RoundsAheadApi(APIView):
    permission_classes = [EventReferee]

    @extend_schema(
        operation_id="rounds_ahead",
        tags=["rounds"],
        summary="The tables of the rounds not drawn yet",
        description=(
            "Referees. Once round 1 is drawn, the ``no_repeats`` and ``schedule`` methods draw "
            "every later round from a plan made from the rounds played: these are the tables "
            "they will make while the players present, the constraints and the rounds played "
            "stay as they are. An empty list before round 1, after the last planned round, "
            "and for the random and Swiss methods. At tables of four with players sitting "
            "out, who sits a round out is drawn with its seed: the list stops before the first "
            "round whose seed is not chosen yet and would decide it (publish its seed's hash "
            "to see it). The plan is computed by a background job "
            "and kept until the data change: while it is computed the answer is 202 with the "
            "job's ``status_url`` (ask again when it is done)."
        ),
        parameters=[location_header(202, description="``status_url``.")],
        responses={
            200: _RoundAheadOutput(many=True),
            202: JobStartedOutput,
            400: error("The players present or the constraints make a draw impossible."),
            403: REFEREE_ONLY,
            404: NOT_FOUND,
            503: error("The job computing the plan failed; ask again.", JobFailedOutput),
        },
    )
    def get(self, request, slug):
        job = round_services.schedule_ahead_request(event=event_from(self))
        if job is None:
            return Response([])
        if job.active:
            url = reverse("api:job-status", args=[job.task_id])
            return Response(
                {"job": job.task_id, "status_url": url},
                status=status.HTTP_202_ACCEPTED,
                headers={"Location": url},
            )
        result = job.result or {}
        if job.state == job.State.FAILED:
            return Response(
                {
                    "message": job.error.splitlines()[0] if job.error else "failed",
                    "extra": {"state": "failed"},
                },
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
                headers={"Retry-After": "5"},
            )
        if "error" in result:
            extra = {k: v for k, v in result.items() if k != "error"}
            return Response({"message": result["error"], "extra": extra}, status=400)
        return Response(result.get("rounds", []))


class RoundDetailApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="rounds_retrieve",
        tags=["rounds"],
        summary="A round with its tables and seats",
        auth=PUBLIC_AUTH,
        responses={200: _RoundWithTablesOutput, 403: VISIBLE_ONLY, 404: _ROUND_NOT_FOUND},
    )
    def get(self, request, slug, number):
        round_ = get_object_or_404(_visible_rounds(request, event_from(self)), number=number)
        data = RoundOutput(round_).data
        data["tables"] = TableOutput(tables_for_round(round_=round_), many=True).data
        return Response(data)


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


class RoundDrawApi(APIView):
    """Draw a round: inline for small events (200), as a Celery job for large ones (202)."""

    permission_classes = [EventOrganiser]

    @extend_schema_serializer(component_name="RoundDrawInput")
    class InputSerializer(serializers.Serializer):
        method = serializers.ChoiceField(
            choices=["random", "no_repeats", "swiss", "schedule"], required=False
        )
        seed = serializers.CharField(max_length=64, required=False)
        background = serializers.BooleanField(required=False, allow_null=True, default=None)

    @extend_schema(
        operation_id="rounds_draw",
        tags=["rounds"],
        summary="Draw a round",
        description=(
            "Organisers only; a draft or drawn (not yet published) round. Small events are drawn "
            "at once (200, the round with its tables); large ones (over 90 players present, or "
            "nearly as many rounds planned as the field allows without repeats), or "
            "``background: true``, in a background job (202: poll ``status_url``, also in the "
            "``Location`` header). ``background: false`` draws at once whatever the size."
        ),
        request=InputSerializer,
        parameters=[LOCATION],
        responses={
            200: _RoundWithTablesOutput,
            202: JobStartedOutput,
            400: error(
                "Invalid input (``extra.fields``); or the round cannot be drawn: already "
                "published (``extra.field`` ``state``), fewer than three players present "
                "(``entries``), a seed other than the one whose hash was published (``seed``), "
                "a draw already running, no draw found, or the players, earlier rounds, "
                "constraints or seed changed while the engine ran, so nothing was stored "
                "(``draw``)."
            ),
            403: ORGANISER_ONLY,
            404: _ROUND_NOT_FOUND_STAFF,
        },
    )
    def post(self, request, slug, number):
        event = event_from(self)
        round_ = get_object_or_404(event.rounds, number=number)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        args = {k: v for k, v in data.validated_data.items() if k in ("method", "seed") and v}
        background = data.validated_data.get("background")
        if background is None:
            background = round_services.draw_in_background(event)
        if background:
            job = round_services.draw_job_queue(round_=round_, by=request.user, **args)
            url = reverse("api:job-status", args=[job])
            return Response(
                {"job": job, "status_url": url},
                status=status.HTTP_202_ACCEPTED,
                headers={"Location": url},
            )
        round_ = round_services.round_draw(round_=round_, by=request.user, **args)
        out = RoundOutput(round_).data
        out["tables"] = TableOutput(tables_for_round(round_=round_), many=True).data
        return Response(out)


class RoundPublishApi(APIView):
    permission_classes = [EventOrganiser]

    @extend_schema(
        operation_id="rounds_publish",
        tags=["rounds"],
        summary="Publish a drawn round",
        description="Organisers only. The seating becomes public. No body.",
        request=None,
        responses={
            200: RoundOutput,
            400: error('The round is not in the drawn state (``extra.field`` is "state").'),
            403: ORGANISER_ONLY,
            404: _ROUND_NOT_FOUND_STAFF,
        },
    )
    def post(self, request, slug, number):
        round_ = get_object_or_404(event_from(self).rounds, number=number)
        round_ = round_services.round_publish(round_=round_, by=request.user)
        return Response(RoundOutput(round_).data)


class JobStatusApi(APIView):
    """A background job: 200 with its result when done, 409 while running, 410 on failure."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="jobs_retrieve",
        tags=["jobs"],
        summary="A background job's state",
        description=(
            "200 with its result when done, 409 while queued or running (an unknown id also "
            "reads as queued), 410 when it failed."
        ),
        responses={
            200: JobDoneOutput,
            409: error('Queued or running: ``message`` is "running".', JobRunningOutput),
            410: error("The job failed: ``message`` says why.", JobFailedOutput),
        },
    )
    def get(self, request, job_id):
        from tournaments.models import Job

        job = Job.objects.filter(task_id=job_id).first()
        if job is not None and job.state == Job.State.FAILED:
            return Response(
                {
                    "message": job.error.splitlines()[0] if job.error else "failed",
                    "extra": {"state": "failed"},
                },
                status=status.HTTP_410_GONE,
            )
        try:
            result = AsyncResult(job_id)
            done, failed = result.successful(), result.failed()
            value, info, state = result.result, result.info, result.state
        except Exception:  # the result store (Redis) is out: answer from the job's row
            done = failed = False
            value, info, state = None, None, "PENDING"
        if job is not None:  # the job's row decides (a repeated delivery that was skipped
            # leaves a "success" in the result store while the job still runs)
            if job.state == Job.State.DONE:
                keep = isinstance(value, dict) and "skipped" not in value
                return Response({"state": "done", "result": value if keep else job.result})
            state = "QUEUED" if job.state == Job.State.QUEUED else state
            done = failed = False
        if done:
            return Response({"state": "done", "result": value})
        if failed:
            return Response(
                {"message": str(value), "extra": {"state": "failed"}},
                status=status.HTTP_410_GONE,
            )
        meta = info if isinstance(info, dict) and "skipped" not in info else {}
        return Response(
            {"message": "running", "extra": {"state": state, **meta}},
            status=status.HTTP_409_CONFLICT,
        )


# --- draw constraints (services.constraints) ----------------------------------------------


# The serializers below only document the dicts the constraint views return.


@extend_schema_serializer(component_name="ApartPair")
class _ApartPairOutput(serializers.Serializer):
    """Two entries never seated at one table."""

    id = serializers.IntegerField(help_text="The pair's id (to remove it).")
    first = serializers.IntegerField(help_text="An entry id (the lower of the two).")
    second = serializers.IntegerField(help_text="The other entry id.")
    reason = serializers.CharField()


@extend_schema_serializer(component_name="FixedTable")
class _FixedTableOutput(serializers.Serializer):
    """An entry seated at the same table in every draw."""

    entry = serializers.IntegerField()
    table = serializers.IntegerField()


@extend_schema_serializer(component_name="Constraints")
class _ConstraintsOutput(serializers.Serializer):
    """The draw's constraints."""

    apart = _ApartPairOutput(many=True)
    fixed_tables = _FixedTableOutput(many=True)


_BAD_ENTRY = (
    "Invalid input (``extra.fields``); or an entry id not of this event (``extra.field`` names "
    "the field)"
)


class ConstraintsApi(APIView):
    """The draw's constraints: players kept apart and players fixed at a table."""

    permission_classes = [EventReferee]

    @extend_schema(
        operation_id="constraints_retrieve",
        tags=["constraints"],
        summary="The draw's constraints",
        description="Referees only: the pairs kept apart and the entries fixed at a table.",
        responses={200: _ConstraintsOutput, 403: REFEREE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug):
        event = event_from(self)
        return Response(
            {
                "apart": [
                    {"id": a.pk, "first": a.first_id, "second": a.second_id, "reason": a.reason}
                    for a in event.avoidances.order_by("pk")
                ],
                "fixed_tables": [
                    {"entry": e.pk, "table": e.fixed_table}
                    for e in event.entries.filter(fixed_table__isnull=False).order_by("pk")
                ],
            }
        )


class ApartAddApi(APIView):
    """POST {"first", "second", "reason"}: keep two entries apart in every draw."""

    permission_classes = [EventOrganiser]

    @extend_schema_serializer(component_name="ApartAddInput")
    class InputSerializer(serializers.Serializer):
        first = serializers.IntegerField()
        second = serializers.IntegerField()
        reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)

    @extend_schema(
        operation_id="constraints_apart_create",
        tags=["constraints"],
        summary="Keep two entries apart",
        description="Organisers only. The two entries never share a table in a later draw.",
        request=InputSerializer,
        responses={
            201: _ApartPairOutput,
            400: error(
                _BAD_ENTRY + "; or the same entry twice, a pair kept apart already, or two "
                "entries fixed at the same table."
            ),
            403: ORGANISER_ONLY,
            404: NOT_FOUND,
        },
    )
    def post(self, request, slug):
        event = event_from(self)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = constraint_services.avoidance_add(
            event=event,
            first=_entry(event, data.validated_data["first"], "first"),
            second=_entry(event, data.validated_data["second"], "second"),
            reason=data.validated_data["reason"],
            by=request.user,
        )
        out = {"id": pair.pk, "first": pair.first_id, "second": pair.second_id}
        return Response({**out, "reason": pair.reason}, status=status.HTTP_201_CREATED)


class ApartRemoveApi(APIView):
    permission_classes = [EventOrganiser]

    @extend_schema(
        operation_id="constraints_apart_destroy",
        tags=["constraints"],
        summary="Stop keeping a pair apart",
        description="Organisers only. ``pair_id`` is the ``id`` of a pair in ``apart``.",
        responses={
            204: OpenApiResponse(description="Removed; no body."),
            403: ORGANISER_ONLY,
            404: error("No event with this slug, or no such pair in it."),
        },
    )
    def delete(self, request, slug, pair_id):
        pair = get_object_or_404(event_from(self).avoidances, pk=pair_id)
        constraint_services.avoidance_remove(avoidance=pair, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FixedTableApi(APIView):
    """POST {"entry", "table", "reason"}: the entry sits at ``table`` in every draw (null: free)."""

    permission_classes = [EventOrganiser]

    @extend_schema_serializer(component_name="FixedTableInput")
    class InputSerializer(serializers.Serializer):
        entry = serializers.IntegerField()
        table = serializers.IntegerField(allow_null=True)
        reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)

    @extend_schema(
        operation_id="constraints_fixed_table_set",
        tags=["constraints"],
        summary="Fix an entry at a table, or free it",
        description=(
            "Organisers only. ``table``: the table number in every later draw; null frees the "
            "entry."
        ),
        request=InputSerializer,
        responses={
            200: inline_serializer(
                "FixedTableResult",
                {
                    "entry": serializers.IntegerField(),
                    "table": serializers.IntegerField(
                        allow_null=True, help_text="null: the entry is free."
                    ),
                },
            ),
            400: error(
                _BAD_ENTRY + "; or a table number below 1, or a table where an entry kept apart "
                "from this one is fixed already."
            ),
            403: ORGANISER_ONLY,
            404: NOT_FOUND,
        },
    )
    def post(self, request, slug):
        event = event_from(self)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = constraint_services.entry_fix_table(
            entry=_entry(event, data.validated_data["entry"], "entry"),
            table=data.validated_data["table"],
            reason=data.validated_data["reason"],
            by=request.user,
        )
        return Response({"entry": entry.pk, "table": entry.fixed_table})


def _entry(event, pk: int, field: str):
    entry = event.entries.select_related("player").filter(pk=pk).first()
    if entry is None:
        raise UserFacingError(f"{field}: no entry {pk} in this event", {"field": field})
    return entry
