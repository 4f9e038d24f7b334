"""Standings and documents API.

``GET /api/v1/events/<slug>/standings`` — the stored standings (never computed per request):
when and whether they are up to date, the columns, and one row per player.
``POST …/standings/recompute`` (referees) — 202 with the status URL;
``GET …/standings/status`` — the recomputation's state.
``POST /api/v1/events/<slug>/documents`` (referees) — a PDF: 200 with the download URL when the
stored file is up to date, else 202 with the status URL; ``GET …/documents/<id>`` — 200 with the
file when ready, 409 while it is being rendered, 410 when rendering failed (pretix exporters).
"""

from __future__ import annotations

from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import get_language
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import permissions
from tournaments.api.permissions import EventReferee, EventVisible, event_from
from tournaments.errors import UserFacingError
from tournaments.models import GeneratedFile, Round, Table
from tournaments.pdf import PAPERS
from tournaments.pdf_files import generated_file_request
from tournaments.selectors.standings import standings_snapshot, standings_view
from tournaments.services.standings import standings_schedule

__all__ = [
    "DocumentCreateApi",
    "DocumentDetailApi",
    "StandingsListApi",
    "StandingsRecomputeApi",
    "StandingsStatusApi",
]

PUBLIC_KINDS = {
    GeneratedFile.Kind.SEATING,
    GeneratedFile.Kind.STANDINGS,
    GeneratedFile.Kind.FILLED_PROTOCOL,
}


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


class StandingsListApi(APIView):
    """The event's standings as last computed."""

    permission_classes = [EventVisible]

    class OutputSerializer(serializers.Serializer):
        place = serializers.IntegerField()
        place_label = serializers.CharField()
        entry = serializers.IntegerField()
        name = serializers.CharField()
        club = serializers.CharField()
        withdrawn = serializers.BooleanField()
        rounds_played = serializers.IntegerField()
        total = serializers.FloatField()
        provisional_total = serializers.FloatField()
        has_provisional = serializers.BooleanField()
        adjustment = serializers.FloatField()
        rounds = serializers.DictField()
        metrics = serializers.DictField()
        decided_by = serializers.CharField(allow_null=True)

    def get(self, request, slug: str):
        event = event_from(self)
        view = standings_view(event=event)
        staff = permissions.can_referee(request.user, event)
        return Response(
            {
                "event": event.slug,
                **_status(view["snapshot"], staff=staff),
                "criterion": "whists (001 §4.1.3)",
                "round_score": view["data"].get("round_score"),
                "columns": [
                    {k: c[k] for k in ("key", "name", "abbr", "ascending")} for c in view["columns"]
                ],
                "rounds": view["rounds"],
                "rows": self.OutputSerializer(view["rows"], many=True).data,
            }
        )


class StandingsStatusApi(APIView):
    permission_classes = [EventVisible]

    def get(self, request, slug: str):
        event = event_from(self)
        return Response(
            _status(
                standings_snapshot(event=event), staff=permissions.can_referee(request.user, event)
            )
        )


class StandingsRecomputeApi(APIView):
    permission_classes = [EventReferee]

    def post(self, request, slug: str):
        event = event_from(self)
        standings_schedule(event_id=event.pk)
        url = reverse("api:standings-status", kwargs={"slug": event.slug})
        return Response(
            {"status_url": url}, status=status.HTTP_202_ACCEPTED, headers={"Location": url}
        )


class DocumentCreateApi(APIView):
    permission_classes = [EventReferee]

    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=GeneratedFile.Kind.choices)
        round = serializers.IntegerField(required=False, min_value=1)
        table = serializers.IntegerField(required=False, min_value=1)
        paper = serializers.ChoiceField(choices=list(PAPERS), default="A4")

    def post(self, request, slug: str):
        event = event_from(self)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
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
        return Response(
            {"id": f.pk, "status": f.status, "url": url, "filename": f.filename},
            status=code,
            headers={"Location": url},
        )


class DocumentDetailApi(APIView):
    permission_classes = [EventVisible]

    def get(self, request, slug: str, file_id: int):
        event = event_from(self)
        f = get_object_or_404(GeneratedFile, event=event, pk=file_id)
        if f.kind not in PUBLIC_KINDS and not permissions.can_referee(request.user, event):
            return Response({"message": "not found", "extra": {}}, status=404)
        if f.status == GeneratedFile.Status.FAILED:
            return Response(
                {"message": "rendering failed", "extra": {"error": f.error}},
                status=status.HTTP_410_GONE,
            )
        if f.status != GeneratedFile.Status.OK or not f.file:
            return Response(
                {"message": "being rendered", "extra": {"status": f.status}},
                status=status.HTTP_409_CONFLICT,
            )
        return FileResponse(f.file.open("rb"), filename=f.filename, content_type=f.content_type)
