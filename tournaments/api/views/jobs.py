"""API: a background job's state (200 done, 409 running, 410 failed; pretix's exporters)."""

from __future__ import annotations

from celery.result import AsyncResult
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.schema import (
    JobDoneOutput,
    JobFailedOutput,
    JobRunningOutput,
    error,
)
from tournaments.models import Job


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
