"""Versioned JSON for protocols and written sheets (computed results: :mod:`scoring.russian.result_json`).

A protocol document is ``{"format": "pulka-protocol", "version": 1, ...}``; its schema is
``scoring/russian/protocol.schema.json`` and ``docs/protocol-format.md`` describes every field.
Reading is strict: an unknown key, a wrong type or a bad value raises
:class:`JsonFormatError` naming the JSON path (``$.deals[3].contract``) and what was expected.
Keys starting with ``x-`` are extensions and are ignored. Older versions are migrated on
reading (:data:`MIGRATIONS`); a newer version is refused, never guessed.

>>> from rules.contracts import Contract
>>> from scoring.russian.protocol import Call, Game, Protocol
>>> p = Protocol(players=("Anna", "Boris", "Vera"), target=10,
...              deals=(Game(0, Contract.from_str("6♠"), (Call.WHIST, Call.PASS), 6),))
>>> loads(dumps(p)) == p
True
>>> loads('{"format": "pulka-protocol", "version": 1, "players": ["A", "B", "C"], '
...       '"target": "ten"}')
Traceback (most recent call last):
...
scoring.jsonio.JsonFormatError: $.target: expected a whole number ≥ 1, found 'ten'
"""

from __future__ import annotations

from typing import Final

from rules.contracts import Contract, InvalidContractError

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
    _result,
    _sheet_document,
    _str,
    check_names,
    dumps_document,
    envelope,
    number,
)
from ..jsonio import _header as _envelope
from .protocol import (
    Call,
    Deal,
    Ending,
    Game,
    Penalty,
    Protocol,
    Raspasy,
    Sheet,
    SheetLine,
    SheetRow,
)

__all__ = [
    "VERSION",
    "MIGRATIONS",
    "JsonFormatError",
    "to_dict",
    "from_dict",
    "dumps",
    "loads",
    "loads_with_sheet",
    "sheet_to_dict",
    "sheet_from_dict",
    "dumps_sheet",
    "loads_sheet",
    "number",
    "row_to_list",
]

#: The version this module writes and reads natively.
VERSION: Final = 1

#: ``MIGRATIONS[v]`` turns a version ``v`` document into a version ``v + 1`` one. Empty while
#: 1 is the only version; a version 2 adds ``MIGRATIONS[1]`` and keeps reading version 1.
MIGRATIONS: Final[dict[int, Migration]] = {}


# --- writing -------------------------------------------------------------------------------


def _deal_dict(deal: Deal) -> dict[str, Json]:
    if isinstance(deal, Game):
        return {
            "type": "game",
            "declarer": deal.declarer,
            "contract": deal.contract.ascii,
            "calls": [Call(c).value for c in deal.calls],
            "declarer_tricks": deal.declarer_tricks,
            "defender_tricks": None if deal.defender_tricks is None else list(deal.defender_tricks),
            "open": deal.open,
            "auction": None if deal.auction is None else [[s, t] for s, t in deal.auction],
            "multiplier": deal.multiplier,
            "talon_premium": deal.talon_premium,
            "dealer": deal.dealer,
        }
    if isinstance(deal, Raspasy):
        return {
            "type": "raspasy",
            "tricks": list(deal.tricks),
            "multiplier": deal.multiplier,
            "dealer": deal.dealer,
        }
    return {
        "type": "penalty",
        "player": deal.player,
        "rule": deal.rule,
        "gora": deal.gora,
        "pulya": deal.pulya,
        "whists": [[s, w] for s, w in deal.whists],
        "note": deal.note,
    }


def row_to_list(row: SheetRow) -> list[dict[str, Json]]:
    """A sheet row as JSON: one ``{"pulya", "gora", "whists"}`` object per seat."""
    return [{"pulya": x.pulya, "gora": x.gora, "whists": list(x.whists)} for x in row]


def sheet_to_dict(sheet: Sheet) -> dict[str, Json]:
    """The body of a written sheet (without the format/version header)."""
    return {
        "running": [None if row is None else row_to_list(row) for row in sheet.running],
        "final": None if sheet.final is None else row_to_list(sheet.final),
        "result": None if sheet.result is None else [number(r) for r in sheet.result],
    }


