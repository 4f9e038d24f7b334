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

1. the versions the page depends on (``tournaments.web_cache.versions``: the event's and the stored
   standings', tokens under keys named by the event's slug) and the stored response of this
   page (path, allowed query parameters, language) are read in **one cache read**; the page's
   ETag is made of the page and the versions;
2. a request naming that ETag gets a **304** (it reads the versions only);
3. else the stored response (status, headers, body) is sent if it was stored under the current
   versions;
4. else (first view, a change since, eviction, the cache restarted) the view renders from the
   database as before and its 200 is stored with the versions read in step 1, **before** the
   database was read: a change committed meanwhile has replaced them, so that response is never
   served for the newer state. One miss at a time renders a page under given versions (single
   flight, a short lock in the cache): the others wait up to ``FLIGHT_WAIT`` seconds for it and
   serve what it stored if it is stored under the versions they read, else render it
   themselves (the render ended without storing it, or is slow). The pages a hall opens first
   are rendered ahead after a change (``tournaments.web_cache.warm``), through this same path.

**Compressed once**: a body of ``GZIP_MIN_BYTES`` or more is stored gzip-compressed, compressed
when it is stored (once per version), not per request. A client whose ``Accept-Encoding``
accepts gzip (every browser; ``gzip;q=0`` refuses it) gets it as stored, with
``Content-Encoding: gzip`` and its own ETag (the page's, ``-gz`` inside the quotes); the others
get it decompressed (rare: scripts, ``curl`` without ``--compressed``), which keeps one copy per
page in the cache and one value to read per request. A refresh naming either ETag is a 304.
Every answer of these pages says ``Vary: Accept-Encoding``. No stored page holds a CSRF token
(the language switcher is a GET form, ``views.language``): a response that holds one is not
stored (it is the viewer's own), so a secret is never compressed beside a page's text.

When the cache cannot be reached, every page is rendered from the database. Logged-in viewers
(their header differs), HEAD requests and the browsable API keep the database path with its own
ETag (``conditional``), and their bodies uncompressed: a logged-in viewer's page carries a CSRF
token (the logout form), one of the two ingredients of BREACH; those answers are few. The
standings search (``?q=``: any text would make a new page) has its own path without the
database, ``views.standings_search``; its answers, which echo the viewer's text, are not
compressed either.
"""

from __future__ import annotations

import gzip
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
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe, quote_etag
from django.utils.translation import get_language

from tournaments.web_cache import versions as page_cache
from tournaments.web_cache.backend import unreachable
from tournaments.web_cache.kept import Kept

__all__ = [
    "GZIP_MIN_BYTES",
    "PAGE_CACHE_SECONDS",
    "accepts_gzip",
    "conditional",
    "page_etag",
    "public_page",
]

log = logging.getLogger("pulka.page_cache")

#: how long a rendered fragment stays cached: its key changes with every version, so the time
#: only bounds what an old version occupies (and what a player renamed in the admin waits for)
PAGE_CACHE_SECONDS = 3600
#: a stored body this long or longer is kept gzip-compressed (below, the headers outweigh it)
GZIP_MIN_BYTES = 1024
#: zlib's default (and Django's GZipMiddleware's): on a synthetic 1.4 MiB standings JSON, 9 saved
#: 3 % more for 2.3 times the time (79 against 185 ms); decompressing it took 3 ms
_GZIP_LEVEL = 6


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
#: a viewer's CSRF token in a form: such a page is his own, never stored
_CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken"')
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
        if not (value.isascii() and value.isdigit() and len(value) <= 6):
            return None
        parts.append(f"{name}={int(value)}")
    return "&".join(parts)


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (RFC 9110 §12.5.3): ``gzip`` (or
    ``x-gzip``) named with a q-value above 0, or else ``*`` with one; ``gzip;q=0`` refuses.

    >>> accepts_gzip("gzip, deflate, br, zstd"), accepts_gzip("br, gzip;q=0"), accepts_gzip("")
    (True, False, False)
    >>> accepts_gzip("*;q=0.5"), accepts_gzip("identity"), accepts_gzip("gzip;q=0, *")
    (True, False, False)
    """
    named: float | None = None
    anything: float | None = None
    for item in header.split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0  # a malformed weight is no consent
        coding = coding.lower()
        if coding in ("gzip", "x-gzip"):
            named = max(named or 0.0, q)
        elif coding == "*":
            anything = q
    if named is not None:
        return named > 0
    return anything is not None and anything > 0


def _gzip_etag(etag: str) -> str:
    """The compressed representation's ETag: the page's, ``-gz`` inside the quotes."""
    return etag[:-1] + '-gz"'


def _patch(response: HttpResponse, etag: str) -> HttpResponse:
    response.headers["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding"))
    return response


def _not_modified(
    request: HttpRequest, etag: str, last_modified: str | None, *, gzipped: bool = False
):
    """A 304 when the request names ``etag`` or its compressed form (either representation the
    client holds is current), with the ETag it named; a 412 when an ``If-Match`` names neither;
    else None. ``gzipped``: the client would get the compressed form (its ETag goes on a 304
    that answers ``If-Modified-Since`` alone)."""
    stamp = parse_http_date_safe(last_modified) if last_modified else None
    candidates = (_gzip_etag(etag), etag) if gzipped else (etag, _gzip_etag(etag))
    answers = [
        (candidate, get_conditional_response(request, etag=candidate, last_modified=stamp))
        for candidate in candidates
    ]
    matched = [(c, r) for c, r in answers if r is not None and r.status_code == 304]
    if not matched and any(r is None for _c, r in answers):
        return None  # a condition that one of the two representations passes
    candidate, response = (matched or answers)[0]
    if last_modified:
        response.headers["Last-Modified"] = last_modified
    return _patch(response, candidate)


def _stored(response: HttpResponse) -> tuple | None:
    """What is kept of a rendered 200: status, headers, body and whether the body is
    gzip-compressed (when it is ``GZIP_MIN_BYTES`` or longer and compression saves something).
    None for what must not be kept: a cookie, a viewer's CSRF token."""
    if (
        response.status_code != 200
        or not getattr(response, "is_rendered", True)
        or response.streaming
        or response.cookies
        or response.has_header("Set-Cookie")
        or response.has_header("Content-Encoding")
    ):
        return None
    body = response.content
    if response.get("Content-Type", "").startswith("text/html") and _CSRF_INPUT.search(body):
        return None
    drop = {"etag", "content-length"}
    headers = [(k, v) for k, v in response.headers.items() if k.lower() not in drop]
    if len(body) >= GZIP_MIN_BYTES:
        packed = gzip.compress(body, compresslevel=_GZIP_LEVEL, mtime=0)
        if len(packed) < len(body):
            return (response.status_code, headers, packed, True)
    return (response.status_code, headers, body, False)


def _response(stored: tuple, etag: str, *, gzip_ok: bool) -> HttpResponse:
    """The stored response for this client: compressed as stored when it accepts gzip (with the
    compressed form's ETag), else decompressed."""
    _version, status, headers, body, packed = stored
    if packed and not gzip_ok:
        body, packed = gzip.decompress(body), False
    response = HttpResponse(body, status=status)
    for name, value in headers:
        response.headers[name] = value
    if packed:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Content-Length"] = str(len(body))
    return _patch(response, _gzip_etag(etag) if packed else etag)


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
        taken = cache.add(flight, 1, FLIGHT_SECONDS)
    except Exception:
        return ""
    if unreachable(cache):  # answered as an empty cache would: nobody else can hold it
        return ""
    return flight if taken else None


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


#: stored pages this process keeps a copy of (``tournaments.web_cache.kept``): served only under the
#: versions read from the cache for the request, they spare copying a large page (a round's,
#: 16 KiB compressed at 1,000 players; the standings API's whole list, 0.3 MiB) out of Redis
#: for every viewer; ``PULKA_PAGE_KEPT_BYTES`` per process (0: none)
_kept = Kept(512, max_bytes=settings.PULKA_PAGE_KEPT_BYTES)


def _keep(key: str, stored: tuple) -> None:
    _kept.put(key, stored, nbytes=len(stored[3]) + 1)


def public_page(
    *parts: str, query: tuple[str, ...] = (), api: bool = False, slug_kwarg: str = "slug"
):
    """Serve the decorated public view to anonymous viewers from the cache (see the module's
    docstring): ``parts`` are the versions the page depends on (``page_cache.EVENT``,
    ``page_cache.STANDINGS``; a series' ``SERIES``, a person's ``PERSON``), ``query`` the query
    parameters that select a part of it (a page number), ``api``: a JSON answer (the ``Accept``
    header takes part; the browsable API does not use the cache). The view takes the event's
    ``slug`` as a keyword argument (``slug_kwarg`` names another: the series' slug, the
    person's id), under which the versions are kept."""

    def decorator(view):
        def serve(request, *args, **kwargs):
            slug = str(kwargs[slug_kwarg]) if kwargs.get(slug_kwarg) is not None else None
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
            # "z": the stored form with its compression flag (an older form is never read)
            key = "pulka:page:z:" + hashlib.sha256(text.encode()).hexdigest()[:32]
            gzip_ok = accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
            conditional = "HTTP_IF_NONE_MATCH" in request.META
            held_here = _kept.get(key)
            # one cache read: the versions, and the stored page unless a refresh or this process
            # holds a copy (then only the versions: the copy serves if it is of the current ones)
            read = () if conditional or held_here is not None else (key,)
            try:
                versions, found = page_cache.tokens(slug, parts, read)
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
                    return answer
            stored = found.get(key)
            if held_here is not None and held_here[0] == version:
                stored = held_here
            elif not read:  # a refresh that was not a 304, or this process's copy is outdated
                try:
                    stored = cache.get(key)
                except Exception:
                    stored = None
            if stored is not None and stored[0] == version:
                if stored is not held_here:
                    _keep(key, stored)
                last_modified = dict((k.lower(), v) for k, v in stored[2]).get("last-modified")
                answer = _not_modified(request, etag, last_modified, gzipped=gzip_ok and stored[4])
                return answer or _response(stored, etag, gzip_ok=gzip_ok)
            flight = _flight(key, version)
            if flight is None:  # another request renders it: its page, if it comes in time
                stored = _landed(key, version)
                if stored is not None:
                    last_modified = dict((k.lower(), v) for k, v in stored[2]).get("last-modified")
                    answer = _not_modified(
                        request, etag, last_modified, gzipped=gzip_ok and stored[4]
                    )
                    return answer or _response(stored, etag, gzip_ok=gzip_ok)
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
                    else:
                        _keep(key, (version, *keep))
                    _land(flight)  # after the store: the waiting requests find the page
                    answer = _not_modified(
                        request, etag, response.get("Last-Modified"), gzipped=gzip_ok and keep[3]
                    )
                    return answer or _response((version, *keep), etag, gzip_ok=gzip_ok)
            _land(flight)  # not stored (an error page): the waiting requests render it
            return response

        @wraps(view)
        def wrapper(request, *args, **kwargs):
            response = serve(request, *args, **kwargs)
            # one URL, two representations for anonymous viewers: every answer says so
            patch_vary_headers(response, ("Accept-Encoding",))
            return response

        return wrapper

    return decorator
