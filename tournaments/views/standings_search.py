"""The standings page's rows rendered once per stored version and language, and the anonymous
viewer's search answered from them without the database (issue 28).

**The rows** (:func:`row_index`): every row of the standings table is rendered once per stored
version of the standings, language and tie-break labels, each kept with what a search looks in
(:func:`~tournaments.selectors.standings.row_haystack`), in the cache and in this process (the
last few). A page of the standings, or the rows matching a search, is then the table's head,
those rows' HTML and its foot, joined (:func:`found_html`): the same for every viewer.

**The search** (:func:`public_search`): a hall of phones each searching another name must not
send each search to the database. An anonymous viewer's ``?q=…`` (and ``&page=``) is answered
from a *skeleton*: the standings page rendered once per version of the event's public pages
(``page_cache``: the event's and the stored standings' tokens, read in one cache read) and
language, with slots for the search's part of the page (the form, the rows, the pager), the
page's own path (the login link and the language form name it) and the CSRF token. Each search
then matches the cached rows in Python, renders its part, and fills the slots: no query. The
skeleton is built from the database under the tokens read **before** it (a change committed
meanwhile has replaced them, so it is never served for the newer state), stored in the cache and
kept by this process under those tokens: a change shows on the next GET, as on every cached
page. A refresh naming the answer's ETag is a 304. The search text is normalised
(:func:`~tournaments.selectors.standings.search_text`: bounded, without case or accents,
spaces as one) before it is part of the ETag; it is never part of a cache key.

Logged-in viewers, HEAD requests, other query parameters, an unreachable cache and the page
cache switched off keep the database path (``views.standings.standings``), which renders the
same rows through :func:`found_html`.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import re
import secrets
from collections.abc import Callable
from functools import lru_cache, wraps
from operator import itemgetter
from typing import Any, NamedTuple

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.defaultfilters import urlencode
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import escape
from django.utils.http import quote_etag
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.selectors.standings import SEARCH_MAX, row_haystack, search_text, standings_page
from tournaments.views.caching import (
    PAGE_CACHE_SECONDS,
    _anonymous,
    _not_modified,
    _patch,
)
from tournaments.web_cache import versions as page_cache
from tournaments.web_cache.kept import Kept

#: a CSRF token's value in a form (the public pages carry none since the language switcher is a
#: GET form; a page that does gets the viewer's own token in its slot)
_CSRF_VALUE = re.compile(rb'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]+(")')

__all__ = [
    "RowIndex",
    "Skeleton",
    "found_html",
    "new_slots",
    "public_search",
    "row_index",
    "skeleton_of",
    "skeleton_request",
]

log = logging.getLogger("pulka.page_cache")

TABLE_TEMPLATE = "tournaments/standings/_standings_table.html"
ROW_TEMPLATE = "tournaments/standings/_standings_row.html"


class RowIndex(NamedTuple):
    """The standings table rendered by row: ``head`` (up to the first row), ``foot`` (after
    the last), and each row's haystack and HTML in standings order."""

    head: str
    foot: str
    rows: tuple[tuple[str, str], ...]


class Skeleton(NamedTuple):
    """The standings page for an anonymous viewer, with slots (see the module's docstring);
    ``index`` is None when the standings have no rows (the page has no search then)."""

    body: bytes
    found_slot: bytes
    path_slot: str
    csrf_slot: bytes
    index: RowIndex | None
    slug: str
    content_type: str
    last_modified: str | None


#: row indexes and skeletons kept by this process (a few events × languages; 1,000 rows are
#: about 1 MB of HTML)
_kept = Kept(16)


def _digest(*parts: object) -> str:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:32]


def row_index(*, event: Any, view: dict[str, Any], columns: list[dict[str, Any]]) -> RowIndex:
    """The rows of the standings ``view`` (``selectors.standings.standings_view``) rendered
    for the current language, with the tie-break ``columns`` as the page labels them; from this
    process or the cache when rendered before for this version."""
    labels = [(c["key"], c["name"], c["abbr"]) for c in columns]
    key = "pulka:standings-rows:" + _digest(
        event.pk, event.slug, view["standings_version"], get_language(), labels
    )
    found = _kept.get(key)
    if found is None:
        try:
            found = cache.get(key)
        except Exception:
            log.warning("cache unreachable; the standings rows are rendered")
        if found is None:
            found = _render_rows(event, view, columns)
            try:
                cache.set(key, found, PAGE_CACHE_SECONDS)
            except Exception:
                log.warning("cache unreachable; the standings rows are not stored")
        _kept.put(key, found)
    return found


