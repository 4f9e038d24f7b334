"""The demo's duplicate evening (issue 43, docs/duplicate.md): nine players of Sochi at three
tables of three, the same boards at every table. The organiser publishes the seed's hash, the
boards are dealt from the seed, the seating engine draws three rounds with no repeated
opponents; each round's three boards pass from table to table. Rounds 1 and 2 are played and
closed (one result corrected by a referee after the close), round 3 is in play with its first
stanza entered; the boards are compared by matchpoints (idempotent).

Everything goes through the same services as the pages: only the event's duplicate option
differs from the other demos.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from scoring.duplicate.boards import seed_sha256
from tournaments.demo.protocols import started_round
from tournaments.models import Board, Event, EventRole, Round
from tournaments.selectors.duplicate import table_plays
from tournaments.services.duplicate import (
    board_rescore,
    board_result_enter,
    duplicate_commit_seed,
    duplicate_deal_boards,
    duplicate_set_up,
)
from tournaments.services.entries import entries_import_csv
from tournaments.services.events import event_create
from tournaments.services.rounds import round_close

__all__ = ["DUPLICATE_SLUG", "demo_duplicate_event"]

DUPLICATE_SLUG = "demo-duplicate"
SEED = "demo duplicate evening, 12 December 2026"

DUPLICATE_PLAYERS = """name,club,city,rating,federation_id
Арина Белова,Вист,Москва,1650,RU-4001
Борис Гусев,Вист,Москва,1610,RU-4002
Вера Дмитриева,Мизер,Тверь,1705,RU-4003
Глеб Егоров,Мизер,Тверь,1590,RU-4004
Дарья Жукова,Распас,Калуга,1640,RU-4005
Егор Зайцев,Распас,Калуга,1575,RU-4006
Жанна Ильина,,Москва,1620,RU-4007
Захар Карпов,,Тверь,1560,RU-4008
Инна Лебедева,,Калуга,1680,RU-4009
"""

#: what the tables made of the boards, in the Russian notation by seat (1–3): a table's k-th
#: board of the round takes line (table + k + round) of this list, so results differ between
#: tables on one board and the comparison has something to compare
DEALS = [
    "1 6S ровно w/p",
    "1 6S -1 w/p",
    "2 7H ровно w/p",
    "3 mis ровно",
    "распасы 4-3-3",
    "2 6NT ровно w/p",
    "3 mis -1",
    "1 7S -1 w/p",
    "3 6C +1 w/p",
    "распасы 2-5-3",
]


def _play(table, number: int, *, stanzas: int | None = None) -> None:
    for k, board in enumerate(b for p in table_plays(table) for b in p.boards):
        if stanzas is not None and k >= stanzas:
            break
        line = DEALS[(table.number + k + number) % len(DEALS)]
        board_result_enter(table=table, board_number=board, text=line)


@transaction.atomic
def demo_duplicate_event(*, organiser) -> Event:
    """The duplicate evening, created once; running it again changes nothing."""
    event = Event.objects.filter(slug=DUPLICATE_SLUG).first()
    if event is not None:
        return event
    event = event_create(
        slug=DUPLICATE_SLUG,
        name="Дубликатный вечер",
        starts_on=dt.date(2026, 12, 12),
        venue="Клуб «Вист», Москва",
        variant="sochi",
        pulka_target=10,
        rounds_planned=3,
        published=True,
        round_time_limit=60,
        by=organiser,
    )
    EventRole.objects.get_or_create(event=event, user=organiser, role=EventRole.Role.CHIEF_REFEREE)
    entries_import_csv(event=event, text=DUPLICATE_PLAYERS, by=organiser)
    duplicate_set_up(event=event, by=organiser)
    duplicate_commit_seed(event=event, seed_hash=seed_sha256(SEED), by=organiser)
    duplicate_deal_boards(event=event, seed=SEED, by=organiser)
    for number in (1, 2, 3):
        round_ = started_round(event, organiser)
        for table in round_.tables.order_by("number"):
            _play(table, number, stanzas=1 if number == 3 else None)
        if number < 3:
            round_close(round_=round_, by=organiser)
    # a referee's correction after the close: table 2's first board of round 1
    first = Round.objects.get(event=event, number=1).tables.get(number=2)
    board = table_plays(first)[0].boards[0]
    board_result_enter(
        table=first, board_number=board, text="2 6S ровно w/p", referee=True, by=organiser,
        reason="the declarer was written at the wrong seat",
    )
    # the jobs the results asked for run after the commit; scored here too, so the demo's
    # pages show the comparison even where no worker runs (board_rescore is idempotent)
    for board_id in Board.objects.filter(event=event).values_list("id", flat=True):
        board_rescore(board_id)
    return event
