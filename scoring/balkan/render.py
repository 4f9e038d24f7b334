"""The scored Balkan game as a readable sheet (``python -m scoring score`` on a Balkan file).

Per deal one line: the deal in words, then for each player his declarer column (signed; a hat
``∩`` when it crossed zero upwards, ``∪`` back down), his soups against each opponent and his
unplayed refas (``—`` each, the horizontal lines of seed 002 "Refa"; ``/`` the refa used at that
deal). Then the end, the final calculation and the findings. ``ascii=True`` uses ``^ v - /`` and
plain minus signs.

>>> from scoring.balkan.protocol import BalkanProtocol, Hand
>>> from scoring.balkan.score import score
>>> text = render_sheet(score(BalkanProtocol(("Ana", "Bo", "Cvijeta"), 30,
...                                            (Hand(0, 3, tricks=(6, 2, 2)),))), ascii=True)
>>> print(" ".join(text.splitlines()[5].split()))
1 Ana Ana 3: Bo plays, Cvijeta plays; tricks 6-2-2; made, value 6 -24 0 0 -30 12 0 -30 12 0
>>> "Ana: 0 - 24 + 10 x -24 = -264" in text
True
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.balkan import contract_name

from ..findings import Finding, seat_number
from .protocol import AllPass, Defence, Hand, Penalty
from .score import DealResult, ScoredBalkan

__all__ = ["render_sheet", "deal_words"]

_DECISION = {Defence.PLAY: "plays", Defence.DROP: "drops", Defence.INVITE: "invites"}
_KONTRA = ("", "kontra", "rekontra", "subkontra", "mortkontra")


def deal_words(scored: ScoredBalkan, index: int, *, ascii: bool = False) -> str:
    """Deal ``index`` in words: the contract, the defence, kontra, tricks and what came of it."""
    names = scored.protocol.players
    deal = scored.protocol.deals[index]
    d = scored.deals[index]
    times = "x" if ascii else "×"
    if isinstance(deal, AllPass):
        text = "all pass"
        return f"{text}: {scored.convention.refa_word} for all" if d.refa_given else text
    if isinstance(deal, Penalty):
        who = names[deal.player] if deal.player in (0, 1, 2) else f"seat {seat_number(deal.player)}"
        parts = [f"penalty {who}"]
        if deal.column:
            parts.append(f"{deal.column} in the column")
        parts += [f"{names[w] if w in (0, 1, 2) else w} writes {p}" for w, p in deal.soups]
        return ", ".join(parts) + (f" ({deal.rule})" if deal.rule else "")
    if not isinstance(deal, Hand) or d.declarer is None:
        return f"not a deal: {deal!r}"
    words = [f"{names[d.declarer]} {contract_name(deal.contract, bool(deal.game))}"]
    if len(deal.defence) == 2:
        words[0] += ": " + ", ".join(
            f"{names[s]} {_DECISION.get(x, str(x))}"
            for s, x in zip(deal.defenders(), deal.defence, strict=True)
        )
    if deal.kontra and deal.kontra_by in (0, 1, 2):
        level = _KONTRA[deal.kontra] if deal.kontra < len(_KONTRA) else f"kontra {deal.kontra}"
        words.append(f"{level} by {names[deal.kontra_by]}")
    if deal.tricks is not None and d.kind == "played":
        words.append("tricks " + "-".join(str(t) for t in deal.tricks))
    outcome = {"made": "made", "lost": "lost", "declarer-wins": "no play, declarer wins",
               "thrown-in": "thrown in", "refa": f"{scored.convention.refa_word} for all",
               "no-score": "no score", "undefined": "NOT SCORED (undefined)",
               "invalid": "NOT SCORED (see findings)",
               "after-end": "NOT SCORED (after the end)"}.get(d.outcome, d.outcome)
    if d.kind == "no-play":
        outcome = "both drop, declarer wins"
    if d.kind == "plain-two" and d.outcome == "thrown-in" and d.refa_given:
        outcome += f", {scored.convention.refa_word} for all"
    if d.made is not None:
        outcome += f", value {d.capped_value}"
        if d.multiplier > 1:
            outcome += f" ({d.base} {times} {d.multiplier})"
        if d.capped:
            outcome += f" capped from {d.value}"
        if d.failed:
            outcome += "; " + ", ".join(names[s] for s in d.failed) + " failed"
    words.append(outcome)
    return "; ".join(words)


def _cells(scored: ScoredBalkan, d: DealResult, ascii: bool) -> list[str]:
    minus = "-" if ascii else "−"
    hat = {"up": "^" if ascii else "∩", "down": "v" if ascii else "∪"}
    line, used = ("-", "/") if ascii else ("—", "/")
    hats = dict(d.hats)
    cells = []
    for s in range(3):
        column = str(d.columns[s]).replace("-", minus) + hat.get(hats.get(s, ""), "")
        if d.refa_used and s == d.declarer:
            column += used
        cells.append(column)
        cells += [str(d.soups[s][q]) for q in range(3) if q != s]
        cells.append(line * d.refas[s])
    return cells


def render_sheet(
    scored: ScoredBalkan, findings: Sequence[Finding] = (), *, ascii: bool = False
) -> str:
    """The game as a readable sheet (see the module docstring)."""
    p = scored.protocol
    names = p.players
    conv = scored.convention
    lines = [
        f"Balkan game: {conv.name}, bula {p.bula}, {conv.refa_word} limit {scored.refa_limit}; "
        f"players {', '.join(names)} (playing order); first dealer {names[p.first_dealer]}; "
        f"ending {p.ending}",
        "Per player: the declarer column (signed: minus the bula at the start, positive under "
        "the hat), the soups he wrote against each opponent, his unplayed refas "
        '(seed 002 "Scoring", "Refa").',
        "",
    ]
    short = [n[:6] for n in names]
    head = ["#", "dealer", "deal"]
    sub = ["", "", ""]
    for s in range(3):
        head += [names[s], "", "", ""]
        sub += ["col"] + [f"vs {short[q]}" for q in range(3) if q != s] + ["refa"]
    table = [head, sub]
    for d in scored.deals:
        who = "" if d.dealer is None else names[d.dealer]
        table.append([str(d.index + 1), who, deal_words(scored, d.index, ascii=ascii),
                      *_cells(scored, d, ascii)])
    widths = [max(len(r[c]) for r in table) for c in range(len(head))]
    for r in table:
        cells = [r[c].ljust(widths[c]) if c < 3 else r[c].rjust(widths[c]) for c in range(len(r))]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    if scored.ended_at is not None:
        lines.append(f"The game ended at deal {scored.ended_at + 1}: the declarer columns sum to "
                     f"{sum(scored.columns)} (seed 002 \"Ending the Game\").")
    else:
        lines.append(f"The game did not end: the declarer columns sum to {sum(scored.columns)}.")
    if scored.stopped_early:
        lines.append(f"Stopped early ({p.ending}): the final calculation as it stands is not "
                     "zero-sum (variants.md A-HR-4).")
    times = "x" if ascii else "×"
    minus = "-" if ascii else "−"

    def num(x: int, sign: bool = False) -> str:
        return (f"{x:+d}" if sign else str(x)).replace("-", minus)

    lines += ["", f'Final calculation (seed 002 "Ending the Game"): own soups {minus} soups '
              f"against him + 10 {times} declarer column:"]
    for s, name in enumerate(names):
        own = sum(scored.soups[s])
        against = sum(scored.soups[q][s] for q in range(3))
        lines.append(f"  {name}: {own} {minus} {against} + 10 {times} {num(scored.columns[s])} "
                     f"= {num(scored.settlement[s], True)}")
    lines.append(f"  sum {num(sum(scored.settlement), True)}"
                 + ("" if scored.zero_sum else " (not zero-sum)"))
    if findings:
        lines += ["", "Findings:"] + [f"  {f.severity}: {f}" for f in findings]
    return "\n".join(lines) + "\n"

