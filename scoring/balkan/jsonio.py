"""Versioned JSON for Balkan protocols and written sheets (seed 002).

A protocol document is ``{"format": "pulka-balkan-protocol", "version": 1, ...}``; its schema
is ``scoring/balkan/protocol.schema.json`` and ``docs/balkan-format.md`` describes every field.
A written sheet alone is ``{"format": "pulka-balkan-sheet", "version": 1, ...}``. The envelope,
the versioning and the strict reader are shared with the Russian documents
(:mod:`scoring.jsonio`): an unknown key, a wrong type or a bad value raises
:class:`~scoring.jsonio.JsonFormatError` naming the JSON path (``$.deals[3].contract``); keys
starting with ``x-`` are extensions and are ignored; a newer version is refused, never guessed.

>>> from scoring.balkan.protocol import BalkanProtocol, Defence, Hand
>>> p = BalkanProtocol(players=("Ana", "Boris", "Vesna"), bula=30,
...                    deals=(Hand(2, 3, defence=(Defence.PLAY, Defence.PLAY), tricks=(2, 2, 6)),))
>>> loads(dumps(p)) == p
True
>>> loads('{"format": "pulka-balkan-protocol", "version": 1, "players": ["A", "B", "C"], '
...       '"bula": 30, "deals": [{"type": "hand", "declarer": 7, "contract": 5}]}')
Traceback (most recent call last):
...
scoring.jsonio.JsonFormatError: $.deals[0].declarer: expected a seat number from 0 to 2, found 7
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from rules.balkan import (
    CONTRACT_VALUES,
    OPTION_NAMES,
    check_option,
    contract_name,
    find_convention,
)
from rules.conventions import InvalidConventionError
from scoring.jsonio import (
    Json,
    JsonFormatError,
    Migration,
    _bool,
    _decode,
    _ending,
    _fail,
    _header,
    _int,
    _list,
    _Object,
    _optional,
    _options,
    _pair,
    _sheet_document,
    _str,
    check_names,
    dumps_document,
    envelope,
)
from scoring.model import Ending, OptionValue

from .protocol import (
    AllPass,
    BalkanDeal,
    BalkanProtocol,
    BalkanSheet,
    BalkanSheetLine,
    BalkanSheetRow,
    Defence,
    Hand,
    Penalty,
)

__all__ = [
    "VERSION",
    "MIGRATIONS",
    "PROTOCOL_FORMAT",
    "SHEET_FORMAT",
    "BIDS",
    "KONTRA_MAX",
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
    "row_to_list",
]

#: The version this module writes and reads natively.
VERSION: Final = 1
PROTOCOL_FORMAT: Final = "pulka-balkan-protocol"
SHEET_FORMAT: Final = "pulka-balkan-sheet"

#: ``MIGRATIONS[v]`` turns a version ``v`` Balkan document into a version ``v + 1`` one (as
#: :data:`scoring.russian.jsonio.MIGRATIONS` does for the Russian documents). Empty while 1 is the only
#: version.
MIGRATIONS: Final[dict[int, Migration]] = {}

#: The three seats of a Balkan table (seed 002 "Players and Deal": "There are 3 players").
SEATS: Final = 3
#: The highest doubling level read: kontra 1, rekontra 2, subkontra 3, mortkontra 4 … The seed
#: says "and so on ad infinitum"; 20 (a factor of about a million) is far past any real game.
KONTRA_MAX: Final = 20

#: The bids of an auction, as stored (seed 002 "The Bidding"): a pass, a number (2–8, each one
#: more than the last), "same" (i ja: the earlier bidder holds), "igra" (game, no talon) and the
#: game a game bidder reveals ("igra 5", "igra betl", "igra sans", "igra preferans").
BIDS: Final = (
    ("pass", "same", "igra")
    + tuple(str(n) for n in CONTRACT_VALUES)
    + tuple(contract_name(n, True) for n in CONTRACT_VALUES)
)

# --- writing -------------------------------------------------------------------------------


def _deal_dict(deal: BalkanDeal) -> dict[str, Json]:
    if isinstance(deal, Hand):
        return {
            "type": "hand",
            "declarer": deal.declarer,
            "contract": deal.contract,
            "game": deal.game,
            "defence": [Defence(d).value for d in deal.defence],
            "kontra": deal.kontra,
            "kontra_by": deal.kontra_by,
            "tricks": None if deal.tricks is None else list(deal.tricks),
            "auction": None if deal.auction is None else [[s, b] for s, b in deal.auction],
            "dealer": deal.dealer,
        }
    if isinstance(deal, AllPass):
        return {"type": "all-pass", "dealer": deal.dealer}
    return {
        "type": "penalty",
        "player": deal.player,
        "rule": deal.rule,
        "column": deal.column,
        "soups": [[s, p] for s, p in deal.soups],
        "note": deal.note,
    }


def row_to_list(row: BalkanSheetRow) -> list[dict[str, Json]]:
    """A sheet row as JSON: one ``{"column", "soups", "refas"}`` object per seat."""
    return [{"column": x.column, "soups": list(x.soups), "refas": x.refas} for x in row]


def sheet_to_dict(sheet: BalkanSheet) -> dict[str, Json]:
    """The body of a written sheet (without the format/version header)."""
    return {
        "running": [None if row is None else row_to_list(row) for row in sheet.running],
        "final": None if sheet.final is None else row_to_list(sheet.final),
        "result": None if sheet.result is None else list(sheet.result),
    }


def to_dict(protocol: BalkanProtocol, sheet: BalkanSheet | None = None) -> dict[str, Json]:
    """A protocol (and optionally the sheet the players wrote) as a version-1 document."""
    data: dict[str, Json] = {
        "format": PROTOCOL_FORMAT,
        "version": VERSION,
        "convention": protocol.convention,
        "options": dict(protocol.options),
        "bula": protocol.bula,
        "players": list(protocol.players),
        "first_dealer": protocol.first_dealer,
        "ending": Ending(protocol.ending).value,
        "deals": [_deal_dict(d) for d in protocol.deals],
    }
    if sheet is not None:
        data["sheet"] = sheet_to_dict(sheet)
    return data


def dumps(
    protocol: BalkanProtocol, sheet: BalkanSheet | None = None, *, indent: int | None = 2
) -> str:
    """The protocol as JSON text (UTF-8 characters kept, not escaped)."""
    return dumps_document(to_dict(protocol, sheet), indent)


def dumps_sheet(sheet: BalkanSheet, *, indent: int | None = 2) -> str:
    """A sheet on its own: ``{"format": "pulka-balkan-sheet", "version": 1, ...}``."""
    return dumps_document(envelope(SHEET_FORMAT, VERSION, sheet_to_dict(sheet)), indent)


# --- reading -------------------------------------------------------------------------------

_seat = _int(0, SEATS - 1, f"a seat number from 0 to {SEATS - 1}")
_tricks = _int(0, 10, "a trick count from 0 to 10")
_whole = _int()
_points = _int(-(10**9), 10**9, "a whole number of points")


def _contract(value: Json, path: str) -> int:
    return _int(2, 8, "a contract number from 2 to 8 (2–5 trumps, 6 betl, 7 sans, 8 preferans)")(
        value, path
    )


def _defence(value: Json, path: str) -> Defence:
    try:
        return Defence(value)
    except ValueError:
        raise _fail(path, "'play', 'drop' or 'invite'", value) from None


def _defences(value: Json, path: str) -> tuple[Defence, ...]:
    what = 'the two defenders\' decisions, e.g. ["play", "drop"]'
    if not isinstance(value, list) or len(value) != 2:
        raise _fail(path, what, value)
    return tuple(_defence(v, f"{path}[{i}]") for i, v in enumerate(value))


def _per_seat(
    item: Callable[[Json, str], Any], what: str
) -> Callable[[Json, str], tuple[Any, ...]]:
    def read(value: Json, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != SEATS:
            raise _fail(path, what, value)
        return tuple(item(v, f"{path}[{i}]") for i, v in enumerate(value))

    return read


def _bid(value: Json, path: str) -> str:
    if value not in BIDS:
        raise _fail(
            path, "a bid: 'pass', 'same', 'igra', '2'…'8' or 'igra 5', 'igra betl' …", value
        )
    return str(value)


def _deal(value: Json, path: str) -> BalkanDeal:
    obj = _Object(value, path, "a deal object")
    kind = obj.get("type", _str)
    deal: BalkanDeal
    if kind == "hand":
        deal = Hand(
            declarer=obj.get("declarer", _seat),
            contract=obj.get("contract", _contract),
            game=obj.get("game", _bool, False),
            defence=obj.get("defence", _defences, (Defence.PLAY, Defence.PLAY)),
            kontra=obj.get(
                "kontra", _int(0, KONTRA_MAX, f"a doubling level from 0 to {KONTRA_MAX}"), 0
            ),
            kontra_by=obj.get("kontra_by", _optional(_seat), None),
            tricks=obj.get(
                "tricks", _optional(_per_seat(_tricks, "3 trick counts, one per seat")), None
            ),
            auction=obj.get(
                "auction", _optional(_list(_pair(_seat, _bid, "a [seat, bid] pair"))), None
            ),
            dealer=obj.get("dealer", _optional(_seat), None),
        )
    elif kind == "all-pass":
        deal = AllPass(dealer=obj.get("dealer", _optional(_seat), None))
    elif kind == "penalty":
        deal = Penalty(
            player=obj.get("player", _seat),
            rule=obj.get("rule", _str, ""),
            column=obj.get("column", _points, 0),
            soups=obj.get(
                "soups", _list(_pair(_seat, _points, "a [writer seat, points] pair")), ()
            ),
            note=obj.get("note", _str, ""),
        )
    else:
        raise _fail(f"{path}.type", "'hand', 'all-pass' or 'penalty'", kind)
    obj.finish()
    return deal


def _line(value: Json, path: str) -> BalkanSheetLine:
    obj = _Object(value, path, "an object with column, soups and refas")
    line = BalkanSheetLine(
        column=obj.get("column", _points),
        soups=obj.get("soups", _per_seat(_points, "3 soups, one against each seat")),
        refas=obj.get("refas", _int(0, 99, "a number of refas from 0 to 99"), 0),
    )
    obj.finish()
    return line


_row = _per_seat(_line, "a list of one object per player (3)")


def _sheet_body(obj: _Object) -> BalkanSheet:
    return BalkanSheet(
        running=obj.get("running", _list(_optional(_row)), ()),
        final=obj.get("final", _optional(_row), None),
        result=obj.get("result", _optional(_per_seat(_points, "3 results, one per seat")), None),
    )


def sheet_from_dict(data: Json, path: str = "$.sheet") -> BalkanSheet:
    """Read the body of a sheet (as under a protocol's ``"sheet"`` key).

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    obj = _Object(data, path, "a sheet object")
    sheet = _sheet_body(obj)
    obj.finish()
    return sheet


def _convention(value: Json, path: str) -> str:
    name = _str(value, path)
    try:
        find_convention(name)
    except InvalidConventionError:
        raise _fail(path, "croatian, serbian, slovenian or an alias", name) from None
    return name


def _check_options(
    convention: str, options: tuple[tuple[str, OptionValue], ...], path: str
) -> tuple[tuple[str, OptionValue], ...]:
    conv = find_convention(convention)
    for name, value in options:
        if name not in OPTION_NAMES:
            known = ", ".join(sorted(OPTION_NAMES))
            raise JsonFormatError(f"{path}.{name}", f"unknown option (known: {known})")
        try:
            check_option(name, value)
        except InvalidConventionError as error:
            raise JsonFormatError(f"{path}.{name}", str(error)) from None
    try:  # the options together: refas=false with a refa_limit …
        conv.with_options(**dict(options))
    except InvalidConventionError as error:
        raise JsonFormatError(path, str(error)) from None
    return tuple(sorted(options))


def _protocol_body(obj: _Object) -> tuple[BalkanProtocol, BalkanSheet | None]:
    obj.get("format", _str)
    obj.get("version", _whole)
    players = obj.get("players", _list(_str, "a list of 3 names"))
    if len(players) != SEATS:
        raise _fail(f"{obj.path}.players", "a list of 3 names", list(players))
    check_names(players, f"{obj.path}.players", '002 "Players and Deal"')
    convention = obj.get("convention", _convention, "croatian")
    protocol = BalkanProtocol(
        players=players,
        bula=obj.get("bula", _int(1, 10**6, "a whole number from 1 to 1000000")),
        deals=obj.get("deals", _list(_deal), ()),
        convention=convention,
        options=_check_options(convention, obj.get("options", _options, ()), "$.options"),
        first_dealer=obj.get("first_dealer", _seat, 0),
        ending=obj.get("ending", _ending, Ending.CLOSED),
    )
    sheet = obj.get("sheet", _optional(sheet_from_dict), None)
    obj.finish()
    return protocol, sheet


def _balkan_header(data: Json, kind: str) -> dict[str, Json]:
    return _header(data, kind, VERSION, MIGRATIONS)


def from_dict(data: Json) -> tuple[BalkanProtocol, BalkanSheet | None]:
    """Read a protocol document (already decoded); the sheet is ``None`` when absent.

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    return _protocol_body(_Object(_balkan_header(data, PROTOCOL_FORMAT), "$", "a JSON object"))


def loads_with_sheet(text: str) -> tuple[BalkanProtocol, BalkanSheet | None]:
    """Read a protocol document and the sheet it may carry.

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    return from_dict(_decode(text))


def loads(text: str) -> BalkanProtocol:
    """Read a protocol document.

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    return loads_with_sheet(text)[0]


def loads_sheet(text: str) -> BalkanSheet:
    """Read a sheet: a ``pulka-balkan-sheet`` document, or the ``sheet`` of a protocol document.

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    return _sheet_document(
        text, (PROTOCOL_FORMAT, SHEET_FORMAT), "sheet", from_dict, _balkan_header, _sheet_body
    )
