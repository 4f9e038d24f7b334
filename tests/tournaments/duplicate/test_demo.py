"""The demo's duplicate evening (issue 43): nine players, three rounds drawn by the seating
engine with no repeated opponents, every table playing every board of its round once, two
rounds closed, a referee's correction, the comparison scored."""

from __future__ import annotations

from itertools import combinations

import pytest

from scoring.duplicate.boards import generate_boards
from tests.factories import UserFactory
from tournaments.demo.duplicate import DUPLICATE_SLUG, SEED, demo_duplicate_event
from tournaments.models import Board, BoardResult, BoardScore, Round
from tournaments.selectors.duplicate import duplicate_standings, table_plays

pytestmark = pytest.mark.django_db


def test_the_duplicate_evening(client):
    organiser = UserFactory(username="org")
    event = demo_duplicate_event(organiser=organiser)
    assert event.slug == DUPLICATE_SLUG
    boards = list(Board.objects.filter(event=event).order_by("number"))
    assert [b.cards for b in boards] == [b.cards for b in generate_boards(SEED, 9)]
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    assert [r.state for r in rounds] == ["closed", "closed", "in_play"]
    pairs = []
    seen: set[tuple[int, int]] = set()
    for r in rounds:
        for t in r.tables.all():
            ids = sorted(s.entry_id for s in t.seats.all())
            assert len(ids) == 3
            pairs += list(combinations(ids, 2))
            for p in table_plays(t):
                for b in p.boards:
                    for e in ids:
                        assert (e, b) not in seen  # no one plays a board twice
                        seen.add((e, b))
    assert len(pairs) == len(set(pairs))  # no repeated opponents
    results = BoardResult.objects.filter(board__event=event)
    assert results.count() == 2 * 9 + 3  # rounds 1–2 whole, round 3's first stanza
    assert results.filter(entered_by="referee").count() == 1
    assert BoardScore.objects.filter(result__board__event=event).count() == results.count() * 3
    table, _entries = duplicate_standings(event)
    assert len(table) == 9
    assert demo_duplicate_event(organiser=organiser).pk == event.pk  # idempotent
    html = client.get(f"/ru/e/{event.slug}/duplicate/").content.decode()
    assert "Дубликатная таблица" in html and "Арина Белова" in html
    html = client.get(f"/ru/e/{event.slug}/duplicate/boards/1/").content.decode()
    assert "Расклад" in html and "♠" in html  # round 1 is closed: the hand record shows
