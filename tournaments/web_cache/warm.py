"""The public pages a hall opens first, rendered ahead after a change (issue 28): the standings
job, once it has stored a new version, and a round's publication ask for them, so that the
first viewers after the change read them from the cache instead of all rendering them from the
database at once.

The pages (:func:`pages_to_warm`), for each language the site offers (``LANGUAGES``, or
``PULKA_PAGE_WARM_LANGUAGES``): the event's page, the standings (the first page and the others
up to :data:`STANDINGS_PAGES`), the latest published round's public page, the results of the
latest round in play or closed, the cross-table's first group, and the standings API (JSON;
the API is in the default language only).

Each page is requested **through the views themselves**: an anonymous GET (no cookie, no
``Authorization``) goes through the project's middleware and the decorated view
(``views.caching.public_page``), exactly as a viewer's request would, so what is stored is what
that request would store (whatever form the caching layer stores it in), under the versions
read **before** the database (a change committed meanwhile has replaced them: the page is never
served for the newer state). A page already stored under the current versions costs one cache
read. Errors are logged, never raised: a render ahead must not fail the job that asked for it.

:func:`public_pages_warm_schedule` sends the job after the caller's commit (the request that
changed something never renders the pages), only when the page cache is on
(``PULKA_PAGE_CACHE``) and ``PULKA_PAGE_WARM`` (default: on when the jobs run on a worker; off
in the embedded eager mode, where the job would run inline, inside that request); one job per
event waits at a time (a burst of changes is rendered ahead once, by the job that starts after
the last of them).
"""

from __future__ import annotations

import io
import logging
import sys
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest
from django.db import transaction
from django.urls import get_script_prefix, reverse
from django.utils import translation

from tournaments.celery import app
from tournaments.jobs.outbox import jobs_queue
from tournaments.models import Event, Round, StandingsPart
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.events import PUBLIC_STATES
from tournaments.web_cache import versions as page_cache

__all__ = [
    "STANDINGS_PAGES",
    "Page",
    "enabled",
    "languages",
    "pages_to_warm",
    "public_pages_warm",
    "public_pages_warm_schedule",
]

log = logging.getLogger("pulka.page_cache")

#: the standings pages rendered ahead (100 rows each: 1,000 players)
STANDINGS_PAGES = 10
#: what the standings API is asked for with (``views.caching``: each is a stored answer)
API_ACCEPT = ("application/json", "*/*")
#: a job waiting for this event: a newer change finds it and sends no other (seconds: a lost
#: message delays the next render ahead at most this long)
QUEUED_SECONDS = 60

#: the Celery task that renders the pages ahead (``jobs.result_tasks.public_pages_warm``)
TASK = "tournaments.public_pages_warm"

#: (path with its query string, Accept header)
Page = tuple[str, str]


def enabled() -> bool:
    return page_cache.enabled() and bool(getattr(settings, "PULKA_PAGE_WARM", True))


def languages() -> list[str]:
    """The languages whose pages are rendered ahead: ``PULKA_PAGE_WARM_LANGUAGES`` (codes), else
    every language the site offers."""
    offered = [code for code, _name in settings.LANGUAGES]
    chosen = getattr(settings, "PULKA_PAGE_WARM_LANGUAGES", None)
    return [code for code in offered if code in chosen] if chosen else offered


def _queued_key(event_id: int) -> str:
    return f"pulka:warm:queued:{event_id}"


def public_pages_warm_schedule(*, event_id: int) -> None:
    """Render the event's first pages ahead after the current transaction commits (at once
    outside one), as a job. Does nothing when the page cache or the render ahead is off."""
    if not enabled():
        return
    transaction.on_commit(lambda: _send(event_id))


def _send(event_id: int) -> None:
    try:
        if not cache.add(_queued_key(event_id), 1, QUEUED_SECONDS):
            return  # a job waits: it reads the versions when it starts, after this commit
    except Exception:
        log.warning("page cache unreachable; pages of event %s not rendered ahead", event_id)
        return
    try:
        # by name: the task is above this layer (``jobs.result_tasks``, registered at app loading)
        app.tasks[TASK].apply_async(args=[event_id], queue=jobs_queue(), retry=False)
    except Exception:  # the broker out of reach (or, eager, the job itself): never the caller's
        log.exception("render ahead of event %s not sent", event_id)
        try:
            cache.delete(_queued_key(event_id))
        except Exception:
            pass


