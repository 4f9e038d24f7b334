"""The text notation of a protocol: a referee types it from a paper sheet, one deal a line.

The grammar, with examples, is in ``docs/protocol-format.md``. In short::

    format: pulka 1
    convention: sochi
    options: whist_style=gentleman, raspasy_progression_limit=3
    target: 10
    players: Anna, Boris, Vera
    first dealer: Vera
    ending: closed

    1. Anna 6♠ / ровно w/p          # the 001 §4.2.11 column: "6♠ / ровно"
    2. Boris 8♦ / без одной w2/w1 open
    3. raspasy 4-3-3
    4. Vera мизер / ровно
    5. penalty Boris §3.2.21 gora=5 note="looked at the talon"

:func:`parse` reads it into a :class:`~scoring.russian.protocol.Protocol`; :func:`format` writes the
canonical text back, so ``parse(format(p)) == p`` and ``format(parse(t))`` is canonical.

>>> text = "players: Anna, Boris, Vera\\ntarget: 10\\nAnna 6S = w/p\\nraspasy 4-3-3\\n"
>>> p = parse(text)
>>> p.deals[0].declarer_tricks, p.deals[1].tricks
(6, (4, 3, 3))
>>> print(format(p).splitlines()[-2])
1. Anna 6♠ / ровно w/p
>>> parse(format(p)) == p
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from ..notation_lexer import (
    MAX_DEALS,
    Cursor,
    Expected,
    NotationError,
    SheetLines,
    Token,
    format_version,
    header_key,
    header_once,
    options_line,
    player_names,
    protocol_lines,
    protocol_text,
    sheet_lines,
    sheet_text,
    squash,
)
from ..notation_lexer import header_fields as shared_header_fields
from .notation_deals import RESULT_WORDS, DealReader, referrer, write_deal
from .protocol import (
    Deal,
    Ending,
    Protocol,
    Sheet,
    SheetLine,
    SheetRow,
)

__all__ = [
    "NotationError",
    "header_fields",
    "parse",
    "parse_with_sheet",
    "parse_sheet",
    "format",
    "format_sheet",
    "deal_text",
    "FORMAT_LINE",
    "MAX_DEALS",
    "RESULT_WORDS",
]

#: The first line :func:`format` writes; a file may omit it (version 1 is assumed).
FORMAT_LINE: Final = "format: pulka 1"


_HEADERS: Final = {
    "format": "format", "формат": "format",
    "convention": "convention", "variant": "convention", "конвенция": "convention",
    "options": "options", "option": "options", "опции": "options", "договорённости": "options",
    "target": "target", "pulka": "target", "пулька": "target", "до": "target",
    "players": "players", "игроки": "players",
    "firstdealer": "first_dealer", "dealer": "first_dealer", "первыйсдающий": "first_dealer",
    "сдаёт": "first_dealer", "сдает": "first_dealer",
    "ending": "ending", "end": "ending", "окончание": "ending",
}  # fmt: skip
_ENDINGS: Final = {e.value: e for e in Ending} | {
    "закрыта": Ending.CLOSED, "сыграна": Ending.CLOSED, "соглашение": Ending.AGREEMENT,
    "time": Ending.TIME_LIMIT, "время": Ending.TIME_LIMIT, "играется": Ending.IN_PROGRESS,
}  # fmt: skip

# --- headers and the whole text --------------------------------------------------------------


def _header(reader: DealReader, cur: Cursor, key: str, found: dict[str, object]) -> None:
    head = cur.toks[0]
    header_once(cur, key, found)
    if key == "format":
        found[key] = format_version(cur, "pulka")
    elif key == "convention":
        found[key] = cur.text("convention_russian")
    elif key == "options":
        found[key] = options_line(cur, dict(found.get("options", {})))  # type: ignore[call-overload]
    elif key == "target":
        found[key] = cur.integer("pulka_size", 1)
    elif key == "players":
        reader.players = player_names(cur, head.col)
        found[key] = reader.players
    elif key == "first_dealer":
        if reader.players is None:
            raise NotationError(cur.number, head.col, "PLAYERS_FIRST")
        found[key] = reader.seat(cur)
    else:
        tok = cur.expect("word", "ending")
        if tok.text.lower() not in _ENDINGS:
            raise cur.error("ending", tok)
        found[key] = _ENDINGS[tok.text.lower()]
    if not cur.done():
        raise cur.error("end_of_line", cur.peek())


def _header_key(tokens: list[Token]) -> tuple[str, int] | None:
    return header_key(tokens, lambda words: _HEADERS.get(squash(words)))


_SHEET_WORDS: Final = frozenset({"sheet", "запись", "written"})
_FINAL_WORDS: Final = frozenset({"final", "итог"})
_RESULT_SHEET_WORDS: Final = frozenset({"result", "результат"})


@dataclass
class _SheetLines(SheetLines[SheetRow, tuple[Fraction, ...]]):
    """The ``sheet …:`` lines: what the players wrote, for :mod:`scoring.russian.check`."""

    final_words = _FINAL_WORDS
    result_words = _RESULT_SHEET_WORDS

    def row(self, reader: DealReader, cur: Cursor) -> SheetRow:
        return _sheet_row(reader, cur)

    def results(self, reader: DealReader, cur: Cursor) -> tuple[Fraction, ...]:
        assert reader.players is not None
        values = [_fraction(cur)]
        while cur.at(","):
            cur.i += 1
            values.append(_fraction(cur))
        if len(values) != len(reader.players):
            raise cur.error(Expected("results_per_seat", n=len(reader.players)), cur.peek())
        return tuple(values)

    def sheet(self, deals: int) -> Sheet | None:
        """The sheet read; a ``sheet N:`` line must name one of the ``deals`` (a row is kept
        for every deal up to the last one written, so a bound keeps ``sheet 10000000:`` from
        costing ten million rows).

        :raises NotationError: at the first line whose row number is beyond the deals.
        """
        if not self.seen:
            return None
        last = max(self.running, default=0)
        if last > deals:
            first = min(i for i in self.running if i > deals)
            number, col = self.where[first]
            raise NotationError(number, col, "SHEET_NO_DEAL", n=first, deals=deals)
        running = tuple(self.running.get(i) for i in range(1, last + 1))
        return Sheet(running=running, final=self.final, result=self.result)


def _fraction(cur: Cursor) -> Fraction:
    tok = cur.peek()
    expected = "result_whists"
    if tok is None or tok.kind != "word" or not re.fullmatch(r"[-+]?[0-9]+(\.[0-9]+)?", tok.text):
        raise cur.error(expected, tok)
    cur.i += 1
    if "." in tok.text or not cur.at("/"):
        return Fraction(tok.text)
    cur.i += 1
    below = cur.peek()
    if below is None or below.kind != "word" or not re.fullmatch(r"[1-9][0-9]*", below.text):
        raise cur.error("denominator", below)
    cur.i += 1
    return Fraction(int(tok.text), int(below.text))


def _sheet_row(reader: DealReader, cur: Cursor) -> SheetRow:
    """``Anna 10 1 18 32; Boris …``: pulya, gora, then the whists on each other seat."""
    assert reader.players is not None
    n = len(reader.players)
    lines: dict[int, SheetLine] = {}
    while True:
        tok = cur.peek()
        seat = reader.seat(cur)
        if seat in lines:
            raise cur.error("each_player_once", tok)
        numbers = [cur.integer("written_number", -(10**9)) for _ in range(n + 1)]
        whists = numbers[2:]
        whists.insert(seat, 0)
        lines[seat] = SheetLine(numbers[0], numbers[1], tuple(whists))
        if not cur.at(";"):
            break
        cur.i += 1
    missing = [reader.players[s] for s in range(n) if s not in lines]
    if missing:
        raise cur.error(Expected("next_row_russian", name=missing[0]), cur.peek())
    return tuple(lines[s] for s in range(n))


def header_fields(text: str) -> frozenset[str]:
    """The header fields ``text`` gives (``convention``, ``options``, ``target``, ``players``,
    ``first_dealer``, ``ending``, ``format``): what a reader must take from the text rather
    than from elsewhere. Lines that do not read are skipped (:func:`parse` reports them).

    >>> sorted(header_fields("target: 10\\nконвенция: питер\\nplayers: A, B, C"))
    ['convention', 'players', 'target']
    """
    return shared_header_fields(text, _header_key)


def parse(text: str) -> Protocol:
    """Read a protocol written in the text notation (``sheet`` lines are read and dropped;
    :func:`parse_with_sheet` keeps them).

    :raises NotationError: naming the line and column and what was expected there.
    """
    return parse_with_sheet(text)[0]


def parse_with_sheet(text: str) -> tuple[Protocol, Sheet | None]:
    """Read a protocol and the sheet the players wrote (``None`` without ``sheet`` lines).

    :raises NotationError: naming the line and column and what was expected there.
    """
    reader = DealReader()
    found: dict[str, object] = {}
    sheet = _SheetLines()
    deals: list[Deal] = protocol_lines(
        text,
        key_of=_header_key,
        header=lambda cur, key: _header(reader, cur, key, found),
        found=found,
        required=("players", "target"),
        is_sheet=lambda word: word.lower() in _SHEET_WORDS,
        sheet=lambda cur: sheet.line(reader, cur),
        deal=reader.deal,
        nothing="deal_russian",
    )
    options = found.get("options", {})
    assert isinstance(options, dict)
    protocol = Protocol(
        players=reader.players or (),
        target=found["target"],  # type: ignore[arg-type]
        deals=tuple(deals),
        convention=found.get("convention", "sochi"),  # type: ignore[arg-type]
        options=tuple(options.items()),
        first_dealer=found.get("first_dealer", 0),  # type: ignore[arg-type]
        ending=found.get("ending", Ending.CLOSED),  # type: ignore[arg-type]
    )
    return protocol, sheet.sheet(len(deals))


def parse_sheet(text: str, players: tuple[str, ...], *, deals: int = MAX_DEALS) -> Sheet:
    """Read a file of ``sheet`` lines alone, for the table of ``players``; a ``sheet N:`` line
    must name one of the protocol's ``deals`` (without the protocol at hand, at most
    :data:`MAX_DEALS`).

    :raises NotationError: naming the line and column and what was expected there.
    """
    reader = DealReader(players)
    sheet = _SheetLines()
    for cur in sheet_lines(text, lambda word: word.lower() in _SHEET_WORDS):
        sheet.line(reader, cur)
    return sheet.sheet(deals) or Sheet()


def format(  # noqa: A001 - pairs with parse
    protocol: Protocol, sheet: Sheet | None = None, *, ascii: bool = False
) -> str:
    """The canonical text of a protocol (``ascii=True``: 6S, mis, =, -1, raspasy, penalty),
    followed by the ``sheet`` lines of the written sheet, if given.

    :raises ValueError: for a value the notation cannot hold (a seat not at the table, tricks
        outside 0–10, an empty defenders' split).
    """
    ref = referrer(protocol.players)
    return protocol_text(
        FORMAT_LINE,
        protocol.convention,
        protocol.options,
        f"target: {protocol.target}",
        protocol.players,
        ref(protocol.first_dealer),
        Ending(protocol.ending).value,
        (write_deal(deal, ref, ascii) for deal in protocol.deals),
        lambda: "" if sheet is None else format_sheet(sheet, protocol.players),
    )


def format_sheet(sheet: Sheet, players: tuple[str, ...]) -> str:
    """The ``sheet`` lines of a written sheet: ``sheet 3: Anna 2 1 6 0; …``, ``sheet final:
    …``, ``sheet result: 14, -80/3, …``. Rows left empty at the end of ``running`` are not
    written (they mean the same: nothing copied).

    :raises ValueError: for a row that is not one line per player with a whist per seat, or
        whists a player wrote on himself.
    """
    ref = referrer(players)
    n = len(players)

    def row_text(row: SheetRow) -> str:
        if len(row) != n or any(len(x.whists) != n or x.whists[s] for s, x in enumerate(row)):
            raise ValueError(f"a sheet row needs {n} lines of {n} whists, 0 at the writer's seat")
        return "; ".join(
            " ".join([ref(s), str(x.pulya), str(x.gora)] + [str(w) for q, w in enumerate(x.whists)
                                                          if q != s])
            for s, x in enumerate(row)
        )  # fmt: skip

    return sheet_text(
        sheet.running, sheet.final, sheet.result, row_text, n, lambda r: str(Fraction(r))
    )


def deal_text(protocol: Protocol, index: int, *, ascii: bool = False) -> str:
    """One deal of ``protocol`` as its notation line, without the number.

    :raises ValueError: as :func:`format`.
    """
    return write_deal(protocol.deals[index], referrer(protocol.players), ascii)
