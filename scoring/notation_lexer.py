"""The lexer of every family's text notation: tokens, a cursor over one line that reports
errors with line and column, quoting of free text, and the fields every notation reads alike (a
player by name or seat number, how a seat is written, an option's value, the bound on deals).

Each family's notation (:mod:`scoring.russian.notation`, :mod:`scoring.balkan.notation`,
:mod:`scoring.pot.notation`, :mod:`scoring.priffe.notation`) reads its own words with these; this
module imports only :mod:`scoring.model` and :mod:`scoring.notation_errors` (each error's code
and words: a cursor is told what it expects by a code of that catalogue).

>>> [t.text for t in tokenize('Anna 6♠ / ровно w/p note="a; b" # comment', 1)]
['Anna', '6♠', '/', 'ровно', 'w', '/', 'p', 'note', '=', 'a; b']
>>> quote("Anna"), quote("Petrov, B.")
('Anna', '"Petrov, B."')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, TypeVar

from .model import OptionValue
from .notation_errors import NOTATION_ERRORS, PEOPLE, Expected, words

__all__ = [
    "NotationError",
    "Expected",
    "Want",
    "Token",
    "Cursor",
    "tokenize",
    "is_bare",
    "quote",
    "squash",
    "header_key",
    "header_once",
    "format_version",
    "header_fields",
    "token_lines",
    "sheet_lines",
    "protocol_lines",
    "protocol_text",
    "sheet_text",
    "SheetLines",
    "player_names",
    "option_value",
    "options_line",
    "option_text",
    "single_text",
    "SeatReader",
    "players_named",
    "referrer",
    "MAX_DEALS",
]

#: The most ``sheet N:`` rows :func:`parse_sheet` reads when it is not told the protocol's
#: number of deals (a pulka ended by the time limit has far fewer, 001 §4.2.3).
MAX_DEALS: Final = 1000

_PUNCT: Final = "/{};,=:§"
_SAFE_NAME: Final = re.compile(r"^[^\W\d_][\w.'’-]*$")


class NotationError(ValueError):
    """A line of the notation that cannot be read: ``line`` and ``column`` are 1-based.

    ``code`` is the error's stable code in :data:`~scoring.notation_errors.NOTATION_ERRORS` and
    ``params`` its values (an :class:`~scoring.notation_errors.Expected` says what was expected
    there; ``found`` is the offending token as Python quotes it). ``reason`` is the English
    message (the command line, the API, the logs); ``text`` the template people read, said in
    the reader's language with ``params`` by the Django side.

    :raises KeyError: for a code that has no words.
    """

    def __init__(self, line: int, column: int, code: str, /, **params: object) -> None:
        if code not in NOTATION_ERRORS:
            raise KeyError(f"no words for the notation error {code!r}")
        message = words(code, params)
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column
        self.code = code
        self.reason = message
        self.params = dict(params)

    @property
    def text(self) -> str:
        """The template people read (``%(name)s``), marked for the translators' catalogue."""
        return PEOPLE.get(self.code) or NOTATION_ERRORS[self.code]

    @classmethod
    def of(cls, line: int, column: int, error: Exception) -> NotationError:
        """The rules' refusal ``error`` (an unknown convention or option, a contract the rules
        do not have) at a place of a line: its own message, and its words where it has them."""
        return cls(line, column, "RULES", reason=error)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "word", "string" or the punctuation character itself
    text: str
    col: int


#: The most digits a number in the notation may have (as :data:`scoring.jsonio.MAX_DIGITS`).
MAX_NUMBER_DIGITS: Final = 30
_DIGITS: Final = re.compile(r"[0-9]+")


