"""The process's own copies (tournaments.web_cache.kept): its examples, and the byte budget."""

from __future__ import annotations

import doctest

from tournaments.web_cache import kept
from tournaments.web_cache.kept import Kept


def test_the_examples():
    result = doctest.testmod(kept)
    assert result.attempted > 0 and result.failed == 0


def test_a_value_put_again_counts_its_bytes_once():
    store = Kept(10, max_bytes=10)
    store.put("a", 1, nbytes=6)
    store.put("a", 2, nbytes=6)  # replaced, not added: 6 bytes held, not 12
    assert store.get("a") == 2
    store.put("b", 3, nbytes=4)
    assert store.get("a") == 2 and store.get("b") == 3


def test_no_budget_keeps_nothing_with_a_size():
    store = Kept(10, max_bytes=0)
    store.put("a", 1, nbytes=1)
    assert store.get("a") is None
