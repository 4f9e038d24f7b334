"""``manage.py locale_build``: refresh the Russian catalogue from the code and compile it.

Runs ``makemessages -l ru``, fills every empty translation from the fragments in
``tournaments/locale_src/*.ru.po-fragment`` (``msgid``/``msgstr`` pairs kept by each area of
the code), reports what is still untranslated, and runs ``compilemessages``. Needs GNU gettext.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

LOCALE_DIR = Path(settings.BASE_DIR) / "tournaments" / "locale"
FRAGMENTS = Path(settings.BASE_DIR) / "tournaments" / "locale_src"
_ENTRY = re.compile(
    r'^(?P<head>(?:#.*\n)*)(?:msgctxt (?P<ctx>(?:".*"\n)+))?msgid (?P<id>(?:".*"\n)+)'
    r'(?:msgid_plural (?P<plural>(?:".*"\n)+))?(?P<strs>(?:msgstr(?:\[\d\])? (?:".*"\n)+)+)',
    re.M,
)


def _join(lines: str | None) -> str:
    if not lines:
        return ""
    return "".join(ast.literal_eval(line) for line in lines.strip().splitlines())


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_STR = re.compile(r'msgstr(?:\[(\d)\])? ((?:".*"\n)+)')


def _strings(strs: str) -> list[str]:
    return [_join(m.group(2)) for m in _STR.finditer(strs)]


def _key(m: re.Match[str]) -> str:
    """An entry's msgid, after its msgctxt and EOT where it has one (as gettext keys them)."""
    msgid = _join(m.group("id"))
    return f"{_join(m.group('ctx'))}\x04{msgid}" if m.group("ctx") else msgid


def read_fragments(folder: Path) -> dict[str, list[str]]:
    """msgid (with its context, see :func:`_key`) → its translations (one, or one per plural
    form)."""
    translations: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.ru.po-fragment")):
        text = path.read_text(encoding="utf-8") + "\n"
        for m in _ENTRY.finditer(text):
            msgid = _join(m.group("id"))
            strings = _strings(m.group("strs"))
            if msgid and all(strings):
                translations.setdefault(_key(m), strings)
    return translations


def fill(po_text: str, translations: dict[str, list[str]]) -> tuple[str, list[str]]:
    """Fill empty (or fuzzy) translations; return the new text and the msgids still missing."""
    missing: list[str] = []

    def replace(m: re.Match[str]) -> str:
        msgid = _join(m.group("id"))
        if not msgid:
            return m.group(0)
        current = _strings(m.group("strs"))
        fuzzy = "#, fuzzy" in m.group("head")
        if all(current) and not fuzzy:
            return m.group(0)
        found = translations.get(_key(m))
        plural = m.group("plural")
        if not found or (plural and len(found) < 3) or (not plural and len(found) != 1):
            missing.append(msgid)
            return m.group(0)
        head = re.sub(r"^#(?:, fuzzy|\|).*\n", "", m.group("head"), flags=re.M)
        ctx = f"msgctxt {m.group('ctx')}" if m.group("ctx") else ""
        if plural:
            strs = "".join(f"msgstr[{i}] {_quote(t)}\n" for i, t in enumerate(found))
            return f"{head}{ctx}msgid {m.group('id')}msgid_plural {plural}{strs}"
        return f"{head}{ctx}msgid {m.group('id')}msgstr {_quote(found[0])}\n"

    return _ENTRY.sub(replace, po_text), missing


class Command(BaseCommand):
    help = "makemessages for Russian, fill from tournaments/locale_src fragments, compile."

    def add_arguments(self, parser):
        parser.add_argument(
            "--strict", action="store_true", help="fail when a string is left untranslated"
        )

    def handle(self, *args, strict=False, **options):
        call_command(
            "makemessages",
            locale=["ru"],
            ignore_patterns=[".venv", "tests", "var", "docker"],
            verbosity=0,
            no_obsolete=True,
        )
        po = LOCALE_DIR / "ru" / "LC_MESSAGES" / "django.po"
        text, missing = fill(po.read_text(encoding="utf-8"), read_fragments(FRAGMENTS))
        po.write_text(text, encoding="utf-8")
        call_command(
            "compilemessages", locale=["ru"], verbosity=0, ignore_patterns=[".venv", "var"]
        )
        for msgid in missing:
            self.stdout.write(f"untranslated: {msgid!r}")
        self.stdout.write(f"{len(missing)} untranslated")
        if strict and missing:
            raise CommandError(f"{len(missing)} strings have no Russian translation")
