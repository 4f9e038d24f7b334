"""``python -m scoring`` on Balkan files, run as a subprocess: convert both ways, errors exit 2,
and score and check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.balkan import jsonio, notation

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "tests" / "scoring" / "data" / "balkan" / "seed-example.balkan"
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


def test_convert_text_to_json_is_the_json_file() -> None:
    done = run("convert", str(EXAMPLE), "--to", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(EXAMPLE_JSON.read_text("utf-8"))


def test_convert_json_to_text_is_canonical_and_reads_back() -> None:
    done = run("convert", str(EXAMPLE_JSON), "--to", "text")
    assert done.returncode == 0, done.stderr
    protocol, sheet = notation.parse_with_sheet(EXAMPLE.read_text("utf-8"))
    assert done.stdout == notation.format(protocol, sheet)
    assert done.stdout.startswith("format: balkan 1\nconvention: hrvatski\nbula: 30\n")
    assert notation.parse_with_sheet(done.stdout) == (protocol, sheet)


def test_convert_ascii_and_standard_input() -> None:
    done = run("convert", "-", "--to", "text", "--ascii", stdin=EXAMPLE_JSON.read_text("utf-8"))
    assert done.returncode == 0, done.stderr
    assert "4. A zir ne ide/ide stihovi 7-0-3\n" in done.stdout
    back = run("convert", "-", "--to", "json", stdin=done.stdout)
    assert back.returncode == 0 and jsonio.loads_with_sheet(back.stdout) == jsonio.loads_with_sheet(
        EXAMPLE_JSON.read_text("utf-8")
    )


def test_a_file_without_a_format_line_is_told_by_its_convention() -> None:
    text = EXAMPLE.read_text("utf-8").replace("format: balkan 1\n", "")
    done = run("convert", "-", "--to", "json", stdin=text)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "pulka-balkan-protocol"


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("format: balkan 1\nbula: 30\nplayers: Ana, Boris, Cvita\nAna 9\n",
         "pulka: -: line 4, column 5: expected a contract"),
        ('{"format": "pulka-balkan-protocol", "version": 1, "players": ["A", "B", "C"],'
         ' "bula": 30, "deals": [{"type": "hand", "declarer": 7, "contract": 5}]}',
         "pulka: -: $.deals[0].declarer: expected a seat number from 0 to 2, found 7"),
        ('{"format": "pulka-balkan-protocol", "version": 2}',
         "pulka: -: $.version: version 2 is newer"),
        ("format: balkan 7\n", "pulka: -: line 1, column 16: expected the notation version 1"),
    ],
)  # fmt: skip
def test_unreadable_files_exit_2_naming_where(stdin: str, message: str) -> None:
    done = run("convert", "-", "--to", "text", stdin=stdin)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(message), done.stderr


# --- score and check: once the engine (scoring.balkan.score, check) is merged -----------------


def _contains(data: Any, wanted: list[int]) -> bool:
    if data == wanted:
        return True
    if isinstance(data, dict):
        return any(_contains(v, wanted) for v in data.values())
    if isinstance(data, list):
        return any(_contains(v, wanted) for v in data)
    return False


def test_score_json_prints_the_balkan_result_from_text_and_json_alike() -> None:
    from_text = run("score", str(EXAMPLE), "--json")
    from_json = run("score", str(EXAMPLE_JSON), "--json")
    assert from_text.returncode == from_json.returncode == 0, from_text.stderr
    assert from_text.stdout == from_json.stdout
    data = json.loads(from_text.stdout)
    assert (data["format"], data["version"]) == ("pulka-balkan-result", 1)
    assert _contains(data, [506, -496, -10])  # seed 002: A +506, B -496, C -10


def test_score_prints_the_sheet() -> None:
    done = run("score", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert "= +506" in done.stdout and "= −496" in done.stdout  # a typographic minus
    ascii_sheet = run("score", "--ascii", str(EXAMPLE))
    assert "= -496" in ascii_sheet.stdout and "−" not in ascii_sheet.stdout


def test_check_the_seed_example_is_clean_and_a_wrong_sheet_is_not() -> None:
    done = run("check", str(EXAMPLE))
    assert done.returncode == 0, done.stdout + done.stderr
    wrong = EXAMPLE.read_text("utf-8").replace("sheet result: 506, -496, -10",
                                               "sheet result: 506, -486, -20")  # fmt: skip
    done = run("check", "-", stdin=wrong)
    assert done.returncode == 1, done.stdout
    as_json = json.loads(run("check", "-", "--json", stdin=wrong).stdout)
    assert as_json["ok"] is False and as_json["findings"]


def test_check_takes_a_separate_sheet(tmp_path: Path) -> None:
    protocol, sheet = notation.parse_with_sheet(EXAMPLE.read_text("utf-8"))
    assert sheet is not None
    bare = tmp_path / "game.balkan"
    bare.write_text(notation.format(protocol), encoding="utf-8")
    written = tmp_path / "sheet.json"
    written.write_text(jsonio.dumps_sheet(sheet), encoding="utf-8")
    lines = tmp_path / "sheet.balkan"
    lines.write_text(notation.format_sheet(sheet, protocol.players), encoding="utf-8")
    for path in (written, lines):
        done = run("check", str(bare), "--sheet", str(path))
        assert done.returncode == 0, done.stdout + done.stderr
