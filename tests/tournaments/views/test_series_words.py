"""The league's pages (issue 39) show words, not codes: the scan of issue 29 over the demo
league's public and organisers' pages, in English and Croatian."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.demo_pages import league_demo_pages
from tests.factories import UserFactory
from tests.tournaments.views.test_words_not_codes import leaks, shown_text
from tournaments.models import AuditLogEntry, Protocol

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("prefix", ["", "/hr"])
def test_no_page_of_the_demo_league_shows_a_code_or_a_repr(prefix):
    organiser = UserFactory(is_staff=True, is_superuser=True)
    pages = league_demo_pages(organiser=organiser)
    codes = {f["code"] for fs in Protocol.objects.values_list("findings", flat=True) for f in fs}
    actions = set(AuditLogEntry.objects.values_list("action", flat=True))
    public, staff = Client(), Client()
    staff.force_login(organiser)
    problems = []
    for page in pages:
        response = (staff if page.staff else public).get(prefix + page.path)
        assert response.status_code == 200, (page.name, page.path, response.status_code)
        for what, context in leaks(shown_text(response.content.decode()), codes, actions):
            problems.append(f"{page.name} ({page.path}) shows {what}: {context}")
    assert not problems, "\n".join(problems)
