"""The computed Priffe game as versioned JSON (``python -m scoring score --json``).

A ``{"format": "pulka-priffe-result", "version": 1, ...}`` document (``docs/priffe-format.md``):
the protocol; per deal what each side wrote below and above the line (with the items: tricks,
strafftrick, slams, straffslam, honours, game bonus, penalty), the current game's points, the
games won in the sits and who won the game or the sits; per sits the seating, the partnerships,
games, totals below and above the line and the winner; the players' totals, the leaders, the
money (option ``money_divisor``) and the findings. Sides are 0 and 1 of each sits: side 0 the
first and third player of its seating.

>>> from scoring.priffe.protocol import Hand, PriffeProtocol, Contract
>>> from scoring.priffe.score import score
>>> p = PriffeProtocol(players=("A", "B", "C", "D"), sittings=((0, 1, 2, 3),),
...                    ending="in-progress", deals=(Hand(0, Contract.HJARTER, 1, (4, 9)),))
>>> data = result_to_dict(score(p))
>>> data["deals"][0]["below"], data["sits"][0]["partnerships"], data["player_totals"]
([0, 30], [['A', 'C'], ['B', 'D']], [0, 30, 0, 30])
"""

from __future__ import annotations

from ..findings import Finding
from ..jsonio import Json, dumps_document, finding_to_dict, number
from .jsonio import VERSION, to_dict
from .protocol import Hand
from .score import ScoredPriffe

__all__ = ["FORMAT", "result_to_dict", "dumps_result"]

FORMAT = "pulka-priffe-result"


def _side_or_none(side: int | None, pairs: list[list[str]]) -> list[str] | None:
    return None if side is None else pairs[side]


def result_to_dict(
    scored: ScoredPriffe, findings: tuple[Finding, ...] | None = None
) -> dict[str, Json]:
    """The scored game as a ``pulka-priffe-result`` document."""
    p = scored.protocol
    conv = scored.convention
    names = p.players

    def pairs(sits: int) -> list[list[str]]:
        s = p.sittings[sits]
        return [[names[s[0]], names[s[2]]], [names[s[1]], names[s[3]]]]

    deals: list[dict[str, Json]] = []
    for d in scored.deals:
        entry = p.deals[d.index]
        sides = pairs(d.sits)
        deals.append(
            {
                "index": d.index,
                "type": "hand" if isinstance(entry, Hand) else "penalty",
                "sits": d.sits,
                "dealer": d.dealer,
                "contract": entry.contract.value if isinstance(entry, Hand) else None,
                "declaring_side": d.declaring_side,
                "sides": sides,
                "below": list(d.below),
                "above": list(d.above),
                "items": [
                    {"side": x.side, "where": x.where, "points": x.points, "reason": x.reason}
                    for x in d.parts
                ],
                "game": d.game,
                "game_points": list(d.game_points),
                "games": list(d.games),
                "game_won_by": d.game_won_by,
                "game_won_by_players": _side_or_none(d.game_won_by, sides),
                "sits_won_by": d.sits_won_by,
                "sits_won_by_players": _side_or_none(d.sits_won_by, sides),
            }
        )
    sits = [
        {
            "index": s.index,
            "seating": list(s.seating),
            "partnerships": pairs(s.index),
            "partnership_players": [list(x) for x in s.sides],
            "game_lines": [
                {"deal": i, "side": scored.deals[i].game_won_by}
                for i in s.deals
                if scored.deals[i].game_won_by is not None
            ],
            "deals": list(s.deals),
            "games": list(s.games),
            "below": list(s.below),
            "above": list(s.above),
            "totals": list(s.totals),
            "winner": s.winner,
            "winner_players": _side_or_none(s.winner, pairs(s.index)),
            "won_at": s.won_at,
        }
        for s in scored.sits
    ]
    totals = scored.player_totals
    best = max(totals) if totals else 0
    money = scored.money
    return {
        "format": FORMAT,
        "version": VERSION,
        "protocol": to_dict(p),
        "convention": conv.key,
        "options": conv.options(),
        "game_points": None if conv.simple else conv.game_points,
        "deals": deals,
        "sits": sits,
        "players": [{"player": i, "name": names[i], "total": totals[i]} for i in range(len(names))],
        "player_totals": list(totals),
        "leaders": [i for i, t in enumerate(totals) if t == best],
        "closed_at": scored.closed_at,
        "money": None if money is None else [number(x) for x in money],
        "findings": [finding_to_dict(f) for f in (findings or ())],
    }


def dumps_result(
    scored: ScoredPriffe, findings: tuple[Finding, ...] | None = None, *, indent: int | None = 2
) -> str:
    """:func:`result_to_dict` as JSON text."""
    return dumps_document(result_to_dict(scored, findings), indent)
