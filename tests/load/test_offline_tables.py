"""The network-cut scenario (issue 42): 30 tables enter their deals through the phone's outbox
while the hall's network is cut, 3 seconds in this short form; every deal is stored once, in
order, and the standings equal a recomputation. ``PULKA_LOAD_LONG=1`` runs the long form here
(the network cut for 2 minutes, about 10 minutes in all), as ``python
tests/load/offline_tables.py`` does (docs/reliability.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.load

SHORT = ["--tables", "30", "--deals", "5", "--pace", "0.4", "--cut", "3", "--cut-at", "0.6",
         "--retry", "0.5", "--max-seconds", "300"]  # fmt: skip
LONG = os.environ.get("PULKA_LOAD_LONG") == "1"


def test_thirty_tables_enter_deals_through_a_network_cut(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is needed (the test command installs it)")
    from django.conf import settings

    db = f"{settings.DATABASES['default']['TEST']['NAME']}_load_offline"
    out = subprocess.run(
        [sys.executable, "tests/load/offline_tables.py", *([] if LONG else SHORT), "--db", db,
         "--log-dir", str(tmp_path / "offline")],
        cwd=ROOT, capture_output=True, text=True, timeout=1800 if LONG else 600,
    )  # fmt: skip
    assert out.stdout.strip(), out.stderr[-3000:]
    report = json.loads(out.stdout)
    failed = [k for k, ok in report["checks"].items() if not ok]
    assert report["ok"] and out.returncode == 0, (failed, report, out.stderr[-2000:])
    deals = 12 if LONG else 5
    assert report["tables"] == 30 and report["sends"] == 30 * (deals + 1)
    # each time is reported rounded to a tenth of a second (32.8 − 29.8 is 2.99999… in floats)
    cut_for = round(report["restored_at_seconds"] - report["cut_at_seconds"], 1)
    assert cut_for >= (120 if LONG else 3) - 0.1, report
