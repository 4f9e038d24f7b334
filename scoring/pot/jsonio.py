"""Versioned JSON for pot-game protocols and ledgers (``docs/pot-format.md``).

A protocol document is ``{"format": "pulka-pot-protocol", "version": 1, ...}``, its schema
``scoring/pot/protocol.schema.json``; a ledger alone is ``{"format": "pulka-pot-ledger", ...}``.
Reading is strict, as in :mod:`scoring.jsonio`: an unknown key, a wrong type or a bad value raises
:class:`~scoring.jsonio.JsonFormatError` naming the JSON path; keys starting with ``x-`` are
ignored; a newer version is refused.

>>> from rules.pot import PotContract
>>> from scoring.pot.protocol import Decision, Hand, PotProtocol
>>> p = PotProtocol(players=("A", "B", "C"),
...                 deals=(Hand(0, PotContract(1), (Decision.FORCED,) * 2, tricks=(6, 2, 2)),))
>>> loads(dumps(p)) == p
True
>>> loads('{"format": "pulka-pot-protocol", "version": 1, "players": ["A", "B", "C"], '
...       '"deals": [{"type": "hand", "declarer": 0, "contract": "9"}]}')
Traceback (most recent call last):
...
scoring.jsonio.JsonFormatError: $.deals[0].contract: expected a contract code such as "3", "2u", "4u" (hjärter) or "5", found '9'
"""

from __future__ import annotations

from typing import Final

from rules.pot import InvalidPotContractError, PotContract
from scoring.jsonio import (
    Json,
    Migration,
    _bool,
    _decode,
    _ending,
    _fail,
    _int,
    _list,
    _Object,
    _optional,
    _options,
    _pair,
    _result,
    _sheet_document,
    _str,
    check_names,
    dumps_document,
    envelope,
    number,
)
from scoring.jsonio import _header as _shared_header

from .protocol import (
    Decision,
    Ending,
    Hand,
    Ledger,
    LedgerRow,
    Penalty,
    PotDeal,
    PotProtocol,
    Rundpass,
)

__all__ = [
    "VERSION",
    "PROTOCOL_FORMAT",
    "LEDGER_FORMAT",
    "MIGRATIONS",
    "to_dict",
    "from_dict",
    "dumps",
    "loads",
    "loads_with_ledger",
    "ledger_to_dict",
    "ledger_from_dict",
    "loads_ledger",
    "deal_to_dict",
]

VERSION: Final = 1
PROTOCOL_FORMAT: Final = "pulka-pot-protocol"
LEDGER_FORMAT: Final = "pulka-pot-ledger"
#: ``MIGRATIONS[v]`` turns a version ``v`` document into a version ``v + 1`` one.
MIGRATIONS: Final[dict[int, Migration]] = {}

# --- writing -------------------------------------------------------------------------------


def deal_to_dict(deal: PotDeal) -> dict[str, Json]:
    """One deal as JSON (every key written, defaults included)."""
    if isinstance(deal, Hand):
        return {
            "type": "hand",
            "declarer": deal.declarer,
            "contract": deal.contract.code,
            "efterkop": [[s, c.code] for s, c in deal.efterkop],
            "defence": [Decision(d).value for d in deal.defence],
            "tricks": None if deal.tricks is None else list(deal.tricks),
            "negotiated": deal.negotiated,
            "auction": None if deal.auction is None else [[s, b] for s, b in deal.auction],
            "dealer": deal.dealer,
        }
    if isinstance(deal, Rundpass):
        return {
            "type": "rundpass",
            "tricks": None if deal.tricks is None else list(deal.tricks),
            "auction": None if deal.auction is None else [[s, b] for s, b in deal.auction],
            "dealer": deal.dealer,
        }
    return {
        "type": "penalty",
        "player": deal.player,
        "rule": deal.rule,
        "to_pot": deal.to_pot,
        "to_players": [[s, a] for s, a in deal.to_players],
        "note": deal.note,
    }


def ledger_to_dict(ledger: Ledger) -> dict[str, Json]:
    """The body of a written ledger (without the format/version header)."""
    return {
        "running": [
            None if row is None else {"nets": list(row.nets), "pot": row.pot}
            for row in ledger.running
        ],
        "final": None if ledger.final is None else [number(x) for x in ledger.final],
    }


def to_dict(protocol: PotProtocol, ledger: Ledger | None = None) -> dict[str, Json]:
    """A protocol (and optionally the ledger the players wrote) as a version-1 document."""
    data: dict[str, Json] = {
        "format": PROTOCOL_FORMAT,
        "version": VERSION,
        "convention": protocol.convention,
        "options": dict(protocol.options),
        "players": list(protocol.players),
        "first_dealer": protocol.first_dealer,
        "opening_pot": protocol.opening_pot,
        "ending": Ending(protocol.ending).value,
        "deals": [deal_to_dict(d) for d in protocol.deals],
    }
    if ledger is not None:
        data["ledger"] = ledger_to_dict(ledger)
    return data


def dumps(protocol: PotProtocol, ledger: Ledger | None = None, *, indent: int | None = 2) -> str:
    return dumps_document(to_dict(protocol, ledger), indent)


# --- reading -------------------------------------------------------------------------------

_seat = _int(0, 3, "a seat number (0-based)")
_tricks = _int(0, 10, "a trick count from 0 to 10")
_chips = _int(0, None, "a whole number of chips ≥ 0")
_CONTRACT = 'a contract code such as "3", "2u", "4u" (hjärter) or "5"'


