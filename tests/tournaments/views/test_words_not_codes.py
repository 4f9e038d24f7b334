"""Issue 29: people read words, not codes. Every public, player, table and organiser page of the
demo is rendered, and the text a person sees (the page's text, its tooltips and labels, not its
markup or scripts) must hold no finding code, no audit log action code (``protocol.saved``),
no Python repr of a dict or a list, no ``None``
and no 0-based seat number.

Issue 36 adds, on every page of every family's demo and in every language Pulka offers: no rule
cited by our file numbers ("seed 002", "(002)", "[002 …]") or the reading aid's codes
("A-VI-3"), no scorer's note code, no ISO time stamp beside the language's dates, and the draw's
machinery (seed, ``manage.py draw_verify``, tabu search, CP-SAT) only in a round's "About this
draw"."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client

from tests.demo_pages import demo_pages, family_demo_pages
from tests.factories import UserFactory
from tournaments.models import AuditLogEntry, Protocol

pytestmark = pytest.mark.django_db

#: attributes whose values a person reads (tooltips, names read out by screen readers)
SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}

#: what a template shows when it prints a Python value instead of words
LEAKS = {
    "a dict's repr": re.compile(r"\{'|': |\{\}"),
    "a list's repr": re.compile(r"\['|\[\]|\[-?\d+(?:, -?\d+)+\]"),
    "an object's repr": re.compile(r"<[A-Za-z_.]+ object at |<[A-Z][A-Za-z]+: "),
    "None": re.compile(r"(?m)^None$|[:=(\[,]\s*None\b|\bNone\s*[,)\]}]"),
    "a rule reference as an identifier": re.compile(r"\[\d{3}-"),
    "a code in capitals": re.compile(r"\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b"),
    "a 0-based seat": re.compile(r"\b(?:seat|место|mjesto|mesto|Platz|plats)\s*0\b", re.I),
    # issue 36: a rule is cited as a referee knows it ("Kodeks 1996, 3.2.21", "Croatian rules,
    # “Kontra”"), never by our file numbers ("seed 002", "(002)", "001 §3.2.21", "[002 …]")
    "a rule text's file number": re.compile(
        r"\bseeds? 00[0-4]\b|\(00[0-4]\)|\b00[0-4](?: §| [\"“„«]|[,;:] ?(?:note|A-|D\d|\d|Serbia))"
        r"|\[00[0-4]\b"
    ),
    # a note the scorer writes as a code (an adjusted result's), issue 36
    "a scorer's note code": re.compile(r"\bADJUSTED\b"),
    # dates in one format per language on a page: the language's, not an ISO stamp beside
    # it (issue 36)
    "an ISO date and time": re.compile(r"\b\d{4}-\d\d-\d\d(?:T\d\d:\d\d|[ T]\d\d:\d\d:\d\d)"),
    # a ruling's kind as the model names it: its rule is cited beside it (issue 36)
    "a ruling kind's model name": re.compile(r"Penalty from the rules|Adjusted result \(3"),
    # the draw engine's machinery belongs in a round's "About this draw" (issue 36)
    "the draw's machinery": re.compile(r"\btabu search\b|\bCP-SAT\b|\bOR-Tools\b|\bmanage\.py\b"),
    # ... nor by the reading aid's register ("A-VI-3", "A-PR-1")
    "a reading aid's id": re.compile(r"\bA-(?:HR|SI|VI|DE|PR|PO)-\d\b"),
}

#: server settings an organiser is told to set: names to type, shown on purpose
SETTING_NAMES = {"PULKA_BASE_URL"}


class _ShownText(HTMLParser):
    """The text of a page as a person meets it: text nodes outside script and style, and the
    attributes that are shown or read out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


#: a round's "About this draw": the seed, the engine and how it made the tables, for the curious
_ABOUT_THE_DRAW = re.compile(r'<details[^>]*class="about-draw".*?</details>', re.S)


def shown_text(html: str) -> str:
    parser = _ShownText()
    parser.feed(_ABOUT_THE_DRAW.sub("", html))
    return "\n".join(p.strip() for p in parser.parts if p.strip())


def leaks(text: str, codes: set[str], actions: set[str] = frozenset()) -> list[tuple[str, str]]:
    """What of ``text`` a person should not see: (the kind of leak, its context); ``codes``
    are finding codes, ``actions`` the audit log's action codes (``protocol.saved``), each
    found as a whole word (not inside a longer dotted name such as an address)."""
    found = []
    for action in actions:
        found += [
            ("an action code", _around(text, m))
            for m in re.finditer(rf"(?<![\w.]){re.escape(action)}(?![\w.]*\w)", text)
        ]
    for what, pattern in LEAKS.items():
        found += [
            (what, _around(text, m))
            for m in pattern.finditer(text)
            if m.group(0) not in SETTING_NAMES
        ]
    for code in codes:
        found += [("a finding code", _around(text, m)) for m in re.finditer(rf"\b{code}\b", text)]
    return found


def _around(text: str, m: re.Match) -> str:
    return "…" + text[max(0, m.start() - 40) : m.end() + 40].replace("\n", " ¶ ") + "…"


