"""The computed pot game as versioned JSON (``python -m scoring score --json``).

A ``{"format": "pulka-pot-result", "version": 1, ...}`` document (``docs/pot-format.md``): the
protocol, the effective options, and per deal the ante, the amount played for (*A*, German: the
stake), the trick value, whether the deal was forced (tvång), each trick payment, who fell, each
premium payment, whether the declarer made it, every transfer as ``{"payer", "payee",
"amount", "kind"}`` with ``"pot"`` as a party, and the cumulative nets and pot; then the pot at
the end, how it is handled (``pot_end``), each player's share and final result, and the findings.

>>> import json
>>> from rules.pot import PotContract
>>> from scoring.pot.protocol import Decision, Hand, PotProtocol
>>> from scoring.pot.score import score
>>> p = PotProtocol(players=("A", "B", "C"), opening_pot=10, first_dealer=2,
...                 deals=(Hand(0, PotContract(1), (Decision.GO,) * 2, tricks=(5, 1, 4)),))
>>> data = result_to_dict(score(p))
>>> d = data["deals"][0]
>>> d["amount"], d["trick_value"], d["fell"], d["nets"], d["pot"], data["final"]
(20, 2, [0, 1], [-30, -18, -2], 60, [-10, 2, 18])
"""

from __future__ import annotations

from scoring.findings import Finding
from scoring.jsonio import Json, dumps_document, finding_to_dict, number

from .jsonio import VERSION, to_dict
from .score import ScoredDeal, ScoredGame, Transfer

__all__ = ["RESULT_FORMAT", "result_to_dict", "dumps_result", "deal_to_result"]

RESULT_FORMAT = "pulka-pot-result"

def _transfer(t: Transfer) -> dict[str, Json]:
    return {"payer": t.payer, "payee": t.payee, "amount": t.amount, "kind": t.kind}


def deal_to_result(d: ScoredDeal) -> dict[str, Json]:
    """One scored deal as JSON."""
    return {
        "index": d.index,
        "kind": d.kind,
        "dealer": d.dealer,
        "sitting_out": d.sitting_out,
        "pot_before": d.pot_before,
        "ante": d.ante,
        "pot_after_ante": d.pot_before + d.ante,
        "amount": d.amount,
        "trick_value": None if d.trick_value is None else number(d.trick_value),
        "forced": d.forced,
        "declarer": d.declarer,
        "contract": None if d.contract is None else d.contract.code,
        "made": d.made,
        "fell": list(d.fell),
        "trick_payments": [
            {"payer": t.payer, "payee": t.payee, "tricks": t.tricks, "amount": t.amount}
            for t in d.trick_payments
        ],
        "premium_payments": [_transfer(t) for t in d.premium_payments],
        "penalty_stake": d.penalty_stake,
        "transfers": [_transfer(t) for t in d.transfers],
        "changes": [d.change(s) for s in range(len(d.nets))],
        "nets": list(d.nets),
        "pot": d.pot,
    }


def result_to_dict(game: ScoredGame, findings: tuple[Finding, ...] | None = None) -> dict[str, Json]:
    """The scored game as a ``pulka-pot-result`` document."""
    conv = game.convention
    return {
        "format": RESULT_FORMAT,
        "version": VERSION,
        "protocol": to_dict(game.protocol),
        "convention": conv.key,
        "game": conv.game,
        "options": {k: v for k, v in conv.options().items()},
        "ante": conv.ante_units,
        "base_stake": conv.base_stake if conv.game == "viennese" else None,
        "max_amount": conv.max_units() if conv.game == "viennese" else None,
        "opening_pot": game.protocol.opening_pot,
        "deals": [deal_to_result(d) for d in game.deals],
        "nets": list(game.nets),
        "pot": game.pot,
        "pot_end": conv.pot_end,
        "shares": [number(x) for x in game.shares],
        "final": [number(x) for x in game.final],
        "findings": [finding_to_dict(f) for f in (findings or ())],
    }


def dumps_result(game: ScoredGame, findings: tuple[Finding, ...] | None = None) -> str:
    return dumps_document(result_to_dict(game, findings), 2)
