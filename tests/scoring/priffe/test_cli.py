"""``python -m scoring`` on Priffe files: score, check and convert, exit statuses."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import main

from .test_docs import TEXTS

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def example(tmp_path: Path) -> Path:
    path = tmp_path / "evening.priffe"
    path.write_text(TEXTS[0], encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def test_score_prints_the_sheet(example: Path) -> None:
    status, out = run("score", str(example))
    assert status == 0
    assert out.startswith("Priffe: Priffe (det moderna sättet); 3 sits; game at 30 trick points")
    assert "Sits 1: Anna+Cecilia against Bertil+David" in out
    assert "--- utgång Anna+Cecilia (games 2-1); sits won by Anna+Cecilia" in out
    assert "  Bertil      220" in out


def test_score_json_is_the_result_document(example: Path) -> None:
    status, out = run("score", "--json", str(example))
    data = json.loads(out)
    assert status == 0 and data["format"] == "pulka-priffe-result"
    assert data["player_totals"] == [200, 220, 160, 180]
    assert [s["winner_players"] for s in data["sits"]] == [["Anna", "Cecilia"], None]
    assert data["deals"][4]["game_won_by_players"] == ["Bertil", "David"]


def test_check_clean_and_with_a_wrong_sheet(example: Path, tmp_path: Path) -> None:
    assert run("check", str(example))[0] == 0
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("sheet 1: under 0 30, över 30 0\nsheet result: 200, 220, 160, 190\n")
    status, out = run("check", str(example), "--sheet", str(sheet))
    assert status == 1
    assert 'error: David: total 190 written, expected 180 [004 "Utgång"] (SHEET_RESULT)' in out
    assert "Bertil+David wrote 30 below the line, expected 20" in out
    status, out = run("check", "--json", str(example), "--sheet", str(sheet))
    data = json.loads(out)
    assert not data["ok"] and {f["source"] for f in data["findings"]} == {"004"}


def test_convert_round_trip(example: Path, tmp_path: Path) -> None:
    status, out = run("convert", str(example), "--to", "json")
    assert status == 0 and json.loads(out)["format"] == "pulka-priffe-protocol"
    as_json = tmp_path / "evening.json"
    as_json.write_text(out, encoding="utf-8")
    status, text = run("convert", str(as_json), "--to", "text")
    assert status == 0 and text.startswith("format: priffe 1\nconvention: modern\n")
    assert "1. Bertil hjärter 8/5 honnörer Cecilia 3 {hjärter pass pass pass}" in text
    status, ascii_text = run("convert", str(as_json), "--to", "text", "--ascii")
    assert "1. Bertil hjarter 8/5 honnorer Cecilia 3 {hjarter pass pass pass}" in ascii_text


def test_an_unreadable_priffe_file_exits_2_naming_the_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.priffe"
    bad.write_text(TEXTS[0].replace("Bertil hjärter 8/5", "Bertil trumf 8/5"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scoring", "score", str(bad)], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert "line 9, column 11: unknown contract 'trumf'" in done.stderr
