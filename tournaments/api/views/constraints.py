"""API: the draw's constraints of an event (entries kept apart, entries at a fixed table). One
class per operation (HackSoft).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.permissions import EventOrganiser, EventReferee, event_from
from tournaments.api.schema import (
    NOT_FOUND,
    ORGANISER_ONLY,
    REFEREE_ONLY,
    error,
)
from tournaments.errors import UserFacingError
from tournaments.services import constraints as constraint_services

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
        raise UserFacingError(
            _("%(field)s: no entry %(pk)s in this event") % {"field": field, "pk": pk},
            {"field": field},
        )
    return entry
