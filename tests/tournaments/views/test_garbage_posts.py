"""Garbage posted to every page is a form error (4xx, or the page again with the error), never a
500 (issue 25, item 8). Every route of the site's pages is posted to — the test fails when a
page is added that it does not reach — with every field any view or form reads set to values
that are not what the field wants: words for numbers, numbers out of range, NUL characters,
calls that are not calls, and each branch (``action``, ``kind``, ``status``) taken in turn."""

from __future__ import annotations

import inspect
import os
import random
import re
from pathlib import Path

import pytest
from django import forms
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.factories import UserFactory
from tests.tournaments.protocols.conftest import make_table
from tournaments.forms import event as pulka_forms
from tournaments.models import EventRole

pytestmark = pytest.mark.django_db

VIEWS = Path(__file__).resolve().parents[3] / "tournaments" / "views"
_READ = re.compile(r"""request\.POST(?:\.get|\.getlist|\.pop)?[(\[]\s*["']([A-Za-z_0-9]+)["']""")


def posted_fields() -> set[str]:
    """Every field name the views read from ``request.POST`` or their forms declare, plus the
    numbered ones they build (``tricks_0``, ``call_1``, ``choice_…``)."""
    names = set()
    for source in VIEWS.rglob("*.py"):
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
    "tiebreaks", "capped", "scaled", "lift",
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
        "<slug:event_slug>": setup.event.slug,  # a rating list's changes of an event (issue 41)
        "<int:number>": "1",
        "<int:table_number>": "1",
        "<int:entry_id>": str(setup.entries[0].pk),
        "<int:file_id>": "1",
        "<str:task_id>": "00000000-0000-0000-0000-000000000000",  # an import's job: none
        # a person across events (issue 39): the first entry's, or one that does not exist
        "<int:person_id>": str(setup.entries[0].person_id or 1),
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


_QUERY = re.compile(r"""request\.GET(?:\.get|\.getlist)?[(\[]\s*["']([A-Za-z_0-9]+)["']""")


def query_fields() -> set[str]:
    """Every query parameter the views read (``?edit=``, ``?q=``, ``?format=`` …)."""
    names = set()
    for source in VIEWS.rglob("*.py"):
        names |= set(_QUERY.findall(source.read_text(encoding="utf-8")))
    return names


def test_garbage_in_the_query_and_the_conditional_headers_is_never_a_500():
    """The GET side of item 8: every page route, signed in with every role and anonymous, with
    every query parameter a view reads and the conditional-request headers the cached pages
    read (``If-None-Match``, ``If-Modified-Since``) set to garbage."""
    setup = make_table()
    user = UserFactory(username="everything")
    for role in EventRole.Role.values:
        EventRole.objects.create(event=setup.event, user=user, role=role)
    names = query_fields()
    assert {"q", "edit", "format"} <= names, names
    failures = []
    for signed_in in (True, False):
        client = Client(raise_request_exception=False)
        if signed_in:
            client.force_login(user)
        for route in page_routes():
            for url in urls_for(route, setup)[:3]:
                for garbage in ("x", "-1", "99999999999999999999", "\x00", "%"):
                    response = client.get(
                        url,
                        dict.fromkeys(names, garbage),
                        HTTP_IF_NONE_MATCH=garbage,
                        HTTP_IF_MODIFIED_SINCE=garbage,
                        HTTP_ACCEPT_LANGUAGE=garbage,
                    )
                    if response.status_code >= 500:
                        failures.append((url, garbage, signed_in))
    assert not failures, failures


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


# --- every family's deal form, one field at a time ----------------------------------------------

VARIANTS_DIR = VIEWS.parent / "variants"
_VARIANT_READ = re.compile(r"""post\.get\(\s*f?["']([A-Za-z_]+)(\{[^"']*\})?["']""")


def variant_fields(*modules: str) -> set[str]:
    """Every field a family's form reads (its ``tournaments/variants`` modules and the shared
    base), the numbered ones for each seat (``tricks_{p}`` → ``tricks_0`` … ``tricks_3``) and the
    Russian sheet's cells."""
    names: set[str] = set()
    for module in ("base", *modules):
        source = (VARIANTS_DIR / f"{module}.py").read_text(encoding="utf-8")
        for name, numbered in _VARIANT_READ.findall(source):
            if not numbered:
                names.add(name)
            elif name != "w_":  # w_{p}_{field}: below
                names |= {f"{name}{p}" for p in range(4)}
    if "russian_sheet" in modules:
        for p in range(3):
            names |= {f"w_{p}_pulya", f"w_{p}_gora"}
            names |= {f"w_{p}_on_{q}" for q in range(3) if q != p}
    return names - {"action"}


