"""Which rule produced a written cell: the citation of a finding about a wrong cell.

The scorer writes each deal's cells by the rules of 001 §3.5–§3.8 and §4.2. To tell the
players which rule a wrong cell broke, :func:`cell_rules` replays one deal with the writer
recording every write with its rule (a declarer's remiz 001 §4.2.1, a misère §3.6, trick
whists §3.8.1.1, consolation §3.8.1.2, a whister's shortfall §3.8.11/§3.8.12, raspasy
§3.7.2.1/§3.7.2.2, help §4.2.3 …), and :func:`rule_for_cell` picks the one that explains the
error. Only a sheet with a wrong cell is explained, so scoring itself pays nothing for it.

>>> from rules.contracts import Contract
>>> from scoring.russian.protocol import Call, Game, Protocol
>>> from scoring.russian.pulka import score
>>> p = Protocol(("A", "B", "C"), 20, (Game(0, Contract.from_str("7♠"), (Call.WHIST,
...              Call.PASS), 5),), ending="in-progress")
>>> rules = cell_rules(score(p), 0)
>>> rules[1]  # A's gora (stride 5: pulya, gora, whists on A, B, C): his remiz
((8, '4.2.1'),)
>>> rules[5 + 2]  # B's whists on A: consolation, then his tricks
((8, '3.8.1.2'), (20, '3.8.1.1'))
"""

from __future__ import annotations

from collections.abc import Callable

from .protocol import Game, Penalty, Raspasy
from .pulka import ScoredPulka
from .raspasy import write_raspasy
from .writing import Table, write_game, write_penalty

__all__ = ["cell_rules", "rule_for_cell", "final_rule"]

#: per flat cell index, the (amount, rule) written into it by one deal
CellRules = dict[int, tuple[tuple[int, str], ...]]

#: how many deals back an unwritten stretch of the sheet is searched for a left-out part
_LOOK_BACK = 40


def cell_rules(scored: ScoredPulka, i: int) -> CellRules:
    """Every write of deal ``i`` with its rule, by cell (see :mod:`scoring.russian.writing`)."""
    protocol = scored.protocol
    n = protocol.size
    t = Table(scored.convention, n, protocol.target)
    if i:
        t.cells[:] = scored.totals[i - 1]
    t.deal = i
    t.why = []
    deal = protocol.deals[i]
    dealer = scored.dealers[i]
    if type(deal) is Penalty:
        write_penalty(t, deal)
    elif type(deal) is Game and dealer is not None:
        write_game(t, deal, dealer)
    elif type(deal) is Raspasy and dealer is not None:
        write_raspasy(t, deal, dealer, scored.steps[i])
    out: dict[int, list[tuple[int, str]]] = {}
    for at, amount, rule in t.why:
        out.setdefault(at, []).append((amount, rule))
    return {at: tuple(parts) for at, parts in out.items()}


def rule_for_cell(
    scored: ScoredPulka,
    i: int,
    player: int,
    column: str,
    error: int,
    rules_of: Callable[[int], CellRules],
    since: int | None = None,
) -> str:
    """The rule behind ``player``'s ``column`` cell after deal ``i``, written ``error`` off.

    ``rules_of(j)`` gives deal ``j``'s writes (:func:`cell_rules`); ``since`` is the first deal
    after the last row the players wrote before this one (its deals' writes are in this row's
    totals too). Of the rules that wrote into the cell at deal ``i``, the one whose amount the
    players left out (or wrote twice), else the largest part; where deal ``i`` wrote nothing
    there, an earlier deal since the last written row whose amount the players left out; else
    the rule of that column for the player's part in deal ``i`` (a write where none is due).
    """
    stride = scored.size + 2
    k = 0 if column == "pulya" else 1 if column == "gora" else 2 + int(column.split(":")[1])
    cell = player * stride + k
    parts = rules_of(i).get(cell, ())
    for amount, rule in parts:
        if amount == -error or amount == error:
            return rule
    if parts:
        return max(parts, key=lambda part: abs(part[0]))[1]
    first = i if since is None else max(since, i - _LOOK_BACK)
    for j in range(i - 1, first - 1, -1):
        for amount, rule in rules_of(j).get(cell, ()):
            if amount == -error:
                return rule
    return _column_rule(scored, i, player, column)


def _column_rule(scored: ScoredPulka, i: int, player: int, column: str) -> str:
    """What governs a column the deal wrote nothing into, for this player's part in it."""
    deal = scored.protocol.deals[i]
    conv = scored.convention
    if type(deal) is Penalty:
        return deal.rule.strip().removeprefix("001").strip().removeprefix("§").strip()
    if type(deal) is Raspasy:  # into the gora (001 §3.7.2.1) or Rostov whists (§3.7.2.2)
        return "3.7.2.2" if conv.raspasy_mode == "whists" else "3.7.2.1"
    assert type(deal) is Game
    if deal.contract.denomination is None:  # misère: pulya or gora of the declarer only
        return "3.6"
    if column == "pulya" or (column == "gora" and player == deal.declarer):
        return "4.2.1"
    if column == "gora":
        return "3.8.11" if conv.whist_responsibility == "full" else "3.8.12"
    return "3.8.1.1"


def final_rule(scored: ScoredPulka, player: int, column: str) -> str:
    """The rule behind a final-row cell: the end conversion (001 §4.2.3, Leningrad §4.2.3.3)
    where it changed the gora, otherwise the running totals carried to the end (§4.2.5)."""
    if column == "gora" and scored.conversion[player]:
        return "4.2.3.3" if scored.convention.end_conversion == 2 else "4.2.3"
    return "4.2.5"
