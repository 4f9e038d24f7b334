"""A duplicate event's services: boards dealt from the committed seed, results entered per
board at the tables, re-scored by a job when a referee corrects one (docs/duplicate.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.duplicate.boards import generate_boards, seed_sha256
from tests.factories import EventFactory
from tests.tournaments.duplicate.factories import nine_player_event, seat_duplicate_round
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, Board, BoardResult, BoardScore, Job, Round
from tournaments.selectors.duplicate import (
    duplicate_standings,
    event_plays,
    table_plays,
    traveller,
)
from tournaments.services.duplicate import (
    RESCORE_TASK,
    board_result_adjust,
    board_result_enter,
    duplicate_commit_seed,
    duplicate_deal_boards,
    duplicate_import_boards,
    duplicate_set_percents,
    duplicate_set_up,
)

pytestmark = pytest.mark.django_db


def test_boards_are_dealt_from_the_committed_seed_only() -> None:
    event = nine_player_event()
    duplicate_commit_seed(event=event, seed_hash=seed_sha256("snowfall"))
    with pytest.raises(UserFacingError) as refused:
        duplicate_deal_boards(event=event, seed="sunshine")
    assert refused.value.extra["field"] == "seed"
    assert not Board.objects.filter(event=event).exists()
    assert duplicate_deal_boards(event=event, seed="snowfall") == 9  # 3 rounds × 3 tables
    stored = [b.cards for b in Board.objects.filter(event=event).order_by("number")]
    assert stored == [b.cards for b in generate_boards("snowfall", 9)]
    with pytest.raises(UserFacingError):
        duplicate_commit_seed(event=event, seed_hash=seed_sha256("other"))


def test_a_board_file_with_a_bad_line_takes_nothing() -> None:
    event = nine_player_event()
    with pytest.raises(UserFacingError) as refused:
        duplicate_import_boards(event=event, text="1. 1 1BDHM27WQK4CEIN3FVRJS5LP8GU6AOT9\n2. 5 x\n")
    assert refused.value.extra == {"field": "boards", "line": 2, "part": "dealer"}
    assert not Board.objects.filter(event=event).exists()
    assert duplicate_import_boards(event=event, text="1. 2 1BDHM27WQK4CEIN3FVRJS5LP8GU6AOT9\n") == 1


def test_a_game_not_played_at_three_is_refused() -> None:
    with pytest.raises(UserFacingError) as refused:
        duplicate_set_up(event=EventFactory(variant="modern"))
    assert refused.value.extra["field"] == "variant"


def _ready():
    event = nine_player_event()
    duplicate_deal_boards(event=event, seed="snowfall")
    rounds = [seat_duplicate_round(event, n) for n in (1, 2, 3)]
    return event, rounds


def test_every_table_plays_every_board_of_its_round_once() -> None:
    event, rounds = _ready()
    plays = event_plays(event)
    for r in rounds:
        for table in r.tables.all():
            boards = [b for p in table_plays(table) for b in p.boards]
            assert sorted(boards) == [3 * r.number - 2, 3 * r.number - 1, 3 * r.number]
    played: dict[tuple[int, int], int] = {}
    for p in plays:
        table = rounds[p.round - 1].tables.get(number=p.table)
        for seat in table.seats.all():
            for b in p.boards:
                played[(seat.entry_id, b)] = played.get((seat.entry_id, b), 0) + 1
    assert set(played.values()) == {1}
    assert len(played) == 9 * 9  # every player plays every board once


DEALS = ["1 6S ровно w/p", "2 6S ровно w/p", "1 6S -1 w/p"]


def test_results_compared_and_a_referees_correction_rescored_everywhere(
    django_capture_on_commit_callbacks,
) -> None:
    event, rounds = _ready()
    t1, t2, t3 = rounds[0].tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        for table, deal in zip((t1, t2, t3), DEALS, strict=True):
            board_result_enter(table=table, board_number=1, text=deal)
    board = Board.objects.get(event=event, number=1)
    rows = traveller(board)
    assert [r.table.number for r in rows] == [1, 2, 3]
    assert rows[0].values == [Fraction(16, 3), Fraction(4, 3), Fraction(-20, 3)]
    # seat 1 at the three tables: +16/3, −20/3 (seat 2 declared), below both the remiz
    assert [r.scores[0] for r in rows] == [Fraction(4), Fraction(2), Fraction(0)]
    assert Job.objects.filter(task=RESCORE_TASK, args=[board.id]).count() == 3

    # a referee corrects table 3 after the round is closed: board 1 is re-scored at every table
    Round.objects.filter(pk=rounds[0].pk).update(state=Round.State.CLOSED)
    t3.refresh_from_db()
    with pytest.raises(UserFacingError) as refused:
        board_result_enter(table=t3, board_number=1, text="1 6S ровно w/p", referee=True)
    assert refused.value.extra["field"] == "reason"
    with pytest.raises(UserFacingError):
        board_result_enter(table=t3, board_number=1, text="1 6S ровно w/p")  # not the table now
    with django_capture_on_commit_callbacks(execute=True):
        board_result_enter(
            table=t3, board_number=1, text="1 6S ровно w/p", referee=True, reason="wrong tricks"
        )
    rows = traveller(board)
    assert [r.scores[0] for r in rows] == [Fraction(3), Fraction(0), Fraction(3)]
    assert BoardResult.objects.get(board=board, table=t3).version == 2
    assert Job.objects.filter(task=RESCORE_TASK, args=[board.id]).count() == 4


def test_bad_entries_name_the_field() -> None:
    event, rounds = _ready()
    t1 = rounds[0].tables.get(number=1)
    with pytest.raises(UserFacingError) as refused:
        board_result_enter(table=t1, board_number=4, text=DEALS[0])
    assert refused.value.extra["field"] == "board"
    with pytest.raises(UserFacingError) as refused:
        board_result_enter(table=t1, board_number=1, text="zzz 6S")
    assert refused.value.extra == {"field": "deal", "column": 1}
    assert not BoardResult.objects.exists()


def test_a_result_with_findings_is_kept_with_them(django_capture_on_commit_callbacks) -> None:
    event, rounds = _ready()
    t1 = rounds[0].tables.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        result = board_result_enter(table=t1, board_number=1, text="2 7S -1 w/w")
    assert not result.ok and result.findings and result.findings[0]["code"]


def test_standings_by_matchpoints(django_capture_on_commit_callbacks) -> None:
    event, rounds = _ready()
    with django_capture_on_commit_callbacks(execute=True):
        for r in rounds:
            for table in r.tables.order_by("number"):
                for k, board in enumerate(b for p in table_plays(table) for b in p.boards):
                    deal = DEALS[(table.number + k) % 3]
                    board_result_enter(table=table, board_number=board, text=deal)
    assert BoardScore.objects.filter(result__board__event=event).count() == 9 * 3 * 3
    table, entries = duplicate_standings(event)
    assert len(table) == 9 and all(s.boards == 9 for s in table)
    # each board seat's matchpoints add up to n(n − 1) = 6: the whole field 9 boards × 3 seats × 6
    assert sum(s.total for s in table) == 9 * 3 * 6
    assert table[0].place == 1 and table[0].total >= table[-1].total


def test_a_round_closes_once_every_board_has_its_result() -> None:
    from tournaments.services.rounds import UnfinishedTablesError, round_close

    event, rounds = _ready()
    r1 = rounds[0]
    for table in r1.tables.order_by("number"):
        for board in (b for p in table_plays(table) for b in p.boards):
            if (table.number, board) != (3, 1):
                board_result_enter(table=table, board_number=board, text=DEALS[0])
    with pytest.raises(UnfinishedTablesError) as refused:
        round_close(round_=Round.objects.get(pk=r1.pk))
    assert refused.value.extra["tables"] == [{"table": 3, "state": "boards"}]
    board_result_enter(table=r1.tables.get(number=3), board_number=1, text=DEALS[1])
    round_close(round_=Round.objects.get(pk=r1.pk))
    assert Round.objects.get(pk=r1.pk).state == Round.State.CLOSED


def test_a_referees_adjusted_score_worked_example(django_capture_on_commit_callbacks) -> None:
    # board 1 at three tables; tables 1 and 2 played it, table 3's cards were fouled: the referee
    # gives Gleb-side seat 1 average-plus (not at fault), seat 2 average-minus, seat 3 average
    event, rounds = _ready()
    t1, t2, t3 = rounds[0].tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        board_result_enter(table=t1, board_number=1, text=DEALS[0])
        board_result_enter(table=t2, board_number=1, text=DEALS[1])
    with pytest.raises(UserFacingError) as refused:
        board_result_adjust(table=t3, board_number=1, adjusted=["plus", "minus", "average"], reason=" ")
    assert refused.value.extra["field"] == "reason"
    with pytest.raises(UserFacingError) as refused:
        board_result_adjust(table=t3, board_number=1, adjusted=["plus", "better", "average"], reason="x")
    assert refused.value.extra["field"] == "adjusted"
    with pytest.raises(UserFacingError) as refused:
        board_result_adjust(table=t3, board_number=4, adjusted=["plus"] * 3, reason="x")
    assert refused.value.extra["field"] == "board"
    assert not BoardResult.objects.filter(table=t3).exists()
    with django_capture_on_commit_callbacks(execute=True):
        board_result_adjust(
            table=t3, board_number=1, adjusted=["plus", "minus", "average"], reason="fouled board"
        )
    board = Board.objects.get(event=event, number=1)
    rows = traveller(board)
    # seat 1: the two played results compared alone (raw 2 and 0), factored to three (7/2, 1/2);
    # table 3: 60 %, 40 %, 50 % of the top 2(3 − 1) = 4
    assert [r.scores[0] for r in rows] == [Fraction(7, 2), Fraction(1, 2), Fraction(12, 5)]
    assert rows[2].scores == [Fraction(12, 5), Fraction(8, 5), Fraction(2)]
    assert rows[2].result.adjusted == ["plus", "minus", "average"]
    log = AuditLogEntry.objects.get(event=event, action="duplicate.adjust")
    assert log.reason == "fouled board" and log.data["adjusted"] == ["plus", "minus", "average"]
    table, _entries = duplicate_standings(event)
    gleb = next(s for s in table if s.player == t3.seats.get(position=0).entry_id)
    assert gleb.total == Fraction(12, 5) and gleb.percent == Fraction(3, 5)

    # the event's own shares: 70 / 50 / 30 rescored everywhere
    with django_capture_on_commit_callbacks(execute=True):
        duplicate_set_percents(event=event, plus=70, average=50, minus=30)
    assert traveller(board)[2].scores == [Fraction(14, 5), Fraction(6, 5), Fraction(2)]
    with pytest.raises(UserFacingError) as refused:
        duplicate_set_percents(event=event, plus=40, average=50, minus=30)
    assert refused.value.extra["field"] == "average_percent"

    # the table cannot enter over the referee's adjustment; a referee's entry replaces it
    with pytest.raises(UserFacingError) as refused:
        board_result_enter(table=t3, board_number=1, text=DEALS[2])
    assert refused.value.extra["field"] == "board"
    with django_capture_on_commit_callbacks(execute=True):
        board_result_enter(table=t3, board_number=1, text=DEALS[2], referee=True)
    again = BoardResult.objects.get(table=t3, board=board)
    assert again.adjusted == [] and again.adjusted_reason == "" and again.version == 2
    assert [r.scores[0] for r in traveller(board)] == [Fraction(4), Fraction(2), Fraction(0)]
