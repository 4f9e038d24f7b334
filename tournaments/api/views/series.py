"""API: leagues and cups (issue 39). One class per operation.

``GET /api/v1/series`` — the published series; ``GET /api/v1/series/<slug>`` — a series, its
rules and events; ``GET /api/v1/series/<slug>/standings`` — its stored table (never computed
per request) with each event's points, counted ones marked; ``GET /api/v1/persons/<id>`` — a
person's results in the published events and his places in the published series, his name as
public pages show it. An unpublished series is its organisers' only.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.access.organisations import can_organise_series
from tournaments.api.schema import NOT_FOUND, PUBLIC_AUTH
from tournaments.models import Person, Series, SeriesStandingsSnapshot
from tournaments.selectors.series import person_record, series_list, series_table

__all__ = ["PersonDetailApi", "SeriesDetailApi", "SeriesListApi", "SeriesStandingsApi"]


def _series_from(request, slug: str) -> Series:
    series = get_object_or_404(Series.objects.select_related("organisation"), slug=slug)
    if not series.published and not can_organise_series(request.user, series):
        raise Http404
    return series


@extend_schema_serializer(component_name="SeriesEvent")
class SeriesEventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.SlugField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    published = serializers.BooleanField()
    final = serializers.BooleanField(help_text="Every round played and closed.")
    category = serializers.CharField(allow_blank=True)
    weight = serializers.CharField(help_text="The event's points are multiplied by it (decimal).")
    players = serializers.IntegerField(help_text="Persons placed in the event.")


@extend_schema_serializer(component_name="SeriesRules")
class SeriesRulesOutput(serializers.Serializer):
    points = serializers.ChoiceField(choices=Series.Points.choices)
    place_points = serializers.ListField(
        child=serializers.FloatField(), help_text="Points for 1st, 2nd … place."
    )
    best_of = serializers.IntegerField(allow_null=True, help_text="Events counted (null: all).")
    min_events = serializers.IntegerField(help_text="Events needed to be ranked.")
    tiebreaks = serializers.ListField(child=serializers.CharField())


@extend_schema_serializer(component_name="Series")
class SeriesOutput(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    season = serializers.CharField(allow_blank=True)
    organisation = serializers.CharField(source="organisation.name")
    family = serializers.CharField(help_text="The rule family of its events.")


class SeriesListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="series_list",
        tags=["series"],
        summary="List the published series (leagues and cups)",
        responses={200: SeriesOutput(many=True)},
    )
    def get(self, request):
        return Response(SeriesOutput(series_list(), many=True).data)


@extend_schema_serializer(component_name="SeriesDetail")
class SeriesDetailOutput(SeriesOutput):
    final = serializers.BooleanField(help_text="Every event of the series is finished.")
    rules = SeriesRulesOutput(allow_null=True, help_text="Null before the first computation.")
    events = SeriesEventOutput(many=True)


class SeriesDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="series_retrieve",
        tags=["series"],
        summary="A series: its rules and events",
        auth=PUBLIC_AUTH,
        responses={200: SeriesDetailOutput, 404: NOT_FOUND},
    )
    def get(self, request, slug):
        series = _series_from(request, slug)
        table = series_table(series=series)
        body = {
            **{f: getattr(series, f) for f in ("slug", "name", "season", "family")},
            "organisation": series.organisation,
            "final": table["final"],
            "rules": table["rules"] or None,
            "events": table["events"],
        }
        return Response(SeriesDetailOutput(body).data)


@extend_schema_serializer(component_name="SeriesCell")
class SeriesCellOutput(serializers.Serializer):
    event = serializers.SlugField()
    points = serializers.FloatField()
    place = serializers.IntegerField(help_text="The person's place in the event.")
    counted = serializers.BooleanField(help_text="Among the best events that count.")
    final = serializers.BooleanField(help_text="False: the event is still in play.")


@extend_schema_serializer(component_name="SeriesRow")
class SeriesRowOutput(serializers.Serializer):
    person = serializers.IntegerField()
    name = serializers.CharField(help_text="As public pages show it (a name or its initials).")
    club = serializers.CharField(allow_blank=True)
    place = serializers.IntegerField(
        allow_null=True, help_text="Null: below the minimum number of events."
    )
    place_label = serializers.CharField(help_text='"3", a shared "3–4", or "—".')
    total = serializers.FloatField()
    events_played = serializers.IntegerField()
    decided_by = serializers.CharField(
        allow_null=True, help_text="The tie-break that set the person below the one above."
    )
    events = SeriesCellOutput(many=True)


@extend_schema_serializer(component_name="SeriesStandings")
class SeriesStandingsOutput(serializers.Serializer):
    series = serializers.SlugField()
    status = serializers.ChoiceField(
        choices=SeriesStandingsSnapshot.Status.choices,
        help_text='The last recomputation\'s state ("pending" before the first).',
    )
    pending = serializers.BooleanField(help_text="A recomputation is queued or running.")
    computed_at = serializers.DateTimeField(allow_null=True)
    final = serializers.BooleanField(help_text="False: provisional (an event is not finished).")
    rows = SeriesRowOutput(many=True)


class SeriesStandingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="series_standings",
        tags=["series"],
        summary="A series' standings as last computed",
        auth=PUBLIC_AUTH,
        responses={200: SeriesStandingsOutput, 404: NOT_FOUND},
    )
    def get(self, request, slug):
        series = _series_from(request, slug)
        table = series_table(series=series)
        snapshot = table["snapshot"]
        slugs = {e["id"]: e.get("slug", "") for e in table["events"]}
        rows = [
            {
                **row,
                "events": [
                    {"event": slugs[e["id"]], **cell}
                    for e, cell in zip(table["events"], row["cells"], strict=True)
                    if cell is not None
                ],
            }
            for row in table["rows"]
        ]
        body = {
            "series": series.slug,
            "status": snapshot.status if snapshot else "pending",
            "pending": table["pending"],
            "computed_at": snapshot.computed_at if snapshot else None,
            "final": table["final"],
            "rows": rows,
        }
        return Response(SeriesStandingsOutput(body).data)


@extend_schema_serializer(component_name="PersonResult")
class PersonResultOutput(serializers.Serializer):
    event = serializers.SlugField(source="event.slug")
    event_name = serializers.CharField(source="event.name")
    starts_on = serializers.DateField(source="event.starts_on")
    place = serializers.CharField(allow_null=True)
    total = serializers.FloatField(allow_null=True)
    rounds_played = serializers.IntegerField()


@extend_schema_serializer(component_name="PersonSeriesPlace")
class PersonSeriesOutput(serializers.Serializer):
    series = serializers.SlugField(source="series.slug")
    series_name = serializers.CharField(source="series.name")
    place = serializers.CharField()
    total = serializers.FloatField()


@extend_schema_serializer(component_name="Person")
class PersonOutput(serializers.Serializer):
    id = serializers.IntegerField(source="person.pk")
    name = serializers.CharField(help_text="As public pages show it (a name or its initials).")
    results = PersonResultOutput(many=True)
    series = PersonSeriesOutput(many=True)


class PersonDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="persons_retrieve",
        tags=["series"],
        summary="A person's results across the published events and series",
        responses={200: PersonOutput, 404: NOT_FOUND},
    )
    def get(self, request, person_id):
        person = get_object_or_404(Person, pk=person_id)
        record = person_record(person=person, public=True)
        if not record["results"]:
            raise Http404
        return Response(PersonOutput({**record, "name": person.public_name}).data)