def tokenize(line: str, number: int) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(line):
        ch = line[i]
        if ch.isspace():
            i += 1
        elif ch == "#":
            break
        elif ch in _PUNCT:
            out.append(Token(ch, ch, i + 1))
            i += 1
        elif ch == '"':
            end = i + 1
            while end < len(line) and line[end] != '"':
                end += 2 if line[end] == "\\" else 1
            if end >= len(line):
                raise NotationError(number, i + 1, "UNTERMINATED_QUOTE")
            try:
                value = json.loads(line[i : end + 1])
            except json.JSONDecodeError as error:
                raise NotationError(number, i + 1, "BAD_QUOTE", detail=error.msg) from None
            out.append(Token("string", value, i + 1))
            i = end + 1
        else:
            start = i
            while i < len(line) and not line[i].isspace() and line[i] not in _PUNCT + '#"':
                i += 1
            word = line[start:i]
            longest = max((len(run) for run in _DIGITS.findall(word)), default=0)
            if longest > MAX_NUMBER_DIGITS:  # before any int(): Python's own limit says less
                raise NotationError(
                    number, start + 1, "NUMBER_TOO_LONG", digits=longest, most=MAX_NUMBER_DIGITS
                )
            out.append(Token("word", word, start + 1))
    return out


#: what a cursor's reader expected: a code of :data:`~scoring.notation_errors.EXPECTED`, or one
#: with its values
Want = str | Expected