def to_dict(protocol: Protocol, sheet: Sheet | None = None) -> dict[str, Json]:
    """A protocol (and optionally the sheet the players wrote) as a version-1 document."""
    data: dict[str, Json] = {
        "format": "pulka-protocol",
        "version": VERSION,
        "convention": protocol.convention,
        "options": dict(protocol.options),
        "target": protocol.target,
        "players": list(protocol.players),
        "first_dealer": protocol.first_dealer,
        "ending": Ending(protocol.ending).value,
        "deals": [_deal_dict(d) for d in protocol.deals],
    }
    if sheet is not None:
        data["sheet"] = sheet_to_dict(sheet)
    return data


def dumps(protocol: Protocol, sheet: Sheet | None = None, *, indent: int | None = 2) -> str:
    """The protocol as JSON text (UTF-8 characters kept, not escaped)."""
    return dumps_document(to_dict(protocol, sheet), indent)


def dumps_sheet(sheet: Sheet, *, indent: int | None = 2) -> str:
    """A sheet on its own: ``{"format": "pulka-sheet", "version": 1, ...}``."""
    return dumps_document(envelope("pulka-sheet", VERSION, sheet_to_dict(sheet)), indent)


# --- reading -------------------------------------------------------------------------------


_seat = _int(0, None, "a seat number (0-based)")
_tricks = _int(0, 10, "a trick count from 0 to 10")
_whole = _int()


def _contract(value: Json, path: str) -> Contract:
    if not isinstance(value, str):
        raise _fail(path, 'a contract such as "6S", "7NT" or "mis"', value)
    try:
        return Contract.from_str(value)
    except InvalidContractError:
        raise _fail(path, 'a contract such as "6S", "7NT" or "mis"', value) from None


def _call(value: Json, path: str) -> Call:
    try:
        return Call(value)
    except ValueError:
        choices = ", ".join(repr(c.value) for c in Call)
        raise _fail(path, f"one of {choices}", value) from None


def _deal(value: Json, path: str) -> Deal:
    obj = _Object(value, path, "a deal object")
    kind = obj.get("type", _str)
    deal: Deal
    if kind == "game":
        deal = Game(
            declarer=obj.get("declarer", _seat),
            contract=obj.get("contract", _contract),
            calls=obj.get("calls", _list(_call), ()),
            declarer_tricks=obj.get("declarer_tricks", _optional(_tricks), None),
            defender_tricks=obj.get("defender_tricks", _optional(_list(_tricks)), None),
            open=obj.get("open", _bool, False),
            auction=obj.get(
                "auction", _optional(_list(_pair(_seat, _str, "a [seat, call] pair"))), None
            ),
            multiplier=obj.get("multiplier", _int(1), 1),
            talon_premium=obj.get("talon_premium", _int(0), 0),
            dealer=obj.get("dealer", _optional(_seat), None),
        )
    elif kind == "raspasy":
        deal = Raspasy(
            tricks=obj.get("tricks", _list(_optional(_tricks))),
            multiplier=obj.get("multiplier", _int(1), 1),
            dealer=obj.get("dealer", _optional(_seat), None),
        )
    elif kind == "penalty":
        deal = Penalty(
            player=obj.get("player", _seat),
            rule=obj.get("rule", _str, ""),
            gora=obj.get("gora", _whole, 0),
            pulya=obj.get("pulya", _whole, 0),
            whists=obj.get("whists", _list(_pair(_seat, _whole, "a [seat, whists] pair")), ()),
            note=obj.get("note", _str, ""),
        )
    else:
        raise _fail(f"{path}.type", "'game', 'raspasy' or 'penalty'", kind)
    obj.finish()
    return deal


def _line(value: Json, path: str) -> SheetLine:
    obj = _Object(value, path, "an object with pulya, gora and whists")
    line = SheetLine(
        pulya=obj.get("pulya", _whole),
        gora=obj.get("gora", _whole),
        whists=obj.get("whists", _list(_whole)),
    )
    obj.finish()
    return line


def _sheet_body(obj: _Object) -> Sheet:
    row = _list(_line, "a list of one object per player")
    return Sheet(
        running=obj.get("running", _list(_optional(row)), ()),
        final=obj.get("final", _optional(row), None),
        result=obj.get("result", _optional(_list(_result)), None),
    )


