"""``manage.py locale_build``: refresh every catalogue from the code and compile it.

For each language of ``settings.LANGUAGES`` but English (the source language), runs
``makemessages``, fills every empty translation from the fragments in
``tournaments/locale_src/*.<language>.po-fragment`` (``msgid``/``msgstr`` pairs kept by each area
of the code; ``<language>`` is the Django code: ``ru``, ``hr``, ``sr-latn``, ``de``, ``sv``),
reports what is still untranslated, and runs ``compilemessages``. Needs GNU gettext.

What must be translated:

- The :data:`COMPLETE` languages: every string (the organisers' and referees' pages too).
- The other languages: every string a player or a table reads, that is every string the
  :data:`PLAYER_FACING` files use (a .po entry whose ``#:`` locations name one of them). The
  others (the organisers' and referees' pages) may stay untranslated: Django shows them in
  English. ``tests/tournaments/test_languages.py`` holds the catalogues to this.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import to_locale

LOCALE_DIR = Path(settings.BASE_DIR) / "tournaments" / "locale"
FRAGMENTS = Path(settings.BASE_DIR) / "tournaments" / "locale_src"
_ENTRY = re.compile(
    r'^(?P<head>(?:#.*\n)*)(?:msgctxt (?P<ctx>(?:".*"\n)+))?msgid (?P<id>(?:".*"\n)+)'
    r'(?:msgid_plural (?P<plural>(?:".*"\n)+))?(?P<strs>(?:msgstr(?:\[\d\])? (?:".*"\n)+)+)',
    re.M,
)


#: The templates and modules players and tables read (paths from the project root; a folder
#: ends with "/"): the public event pages, standings, rounds and seating, the players' pages and
#: documents list, the table's protocol entry and the player's confirmation page, the login page
#: and the PDFs; and the modules whose strings those pages and PDFs show (finding headings,
#: standings columns, the draw's notes on a player's page, a table's entry errors, the event's
#: convention options on the event page, the referees' seating corrections on the round page;
#: each rule family's deal form, pulka cells and finding headings in ``tournaments/variants/``).
PLAYER_FACING: tuple[str, ...] = (
    "templates/base.html",
    "templates/registration/login.html",
    "templates/pdf/",
    "templates/tournaments/public/",
    "templates/tournaments/private/",
    "templates/tournaments/_tables.html",
    "templates/tournaments/_alphabetical.html",
    "templates/tournaments/_round_gaps.html",
    "templates/tournaments/standings/standings.html",
    "templates/tournaments/standings/_standings_table.html",
    "templates/tournaments/standings/_standings_row.html",
    "templates/tournaments/standings/round.html",
    "templates/tournaments/standings/cross.html",
    "templates/tournaments/standings/player.html",
    "templates/tournaments/standings/documents.html",
    "templates/tournaments/standings/_nav.html",
    "templates/tournaments/standings/_status.html",
    "templates/tournaments/standings/_files.html",
    "templates/tournaments/teams/",
    "tournaments/views/teams.py",
    "templates/tournaments/protocols/table_entry.html",
    "templates/tournaments/protocols/entry/",
    "templates/tournaments/protocols/cells/",
    "templates/tournaments/protocols/sheet/",
    "templates/tournaments/protocols/player.html",
    "templates/tournaments/protocols/_pulka.html",
    "templates/tournaments/protocols/_stale.html",
    "templates/tournaments/protocols/entry/priffe.html",
    "templates/tournaments/protocols/cells/priffe.html",
    "templates/tournaments/protocols/entry/pot.html",
    "templates/tournaments/protocols/cells/pot.html",
    "tournaments/variants/pot.py",
    "tournaments/pdf/documents.py",
    "tournaments/pdf/protocol_contexts.py",
    "tournaments/pdf/render.py",
    "tournaments/pdf/blank.py",
    "tournaments/words/draw_report.py",
    "tournaments/words/audit.py",
    "tournaments/words/gaps.py",
    "tournaments/words/penalties.py",
    "tournaments/words/duplicate.py",  # a duplicate board's makeable contracts (issue 43)
    "templates/tournaments/hall/",
    # leagues and cups (issue 39): the series page, a person's page, their words and columns
    "templates/tournaments/series/series.html",
    "templates/tournaments/series/person.html",
    "templates/tournaments/series/pdf_pending.html",
    "tournaments/views/series.py",
    "tournaments/forms/series.py",
    "templates/tournaments/locked.html",  # a private link tried too often
    "templates/tournaments/bad_input.html",  # a private link's form refused
    "templates/tournaments/error.html",  # the 400/403/404/500 pages
    "tournaments/views/errors.py",
    "tournaments/forms/convention_options.py",
    "tournaments/convention_labels.py",
    "tournaments/families/",
    "tournaments/variants/priffe.py",
    "tournaments/variants/",
    "tournaments/views/public.py",
    "tournaments/views/private.py",
    "tournaments/views/standings_search.py",
    "tournaments/views/protocols/",
    "tournaments/services/protocols/",
    "tournaments/selectors/protocols.py",
    "tournaments/words/protocols.py",
    "tournaments/selectors/standings.py",
    "tournaments/models/player.py",
    "tournaments/models/round.py",
    "tournaments/models/standings.py",
    "scoring/balkan/",  # the Balkan findings' sentences (gettext_noop templates)
)

#: The languages translated throughout; every other language but English covers
#: :data:`PLAYER_FACING`.
COMPLETE = ("ru", "hr", "sr-latn", "de", "sv")

#: Plural forms a language's fragments give where its catalogue's header declares more:
#: Russian's header (makemessages copies Django's) declares a fourth form, for fractions,
#: which no count uses.
PLURALS = {"ru": 3}

_LOCATION = re.compile(r"^#: (.*)$", re.M)
_PLURALS = re.compile(r"nplurals=(\d+)")


def locations(head: str) -> list[str]:
    """The files an entry's ``#:`` comments name (without line numbers)."""
    return [ref.rsplit(":", 1)[0] for line in _LOCATION.findall(head) for ref in line.split()]


