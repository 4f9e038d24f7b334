"""Garbage in every URL path segment is never a 500 (issue 38): every route of the site — the
pages, the private links and the API, not the admin — is asked for with each of its
placeholders set in turn to values that are not what it wants (a NUL, a lone surrogate's
bytes, words, and the integer bounds of every numeric segment: PostgreSQL's ``integer`` and
``bigint`` and past them), the others holding real values, signed in with every role and
anonymous, as a GET and as a POST without a body. Under ``/api/`` every refusal is JSON.

The forms' fields are fuzzed in ``tests/tournaments/views/test_garbage_posts.py``, the API's
bodies and query parameters by schemathesis in ``tests/tournaments/api/test_api_fuzz.py``."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token

from tests.factories import UserFactory
from tests.tournaments.protocols.conftest import make_table
from tournaments.models import EventRole

pytestmark = pytest.mark.django_db

_PLACEHOLDER = re.compile(r"<(?:(\w+):)?(\w+)>")

#: values for a text segment (slug, key, job id, action)
TEXT_GARBAGE = ["%00", "a%00b", "%ED%A0%80", "%C3%28", "x" * 300, "%25", "..%2F..", "-1", "%20"]
#: the integer bounds (``<int:…>`` matches digits only, so no sign): int's and bigint's edges
#: and past them
INT_GARBAGE = [
    "0", "2147483647", "2147483648", "9223372036854775807", "9223372036854775808",
    "99999999999999999999999999999999999999",
]  # fmt: skip


def routes() -> list[str]:
    """Every route of the site (the admin and Django's own views aside)."""
    out = []

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                if not route.startswith("admin"):
                    walk(p.url_patterns, route)
            elif isinstance(p, URLPattern) and p.callback.__module__.startswith("tournaments"):
                out.append(route.lstrip("^").rstrip("$"))

    walk(get_resolver().url_patterns, "")
    return sorted(set(out))


def real_values(setup) -> dict[str, str]:
    return {
        "slug": setup.event.slug,
        "event_slug": setup.event.slug,  # a rating list's changes of an event (issue 41)
        "person_id": str(setup.entries[0].person_id or 1),  # a person's rating (issue 41)
        "number": "1",
        "table_number": "1",
        "entry_id": str(setup.entries[0].pk),
        "file_id": "1",
        "task_id": "00000000-0000-0000-0000-000000000000",
        "job_id": "00000000-0000-0000-0000-000000000000",
        "action": "approve",
        "version": "1",
        "pair_id": "1",
        "board": "1",  # a duplicate table's board result (issue 43)
        "format": "json",
    }


def key_for(route: str, setup) -> str:
    return setup.table.url_key if route.startswith("t/") else setup.entries[0].url_key


def fill(route: str, setup, garbage_at: int, garbage: str) -> str:
    values = real_values(setup)
    found = list(_PLACEHOLDER.finditer(route))
    url, last = "", 0
    for i, m in enumerate(found):
        name = m.group(2)
        if i == garbage_at:
            value = garbage
        elif name == "key":
            value = key_for(route, setup)
        else:
            assert name in values, f"add a value for <{name}> ({route}) to real_values()"
            value = values[name]
        url += route[last : m.start()] + value
        last = m.end()
    return "/" + url + route[last:]


def test_every_route_is_reached():
    found = routes()
    assert any(r.startswith("api/") for r in found) and any(r.startswith("t/") for r in found)
    assert sum("<" in r for r in found) > 40, found


def test_garbage_in_every_path_segment_is_never_a_500():
    setup = make_table()
    user = UserFactory(username="everything")
    for role in EventRole.Role.values:
        EventRole.objects.create(event=setup.event, user=user, role=role)
    token = Token.objects.create(user=user).key
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(user)
    clients = {
        "signed in": signed_in,
        "token": Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {token}"),
        "anonymous": Client(raise_request_exception=False),
    }
    failures = []
    asked = 0
    for route in routes():
        for at, m in enumerate(_PLACEHOLDER.finditer(route)):
            garbage = INT_GARBAGE if m.group(1) == "int" else TEXT_GARBAGE
            for value in garbage:
                url = fill(route, setup, at, value)
                for who, client in clients.items():
                    if who == "token" and not route.startswith("api/"):
                        continue
                    for method in (client.get, client.post):
                        r = method(url)
                        asked += 1
                        if r.status_code >= 500:
                            failures.append((method.__name__, url, who, r.status_code))
                        elif route.startswith("api/") and r.status_code >= 400:
                            if not r.get("Content-Type", "").startswith("application/json"):
                                failures.append((method.__name__, url, who, "not JSON"))
    assert asked > 1000
    assert not failures, "\n".join(map(repr, failures[:40]))
