"""OpenAPI documentation shared by the API's views (drf-spectacular, ``/api/schema/``).

The serializers here only describe responses the views build as plain dicts: nothing validates
or renders with them. Keep them in step with the views (``tests/tournaments/api/test_schema.py``
generates the schema and fails on any warning).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema_serializer
from rest_framework import serializers

from tournaments.seating.progress import Stage

__all__ = [
    "BAD_REQUEST",
    "ErrorOutput",
    "JobDoneOutput",
    "JobFailedOutput",
    "JobRunningOutput",
    "JobStartedOutput",
    "LOCATION",
    "NOT_FOUND",
    "PUBLIC_AUTH",
    "REFEREE_ONLY",
    "ORGANISER_ONLY",
    "StatusUrlOutput",
    "VISIBLE_ONLY",
    "error",
    "location_header",
]


@extend_schema_serializer(component_name="Error")
class ErrorOutput(serializers.Serializer):
    """Every API error: a message for people and details for programs."""

    message = serializers.CharField(help_text="What went wrong, for a person (translated).")
    extra = serializers.DictField(
        help_text=(
            "Details for a program: for invalid input ``{'fields': {field: [messages]}}``; "
            "for a refused step usually ``{'field': ..., 'rule': ...}``; else ``{}``."
        )
    )


def error(description: str, serializer=ErrorOutput) -> OpenApiResponse:
    """An error response: the ``{"message", "extra"}`` envelope, with why it happens."""
    return OpenApiResponse(serializer, description=description)


#: 400 of a view that validates its body with an ``InputSerializer`` and calls a service.
BAD_REQUEST = error(
    'Invalid input: ``message`` is "validation error" and ``extra.fields`` maps each field '
    "to its errors (also a body that is not valid JSON, with ``extra`` empty); or a step the "
    "rules refuse, ``extra.field`` naming the field."
)
#: The security of an ``EventVisible`` read: public for a published event, else a login.
PUBLIC_AUTH = [{"cookieAuth": []}, {"tokenAuth": []}, {}]
#: 403 of an ``EventVisible`` view.
VISIBLE_ONLY = error(
    "The event is not published and the caller is not one of its referees or organisers."
)
#: 403 of an ``EventReferee`` view.
REFEREE_ONLY = error(
    "Not signed in (session or ``Authorization: Token …``), or not a referee, chief referee or "
    "organiser of the event (a session's write also needs its CSRF token)."
)
#: 403 of an ``EventOrganiser`` view.
ORGANISER_ONLY = error(
    "Not signed in (session or ``Authorization: Token …``), or not an organiser of the event "
    "(a session's write also needs its CSRF token)."
)
#: 404 of a view under ``events/<slug>/``.
NOT_FOUND = error("No event with this slug.")


def location_header(*codes: int, description: str) -> OpenApiParameter:
    """The ``Location`` response header of the given status codes."""
    return OpenApiParameter(
        "Location",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        response=list(codes),
        description=description,
    )


#: The ``Location`` header of a 202 that started a job.
LOCATION = location_header(202, description="``status_url``: the job's state.")


@extend_schema_serializer(component_name="JobStarted")
class JobStartedOutput(serializers.Serializer):
    """202: a background job was started; poll ``status_url`` (also the ``Location`` header)."""

    job = serializers.CharField(help_text="The job's id.")
    status_url = serializers.CharField(help_text="``/api/v1/jobs/<job>``: the job's state.")


@extend_schema_serializer(component_name="StatusUrl")
class StatusUrlOutput(serializers.Serializer):
    """202: the work was queued; poll ``status_url`` (also the ``Location`` header)."""

    status_url = serializers.CharField()


@extend_schema_serializer(component_name="JobDone")
class JobDoneOutput(serializers.Serializer):
    """The job is done."""

    state = serializers.CharField(help_text='Always "done".')
    result = serializers.JSONField(
        help_text=(
            "What the job returned. A draw job: "
            '``{"round": number, "tables": count, "summary": {...}}`` (the draw report\'s '
            "summary)."
        )
    )


@extend_schema_serializer(component_name="DrawProgress")
class DrawProgressOutput(serializers.Serializer):
    """How far a draw job's engine has gone (``seating.Progress``)."""

    stage = serializers.ChoiceField(
        choices=[stage.value for stage in Stage],
        help_text=(
            "The engine's stage (``seating.Stage``): building a schedule from a design, the tabu "
            "search, a longer design search, the search from more starts, a cyclic schedule by "
            "CP-SAT, CP-SAT over all rounds, a schedule for a round fewer and the last round searched, "
            "seating each table."
        ),
    )
    step = serializers.IntegerField(help_text="How far the stage has gone (tabu iterations).")
    steps = serializers.IntegerField(
        help_text="The most iterations the stage may take; 0 where the stage cannot say."
    )
    attempt = serializers.IntegerField(help_text="Which tabu start (stage ``restart``), from 1.")
    attempts = serializers.IntegerField(help_text="How many starts the stage may make.")
    at = serializers.DateTimeField(help_text="When the engine said so.")


class JobRunningExtra(serializers.Serializer):
    state = serializers.CharField(
        help_text=(
            "The Celery state: PENDING (queued, or an unknown job id), STARTED, PROGRESS, RETRY."
        )
    )
    step = serializers.CharField(
        required=False, help_text='With PROGRESS: what the job is doing (a draw: "drawing").'
    )
    progress = DrawProgressOutput(
        required=False,
        help_text="A draw job, once its engine has begun: the stage and how far it has gone.",
    )


@extend_schema_serializer(component_name="JobRunning")
class JobRunningOutput(serializers.Serializer):
    """The job is queued or running."""

    message = serializers.CharField(help_text='Always "running".')
    extra = JobRunningExtra()


class JobFailedExtra(serializers.Serializer):
    state = serializers.CharField(help_text='Always "failed".')


@extend_schema_serializer(component_name="JobFailed")
class JobFailedOutput(serializers.Serializer):
    """The job failed."""

    message = serializers.CharField(help_text="Why the job failed.")
    extra = JobFailedExtra()
