"""Standings and documents API.

``GET /api/v1/events/<slug>/standings`` — the stored standings (never computed per request):
when and whether they are up to date, the columns, and one row per player: all of them, or a
page (``?page=``, ``?page_size=``) with ``count``, ``next`` and ``previous``.
``POST …/standings/recompute`` (referees) — 202 with the status URL;
``GET …/standings/status`` — the recomputation's state.
``POST /api/v1/events/<slug>/documents`` (referees) — a PDF: 200 with the download URL when the
stored file is up to date, else 202 with the status URL; ``GET …/documents/<id>`` — 200 with the
file when ready, 409 while it is being rendered, 410 when rendering failed (pretix exporters).
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.access import permissions
from tournaments.api.jobs import JobQueuedOutput, job_output, job_since
from tournaments.api.permissions import EventReferee, EventVisible, event_from
from tournaments.api.schema import (
    NOT_FOUND,
    PUBLIC_AUTH,
    REFEREE_ONLY,
    VISIBLE_ONLY,
    StatusUrlOutput,
    error,
    location_header,
)
from tournaments.errors import UserFacingError
from tournaments.jobs.outbox import DOCUMENT_QUEUED, STANDINGS_QUEUED
from tournaments.models import GeneratedFile, Round, StandingsSnapshot, Table
from tournaments.pdf.files import generated_file_request
from tournaments.pdf.paper import PAPERS
from tournaments.selectors.standings import (
    snapshot_version,
    standings_header,
    standings_snapshot,
    standings_view,
)
from tournaments.services.standings import standings_schedule
from tournaments.views.caching import PAGE_CACHE_SECONDS, conditional, page_etag

__all__ = [
    "DocumentCreateApi",
    "DocumentDetailApi",
    "StandingsListApi",
    "StandingsRecomputeApi",
    "StandingsStatusApi",
]


def _status(snapshot, *, staff: bool) -> dict:
    if snapshot is None:
        return {"status": "pending", "pending": True, "computed_at": None}
    out = {
        "status": snapshot.status,
        "pending": snapshot.pending,
        "computed_at": snapshot.computed_at,
        "requested_at": snapshot.requested_at,
    }
    if staff:
        out.update({"error": snapshot.error, "attempts": snapshot.attempts})
    return out


# --- OpenAPI documentation (drf-spectacular) --------------------------------------------------


def _status_field(component_name: str, choices) -> type[serializers.Field]:
    """Documentation only: a status field whose enum is its own component (the standings' and
    the documents' ``status`` have different values)."""

    @extend_schema_field(serializers.ChoiceField(choices=choices), component_name=component_name)
    class StatusField(serializers.CharField):
        pass

    return StatusField


# The serializers below only document the dicts the views return (``_status`` and others).


@extend_schema_serializer(component_name="StandingsStatus")
class _StatusOutput(serializers.Serializer):
    """Whether the stored standings are up to date."""

    status = _status_field("StandingsStatusEnum", StandingsSnapshot.Status.choices)(
        help_text='The last recomputation\'s state ("pending" before the first).',
    )
    pending = serializers.BooleanField(help_text="A recomputation is queued or running.")
    computed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the stored standings were computed (null: never)."
    )
    requested_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="When a recomputation was last asked for (absent before the first).",
    )
    error = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="Referees only (absent for others and before the first): the last failure.",
    )
    attempts = serializers.IntegerField(
        required=False,
        help_text="Referees only (absent for others and before the first): failed attempts.",
    )