class Cursor:
    """A cursor over one line's tokens that raises :class:`NotationError` with the column."""

    def __init__(self, tokens: list[Token], number: int, length: int) -> None:
        self.toks, self.number, self.i, self.end = tokens, number, 0, length + 1

    def peek(self, ahead: int = 0) -> Token | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def at(self, kind: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == kind

    def error(self, expected: Want, tok: Token | None) -> NotationError:
        """ "expected …, found …" at ``tok`` (at the end of the line for ``None``):
        ``expected`` is a code of :data:`~scoring.notation_errors.EXPECTED` or an
        :class:`~scoring.notation_errors.Expected`."""
        want = expected if isinstance(expected, Expected) else Expected(expected)
        if tok is None:
            return NotationError(self.number, self.end, "EXPECTED_END", expected=want)
        return NotationError(self.number, tok.col, "EXPECTED", expected=want, found=repr(tok.text))

    def expect(self, kind: str, expected: Want) -> Token:
        tok = self.peek()
        if tok is None or tok.kind != kind:
            raise self.error(expected, tok)
        self.i += 1
        return tok

    def integer(self, expected: Want, low: int = 0, high: int | None = None) -> int:
        tok = self.peek()
        if tok is None or tok.kind != "word" or not re.fullmatch(r"-?[0-9]+", tok.text):
            raise self.error(expected, tok)
        value = int(tok.text)
        if value < low or (high is not None and value > high):
            raise self.error(expected, tok)
        self.i += 1
        return value

    def text(self, expected: Want, stop: str = ",;}") -> str:
        """A quoted string, or the words up to a stop character, joined by single spaces."""
        tok = self.peek()
        if tok is not None and tok.kind == "string":
            self.i += 1
            return tok.text
        words: list[str] = []
        while (tok := self.peek()) is not None and tok.kind not in stop:
            if tok.kind != "word":
                raise self.error(
                    Expected("quote_it", what=_want(expected), token=repr(tok.text)), tok
                )
            words.append(tok.text)
            self.i += 1
        if not words:
            raise self.error(expected, tok)
        return " ".join(words)

    def done(self) -> bool:
        return self.i >= len(self.toks)


def player_names(cur: Cursor, col: int) -> tuple[str, ...]:
    """A ``players:`` line's names, comma-separated: three or four, no two the same (ignoring
    case), as every family's text notation writes them. ``col`` is the header's column, for the
    error."""
    names = [cur.text("player_name")]
    while cur.at(","):
        cur.i += 1
        names.append(cur.text("player_name"))
    if len(names) not in (3, 4):
        raise NotationError(cur.number, col, "PLAYERS_3_OR_4", n=len(names))
    if len({name.lower() for name in names}) != len(names):
        raise NotationError(cur.number, col, "SAME_NAME")
    return tuple(names)


def squash(text: str) -> str:
    """A header key without case, spaces, ``_`` or ``-``: ``First dealer`` → ``firstdealer``."""
    return re.sub(r"[\s_\-]", "", text.lower())


def header_key(tokens: list[Token], lookup: Callable[[str], str | None]) -> tuple[str, int] | None:
    """A header line's key and where its value starts (the token after the ``:``), or ``None``
    for a line that is not a header: words before the first ``:``, joined, that ``lookup`` (the
    family's own words) names."""
    for j, tok in enumerate(tokens):
        if tok.kind == ":":
            key = lookup("".join(t.text for t in tokens[:j])) if j else None
            return (key, j + 1) if key else None
        if tok.kind != "word":
            return None
    return None


def header_once(cur: Cursor, key: str, found: Mapping[str, object]) -> None:
    """A header may be given once (``options`` lines add up).

    :raises NotationError: at the line's first column for a header already in ``found``.
    """
    if key in found and key != "options":
        raise NotationError(
            cur.number, cur.toks[0].col, "HEADER_TWICE", header=Expected("header_" + key)
        )


def format_version(cur: Cursor, name: str) -> int:
    """A ``format: NAME 1`` header's version, ``name`` being the family's notation (1, the only
    version so far)."""
    want = Expected("quoted_word", word=name)
    word = cur.expect("word", want)
    if word.text.lower() != name:
        raise cur.error(want, word)
    return cur.integer("notation_version", 1, 1)


def header_fields(
    text: str,
    key_of: Callable[[list[Token]], tuple[str, int] | None],
    names: Mapping[str, str] | None = None,
) -> frozenset[str]:
    """The header fields a text gives, as ``key_of`` (a family's header reader) names them and
    ``names`` renames them into the shared ones; lines that do not read are skipped."""
    found: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        try:
            tokens = tokenize(raw, number)
        except NotationError:
            continue
        header = key_of(tokens) if tokens else None
        if header is not None:
            found.add((names or {}).get(header[0], header[0]))
    return frozenset(found)


def token_lines(text: str) -> Iterator[Cursor]:
    """Each line of ``text`` that has tokens, as a cursor at its start (lines numbered from 1)."""
    for number, raw in enumerate(text.splitlines(), 1):
        tokens = tokenize(raw, number)
        if tokens:
            yield Cursor(tokens, number, len(raw))


def sheet_lines(text: str, is_sheet: Callable[[str], bool]) -> Iterator[Cursor]:
    """The lines of a file of sheet lines alone, each starting with a word ``is_sheet`` takes.

    :raises NotationError: at the first line that does not.
    """
    for cur in token_lines(text):
        head = cur.toks[0]
        if head.kind != "word" or not is_sheet(head.text):
            raise NotationError(
                cur.number,
                head.col,
                "EXPECTED",
                expected=Expected("quoted_word", word="sheet"),
                found=repr(head.text),
            )
        yield cur


_Deal = TypeVar("_Deal")


def protocol_lines(
    text: str,
    *,
    key_of: Callable[[list[Token]], tuple[str, int] | None],
    header: Callable[[Cursor, str], None],
    found: Mapping[str, object],
    required: tuple[str, ...],
    is_sheet: Callable[[str], bool],
    sheet: Callable[[Cursor], None],
    deal: Callable[[Cursor], _Deal],
    nothing: str,
) -> list[_Deal]:
    """The deals of a protocol text, one a line, numbered ``N.`` or not: the headers come first
    (``key_of`` finds them, ``header`` reads one into ``found``, which must then hold the
    ``required`` ones), sheet lines (starting with a word ``is_sheet`` takes) go to ``sheet``,
    every other line is a deal for ``deal``; ``nothing`` is what a bare deal number lacks.

    :raises NotationError: naming the line and column and what was expected there.
    """
    deals: list[_Deal] = []
    seen_sheet = False
    for cur in token_lines(text):
        number, head = cur.number, cur.toks[0]
        key = key_of(cur.toks)
        if key is not None:
            if deals or seen_sheet:
                raise NotationError(number, 1, "HEADERS_FIRST")
            cur.i = key[1]
            header(cur, key[0])
            continue
        for name in required:
            if name not in found:
                raise NotationError(number, 1, "HEADER_BEFORE_DEALS", header=name)
        if head.kind == "word" and is_sheet(head.text):
            seen_sheet = True
            sheet(cur)
            continue
        if head.kind == "word" and re.fullmatch(r"[0-9]+\.", head.text):
            if int(head.text[:-1]) != len(deals) + 1:
                raise NotationError(number, head.col, "DEAL_NUMBER", n=len(deals) + 1)
            cur.i = 1
        if cur.done():
            raise cur.error(nothing, None)
        deals.append(deal(cur))
    for name in required:
        if name not in found:
            raise NotationError(len(text.splitlines()) + 1, 1, "HEADER_MISSING", header=name)
    return deals


def protocol_text(
    format_line: str,
    convention: str,
    options: Iterable[tuple[str, OptionValue]],
    size: str,
    players: tuple[str, ...],
    first_dealer: str,
    ending: str,
    deals: Iterable[str],
    sheet: Callable[[], str],
    read: Callable[[Cursor], OptionValue] | None = None,
) -> str:
    """A protocol's canonical text, as every family that writes a sheet writes it: the header
    lines (``size`` is the game's own, ``bula: 30`` or ``target: 10``; ``read`` is the family's
    option reader, see :func:`option_text`), a blank line, the numbered ``deals``, then the
    ``sheet`` lines if there are any (``sheet`` is called after the deals are written)."""
    lines = [format_line, f"convention: {quote(convention)}"]
    pairs = [f"{quote(k, word=True)}={option_text(v, read or option_value)}" for k, v in options]
    if pairs:
        lines.append("options: " + ", ".join(pairs))
    lines.append(size)
    lines.append("players: " + ", ".join(quote(n) for n in players))
    lines.append(f"first dealer: {first_dealer}")
    lines.append(f"ending: {ending}")
    lines.append("")
    for i, deal in enumerate(deals, 1):
        lines.append(f"{i}. {deal}")
    written = sheet()
    if written:
        lines += ["", written.rstrip("\n")]
    return "\n".join(lines) + "\n"


_Row = TypeVar("_Row")


def sheet_text(
    running: Sequence[_Row | None],
    final: _Row | None,
    result: Sequence[object] | None,
    row_text: Callable[[_Row], str],
    seats: int,
    number: Callable[[Any], str] = str,
) -> str:
    """The ``sheet`` lines of a written sheet: ``sheet N: …`` for every row written,
    ``sheet final: …``, ``sheet result: …`` (``row_text`` writes a row in the family's columns;
    ``number`` writes a result's numbers).

    :raises ValueError: for a result that is not one number per one of the ``seats``.
    """
    lines = [f"sheet {i}: {row_text(r)}" for i, r in enumerate(running, 1) if r is not None]
    if final is not None:
        lines.append(f"sheet final: {row_text(final)}")
    if result is not None:
        if len(result) != seats:
            raise ValueError(f"a sheet result needs {seats} numbers")
        lines.append("sheet result: " + ", ".join(number(r) for r in result))
    return "".join(line + "\n" for line in lines)


_Result = TypeVar("_Result")


@dataclass
class SheetLines(Generic[_Row, _Result]):
    """The ``sheet …:`` lines of a notation, what the players wrote, for the checker:
    ``sheet N: …`` (a running row), ``sheet final: …``, ``sheet result: …``, each once. A
    family gives its words (:attr:`final_words`, :attr:`result_words`, :meth:`fold`) and reads
    its own rows and results (:meth:`row`, :meth:`results`)."""

    final_words: ClassVar[frozenset[str]]
    result_words: ClassVar[frozenset[str]]

    running: dict[int, _Row] = field(default_factory=dict)
    #: where each ``sheet N:`` line's number stands (line, column), to name it in an error
    where: dict[int, tuple[int, int]] = field(default_factory=dict)
    final: _Row | None = None
    result: _Result | None = None
    seen: bool = False

    def fold(self, word: str) -> str:
        return word.lower()

    def row(self, reader: Any, cur: Cursor) -> _Row:
        raise NotImplementedError

    def results(self, reader: Any, cur: Cursor) -> _Result:
        raise NotImplementedError

    def row_number(self, cur: Cursor, which: Token, number: str) -> None:
        """A hook on a ``sheet N:`` line's number (as read, digits) before its row is read."""

    def line(self, reader: Any, cur: Cursor) -> None:
        self.seen = True
        cur.i = 1
        which = cur.peek()
        expected = "sheet_which"
        if which is None or which.kind != "word":
            raise cur.error(expected, which)
        low = self.fold(which.text)
        cur.i += 1
        cur.expect(":", "colon")
        if re.fullmatch("[0-9]+", low) and int(low) >= 1:
            self.row_number(cur, which, low)
            if int(low) in self.running:
                raise NotationError(cur.number, which.col, "SHEET_TWICE", n=low)
            self.running[int(low)] = self.row(reader, cur)
            self.where[int(low)] = (cur.number, which.col)
        elif low in self.final_words:
            if self.final is not None:
                raise NotationError(cur.number, which.col, "FINAL_TWICE")
            self.final = self.row(reader, cur)
        elif low in self.result_words:
            if self.result is not None:
                raise NotationError(cur.number, which.col, "RESULT_TWICE")
            self.result = self.results(reader, cur)
        else:
            raise cur.error(expected, which)
        if not cur.done():
            raise cur.error("end_of_line", cur.peek())


def _want(expected: Want) -> Expected:
    return expected if isinstance(expected, Expected) else Expected(expected)


def is_bare(text: str, *, word: bool = False) -> bool:
    """Whether ``text`` reads back unchanged without quotes."""
    if not text or text != text.strip() or "  " in text:
        return False
    try:
        tokens = tokenize(text, 0)
    except NotationError:
        return False
    if not all(t.kind == "word" for t in tokens) or " ".join(t.text for t in tokens) != text:
        return False
    return len(tokens) == 1 if word else True


def quote(text: str, *, word: bool = False) -> str:
    """``text`` bare when it reads back unchanged, else as a JSON string in double quotes."""
    return text if is_bare(text, word=word) else json.dumps(text, ensure_ascii=False)


def option_value(
    cur: Cursor,
    true_words: tuple[str, ...] = ("true", "yes", "да", "on"),
    false_words: tuple[str, ...] = ("false", "no", "нет", "off"),
) -> OptionValue:
    """An option's value after ``name=``: quoted text, a whole number, true or false (in the
    family's ``true_words`` and ``false_words``), none, or a word."""
    tok = cur.peek()
    if tok is None or tok.kind not in ("word", "string"):
        raise cur.error("option_value", tok)
    cur.i += 1
    if tok.kind == "string":
        return tok.text
    low = tok.text.lower()
    if re.fullmatch(r"-?[0-9]+", low):
        return int(low)
    if low in true_words:
        return True
    if low in false_words:
        return False
    if low in ("none", "null"):
        return None
    return tok.text


def options_line(
    cur: Cursor,
    options: dict[str, OptionValue],
    read: Callable[[Cursor], OptionValue] = option_value,
    at: Callable[[str, int], None] | None = None,
) -> dict[str, OptionValue]:
    """An ``options:`` header's comma-separated ``name=value`` pairs added to ``options`` (an
    option named twice is an error): ``read`` reads a value, ``at`` hears each option's name and
    column."""
    while True:
        tok = cur.peek()
        name = cur.text("option_name", stop=",=")
        cur.expect("=", Expected("equals_value_after", name=name))
        if name in options:
            raise NotationError(cur.number, tok.col if tok else 1, "OPTION_TWICE", name=repr(name))
        options[name] = read(cur)
        if at is not None:
            at(name, tok.col if tok else 1)
        if not cur.at(","):
            break
        cur.i += 1
    return options


def option_text(value: OptionValue, read: Callable[[Cursor], OptionValue] = option_value) -> str:
    """An option's value as an ``options:`` header writes it: bare when ``read`` (the family's
    reader of a value) reads it back unchanged, else quoted."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    cur = Cursor(tokenize(value, 0), 0, len(value)) if is_bare(value, word=True) else None
    if cur is not None and read(cur) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def single_text(cur: Cursor, what: Want) -> str:
    """One word or one quoted text: a penalty's rule or note (``what``)."""
    tok = cur.peek()
    if tok is None or tok.kind not in ("word", "string"):
        raise cur.error(Expected("one_word", what=_want(what)), tok)
    cur.i += 1
    return tok.text


def players_named(players: tuple[str, ...], text: str) -> list[int]:
    """The seats ``text`` names: the player of that name (any case), else the player whose
    first name it is when no other player at the table has that first name.

    >>> players_named(("Ana Kovač", "Ana Babić", "Boris Horvat"), "boris")
    [2]
    >>> players_named(("Ana Kovač", "Ana Babić", "Boris Horvat"), "Ana"), players_named(("Ana",), "An")
    ([], [])
    """
    low = text.lower()
    exact = [s for s, name in enumerate(players) if name.lower() == low]
    if exact:
        return exact
    firsts = [
        s for s, name in enumerate(players) if name.split() and name.split()[0].lower() == low
    ]
    return firsts if len(firsts) == 1 else []


@dataclass
class SeatReader:
    """Reads the players of deal lines for a table of ``players``; each family's deal reader
    builds on it."""

    players: tuple[str, ...] | None = None
    columns: dict[str, int] = field(default_factory=dict)  # where each attribute was given

    def seat(self, cur: Cursor) -> int:
        """A player: name (any case, or a unique prefix), quoted name, or seat number."""
        assert self.players is not None
        n = len(self.players)
        expected = Expected("player_seat", n=n)
        tok = cur.peek()
        if tok is None or tok.kind not in ("word", "string"):
            raise cur.error(expected, tok)
        if tok.kind == "word" and re.fullmatch("[0-9]+", tok.text):
            if not 1 <= int(tok.text) <= n:
                raise cur.error(expected, tok)
            cur.i += 1
            return int(tok.text) - 1
        low = tok.text.lower()
        found = players_named(self.players, tok.text) or [
            s for s, name in enumerate(self.players) if name.lower().startswith(low)
        ]
        if len(found) != 1:
            more = Expected("several", what=expected, token=repr(tok.text)) if found else expected
            raise cur.error(more, tok)
        cur.i += 1
        return found[0]

    def rule(self, cur: Cursor, fields: dict[str, object], example: Want) -> bool:
        """A penalty's rule at the cursor, ``§5.1`` or ``5.1`` alone, put as ``fields["rule"]``;
        ``False`` (the cursor unmoved) when no rule stands there. ``example`` is what a ``§``
        expects after it."""
        tok = cur.peek()
        if tok is not None and tok.kind == "§":
            cur.i += 1
            self.put(cur, fields, "rule", tok, single_text(cur, example))
            return True
        if tok is not None and tok.kind == "word" and re.fullmatch(r"[0-9]+(\.[0-9]+)+", tok.text):
            cur.i += 1
            self.put(cur, fields, "rule", tok, tok.text)
            return True
        return False

    def put(
        self, cur: Cursor, fields: dict[str, object], name: str, tok: Token, value: object
    ) -> None:
        """``fields[name] = value``, once: a deal's attribute given twice is an error."""
        if name in fields:
            raise NotationError(
                cur.number, tok.col, "GIVEN_TWICE", token=repr(tok.text), name=Expected(name)
            )
        fields[name] = value
        self.columns[name] = tok.col


def referrer(names: tuple[str, ...], is_reserved: Callable[[str], bool]) -> Callable[[int], str]:
    """How the notation names a seat, so that a person reads a name and the text reads back as
    that player (:meth:`SeatReader.seat`): the name when it is one word; else the first name
    when no one else at the table has it ("Ana" for "Ana Horvat", issue 36); else the seat
    number ("Ana Kovač" beside "Ana Babić"). ``is_reserved`` tells a (lower-cased) word that
    is a keyword of the family's notation; such a name is not written bare."""
    lowered = [name.lower() for name in names]

    def bare(word: str, seat: int) -> bool:
        return bool(
            _SAFE_NAME.match(word)
            and word[0].isalpha()
            and not is_reserved(word.lower())
            and players_named(names, word) == [seat]
        )

    def ref(seat: int) -> str:
        if not 0 <= seat < len(names):
            raise ValueError(f"seat {seat + 1} is not at a table of {len(names)}")
        name = names[seat]
        if lowered.count(name.lower()) != 1:  # two players of one name: only seats tell
            return str(seat + 1)
        if bare(name, seat):
            return name
        first = name.split()[0] if name.split() else ""
        if first and bare(first, seat):
            return first
        return str(seat + 1)

    return ref
