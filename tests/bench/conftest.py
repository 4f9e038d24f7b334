"""Benchmarks: not part of the suite (``norecursedirs`` in pyproject.toml keeps pytest out of this
folder unless it is named), run on demand and serially, one at a time or all::

    .venv/bin/python -m pytest -p no:cacheprovider -s tests/bench -m bench
    .venv/bin/python -m pytest -p no:cacheprovider -s tests/bench/bench_pdf.py

Every ``bench_*.py`` file with tests is collected here and its tests are marked ``bench``; the
other ``bench_*.py`` files are scripts (``bench_scoring.py``, ``bench_seating.py``,
``bench_pages.py``, ``bench_warm.py``: ``python tests/bench/<file> --help``) or their settings
(``bench_settings.py``, ``bench_urls.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
_TESTS = re.compile(r"^def test_", re.MULTILINE)


def pytest_collect_file(file_path, parent):
    """``bench_*.py`` with tests, in a run of the folder (a file named on the command line is
    collected by pytest itself)."""
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("bench_")
        and not parent.session.isinitpath(file_path)
        and _TESTS.search(file_path.read_text(encoding="utf-8"))
    ):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.bench)
