"""Every key a family's result document carries is documented in its format document: the
held-out checks of issues 24, 26 and 27 read the result through the documented JSON alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scoring.variants import VARIANTS

DOCS = Path(__file__).resolve().parents[2] / "docs"
DOC_OF = {
    "russian": "protocol-format.md",
    "balkan": "balkan-format.md",
    "pot": "pot-format.md",
    "priffe": "priffe-format.md",
}


def _keys(value: object, out: set[str], depth: int = 0) -> None:
    """The keys of the document's objects, down to the objects of each deal."""
    if depth > 2:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            out.add(key)
            if key not in ("protocol", "options", "findings"):
                _keys(item, out, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _keys(item, out, depth)


@pytest.mark.parametrize("family", sorted(VARIANTS))
def test_every_result_key_is_documented(family: str) -> None:
    variant = VARIANTS[family]
    rng = random.Random(7)
    keys: set[str] = set()
    for _ in range(12):
        protocol = variant.random_protocol(rng, players=variant.table_sizes[-1])
        _keys(variant.result_dict(protocol), keys)
    text = (DOCS / DOC_OF[family]).read_text(encoding="utf-8")
    undocumented = sorted(k for k in keys if f"`{k}`" not in text and f'"{k}"' not in text)
    assert not undocumented, f"{DOC_OF[family]} does not name {undocumented}"
