"""Request-level guards that answer before any view runs."""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.access import lockout
from tournaments.views.errors import is_api, json_error

__all__ = [
    "ContentSecurityPolicyMiddleware",
    "LockoutMiddleware",
    "NulCharacterMiddleware",
    "RequestBodyLimitMiddleware",
    "UntrustedProxyMiddleware",
]

log = logging.getLogger("pulka.security")


class RequestBodyLimitMiddleware:
    """A request whose declared body is over ``MAX_REQUEST_BODY`` bytes is answered 413 before
    a byte of it is read: JSON on the API, a short page elsewhere. (Django's own
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` guards form fields only, not the API's JSON bodies or file
    uploads; a body without a ``Content-Length`` is not read at all.)"""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.MAX_REQUEST_BODY
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            if is_api(request):
                return json_error(
                    413,
                    f"The request body is {length} bytes; at most {limit} are accepted.",
                    limit=limit,
                )
            return HttpResponse(
                "<!doctype html><title>413</title><h1>{}</h1>".format(
                    _("The request is too large (at most %(n)d bytes).") % {"n": limit}
                ),
                status=413,
            )
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    """Every answer carries ``settings.CONTENT_SECURITY_POLICY`` (issue 38; empty: none) unless
    a view set its own."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response


class UntrustedProxyMiddleware:
    """Warns once per process (on ``pulka.security``) when requests arrive through a proxy that
    ``TRUSTED_PROXIES`` does not count: with an ``X-Forwarded-For`` header and no proxy trusted,
    every caller seems to be the proxy, and one guesser's failures would slow everybody behind
    it (issue 38; docs/deployment.md, "The proxy in front")."""

    warned = False

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not UntrustedProxyMiddleware.warned and "HTTP_X_FORWARDED_FOR" in request.META:
            hops = len([a for a in request.META["HTTP_X_FORWARDED_FOR"].split(",") if a.strip()])
            if not settings.TRUSTED_PROXIES:
                UntrustedProxyMiddleware.warned = True
                log.warning(
                    "requests arrive through a proxy (X-Forwarded-For from %s) but "
                    "TRUSTED_PROXIES is 0: every caller counts as the proxy's address for the "
                    "lockouts; set TRUSTED_PROXIES to the number of proxies in front "
                    "(docs/deployment.md)",
                    request.META.get("REMOTE_ADDR", "?"),
                )
            elif hops < settings.TRUSTED_PROXIES:
                UntrustedProxyMiddleware.warned = True
                log.warning(
                    "TRUSTED_PROXIES is %d but a request came through %d: the lockouts count "
                    "it by its socket's address",
                    settings.TRUSTED_PROXIES, hops,
                )  # fmt: skip
        return self.get_response(request)


class LockoutMiddleware:
    """A view that raised :class:`tournaments.access.lockout.LockedOut` (a key page, too many wrong
    keys from this address) answers 429 with ``Retry-After`` and a page saying when to try
    again (JSON under ``/api/``; the API's own views answer through its exception handler)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, lockout.LockedOut):
            return None
        text = lockout.message(exception.seconds)
        if is_api(request):
            response = json_error(429, text, retry_after=exception.seconds)
        else:
            response = render(request, "tournaments/locked.html", {"message": text}, status=429)
        response["Retry-After"] = str(exception.seconds)
        return response


class NulCharacterMiddleware:
    """A NUL character in the URL's path, a form field or a query parameter is refused with 400
    naming the field (PostgreSQL cannot store or compare text holding one, platform.md; a key
    or a slug in the path reaches a query, issue 38): no page or API call
    turns it into a 500. (Django's form fields refuse it already; views reading a field
    directly did not.) The API's JSON bodies are checked by its serializers."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:  # a key, a slug, a job's id (issue 38)
            return self._refuse(request, None)
        sources = [request.GET]
        if request.method == "POST" and not is_api(request):
            sources.append(request.POST)
        for data in sources:
            for name, values in data.lists():
                if "\x00" in name or any("\x00" in v for v in values):
                    return self._refuse(request, name.replace("\x00", "\\0"))
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, field: str | None) -> HttpResponse:
        if field is None:
            text = _("The address holds a NUL character, which no address may contain.")
        else:
            text = _("The field %(field)s holds a NUL character, which no text may contain.") % {
                "field": repr(field)
            }
        if is_api(request):
            return json_error(400, text, **({"field": field} if field is not None else {}))
        return render(request, "tournaments/bad_input.html", {"message": text}, status=400)
