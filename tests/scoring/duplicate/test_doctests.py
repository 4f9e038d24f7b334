"""The examples in the duplicate modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["cards", "boards", "movement", "values", "comparison", "double_dummy"])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"scoring.duplicate.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