#: A deal each family's phone form takes (from the families' own tests), the kinds of entry its
#: form offers, and the modules of ``tournaments/variants`` that read its form.
FAMILIES = {
    "sochi": (
        {"kind": "game", "declarer": "0", "contract": "6♠", "call_1": "whist", "call_2": "pass",
         "tricks_0": "6", "tricks_1": "", "tricks_2": ""},
        ["game", "raspasy"],
        ("russian", "russian_sheet"),
    ),
    "croatian": (
        {"kind": "hand", "declarer": "0", "contract": "3", "defence_1": "play",
         "defence_2": "play", "tricks_1": "2", "tricks_2": "2"},
        ["hand", "allpass"],
        ("balkan",),
    ),
    "viennese": (
        {"kind": "hand", "declarer": "0", "contract": "1", "defence_1": "forced",
         "defence_2": "forced", "tricks_1": "3", "tricks_2": "3"},
        ["hand", "rundpass"],
        ("pot",),
    ),
    "modern": (
        {"kind": "hand", "sits": "1", "tricks_own": "9", "bid_0": "pass", "bid_1": "spader",
         "bid_2": "hjärter", "bid_3": "pass"},
        ["hand", "straff", "tvangsnoll"],
        ("priffe",),
    ),
}  # fmt: skip
#: Fewer than GARBAGE, since every field of every family gets each.
FIELD_GARBAGE = ["x", "-1", "99999999999999999999", "\x00"]


def family_table(variant: str):
    from tests.factories import EntryFactory, EventFactory, PlayerFactory
    from tournaments.models import Round, Seat, Table

    size = 4 if variant == "modern" else 3
    event = EventFactory(
        variant=variant,
        slug=f"garbage-{variant}",
        pulka_target={"sochi": 10, "croatian": 30, "viennese": 10, "modern": 3}[variant],
        table_size_policy=str(size),
    )
    round_ = Round.objects.create(event=event, number=1, state=Round.State.IN_PLAY)
    table = Table.objects.create(round=round_, number=1, first_dealer=0)
    for position in range(size):
        entry = EntryFactory(event=event, player=PlayerFactory(name=f"{variant} {position}"))
        Seat.objects.create(round=round_, table=table, position=position, entry=entry)
    return table


def family_forms(variant: str) -> list[tuple[dict[str, str], list[str]]]:
    """The posts to spoil: the deal (under each kind of entry), and the Russian written sheet's
    row (``action=sheet``)."""
    base, kinds, modules = FAMILIES[variant]
    fields = variant_fields(*modules) | set(base)
    forms = [({"action": "add", **base, "kind": kind}, sorted(fields)) for kind in kinds]
    if "russian_sheet" in modules:
        cells = sorted(f for f in fields if f.startswith("w_")) + ["sheet_row"]
        forms.append(({"action": "sheet", "sheet_row": "0", **dict.fromkeys(cells, "0")}, cells))
    return forms


@pytest.mark.parametrize("variant", list(FAMILIES))
def test_garbage_in_any_field_of_a_familys_deal_form_is_never_a_500(variant):
    """Issue 25 item 8 in every family: the deal a family's form takes, with one field at a time
    (every field the family's form reads, under each kind of entry) replaced by garbage, is
    stored or refused as a form error, never a 500; a refused post saves nothing."""
    from tournaments.models import Protocol

    table = family_table(variant)
    url = f"/t/{table.url_key}/"
    client = Client(raise_request_exception=False)
    first = client.post(url, {"based_on_version": "", "action": "add", **FAMILIES[variant][0]})
    assert first.status_code == 302, first.content.decode()[:2000]  # the base deal is taken
    failures = []
    for form, fields in family_forms(variant):
        for field in fields:
            for garbage in FIELD_GARBAGE:
                saved = Protocol.objects.filter(table=table).count()
                data = {**form, "based_on_version": str(saved), field: garbage}
                response = client.post(url, data)
                if response.status_code >= 500:
                    failures.append((form["action"], form.get("kind"), field, garbage))
                elif response.status_code != 302:
                    assert Protocol.objects.filter(table=table).count() == saved
    assert not failures, failures


