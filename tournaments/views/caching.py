"""Conditional GET for the public pages and the standings API, and the anonymous viewer's
pages served without the database (issue 28).

A page whose content changes only with a version (a round's ``public_version``, the stored
standings' version) answers a refresh that names its current ETag with a 304 and no body: a
hall of phones refreshing the standings costs the server a query or two each. The ETag is the
version and what else the page shows depends on: the language, who is logged in (the header's
links), pending messages (shown once), and whatever the caller adds (the event's name).

``Cache-Control: private, no-cache`` makes browsers ask every time (never show a stale page
from their own heuristics) and keeps shared caches out: the page carries the viewer's header.

**Without the database** (:func:`public_page`, the event's page, a round's public page, the
standings and their pages, CSVs and API): a GET by an anonymous viewer — no session cookie, no
pending messages, no ``Authorization`` header — is answered from the cache when it can be:

1. the versions the page depends on (``tournaments.page_cache``: the event's and the stored
   standings', tokens under keys named by the event's slug) and the stored response of this
   page (path, allowed query parameters, language) are read in **one cache read**; the page's
   ETag is made of the page and the versions;
2. a request naming that ETag gets a **304** (it reads the versions only);
3. else the stored response (status, headers, body) is sent if it was stored under the current
   versions; the CSRF token of the language form is written into it per request (the stored
   body holds a placeholder; the token comes from the viewer's own cookie, or a new one that
   the CSRF middleware sets);
4. else (first view, a change since, eviction, the cache restarted) the view renders from the
   database as before and its 200 is stored with the versions read in step 1, **before** the
   database was read: a change committed meanwhile has replaced them, so that response is never
   served for the newer state. One miss at a time renders a page under given versions (single
   flight, a short lock in the cache): the others wait up to ``FLIGHT_WAIT`` seconds for it and
   serve what it stored if it is stored under the versions they read, else render it
   themselves (the render ended without storing it, or is slow). The pages a hall opens first
   are rendered ahead after a change (``tournaments.page_warm``), through this same path.

When the cache cannot be reached, every page is rendered from the database. Logged-in viewers
(their header differs), search results (``?q=``: rare, and any text makes a new key), HEAD
requests and the browsable API keep the database path with its own ETag (``conditional``).
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable
from datetime import datetime
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe, quote_etag
from django.utils.translation import get_language

from tournaments import page_cache

__all__ = ["PAGE_CACHE_SECONDS", "conditional", "page_etag", "public_page"]

log = logging.getLogger("pulka.page_cache")

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


# --- the anonymous viewer's pages, without the database --------------------------------------

#: the request headers a view must not see on the anonymous path: it renders a 200 to store,
#: and the validators are checked against the stored response
_CONDITIONAL = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE")
_CSRF_INPUT = re.compile(rb'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]+(")')
_CSRF_SLOT = b"@@pulka-csrf@@"
#: what an API client may ask for and still get the stored JSON
_JSON_ACCEPT = ("", "*/*", "application/json")


def _anonymous(request: HttpRequest) -> bool:
    cookies = request.COOKIES
    return (
        request.method == "GET"
        and settings.SESSION_COOKIE_NAME not in cookies
        and "messages" not in cookies
        and "HTTP_AUTHORIZATION" not in request.META
    )


def _query_key(request: HttpRequest, allowed: tuple[str, ...]) -> str | None:
    """The query string as part of a key: only ``allowed`` parameters, each a small whole
    number; None when the request has anything else (served from the database)."""
    parts = []
    for name, values in sorted(request.GET.lists()):
        if name not in allowed or len(values) != 1:
            return None
        value = values[0]
        if not (value.isdigit() and len(value) <= 6):
            return None
        parts.append(f"{name}={int(value)}")
    return "&".join(parts)


def _patch(response: HttpResponse, etag: str) -> HttpResponse:
    response.headers["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def _not_modified(request: HttpRequest, etag: str, last_modified: str | None):
    stamp = parse_http_date_safe(last_modified) if last_modified else None
    response = get_conditional_response(request, etag=etag, last_modified=stamp)
    if response is not None and last_modified:
        response.headers["Last-Modified"] = last_modified
    return response


def _stored(response: HttpResponse) -> tuple | None:
    """What is kept of a rendered 200: status, headers and body (the CSRF token made a slot)."""
    if (
        response.status_code != 200
        or not getattr(response, "is_rendered", True)
        or response.streaming
        or response.cookies
        or response.has_header("Set-Cookie")
    ):
        return None
    body = response.content
    csrf = False
    if response.get("Content-Type", "").startswith("text/html"):
        body, count = _CSRF_INPUT.subn(rb"\1" + _CSRF_SLOT + rb"\2", body)
        csrf = count > 0
    headers = [(k, v) for k, v in response.headers.items() if k.lower() != "etag"]
    return (response.status_code, headers, body, csrf)


def _response(request: HttpRequest, stored: tuple) -> HttpResponse:
    _version, status, headers, body, csrf = stored
    if csrf:
        body = body.replace(_CSRF_SLOT, get_token(request).encode())
    response = HttpResponse(body, status=status)
    for name, value in headers:
        response.headers[name] = value
    return response


#: single flight: how long a miss's render holds the page (seconds; a render that dies frees it
#: then), and how long the other misses of that page under the same versions wait for it before
#: they render it themselves
FLIGHT_SECONDS = 10
FLIGHT_WAIT = 2.0
FLIGHT_STEP = 0.05


def _flight_key(key: str, version: str) -> str:
    return f"{key}:flight:" + hashlib.sha256(version.encode()).hexdigest()[:16]


def _flight(key: str, version: str) -> str | None:
    """Take the render of the page ``key`` under ``version``: the flight's key, or None when
    another request holds it. An unreachable cache renders (the database path)."""
    flight = _flight_key(key, version)
    try:
        return flight if cache.add(flight, 1, FLIGHT_SECONDS) else None
    except Exception:
        return ""


def _land(flight: str | None) -> None:
    if flight:
        try:
            cache.delete(flight)
        except Exception:
            pass


def _landed(key: str, version: str) -> tuple | None:
    """The page stored by the request that renders it, if it is stored under ``version`` (the
    versions this request read: never an older page) within ``FLIGHT_WAIT`` seconds."""
    deadline = time.monotonic() + FLIGHT_WAIT
    flight = _flight_key(key, version)
    while time.monotonic() < deadline:
        time.sleep(FLIGHT_STEP)
        try:
            found = cache.get_many([key, flight])
        except Exception:
            return None
        stored = found.get(key)
        if stored is not None and stored[0] == version:
            return stored
        if flight not in found:  # the render ended without storing this version's page
            return None
    return None


def public_page(*parts: str, query: tuple[str, ...] = (), api: bool = False):
    """Serve the decorated public view to anonymous viewers from the cache (see the module's
    docstring): ``parts`` are the versions the page depends on (``page_cache.EVENT``,
    ``page_cache.STANDINGS``), ``query`` the query parameters that select a part of it (a page
    number), ``api``: a JSON answer (the ``Accept`` header takes part; the browsable API
    does not use the cache). The view takes the event's ``slug`` as a keyword argument."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            slug = kwargs.get("slug")
            query_key = _query_key(request, query) if slug else None
            accept = request.META.get("HTTP_ACCEPT", "").strip() if api else ""
            if (
                query_key is None
                or not page_cache.enabled()
                or not _anonymous(request)
                or accept not in _JSON_ACCEPT
            ):
                return view(request, *args, **kwargs)
            text = "\x1f".join((request.path, query_key, get_language() or "", accept))
            key = "pulka:page:" + hashlib.sha256(text.encode()).hexdigest()[:32]
            conditional = "HTTP_IF_NONE_MATCH" in request.META
            try:  # one cache read: the versions, and the stored page unless a refresh
                versions, found = page_cache.tokens(slug, parts, () if conditional else (key,))
            except Exception:  # the cache is out of reach: the database path
                log.warning("page cache unreachable; %s served from the database", request.path)
                return view(request, *args, **kwargs)
            version = "\x1f".join(f"{p}={versions[p]}" for p in parts)
            etag = quote_etag(
                "a" + hashlib.sha256(f"{text}\x1e{version}".encode()).hexdigest()[:32]
            )
            if conditional:
                answer = _not_modified(request, etag, None)
                if answer is not None:
                    return _patch(answer, etag)
                try:
                    found = {key: cache.get(key)}
                except Exception:
                    found = {}
            stored = found.get(key)
            if stored is not None and stored[0] == version:
                last_modified = dict((k.lower(), v) for k, v in stored[2]).get("last-modified")
                answer = _not_modified(request, etag, last_modified)
                return _patch(answer or _response(request, stored), etag)
            flight = _flight(key, version)
            if flight is None:  # another request renders it: its page, if it comes in time
                stored = _landed(key, version)
                if stored is not None:
                    last_modified = dict((k.lower(), v) for k, v in stored[2]).get("last-modified")
                    answer = _not_modified(request, etag, last_modified)
                    return _patch(answer or _response(request, stored), etag)
            held = {h: request.META.pop(h) for h in _CONDITIONAL if h in request.META}
            try:
                response = view(request, *args, **kwargs)
            except BaseException:
                _land(flight)
                raise
            finally:
                request.META.update(held)
            if not api or response.get("Content-Type", "").startswith("application/json"):
                keep = _stored(response)
                if keep is not None:
                    try:
                        cache.set(key, (version, *keep), PAGE_CACHE_SECONDS)
                    except Exception:
                        log.warning("page cache unreachable; %s not stored", request.path)
                    _land(flight)  # after the store: the waiting requests find the page
                    answer = _not_modified(request, etag, response.get("Last-Modified"))
                    if answer is not None:
                        return _patch(answer, etag)
                    return _patch(response, etag)
            _land(flight)  # not stored (an error page): the waiting requests render it
            return response

        return wrapper

    return decorator
