"""The duplicate evening's pages say words, not codes (issue 43; the scan of
tests/tournaments/views/test_words_not_codes.py): no finding code, Python repr or 0-based seat in
English, no rule text's file number, reading aid's id or ISO date in any language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.demo_pages import duplicate_demo_pages
from tests.factories import UserFactory
from tests.tournaments.views.test_words_not_codes import EVERY_LANGUAGE, leaks, shown_text
from tournaments.models import AuditLogEntry, BoardResult

pytestmark = pytest.mark.django_db


def test_the_duplicate_pages_show_words_not_codes():
    organiser = UserFactory(is_staff=True, is_superuser=True)
    pages = duplicate_demo_pages(organiser=organiser)
    codes = {f["code"] for fs in BoardResult.objects.values_list("findings", flat=True) for f in fs}
    codes |= {"NOT_CLOSED", "TRICKS_SUM"}  # finding codes a board's result could carry
    actions = set(AuditLogEntry.objects.values_list("action", flat=True))
    assert "duplicate.result" in actions
    public, staff = Client(), Client()
    staff.force_login(organiser)
    problems = []
    for language in [code for code, _name in settings.LANGUAGES]:
        for page in pages:
            path = page.path if language == "en" else f"/{language}{page.path}"
            response = (staff if page.staff else public).get(path)
            assert response.status_code == 200, (page.name, path, response.status_code)
            for what, context in leaks(shown_text(response.content.decode()), codes, actions):
                if language != "en" and what not in EVERY_LANGUAGE:
                    continue
                problems.append(f"{page.name} ({path}) shows {what}: {context}")
    assert not problems, "\n".join(problems)