def pages_to_warm(*, event_id: int) -> list[Page]:
    """The pages of a published event rendered ahead, in each of :func:`languages` (empty for
    an event the public cannot see)."""
    event = Event.objects.filter(pk=event_id, published=True).only("slug").first()
    if event is None:
        return []
    slug = event.slug
    rounds = dict(
        Round.objects.filter(event_id=event_id, state__in=PUBLIC_STATES).values_list(
            "number", "state"
        )
    )
    ranked = StandingsPart.objects.filter(snapshot__event_id=event_id, key__startswith="r:").count()
    pages = min(STANDINGS_PAGES, max(1, -(-ranked // standings_selectors.STANDINGS_PAGE_SIZE)))
    played = [n for n, state in rounds.items() if state != Round.State.PUBLISHED]
    found: list[Page] = []
    for language in languages():
        with translation.override(language):
            standings = reverse("standings", args=[slug])
            found.append((reverse("event", args=[slug]), ""))
            found.append((standings, ""))
            found.extend((f"{standings}?page={n}", "") for n in range(2, pages + 1))
            if rounds:
                found.append((reverse("round-seating", args=[slug, max(rounds)]), ""))
            if played:
                found.append((reverse("standings-round", args=[slug, max(played)]), ""))
            found.append((reverse("standings-cross", args=[slug]), ""))
    api = reverse("api:standings", args=[slug])
    found.extend((api, accept) for accept in API_ACCEPT)
    return found


class _Handler(BaseHandler):
    """The project's middleware and URLs around the views, as a viewer's request meets them."""

    def __init__(self) -> None:
        super().__init__()
        self.load_middleware()


_handler: _Handler | None = None


def _request(page: Page) -> WSGIRequest:
    """An anonymous viewer's GET of ``page``: no cookie, no ``Authorization``."""
    path, accept = page
    path, _, query = path.partition("?")
    prefix = get_script_prefix()
    path_info = "/" + path[len(prefix) :] if path.startswith(prefix) else path
    host = next(
        (h.lstrip(".") for h in settings.ALLOWED_HOSTS if "*" not in h),
        "localhost",
    )
    secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": prefix.rstrip("/"),
        "PATH_INFO": path_info,
        "QUERY_STRING": query,
        "SERVER_NAME": host,
        "SERVER_PORT": "443" if secure else "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host,
        "HTTP_USER_AGENT": "pulka-page-warm",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "https" if secure else "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if accept:
        environ["HTTP_ACCEPT"] = accept
    return WSGIRequest(environ)


def _get(page: Page) -> int:
    global _handler
    if _handler is None:
        _handler = _Handler()
    return _handler.get_response(_request(page)).status_code


def public_pages_warm(*, event_id: int) -> dict[str, Any]:
    """Render ahead the event's first pages (:func:`pages_to_warm`) through their views, each
    stored as a viewer's request would store it. Returns what was done: ``pages`` requested,
    ``failed`` (logged), ``ms``. Never raises."""
    started = time.perf_counter()
    done = {"event": event_id, "pages": 0, "failed": 0}
    pages: list[Page] = []
    try:
        cache.delete(_queued_key(event_id))  # a change from now on sends a job of its own
    except Exception:  # the views would render from the database and store nothing
        log.warning("page cache unreachable; pages of event %s not rendered ahead", event_id)
    else:
        try:
            pages = pages_to_warm(event_id=event_id) if page_cache.enabled() else []
        except Exception:
            log.exception("render ahead of event %s: the pages could not be listed", event_id)
    with translation.override(translation.get_language()):  # the middleware activates each
        for page in pages:
            try:
                status = _get(page)
            except Exception:
                status = None
                log.exception("render ahead of %s failed", page[0])
            done["pages"] += 1
            if status != 200:
                done["failed"] += 1
                if status is not None:
                    log.warning("render ahead of %s answered %s", page[0], status)
    done["ms"] = round(1000 * (time.perf_counter() - started))
    log.info("rendered ahead: %s", done)
    return done