def _contract(value: Json, path: str) -> PotContract:
    if not isinstance(value, str):
        raise _fail(path, _CONTRACT, value)
    try:
        return PotContract.from_code(value)
    except InvalidPotContractError:
        raise _fail(path, _CONTRACT, value) from None


def _decision(value: Json, path: str) -> Decision:
    try:
        return Decision(value)
    except ValueError:
        choices = ", ".join(repr(d.value) for d in Decision)
        raise _fail(path, f"one of {choices}", value) from None


_BIDS: Final = frozenset(
    {"pass", "spel", "herz"} | {f"{k}{u}" for k in range(1, 9) for u in ("", "u")}
)


def _bid(value: Json, path: str) -> str:
    if not isinstance(value, str) or value not in _BIDS:
        raise _fail(path, "a bid: 'pass', 'spel', 'herz' or a contract code", value)
    return value


_auction = _optional(_list(_pair(_seat, _bid, "a [seat, bid] pair")))


def _deal(value: Json, path: str) -> PotDeal:
    obj = _Object(value, path, "a deal object")
    kind = obj.get("type", _str)
    deal: PotDeal
    if kind == "hand":
        deal = Hand(
            declarer=obj.get("declarer", _seat),
            contract=obj.get("contract", _contract),
            efterkop=obj.get("efterkop", _list(_pair(_seat, _contract, "a [seat, contract] pair")), ()),
            defence=obj.get("defence", _list(_decision), ()),
            tricks=obj.get("tricks", _optional(_list(_tricks)), None),
            negotiated=obj.get("negotiated", _bool, False),
            auction=obj.get("auction", _auction, None),
            dealer=obj.get("dealer", _optional(_seat), None),
        )  # fmt: skip
    elif kind == "rundpass":
        deal = Rundpass(
            tricks=obj.get("tricks", _optional(_list(_tricks)), None),
            auction=obj.get("auction", _auction, None),
            dealer=obj.get("dealer", _optional(_seat), None),
        )
    elif kind == "penalty":
        deal = Penalty(
            player=obj.get("player", _seat),
            rule=obj.get("rule", _str, ""),
            to_pot=obj.get("to_pot", _chips, 0),
            to_players=obj.get("to_players", _list(_pair(_seat, _chips, "a [seat, chips] pair")), ()),
            note=obj.get("note", _str, ""),
        )  # fmt: skip
    else:
        raise _fail(f"{path}.type", "'hand', 'rundpass' or 'penalty'", kind)
    obj.finish()
    return deal


def _row(value: Json, path: str) -> LedgerRow:
    obj = _Object(value, path, "an object with nets and pot")
    row = LedgerRow(nets=obj.get("nets", _list(_int())), pot=obj.get("pot", _int()))
    obj.finish()
    return row


def _ledger_body(obj: _Object) -> Ledger:
    return Ledger(
        running=obj.get("running", _list(_optional(_row)), ()),
        final=obj.get("final", _optional(_list(_result)), None),
    )


def ledger_from_dict(data: Json, path: str = "$.ledger") -> Ledger:
    """Read the body of a ledger (as under a protocol's ``"ledger"`` key)."""
    obj = _Object(data, path, "a ledger object")
    ledger = _ledger_body(obj)
    obj.finish()
    return ledger


def _header(data: Json, kind: str) -> dict[str, Json]:
    """The shared envelope (:func:`scoring.jsonio._header`) with this family's versions."""
    return _shared_header(data, kind, VERSION, MIGRATIONS)


def from_dict(data: Json) -> tuple[PotProtocol, Ledger | None]:
    """Read a protocol document (already decoded); the ledger is ``None`` when absent.

    :raises scoring.jsonio.JsonFormatError: naming the JSON path and what was expected there.
    """
    obj = _Object(_header(data, PROTOCOL_FORMAT), "$", "a JSON object")
    obj.get("format", _str)
    obj.get("version", _int())
    players = obj.get("players", _list(_str, "a list of 3 or 4 names"))
    if len(players) not in (3, 4):
        raise _fail("$.players", "a list of 3 or 4 names", list(players))
    check_names(players, "$.players", '000 "Förberedelser"')
    protocol = PotProtocol(
        players=players,
        deals=obj.get("deals", _list(_deal), ()),
        convention=obj.get("convention", _str, "viennese"),
        options=tuple(sorted(obj.get("options", _options, ()))),
        first_dealer=obj.get("first_dealer", _int(0, len(players) - 1, "a seat number"), 0),
        ending=obj.get("ending", _ending, Ending.CLOSED),
        opening_pot=obj.get("opening_pot", _chips, 0),
    )
    ledger = obj.get("ledger", _optional(ledger_from_dict), None)
    obj.finish()
    return protocol, ledger


def loads_with_ledger(text: str) -> tuple[PotProtocol, Ledger | None]:
    return from_dict(_decode(text))


def loads(text: str) -> PotProtocol:
    """Read a protocol document.

    :raises scoring.jsonio.JsonFormatError: naming the JSON path and what was expected there.
    """
    return loads_with_ledger(text)[0]


def loads_ledger(text: str) -> Ledger:
    """A ``pulka-pot-ledger`` document, or the ``ledger`` of a protocol document."""
    return _sheet_document(
        text, (PROTOCOL_FORMAT, LEDGER_FORMAT), "ledger", from_dict, _header, _ledger_body
    )


def dumps_ledger(ledger: Ledger, *, indent: int | None = 2) -> str:
    return dumps_document(envelope(LEDGER_FORMAT, VERSION, ledger_to_dict(ledger)), indent)
