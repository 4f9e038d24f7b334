"""The computed pulka and the checker's findings as versioned JSON (``score --json``).

A ``{"format": "pulka-result", "version": 1, ...}`` document: the protocol, per deal what each
player wrote and the running totals, help, the closing, the end conversion, the settlement and
the findings. ``docs/protocol-format.md`` describes it; the versioning rules of
:mod:`scoring.russian.jsonio` apply.

>>> import json
>>> from rules.contracts import Contract
>>> from scoring.russian.protocol import Call, Game, Protocol
>>> from scoring.russian.pulka import score
>>> p = Protocol(players=("A", "B", "C"), target=2, ending="in-progress",
...              deals=(Game(1, Contract.from_str("6♠"), (Call.WHIST, Call.PASS), 6),))
>>> data = json.loads(dumps_result(score(p)))
>>> data["format"], data["deals"][0]["written"][1]["pulya"], sum(data["settlement"]["totals"])
('pulka-result', 2, 0)
"""

from __future__ import annotations

from ..findings import Finding
from ..jsonio import Json, dumps_document, finding_to_dict, number
from .jsonio import VERSION, row_to_list, to_dict
from .pulka import ScoredPulka

__all__ = ["result_to_dict", "dumps_result"]


def result_to_dict(
    scored: ScoredPulka, findings: tuple[Finding, ...] | None = None
) -> dict[str, Json]:
    """The computed pulka as a ``pulka-result`` document (what ``score --json`` prints).

    Per deal: the dealer, the raspasy step, what each player wrote (``written``) and the
    running totals (``totals``, 001 §4.2.5); then help entries, the closing deal, the end
    conversion, the final sheet, the settlement (exact values as ``"p/q"`` strings when not
    whole) and the findings (``findings`` overrides the scorer's own, e.g. a full check).
    """
    s = scored.settlement
    deals = [
        {
            "index": i,
            "dealer": scored.dealers[i],
            "raspasy_step": scored.steps[i],
            "written": row_to_list(scored.delta(i)),
            "totals": row_to_list(scored.row(i)),
        }
        for i in range(len(scored.totals))
    ]
    return {
        "format": "pulka-result",
        "version": VERSION,
        "protocol": to_dict(scored.protocol),
        "convention": scored.convention.key,
        "deals": deals,
        "helps": [
            {"deal": d, "donor": donor, "recipient": None if to < 0 else to, "points": pts}
            for d, donor, to, pts in scored.helps
        ],
        "closed_at": scored.closed_at,
        "conversion": list(scored.conversion),
        "final": row_to_list(scored.final_row()),
        "settlement": {
            "totals": [number(x) for x in s.totals],
            "rounding": s.rounding,
            "variant1": [number(x) for x in s.variant1],
            "variant2": [number(x) for x in s.variant2],
            "exact": [number(x) for x in s.exact],
            "exact_variant2": [number(x) for x in s.exact_variant2],
            "gora": list(s.gora),
            "adjustments": list(s.adjustments),
        },
        "findings": [
            finding_to_dict(f) for f in (scored.findings if findings is None else findings)
        ],
    }


def dumps_result(
    scored: ScoredPulka, findings: tuple[Finding, ...] | None = None, *, indent: int | None = 2
) -> str:
    """:func:`result_to_dict` as JSON text."""
    return dumps_document(result_to_dict(scored, findings), indent)
