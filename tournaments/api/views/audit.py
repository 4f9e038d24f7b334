"""API: the event's audit log, exported (issue 25, item 5). Read only: the log is append-only."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.permissions import EventChiefReferee, event_from
from tournaments.api.schema import NOT_FOUND, error
from tournaments.words.audit import audit_log_export

__all__ = ["AuditLogApi"]


@extend_schema_serializer(component_name="AuditLogEntry")
class _EntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    user = serializers.CharField(
        allow_null=True, help_text="Who (username); null: a table's or a player's link."
    )
    action = serializers.CharField(help_text='The action\'s code, e.g. "protocol.approved".')
    described = serializers.CharField(help_text="The action in words (the request's language).")
    reason = serializers.CharField(allow_blank=True)
    data = serializers.DictField(help_text="The data recorded with the action.")


@extend_schema_serializer(component_name="AuditLog")
class _LogOutput(serializers.Serializer):
    event = serializers.CharField(help_text="The event's slug.")
    entries = _EntryOutput(many=True, help_text="Every entry, oldest first.")


class AuditLogApi(APIView):
    permission_classes = [EventChiefReferee]

    @extend_schema(
        operation_id="audit_log_export",
        tags=["events"],
        summary="The event's log, every entry",
        description=(
            "Organisers and chief referees. The log is append-only: nobody can change or "
            "delete an entry, so an export taken earlier is a prefix of this one. The same as "
            "the log page's JSON download."
        ),
        responses={
            200: _LogOutput,
            403: error(
                "Not signed in (session or ``Authorization: Token …``), or not an organiser or "
                "chief referee of the event."
            ),
            404: NOT_FOUND,
        },
    )
    def get(self, request, slug):
        event = event_from(self)
        return Response({"event": event.slug, "entries": audit_log_export(event=event)})
