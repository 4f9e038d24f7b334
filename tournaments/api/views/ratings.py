"""API: ratings (issue 41). One class per operation; read-only (a job stores the ratings).

``GET /api/v1/ratings`` — the published rating lists; ``GET /api/v1/ratings/<slug>`` — a list:
its model with its parameters and version, and every person's rating (``?club=``, ``?city=``,
``?active=1`` as the page); ``GET /api/v1/ratings/<slug>/persons/<id>`` — a person's history,
every change with its explanation; ``GET /api/v1/ratings/<slug>/events/<event slug>`` — an
event's changes per person.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.schema import NOT_FOUND, PUBLIC_AUTH
from tournaments.models import Event, Person, RatingList
from tournaments.selectors import ratings as sel

__all__ = ["RatingEventApi", "RatingListApi", "RatingListsApi", "RatingPersonApi"]


def _rating(slug: str) -> RatingList:
    found = get_object_or_404(
        RatingList.objects.select_related("organisation", "series"), slug=slug
    )
    if not found.published:
        raise Http404
    return found


@extend_schema_serializer(component_name="RatingList")
class RatingListOutput(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    family = serializers.CharField(help_text="The rule family rated (rules.variants keys).")
    model = serializers.ChoiceField(choices=RatingList.Model.choices)
    organisation = serializers.CharField(
        source="organisation.slug", allow_null=True, default=None,
        help_text="Only this organisation's events are rated (null: every event of the family).",
    )  # fmt: skip
    series = serializers.CharField(
        source="series.slug", allow_null=True, default=None,
        help_text="Only this series' events are rated.",
    )  # fmt: skip
    status = serializers.ChoiceField(choices=RatingList.Status.choices)
    computed_at = serializers.DateTimeField(allow_null=True)
    spec = serializers.JSONField(
        help_text="The model, its parameters and version the numbers were computed with."
    )


@extend_schema_serializer(component_name="PersonRating")
class PersonRatingOutput(serializers.Serializer):
    person = serializers.IntegerField()
    name = serializers.CharField(help_text="As public pages show it.")
    club = serializers.CharField(allow_blank=True)
    city = serializers.CharField(allow_blank=True)
    rank = serializers.IntegerField(allow_null=True, help_text="Null: provisional, not ranked.")
    rating = serializers.FloatField(help_text="The shown rating (conservative for Weng–Lin).")
    spread = serializers.FloatField(allow_null=True, help_text="The ± shown beside it.")
    tables = serializers.IntegerField()
    provisional = serializers.BooleanField()
    last_played = serializers.DateField()


@extend_schema_serializer(component_name="RatingListDetail")
class RatingListDetailOutput(RatingListOutput):
    ratings = PersonRatingOutput(many=True)


class RatingListsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_list",
        tags=["ratings"],
        summary="List the published ratings",
        responses={200: RatingListOutput(many=True)},
    )
    def get(self, request):
        return Response(RatingListOutput(sel.rating_lists(), many=True).data)


class RatingListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_retrieve",
        tags=["ratings"],
        summary="A rating: its model and every person's rating",
        auth=PUBLIC_AUTH,
        parameters=[
            OpenApiParameter("club", str, description="Only the players of this club."),
            OpenApiParameter("city", str, description="Only the players of this city."),
            OpenApiParameter(
                "active", int, description="1: only those who played in the last year."
            ),
        ],
        responses={200: RatingListDetailOutput, 404: NOT_FOUND},
    )
    def get(self, request, slug):
        rating = _rating(slug)
        table = sel.rating_table(
            rating_list=rating,
            club=request.query_params.get("club", "")[:120],
            city=request.query_params.get("city", "")[:120],
            active=request.query_params.get("active") == "1",
        )
        body = {**RatingListOutput(rating).data, "ratings": table["rows"]}
        return Response(RatingListDetailOutput(body).data)


@extend_schema_serializer(component_name="RatingOpponent")
class RatingOpponentOutput(serializers.Serializer):
    person = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField(help_text="His shown rating before the table.")
    spread = serializers.FloatField(allow_null=True)
    place = serializers.IntegerField()


@extend_schema_serializer(component_name="RatingPart")
class RatingPartOutput(serializers.Serializer):
    key = serializers.CharField(
        help_text='"skill", "certainty" (Weng–Lin); "against", "rounding" (prefko).'
    )
    value = serializers.FloatField()
    person = serializers.IntegerField(allow_null=True, help_text="The opponent it is against.")


@extend_schema_serializer(component_name="RatingChange")
class RatingChangeOutput(serializers.Serializer):
    event = serializers.SlugField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    place = serializers.IntegerField(help_text="1 + the players with a better result.")
    tied = serializers.IntegerField(help_text="Players sharing the place (1: none).")
    size = serializers.IntegerField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    change = serializers.FloatField(help_text="after − before = the sum of the parts.")
    spread = serializers.FloatField(allow_null=True)
    parts = RatingPartOutput(many=True)
    opponents = RatingOpponentOutput(many=True)


@extend_schema_serializer(component_name="RatingHistory")
class RatingHistoryOutput(serializers.Serializer):
    rating = serializers.SlugField()
    person = serializers.IntegerField()
    name = serializers.CharField()
    current = PersonRatingOutput(allow_null=True)
    changes = RatingChangeOutput(many=True)


class RatingPersonApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_person",
        tags=["ratings"],
        summary="A person's rating history, every change explained",
        auth=PUBLIC_AUTH,
        responses={200: RatingHistoryOutput, 404: NOT_FOUND},
    )
    def get(self, request, slug, person_id):
        rating = _rating(slug)
        person = get_object_or_404(Person, pk=person_id)
        history = sel.person_history(rating_list=rating, person=person)
        if not history["changes"]:
            raise Http404
        names = history["names"]
        slugs = {pk: e.slug for pk, e in history["events"].items()}
        current = history["current"]
        name = sel.person_names([person.pk])[person.pk]
        body = {
            "rating": rating.slug,
            "person": person.pk,
            "name": name,
            "current": None
            if current is None
            else {
                "person": person.pk,
                "name": name,
                "club": "" if person.erased_at else person.club,
                "city": "" if person.erased_at else person.city,
                "rank": None,
                "rating": current.shown,
                "spread": current.spread,
                "tables": current.tables,
                "provisional": current.provisional,
                "last_played": current.last_played,
            },  # fmt: skip
            "changes": [
                {
                    **c,
                    "event": slugs[c["event"]],
                    "parts": [{"key": k, "value": v, "person": p} for k, v, p in c["parts"]],
                    "opponents": [
                        {
                            "person": o[0],
                            "name": names.get(o[0], ""),
                            "rating": o[1],
                            "spread": o[2],
                            "place": o[3],
                        }
                        for o in c["opponents"]
                    ],  # fmt: skip
                }
                for c in history["changes"]
            ],
        }
        return Response(RatingHistoryOutput(body).data)


@extend_schema_serializer(component_name="RatingEventRow")
class RatingEventRowOutput(serializers.Serializer):
    person = serializers.IntegerField()
    name = serializers.CharField()
    before = serializers.FloatField(help_text="The rating before the event's first table.")
    after = serializers.FloatField()
    change = serializers.FloatField()
    spread = serializers.FloatField(allow_null=True)
    tables = serializers.IntegerField()


class RatingEventApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_event",
        tags=["ratings"],
        summary="An event's rating changes, per person",
        auth=PUBLIC_AUTH,
        responses={200: RatingEventRowOutput(many=True), 404: NOT_FOUND},
    )
    def get(self, request, slug, event_slug):
        rating = _rating(slug)
        event = get_object_or_404(Event, slug=event_slug, published=True)
        return Response(
            RatingEventRowOutput(sel.event_changes(rating_list=rating, event=event), many=True).data
        )
