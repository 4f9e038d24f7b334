"""Conditional GET for the public pages and the standings API (issue 28).

A page whose content changes only with a version (a round's ``public_version``, the stored
standings' version) answers a refresh that names its current ETag with a 304 and no body: a
hall of phones refreshing the standings costs the server a query or two each. The ETag is the
version and what else the page shows depends on: the language, who is logged in (the header's
links), pending messages (shown once), and whatever the caller adds (the event's name).

``Cache-Control: private, no-cache`` makes browsers ask every time (never show a stale page
from their own heuristics) and keeps shared caches out: the page carries the viewer's header.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, quote_etag
from django.utils.translation import get_language

__all__ = ["PAGE_CACHE_SECONDS", "conditional", "page_etag"]

#: how long a rendered fragment stays cached: its key changes with every version, so the time
#: only bounds what an old version occupies (and what a player renamed in the admin waits for)
PAGE_CACHE_SECONDS = 3600


def _viewer(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    who = f"u{user.pk}" if user is not None and user.is_authenticated else "anon"
    waiting = len(messages.get_messages(request)) if hasattr(request, "_messages") else 0
    return f"{who}:{get_language()}:{'m' if waiting else ''}"


def page_etag(request: HttpRequest, *parts: object) -> str:
    """The quoted ETag of a page made from ``parts`` (versions, the event's fields) for this
    viewer and language."""
    text = "\x1f".join(map(str, (*parts, _viewer(request))))
    return quote_etag(hashlib.sha256(text.encode()).hexdigest()[:32])


def conditional(
    request: HttpRequest,
    *,
    etag: str,
    last_modified: datetime | None,
    render: Callable[[], HttpResponse],
) -> HttpResponse:
    """304 (or 412) when the request's validators match, else ``render()``; either way with
    the ETag, Last-Modified and no-cache headers."""
    stamp = int(last_modified.timestamp()) if last_modified is not None else None
    response = get_conditional_response(request, etag=etag, last_modified=stamp)
    if response is None:
        response = render()
    if response.status_code in (200, 304):
        response.headers["ETag"] = etag
        if stamp is not None:
            response.headers["Last-Modified"] = http_date(stamp)
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response
