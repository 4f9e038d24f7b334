"""The Balkan text notation (scoring.balkan.notation): the players' words, round trips, errors
with line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from scoring.balkan import jsonio
from scoring.balkan.notation import (
    NotationError,
    deal_text,
    format,
    format_sheet,
    parse,
    parse_sheet,
    parse_with_sheet,
)
from scoring.balkan.protocol import (
    AllPass,
    BalkanProtocol,
    BalkanSheet,
    BalkanSheetLine,
    Defence,
    Hand,
    Penalty,
)
from scoring.model import Ending
from scoring.variants import read_text_document

from .strategies import protocols, protocols_with_sheets

DATA = Path(__file__).resolve().parents[1] / "data" / "balkan"
HEAD = "bula: 30\nplayers: Ana, Boris, Cvita\n"
PLAY, DROP, INVITE = Defence.PLAY, Defence.DROP, Defence.INVITE


def one(line: str, head: str = HEAD) -> object:
    return parse(head + line + "\n").deals[0]


# --- the seed 002 worked example ----------------------------------------------------------


def test_seed_example_reads_as_the_seed_tells_it() -> None:
    """Seed 002 "Example of Scoring", notes (b)-(p) (variants.md §1.5)."""
    p, sheet = parse_with_sheet((DATA / "seed-example.balkan").read_text(encoding="utf-8"))
    assert (p.players, p.bula, p.convention, p.first_dealer) == (("A", "B", "C"), 30, "hrvatski", 0)
    assert p.ending is Ending.CLOSED and len(p.deals) == 15
    d = p.deals
    assert d[0] == Hand(2, 3, False, (PLAY, PLAY), tricks=(2, 2, 6))  # (b) C bells
    assert d[1] == Hand(1, 5, False, (PLAY, DROP), tricks=(0, 7, 3))  # (c) A drops
    assert d[2] == AllPass()  # (d) refa
    assert d[4] == Hand(2, 4, True, (INVITE, DROP), tricks=(2, 2, 6))  # (f) A invites B
    assert d[5] == Hand(0, 2, False, (PLAY, DROP), 1, 1, (7, 2, 1))  # (g) kontra by B
    assert d[9] == Hand(0, 4, False, (DROP, PLAY), 2, 2, (6, 1, 3))  # (k) C kontra, A rekontra
    assert d[10] == Hand(2, 7, True, (DROP, PLAY), tricks=(0, 2, 8))  # (l) game sanac
    assert d[11] == Hand(1, 5, False, (DROP, INVITE), tricks=(2, 6, 2))  # (m) A invites C
    assert d[12] == Hand(1, 5, True, (DROP, DROP))  # (n) no play
    assert [x.contract for x in d if isinstance(x, Hand) and x.contract == 6] == [6, 6, 6]
    assert sheet is not None and sheet.result == (506, -496, -10)
    assert sheet.final == (
        BalkanSheetLine(42, (0, 166, 132)),
        BalkanSheetLine(-24, (24, 0, 54)),
        BalkanSheetLine(-18, (188, 168, 0)),
    )


def test_seed_example_text_is_canonical_apart_from_comments_and_headers() -> None:
    text = (DATA / "seed-example.balkan").read_text(encoding="utf-8")
    p, sheet = parse_with_sheet(text)
    canonical = format(p, sheet)
    deal_lines = [line for line in text.splitlines() if line[:1].isdigit() or line[:5] == "sheet"]
    assert [
        line for line in canonical.splitlines() if line[:1].isdigit() or line[:5] == "sheet"
    ] == deal_lines


# --- round trips -------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(protocols())
def test_any_protocol_round_trips_through_text(p: BalkanProtocol) -> None:
    text = format(p)
    assert parse(text) == p
    assert format(parse(text)) == text  # the written text is canonical
    assert parse(format(p, ascii=True)) == p
    if all(name.isascii() for name in p.players):  # keywords without diacritics (not names)
        for i, deal in enumerate(p.deals):
            if not isinstance(deal, Penalty):
                assert deal_text(p, i, ascii=True).isascii()


@settings(max_examples=150, deadline=None)
@given(protocols_with_sheets())
def test_protocol_and_sheet_round_trip(pair: tuple[BalkanProtocol, BalkanSheet]) -> None:
    p, sheet = pair
    expected = None if sheet == BalkanSheet() else sheet
    assert parse_with_sheet(format(p, sheet)) == (p, expected)
    if expected is not None:
        assert parse_sheet(format_sheet(sheet, p.players), p.players) == sheet


@settings(max_examples=150, deadline=None)
@given(protocols_with_sheets())
def test_text_json_text_is_lossless(pair: tuple[BalkanProtocol, BalkanSheet]) -> None:
    p, sheet = pair
    text = format(p, sheet)
    via_json = jsonio.loads_with_sheet(jsonio.dumps(*parse_with_sheet(text)))
    assert format(*via_json) == text


# --- the players' words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "contract", "game"),
    [
        ("Ana 2", 2, False), ("Ana list", 2, False), ("Ana pik", 2, False),
        ("Ana bundeva", 3, False), ("Ana karo", 3, False), ("Ana tikva", 3, False),
        ("Ana srce", 4, False), ("Ana herc", 4, False), ("Ana Hearts", 4, False),
        ("Ana žir", 5, False), ("Ana zir", 5, False), ("Ana tref", 5, False),
        ("Ana križ", 5, False), ("Ana kriz", 5, False), ("Ana betl", 6, False),
        ("Ana bettel", 6, False), ("Ana berač", 6, False), ("Ana berac", 6, False),
        ("Ana sanac", 7, False), ("Ana sans", 7, False), ("Ana sans atout", 7, False),
        ("Ana preferans", 8, False), ("Ana igra 5", 5, True), ("Ana igra žir", 5, True),
        ("Ana game sans atout", 7, True), ("Ana IGRA BETL", 6, True),
    ],
)  # fmt: skip
def test_contract_words(line: str, contract: int, game: bool) -> None:
    deal = one(line)
    assert isinstance(deal, Hand)
    assert (deal.contract, deal.game, deal.defence) == (contract, game, (PLAY, PLAY))


@pytest.mark.parametrize(
    ("words", "defence"),
    [
        ("ide/ide", (PLAY, PLAY)), ("ide ide", (PLAY, PLAY)), ("idem/igram", (PLAY, PLAY)),
        ("ne ide/ide", (DROP, PLAY)), ("ide/ne idem", (PLAY, DROP)), ("dalje/ide", (DROP, PLAY)),
        ("pas/zove", (DROP, INVITE)), ("zove/ne ide", (INVITE, DROP)),
        ("plays/drops", (PLAY, DROP)), ("invites/drops", (INVITE, DROP)),
        ("ne igram/ne igram", (DROP, DROP)), ("Zovem/Dalje", (INVITE, DROP)),
    ],
)  # fmt: skip
def test_defenders_decisions(words: str, defence: tuple[Defence, ...]) -> None:
    deal = one(f"Boris žir {words}")
    assert isinstance(deal, Hand) and deal.defence == defence


@pytest.mark.parametrize(
    ("words", "level", "by"),
    [
        ("kontra", 1, None), ("kontra Ana", 1, 0), ("kontra 1", 1, 0), ("Kontra cv", 1, 2),
        ("kontra Ana rekontra", 2, 0), ("rekontra", 2, None), ("kontra rekontra subkontra", 3, None),
        ("kontra Cvita sukontra", 3, 2), ("kontra Ana mortkontra", 4, 0),
        ("kontra×6 Ana", 6, 0), ("kontrax6 Ana", 6, 0), ("kontra*0 Cvita", 0, 2),
    ],
)  # fmt: skip
def test_kontra(words: str, level: int, by: int | None) -> None:
    deal = one(f"Boris srce ide/ide {words} štihovi 6-2-2")
    assert isinstance(deal, Hand)
    assert (deal.kontra, deal.kontra_by, deal.tricks) == (level, by, (6, 2, 2))


def test_tricks_dealer_and_auction() -> None:
    deal = one(
        "Boris igra srce zove/dalje tricks 3-6-1 dijeli=Ana {Boris igra; Cvita dalje; Ana 2; Boris igra srce}"
    )
    assert deal == Hand(1, 4, True, (INVITE, DROP), tricks=(3, 6, 1), dealer=0,
                        auction=((1, "igra"), (2, "pass"), (0, "2"), (1, "igra 4")))  # fmt: skip
    assert one("Ana 3 ide/ide 6-2-2 dealer=3") == Hand(0, 3, tricks=(6, 2, 2), dealer=2)
    assert one("Ana 3 stihovi 6-2-2 deli=2") == Hand(0, 3, tricks=(6, 2, 2), dealer=1)


@pytest.mark.parametrize(
    ("said", "bid"),
    [
        ("dalje", "pass"), ("pas", "pass"), ("Pass", "pass"), ("i ja", "same"), ("same", "same"),
        ("moje", "same"), ("igra", "igra"), ("game", "igra"), ("2", "2"), ("6", "6"),
        ("igra 3", "igra 3"), ("igra bundeva", "igra 3"), ("betl", "igra betl"),
        ("berač", "igra betl"), ("sanac", "igra sans"), ("igra sans atout", "igra sans"),
        ("igra preferans", "igra preferans"), ("žir", "5"),
    ],
)  # fmt: skip
def test_bids(said: str, bid: str) -> None:
    deal = one("Ana 5 {Ana " + said + "}")
    assert isinstance(deal, Hand) and deal.auction == ((0, bid),)


@pytest.mark.parametrize(
    "line", ["dalje", "refa", "radlc", "all pass", "ALLPASS", "Dalje dijeli=Cv"]
)
def test_all_pass_lines(line: str) -> None:
    assert one(line) == AllPass(2 if "Cv" in line else None)


def test_penalty_lines() -> None:
    assert one('kazna Boris §5.1 bula=10 juha=Ana:20,Cvita:20 napomena="gledao talon"') == Penalty(
        1, "5.1", 10, ((0, 20), (2, 20)), "gledao talon"
    )
    assert one("penalty 3 rule=ruling column=-4 soups=1:8 note=typo") == Penalty(
        2, "ruling", -4, ((0, 8),), "typo"
    )
    assert one("kazen Ana 2.3") == Penalty(0, "2.3")


def test_headers_in_the_players_words_and_defaults() -> None:
    p = parse(
        "Pravila: srpski\nopcije: preferans=da, end_cap=ne, refa_limit=2\nBula: 100\n"
        "Igrači: Ana, Boris, Cvita\nPrvi dijeli: Cvita\nKraj: vreme\nAna 8\n"
    )
    assert (p.convention, p.bula, p.first_dealer, p.ending) == ("srpski", 100, 2, Ending.TIME_LIMIT)
    assert p.options == (("end_cap", False), ("preferans", True), ("refa_limit", 2))
    q = parse("bula: 50\nigraci: Ana, Boris, Cvita\nAna 5\n")
    assert (q.convention, q.first_dealer, q.ending, q.options) == ("croatian", 0, Ending.CLOSED, ())
    r = parse("konvencija: Slovenski\nbula: 30\nigralci: Ana, Boris, Cvita\nkonec: dogovor\n")
    assert (r.convention, r.ending, r.deals) == ("Slovenski", Ending.AGREEMENT, ())


def test_canonical_words_follow_the_convention() -> None:
    base = BalkanProtocol(("Ana", "Boris", "Cvita"), 30, (Hand(0, 5), Hand(1, 6, True), Hand(2, 7)))
    lines = {c: format(base.__class__(**{**_fields(base), "convention": c})).splitlines()[-3:]
             for c in ("croatian", "serbian", "slovenian")}  # fmt: skip
    assert lines["croatian"] == [
        "1. Ana žir ide/ide",
        "2. Boris igra betl ide/ide",
        "3. Cvita sanac ide/ide",
    ]
    assert lines["serbian"] == [
        "1. Ana tref ide/ide",
        "2. Boris igra betl ide/ide",
        "3. Cvita sans ide/ide",
    ]
    assert lines["slovenian"] == ["1. Ana križ ide/ide", "2. Boris igra berač ide/ide",
                                  "3. Cvita sans atout ide/ide"]  # fmt: skip
    assert "berac" in format(base.__class__(**{**_fields(base), "convention": "sl"}), ascii=True)


def _fields(p: BalkanProtocol) -> dict[str, object]:
    return {f: getattr(p, f) for f in p.__slots__}  # type: ignore[attr-defined]


def test_names_that_are_keywords_are_written_as_seat_numbers() -> None:
    p = BalkanProtocol(
        ("Dalje", "Kontra", "Žir"), 30, (Hand(0, 5, kontra=1, kontra_by=1), AllPass(2))
    )
    text = format(p)
    assert "1. 1 žir ide/ide kontra 2\n2. dalje dijeli=3\n" in text
    assert parse(text) == p


def test_deal_text() -> None:
    p = parse((DATA / "seed-example.balkan").read_text(encoding="utf-8"))
    assert deal_text(p, 9) == "A srce ne ide/ide kontra C rekontra štihovi 6-1-3"
    assert deal_text(p, 1, ascii=True) == "B zir ide/ne ide stihovi 0-7-3"
    assert deal_text(p, 2) == "dalje"


def test_the_registry_routes_balkan_text_here() -> None:
    text = (DATA / "seed-example.balkan").read_text(encoding="utf-8")
    variant, p, sheet = read_text_document(text)
    assert variant.key == "balkan" and (p, sheet) == parse_with_sheet(text)
    without_format = text.replace("format: balkan 1\n", "")
    assert read_text_document(without_format)[0].key == "balkan"  # by "pravila: hrvatski"
    assert read_text_document("convention: srpski\n" + HEAD + "Ana 5\n")[0].key == "balkan"


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "expected"),
    [
        (HEAD + "Ana 9", 3, 5, "a contract: 2 … 8 or list"),
        (HEAD + "Ana", 3, 4, "a contract"),
        (HEAD + "Dunja 5", 3, 1, "a player (a name or a seat number 1–3)"),
        (HEAD + "Ana 5 ide", 3, 10, "the second defender's decision"),
        (HEAD + "Ana 5 ne dalje", 3, 10, "ide, idem or igram after 'ne'"),
        (HEAD + "Ana 5 ide/ide štihovi 6-2", 3, 23, "the tricks of the 3 players"),
        (HEAD + "Ana 5 ide/ide štihovi 6-2-11", 3, 23, "a player takes 0 to 10 tricks"),
        (HEAD + "Ana 5 ide/ide 6-2-2 6-2-2", 3, 21, "tricks given twice"),
        (HEAD + "Ana 5 ide/ide rekontra kontra", 3, 24, "a doubling above 2"),
        (HEAD + "Ana 5 ide/ide kontra Dunja", 3, 22, "a player"),
        (HEAD + "Ana 5 ide/ide kontra Boris štihovi 6-2-2 kontra", 3, 42, "kontra given twice"),
        (HEAD + "Ana 5 ide/ide odlično", 3, 15, "kontra, rekontra …, štihovi 6-2-2, dijeli="),
        (HEAD + "Ana 5 {Ana 9}", 3, 12, "a bid: dalje, 2 … 8, i ja"),
        (HEAD + "Ana 5 {Ana 2 Boris 3}", 3, 12, "a bid"),
        (HEAD + "Ana 5 {Ana 2", 3, 13, "';' or '}'"),
        (HEAD + "dalje Ana", 3, 7, "dijeli= (the dealer) or end of line"),
        (HEAD + "kazna Ana juha=Boris", 3, 21, "':' and the points"),
        (HEAD + "kazna Ana bula=puno", 3, 16, "a whole number of points"),
        (HEAD + "kazna Ana kazna", 3, 11, "§rule, bula=, juha="),
        (HEAD + "2. Ana 5", 3, 1, "expected deal number 1."),
        ("players: Ana, Boris, Cvita\nAna 5", 2, 1, "a 'bula:' line before the first deal"),
        ("bula: 30\nAna 5", 2, 1, "a 'players:' line before the first deal"),
        ("bula: 30", 2, 1, "a 'players:' line"),
        ("bula: 30\nplayers: Ana, Boris", 2, 1, "expected 3 players, found 2"),
        ("bula: 30\nplayers: Ana, Boris, ana", 2, 1, "two players have the same name"),
        ("bula: trideset", 1, 7, "the bula, a whole number"),
        ("bula: 30\nbula: 50", 2, 1, "the bula is given twice"),
        ("format: pulka 1", 1, 9, "'balkan'"),
        ("format: balkan 2", 1, 16, "the notation version 1"),
        ("pravila: sochi", 1, 10, "a convention: croatian, serbian or slovenian"),
        (
            "options: end_cap=maybe\n" + HEAD,
            1,
            10,
            "option 'end_cap': 'maybe' is not true or false",
        ),
        ("opcije: refa_limit=99\n" + HEAD, 1, 9, "option 'refa_limit': 99 is not an integer"),
        ("options: colour=red\n" + HEAD, 1, 10, "unknown option 'colour'"),
        ("kraj: sutra", 1, 7, "closed, agreement, time-limit or in-progress"),
        ("prvi dijeli: Ana", 1, 1, "a 'players:' line before this one"),
        (HEAD + "Ana 5\nbula: 40", 4, 1, "headers come before the first deal"),
    ],
)
def test_errors_name_line_column_and_what_was_expected(
    text: str, line: int, column: int, expected: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert expected in error.reason, str(error)
    assert str(error).startswith(f"line {line}, column {column}: ")


@pytest.mark.parametrize(
    ("line", "column", "expected"),
    [
        ("sheet: Ana 1 2 3 0", 6, "a deal number, final or result"),
        ("sheet 1 Ana -30 0 0 0", 9, "':'"),
        ("sheet 1: Ana -30 0 0", 21, "the number of unplayed refas"),
        ("sheet 1: Ana x 0 0 0", 14, "the declarer column, signed"),
        ("sheet 1: Ana -30 0 0 0; Ana -30 0 0 0", 25, "each player once"),
        ("sheet 1: Ana -30 0 0 0; Boris -30 0 0 0", 40, "Cvita's column, soups and refas"),
        ("sheet result: 1, 2", 19, "3 results"),
        ("sheet result: 1, x, 3", 18, "a result in points"),
        ("sheet final: Ana 1 2 3 0; Boris 1 2 3 0; Cvita 1 2 3 0 5", 56, "end of line"),
    ],
)
def test_sheet_errors(line: str, column: int, expected: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse(HEAD + line + "\n")
    assert (caught.value.line, caught.value.column) == (3, column), str(caught.value)
    assert expected in caught.value.reason


def test_sheet_given_twice_and_sheet_files() -> None:
    row = "Ana -30 0 0 1; Boris -30 0 0 1; Cvita -30 0 0 1"
    with pytest.raises(NotationError, match="sheet 3 is given twice"):
        parse(HEAD + f"sheet 3: {row}\nsheet 3: {row}\n")
    with pytest.raises(NotationError, match="final sheet is given twice"):
        parse(HEAD + f"sheet final: {row}\nzapis konačno: {row}\n")
    with pytest.raises(NotationError, match="expected 'sheet', found 'Ana'"):
        parse_sheet("Ana 5\n", ("Ana", "Boris", "Cvita"))
    alone = parse_sheet(
        f"# copied\nzapis 2: {row}\nsheet rezultat: 1, -2, 1\n", ("Ana", "Boris", "Cvita")
    )
    assert alone.running[0] is None and alone.running[1] is not None
    assert alone.running[1][2] == BalkanSheetLine(-30, (0, 0, 0), 1) and alone.result == (1, -2, 1)


def test_format_refuses_what_the_notation_cannot_hold() -> None:
    players = ("Ana", "Boris", "Cvita")
    for deal in (
        Hand(0, 9),
        Hand(0, 5, defence=(PLAY,)),
        Hand(0, 5, tricks=(6, 4)),
        Hand(0, 5, tricks=(11, 0, 0)),
        Hand(0, 5, auction=((0, "double"),)),
        Hand(3, 5),
        Hand(0, 5, kontra=-1),
    ):
        with pytest.raises(ValueError):
            format(BalkanProtocol(players, 30, (deal,)))
    with pytest.raises(ValueError):
        format(BalkanProtocol(("A", "B", "C", "D"), 30))
    with pytest.raises(ValueError, match="unknown convention 'sochi'"):
        format(BalkanProtocol(players, 30, convention="sochi"))
    with pytest.raises(ValueError):
        format_sheet(BalkanSheet(final=(BalkanSheetLine(0, (5, 0, 0)),) * 3), players)


@pytest.mark.parametrize("name", ["scoring.balkan.notation", "scoring.balkan.notation_deals"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