# --- the integer bounds of every numeric field (issue 38) ------------------------------------

SOURCES = [VIEWS, VIEWS.parent / "variants", VIEWS.parent / "families"]
_NUMERIC_READ = re.compile(
    r"""(?:whole_number|posted_id|int)\(\s*(?:request\.)?(?:POST|post|data)(?:\.get)?[(\[]\s*"""
    r"""f?["']([A-Za-z_0-9{}]+)["']"""
)
#: a number at and past each bound a field may have: below zero, past PostgreSQL's ``integer``,
#: and past ``bigint``
BOUNDS = ["-5", "2147483648", "99999999999999999999"]


def numeric_fields() -> set[str]:
    """Every posted field read as a number (by the views, the families' forms) or declared a
    number by a form, the numbered ones spelled out (``tricks_0`` … ``tricks_3``)."""
    names = set()
    for folder in SOURCES:
        for source in folder.rglob("*.py"):
            for name in _NUMERIC_READ.findall(source.read_text(encoding="utf-8")):
                if "{" in name:
                    stem = name.split("{")[0]
                    names |= {f"{stem}{i}" for i in range(4)}
                else:
                    names.add(name)
    for value in vars(pulka_forms).values():
        if isinstance(value, type) and hasattr(value, "base_fields"):
            names |= {n for n, f in value.base_fields.items() if isinstance(f, forms.IntegerField)}
    return names


def numeric_fields_of(view, numbers: set[str]) -> list[str]:
    """The numeric fields a page's view may read: those its module names, and every family's
    when it takes a deal's form (``ui_of…``)."""
    source = Path(inspect.getsourcefile(inspect.unwrap(view))).read_text(encoding="utf-8")
    if "ui_of" in source:
        return sorted(numbers)
    named = {n for n in numbers if f'"{n}"' in source or f"'{n}'" in source}
    for value in vars(pulka_forms).values():  # the forms the module uses
        if isinstance(value, type) and hasattr(value, "base_fields") and value.__name__ in source:
            named |= {n for n, f in value.base_fields.items() if isinstance(f, forms.IntegerField)}
    return sorted(named)


def branches_of(view) -> list[str | None]:
    """The branches a view's source names (its ``action``, ``kind`` … values), and none."""
    source = inspect.getsource(inspect.unwrap(view))
    return [None] + [b for b in BRANCHES if f'"{b}"' in source]


def test_every_numeric_field_is_found():
    assert {"deal", "whists", "gora", "seat", "tricks_0", "table", "rating"} <= numeric_fields()


#: the CI form asks this many of the cases (a fixed sample); ``PULKA_FUZZ_BOUNDS=all`` asks
#: every one (about 5,600 requests, some ten minutes on the shared machine)
BOUND_CASES = 500


def test_every_numeric_field_at_its_bounds_is_never_a_500():
    """Each numeric field alone at each bound, every other field a plausible ``1`` (so that no
    other field's refusal comes first), for every branch a page's view names: the desk's
    incident at deal 99999999999999999999 or -5 and a fixed table 2147483648 were 500s (issue
    38). The CI form asks a fixed sample of the cases; the long form
    ``PULKA_FUZZ_BOUNDS=all bash .ci/test tests/tournaments/views/test_garbage_posts.py``
    asks them all."""
    setup = make_table()
    user = UserFactory(username="everything")
    for role in EventRole.Role.values:
        EventRole.objects.create(event=setup.event, user=user, role=role)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    fields = sorted(posted_fields())
    numbers = numeric_fields()
    cases = [
        (route, branch, name, bound)
        for route, view in page_routes().items()
        # the actions in the URL read no number but the version (the test above)
        if reads_post(view) and "<str:action>" not in route
        for branch in branches_of(view)
        for name in numeric_fields_of(view, numbers)
        for bound in BOUNDS
    ]
    assert len(cases) > 2000
    if os.environ.get("PULKA_FUZZ_BOUNDS") != "all":
        cases = sorted(random.Random(38).sample(cases, BOUND_CASES), key=str)
    failures = []
    for route, branch, name, bound in cases:
        url = urls_for(route, setup)[0]
        data = dict.fromkeys(fields, "1")
        if branch is not None:
            data.update(dict.fromkeys(BRANCH_FIELDS, branch))
        data[name] = bound
        if client.post(url, data).status_code >= 500:
            failures.append((url, branch, name, bound))
    assert not failures, "\n".join(map(repr, failures[:40]))