def _render_rows(event: Any, view: dict[str, Any], columns: list[dict[str, Any]]) -> RowIndex:
    slot = f"<!--rows-{secrets.token_hex(8)}-->"
    table = render_to_string(
        TABLE_TEMPLATE,
        {
            "event": event,
            "rounds": view["rounds"],
            "tiebreak_columns": columns,
            "rows_html": mark_safe(slot),
        },
    )
    head, foot = table.split(slot)
    row = get_template(ROW_TEMPLATE)
    return RowIndex(
        head,
        foot,
        tuple((row_haystack(r), row.render({"r": r, "event": event})) for r in view["rows"]),
    )


@lru_cache(maxsize=256)
def _urls(slug: str, language: str | None) -> tuple[str, str]:
    """The standings page's and the CSV's paths of the event ``slug`` in ``language``."""
    return reverse("standings", args=[slug]), reverse("standings-csv", args=[slug])


def found_html(*, slug: str, index: RowIndex, query: str, page: int) -> SafeString:
    """The search's part of the standings page: the form, how many rows are shown, the rows of
    ``page`` (those matching ``query``) and the pager. Written directly, not through a template
    (a search costs 20 µs here against 150 µs in the template engine: it is most of what an
    anonymous search costs beyond a cached page); strings are escaped and numbers localised as a
    template would."""
    shown = standings_page({"rows": index.rows}, query=query, page=page, haystack=itemgetter(0))
    text = shown["query"]
    out = [
        '<form method="get" class="standings-search" role="search">\n  <label for="standings-q">',
        escape(_("Find a player (name, club or city)")),
        '</label>\n  <input type="search" id="standings-q" name="q" value="',
        escape(text),
        '">\n  <button>',
        escape(_("Find")),
        "</button>",
    ]
    standings_url, csv_url = _urls(slug, get_language())
    if text:
        out += [' <a href="', standings_url, '">', escape(_("All players")), "</a>"]
    out += [
        '\n  · <a href="',
        csv_url,
        '" download>',
        escape(_("The whole list (CSV)")),
        '</a>\n</form>\n<p class="muted" id="standings-shown">',
    ]
    if shown["matching"]:
        numbers = {"first": "first_shown", "last": "last_shown", "total": "matching"}
        out.append(
            escape(_("Shown: %(first)s–%(last)s of %(total)s."))
            % {k: localize(shown[v]) for k, v in numbers.items()}
        )
    else:
        out.append(escape(_("No player matches.")))
    out += ["</p>\n", index.head, *(html for _hay, html in shown["page_rows"]), index.foot, "\n"]
    if shown["pages"] > 1:
        again = f"q={urlencode(text)}&amp;" if text else ""
        out += ['<nav class="pager" aria-label="', escape(_("Pages of the standings")), '">']
        for n in shown["page_numbers"]:
            if n == shown["page"]:
                out.append(f'<strong aria-current="page">{localize(n)}</strong> ')
            else:
                out.append(f'<a href="?{again}page={n}">{localize(n)}</a> ')
        out.append("</nav>")
    return mark_safe("".join(out))


# --- the anonymous viewer's search -----------------------------------------------------------


def skeleton_request(request: HttpRequest, path_slot: str) -> HttpRequest:
    """A copy of ``request`` whose full path is ``path_slot`` (no query), to render a skeleton
    with: the page names its path in the login link and the language form."""
    fake = copy.copy(request)
    fake.path = path_slot
    fake.META = {**request.META, "QUERY_STRING": ""}
    return fake


def new_slots() -> tuple[str, str]:
    """A skeleton's found slot and path slot, new for each skeleton: nothing a page shows
    (escaped) can hold them. The path slot's ``@`` tells its two forms apart: HTML-escaped
    (the language form) and URL-encoded (the login link)."""
    nonce = secrets.token_hex(8)
    return f"<!--found-{nonce}-->", f"/@{nonce}@"


