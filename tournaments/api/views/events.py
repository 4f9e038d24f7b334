"""API: events, entries, rounds and draws. One class per operation (HackSoft)."""

from __future__ import annotations

from celery.result import AsyncResult
from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import permissions
from tournaments.api.permissions import EventOrganiser, EventReferee, EventVisible, event_from
from tournaments.errors import UserFacingError
from tournaments.models import Round
from tournaments.selectors.events import (
    PUBLIC_STATES,
    entries_for_event,
    events_public,
    tables_for_round,
)
from tournaments.services import constraints as constraint_services
from tournaments.services import entries as entry_services
from tournaments.services import rounds as round_services


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


class EventListApi(APIView):
    permission_classes = [AllowAny]

    def get(self, request):
        return Response(EventOutput(events_public(), many=True).data)


class EventDetailApi(APIView):
    permission_classes = [EventVisible]

    def get(self, request, slug):
        return Response(EventOutput(event_from(self)).data)


class EntryOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")
    city = serializers.CharField(source="player.city")
    rating = serializers.IntegerField(source="player.rating", allow_null=True)
    status = serializers.CharField()
    joined_round = serializers.IntegerField(allow_null=True)


class EntryListApi(APIView):
    permission_classes = [EventVisible]

    def get(self, request, slug):
        return Response(EntryOutput(entries_for_event(event=event_from(self)), many=True).data)


class EntryRegisterApi(APIView):
    permission_classes = [EventOrganiser]

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        club = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)
        city = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)
        rating = serializers.IntegerField(required=False, allow_null=True, default=None)
        federation_id = serializers.CharField(
            max_length=40, required=False, default="", allow_blank=True
        )

    def post(self, request, slug):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_services.entry_register(
            event=event_from(self), by=request.user, **data.validated_data
        )
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


class EntryImportApi(APIView):
    """POST text/csv (or {"csv": "..."}): all lines or none; 400 lists every bad line."""

    permission_classes = [EventOrganiser]

    def post(self, request, slug):
        text = request.data.get("csv") if hasattr(request.data, "get") else None
        if text is None:
            text = request.body.decode("utf-8-sig", errors="replace")
        created = entry_services.entries_import_csv(
            event=event_from(self), text=text, by=request.user
        )
        return Response({"imported": len(created)}, status=status.HTTP_201_CREATED)


class SeatOutput(serializers.Serializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField(source="entry.player.name")


class TableOutput(serializers.Serializer):
    number = serializers.IntegerField()
    first_dealer = serializers.IntegerField()
    seats = SeatOutput(many=True, source="seats.all")


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.CharField()
    draw_method = serializers.CharField()
    draw_seed_hash = serializers.CharField()
    draw_seed = serializers.SerializerMethodField()

    def get_draw_seed(self, round_):
        # The seed is revealed once the draw is made (commit and reveal).
        return round_.draw_seed if round_.state != Round.State.DRAFT else None


def _visible_rounds(request, event):
    rounds = event.rounds.order_by("number")
    if not permissions.can_referee(request.user, event):
        rounds = rounds.filter(state__in=PUBLIC_STATES)
    return rounds


class RoundListApi(APIView):
    permission_classes = [EventVisible]

    def get(self, request, slug):
        return Response(RoundOutput(_visible_rounds(request, event_from(self)), many=True).data)


class RoundDetailApi(APIView):
    permission_classes = [EventVisible]

    def get(self, request, slug, number):
        round_ = get_object_or_404(_visible_rounds(request, event_from(self)), number=number)
        data = RoundOutput(round_).data
        data["tables"] = TableOutput(tables_for_round(round_=round_), many=True).data
        return Response(data)


class RoundDrawApi(APIView):
    """Draw a round: inline for small events (200), as a Celery job for large ones (202)."""

    permission_classes = [EventOrganiser]

    class InputSerializer(serializers.Serializer):
        method = serializers.ChoiceField(
            choices=["random", "no_repeats", "swiss", "schedule"], required=False
        )
        seed = serializers.CharField(max_length=64, required=False)
        background = serializers.BooleanField(required=False, allow_null=True, default=None)

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

    def post(self, request, slug, number):
        round_ = get_object_or_404(event_from(self).rounds, number=number)
        round_ = round_services.round_publish(round_=round_, by=request.user)
        return Response(RoundOutput(round_).data)


class JobStatusApi(APIView):
    """A background job: 200 with its result when done, 409 while running, 410 on failure."""

    permission_classes = [AllowAny]

    def get(self, request, job_id):
        result = AsyncResult(job_id)
        if result.successful():
            return Response({"state": "done", "result": result.result})
        if result.failed():
            return Response(
                {"message": str(result.result), "extra": {"state": "failed"}},
                status=status.HTTP_410_GONE,
            )
        meta = result.info if isinstance(result.info, dict) else {}
        return Response(
            {"message": "running", "extra": {"state": result.state, **meta}},
            status=status.HTTP_409_CONFLICT,
        )


# --- draw constraints (services.constraints) ----------------------------------------------


class ConstraintsApi(APIView):
    """The draw's constraints: players kept apart and players fixed at a table."""

    permission_classes = [EventReferee]

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

    class InputSerializer(serializers.Serializer):
        first = serializers.IntegerField()
        second = serializers.IntegerField()
        reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)

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

    def delete(self, request, slug, pair_id):
        pair = get_object_or_404(event_from(self).avoidances, pk=pair_id)
        constraint_services.avoidance_remove(avoidance=pair, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FixedTableApi(APIView):
    """POST {"entry", "table", "reason"}: the entry sits at ``table`` in every draw (null: free)."""

    permission_classes = [EventOrganiser]

    class InputSerializer(serializers.Serializer):
        entry = serializers.IntegerField()
        table = serializers.IntegerField(allow_null=True)
        reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)

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
