"""The boards' PDF (issue 43): each board's hand record and slip, for the people who deal the
boards before play; referees only."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.factories import UserFactory
from tests.tournaments.duplicate.factories import nine_player_event
from tests.tournaments.standings.pdf_helpers import pdf_text
from tournaments.access.permissions import can_read_document
from tournaments.models import GeneratedFile
from tournaments.pdf.documents import render
from tournaments.pdf.duplicate import duplicate_boards_context
from tournaments.pdf.files import generated_file_request
from tournaments.services.duplicate import duplicate_deal_boards

pytestmark = pytest.mark.django_db


def test_hand_records_and_slips(tmp_path, django_capture_on_commit_callbacks):
    event = nine_player_event()
    duplicate_deal_boards(event=event, seed="snowfall")
    context = duplicate_boards_context(event=event)
    assert [b["number"] for b in context["boards"]] == list(range(1, 10))
    first = context["boards"][0]
    assert (first["round"], first["set"], first["dealer"]) == (1, 1, 1)
    assert sum(len(s.split()) - 1 for h in first["hands"] for s in h["suits"] if "—" not in s) + 2 == 32
    with translation.override("ru"):
        text = pdf_text(render("boards", context, language="ru").data, tmp_path)
    assert "Сдача 1" in text and "Сдача 9" in text and "Прикуп" in text and "♠" in text
    with django_capture_on_commit_callbacks(execute=True):
        f = generated_file_request(event=event, kind="boards")
    f.refresh_from_db()
    assert f.status == GeneratedFile.Status.OK and f.file.name.endswith("-boards.pdf")
    # the hand records are secret until play: not a public document
    assert not can_read_document(UserFactory(), event, "boards")
