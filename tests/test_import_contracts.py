"""Layers point one way (issue 35): import-linter's contracts (``[tool.importlinter]`` in
``pyproject.toml``) hold on the tree, an upward import planted in a copy of it breaks them, and
the import graph of tournaments, scoring and rules has no circle (grimp counts the imports
written inside functions too)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tournaments", "scoring", "rules")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            tree / package,
            ignore=shutil.ignore_patterns("__pycache__", "static", "locale", "templates"),
        )
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def _plant(path: Path, line: str) -> None:
    path.write_text(path.read_text() + f"\n{line}  # planted by the test\n")


def test_the_contracts_hold():
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_an_upward_import_breaks_the_layers(tmp_path):
    tree = _copy(tmp_path)
    _plant(tree / "tournaments" / "models" / "__init__.py", "import tournaments.views")
    done = _lint(tree)
    assert done.returncode != 0
    assert "tournaments.models is not allowed to import tournaments.views" in done.stdout


def test_django_in_a_pure_package_and_scoring_in_rules_break_the_contracts(tmp_path):
    tree = _copy(tmp_path)
    _plant(tree / "tournaments" / "standings" / "__init__.py", "import django.db")
    _plant(tree / "rules" / "__init__.py", "import scoring.findings")
    done = _lint(tree)
    assert done.returncode != 0
    assert "tournaments.standings is not allowed to import django" in done.stdout
    assert "rules is not allowed to import scoring" in done.stdout


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
                on_stack.add(v)
            for j in range(i, len(edges[v])):
                w = edges[v][j]
                if w not in index:
                    work.append((v, j + 1))
                    work.append((w, 0))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
    return found


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def test_there_is_no_import_circle():
    assert _circles(_graph()) == []


def test_the_circle_check_finds_a_circle():
    """The check itself: two modules importing each other are one component."""
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.y", imported="a.z")
    assert _circles(graph) == [["a.x", "a.y"]]
