"""Every docstring example in the pure packages runs (STYLE.md: examples run as doctests)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ["scoring", "rules", "tournaments.seating", "tournaments.standings", "tournaments.ratings"]


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        pkg = importlib.import_module(package)
        names.append(package)
        names += [m.name for m in pkgutil.walk_packages(pkg.__path__, package + ".")
                  if not m.name.endswith("__main__")]
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_pure_packages_have_examples():
    """Counted, not run again: ``test_docstring_examples`` runs every example the finder finds
    (as ``doctest.testmod`` does)."""
    finder = doctest.DocTestFinder()
    attempted = sum(len(test.examples) for n in _modules()
                    for test in finder.find(importlib.import_module(n)))
    assert attempted >= 30
