"""Issue 36: a referee who types a protocol in the text box and makes a mistake reads the error in
the page's language, in every family: the place (line, column), the offending token as typed and
what the family's notation expected there, in words of that language; no English of the
notation's catalogue (``scoring.notation_errors``) is left in it. And every error code and every
"expected" code of the notations has its words in every language Pulka offers, so that a new
one cannot slip through untranslated."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from scoring.notation_errors import EXPECTED, NOTATION_ERRORS, PEOPLE
from scoring.notation_lexer import NotationError
from tournaments.errors import said_error
from tournaments.services.protocols import notation_read

from ..balkan.test_balkan_event import balkan_table
from ..pot.test_pot_event import pot_table
from ..priffe.test_priffe_event import priffe_table
from .conftest import make_table

pytestmark = pytest.mark.django_db


def _russian():
    setup = make_table()
    return setup.event, (setup.table,), setup.referee


#: per family: its table, the language its clubs read, a line with a mistake, the token the
#: error quotes and the "expected" code it names
CASES = {
    "russian": (_russian, "ru", "Anna 6♠ / x", "'x'", "result_russian"),
    "balkan": (balkan_table, "hr", "Ana bundeva štihovi 6-2", "'6-2'", "tricks_balkan"),
    "viennese": (
        lambda: pot_table(first_dealer=2),
        "de",
        "Anna 3 / går med, stannar hemma / 5-1",
        "'5-1'",
        "tricks_pot",
    ),
    "german": (
        lambda: pot_table(convention="german", first_dealer=0),
        "de",
        "Anna zwei / mitgehen / 5-1",
        "'5-1'",
        "tricks_pot",
    ),
    "priffe": (priffe_table, "sv", "Anna pref 7 honnörer Bertil 5", "'5'", "honours"),
}

#: English words of the notation's catalogue that no translation keeps (the notation's own
#: keywords, which a referee types, are not among them)
ENGLISH = re.compile(
    r"\b(?:expected|found|line|column|such as|or|and|the|tricks|players?|seat|result)\b", re.I
)


def _alert(page: str) -> str:
    found = re.findall(r'role="alert"[^>]*>(.*?)</', page, re.S)
    return html.unescape(" ".join(found)).strip()


@pytest.mark.parametrize("game", list(CASES))
def test_a_bad_line_in_the_box_reads_in_the_pages_language(client, game):
    make, language, line, token, expected = CASES[game]
    event, (table,), referee = make()
    with pytest.raises(Exception) as caught:
        notation_read(table, line)
    cause = caught.value.__cause__
    assert isinstance(cause, NotationError) and cause.params["expected"].code == expected
    client.force_login(referee)
    url = reverse("protocol-referee", args=[event.slug, 1, 1])
    r = client.post(
        f"/{language}{url}",
        {"notation": line, "ending": "closed", "based_on_version": "", "entry_kind": "table"},
    )
    assert r.status_code == 400  # refused, the box kept with the error beside it
    alert = _alert(r.content.decode())
    with translation.override(language):
        said = said_error(cause)
    assert said and said != cause.reason, (game, said)
    assert said in alert, (game, alert)
    assert token in alert  # the offending token as typed
    assert re.search(r"\b1\b", alert) and re.search(r"\b\d+\b", alert)  # line and column
    assert not ENGLISH.search(alert), (game, alert)
    # the same text on the English page: the command line's words
    english = _alert(client.post(url, {"notation": line, "ending": "closed"}).content.decode())
    assert cause.reason in english


def _has_words(language: str, msgid: str) -> bool:
    catalog = trans_real.translation(language)._catalog
    return msgid in catalog and bool(catalog[msgid])


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES if code != "en"])
def test_every_notation_error_and_expected_code_has_its_words(language):
    missing = [
        code
        for catalogue in (NOTATION_ERRORS, PEOPLE, EXPECTED)
        for code, template in catalogue.items()
        if not _has_words(language, template)
    ]
    assert not missing, (language, missing)


def test_every_error_and_expectation_the_notations_raise_has_a_code():
    """The notations' sources name only codes of the catalogue where they say what went wrong
    or what was expected: an English phrase written in place of a code fails here (and at run
    time, where :class:`~scoring.notation_errors.Expected` refuses an unknown code)."""
    import ast  # the test's own tool, only here
    from pathlib import Path

    root = Path(settings.BASE_DIR)
    files = [root / "scoring/notation_lexer.py", root / "scoring/variants.py"]
    files += sorted(root.glob("scoring/*/notation*.py"))
    calls = {"error", "expect", "integer", "text", "single_text", "rule", "_counts", "_points",
             "_free", "contract", "NotationError", "Expected"}  # fmt: skip
    tokens = {"word", "string", *"/{};,=:§"}
    stray = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            nothing = [k.value for k in node.keywords if k.arg == "nothing"]
            args = [*node.args, *nothing] if name in calls else nothing
            for arg in args:
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    continue
                value = arg.value
                if value in EXPECTED or value in NOTATION_ERRORS or value in tokens:
                    continue
                if name == "text" and set(value) <= set(",;}="):  # a reader's stop characters
                    continue
                stray.append(f"{path.relative_to(root)}:{node.lineno}: {value!r}")
    assert not stray, stray
    with pytest.raises(KeyError):
        NotationError(1, 1, "NO_SUCH_CODE")
