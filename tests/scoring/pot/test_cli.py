"""``python -m scoring`` on pot-game files: score, check, convert and the error paths."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "pot-format.md").read_text("utf-8")
SEED_EXAMPLE, VIENNA, GERMANY = re.findall(r"```pot\n(.*?)```", DOC, re.S)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scoring", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)  # fmt: skip


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in (("seed", SEED_EXAMPLE), ("vienna", VIENNA), ("germany", GERMANY)):
        path = tmp_path / f"{name}.pot"
        path.write_text(text, encoding="utf-8")
        out[name] = path
    return out


def test_score_prints_the_ledger(files):
    done = run("score", str(files["seed"]))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Wiener Préférence (Viennese): base stake G 10, maximum 30")
    assert "Anna → Bertil 2 (tricks); Anna → Cecilia 8 (tricks); Anna → pot 20 (fall); " \
        "Bertil → pot 20 (fall)" in done.stdout  # fmt: skip
    assert "Pot at the end: 60" in done.stdout


def test_score_json_from_text_and_from_json_agree(files, tmp_path):
    converted = run("convert", str(files["germany"]), "--to", "json")
    assert converted.returncode == 0, converted.stderr
    as_json = tmp_path / "germany.json"
    as_json.write_text(converted.stdout, encoding="utf-8")
    a = run("score", str(files["germany"]), "--json")
    b = run("score", str(as_json), "--json")
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert data["format"] == "pulka-pot-result" and data["game"] == "german"
    first = data["deals"][0]
    assert (first["amount"], first["trick_value"], first["made"], first["fell"]) == (10, 1, False, [1])
    assert data["deals"][1]["premium_payments"] == [
        {"payer": 0, "payee": 2, "amount": 5, "kind": "premium"},
        {"payer": 1, "payee": 2, "amount": 5, "kind": "premium"},
    ]
    assert [f["code"] for f in data["findings"]] == ["ALL_PASS"]


def test_check_and_convert_round_trip(files, tmp_path):
    for name in ("seed", "vienna", "germany"):
        done = run("check", str(files[name]))
        assert done.returncode == 0, done.stdout
    back = run("convert", str(files["vienna"]), "--to", "text")
    assert back.stdout == VIENNA.replace("first dealer: Cecilia\n", "first dealer: Cecilia\n"
                                         "ending: closed\n")  # fmt: skip
    ascii_text = run("convert", str(files["vienna"]), "--to", "text", "--ascii").stdout
    assert "tvang, tvang" in ascii_text and "efterkop" in ascii_text
    again = run("convert", "-", "--to", "text", stdin=ascii_text)
    assert again.stdout == back.stdout


def test_check_reports_a_wrong_ledger_cell_with_exit_1(files):
    text = SEED_EXAMPLE.replace("kassa 1: -30, -18, -2; pott 60", "kassa 1: -30, -20, -2; pott 60")
    done = run("check", "-", "--json", stdin=text)
    assert done.returncode == 1
    (finding,) = json.loads(done.stdout)["findings"]
    assert (finding["code"], finding["column"], finding["written"], finding["expected"],
            finding["source"], finding["rule"]) == ("LEDGER_NET", "net:1", -20, -18, "000",
                                                    "Betalning")  # fmt: skip


def test_check_with_a_separate_ledger(files, tmp_path):
    ledger = tmp_path / "ledger.txt"
    ledger.write_text("kassa 1: -30, -18, -2; pott 50\n", encoding="utf-8")
    done = run("check", str(files["seed"]), "--sheet", str(ledger))
    assert done.returncode == 1 and "LEDGER_POT" in done.stdout


def test_errors_name_the_field():
    bad_json = json.dumps({"format": "pulka-pot-protocol", "version": 1,
                           "players": ["A", "B", "C"],
                           "deals": [{"type": "hand", "declarer": 0, "contract": "3",
                                      "defence": ["go", "maybe"]}]})  # fmt: skip
    done = run("score", "-", stdin=bad_json)
    assert done.returncode == 2 and "$.deals[0].defence[1]" in done.stderr
    missing = bad_json.replace('"maybe"', '"go"')
    done = run("score", "-", stdin=missing)
    assert done.returncode == 2 and "deal 1: tricks: missing" in done.stderr
    text = "format: pot 1\nplayers: A, B, C\n1. A sju utan kop / 0-5-6-1\n"
    done = run("score", "-", stdin=text)
    assert done.returncode == 2 and "line 3, column" in done.stderr and "tricks per seat" in done.stderr
    text = "format: pot 1\noptions: max_amount=25\nplayers: A, B, C\n1. A 1 / tvång, tvång / 6-2-2\n"
    done = run("score", "-", stdin=text)
    assert done.returncode == 2 and "'max_amount'" in done.stderr
    # one behaviour for both commands (issue #37): an option the convention refuses cannot be
    # read, exit status 2 naming the option, for check as for score
    done = run("check", "-", stdin=text)
    assert done.returncode == 2 and "'max_amount'" in done.stderr and not done.stdout
    done = run("score", "-", stdin="format: pot 1\nconvention: bavarian\nplayers: A, B, C\n")
    assert done.returncode == 2 and "unknown convention 'bavarian'" in done.stderr
