"""Reading the pot-game notation (:mod:`scoring.pot.notation`): the header lines, the deals
(:mod:`scoring.pot.notation_deal`) and the written ledger lines."""

from __future__ import annotations

import re
from fractions import Fraction

from rules.conventions import InvalidConventionError
from rules.pot import find_convention
from scoring.model import Ending, OptionValue
from scoring.notation_lexer import (
    MAX_DEALS,
    Cursor,
    Expected,
    NotationError,
    Token,
    format_version,
    header_key,
    header_once,
    options_line,
    player_names,
    squash,
    token_lines,
)
from scoring.notation_lexer import option_value as read_option_value

from .notation_deal import DealReader, read_deal
from .notation_words import ENDINGS, HEADERS, LEDGER, POT_KEYS, RESULT, fold
from .protocol import Ledger, LedgerRow, PotDeal, PotProtocol

__all__ = ["parse", "parse_ledger", "option_value"]


def option_value(cur: Cursor) -> OptionValue:
    """An option's value, true and false also in Swedish and German (``ja``, ``nej``, ``nein``)."""
    return read_option_value(cur, ("true", "yes", "ja", "on"), ("false", "no", "nej", "nein", "off"))


def _header(reader: DealReader, cur: Cursor, key: str, found: dict[str, object]) -> None:
    head = cur.toks[0]
    header_once(cur, key, found)
    if key == "format":
        found[key] = format_version(cur, "pot")
    elif key == "convention":
        name = cur.text("convention_pot")
        try:
            reader.game = find_convention(name).game
        except InvalidConventionError as error:
            raise NotationError.of(cur.number, head.col, error) from None
        found[key] = name
    elif key == "options":
        options = dict(found.get("options", {}))  # type: ignore[call-overload]
        found[key] = options_line(cur, options, option_value)
    elif key == "players":
        reader.players = player_names(cur, head.col)
        found[key] = reader.players
    elif key == "first_dealer":
        if reader.players is None:
            raise NotationError(cur.number, head.col, "PLAYERS_FIRST")
        found[key] = reader.seat(cur)
    elif key == "opening_pot":
        found[key] = cur.integer("opening_pot", 0)
    else:
        tok = cur.expect("word", "ending")
        if fold(tok.text) not in ENDINGS:
            raise cur.error("ending", tok)
        found[key] = ENDINGS[fold(tok.text)]
    if not cur.done():
        raise cur.error("end_of_line", cur.peek())


def _header_key(tokens: list[Token]) -> tuple[str, int] | None:
    return header_key(tokens, lambda words: HEADERS.get(squash(fold(words))))


def _number(cur: Cursor) -> Fraction:
    tok = cur.peek()
    if tok is None or tok.kind != "word" or not re.fullmatch(r"[-+]?[0-9]+", tok.text):
        raise cur.error("number_or_fraction", tok)
    cur.i += 1
    if not cur.at("/"):
        return Fraction(int(tok.text))
    cur.i += 1
    below = cur.integer("denominator", 1)
    return Fraction(int(tok.text), below)


def _ledger_line(reader: DealReader, cur: Cursor, running: dict[int, LedgerRow],
                 final: list[tuple[Fraction, ...]]) -> None:  # fmt: skip
    assert reader.players is not None
    n = len(reader.players)
    head = cur.toks[0]
    cur.i = 1
    if fold(head.text) in RESULT:
        cur.expect(":", "colon")
        values = [_number(cur)]
        while cur.at(","):
            cur.i += 1
            values.append(_number(cur))
        if len(values) != n:
            raise cur.error(Expected("results_per_seat", n=n), cur.peek())
        if final:
            raise NotationError(cur.number, head.col, "RESULT_TWICE")
        final.append(tuple(values))
    else:
        number = cur.integer(Expected("ledger_number", most=MAX_DEALS), 1, MAX_DEALS)
        cur.expect(":", "colon")
        nets = [cur.integer("net", -(10**12))]
        while cur.at(","):
            cur.i += 1
            nets.append(cur.integer("net", -(10**12)))
        if len(nets) != n:
            raise cur.error(Expected("nets_per_seat", n=n), cur.peek())
        cur.expect(";", "semicolon_pot")
        word = cur.expect("word", "pott")
        if fold(word.text) not in POT_KEYS:
            raise cur.error("pott", word)
        pot = cur.integer("pot_chips", -(10**12))
        if number in running:
            raise NotationError(cur.number, head.col, "LEDGER_TWICE", n=number)
        running[number] = LedgerRow(tuple(nets), pot)
    if not cur.done():
        raise cur.error("end_of_line", cur.peek())