@extend_schema_serializer(component_name="StandingsColumn")
class _ColumnOutput(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    abbr = serializers.CharField()
    ascending = serializers.BooleanField(help_text="Lower is better.")


@extend_schema_serializer(component_name="RoundScore")
class _RoundScoreOutput(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    params = serializers.DictField()


@extend_schema_serializer(component_name="Document")
class _DocumentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = _status_field("DocumentStatusEnum", GeneratedFile.Status.choices)(
        help_text='"ok" with 200 (ready at ``url``), "pending" with 202 (being rendered).',
    )
    url = serializers.CharField(
        help_text="``…/documents/<id>``: the file (also the ``Location`` header)."
    )
    filename = serializers.CharField(allow_blank=True, help_text="Empty until rendered.")
    job = JobQueuedOutput(
        allow_null=True,
        help_text=(
            "The job rendering the document while it is pending (issue 25, item 10); null "
            "when the stored file was up to date."
        ),
    )


def _standings_output(row: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """Documentation only: the body of ``GET …/standings``, its rows described by ``row``."""

    @extend_schema_serializer(component_name="Standings")
    class StandingsOutput(_StatusOutput):
        """The standings as last computed, with whether they are up to date."""

        event = serializers.SlugField()
        criterion = serializers.CharField(help_text="What ranks the players first.")
        round_score = _RoundScoreOutput(
            allow_null=True, help_text="How a round is scored (null before the first computation)."
        )
        columns = _ColumnOutput(many=True, help_text="The total, then the tie-breaks in order.")
        rounds = serializers.ListField(
            child=serializers.IntegerField(), help_text="The rounds with results."
        )
        count = serializers.IntegerField(
            required=False,
            help_text="Paged answers only (``page`` or ``page_size`` given): rows in all pages.",
        )
        next = serializers.CharField(
            required=False,
            allow_null=True,
            help_text="Paged answers only: the next page's path and query (null on the last).",
        )
        previous = serializers.CharField(
            required=False,
            allow_null=True,
            help_text="Paged answers only: the previous page's path and query (null on the first).",
        )
        rows = row(many=True)

    return StandingsOutput


_PDF = "application/pdf"

#: rows on a page of the standings API when only ``page`` is given, and the most a page holds
API_PAGE_SIZE = 100
API_PAGE_SIZE_MAX = 500


class StandingsListApi(APIView):
    """The event's standings as last computed: the whole list, or a page of it."""

    permission_classes = [EventVisible]

    class InputSerializer(serializers.Serializer):
        """The query: ``page`` and ``page_size`` (either asks for a page)."""

        page = serializers.IntegerField(required=False, min_value=1, max_value=999_999)
        page_size = serializers.IntegerField(
            required=False, min_value=1, max_value=API_PAGE_SIZE_MAX
        )

    @extend_schema_serializer(component_name="StandingsRow")
    class OutputSerializer(serializers.Serializer):
        place = serializers.IntegerField()
        place_label = serializers.CharField()
        entry = serializers.IntegerField()
        name = serializers.CharField()
        club = serializers.CharField()
        withdrawn = serializers.BooleanField()
        rounds_played = serializers.IntegerField()
        no_result = serializers.BooleanField(
            default=False,
            help_text="No counted round at all: the player has no place (place_label is "
            "'—') and comes after every ranked player.",
        )
        no_result_rounds = serializers.ListField(
            child=serializers.IntegerField(),
            default=list,
            help_text="Rounds closed with the player's table left without a result "
            "(they count nothing).",
        )
        total = serializers.FloatField()
        provisional_total = serializers.FloatField()
        has_provisional = serializers.BooleanField()
        adjustment = serializers.FloatField()
        rounds = serializers.DictField()
        metrics = serializers.DictField()
        decided_by = serializers.CharField(allow_null=True)

    @extend_schema(
        operation_id="standings_retrieve",
        tags=["standings"],
        summary="The event's standings",
        description=(
            "As last computed (never computed per request): the status fields say when and "
            "whether they are up to date. Before the first computation ``columns``, ``rounds`` "
            "and ``rows`` are empty and ``round_score`` is null.\n\n"
            "Without ``page`` and ``page_size`` the answer holds every row (about 2 KB a "
            "player: 2 MB at 1,000 players). With either, it holds one page of rows in "
            "standings order and adds ``count`` (rows in all pages), ``next`` and ``previous`` "
            "(the neighbouring pages' path and query, null at either end); the other fields "
            "are the same. Clients that show or poll a long list should ask for pages. Each "
            "page has its own ``ETag``: a refresh naming it is a 304 until the standings change. "
            "A client that accepts gzip (``Accept-Encoding: gzip``) may get the JSON "
            "compressed (``Content-Encoding: gzip``, an ETag of its own); every answer says "
            "``Vary: Accept-Encoding``."
        ),
        auth=PUBLIC_AUTH,
        parameters=[
            OpenApiParameter(
                "page",
                OpenApiTypes.INT,
                OpenApiParameter.QUERY,
                required=False,
                description=f"A page of rows, from 1 ({API_PAGE_SIZE} rows unless ``page_size``"
                " says otherwise). A page past the last is a 404.",
            ),
            OpenApiParameter(
                "page_size",
                OpenApiTypes.INT,
                OpenApiParameter.QUERY,
                required=False,
                description=f"Rows on a page, 1–{API_PAGE_SIZE_MAX} (the first page unless "
                "``page`` is given).",
            ),
        ],
        responses={
            200: _standings_output(OutputSerializer),
            400: error(
                "``page`` or ``page_size`` is not a whole number in range: ``message`` is "
                '"validation error" and ``extra.fields`` names the parameter.'
            ),
            403: VISIBLE_ONLY,
            404: error(
                "No event with this slug; or ``page`` past the last page (``extra.field`` is "
                '"page", ``extra.pages`` the number of pages).'
            ),
        },
    )
    def get(self, request, slug: str):
        """The whole list's rows are serialised once per stored version and language and kept
        as JSON in the cache (1,000 rows are about 2 MB); a page's rows are serialised when it
        is asked for (an anonymous client's page is then stored whole, ``views.caching``). A
        request naming the current ETag gets a 304."""
        # a plain dict: an empty value is a bad value, not an absent one (as a form's would be)
        query = self.InputSerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        paging = query.validated_data
        event = event_from(self)
        snapshot = standings_header(event=event)
        staff = permissions.can_referee(request.user, event)
        state = _status(snapshot, staff=staff)
        version = snapshot_version(snapshot)
        fmt = request.accepted_renderer.format
        page = (paging.get("page", 1), paging.get("page_size", API_PAGE_SIZE)) if paging else None
        return conditional(
            request,
            # the whole list's ETag as before pages existed; a page's names the page
            etag=page_etag(
                request,
                "standings-api",
                version,
                sorted(state.items()),
                fmt,
                *(() if page is None else (page,)),
            ),
            last_modified=snapshot.computed_at if snapshot is not None else None,
            render=lambda: self._body(
                request, event, snapshot, state, version, page=page, as_json=fmt == "json"
            ),
        )

    def _body(self, request, event, snapshot, state, version: str, *, page, as_json: bool):
        view = standings_view(event=event, snapshot=snapshot)
        head = {
            "event": event.slug,
            **state,
            "criterion": "whists (001 §4.1.3)",
            "round_score": view["data"].get("round_score"),
            "columns": [
                {k: c[k] for k in ("key", "name", "abbr", "ascending")} for c in view["columns"]
            ],
            "rounds": view["rounds"],
        }
        if page is not None:
            return self._page(request, head, view["rows"], *page, as_json=as_json)
        if not as_json:  # the browsable API: rendered by DRF, not cached
            return Response({**head, "rows": self.OutputSerializer(view["rows"], many=True).data})
        key = f"pulka:standings-api:{event.pk}:{version}:{get_language()}"
        rows = cache.get(key)
        if rows is None:
            rows = JSONRenderer().render(self.OutputSerializer(view["rows"], many=True).data)
            cache.set(key, rows, PAGE_CACHE_SECONDS)
        # the bytes DRF's JSON renderer would write for the whole body: "rows" comes last
        body = JSONRenderer().render(head)[:-1] + b',"rows":' + rows + b"}"
        return HttpResponse(body, content_type="application/json")

    def _page(self, request, head: dict, rows: list, number: int, size: int, *, as_json: bool):
        """Page ``number`` of ``size`` rows, with ``count``, ``next`` and ``previous`` (paths
        like the API's other links: a stored answer names no host). JSON is rendered here, as
        the whole list's is, so that ``views.caching`` can store an anonymous client's page."""
        pages = max(1, -(-len(rows) // size))
        if number > pages:
            return Response(
                {"message": "no such page", "extra": {"field": "page", "pages": pages}},
                status=status.HTTP_404_NOT_FOUND,
            )

        def link(n: int) -> str | None:
            return f"{request.path}?page={n}&page_size={size}" if 1 <= n <= pages else None

        start = (number - 1) * size
        body = {
            **head,
            "count": len(rows),
            "next": link(number + 1),
            "previous": link(number - 1),
            "rows": self.OutputSerializer(rows[start : start + size], many=True).data,
        }
        if not as_json:
            return Response(body)
        return HttpResponse(JSONRenderer().render(body), content_type="application/json")


class StandingsStatusApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="standings_status",
        tags=["standings"],
        summary="Whether the standings are up to date",
        auth=PUBLIC_AUTH,
        responses={200: _StatusOutput, 403: VISIBLE_ONLY, 404: NOT_FOUND},
    )
    def get(self, request, slug: str):
        event = event_from(self)
        return Response(
            _status(
                standings_snapshot(event=event), staff=permissions.can_referee(request.user, event)
            )
        )


@extend_schema_serializer(component_name="StandingsRecomputeQueued")
class _RecomputeOutput(StatusUrlOutput):
    """202: the recomputation was queued; poll ``status_url`` (also the ``Location`` header)."""

    job = JobQueuedOutput(help_text="The recomputation's job (issue 25, item 10).")


class StandingsRecomputeApi(APIView):
    permission_classes = [EventReferee]

    @extend_schema(
        operation_id="standings_recompute",
        tags=["standings"],
        summary="Recompute the standings",
        description=(
            "Referees only. Queues a recomputation (no body); poll ``status_url`` (also the "
            "``Location`` header): ``pending`` turns false when it is done. ``job`` is the "
            'queued job: ``state`` "queued" while the job queue is out (the request is kept and '
            "the job sent as soon as the queue is back), and its own ``status_url``."
        ),
        request=None,
        parameters=[location_header(202, description="``status_url``.")],
        responses={202: _RecomputeOutput, 403: REFEREE_ONLY, 404: NOT_FOUND},
    )
    def post(self, request, slug: str):
        event = event_from(self)
        job = standings_schedule(event_id=event.pk)
        url = reverse("api:standings-status", kwargs={"slug": event.slug})
        return Response(
            {"status_url": url, "job": job_output(job, queued_message=STANDINGS_QUEUED)},
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": url},
        )


_ORGANISERS_ONLY = "Only the event's organisers may ask for the players' private links."


class DocumentCreateApi(APIView):
    permission_classes = [EventReferee]

    @extend_schema_serializer(component_name="DocumentCreateInput")
    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=GeneratedFile.Kind.choices)
        round = serializers.IntegerField(required=False, min_value=1)
        table = serializers.IntegerField(required=False, min_value=1)
        paper = serializers.ChoiceField(choices=list(PAPERS), default="A4")

    @extend_schema(
        operation_id="documents_create",
        tags=["documents"],
        summary="Ask for a PDF document",
        description=(
            "Referees only (the players' private links, ``links``: organisers only). ``round`` "
            "is needed for a round's documents (seating, blank protocols), ``round`` and ``table`` for a filled protocol; ``filled`` with ``round`` alone is every table's protocol in one file (progress in the status answer); ``protocols`` is every round's filled protocols in one file (the whole event, no ``round``). 200 when the stored file "
            "is up to date, else 202 while it is rendered; either way fetch it at ``url`` (also "
            "the ``Location`` header). ``job`` is the job rendering it (null when the stored "
            'file was up to date): ``state`` "queued" while the job queue is out (the order is '
            "kept and the document rendered as soon as the queue is back)."
        ),
        request=InputSerializer,
        parameters=[location_header(200, 202, description="``url``: the document.")],
        responses={
            200: _DocumentOutput,
            202: _DocumentOutput,
            400: error(
                "Invalid input (``extra.fields``); or a document that needs a round or a table "
                "without one (``extra.field`` names it)."
            ),
            403: error(
                "Not a referee of the event; or the players' private links (``links``), "
                "which only organisers may ask for."
            ),
            404: error("No event with this slug, or no such round or table."),
        },
    )
    def post(self, request, slug: str):
        event = event_from(self)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        if not permissions.can_request_document(request.user, event, d["kind"]):
            raise PermissionDenied(_ORGANISERS_ONLY)
        round_ = get_object_or_404(Round, event=event, number=d["round"]) if "round" in d else None
        table = (
            get_object_or_404(Table, round=round_, number=d["table"])
            if "table" in d and round_ is not None
            else None
        )
        try:
            f = generated_file_request(
                event=event,
                kind=d["kind"],
                round_=round_,
                table=table,
                paper=d["paper"],
                language=get_language() or "en",
                base_url=request.build_absolute_uri("/"),
            )
        except UserFacingError as error:
            return Response(error.as_dict(), status=status.HTTP_400_BAD_REQUEST)
        url = reverse("api:document", kwargs={"slug": event.slug, "file_id": f.pk})
        code = (
            status.HTTP_200_OK
            if f.status == GeneratedFile.Status.OK
            else (status.HTTP_202_ACCEPTED)
        )
        job = (
            job_since(0, task="tournaments.generated_file_render", key=f"file:{f.pk}")
            if f.status == GeneratedFile.Status.PENDING
            else None
        )
        return Response(
            {
                "id": f.pk,
                "status": f.status,
                "url": url,
                "filename": f.filename,
                "job": job_output(job, queued_message=DOCUMENT_QUEUED),
            },
            status=code,
            headers={"Location": url},
        )


class DocumentDetailApi(APIView):
    permission_classes = [EventVisible]

    @extend_schema(
        operation_id="documents_retrieve",
        tags=["documents"],
        summary="Download a PDF document",
        description=(
            "The file when rendered; 409 while it is being rendered (try again shortly), 410 "
            "when rendering failed (ask for it again). Seating lists, standings and filled "
            "protocols are public with the event; other documents are for its referees."
        ),
        auth=PUBLIC_AUTH,
        parameters=[
            OpenApiParameter(
                "Content-Disposition",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                response=[200],
                description='``inline; filename="…"``: the document\'s file name.',
            )
        ],
        responses={
            (200, _PDF): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF file."),
            403: VISIBLE_ONLY,
            404: error(
                "No event with this slug, or no such document in it; or a referees' document "
                '(blank protocols) asked for by someone else ("not found").'
            ),
            409: error(
                'Being rendered: ``extra.status`` is "pending"; a round\'s filled protocols '
                "also give ``extra.done`` and ``extra.total`` (tables)."
            ),
            410: error("Rendering failed: ``extra.error`` says why."),
        },
    )
    def get(self, request, slug: str, file_id: int):
        event = event_from(self)
        f = get_object_or_404(GeneratedFile, event=event, pk=file_id)
        if not permissions.can_read_document(request.user, event, f.kind):
            return Response({"message": "not found", "extra": {}}, status=404)
        if f.status == GeneratedFile.Status.FAILED:
            return Response(
                {"message": "rendering failed", "extra": {"error": f.error}},
                status=status.HTTP_410_GONE,
            )
        if f.status != GeneratedFile.Status.OK or not f.file:
            return Response(
                {"message": "being rendered", "extra": {"status": f.status, **f.progress}},
                status=status.HTTP_409_CONFLICT,
            )
        return FileResponse(f.file.open("rb"), filename=f.filename, content_type=f.content_type)
