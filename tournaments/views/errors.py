"""Error pages: JSON under ``/api/`` (``{"message", "extra"}``, as the API's own errors), the
usual pages elsewhere; a database that cannot be reached (out of connections, down) is a 503
with ``Retry-After`` rather than a 500, on the pages and the API alike.

The pages are the site's own (``tournaments/error.html``, in its layout and the reader's
language), not Django's English defaults; a 500 page that cannot itself be drawn falls back to
Django's plain one.

Django calls these as ``handler400``/``403``/``404``/``500`` (root URLconf) for everything a
view does not answer itself: a URL under ``/api/`` that matches no route, a request body over
the limit, an exception raised anywhere in the middleware or a view.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import defaults

__all__ = [
    "bad_request",
    "database_unavailable",
    "is_api",
    "json_error",
    "not_found",
    "permission_denied",
    "server_error",
]

log = logging.getLogger("pulka.errors")

#: SQLSTATE classes that mean "no connection to be had now": 08 connection exception, 53
#: insufficient resources (53300 too many connections), 57P01–57P03 the server shutting down or
#: starting up.
_UNAVAILABLE_CLASSES = ("08", "53")
_UNAVAILABLE_STATES = ("57P01", "57P02", "57P03")


#: status → the page's heading and sentence
PAGES = {
    400: (
        gettext_lazy("Bad request"),
        gettext_lazy("The page could not understand what your browser sent. Go back and try "
                     "again."),
    ),
    403: (
        gettext_lazy("Not allowed"),
        gettext_lazy("You do not have permission to see this page. Log in with an account "
                     "that has a role in this event, or ask the organiser."),
    ),
    404: (
        gettext_lazy("Page not found"),
        gettext_lazy("There is no such page: check the address, or start from the list of "
                     "events."),
    ),
    500: (
        gettext_lazy("Something went wrong"),
        gettext_lazy("Pulka could not answer this request; it has been logged. Try again in a "
                     "moment, and tell the organiser if it happens again."),
    ),
}


def error_page(request: HttpRequest, status: int) -> HttpResponse:
    """The site's page for ``status`` in the reader's language."""
    heading, text = PAGES[status]
    return render(
        request, "tournaments/error.html", {"heading": heading, "text": text}, status=status
    )


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached now (rather than a query failing):
    an ``OperationalError`` with a connection-class SQLSTATE, or with none at all (the driver
    failed to connect: refused, timed out, or the server refused a new connection)."""
    if not isinstance(exc, OperationalError):
        return False
    state = getattr(exc.__cause__, "sqlstate", None)
    if state is None:
        return True
    return state[:2] in _UNAVAILABLE_CLASSES or state in _UNAVAILABLE_STATES


def json_error(status: int, message: str, **extra: object) -> JsonResponse:
    return JsonResponse({"message": message, "extra": extra}, status=status)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: JSON on the API, a short page elsewhere."""
    retry = settings.PULKA_RETRY_AFTER_SECONDS
    if is_api(request):
        response: HttpResponse = json_error(
            503,
            "The database is busy or unreachable; try again shortly.",
            retry_after=retry,
        )
    else:
        response = HttpResponse(
            "<!doctype html><title>503</title><h1>{}</h1><p>{}</p>".format(
                _("Pulka is busy"),
                _("The database cannot be reached right now. Try again in %(n)d seconds.")
                % {"n": retry},
            ),
            status=503,
        )
    response["Retry-After"] = str(retry)
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return json_error(400, str(exception) if exception else "bad request")
    return error_page(request, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return json_error(403, "You do not have permission to perform this action.")
    return error_page(request, 403)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return json_error(404, "Not found.", path=request.path)
    return error_page(request, 404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls this inside its ``except`` block: the exception is ``sys.exc_info()``."""
    exc = sys.exc_info()[1]
    if database_unavailable(exc):
        log.warning("database unavailable: %s: %s", exc.__class__.__name__, exc)
        return unavailable_response(request)
    if is_api(request):
        return json_error(500, "Internal server error.")
    try:
        return error_page(request, 500)
    except Exception:  # the page itself failed (a template, the session): Django's plain one
        log.exception("the 500 page could not be drawn")
        return defaults.server_error(request)
