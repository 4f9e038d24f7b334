"""Garbage posted to every page is a form error (4xx, or the page again with the error), never a
500 (issue 25, item 8). Every route of the site's pages is posted to — the test fails when a
page is added that it does not reach — with every field any view or form reads set to values
that are not what the field wants: words for numbers, numbers out of range, NUL characters,
calls that are not calls, and each branch (``action``, ``kind``, ``status``) taken in turn."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.factories import UserFactory
from tests.tournaments.protocols.conftest import make_table
from tournaments import forms as pulka_forms
from tournaments.models import EventRole

pytestmark = pytest.mark.django_db

VIEWS = Path(__file__).resolve().parents[3] / "tournaments" / "views"
_READ = re.compile(r"""request\.POST(?:\.get|\.getlist|\.pop)?[(\[]\s*["']([A-Za-z_0-9]+)["']""")


def posted_fields() -> set[str]:
    """Every field name the views read from ``request.POST`` or their forms declare, plus the
    numbered ones they build (``tricks_0``, ``call_1``, ``choice_…``)."""
    names = set()
    for source in VIEWS.glob("*.py"):
        names |= set(_READ.findall(source.read_text(encoding="utf-8")))
    for value in vars(pulka_forms).values():
        if isinstance(value, type) and hasattr(value, "base_fields"):
            names |= set(value.base_fields)
    names |= {f"tricks_{p}" for p in range(4)} | {f"call_{p}" for p in range(4)}
    names |= {"choice_0", "choice_deal_1", "choice_ending"}
    return names - {"csrfmiddlewaretoken", "next", "language"}


#: Values that are not what a field wants.
GARBAGE = ["x", "-1", "0", "99999999999999999999", "1/0", "\x00", "", "7♠ "]
#: Values of the fields that choose a branch (``action``, ``kind``, ``status`` …): each known
#: branch is taken with garbage in every other field.
BRANCHES = [
    "add", "replace", "delete", "ending", "raspasy", "ruling", "appeal", "revoke", "apart-add",
    "apart-remove", "fix-table", "changed", "upheld", "catalogue", "event", "recompute",
    "settings", "config", "adjust", "generate", "blank", "protocols", "seating", "standings",
    "tiebreaks", "capped", "scaled",
]  # fmt: skip
BRANCH_FIELDS = ("action", "kind", "status", "ending", "entry_kind", "paper", "round_score")
#: Actions in the URL (``…/<str:action>/``).
PATH_ACTIONS = [
    "confirm", "approve", "reopen", "resolve", "check-in", "withdraw", "reenter",
    "rotate-key", "commit-seed", "draw", "publish", "start", "close", "swap", "move",
    "redraw", "as-drawn", "nonsense",
]  # fmt: skip


def reads_post(view) -> bool:
    """Whether the view (under its decorators) reads a posted form at all."""
    view = inspect.unwrap(view)
    return "POST" in inspect.getsource(view)


def page_routes() -> dict[str, object]:
    """Every route of the site's pages (not the API, the admin or Django's own): its view."""
    out: dict[str, object] = {}

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern) and p.callback.__module__.startswith(
                "tournaments.views"
            ):
                out[route] = p.callback

    walk(get_resolver().url_patterns, "")
    return dict(sorted(out.items()))


def urls_for(route: str, setup) -> list[str]:
    values = {
        "<slug:slug>": setup.event.slug,
        "<int:number>": "1",
        "<int:table_number>": "1",
        "<int:entry_id>": str(setup.entries[0].pk),
        "<int:file_id>": "1",
    }
    url = "/" + route
    for placeholder, value in values.items():
        url = url.replace(placeholder, value)
    if "<str:key>" in url:  # as now: a posted "rotate-key" changes a player's
        setup.table.refresh_from_db()
        setup.entries[0].refresh_from_db()
        key = setup.table.url_key if url.startswith("/t/") else setup.entries[0].url_key
        url = url.replace("<str:key>", key)
    if "<str:action>" in url:
        return [url.replace("<str:action>", a) for a in PATH_ACTIONS]
    assert "<" not in url, f"add a value for {url} to urls_for()"
    return [url]


def test_every_page_route_is_reached():
    routes = page_routes()
    assert len(routes) > 25, routes
    assert any("<str:action>" in r for r in routes)


def test_garbage_posted_to_every_page_is_never_a_500():
    setup = make_table()
    user = UserFactory(username="everything")
    for role in EventRole.Role.values:
        EventRole.objects.create(event=setup.event, user=user, role=role)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    fields = sorted(posted_fields())
    failures = []
    for route, view in page_routes().items():
        if not reads_post(view):  # a page that takes no form: one post shows it ignores it
            assert client.post(urls_for(route, setup)[0], {"x": "\x00"}).status_code < 500
            continue
        for url in urls_for(route, setup):
            cases = [{f: g for f in fields} for g in GARBAGE]
            if "<str:action>" not in route:  # the action is in the URL: no branch in the form
                for i, branch in enumerate(BRANCHES):
                    case = {f: GARBAGE[i % len(GARBAGE)] for f in fields}
                    case.update({f: branch for f in BRANCH_FIELDS})
                    cases.append(case)
            for data in cases:
                response = client.post(url, data)
                if response.status_code >= 500:
                    failures.append((url, {k: data[k] for k in BRANCH_FIELDS}, data["reason"]))
                    break  # one per URL is enough to show
    assert not failures, "\n".join(map(repr, failures))


def test_a_call_that_is_not_a_call_is_a_form_error(client):
    setup = make_table()
    post = {"declarer": "0", "contract": "6♠", "call_1": "maybe", "call_2": "pass"}
    response = client.post(f"/t/{setup.table.url_key}/", post)
    assert response.status_code == 400
    assert "&#x27;maybe&#x27; is not a call" in response.content.decode()


def test_seats_that_are_not_numbers_are_a_form_error(client):
    setup = make_table()
    client.force_login(setup.referee)
    url = f"/e/{setup.event.slug}/manage/rounds/1/tables/1/incidents"
    response = client.post(url, {"description": "talon seen", "seats": ["1", "two"]})
    assert response.status_code == 400
    assert "&#x27;two&#x27; is not a whole number" in response.content.decode()
    assert not setup.table.incidents.exists()


def test_a_nul_character_is_refused_naming_the_field(client):
    setup = make_table()
    client.force_login(setup.referee)
    url = f"/e/{setup.event.slug}/manage/rounds/1/tables/1/incidents"
    response = client.post(url, {"description": "talon\x00seen"})
    assert response.status_code == 400
    assert "The field &#x27;description&#x27; holds a NUL character" in response.content.decode()
    api = client.get("/api/v1/events/?q=\x00")
    assert api.status_code == 400 and api.json()["extra"] == {"field": "q"}