def sheet_from_dict(data: Json, path: str = "$.sheet") -> Sheet:
    """Read the body of a sheet (as under a protocol's ``"sheet"`` key)."""
    obj = _Object(data, path, "a sheet object")
    sheet = _sheet_body(obj)
    obj.finish()
    return sheet


def _header(data: Json, kind: str) -> dict[str, Json]:
    """The shared envelope (:func:`scoring.jsonio._header`) at this module's :data:`VERSION`
    and :data:`MIGRATIONS` (read at call time)."""
    return _envelope(data, kind, VERSION, MIGRATIONS)


def _protocol_body(obj: _Object) -> tuple[Protocol, Sheet | None]:
    obj.get("format", _str)
    obj.get("version", _whole)
    players = obj.get("players", _list(_str, "a list of 3 or 4 names"))
    if len(players) not in (3, 4):
        raise _fail(f"{obj.path}.players", "a list of 3 or 4 names", list(players))

    protocol = Protocol(
        players=players,
        target=obj.get("target", _int(1, None, "a whole number ≥ 1")),
        deals=obj.get("deals", _list(_deal), ()),
        convention=obj.get("convention", _str, "sochi"),
        options=obj.get("options", _options, ()),
        first_dealer=obj.get("first_dealer", _int(0, len(players) - 1, "a seat number"), 0),
        ending=obj.get("ending", _ending, Ending.CLOSED),
    )
    sheet = obj.get("sheet", _optional(sheet_from_dict), None)
    obj.finish()
    check_names(players, f"{obj.path}.players", "001 §4.2.1")
    _check_seats(protocol.deals, len(players), f"{obj.path}.deals")
    return protocol, sheet


def _check_seats(deals: tuple[Deal, ...], n: int, path: str) -> None:
    """Every seat a deal names is one of the ``n`` players' (001 §3.2.10: 3 or 4 at a table):
    a record that reads but cannot be is refused where it enters, naming the field.

    >>> from rules.contracts import Contract
    >>> _check_seats((Game(7, Contract.from_str("6S")),), 3, "$.deals")
    Traceback (most recent call last):
    ...
    scoring.jsonio.JsonFormatError: $.deals[0].declarer: expected a seat number from 0 to 2 (3 players, 001 §3.2.10), found 7
    """

    def seat(value: int | None, where: str) -> None:
        if value is not None and not 0 <= value < n:
            raise JsonFormatError(
                where,
                f"expected a seat number from 0 to {n - 1} ({n} players, 001 §3.2.10), "
                f"found {value}",
            )

    for i, deal in enumerate(deals):
        at = f"{path}[{i}]"
        if type(deal) is Game:
            seat(deal.declarer, f"{at}.declarer")
            seat(deal.dealer, f"{at}.dealer")
            for k, (speaker, _bid) in enumerate(deal.auction or ()):
                seat(speaker, f"{at}.auction[{k}][0]")
        elif type(deal) is Raspasy:
            seat(deal.dealer, f"{at}.dealer")
            if len(deal.tricks) != n:
                raise JsonFormatError(
                    f"{at}.tricks",
                    f"expected {n} trick counts, one per seat (001 §3.7.1), "
                    f"found {len(deal.tricks)}",
                )
        elif type(deal) is Penalty:
            seat(deal.player, f"{at}.player")
            for k, (writer, _amount) in enumerate(deal.whists):
                seat(writer, f"{at}.whists[{k}][0]")


def from_dict(data: Json) -> tuple[Protocol, Sheet | None]:
    """Read a protocol document (already decoded); the sheet is ``None`` when absent.

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    return _protocol_body(_Object(_header(data, "pulka-protocol"), "$", "a JSON object"))


def loads_with_sheet(text: str) -> tuple[Protocol, Sheet | None]:
    """Read a protocol document and the sheet it may carry."""
    return from_dict(_decode(text))


def loads(text: str) -> Protocol:
    """Read a protocol document.

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    return loads_with_sheet(text)[0]


def loads_sheet(text: str) -> Sheet:
    """Read a sheet: a ``pulka-sheet`` document, or the ``sheet`` of a protocol document.

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    return _sheet_document(
        text, ("pulka-protocol", "pulka-sheet"), "sheet", from_dict, _header, _sheet_body
    )
