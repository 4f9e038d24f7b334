"""The examples in the scoring modules' docstrings run (STYLE.md: doctests where cheap)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["scoring.russian.protocol", "scoring.findings", "scoring.russian.writing", "scoring.russian.pulka",
           "scoring.russian.settlement", "scoring.russian.generate"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
