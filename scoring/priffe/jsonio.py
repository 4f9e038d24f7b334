"""Versioned JSON for Priffe protocols and written sheets (``docs/priffe-format.md``).

A protocol document is ``{"format": "pulka-priffe-protocol", "version": 1, ...}``; its schema is
``scoring/priffe/protocol.schema.json``. Reading is strict, as for every family
(:mod:`scoring.jsonio`): an unknown key, a wrong type or a bad value raises
:class:`~scoring.jsonio.JsonFormatError` naming the JSON path; ``x-`` keys are extensions; a
newer version is refused. What cannot be scored at all (a seating that is not the four players,
a deal in a sits with no seating) is refused here; what is merely illegal (a fourth sits, the
same partnership twice, tricks not summing to 13 …) is read and left to the checker.

>>> from scoring.priffe.protocol import Hand, PriffeProtocol, Contract
>>> p = PriffeProtocol(players=("A", "B", "C", "D"), sittings=((0, 1, 2, 3),),
...                    deals=(Hand(0, Contract.HJARTER, 1, (4, 9)),))
>>> loads(dumps(p)) == p
True
>>> loads(dumps(p).replace('"hjärter"', '"trumf"'))
Traceback (most recent call last):
...
scoring.jsonio.JsonFormatError: $.deals[0].contract: expected a contract (pref, noll, hjärter, ruter, klöver, spader, tvångsnoll), found 'trumf'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rules.priffe import Contract, parse_bid, parse_contract

from ..jsonio import (
    Json,
    JsonFormatError,
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
    _sheet_document,
    _str,
    dumps_document,
    envelope,
)
from ..jsonio import _header as _shared_header
from .protocol import (
    Ending,
    Hand,
    Honours,
    HonoursPattern,
    Penalty,
    PriffeDeal,
    PriffeProtocol,
    PriffeSheet,
    Seating,
    SheetEntry,
)

__all__ = [
    "VERSION",
    "FORMAT",
    "SHEET_FORMAT",
    "MIGRATIONS",
    "to_dict",
    "from_dict",
    "dumps",
    "loads",
    "loads_with_sheet",
    "sheet_to_dict",
    "sheet_from_dict",
    "loads_sheet",
    "dumps_sheet",
]

VERSION: Final = 1
FORMAT: Final = "pulka-priffe-protocol"
SHEET_FORMAT: Final = "pulka-priffe-sheet"
#: ``MIGRATIONS[v]`` turns a version ``v`` document into version ``v + 1``; empty while 1 is
#: the only version.
MIGRATIONS: Final[dict[int, Migration]] = {}


# --- writing -------------------------------------------------------------------------------


def _deal_dict(deal: PriffeDeal) -> dict[str, Json]:
    if isinstance(deal, Hand):
        return {
            "type": "hand",
            "sits": deal.sits,
            "contract": deal.contract.value,
            "declarer": deal.declarer,
            "tricks": list(deal.tricks),
            "honours": [{"holder": h.holder, "pattern": h.pattern.value} for h in deal.honours],
            "bids": None if deal.bids is None else list(deal.bids),
            "dealer": deal.dealer,
        }
    return {
        "type": "penalty",
        "sits": deal.sits,
        "player": deal.player,
        "points": deal.points,
        "rule": deal.rule,
        "note": deal.note,
    }


def sheet_to_dict(sheet: PriffeSheet) -> dict[str, Json]:
    """The body of a written sheet (without the format/version header)."""
    return {
        "entries": [
            None
            if e is None
            else {"below": list(e.below), "above": list(e.above), "game": e.game}
            for e in sheet.entries
        ],
        "sits": [None if s is None else list(s) for s in sheet.sits],
        "result": None if sheet.result is None else list(sheet.result),
    }


def to_dict(protocol: PriffeProtocol, sheet: PriffeSheet | None = None) -> dict[str, Json]:
    """A protocol (and optionally the sheet the players wrote) as a version-1 document."""
    data: dict[str, Json] = {
        "format": FORMAT,
        "version": VERSION,
        "convention": protocol.convention,
        "options": dict(protocol.options),
        "target": protocol.target,
        "players": list(protocol.players),
        "ending": Ending(protocol.ending).value,
        "sittings": [list(s) for s in protocol.sittings],
        "deals": [_deal_dict(d) for d in protocol.deals],
    }
    if sheet is not None:
        data["sheet"] = sheet_to_dict(sheet)
    return data


def dumps(
    protocol: PriffeProtocol, sheet: PriffeSheet | None = None, *, indent: int | None = 2
) -> str:
    """The protocol as JSON text."""
    return dumps_document(to_dict(protocol, sheet), indent)


def dumps_sheet(sheet: PriffeSheet, *, indent: int | None = 2) -> str:
    """A sheet on its own: ``{"format": "pulka-priffe-sheet", "version": 1, ...}``."""
    return dumps_document(envelope(SHEET_FORMAT, VERSION, sheet_to_dict(sheet)), indent)


# --- reading -------------------------------------------------------------------------------

_player = _int(0, 3, "a player number from 0 to 3")
_whole = _int()
_points = _int(0, None, "a whole number of points ≥ 0")
_tricks = _int(0, 13, "a trick count from 0 to 13")
_CONTRACTS: Final = ", ".join(c.value for c in Contract)


def _contract(value: Json, path: str) -> Contract:
    if isinstance(value, str):
        try:
            return parse_contract(value)
        except ValueError:
            pass
    raise _fail(path, f"a contract ({_CONTRACTS})", value)


def _bid(value: Json, path: str) -> str:
    if isinstance(value, str):
        try:
            return parse_bid(value)
        except ValueError:
            pass
    raise _fail(path, f'"pass" or a bid ({_CONTRACTS.replace(", tvångsnoll", "")})', value)


def _two(item: Callable[[Json, str], int], what: str) -> Callable[[Json, str], tuple[int, int]]:
    return _pair(item, item, what)


def _seating(value: Json, path: str) -> Seating:
    what = "the four players 0–3 clockwise, each once, e.g. [0, 1, 2, 3]"
    seats = _list(_player, what)(value, path)
    if sorted(seats) != [0, 1, 2, 3]:
        raise _fail(path, what, list(seats))
    return (seats[0], seats[1], seats[2], seats[3])


def _honours(value: Json, path: str) -> Honours:
    obj = _Object(value, path, 'an object {"holder": player, "pattern": "4" | "3+1" | "3"}')

    def pattern(v: Json, p: str) -> HonoursPattern:
        try:
            return HonoursPattern(v)
        except ValueError:
            raise _fail(p, "'4', '3+1' or '3'", v) from None

    honours = Honours(holder=obj.get("holder", _player), pattern=obj.get("pattern", pattern))
    obj.finish()
    return honours


def _deal(value: Json, path: str) -> PriffeDeal:
    obj = _Object(value, path, "a deal object")
    kind = obj.get("type", _str)
    deal: PriffeDeal
    if kind == "hand":
        deal = Hand(
            sits=obj.get("sits", _int(0, None, "a sits number (0-based)")),
            contract=obj.get("contract", _contract),
            declarer=obj.get("declarer", _optional(_player), None),
            tricks=obj.get("tricks", _two(_tricks, "two trick counts [side 0, side 1]")),
            honours=obj.get("honours", _list(_honours), ()),
            bids=obj.get("bids", _optional(_list(_bid, "a list of bids")), None),
            dealer=obj.get("dealer", _optional(_player), None),
        )
    elif kind == "penalty":
        deal = Penalty(
            sits=obj.get("sits", _int(0, None, "a sits number (0-based)")),
            player=obj.get("player", _player),
            points=obj.get("points", _whole),
            rule=obj.get("rule", _str, ""),
            note=obj.get("note", _str, ""),
        )
    else:
        raise _fail(f"{path}.type", "'hand' or 'penalty'", kind)
    obj.finish()
    return deal


def _entry(value: Json, path: str) -> SheetEntry:
    obj = _Object(value, path, "an object with below, above and game")
    two = _two(_whole, "two numbers [side 0, side 1]")
    entry = SheetEntry(
        below=obj.get("below", two, (0, 0)),
        above=obj.get("above", two, (0, 0)),
        game=obj.get("game", _bool, False),
    )
    obj.finish()
    return entry


def _sheet_body(obj: _Object) -> PriffeSheet:
    return PriffeSheet(
        entries=obj.get("entries", _list(_optional(_entry)), ()),
        sits=obj.get("sits", _list(_optional(_two(_whole, "two side totals"))), ()),
        result=obj.get("result", _optional(_list(_whole, "a list of four totals")), None),
    )


def sheet_from_dict(data: Json, path: str = "$.sheet") -> PriffeSheet:
    """Read the body of a sheet (as under a protocol's ``"sheet"`` key)."""
    obj = _Object(data, path, "a sheet object")
    sheet = _sheet_body(obj)
    obj.finish()
    if sheet.result is not None and len(sheet.result) != 4:
        raise _fail(f"{path}.result", "a list of four totals", list(sheet.result))
    return sheet


def _header(data: Json, kind: str) -> dict[str, Json]:
    """The shared envelope (:func:`scoring.jsonio._header`) with this family's versions."""
    return _shared_header(data, kind, VERSION, MIGRATIONS)


def from_dict(data: Json) -> tuple[PriffeProtocol, PriffeSheet | None]:
    """Read a protocol document (already decoded); the sheet is ``None`` when absent.

    :raises scoring.jsonio.JsonFormatError: naming the JSON path and what was expected there.
    """
    obj = _Object(_header(data, FORMAT), "$", "a JSON object")
    obj.get("format", _str)
    obj.get("version", _whole)
    players = obj.get("players", _list(_str, "a list of four names"))
    if len(players) != 4 or len({p.strip().lower() for p in players}) != 4:
        raise _fail("$.players", "a list of four different names (seed 004: 4 players)",
                    list(players))  # fmt: skip
    sittings = obj.get("sittings", _list(_seating, "a list of seatings"))
    if not sittings:
        raise _fail("$.sittings", "at least one seating (the first sits)", [])
    deals = obj.get("deals", _list(_deal), ())
    for i, deal in enumerate(deals):
        if deal.sits >= len(sittings):
            raise JsonFormatError(
                f"$.deals[{i}].sits", f"sits {deal.sits} has no seating in $.sittings"
            )
    protocol = PriffeProtocol(
        players=players,
        target=obj.get("target", _int(1, None, "a whole number ≥ 1")),
        sittings=sittings,
        deals=deals,
        convention=obj.get("convention", _str, "modern"),
        options=obj.get("options", _options, ()),
        ending=obj.get("ending", _ending, Ending.CLOSED),
    )
    sheet = obj.get("sheet", _optional(sheet_from_dict), None)
    obj.finish()
    return protocol, sheet


def loads_with_sheet(text: str) -> tuple[PriffeProtocol, PriffeSheet | None]:
    """Read a protocol document and the sheet it may carry."""
    return from_dict(_decode(text))


def loads(text: str) -> PriffeProtocol:
    """Read a protocol document.

    :raises scoring.jsonio.JsonFormatError: naming the JSON path and what was expected there.
    """
    return loads_with_sheet(text)[0]


def loads_sheet(text: str) -> PriffeSheet:
    """Read a sheet: a ``pulka-priffe-sheet`` document, or the ``sheet`` of a protocol document.

    :raises scoring.jsonio.JsonFormatError: naming the JSON path and what was expected there.
    """
    return _sheet_document(text, (FORMAT, SHEET_FORMAT), "sheet", from_dict, _header, _sheet_body)
