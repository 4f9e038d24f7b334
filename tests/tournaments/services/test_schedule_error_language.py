"""The plan of the rounds ahead is computed once for the event's data and shared by every
reader: its refusal (001 §3.2.10's table sizes; seed 004's tables of four) is said in each
reader's language from the words the error kept, not in the language of whoever asked first."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import EntryFactory, UserFactory
from tests.tournaments.priffe.test_priffe_remainder import priffe_event
from tournaments.models import Entry, Job
from tournaments.services.rounds import round_create, round_draw

pytestmark = pytest.mark.django_db

ENGLISH = "13 players present do not fill tables of four"
RUSSIAN = "13 присутствующих игроков не заполняют столы по четыре"


def test_the_plans_refusal_is_in_each_readers_language(client):
    event, _entries, _ = priffe_event(12)
    round_draw(round_=round_create(event=event))
    EntryFactory(event=event, status=Entry.Status.CHECKED_IN)  # a 13th player arrives
    client.force_login(UserFactory(is_superuser=True))
    pages = {}
    for language in ("ru", "en"):  # a Russian reader asks first: the plan is computed for him
        with translation.override(language):
            url = reverse("manage-schedule", args=[event.slug])
        pages[language] = html.unescape(client.get(url, follow=True).content.decode())
    (job,) = Job.objects.filter(event=event, result__has_key="error")
    assert job.result["error_words"]["params"] == {"n": 13}
    assert job.result["field"] == "fours_remainder"  # the result as before, words added
    assert ENGLISH in pages["en"] and RUSSIAN not in pages["en"]
    assert RUSSIAN in pages["ru"]
