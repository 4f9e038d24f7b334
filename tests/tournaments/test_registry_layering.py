"""The tournaments side talks to rule families only through the registry (issue 24 §1).

``scoring.variants`` / ``rules.variants`` give every family's shared interface; what is a family's
own on the Django side lives in its two faces, ``tournaments/families/`` (the domain) and the UI
adapters of ``tournaments/variants/`` (the pages). Nowhere
else may the Django code branch on a family's or a convention's name (``if variant == "sochi"``,
``family.key == "balkan"``, ``case "croatian"``), nor import a family's own scoring or rules
modules. Pure text checks: no database.
"""

from __future__ import annotations

import re
from pathlib import Path

from rules.variants import FAMILIES

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tournaments"
ADAPTERS = PACKAGE / "variants"
#: a family's two faces on the Django side: its domain and its pages
FAMILY_HOMES = (PACKAGE / "families", ADAPTERS)

#: every family key, convention key and alias: the names a branch could test (not the two-letter
#: aliases: "ru", "hr" are language codes, which templates rightly test)
NAMES = sorted(
    n
    for n in {f.key for f in FAMILIES.values()}
    | {a for f in FAMILIES.values() for a in f.aliases}
    | {k for f in FAMILIES.values() for k in f.conventions}
    | {a for f in FAMILIES.values() for c in f.conventions.values() for a in c.aliases}
    if len(n) > 2
)
_NAME = "|".join(re.escape(n) for n in NAMES)
_LITERAL = rf"""["'](?:{_NAME})["']"""
BRANCHES = [
    re.compile(rf"(?:==|!=|\bis\b|\bin\b)\s*[\(\[\{{]?\s*{_LITERAL}", re.I),  # x == "sochi"
    re.compile(rf"{_LITERAL}\s*(?:==|!=|\bin\b)", re.I),  # "sochi" == x, "sochi" in x
    re.compile(rf"\bcase\s+{_LITERAL}", re.I),  # match / case
    re.compile(r"\b(?:family|variant)(?:\.key)?\s*(?:==|!=)\s*[\"']"),  # family.key == "…"
    re.compile(r"\b(?:family|variant)(?:\.key)?\s+(?:not\s+)?in\s+[\(\[\{]\s*[\"']"),
    re.compile(rf"\{{%\s*(?:el)?if\b[^%]*{_LITERAL}"),  # {% if event.variant == "rostov" %}
]
#: a family's own modules: only its adapter may import them
FAMILY_MODULES = re.compile(
    r"^\s*(?:from|import)\s+(?:scoring\.(?:pulka|jsonio|notation|notation_deals|check|stats|"
    r"penalties|writing|settlement|generate|result_json|balkan|pot|priffe)|rules\.(?:contracts|"
    r"bidding|balkan|pot|priffe|penalties|dealing))\b",
    re.M,
)
#: the demo's Russian event sets up hand-made Russian incidents (a talon peek, 001 §3.8.5.1 Б)
IMPORT_EXEMPT = {PACKAGE / "demo" / "protocols.py"}


def _sources() -> list[Path]:
    files = [p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts]
    files += list((ROOT / "templates").rglob("*.html"))
    return [p for p in files if not any(home in p.parents for home in FAMILY_HOMES)]


def _branches(text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith("{") else line
        for pattern in BRANCHES:
            if pattern.search(code):
                found.append(f"{number}: {line.strip()}")
                break
    return found


def test_the_patterns_catch_branches_on_a_name():
    for bad in (
        'if event.variant == "sochi":',
        "if 'croatian' == convention:",
        'if family.key == "balkan":',
        'elif variant in ("serbian", "slovenian"):',
        '    case "rostov":',
        '{% if event.variant == "leningrad" %}',
        "if variant.key != 'russian':",
    ):
        assert _branches(bad), bad
    for fine in (
        'variant = models.CharField(default="sochi")',
        'FAMILY_OPTION_LABELS = {"russian": OPTION_LABELS}',
        "ui = ui_of_event(event)",
        "if variant.key != expected.key:",
        '{% if LANG == "ru" %}',
    ):
        assert not _branches(fine), fine


def test_no_branch_on_a_family_or_convention_name_outside_the_adapters():
    found = {
        str(p.relative_to(ROOT)): hits for p in _sources() if (hits := _branches(p.read_text()))
    }
    assert not found, f"branches on a rule family's name (use tournaments/variants): {found}"


def test_only_the_adapters_import_a_familys_own_modules():
    found = {
        str(p.relative_to(ROOT)): FAMILY_MODULES.findall(p.read_text())
        for p in _sources()
        if p.suffix == ".py" and p not in IMPORT_EXEMPT and FAMILY_MODULES.search(p.read_text())
    }
    assert not found, f"a family's own modules imported outside tournaments/variants: {found}"


def test_the_adapters_are_registered_families():
    from tournaments.variants import ADAPTERS as REGISTERED

    assert set(REGISTERED) <= set(FAMILIES)
    assert {"russian", "balkan"} <= set(REGISTERED)  # the pot games and Priffe: their issues


def test_each_page_face_extends_its_familys_domain_face():
    from tournaments.families import DOMAINS
    from tournaments.variants import ADAPTERS as REGISTERED

    assert set(REGISTERED) == set(DOMAINS)
    for key, ui in REGISTERED.items():
        assert isinstance(ui, type(DOMAINS[key])), key
