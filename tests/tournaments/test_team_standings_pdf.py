"""The standings PDF of a team event (issue 40) adds the team standings on a page of their own,
in the language asked for; an event without teams prints as before."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from tests.tournaments.standings.factories import make_event, play_round
from tests.tournaments.standings.pdf_helpers import page_count, pdf_text
from tournaments.pdf.contexts import standings_context
from tournaments.pdf.documents import render
from tournaments.services.standings import standings_recompute
from tournaments.services.teams import team_create

pytestmark = pytest.mark.django_db


def test_the_standings_pdf_prints_the_team_standings(tmp_path):
    event, entries = make_event(players=9, slug="pdf-teams")
    rng = random.Random(5)
    play_round(event, entries, 1, rng=rng)
    play_round(event, entries, 2, rng=rng, approve=False)
    standings_recompute(event_id=event.pk)
    plain = standings_context(event=event)
    assert plain["teams"] is None
    one_page = page_count(render("standings", plain).data, tmp_path, "plain.pdf")
    for i, name in enumerate(["Ферзь", "Вист", "Мизер"]):
        team_create(event=event, name=name, members=entries[i * 3 : i * 3 + 3])
    context = standings_context(event=event)
    assert [r["team"] for r in context["teams"]["rows"]] and context["teams"]["rounds"] == [1, 2]
    with translation.override("ru"):
        data = render("standings", context, language="ru").data
    text = pdf_text(data, tmp_path)
    assert "Командный зачёт" in text and "Ферзь" in text and "Лучший игрок" in text
    assert page_count(data, tmp_path) == one_page + 1
