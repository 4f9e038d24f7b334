"""scoring/ and rules/ are pure Python: importing them must not import Django (CONTRIBUTING.md, "Layers")."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_scoring_and_rules_import_without_django():
    code = (
        "import pkgutil, importlib, sys\n"
        "import scoring, rules\n"
        "for pkg in (scoring, rules):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        if not m.name.endswith('__main__'):\n"
        "            importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'tournaments', 'rest_framework', 'celery'))\n"
        "print(','.join(bad))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"pure packages imported: {out.stdout.strip()}"


def test_rules_never_import_scoring():
    """Layers point one way: ``rules/`` (what is legal, the parameters) never imports
    ``scoring/`` (what is written) — issue 24 §1."""
    code = (
        "import pkgutil, importlib, sys\n"
        "import rules\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'scoring')\n"
        "print(','.join(bad))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"rules imported scoring: {out.stdout.strip()}"
