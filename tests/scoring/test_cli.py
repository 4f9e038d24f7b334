"""``python -m scoring`` run as a subprocess: output and exit status (0 clean, 1 errors, 2 unreadable)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.russian import jsonio, notation
from scoring.russian.notation import parse
from scoring.russian.protocol import Sheet
from scoring.russian.pulka import score

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "scoring" / "data" / "sochi" / "example.pulka"
EXAMPLE_JSON = EXAMPLE.with_suffix(".json")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def test_score_prints_the_sheet() -> None:
    done = run("score", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Pulka: Сочинка (Sochi), to 10; players Anna, Boris, Vera")
    assert "1   +  Vera    Anna 6♠ / ровно w/p" in out
    assert "The pulka closed at deal 12 (001 §4.2.14)." in out
    scored = score(parse(EXAMPLE.read_text(encoding="utf-8")))
    for name, total in zip(("Anna", "Boris", "Vera"), scored.settlement.totals, strict=True):
        assert f"  {name}" in out and f"{int(total):+d}" in out
    assert "Findings:" not in out  # the example is clean


def test_score_json_and_text_agree() -> None:
    from_text = run("score", str(EXAMPLE), "--json")
    from_json = run("score", str(EXAMPLE_JSON), "--json")
    assert from_text.returncode == from_json.returncode == 0
    assert from_text.stdout == from_json.stdout  # the format is auto-detected
    data = json.loads(from_text.stdout)
    assert data["format"] == "pulka-result" and data["closed_at"] == 11
    assert sum(Fraction(x) for x in data["settlement"]["totals"]) == 0


def test_score_reads_standard_input() -> None:
    done = run("score", "-", "--ascii", stdin=EXAMPLE.read_text(encoding="utf-8"))
    assert done.returncode == 0 and "Boris 8D / -1 w/p" in done.stdout


def test_check_clean_exits_0() -> None:
    done = run("check", str(EXAMPLE))
    assert done.returncode == 0
    assert done.stdout.strip().endswith("clean (0 errors, 0 warnings)")


def test_check_errors_exit_1_and_lists_all() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace("4. Anna 7БК / ровно w3/w0 open", "4. Anna 7БК / ровно w3/w1 open")
    text = text.replace("{Anna 6♠; Boris pass; Vera pass}", "{Anna 7♠; Boris pass; Vera pass}")
    done = run("check", "-", stdin=text)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert any(line.startswith("error: deal 1:") and "3.3.8" in line for line in lines)
    assert any(line.startswith("error: deal 4:") for line in lines)
    assert "has errors" in lines[-1]
    as_json = json.loads(run("check", "-", "--json", stdin=text).stdout)
    assert as_json["ok"] is False and len(as_json["findings"]) == len(lines) - 1


def test_check_with_a_written_sheet(tmp_path: Path) -> None:
    protocol = parse(EXAMPLE.read_text(encoding="utf-8"))
    scored = score(protocol)
    rows = tuple(scored.row(i) for i in range(len(protocol.deals)))
    right = Sheet(running=rows, final=scored.final_row(), result=scored.settlement.totals)
    sheet_file = tmp_path / "sheet.json"
    sheet_file.write_text(jsonio.dumps_sheet(right), encoding="utf-8")
    assert run("check", str(EXAMPLE), "--sheet", str(sheet_file)).returncode == 0
    # Boris copies 10 whists too many on Anna at deal 5 and carries the error on
    altered = list(rows)
    for i in range(4, len(rows)):
        line = altered[i][1]
        whists = (line.whists[0] + 10, *line.whists[1:])
        altered[i] = (altered[i][0], replace(line, whists=whists), altered[i][2])
    sheet_file.write_text(jsonio.dumps_sheet(Sheet(running=tuple(altered))), encoding="utf-8")
    done = run("check", str(EXAMPLE), "--sheet", str(sheet_file))
    assert done.returncode == 1
    mismatches = [line for line in done.stdout.splitlines() if "SHEET_MISMATCH" in line]
    assert len(mismatches) == 1 and mismatches[0].startswith("error: deal 5: Boris")
    # …or typed as sheet lines, alone or inside the protocol's text
    lines = notation.format_sheet(Sheet(running=tuple(altered)), protocol.players)
    text_sheet = tmp_path / "sheet.txt"
    text_sheet.write_text(lines, encoding="utf-8")
    assert run("check", str(EXAMPLE), "--sheet", str(text_sheet)).stdout == done.stdout
    inline = tmp_path / "with-sheet.pulka"
    inline.write_text(notation.format(protocol, Sheet(running=tuple(altered))), encoding="utf-8")
    assert run("check", str(inline)).returncode == 1
    text_sheet.write_text("sheet 1: Anna 1\n", encoding="utf-8")
    bad = run("check", str(EXAMPLE), "--sheet", str(text_sheet))
    assert bad.returncode == 2 and "sheet.txt: line 1, column 16" in bad.stderr
    # the sheet may also travel inside the protocol's JSON
    embedded = tmp_path / "with-sheet.json"
    embedded.write_text(jsonio.dumps(protocol, Sheet(running=tuple(altered))), encoding="utf-8")
    assert run("check", str(embedded)).returncode == 1


def test_convert_both_ways(tmp_path: Path) -> None:
    to_json = run("convert", str(EXAMPLE), "--to", "json")
    assert to_json.returncode == 0
    assert to_json.stdout == EXAMPLE_JSON.read_text(encoding="utf-8")
    json_file = tmp_path / "p.json"
    json_file.write_text(to_json.stdout, encoding="utf-8")
    back = run("convert", str(json_file), "--to", "text")
    assert back.returncode == 0
    assert parse(back.stdout) == parse(EXAMPLE.read_text(encoding="utf-8"))
    assert back.stdout.startswith("format: pulka 1\n")
    # a sheet travels both ways too
    scored = score(parse(back.stdout))
    sheet = Sheet(final=scored.final_row(), result=scored.settlement.totals)
    json_file.write_text(jsonio.dumps(parse(back.stdout), sheet), encoding="utf-8")
    text = run("convert", str(json_file), "--to", "text").stdout
    assert "\nsheet final: Anna " in text and "\nsheet result: " in text
    text_file = tmp_path / "p.pulka"
    text_file.write_text(text, encoding="utf-8")
    again = run("convert", str(text_file), "--to", "json").stdout
    assert again == json_file.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("stdin", "args", "message"),
    [
        ("players: A, B, C\ntarget: 10\nA 6♠ / чуть\n", ("score", "-"), "-: line 3, column 8"),
        ('{"format": "pulka-protocol", "version": 1}', ("check", "-"), "$: missing key"),
        ("convention: lviv\nplayers: A, B, C\ntarget: 10\n", ("score", "-"), "unknown conv"),
        ("", ("check", "/no/such/file.pulka"), "/no/such/file.pulka:"),
        ("players: A, B, C\ntarget: 10\n", ("convert", "-", "--to", "json"), None),
        # nested beyond what the decoder takes: an error, not a RecursionError traceback
        ('{"deals": ' + "[" * 100_000, ("score", "-"), "$: JSON nested too deeply"),
        ('{"a": ' * 100_000, ("check", "-"), "nested too deeply"),
    ],
)
def test_unreadable_input_exits_2(stdin: str, args: tuple[str, ...], message: str | None) -> None:
    done = run(*args, stdin=stdin)
    if message is None:  # the control case reads fine
        assert done.returncode == 0
        return
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith("pulka: ") and message in done.stderr
    assert done.stdout == ""


def test_bad_command_line_exits_2() -> None:
    assert run("convert", str(EXAMPLE)).returncode == 2  # --to is required
    assert run("frobnicate").returncode == 2
    assert run("check", str(EXAMPLE), "--sheet", "/no/such/sheet.json").returncode == 2


# --- issue #37: one behaviour for every command and family ---------------------------------

BALKAN_IMPOSSIBLE = (
    "format: balkan 1\nbula: 30\nplayers: A, B, C\nending: in-progress\n"
    "1. A bundeva ide/ide štihovi 6-6-6\n2. B žir ide/ide štihovi 2-6-2\n"
)


def test_score_exits_1_and_says_how_many_deals_were_not_scored() -> None:
    # seed 002 "Idea of the Game": ten tricks; deal 1 cannot be scored and is left out
    done = run("score", "-", stdin=BALKAN_IMPOSSIBLE)
    assert done.returncode == 1 and "NOT SCORED" in done.stdout
    assert done.stderr.splitlines()[-1] == (
        "pulka: -: 1 deal not scored, 1 error (python -m scoring check lists them)"
    )
    as_json = run("score", "-", "--json", stdin=BALKAN_IMPOSSIBLE)
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["deals"][0]["kind"] == "not-scored"
    clean = run("score", "-", stdin=BALKAN_IMPOSSIBLE.replace("6-6-6", "6-2-2"))
    assert clean.returncode == 0 and clean.stderr == ""


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("format: pot 1\noptions: premiums=maybe\nplayers: A, B, C\n", "'premiums'"),
        ("convention: sochi\noptions: whist_style=maybe\nplayers: A, B, C\ntarget: 10\n",
         "'whist_style'"),
        ("format: balkan 1\noptions: end_cap=maybe\nbula: 30\nplayers: A, B, C\n", "'end_cap'"),
    ],
)
def test_an_unknown_option_value_is_exit_2_for_every_command(text: str, option: str) -> None:
    for command in ("score", "check", "convert"):
        extra = ("--to", "json") if command == "convert" else ()
        done = run(command, "-", *extra, stdin=text)
        assert done.returncode == 2 and option in done.stderr, (command, done.stderr)


def test_a_huge_number_is_refused_naming_the_field_not_pythons_digit_limit() -> None:
    big = "9" * 5000
    document = json.dumps({"format": "pulka-balkan-protocol", "version": 1, "bula": 1,
                           "players": ["A", "B", "C"], "deals": []}).replace('"bula": 1', f'"bula": {big}')
    done = run("check", "-", stdin=document)
    assert done.returncode == 2 and "$.bula:" in done.stderr and "5000 digits" in done.stderr
    assert "sys.set_int_max_str_digits" not in done.stderr
    done = run("score", "-", stdin=f"format: pot 1\nplayers: A, B, C\nopening pot: {big}\n")
    assert done.returncode == 2 and "line 3, column 14: a number of 5000 digits" in done.stderr


def test_seats_are_counted_from_1_in_every_message() -> None:
    document = json.dumps({"format": "pulka-pot-protocol", "version": 1,
                           "players": ["A", "B", "C"], "deals": [
                               {"type": "penalty", "player": 0, "rule": "", "to_pot": 0,
                                "to_players": [[1, 5]], "note": ""}]})
    data = json.loads(document)
    data["deals"][0]["to_players"] = [[3, 5]]
    done = run("score", "-", stdin=json.dumps(data))
    assert done.returncode == 2
    assert "to_players: seat 4 is not at the table (seats 1 to 3)" in done.stderr, done.stderr


def test_help_names_every_family() -> None:
    done = run("--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for family in ("Russian", "Croatian, Serbian and Slovenian", "Viennese and German",
                   "Swedish Priffe"):
        assert family in text, family
