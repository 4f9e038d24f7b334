"""The Balkan text notation: a referee types a Croatian, Serbian or Slovenian game from the paper
sheet, one deal a line, in the players' own words (seed 002).

The grammar, with examples, is in ``docs/balkan-format.md``. In short::

    format: balkan 1
    pravila: hrvatski                 # convention: croatian | serbian | slovenian
    bula: 30
    igrači: Ana, Boris, Cvita         # players, in playing order
    prvi dijeli: Ana                  # first dealer

    1. Cvita bundeva ide/ide štihovi 2-2-6
    2. Boris žir ide/ne ide štihovi 0-7-3
    3. dalje                          # all passed: a refa
    4. Ana list ide/ne ide kontra Boris štihovi 7-2-1
    5. kazna Boris §5.1 bula=10 napomena="looked at the talon"

:func:`parse` reads it into a :class:`~scoring.balkan.protocol.BalkanProtocol`; :func:`format`
writes the canonical text back, so ``parse(format(p)) == p`` and ``format(parse(t))`` is
canonical. Keywords are matched without case and without diacritics (``stihovi``, ``zir``).

>>> p = parse("bula: 30\\nplayers: Ana, Boris, Cvita\\nCvita 3 ide/ide tricks 2-2-6\\nrefa\\n")
>>> p.deals[0].contract, p.deals[0].tricks, type(p.deals[1]).__name__
(3, (2, 2, 6), 'AllPass')
>>> print(format(p).splitlines()[-2])
1. Cvita bundeva ide/ide štihovi 2-2-6
>>> parse(format(p)) == p
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from rules.balkan import check_option, find_convention
from rules.conventions import InvalidConventionError
from scoring.model import Ending, OptionValue
from scoring.notation_lexer import (
    MAX_DEALS,
    Cursor,
    Expected,
    NotationError,
    SheetLines,
    Token,
    format_version,
    header_key,
    header_once,
    option_value,
    options_line,
    protocol_lines,
    protocol_text,
    sheet_lines,
    sheet_text,
    squash,
)

from .notation_deals import SEATS, HandReader, fold, referrer, write_deal
from .protocol import BalkanDeal, BalkanProtocol, BalkanSheet, BalkanSheetLine, BalkanSheetRow

__all__ = [
    "NotationError",
    "parse",
    "parse_with_sheet",
    "parse_sheet",
    "format",
    "format_sheet",
    "deal_text",
    "FORMAT_LINE",
]

#: The first line :func:`format` writes; a file may omit it (version 1 is assumed) when its
#: convention line names a Balkan convention.
FORMAT_LINE: Final = "format: balkan 1"

_HEADERS: Final = {
    "format": "format",
    "convention": "convention", "konvencija": "convention", "pravila": "convention",
    "variant": "convention",
    "options": "options", "option": "options", "opcije": "options", "opcija": "options",
    "bula": "bula",
    "players": "players", "igraci": "players", "igralci": "players",
    "firstdealer": "first_dealer", "dealer": "first_dealer", "prvidijeli": "first_dealer",
    "prvideli": "first_dealer", "dijeli": "first_dealer", "deli": "first_dealer",
    "ending": "ending", "end": "ending", "kraj": "ending", "konec": "ending",
}  # fmt: skip
_ENDINGS: Final = {e.value: e for e in Ending} | {
    "gotovo": Ending.CLOSED, "zavrseno": Ending.CLOSED, "dogovor": Ending.AGREEMENT,
    "time": Ending.TIME_LIMIT, "vrijeme": Ending.TIME_LIMIT, "vreme": Ending.TIME_LIMIT,
    "cas": Ending.TIME_LIMIT, "traje": Ending.IN_PROGRESS,
}  # fmt: skip
_TRUE: Final = frozenset({"da", "true", "yes", "on"})
_FALSE: Final = frozenset({"ne", "false", "no", "off"})

# --- headers ---------------------------------------------------------------------------------


def _option(cur: Cursor) -> OptionValue:
    tok = cur.peek()
    if tok is not None and tok.kind == "word" and fold(tok.text) in _TRUE | _FALSE:
        cur.i += 1
        return fold(tok.text) in _TRUE
    return option_value(cur)


@dataclass
class _Headers:
    found: dict[str, object] = field(default_factory=dict)
    places: dict[str, tuple[int, int]] = field(default_factory=dict)  # line, column of a value

    def read(self, reader: HandReader, cur: Cursor, key: str) -> None:
        head = cur.toks[0]
        found = self.found
        header_once(cur, key, found)
        tok = cur.peek()
        if tok is not None:
            self.places[key] = (cur.number, tok.col)
        if key == "format":
            found[key] = format_version(cur, "balkan")
        elif key == "convention":
            name = cur.text("convention_balkan")
            try:
                find_convention(name)
            except InvalidConventionError:
                raise cur.error("convention_balkan", tok) from None
            found[key] = name
        elif key == "options":
            options: dict[str, OptionValue] = dict(found.get("options", {}))  # type: ignore[call-overload]

            def place(name: str, col: int) -> None:
                self.places[f"option {name}"] = (cur.number, col)

            found[key] = options_line(cur, options, _option, place)
        elif key == "bula":
            found[key] = cur.integer("bula_size", 1, 10**6)
        elif key == "players":
            names = [cur.text("player_name")]
            while cur.at(","):
                cur.i += 1
                names.append(cur.text("player_name"))
            if len(names) != SEATS:
                raise NotationError(cur.number, head.col, "PLAYERS_3", n=len(names))
            if len({name.lower() for name in names}) != len(names):
                raise NotationError(cur.number, head.col, "SAME_NAME")
            reader.players = tuple(names)
            found[key] = reader.players
        elif key == "first_dealer":
            if reader.players is None:
                raise NotationError(cur.number, head.col, "PLAYERS_FIRST")
            found[key] = reader.seat(cur)
        else:
            expected = "ending_balkan"
            tok = cur.expect("word", expected)
            if fold(tok.text) not in _ENDINGS:
                raise cur.error(expected, tok)
            found[key] = _ENDINGS[fold(tok.text)]
        if not cur.done():
            raise cur.error("end_of_line", cur.peek())

    def options(self, convention: str) -> tuple[tuple[str, OptionValue], ...]:
        """The options, checked against the convention (an error points at the option)."""
        options = self.found.get("options", {})
        assert isinstance(options, dict)
        conv = find_convention(convention)
        for name, value in options.items():
            try:
                check_option(name, value)
            except InvalidConventionError as error:
                line, column = self.places[f"option {name}"]
                raise NotationError.of(line, column, error) from None
        try:  # the options together: refas=false with a refa_limit …
            conv.with_options(**options)
        except InvalidConventionError as error:
            line, column = min(self.places[f"option {name}"] for name in options)
            raise NotationError.of(line, column, error) from None
        return tuple(sorted(options.items()))


def _header_key(tokens: list[Token]) -> tuple[str, int] | None:
    return header_key(tokens, lambda words: _HEADERS.get(fold(squash(words))))


# --- sheet lines ------------------------------------------------------------------------------

_SHEET_WORDS: Final = frozenset({"sheet", "zapis"})
_FINAL_WORDS: Final = frozenset({"final", "konacno", "zavrsno"})
_RESULT_WORDS: Final = frozenset({"result", "rezultat", "obracun"})


@dataclass
class _SheetLines(SheetLines[BalkanSheetRow, tuple[int, ...]]):
    """The ``sheet …:`` lines: what the players wrote, for the checker."""

    final_words = _FINAL_WORDS
    result_words = _RESULT_WORDS

    def fold(self, word: str) -> str:
        return fold(word)

    def row_number(self, cur: Cursor, which: Token, number: str) -> None:
        if int(number) > MAX_DEALS:  # a row per deal: no file allocates more (issue 25 item 7)
            raise NotationError(cur.number, which.col, "SHEET_AT_MOST", n=number, most=MAX_DEALS)

    def row(self, reader: HandReader, cur: Cursor) -> BalkanSheetRow:
        return _sheet_row(reader, cur)

    def results(self, reader: HandReader, cur: Cursor) -> tuple[int, ...]:
        values = [_points(cur, "result_points")]
        while cur.at(","):
            cur.i += 1
            values.append(_points(cur, "result_points"))
        if len(values) != SEATS:
            raise cur.error("results_balkan", cur.peek())
        return tuple(values)

    def sheet(self) -> BalkanSheet | None:
        if not self.seen:
            return None
        last = max(self.running, default=0)
        running = tuple(self.running.get(i) for i in range(1, last + 1))
        return BalkanSheet(running=running, final=self.final, result=self.result)


def _points(cur: Cursor, expected: str) -> int:
    tok = cur.peek()
    if tok is None or tok.kind != "word" or not re.fullmatch(r"[-+−]?[0-9]{1,10}", tok.text):
        raise cur.error(expected, tok)
    cur.i += 1
    return int(tok.text.replace("−", "-"))


def _sheet_row(reader: HandReader, cur: Cursor) -> BalkanSheetRow:
    """``Ana -30 12 0 1; Boris …``: the declarer column (signed: −bula at the start, positive
    under the hat), the soups against each other player in seat order, the unplayed refas."""
    assert reader.players is not None
    lines: dict[int, BalkanSheetLine] = {}
    while True:
        tok = cur.peek()
        seat = reader.seat(cur)
        if seat in lines:
            raise cur.error("each_player_once", tok)
        column = _points(cur, "declarer_column")
        soups = [_points(cur, "soup") for _ in range(SEATS - 1)]
        soups.insert(seat, 0)
        refas = cur.integer("refas", 0, 99)
        lines[seat] = BalkanSheetLine(column, tuple(soups), refas)
        if not cur.at(";"):
            break
        cur.i += 1
    missing = [reader.players[s] for s in range(SEATS) if s not in lines]
    if missing:
        raise cur.error(Expected("next_row_balkan", name=missing[0]), cur.peek())
    return tuple(lines[s] for s in range(SEATS))


# --- the whole text ---------------------------------------------------------------------------


def parse(text: str) -> BalkanProtocol:
    """Read a protocol written in the Balkan notation (``sheet`` lines are read and dropped;
    :func:`parse_with_sheet` keeps them).

    :raises NotationError: naming the line and column and what was expected there.
    """
    return parse_with_sheet(text)[0]


def parse_with_sheet(text: str) -> tuple[BalkanProtocol, BalkanSheet | None]:
    """Read a protocol and the sheet the players wrote (``None`` without ``sheet`` lines).

    :raises NotationError: naming the line and column and what was expected there.
    """
    reader = HandReader()
    headers = _Headers()
    sheet = _SheetLines()
    deals: list[BalkanDeal] = protocol_lines(
        text,
        key_of=_header_key,
        header=lambda cur, key: headers.read(reader, cur, key),
        found=headers.found,
        required=("players", "bula"),
        is_sheet=lambda word: fold(word) in _SHEET_WORDS,
        sheet=lambda cur: sheet.line(reader, cur),
        deal=reader.deal,
        nothing="deal_balkan",
    )
    found = headers.found
    convention = str(found.get("convention", "croatian"))
    protocol = BalkanProtocol(
        players=reader.players or (),
        bula=found["bula"],  # type: ignore[arg-type]
        deals=tuple(deals),
        convention=convention,
        options=headers.options(convention),
        first_dealer=found.get("first_dealer", 0),  # type: ignore[arg-type]
        ending=found.get("ending", Ending.CLOSED),  # type: ignore[arg-type]
    )
    return protocol, sheet.sheet()


def parse_sheet(text: str, players: tuple[str, ...]) -> BalkanSheet:
    """Read a file of ``sheet`` lines alone, for the table of ``players``.

    :raises NotationError: naming the line and column and what was expected there.
    """
    reader = HandReader(players)
    sheet = _SheetLines()
    for cur in sheet_lines(text, lambda word: fold(word) in _SHEET_WORDS):
        sheet.line(reader, cur)
    return sheet.sheet() or BalkanSheet()


def format(  # noqa: A001 - pairs with parse
    protocol: BalkanProtocol, sheet: BalkanSheet | None = None, *, ascii: bool = False
) -> str:
    """The canonical text of a protocol, followed by the ``sheet`` lines of the written sheet,
    if given. ``ascii=True`` writes the keywords without diacritics (``zir``, ``stihovi``).

    :raises ValueError: for a value the notation cannot hold (see
        :func:`scoring.balkan.notation_deals.write_deal`, :func:`format_sheet`).
    """
    ref = referrer(protocol.players)
    if len(protocol.players) != SEATS:
        raise ValueError(f"a Balkan table has 3 players, not {len(protocol.players)}")
    try:
        find_convention(protocol.convention)
    except InvalidConventionError as error:
        raise ValueError(str(error)) from None
    return protocol_text(
        FORMAT_LINE,
        protocol.convention,
        protocol.options,
        f"bula: {protocol.bula}",
        protocol.players,
        ref(protocol.first_dealer),
        Ending(protocol.ending).value,
        (write_deal(deal, ref, protocol.convention, ascii) for deal in protocol.deals),
        lambda: "" if sheet is None else format_sheet(sheet, protocol.players),
        _option,
    )


def format_sheet(sheet: BalkanSheet, players: tuple[str, ...]) -> str:
    """The ``sheet`` lines of a written sheet: ``sheet 3: Ana -10 12 0 0; …``, ``sheet final:
    …``, ``sheet result: 506, -496, -10``. Rows left empty at the end of ``running`` are not
    written (they mean the same: nothing copied).

    :raises ValueError: for a row that is not one line per player with a soup per seat, or a
        soup a player wrote against himself.
    """
    ref = referrer(players)

    def row_text(row: BalkanSheetRow) -> str:
        if len(row) != SEATS or any(len(x.soups) != SEATS or x.soups[s] for s, x in enumerate(row)):
            raise ValueError("a sheet row needs 3 lines of 3 soups, 0 at the writer's seat")
        return "; ".join(
            " ".join([ref(s), str(x.column)]
                     + [str(v) for q, v in enumerate(x.soups) if q != s] + [str(x.refas)])
            for s, x in enumerate(row)
        )  # fmt: skip

    return sheet_text(sheet.running, sheet.final, sheet.result, row_text, SEATS)


def deal_text(protocol: BalkanProtocol, index: int, *, ascii: bool = False) -> str:
    """One deal of ``protocol`` as its notation line, without the number.

    :raises ValueError: as :func:`format`.
    """
    deal = protocol.deals[index]
    return write_deal(deal, referrer(protocol.players), protocol.convention, ascii)