def skeleton_of(
    response: HttpResponse,
    *,
    found_slot: str,
    path_slot: str,
    index: RowIndex | None,
    slug: str,
    last_modified: str | None,
) -> Skeleton | None:
    """What is kept of a skeleton rendered as ``response`` (None unless a plain 200)."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    csrf_slot = b"<!--csrf-" + secrets.token_hex(8).encode() + b"-->"
    body, tokens = _CSRF_VALUE.subn(rb"\1" + csrf_slot + rb"\2", response.content)
    if not tokens:  # no form of the page posts: no token, and no CSRF cookie set by a search
        csrf_slot = b""
    return Skeleton(
        body=body,
        found_slot=found_slot.encode(),
        path_slot=path_slot,
        csrf_slot=csrf_slot,
        index=index,
        slug=slug,
        content_type=response.get("Content-Type", "text/html; charset=utf-8"),
        last_modified=last_modified,
    )


def _asked(request: HttpRequest) -> tuple[str, int] | None:
    """The search text (bounded) and page of a request that only searches (``q`` and maybe a
    small ``page``, each once); None for anything else."""
    query = None
    page = 1
    for name, values in request.GET.lists():
        if len(values) != 1:
            return None
        value = values[0]
        if name == "q":
            query = value[:SEARCH_MAX]
        elif name == "page" and value.isascii() and value.isdigit() and len(value) <= 6:
            page = int(value)
        else:
            return None
    return None if query is None else (query, page)


def _answer(request: HttpRequest, skeleton: Skeleton, query: str, page: int) -> HttpResponse:
    full_path = request.get_full_path()
    body = skeleton.body.replace(
        urlencode(skeleton.path_slot).encode(), urlencode(full_path).encode()
    ).replace(escape(skeleton.path_slot).encode(), escape(full_path).encode())
    if skeleton.csrf_slot:
        body = body.replace(skeleton.csrf_slot, get_token(request).encode())
    if skeleton.index is not None:  # last: nothing in the search's part is replaced
        found = found_html(slug=skeleton.slug, index=skeleton.index, query=query, page=page)
        body = body.replace(skeleton.found_slot, found.encode())
    response = HttpResponse(body, content_type=skeleton.content_type)
    if skeleton.last_modified:
        response.headers["Last-Modified"] = skeleton.last_modified
    return response


def public_search(*parts: str, skeleton: Callable[[HttpRequest, str], Skeleton | None]):
    """Answer the decorated standings view's search (``?q=``) for an anonymous viewer without
    the database (see the module's docstring). ``parts``: the versions the page depends on;
    ``skeleton(request, slug)`` renders the page's skeleton from the database (None when the
    event is not public: the view answers). The view takes the event's ``slug`` keyword."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            slug = kwargs.get("slug")
            asked = _asked(request) if slug else None
            if asked is None or not page_cache.enabled() or not _anonymous(request):
                return view(request, *args, **kwargs)
            query, page = asked
            key = "pulka:standings-search:" + _digest(request.path, get_language())
            try:
                versions, _found = page_cache.tokens(slug, parts)
            except Exception:
                log.warning("page cache unreachable; %s served from the database", request.path)
                return view(request, *args, **kwargs)
            version = "\x1f".join(f"{p}={versions[p]}" for p in parts)
            etag = quote_etag("q" + _digest(key, version, search_text(query), page))
            if "HTTP_IF_NONE_MATCH" in request.META:
                answer = _not_modified(request, etag, None)
                if answer is not None:
                    return _patch(answer, etag)
            found = _kept.get((key, version))
            if found is None:
                try:
                    stored = cache.get(key)
                except Exception:
                    stored = None
                if stored is not None and stored[0] == version:
                    found = stored[1]
                else:
                    found = skeleton(request, slug)
                    if found is None:
                        return view(request, *args, **kwargs)
                    try:
                        cache.set(key, (version, found), PAGE_CACHE_SECONDS)
                    except Exception:
                        log.warning("page cache unreachable; %s not stored", request.path)
                _kept.put((key, version), found)
            response = _answer(request, found, query, page)
            answer = _not_modified(request, etag, found.last_modified)
            return _patch(answer or response, etag)

        return wrapper

    return decorator
