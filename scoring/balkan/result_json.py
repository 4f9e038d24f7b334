"""The scored Balkan game as versioned JSON: ``python -m scoring score --json`` on a Balkan file.

A ``{"format": "pulka-balkan-result", "version": 1, ...}`` document. Seats are 0-based indexes
into ``players`` (in playing order); a declarer column is **signed** (−bula at the start,
positive under the hat, ``variants.md`` §1.1); ``soups[s][q]`` is what seat ``s`` wrote in his
soup (juha, supa) against seat ``q`` (0 at ``q == s``). Keys, top level:

``format``, ``version``
    ``"pulka-balkan-result"``, ``1``.
``protocol``
    the input protocol document (``pulka-balkan-protocol``, :mod:`scoring.balkan.jsonio`).
``players``
    the names, in playing order.
``convention``
    the convention's key (``croatian``, ``serbian``, ``slovenian``).
``options``
    every option in force (the convention's values with the protocol's overrides), by name.
``bula``
    the declarer columns' starting score.
``refa_limit``
    the maximum number of refas (rounds, or per player with ``refa_count="per_player"``).
``deals``
    one object per protocol entry, in order (below).
``final``
    ``{"columns": [..], "soups": [[..]..], "refas": [..]}`` after the last entry.
``ended``
    whether the declarer columns summed to zero (with ``end_cap`` off: to ≥ 0).
``ended_at``
    the index of the deal that ended the game, or ``null``.
``ending``
    how the protocol says the table finished (``closed``, ``time-limit``, ``agreement``,
    ``in-progress``).
``stopped_early``
    the table stopped (time limit, agreement) before the end: the settlement is the seed's
    formula applied as it stands, and it is not zero-sum (``variants.md`` A-HR-4).
``settlement``
    per seat: own soups − soups written against him + 10 × signed column (seed 002, the final
    calculation).
``zero_sum``
    whether the settlement sums to zero.
``findings``
    the scorer's findings (or those given, e.g. a full check): ``code``, ``severity``,
    ``message``, ``rule``, ``source`` (``"002"``), ``deal``, ``player``, ``column``,
    ``written``, ``expected`` (:func:`scoring.russian.result_json.finding_to_dict`).

Each deal:

``index``
    0-based place in the protocol.
``kind``
    ``all-pass``, ``penalty``, ``played``, ``no-play`` (both defenders dropped),
    ``plain-two`` (a plain two nobody kontra'd) or ``not-scored`` (see the findings).
``outcome``
    ``made`` / ``lost`` (played, no-play); ``declarer-wins``, ``thrown-in``, ``refa``,
    ``no-score`` (plain-two); ``refa`` / ``no-effect`` (all-pass); ``penalty``; ``undefined``
    (a result the seed leaves undefined, e.g. a failed preferans), ``invalid``, ``after-end``
    (not-scored).
``dealer``
    the dealer's seat by the rotation (``null`` for a penalty entry).
``declarer``, ``contract``, ``game``, ``kontra``
    the contract (2–5 suits, 6 bettel, 7 sans, 8 preferans), whether igra, the doubling level;
    ``null``/``false``/``0`` for other entries.
``host``, ``guest``
    after an invitation or a kontra: the defender who answers for the defence and his partner.
``base_value``
    v = 2 × (contract + igra).
``multiplier``
    2^kontra × 2 when the declarer used a refa.
``value``
    v × multiplier (before the end cap).
``capped_value``
    the value after the end cap: what the declarer column and each defence trick moved by.
``capped``
    whether the end cap reduced it (seed 002 note (p), ``variants.md`` A-HR-2).
``made``
    whether the declarer made it; ``null`` when nothing was scored for a declarer.
``failed``
    the seats of the defenders who failed their quota (each −value in his column).
``refa_used``, ``refa_used_from``
    the declarer used his oldest unplayed refa, given at that deal index.
``refa_given``
    a refa (radlc) round was written for everybody at this deal.
``column_delta``, ``soup_delta``
    what this deal changed in each declarer column and soup.
``columns``, ``soups``, ``refas``
    each player's declarer column, soups against each seat and unplayed refas after the deal.
``hats``
    ``[{"player": seat, "hat": "up" | "down"}]``: a column crossed zero upwards (a hat, kapa)
    or back (an inverted hat).

>>> from scoring.balkan.protocol import BalkanProtocol, Hand
>>> from scoring.balkan.score import score
>>> s = score(BalkanProtocol(("A", "B", "C"), 30, (Hand(0, 3, tricks=(6, 2, 2)),),
...                          ending="time-limit"))
>>> data = result_to_dict(s, protocol={})
>>> data["format"], data["deals"][0]["columns"], data["settlement"], data["zero_sum"]
('pulka-balkan-result', [-24, -30, -30], [-264, -288, -288], False)
"""