def _read(text: str, players: tuple[str, ...] | None = None) -> tuple[dict[str, object],
                                                                        list[PotDeal], Ledger | None]:  # fmt: skip
    reader = DealReader()
    reader.players = players
    found: dict[str, object] = {}
    deals: list[PotDeal] = []
    running: dict[int, LedgerRow] = {}
    final: list[tuple[Fraction, ...]] = []
    seen_ledger = False
    for cur in token_lines(text):
        number, tokens = cur.number, cur.toks
        header = _header_key(tokens)
        if header is not None and not deals and not seen_ledger and players is None:
            cur.i = header[1]
            _header(reader, cur, header[0], found)
            continue
        if fold(tokens[0].text) in (LEDGER | RESULT) and tokens[0].kind == "word":
            if reader.players is None:
                raise NotationError(number, 1, "PLAYERS_BEFORE_LEDGER")
            seen_ledger = True
            _ledger_line(reader, cur, running, final)
            continue
        if players is not None:
            raise NotationError(number, 1, "LEDGER_LINE")
        if reader.players is None:
            raise NotationError(number, 1, "PLAYERS_BEFORE_DEALS")
        if re.fullmatch(r"[0-9]+\.?", tokens[0].text) and len(tokens) > 1:
            if not tokens[0].text.endswith("."):
                raise NotationError(number, 1, "DEAL_NUMBER_DOT")
            if int(tokens[0].text[:-1]) != len(deals) + 1:
                raise NotationError(number, 1, "DEAL_NUMBER", n=len(deals) + 1)
            cur.i = 1
        if seen_ledger:
            raise NotationError(number, 1, "DEALS_BEFORE_LEDGER")
        deals.append(read_deal(reader, cur))
        if not cur.done():
            raise cur.error("end_of_deal", cur.peek())
    ledger = None
    if seen_ledger:
        last = max(running, default=0)
        ledger = Ledger(tuple(running.get(i) for i in range(1, last + 1)),
                        final[0] if final else None)  # fmt: skip
    return found, deals, ledger


def parse(text: str) -> tuple[PotProtocol, Ledger | None]:
    """Read the notation: ``(protocol, ledger or None)``.

    :raises scoring.notation_lexer.NotationError: naming the line and column.
    """
    found, deals, ledger = _read(text)
    if "players" not in found:
        raise NotationError(1, 1, "HEADER_MISSING", header="players")
    options = found.get("options", {})
    protocol = PotProtocol(
        players=found["players"],  # type: ignore[arg-type]
        deals=tuple(deals),
        convention=str(found.get("convention", "viennese")),
        options=tuple(sorted(options.items())),  # type: ignore[attr-defined]
        first_dealer=int(found.get("first_dealer", 0)),  # type: ignore[call-overload]
        ending=found.get("ending", Ending.CLOSED),  # type: ignore[arg-type]
        opening_pot=int(found.get("opening_pot", 0)),  # type: ignore[call-overload]
    )
    return protocol, ledger


def parse_ledger(text: str, players: tuple[str, ...]) -> Ledger:
    """Ledger lines alone (``check --sheet``)."""
    _, _, ledger = _read(text, players)
    return ledger if ledger is not None else Ledger()
