"""The text notation (scoring.russian.notation): spellings, the 001 §4.2.11 column, round trips."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contracts import MISERE, Contract, Denomination
from scoring.russian import jsonio
from scoring.russian.generate import random_protocol
from scoring.russian.notation import (
    MAX_DEALS,
    NotationError,
    deal_text,
    format,
    format_sheet,
    parse,
    parse_sheet,
    parse_with_sheet,
)
from scoring.russian.protocol import (
    Call,
    Ending,
    Game,
    Penalty,
    Protocol,
    Raspasy,
    Sheet,
    SheetLine,
)

from .strategies import protocols, sheets

DATA = Path(__file__).parent / "data"
HEAD = "players: Anna, Boris, Vera\ntarget: 10\n"


def one(line: str, head: str = HEAD) -> Game | Raspasy | Penalty:
    deals = parse(head + line + "\n").deals
    assert len(deals) == 1
    return deals[0]


def test_example_file_reads_as_written() -> None:
    p = parse((DATA / "sochi" / "example.pulka").read_text(encoding="utf-8"))
    assert p.players == ("Anna", "Boris", "Vera")
    assert (p.target, p.convention, p.first_dealer, p.ending) == (10, "sochi", 2, Ending.CLOSED)
    assert p.options == (("whist_style", "greedy"), ("raspasy_progression_limit", 3))
    first = p.deals[0]
    assert first == Game(
        0,
        Contract.from_str("6♠"),
        (Call.WHIST, Call.PASS),
        6,
        auction=((0, "6♠"), (1, "pass"), (2, "pass")),
    )
    assert p.deals[1] == Game(1, Contract.from_str("8♦"), (Call.WHIST, Call.PASS), 7)
    assert p.deals[2] == Raspasy((4, 3, 3))
    assert p.deals[3] == Game(
        0, Contract.from_str("7NT"), (Call.WHIST, Call.WHIST), 7, (3, 0), open=True
    )
    assert p.deals[4] == Game(1, MISERE, (), 0)
    assert p.deals[6] == Penalty(1, "3.2.21", gora=5, note="looked at the talon")
    assert p.deals[7].calls == (Call.PASS, Call.HALF)  # type: ignore[union-attr]


# --- the 001 §4.2.11 contract/result column and other spellings ----------------------------


@pytest.mark.parametrize(
    ("column", "contract", "tricks"),
    [
        ("6♠ / ровно", "6♠", 6),  # the Kodeks' own example
        ("8 / без одной", "8♠", 7),  # the Kodeks' own example: a bare level is read as ♠
        ("6S / -2", "6♠", 4),
        ("6s -2", "6♠", 4),
        ("7NT / +1", "7БК", 8),
        ("7бк +1", "7БК", 8),
        ("7 БК / ровно", "7БК", 7),
        ("6 ♥ =", "6♥", 6),
        ("6♥ / =", "6♥", 6),
        ("9h / без двух", "9♥", 7),
        ("10♦ / без трех", "10♦", 7),
        ("6♣ / без 3", "6♣", 3),
        ("8б / без всех", "8♦", 0),
        ("6♠ / 5", "6♠", 5),
        ("6♠ 10", "6♠", 10),
        ("mis / ровно", "mis", 0),
        ("мизер / без двух", "mis", 2),
        ("мизер -1", "mis", 1),
        ("m 3", "mis", 3),
        ("мизер / без одной", "mis", 1),
    ],
)
def test_result_column_4_2_11(column: str, contract: str, tricks: int) -> None:
    game = one(f"Anna {column}")
    assert isinstance(game, Game)
    assert game.contract == Contract.from_str(contract)
    assert game.declarer_tricks == tricks


def test_bare_level_is_spades_and_writes_back_with_the_suit() -> None:
    game = one("Anna 8 / без одной w/p")
    assert isinstance(game, Game) and game.contract == Contract(8, Denomination.SPADES)
    assert "1. Anna 8♠ / без одной w/p" in format(parse(HEAD + "Anna 8 / без одной w/p"))


@pytest.mark.parametrize(
    ("defence", "calls", "split"),
    [
        ("w/p", (Call.WHIST, Call.PASS), None),
        ("вист/пас", (Call.WHIST, Call.PASS), None),
        ("p/h", (Call.PASS, Call.HALF), None),
        ("пас/пол", (Call.PASS, Call.HALF), None),
        ("w/hr", (Call.WHIST, Call.HALF_RETURNED), None),
        ("w3/w1", (Call.WHIST, Call.WHIST), (3, 1)),
        ("W3/P1", (Call.WHIST, Call.PASS), (3, 1)),
        ("w", (Call.WHIST,), None),
        ("w/p split=3-1", (Call.WHIST, Call.PASS), (3, 1)),
    ],
)
def test_defence_spellings(defence: str, calls: tuple[Call, ...], split: object) -> None:
    game = one(f"Anna 6♠ / ровно {defence}")
    assert isinstance(game, Game)
    assert (game.calls, game.defender_tricks) == (calls, split)


def test_game_attributes() -> None:
    game = one("Boris 7♦ / -1 w/p open x2 premium=2 dealer=Vera {Anna pass; Boris 6♠}")
    assert game == Game(
        1,
        Contract.from_str("7♦"),
        (Call.WHIST, Call.PASS),
        6,
        open=True,
        multiplier=2,
        talon_premium=2,
        dealer=2,
        auction=((0, "pass"), (1, "6♠")),
    )
    assert one("Anna 6♠ w/p") == Game(0, Contract.from_str("6♠"), (Call.WHIST, Call.PASS))
    assert one("Anna 6♠ p/p {}").auction == ()  # type: ignore[union-attr]


def test_players_by_seat_number_prefix_and_case() -> None:
    assert one("2 6♠ / ровно").declarer == 1  # type: ignore[union-attr]
    assert one("bor 6♠ / ровно").declarer == 1  # type: ignore[union-attr]
    assert one("VERA 6♠ / ровно").declarer == 2  # type: ignore[union-attr]
    quoted = 'players: "Ivanov A.", "Petrov, B.", Сидоров\ntarget: 20\n'
    p = parse(quoted + '"Petrov, B." 6♠ / ровно\nСид 7♣ =\n')
    assert [d.declarer for d in p.deals] == [1, 2]  # type: ignore[union-attr]
    assert "1. 2 6♠ / ровно" in format(p)  # a name that needs quotes is written by seat


def test_raspasy_and_penalty_lines() -> None:
    assert one("raspasy 4-3-3") == Raspasy((4, 3, 3))
    assert one("распасы 6-2-2 x2 dealer=1") == Raspasy((6, 2, 2), 2, 0)
    head4 = "players: A1, B1, C1, D1\ntarget: 10\n"
    assert one("распас 5-3-2-x", head4) == Raspasy((5, 3, 2, None))
    penalty = one("штраф Vera 4.2.7 гора=3 pulya=-2 whists=Anna:52,Boris:7 note=typo")
    assert penalty == Penalty(2, "4.2.7", gora=3, pulya=-2, whists=((0, 52), (1, 7)), note="typo")
    assert one('penalty 1 §"note 31"') == Penalty(0, "note 31")


def test_headers_in_russian_and_defaults() -> None:
    text = (
        "# комментарий\nконвенция: ленинградка\nигроки: Аня, Боря, Вера\nпулька: 20\n"
        "первый сдающий: Боря\nокончание: соглашение\nопции: help=false, raspasy_price=2\n"
        "Аня 6♠ / ровно w/p\n"
    )
    p = parse(text)
    assert (p.convention, p.target, p.first_dealer, p.ending) == (
        "ленинградка", 20, 1, Ending.AGREEMENT
    )  # fmt: skip
    assert p.options == (("help", False), ("raspasy_price", 2))
    bare = parse(HEAD)
    assert (bare.convention, bare.first_dealer, bare.ending, bare.deals) == (
        "sochi", 0, Ending.CLOSED, ()
    )  # fmt: skip


def test_format_is_canonical() -> None:
    text = (DATA / "sochi" / "example.pulka").read_text(encoding="utf-8")
    canonical = format(parse(text))
    assert canonical.startswith("format: pulka 1\nconvention: sochi\n")
    assert format(parse(canonical)) == canonical
    assert "\n1. Anna 6♠ / ровно w/p {Anna 6♠; Boris pass; Vera pass}\n" in canonical
    assert '\n7. штраф Boris §3.2.21 gora=5 note="looked at the talon"\n' in canonical
    ascii_text = format(parse(text), ascii=True)
    assert "\n2. Boris 8D / -1 w/p\n" in ascii_text and "\n3. raspasy 4-3-3\n" in ascii_text
    assert parse(ascii_text) == parse(text)


# --- round trips ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(protocols())
def test_any_protocol_round_trips_through_text(p: Protocol) -> None:
    text = format(p)
    assert parse(text) == p
    assert format(parse(text)) == text
    assert parse(format(p, ascii=True)) == p


@settings(max_examples=150, deadline=None)
@given(protocols())
def test_text_json_text_is_lossless(p: Protocol) -> None:
    text = format(p)
    again = format(jsonio.loads(jsonio.dumps(parse(text))))
    assert again == text


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(["sochi", "leningrad", "rostov", "classic"]),
    st.sampled_from([3, 4]),
)
def test_generated_protocols_round_trip(seed: int, convention: str, n: int) -> None:
    p = random_protocol(random.Random(seed), convention=convention, players=n, target=10)
    text = format(p)
    assert parse(text) == p
    assert jsonio.loads(jsonio.dumps(p)) == p
    assert format(jsonio.loads(jsonio.dumps(parse(text)))) == text


# --- the written sheet ---------------------------------------------------------------------


def test_sheet_lines() -> None:
    text = HEAD + (
        "Anna 6♠ / ровно w/p\n"
        "sheet 1: Anna 2 0 0 0; Boris 0 0 8 0; Vera 0 0 0 0\n"
        "запись итог: Vera 0 0 0 0; Anna 10 1 18 32; Boris 10 9 42 72\n"
        "sheet result: 31, 74/3, -12.5\n"
    )
    p, sheet = parse_with_sheet(text)
    assert len(p.deals) == 1 and parse(text) == p
    assert sheet is not None and sheet.running[0] is not None
    assert sheet.running[0][1] == SheetLine(0, 0, (8, 0, 0))
    assert sheet.final is not None and sheet.final[1] == SheetLine(10, 9, (42, 0, 72))
    assert sheet.result == (31, Fraction(74, 3), Fraction(-25, 2))
    assert parse_with_sheet(format(p, sheet)) == (p, sheet)
    assert parse_with_sheet(HEAD)[1] is None
    alone = parse_sheet("# copied from the paper\nsheet 2: 1 2 0 0 0; 2 0 0 8 0; 3 0 0 0 0\n",
                        ("Anna", "Boris", "Vera"))  # fmt: skip
    assert alone.running[0] is None and alone.running[1] is not None


@settings(max_examples=150, deadline=None)
@given(protocols().flatmap(lambda p: st.tuples(st.just(p), sheets(len(p.players), len(p.deals)))))
def test_protocol_and_sheet_round_trip(pair: tuple[Protocol, Sheet]) -> None:
    p, sheet = pair
    text = format(p, sheet)
    expected = sheet if (sheet.running or sheet.final or sheet.result) else None
    assert parse_with_sheet(text) == (p, expected)
    assert jsonio.loads_with_sheet(jsonio.dumps(p, sheet)) == (p, sheet)
    if expected is not None:
        assert parse_sheet(format_sheet(sheet, p.players), p.players) == sheet


@pytest.mark.parametrize(
    ("line", "column", "expected"),
    [
        ("sheet: Anna 1 2 3 4", 6, "a deal number, final or result"),
        ("sheet soon: Anna 1 2 3 4", 7, "a deal number, final or result"),
        ("sheet 1 Anna 1 2 3 4", 9, "':'"),
        ("sheet 1: Anna 1 2 3", 20, "a written number"),
        ("sheet 1: Anna 1 2 3 4; Anna 1 2 3 4", 24, "each player once"),
        ("sheet 1: Anna 1 2 3 4; Boris 1 2 3 4", 37, "Vera's pulya"),
        ("sheet result: 1, 2", 19, "3 results"),
        ("sheet result: 1, 2/0, 3", 20, "a denominator"),
        ("sheet result: 1, x, 3", 18, "a result in whists"),
        ("sheet final: Anna 1 2 3 4; Boris 1 2 3 4; Vera 1 2 3 4 5", 56, "end of line"),
    ],
)
def test_sheet_errors(line: str, column: int, expected: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_with_sheet(HEAD + line + "\n")
    assert (caught.value.line, caught.value.column) == (3, column), str(caught.value)
    assert expected in str(caught.value)


def test_sheet_twice_and_bad_sheet_files() -> None:
    row = "Anna 1 2 3 4; Boris 1 2 3 4; Vera 1 2 3 4"
    with pytest.raises(NotationError, match="line 4, column 7: sheet 2 is given twice"):
        parse_with_sheet(HEAD + f"sheet 2: {row}\nsheet 2: {row}\n")
    with pytest.raises(NotationError, match="line 1, column 1: expected 'sheet', found 'Anna'"):
        parse_sheet("Anna 6♠\n", ("Anna", "Boris", "Vera"))
    with pytest.raises(ValueError, match="0 at the writer's seat"):
        format_sheet(Sheet(final=(SheetLine(0, 0, (5, 0, 0)),) * 3), ("Anna", "Boris", "Vera"))


def test_a_sheet_row_number_is_bounded_by_the_deals() -> None:
    """``sheet 10000000:`` names a deal the pulka does not have: a clear error at that line,
    not ten million empty rows (issue 25, item 7)."""
    row = "Anna 1 2 3 4; Boris 1 2 3 4; Vera 1 2 3 4"
    one_deal = HEAD + "Anna 6♠ / ровно w/p\n"
    assert parse_with_sheet(one_deal + f"sheet 1: {row}\n")[1] is not None
    with pytest.raises(NotationError, match="line 4, column 7: sheet 2: there is no deal 2"):
        parse_with_sheet(one_deal + f"sheet 2: {row}\n")
    with pytest.raises(NotationError, match="line 5, column 7: sheet 10000000: .* has 1 deals"):
        parse_with_sheet(one_deal + f"sheet 1: {row}\nsheet 10000000: {row}\n")
    players = ("Anna", "Boris", "Vera")
    with pytest.raises(NotationError, match="line 1, column 7: sheet 3: .* has 2 deals"):
        parse_sheet(f"sheet 3: {row}\n", players, deals=2)
    with pytest.raises(NotationError, match="line 1, column 7: sheet 10000000"):
        parse_sheet(f"sheet 10000000: {row}\n", players)
    assert len(parse_sheet(f"sheet {MAX_DEALS}: {row}\n", players).running) == MAX_DEALS


# --- errors name the line and the column ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "expected"),
    [
        (HEAD + "Anna 11♠ / ровно\n", 3, 6, "a contract"),
        (HEAD + "Anna 6♠ / почти\n", 3, 11, "a result"),
        (HEAD + "Anna 6♠ /\n", 3, 10, "a result"),
        (HEAD + "Anna 6♠ / +5\n", 3, 11, "gives 11 tricks"),
        (HEAD + "Anna мизер / +1\n", 3, 14, "no overtricks"),
        (HEAD + "Anna 6♠ / без семерых\n", 3, 15, "how many down"),
        (HEAD + "Dmitry 6♠ / ровно\n", 3, 1, "a player"),
        (HEAD + "4 6♠ / ровно\n", 3, 1, "seat number 1–3"),
        (HEAD + "Anna 6♠ / ровно w/x\n", 3, 19, "a defender's call"),
        (HEAD + "Anna 6♠ / ровно w/\n", 3, 19, "the next defender's call"),
        (HEAD + "Anna 6♠ / ровно w3/p\n", 3, 17, "every defender's tricks"),
        (HEAD + "Anna 6♠ / ровно w3/p1 split=3-1\n", 3, 23, "given twice"),
        (HEAD + "Anna 6♠ / ровно w/p loud\n", 3, 21, "open, x2"),
        (HEAD + "Anna 6♠ / ровно w/p open open\n", 3, 26, "given twice"),
        (HEAD + "Anna 6♠ / ровно w/p dealer Vera\n", 3, 28, "'=' after dealer"),
        (HEAD + "Anna 6♠ / ровно w/p {Anna pass\n", 3, 31, "';' or '}'"),
        (HEAD + "Anna 6♠ / ровно w/p {Anna pass; Boris}\n", 3, 38, "a call"),
        (HEAD + "raspasy 4-3\n", 3, 9, "3 tricks per seat"),
        (HEAD + "raspasy 4-3-3 open\n", 3, 15, "x2 or dealer="),
        (HEAD + "penalty Anna gora=many\n", 3, 19, "an integer"),
        (HEAD + "penalty Anna fine=5\n", 3, 14, "§rule"),
        (HEAD + "penalty Anna whists=Boris 5\n", 3, 27, "':'"),
        (HEAD + "2. Anna 6♠ / ровно\n", 3, 1, "deal number 1."),
        (HEAD + "1.\n", 3, 3, "a deal"),
        (HEAD + 'Anna 6♠ / ровно {Anna "pass}\n', 3, 23, "unterminated"),
        (HEAD + "Anna 6♠ / ровно\ntarget: 20\n", 4, 1, "before the first deal"),
        ("target: 10\nAnna 6♠\n", 2, 1, "'players:'"),
        ("players: Anna, Boris, Vera\nAnna 6♠\n", 2, 1, "'target:'"),
        ("players: Anna, Boris\n", 1, 1, "3 or 4 players"),
        ("players: Anna, Boris, anna\n", 1, 1, "same name"),
        ("players: Anna, Boris, Vera\n", 2, 1, "'target:'"),
        ("target: ten\n", 1, 9, "the pulka size"),
        ("target: 10 20\n", 1, 12, "end of line"),
        ("target: 10\ntarget: 20\n", 2, 1, "given twice"),
        ("first dealer: Anna\n", 1, 1, "'players:' line before"),
        ("format: pulka 2\n", 1, 15, "version 1"),
        ("format: pulk 1\n", 1, 9, "'pulka'"),
        ("ending: maybe\n", 1, 9, "closed, agreement"),
        ("options: help\n", 1, 14, "'=' and a value"),
        ("options: help=\n", 1, 15, "an option value"),
        ("options: a=1\noptions: a=2\n", 2, 10, "twice"),
        (HEAD + "/ 6♠\n", 3, 1, "a player"),
        (HEAD + "Anna / ровно\n", 3, 6, "a contract"),
        (HEAD + "Anna 8 почти\n", 3, 8, "open, x2"),
        (HEAD + "Anna 6♠ / ровно w/p ;\n", 3, 21, "open, x2"),
        (HEAD + "Anna 6♠ / ровно w/p split=x-1\n", 3, 21, "split= needs numbers"),
        (HEAD + "raspasy\n", 3, 8, "3 tricks per seat"),
        (HEAD + "penalty Anna note==\n", 3, 19, "the note"),
        (HEAD + 'penalty Anna note="a\\qb"\n', 3, 19, "bad quoted text"),
        ("players: Anna, Boris = x, Vera\n", 1, 22, "quote it to use '='"),
        (
            HEAD + "sheet final: Anna 1 2 3 4; Boris 1 2 3 4; Vera 1 2 3 4\n" * 2,
            4,
            7,
            "given twice",
        ),
        (HEAD + "sheet result: 1, 2, 3\n" * 2, 4, 7, "given twice"),
    ],
)
def test_parse_errors_name_line_and_column(
    text: str, line: int, column: int, expected: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert expected in str(error)
    assert str(error).startswith(f"line {line}, column {column}: ")
    assert isinstance(error, ValueError)


def test_ambiguous_prefix_is_an_error() -> None:
    with pytest.raises(NotationError, match="matches several"):
        parse("players: Anna, Anton, Vera\ntarget: 10\nAn 6♠\n")


def test_closed_and_deal_text() -> None:
    p = parse(HEAD + "Anna 6♠ / ровно w/p closed x2 dealer=Vera\n")
    assert p.deals[0] == Game(
        0, Contract.from_str("6♠"), (Call.WHIST, Call.PASS), 6, multiplier=2, dealer=2
    )
    assert deal_text(p, 0) == "Anna 6♠ / ровно w/p x2 dealer=Vera"
    assert deal_text(p, 0, ascii=True) == "Anna 6S / = w/p x2 dealer=Vera"


def test_format_refuses_what_the_notation_cannot_hold() -> None:
    bad_seat = Protocol(players=("A", "B", "C"), target=10, deals=(Raspasy((4, 3, 3), dealer=5),))
    with pytest.raises(ValueError, match="seat 6 is not at a table of 3"):
        format(bad_seat)
    too_many = Protocol(("A", "B", "C"), 10, (Game(0, Contract.from_str("6♠"), (), 11),))
    with pytest.raises(ValueError, match="0–10"):
        format(too_many)
    empty_split = Protocol(("A", "B", "C"), 10, (Game(0, Contract.from_str("6♠"), (), 6, ()),))
    with pytest.raises(ValueError, match="empty defenders' split"):
        format(empty_split)
    with pytest.raises(ValueError, match="needs 3 numbers"):
        format_sheet(Sheet(result=(Fraction(1), Fraction(-1))), ("A", "B", "C"))