def player_facing(head: str) -> bool:
    """Whether an entry (by its comment ``head``) is used by a :data:`PLAYER_FACING` file."""
    return any(f.startswith(scope) for f in locations(head) for scope in PLAYER_FACING)


def plural_count(po_text: str) -> int:
    """The number of plural forms the catalogue's header declares (3 where it does not say)."""
    m = _PLURALS.search(po_text)
    return int(m.group(1)) if m else 3


def catalogue(language: str) -> Path:
    """The .po file of a Django language code (``sr-latn`` lives in ``sr_Latn``)."""
    return LOCALE_DIR / to_locale(language) / "LC_MESSAGES" / "django.po"


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


def read_fragments(folder: Path, language: str = "ru") -> dict[str, list[str]]:
    """msgid (with its context, see :func:`_key`) → its translations (one, or one per plural
    form), from ``folder/*.<language>.po-fragment``."""
    translations: dict[str, list[str]] = {}
    for path in sorted(folder.glob(f"*.{language}.po-fragment")):
        text = path.read_text(encoding="utf-8") + "\n"
        for m in _ENTRY.finditer(text):
            msgid = _join(m.group("id"))
            strings = _strings(m.group("strs"))
            if msgid and all(strings):
                translations.setdefault(_key(m), strings)
    return translations


def fill(
    po_text: str,
    translations: dict[str, list[str]],
    *,
    plurals: int = 3,
    required: Callable[[str], bool] = lambda head: True,
) -> tuple[str, list[str]]:
    """Fill empty (or fuzzy) translations; return the new text and the msgids still missing
    among the entries ``required`` (given an entry's comments) selects. A plural entry needs
    ``plurals`` forms."""
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
        if not found or (plural and len(found) < plurals) or (not plural and len(found) != 1):
            if required(m.group("head")):
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
    help = (
        "makemessages for every language of settings.LANGUAGES, fill from tournaments/locale_src "
        "fragments, compile."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--strict", action="store_true", help="fail when a string is left untranslated"
        )

    def handle(self, *args, strict=False, **options):
        languages = [code for code, _name in settings.LANGUAGES if code != "en"]
        locales = [to_locale(code) for code in languages]
        call_command(
            "makemessages",
            locale=locales,
            ignore_patterns=[".venv", "tests", "var", "docker"],
            verbosity=0,
            no_obsolete=True,
        )
        failed = []
        for language in languages:
            po = catalogue(language)
            text = po.read_text(encoding="utf-8")
            text, missing = fill(
                text,
                read_fragments(FRAGMENTS, language),
                plurals=PLURALS.get(language) or plural_count(text),
                required=(lambda head: True) if language in COMPLETE else player_facing,
            )
            po.write_text(text, encoding="utf-8")
            where = "" if language == "ru" else f" ({language})"
            for msgid in missing:
                self.stdout.write(f"untranslated{where}: {msgid!r}")
            self.stdout.write(f"{len(missing)} untranslated{where}")
            if missing:
                failed.append(
                    f"{len(missing)} strings have no {language} translation"
                    if language in COMPLETE
                    else f"{len(missing)} player-facing strings have no {language} translation"
                )
        call_command(
            "compilemessages", locale=locales, verbosity=0, ignore_patterns=[".venv", "var"]
        )
        if strict and failed:
            raise CommandError("; ".join(failed))