from __future__ import annotations

from ..findings import Finding
from ..jsonio import Json, dumps_document, finding_to_dict
from .jsonio import to_dict
from .score import DealResult, ScoredBalkan

__all__ = ["result_to_dict", "dumps_result", "deal_to_dict", "FORMAT", "VERSION"]

FORMAT = "pulka-balkan-result"
VERSION = 1

def deal_to_dict(d: DealResult) -> dict[str, Json]:
    """One deal of the result document (see the module docstring)."""
    return {
        "index": d.index,
        "kind": d.kind,
        "outcome": d.outcome,
        "dealer": d.dealer,
        "declarer": d.declarer,
        "contract": d.contract,
        "game": d.game,
        "kontra": d.kontra,
        "host": d.host,
        "guest": d.guest,
        "base_value": d.base,
        "multiplier": d.multiplier,
        "value": d.value,
        "capped_value": d.capped_value,
        "capped": d.capped,
        "made": d.made,
        "failed": list(d.failed),
        "refa_used": d.refa_used,
        "refa_used_from": d.refa_used_from,
        "refa_given": d.refa_given,
        "column_delta": list(d.column_delta),
        "soup_delta": [list(r) for r in d.soup_delta],
        "columns": list(d.columns),
        "soups": [list(r) for r in d.soups],
        "refas": list(d.refas),
        "hats": [{"player": s, "hat": way} for s, way in d.hats],
    }


def result_to_dict(
    scored: ScoredBalkan,
    findings: tuple[Finding, ...] | None = None,
    *,
    protocol: Json = None,
) -> dict[str, Json]:
    """The scored game as a ``pulka-balkan-result`` document (see the module docstring).

    ``findings`` overrides the scorer's own (e.g. a full check's); ``protocol`` overrides the
    protocol document, which is otherwise written by :func:`scoring.balkan.jsonio.to_dict`.
    """
    if protocol is None:
        protocol = to_dict(scored.protocol)
    return {
        "format": FORMAT,
        "version": VERSION,
        "protocol": protocol,
        "players": list(scored.protocol.players),
        "convention": scored.convention.key,
        "options": scored.convention.options(),
        "bula": scored.bula,
        "refa_limit": scored.refa_limit,
        "deals": [deal_to_dict(d) for d in scored.deals],
        "final": {
            "columns": list(scored.columns),
            "soups": [list(r) for r in scored.soups],
            "refas": list(scored.refas),
        },
        "ended": scored.ended,
        "ended_at": scored.ended_at,
        "ending": str(scored.protocol.ending),
        "stopped_early": scored.stopped_early,
        "settlement": list(scored.settlement),
        "zero_sum": scored.zero_sum,
        "findings": [
            finding_to_dict(f) for f in (scored.findings if findings is None else findings)
        ],
    }


def dumps_result(
    scored: ScoredBalkan,
    findings: tuple[Finding, ...] | None = None,
    *,
    indent: int | None = 2,
    protocol: Json = None,
) -> str:
    """:func:`result_to_dict` as JSON text."""
    data = result_to_dict(scored, findings, protocol=protocol)
    return dumps_document(data, indent)
