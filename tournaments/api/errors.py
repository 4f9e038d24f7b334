"""API errors as ``{"message", "extra"}`` (HackSoft): service errors become 400s."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.access import lockout
from tournaments.errors import ApplicationError, UserFacingError


def exception_handler(exc, context):
    if isinstance(exc, lockout.LockedOut):
        # 429 with Retry-After (DRF sets the header from ``wait``) and when to try again.
        exc = exceptions.Throttled(wait=exc.seconds, detail=lockout.message(exc.seconds))
    if isinstance(exc, UserFacingError):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ApplicationError):
        return Response(
            {"message": "internal error", "extra": {}}, status=status.HTTP_500_INTERNAL_SERVER_ERROR
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"message": "validation error", "extra": {"fields": response.data}}
    elif isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        response.data = {"message": str(exc.detail), "extra": {"retry_after": int(exc.wait)}}
    elif isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"message": str(response.data["detail"]), "extra": {}}
    return response
