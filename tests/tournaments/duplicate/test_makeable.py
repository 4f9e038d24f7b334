"""A duplicate board's makeable contracts (issue 43): counted double dummy by a job once the
boards are dealt or read (never in a request), kept on the board and printed on its hand
record — the traveller page and the boards' PDF — as a table of declarer × denomination in
the reader's language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.duplicate.boards import generate_boards
from scoring.duplicate.double_dummy import DENOMINATIONS, makeable
from tests.tournaments.duplicate.factories import nine_player_event, seat_duplicate_round
from tests.tournaments.standings.pdf_helpers import pdf_text
from tournaments.models import Board, Job, Round
from tournaments.pdf.documents import render
from tournaments.pdf.duplicate import duplicate_boards_context
from tournaments.services.duplicate import (
    MAKEABLE_TASK,
    board_count_makeable,
    duplicate_deal_boards,
    duplicate_import_boards,
    duplicate_schedule_makeable,
)
from tournaments.words.duplicate import makeable_table

pytestmark = pytest.mark.django_db


def _expected(seed: str, number: int) -> list[list[int]]:
    counts = makeable(generate_boards(seed, number)[number - 1])
    return [[counts[(seat, d)] for d in DENOMINATIONS] for seat in (1, 2, 3)]


def test_dealing_asks_a_job_for_each_boards_count_and_the_job_keeps_it() -> None:
    event = nine_player_event()
    duplicate_deal_boards(event=event, seed="snowfall", count=2)
    boards = list(Board.objects.filter(event=event).order_by("number"))
    assert all(b.makeable is None for b in boards)  # the request only asks
    assert sorted(Job.objects.filter(task=MAKEABLE_TASK).values_list("args", flat=True)) == sorted(
        [b.pk] for b in boards
    )
    assert board_count_makeable(boards[0].pk) is True
    boards[0].refresh_from_db()
    assert boards[0].makeable == _expected("snowfall", 1)
    # a board dealt again is another row: the old job finds nothing and writes nothing
    duplicate_deal_boards(event=event, seed="thaw", count=2)
    assert board_count_makeable(boards[0].pk) is False
    # only the boards not counted yet are asked for again (an imported archive)
    first = Board.objects.get(event=event, number=1)
    board_count_makeable(first.pk)
    assert duplicate_schedule_makeable(event) == 1


def test_a_board_file_asks_for_its_count_too(django_capture_on_commit_callbacks) -> None:
    event = nine_player_event()
    with django_capture_on_commit_callbacks(execute=True):  # the test settings run jobs at once
        duplicate_import_boards(event=event, text="1. 2 1BDHM27WQK4CEIN3FVRJS5LP8GU6AOT9\n")
    board = Board.objects.get(event=event, number=1)
    assert board.makeable is not None and len(board.makeable) == 3
    assert all(0 <= t <= 10 for row in board.makeable for t in row)


def test_the_table_reads_only_a_whole_count() -> None:
    assert makeable_table(None) is None
    assert makeable_table([[1, 2, 3, 4, 5]]) is None
    assert makeable_table([[1, 2, 3, 4, "5"]] * 3) is None
    table = makeable_table([[1, 2, 3, 4, 5], [0, 0, 0, 0, 0], [9, 8, 7, 6, 5]])
    assert table is not None
    with translation.override("ru"):  # the words are said in the language of the page
        words = [str(h["word"]) for h in table["headings"]]
    assert words == ["пики", "бубны", "черви", "трефы", "без козыря"]
    assert table["rows"][2] == {"seat": 3, "tricks": [9, 8, 7, 6, 5]}


def test_the_traveller_prints_the_count_with_the_hand_record(client) -> None:
    event = nine_player_event()
    duplicate_deal_boards(event=event, seed="snowfall")
    round_ = seat_duplicate_round(event, 1)
    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    url = f"/ru{reverse('duplicate-board', args=[event.slug, 1])}"
    page = client.get(url).content.decode()
    assert "Выполнимые контракты ещё не подсчитаны." in page  # the job has not run
    board = Board.objects.get(event=event, number=1)
    board_count_makeable(board.pk)
    page = client.get(url).content.decode()
    table = page.split('class="makeable"', 1)[1].split("</table>", 1)[0]
    for word in ("пики", "бубны", "черви", "трефы", "без козыря", "Разыгрывающий"):
        assert word in table
    expected = _expected("snowfall", 1)
    cells = [int(c.split("</td>")[0]) for c in table.split('<td class="num">')[1:]]
    assert cells == [t for row in expected for t in row]


def test_the_boards_pdf_prints_each_counted_board(tmp_path) -> None:
    event = nine_player_event()
    duplicate_deal_boards(event=event, seed="snowfall", count=2)
    first = Board.objects.get(event=event, number=1)
    board_count_makeable(first.pk)
    context = duplicate_boards_context(event=event)
    assert context["boards"][0]["makeable"]["rows"][0]["tricks"] == _expected("snowfall", 1)[0]
    assert context["boards"][1]["makeable"] is None
    with translation.override("hr"):
        text = " ".join(pdf_text(render("boards", context, language="hr").data, tmp_path).split())
    assert "Ostvarivi kontrakti" in text and "bez aduta" in text
    assert "Ostvarivi kontrakti još nisu izračunati." in text  # board 2, not counted yet
