"""``bash .ci/demo`` prints the address it really serves (issue 36): ``PULKA_ADDR`` as given
(a port alone is on 127.0.0.1), the default otherwise; nothing else in the script names an
address of its own."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / ".ci" / "demo"


def served(addr: str | None) -> tuple[str, str]:
    """The address block of the script run alone: the URL it prints, the address it serves."""
    text = SCRIPT.read_text()
    block = re.search(r"# --- the address served.*?\n(.*?)# --- end of the address", text, re.S)
    env = {"PATH": "/usr/bin:/bin", **({"PULKA_ADDR": addr} if addr is not None else {})}
    out = subprocess.run(
        ["bash", "-c", block.group(1) + 'echo "$url"; echo "$addr"'],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    url, address = out.stdout.split()
    return url, address


@pytest.mark.parametrize(
    ("addr", "url", "address"),
    [
        (None, "http://127.0.0.1:8000", "127.0.0.1:8000"),
        ("0.0.0.0:8080", "http://0.0.0.0:8080", "0.0.0.0:8080"),
        ("9000", "http://127.0.0.1:9000", "127.0.0.1:9000"),
        ("[::1]:8001", "http://[::1]:8001", "[::1]:8001"),
    ],
)
def test_the_demo_prints_the_address_it_serves(addr, url, address):
    assert served(addr) == (url, address)


def test_every_printed_address_is_the_one_served():
    text = SCRIPT.read_text()
    for line in text.splitlines():
        if line.startswith("echo") and "http" in line:
            assert "$url" in line and "127.0.0.1" not in line, line
    assert 'runserver "$addr"' in text
