"""A duplicate event's archive (issue 43, docs/archive-format.md): its option, boards and
results travel; the import scores the boards again; a bad board is refused by its path; an
ordinary event's archive has no ``duplicate`` key."""

from __future__ import annotations

import copy

import pytest

from tests.factories import EventFactory, UserFactory
from tests.tournaments.duplicate.factories import nine_player_event, seat_duplicate_round
from tournaments.archive.export import event_archive
from tournaments.archive.load import event_archive_import
from tournaments.archive.refs import ArchiveError
from tournaments.models import Board, BoardResult, BoardScore, DuplicateEvent, Event
from tournaments.selectors.duplicate import duplicate_standings
from tournaments.services.duplicate import board_rescore, board_result_enter, duplicate_deal_boards

pytestmark = pytest.mark.django_db


def _played():
    event = nine_player_event()
    duplicate_deal_boards(event=event, seed="archive")
    round_ = seat_duplicate_round(event, 1)
    for table, deal in zip(round_.tables.order_by("number"), ["1 6S ровно w/p", "1 6S -1 w/p", "3 mis ровно"], strict=True):
        board_result_enter(table=table, board_number=1, text=deal)
    board_rescore(Board.objects.get(event=event, number=1).id)  # what the job does
    return event


def test_a_duplicate_event_travels_whole(django_capture_on_commit_callbacks):
    event = _played()
    document = event_archive(event=event)
    data = document["duplicate"]
    assert data["method"] == "matchpoints" and data["seed"] == "archive" and len(data["boards"]) == 9
    assert [(r["board"], r["round"], r["table"]) for r in data["results"]] == [(1, 1, 1), (1, 1, 2), (1, 1, 3)]
    with django_capture_on_commit_callbacks(execute=True):
        copy_ = event_archive_import(document=document, by=UserFactory(), slug="archived")
    assert DuplicateEvent.objects.get(event=copy_).seed == "archive"
    assert [b.cards for b in Board.objects.filter(event=copy_).order_by("number")] == [
        b.cards for b in Board.objects.filter(event=event).order_by("number")
    ]
    assert BoardResult.objects.filter(board__event=copy_).count() == 3
    assert BoardScore.objects.filter(result__board__event=copy_).count() == 9  # scored again
    def totals(e):
        table, entries = duplicate_standings(e)
        return {entries[s.player].player.name: s.total for s in table}

    assert totals(event) == totals(copy_) and len(totals(event)) == 9
    assert event_archive(event=copy_)["duplicate"]["results"] == data["results"]


def test_a_board_that_is_not_a_deck_is_refused_by_its_path():
    event = _played()
    document = copy.deepcopy(event_archive(event=event))
    document["duplicate"]["boards"][1]["cards"] = "1" * 32
    with pytest.raises(ArchiveError) as refused:
        event_archive_import(document=document, by=UserFactory(), slug="broken")
    assert refused.value.path == "$.duplicate.boards[1].cards"
    assert not Event.objects.filter(slug="broken").exists()


def test_an_ordinary_archive_has_no_duplicate_key():
    assert "duplicate" not in event_archive(event=EventFactory())


def test_a_duplicate_archive_is_version_2_an_ordinary_one_stays_version_1():
    assert event_archive(event=_played())["version"] == 2
    assert event_archive(event=EventFactory())["version"] == 1


def test_a_pulka_reading_only_version_1_refuses_a_duplicate_archive_clearly(monkeypatch):
    """An older Pulka would have imported the boards' event as an ordinary one without them;
    version 2 makes its reader refuse, saying why (its own check, unchanged since version 1)."""
    from tournaments.archive import reading

    document = event_archive(event=_played())
    monkeypatch.setattr(reading, "ARCHIVE_VERSION", 1)
    with pytest.raises(ArchiveError) as refused:
        event_archive_import(document=document, by=UserFactory(), slug="older")
    assert refused.value.path == "$.version"
    assert "made by a newer Pulka" in refused.value.problem and "update Pulka" in refused.value.problem
    assert not Event.objects.filter(slug="older").exists()


def test_a_version_1_archive_with_its_boards_still_imports_whole(django_capture_on_commit_callbacks):
    """Written between the first duplicate pass and version 2: the same document as version 1."""
    document = copy.deepcopy(event_archive(event=_played()))
    document["version"] = 1
    with django_capture_on_commit_callbacks(execute=True):
        copy_ = event_archive_import(document=document, by=UserFactory(), slug="v1-duplicate")
    assert Board.objects.filter(event=copy_).count() == 9
    assert BoardResult.objects.filter(board__event=copy_).count() == 3
    assert BoardScore.objects.filter(result__board__event=copy_).count() == 9


def test_an_adjusted_board_and_the_events_shares_travel(django_capture_on_commit_callbacks):
    from tournaments.services.duplicate import board_result_adjust, duplicate_set_percents

    event = _played()
    table = event.rounds.get(number=1).tables.get(number=3)
    board_result_adjust(table=table, board_number=1, adjusted=["plus", "minus", "average"],
                        reason="fouled")
    duplicate_set_percents(event=event, plus=65, average=50, minus=35)
    board_rescore(Board.objects.get(event=event, number=1).id)
    document = event_archive(event=event)
    data = document["duplicate"]
    assert (data["average_plus_percent"], data["average_minus_percent"]) == (65, 35)
    adjusted = [r for r in data["results"] if r["adjusted"]]
    assert adjusted == [{**adjusted[0], "adjusted": ["plus", "minus", "average"],
                         "adjusted_reason": "fouled", "deal_text": "", "values": []}]
    with django_capture_on_commit_callbacks(execute=True):
        copy_ = event_archive_import(document=document, by=UserFactory(), slug="adjusted-copy")
    assert DuplicateEvent.objects.get(event=copy_).average_plus_percent == 65
    again = BoardResult.objects.get(board__event=copy_, table__number=3)
    assert again.adjusted == ["plus", "minus", "average"] and again.adjusted_reason == "fouled"
    # 65 % and 35 % of the top 4, scored again by the import
    assert {s.seat: s.score for s in again.scores.all()} == {1: "13/5", 2: "7/5", 3: "2"}


def test_an_archive_without_the_later_fields_still_imports_and_a_bad_adjustment_is_refused(
    django_capture_on_commit_callbacks,
):
    document = copy.deepcopy(event_archive(event=_played()))
    for name in ("average_plus_percent", "average_percent", "average_minus_percent"):
        del document["duplicate"][name]
    for r in document["duplicate"]["results"]:
        del r["adjusted"], r["adjusted_reason"]
    with django_capture_on_commit_callbacks(execute=True):
        copy_ = event_archive_import(document=document, by=UserFactory(), slug="older-v2")
    assert DuplicateEvent.objects.get(event=copy_).average_plus_percent == 60
    bad = copy.deepcopy(event_archive(event=_played()))
    bad["duplicate"]["results"][0]["adjusted"] = ["plus", "best", "average"]
    with pytest.raises(ArchiveError) as refused:
        event_archive_import(document=bad, by=UserFactory(), slug="bad-adjusted")
    assert refused.value.path == "$.duplicate.results[0].adjusted"