def test_the_scan_finds_what_it_looks_for():
    """The check itself can fail: each kind of leak in a page is caught."""
    html = (
        "<p>Penalty {'gora': 5}</p><p title='[0, 1]'>x</p><td>None</td><p>Penalties: None.</p><p>TRICKS_SUM</p>"
        "<p>Сергей: seat 0</p><p>[001-3.2.21]</p><script>var a = {'b': None}</script>"
        "<p>tables of 3 (seed 002)</p><p>falls under (000, A-VI-3)</p><p>(tabu search)</p>"
        '<details class="about-draw"><p>seed 7 · manage.py draw_verify cup 1</p></details>'
    )
    found = {what for what, _ in leaks(shown_text(html), {"TALON_PEEK"})}
    for what in (
        "a dict's repr",
        "a list's repr",
        "None",
        "a code in capitals",
        "a 0-based seat",
        "a rule reference as an identifier",
        "a rule text's file number",
        "a reading aid's id",
        "the draw's machinery",
    ):
        assert what in found
    assert not any("var a" in context for _, context in leaks(shown_text(html), set()))
    assert not any("draw_verify" in context for _, context in leaks(shown_text(html), set()))
    assert ("a finding code", "…TALON_PEEK here…") in leaks(
        shown_text("<p>TALON_PEEK here</p>"), {"TALON_PEEK"}
    )
    # an audit action code in a tooltip is caught, a longer dotted name holding it is not
    tooltip = '<td title="ruling.made">ruling: Anna: 5 into the gora</td>'
    assert [w for w, _ in leaks(shown_text(tooltip), set(), {"ruling.made"})] == ["an action code"]
    assert (
        leaks(shown_text("<p>see x.ruling.made.y and ruling.made2</p>"), set(), {"ruling.made"})
        == []
    )
    for cited in ('[002 "Kontra"]', "(001 §3.2.21)", "Kodeks (002)", "[000 “Giv”]"):
        assert [w for w, _ in leaks(shown_text(f"<p>{cited}</p>"), set())] == [
            "a rule text's file number"
        ], cited
    clean = (
        "<p>Сергей Морозов: 5 into the gora (Kodeks 1996, 3.2.21, looked at the talon); seat 1"
        "</p><p>Игрок 0001, table 002x, 2002 (Croatian rules, “Kontra”)</p>"
    )
    assert leaks(shown_text(clean), set()) == []


#: Leaks the issue's other parts remove (issue 29: "findings ... are sentences with the rule",
#: "rulings and penalties are written in words everywhere (pages, PDFs, log)"), by page and kind.
#: Each must still be seen: once a page is fixed, the test says so and its line goes. Empty
#: since the referee-entry part of issue 29 landed: every demo-cup page reads in words.
KNOWN_ELSEWHERE: set[tuple[str, str]] = set()


#: The same on the other families' demo evenings, whose draws (and so which table holds which
#: finding) vary from run to run: allowed there, by kind of page, but not required.
MAY_SHOW_ELSEWHERE = {
    (f"{slug}-{page}", what)
    for slug in ("demo-liga", "demo-priffe", "demo-wien")
    for page in ("table", "referee", "player-protocols")
    for what in ("a finding code", "a code in capitals")
}


def test_no_page_of_the_demo_shows_a_code_a_repr_or_a_0_based_seat():
    _scan_the_demo(languages=("en",))


#: what the scan in every language holds each page to (issue 36): what people read names the
#: rule texts as a referee knows them, in every language Pulka offers
EVERY_LANGUAGE = (
    "a rule text's file number",
    "a reading aid's id",
    "the draw's machinery",
    "a scorer's note code",
    "an ISO date and time",
)


def test_no_page_of_the_demo_cites_a_rule_by_file_number_in_any_language():
    """Issue 36: "Kodeks 1996, 3.2.21", "Hrvatska pravila, „Kontra“", never "seed 002",
    "(002)", "[002 …]" or "A-VI-3", on every page of every family's demo, in every language."""
    _scan_the_demo(
        languages=tuple(code for code, _name in settings.LANGUAGES if code != "en"),
        kinds=EVERY_LANGUAGE,
    )


def _scan_the_demo(*, languages, kinds=None):
    organiser = UserFactory(is_staff=True, is_superuser=True)
    event, pages = demo_pages(organiser=organiser)
    pages += family_demo_pages(organiser=organiser)
    codes = {
        f["code"]
        for findings in Protocol.objects.values_list("findings", flat=True)
        for f in findings
    }
    assert codes  # the demo has findings: the scan has codes to look for
    actions = set(AuditLogEntry.objects.values_list("action", flat=True))
    assert "protocol.saved" in actions  # the demo's log: the action codes to look for
    public, staff = Client(), Client()
    staff.force_login(organiser)
    problems, seen = [], set()
    for language, page in ((lang, page) for lang in languages for page in pages):
        path = page.path if language == "en" else f"/{language}{page.path}"
        response = (staff if page.staff else public).get(path)
        assert response.status_code == 200, (page.name, path, response.status_code)
        kind = re.sub(r"-\d+-\d+$", "", page.name)  # a family's table or referee page
        for what, context in leaks(shown_text(response.content.decode()), codes, actions):
            if kinds is not None and what not in kinds:
                continue
            seen.add((page.name, what))
            if (page.name, what) not in KNOWN_ELSEWHERE and (kind, what) not in MAY_SHOW_ELSEWHERE:
                problems.append(f"{page.name} ({path}) shows {what}: {context}")
    if kinds is not None:
        assert not problems, "\n".join(problems)
        return
    fixed = sorted(KNOWN_ELSEWHERE - seen)
    assert not problems, "\n".join(problems)
    assert not fixed, f"no longer shown, remove from KNOWN_ELSEWHERE: {fixed}"
