"""API: rounds and their draws (list, detail, the seeds committed ahead, draw, publish). One
class per operation (HackSoft).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.access import permissions
from tournaments.api.permissions import EventOrganiser, EventReferee, EventVisible, event_from
from tournaments.api.schema import (
    LOCATION,
    NOT_FOUND,
    ORGANISER_ONLY,
    PUBLIC_AUTH,
    REFEREE_ONLY,
    VISIBLE_ONLY,
    JobFailedOutput,
    JobStartedOutput,
    error,
    location_header,
)
from tournaments.models import Round
from tournaments.selectors.events import (
    PUBLIC_STATES,
    seed_commitments,
    tables_for_round,
)
from tournaments.selectors.sit_out import sitting_out_of_round
from tournaments.services import rounds as round_services


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
