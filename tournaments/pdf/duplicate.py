"""A duplicate event's boards as a PDF (issue 43): for the people who deal the boards before
play, each board's hand record (the three hands and the talon, by seat, the dealer marked) and
its slip to put in the board's pocket (board, round and set, the dealer). Plain data in: the
renderer reads only this context."""

from __future__ import annotations

from typing import Any

from scoring.duplicate.boards import Board as PureBoard
from scoring.duplicate.cards import SUITS
from tournaments.models import Board, Event
from tournaments.pdf.contexts import _event_header
from tournaments.selectors.duplicate import duplicate_of, event_plays
from tournaments.words.duplicate import makeable_table

__all__ = ["duplicate_boards_context"]


def _by_suit(cards) -> list[str]:
    """A hand as four suit groups, high card first (as bridge hand records print them)."""
    groups = []
    for suit in SUITS:
        mine = sorted((c for c in cards if c.suit == suit), key=lambda c: -c.index)
        symbol = mine[0].label[-1] if mine else {"S": "♠", "D": "♦", "H": "♥", "C": "♣"}[suit]
        groups.append(symbol + " " + (" ".join(c.label[:-1] for c in mine) or "—"))
    return groups


def duplicate_boards_context(*, event: Event) -> dict[str, Any]:
    """Every board of the event, with where the movement sends it (round and set) and its
    makeable contracts (once counted)."""
    dup = duplicate_of(event)
    where: dict[int, tuple[int, int]] = {}
    for p in event_plays(event, dup):
        for b in p.boards:
            where.setdefault(b, (p.round, p.set))
    boards = []
    for row in Board.objects.filter(event=event).order_by("number"):
        pure = PureBoard.from_cards(row.number, row.dealer, row.cards)
        rnd, card_set = where.get(row.number, (None, None))
        boards.append(
            {
                "number": row.number,
                "dealer": row.dealer,
                "round": rnd,
                "set": card_set,
                "hands": [
                    {"seat": k, "suits": _by_suit(pure.hands[k - 1]), "dealer": k == row.dealer}
                    for k in (1, 2, 3)
                ],
                "talon": [c.label for c in pure.talon],
                # the double-dummy count as the job stored it (None: not counted yet)
                "makeable": makeable_table(row.makeable),
            }
        )
    return {
        "event": _event_header(event),
        "seed_sha256": dup.seed_hash if dup else "",
        "boards": boards,
    }
