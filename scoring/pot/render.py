"""The scored pot game as a readable ledger (``python -m scoring score``).

A column per player and one for the pot, two lines per deal: what changed hands (``+``) and the
running nets and pot (``=``), then each deal's transfers in words, the pot at the end, how it is
handled, each player's result and the findings.

>>> from rules.pot import PotContract
>>> from scoring.pot.protocol import Decision, Hand, PotProtocol
>>> from scoring.pot.score import score
>>> p = PotProtocol(players=("Anna", "Bertil", "Cecilia"),
...                 deals=(Hand(1, PotContract(1), (Decision.FORCED,) * 2, tricks=(2, 6, 2)),))
>>> print(render_ledger(score(p)).splitlines()[4])
1  +  Anna    Bertil 1 / tvång, tvång / 2-6-2  10      1    -8      +6       +2    0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from scoring.findings import Finding

from .notation import deal_text
from .score import POT, ScoredGame, Transfer

__all__ = ["render_ledger"]


def _who(party: object, names: tuple[str, ...]) -> str:
    return "pot" if party == POT else names[cast(int, party)]


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _transfer(t: Transfer, names: tuple[str, ...]) -> str:
    return f"{_who(t.payer, names)} → {_who(t.payee, names)} {t.amount} ({t.kind})"


def render_ledger(game: ScoredGame, findings: Sequence[Finding] = (), *, ascii: bool = False) -> str:
    """The ledger as text; see the module docstring."""
    p, conv = game.protocol, game.convention
    names = p.players
    if conv.game == "viennese":
        terms = (f"base stake G {conv.base_stake}, maximum {conv.max_units()}, ante "
                 f"{conv.ante_units} (000 \"Förberedelser\", \"Giv\")")  # fmt: skip
    else:
        cap = f", agreed maximum {conv.cap} ({conv.cap_applies})" if conv.cap else ""
        terms = (f"the dealer's {conv.ante_units} chips, Prämie {conv.herz_premium}{cap} "
                 "(003)")  # fmt: skip
    lines = [
        f"{conv.name}: {terms}; players {', '.join(names)}; first dealer "
        f"{names[p.first_dealer]}; opening pot {p.opening_pot}; ending {p.ending}",
        "Per deal: + what each player won or paid and the pot's change; = the running nets and "
        "pot. A is the amount played for, 'trick' a trick's value.",
        "",
    ]
    head = ["#", "", "dealer", "deal", "A", "trick", *names, "pot"]
    table = [head]
    pot = p.opening_pot
    for d in game.deals:
        text = deal_text(p, d.index, ascii=ascii)
        if d.forced and "tv" not in text:
            text += " (tvång)"
        dealer = "" if d.dealer is None else names[d.dealer]
        amount = "" if d.amount is None else str(d.amount)
        trick = "" if d.trick_value is None else str(d.trick_value)
        changes = [_signed(d.change(s)) for s in range(len(names))]
        table.append([str(d.index + 1), "+", dealer, text, amount, trick, *changes,
                      _signed(d.pot - pot)])  # fmt: skip
        table.append(["", "=", "", "", "", "", *map(str, d.nets), str(d.pot)])
        pot = d.pot
    widths = [max(len(r[c]) for r in table) for c in range(len(head))]
    for r in table:
        cells = [r[c].ljust(widths[c]) if c < 4 else r[c].rjust(widths[c]) for c in range(len(r))]
        lines.append("  ".join(cells).rstrip())
    lines += ["", "Transfers:"]
    for d in game.deals:
        parts = [_transfer(t, names) for t in d.transfers] or ["none"]
        notes = [] if d.made is None else ["made" if d.made else "failed"]
        fell = ", ".join(names[s] for s in d.fell)
        if fell:
            notes.append(f"fell: {fell}" if d.kind == "hand" else f"most tricks, pays: {fell}")
        notes.append(d.kind if d.kind != "hand" else "")
        label = "; ".join(n for n in notes if n)
        lines.append(f"  {d.index + 1}. {label}: " + "; ".join(parts))
    lines.append("")
    how = {"share": "shared equally among the players", "keep": "kept: not shared out"}
    lines.append(f"Pot at the end: {game.pot} — {how[conv.pot_end]} (option pot_end)")
    width = max(len(n) for n in names)
    lines.append("Results (net + share of the pot):")
    for s, name in enumerate(names):
        share = game.shares[s]
        lines.append(f"  {name.ljust(width)}  {game.nets[s]:+d} + {share} = {game.final[s]}")
    if findings:
        lines += ["", "Findings:"] + [f"  {f.severity}: {f}" for f in findings]
    return "\n".join(lines) + "\n"
