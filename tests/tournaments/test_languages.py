"""The languages beside English and Russian: Croatian, Serbian (Latin script), German and
Swedish (issues 24, 26, 27). Each renders the public event page, the standings, the table's entry
page, the player's confirmation page and the PDFs in its words, and its catalogue covers every
string of ``locale_build.PLAYER_FACING``; the ``locale_build.COMPLETE`` languages (every one
Pulka offers since issue 36) cover every string, the organisers' and referees' pages too."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.tournaments.protocols.conftest import make_table
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.management.commands import locale_build
from tournaments.management.commands.locale_build import (
    _ENTRY,
    COMPLETE,
    _join,
    _strings,
    catalogue,
    fill,
    player_facing,
    plural_count,
)
from tournaments.pdf.files import generated_file_request
from tournaments.services.standings import standings_recompute

NEW = ("hr", "sr-latn", "de", "sv")

#: A few words each page must show, per language (the players' words: ide / dolazi, mitgehen,
#: går med; štihovi, Stiche, stick).
WORDS = {
    "hr": {
        "event": ["Kola", "Poredak", "Unakrsna tablica", "Kolo 1", "Progresija na raspasima"],
        "standings": ["Plasman", "Igrač", "Ukupno", "Dobiveni raspasi"],
        "table": ["Nositelj igre", "Štihovi", "ide (vist)", "ne ide (pas)", "Sljedeće dijeljenje"],
        "confirm": ["Potvrđujem zapisnik", "Kolo 1"],
        "pdf": ["Poredak", "Plasman", "Ukupno"],
        "seating": ["Kolo 1: raspored po stolovima", "Prvi dijeli: ", "Stranica 1"],
    },
    "sr-latn": {
        "event": ["Kola", "Tabela", "Ukrštena tabela", "Kolo 1", "geometrijska, 1-2-4"],
        "standings": ["Plasman", "Igrač", "Ukupno", "Dobijeni raspasi"],
        "table": [
            "Nosilac igre",
            "Štihovi",
            "dolazi (vist)",
            "ne dolazi (pas)",
            "Sledeće deljenje",
        ],
        "confirm": ["Potvrđujem zapisnik", "Kolo 1"],
        "pdf": ["Tabela", "Plasman", "Ukupno"],
        "seating": ["Kolo 1: raspored po stolovima", "Prvi deli: ", "Strana 1"],
    },
    "de": {
        "event": ["Runden", "Tabelle", "Kreuztabelle", "Runde 1", "Progression bei Raspasy"],
        "standings": ["Rang", "Spieler", "Gesamt", "Gewonnene Raspasy"],
        "table": ["Alleinspieler", "Stiche", "mitgehen (Whist)", "daheim bleiben (Pass)"],
        "confirm": ["Ich bestätige dieses Protokoll", "Runde 1"],
        "pdf": ["Tabelle", "Rang", "Gesamt"],
        "seating": ["Runde 1: Sitzordnung nach Tischen", "Erster Geber: ", "Seite 1"],
    },
    "sv": {
        "event": ["Ronder", "Ställning", "Korstabell", "Rond 1", "geometrisk, 1-2-4"],
        "standings": ["Placering", "Spelare", "Totalt", "Vunna raspasy"],
        "table": ["Spelförare", "Stick", "går med (whist)", "stannar hemma (pass)", "Nästa giv"],
        "confirm": ["Jag bekräftar protokollet", "Rond 1"],
        "pdf": ["Ställning", "Placering", "Totalt"],
        "seating": ["Rond 1: placering per bord", "Första givare: ", "Sida 1"],
    },
}


@pytest.fixture
def played(db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    event, entries = make_event(
        players=6,
        tiebreaks=["raspasy_won"],
        convention_options={"raspasy_progression": "geometric"},
    )
    play_round(event, entries, 1, rng=random.Random(7))
    standings_recompute(event_id=event.pk)
    return event


def page(client, language: str, url: str) -> str:
    response = client.get(f"/{language}{url}")
    assert response.status_code == 200, url
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    return html


def pdf_text(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True)
    return " ".join(out.stdout.split())


def test_settings_offer_each_language_under_its_own_name():
    names = dict(settings.LANGUAGES)
    assert names["hr"] == "Hrvatski" and names["sr-latn"] == "Srpski (latinica)"
    assert names["de"] == "Deutsch" and names["sv"] == "Svenska"
    assert translation.to_locale("sr-latn") == "sr_Latn"
    assert catalogue("sr-latn").parent.parent.name == "sr_Latn"


@pytest.mark.django_db
def test_the_switcher_lists_the_languages_and_switches_to_serbian(client):
    html = client.get("/").content.decode()
    for code, name in [("hr", "Hrvatski"), ("sr-latn", "Srpski (latinica)"), ("de", "Deutsch")]:
        assert f'<option value="{code}">{name}</option>' in html
    assert '<option value="sv">Svenska</option>' in html
    r = client.post(reverse("set_language"), {"language": "sr-latn", "next": "/"})
    assert r.status_code == 302
    assert r.cookies[settings.LANGUAGE_COOKIE_NAME].value == "sr-latn"
    assert "Preferans turniri" in client.get("/sr-latn/").content.decode()


@pytest.mark.parametrize("language", NEW)
def test_public_event_and_standings_pages_speak_the_language(client, played, language):
    event = played
    html = page(client, language, f"/e/{event.slug}/")
    for word in WORDS[language]["event"]:
        assert word in html, (language, word)
    html = page(client, language, f"/e/{event.slug}/standings/")
    for word in WORDS[language]["standings"]:
        assert word in html, (language, word)
    assert "Standings" not in html and "Total" not in html.replace("Totalt", "")


@pytest.mark.parametrize("language", NEW)
def test_table_entry_and_confirmation_pages_speak_the_language(client, db, language):
    setup = make_table(slug=f"table-{language}")
    html = page(client, language, f"/t/{setup.table.url_key}/")
    for word in WORDS[language]["table"]:
        assert word in html, (language, word)
    assert "Declarer" not in html and "Add the deal" not in html
    # a deal with a finding: the error count in the language's plural
    r = client.post(
        f"/{language}/t/{setup.table.url_key}/",
        {
            "based_on_version": "",
            "action": "add",
            "kind": "raspasy",
            "tricks_0": "4",
            "tricks_1": "3",
            "tricks_2": "2",
        },
    )  # sums to 9
    assert r.status_code == 302
    html = page(client, language, f"/t/{setup.table.url_key}/")
    error = {"hr": "1 pogreška", "sr-latn": "1 greška", "de": "1 Fehler", "sv": "1 fel"}
    assert error[language] in html
    heading = {
        "hr": "Štihovi ne daju ukupno deset",
        "sr-latn": "Štihovi ne daju ukupno deset",
        "de": "Die Stiche ergeben nicht zehn",
        "sv": "Sticken blir inte tio",
    }
    assert heading[language] in html
    html = page(client, language, f"/p/{setup.entries[0].url_key}/protocols/")
    for word in WORDS[language]["confirm"]:
        assert word in html, (language, word)


@pytest.mark.parametrize("language", NEW)
def test_pdfs_render_in_the_language_asked_for(
    played, language, tmp_path, django_capture_on_commit_callbacks
):
    event = played
    with django_capture_on_commit_callbacks(execute=True):
        standings = generated_file_request(event=event, kind="standings", language=language)
        seating = generated_file_request(
            event=event, kind="seating", round_=event.rounds.get(number=1), language=language
        )
    for f, words in [(standings, "pdf"), (seating, "seating")]:
        f.refresh_from_db()
        assert f.status == "ok", f.error
        assert f.language == language
        text = pdf_text(f.file.read(), tmp_path)
        for word in WORDS[language][words]:
            assert word in text, (language, word, text[:300])


@pytest.mark.django_db
def test_the_documents_page_asks_for_a_pdf_in_another_language(client, played):
    """An organiser reading the pages in English prints Croatian sheets for a Croatian table."""
    from tests.factories import UserFactory
    from tournaments.models import EventRole, GeneratedFile

    event = played
    user = UserFactory(username="org-languages")
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    client.force_login(user)
    html = client.get(reverse("documents-manage", args=[event.slug])).content.decode()
    assert '<option value="hr">Hrvatski</option>' in html
    r = client.post(
        reverse("documents-manage", args=[event.slug]),
        {"kind": "standings", "paper": "A4", "language": "hr"},
    )
    assert r.status_code == 302
    assert GeneratedFile.objects.get(event=event, kind="standings").language == "hr"
    r = client.post(
        reverse("documents-manage", args=[event.slug]),
        {"kind": "standings", "paper": "A4", "language": "xx"},
    )
    assert r.status_code == 302
    assert not GeneratedFile.objects.filter(language="xx").exists()
    html = client.get(reverse("documents", args=[event.slug])).content.decode()
    assert "Hrvatski" in html  # the public list says which language each document is in


#: The organiser's dashboard in a :data:`COMPLETE` language (issue 36): its links and the desk's
#: counts in the language's words.
DASHBOARD = {
    "hr": ["Organizatori i suci", "Ograničenja ždrijeba", "Postavke", "Dnevnik zapisnika"],
    "sr-latn": ["Organizatori i sudije", "Ograničenja žreba", "Podešavanja", "Dnevnik zapisnika"],
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["hr", "sr-latn"])
def test_the_organisers_dashboard_speaks_croatian_and_serbian(client, played, language):
    from tests.factories import UserFactory
    from tournaments.models import EventRole

    event = played
    user = UserFactory(username=f"org-{language}")
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    client.force_login(user)
    html = page(client, language, reverse("manage", args=[event.slug]))
    for word in DASHBOARD[language]:
        assert word in html, (language, word)
    assert "6 igrača" in html  # the desk's counts, in the language's plural
    for english in ("Organisers and referees", "Draw constraints", "Needs attention now"):
        assert english not in html, (language, english)


def _entries(language: str) -> list:
    po = catalogue(language).read_text(encoding="utf-8")
    return [m for m in _ENTRY.finditer(po) if _join(m.group("id"))]  # not the header


@pytest.mark.parametrize("language", NEW)
def test_the_catalogue_covers_the_player_facing_strings_and_is_compiled(language, tmp_path):
    """Every string a player or table reads (``locale_build.PLAYER_FACING``) is translated, with
    as many plural forms as the language has, and the committed .mo is the compiled .po
    (``manage.py locale_build`` refreshes both)."""
    po_path = catalogue(language)
    po = po_path.read_text(encoding="utf-8")
    entries = _entries(language)
    facing = [m for m in entries if player_facing(m.group("head"))]
    assert len(facing) > 300
    untranslated = [_join(m.group("id")) for m in facing if not all(_strings(m.group("strs")))]
    assert not untranslated, untranslated[:5]
    assert not [m for m in facing if "#, fuzzy" in m.group("head")]
    plurals = plural_count(po)
    assert plurals == {"hr": 3, "sr-latn": 3, "de": 2, "sv": 2}[language]
    for m in facing:
        if m.group("plural"):
            assert len(_strings(m.group("strs"))) == plurals
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext is missing: the test command installs it (apt gettext)"
    out = tmp_path / "django.mo"
    subprocess.run([msgfmt, "--check-format", "-o", str(out), str(po_path)], check=True)
    assert out.read_bytes() == (po_path.parent / "django.mo").read_bytes()


def test_every_language_is_complete():
    """Issue 36: every language translates the organisers' and referees' pages too."""
    assert {"ru", "hr", "sr-latn", "de", "sv"} <= set(locale_build.COMPLETE)
    assert set(locale_build.COMPLETE) <= {code for code, _name in settings.LANGUAGES} - {"en"}


@pytest.mark.parametrize("language", locale_build.COMPLETE)
def test_a_complete_language_translates_every_string(language):
    """A language of ``locale_build.COMPLETE`` leaves no string in English: the organisers' and
    referees' pages too, with as many plural forms as the language has (``locale_build
    --strict`` fails otherwise); the others cover ``PLAYER_FACING`` (the test above)."""
    entries = _entries(language)
    assert len(entries) > 1000
    untranslated = [_join(m.group("id")) for m in entries if not all(_strings(m.group("strs")))]
    assert not untranslated, untranslated[:5]
    assert not [_join(m.group("id")) for m in entries if "#, fuzzy" in m.group("head")]
    plurals = locale_build.PLURALS.get(language) or plural_count(
        catalogue(language).read_text(encoding="utf-8")
    )
    for m in entries:
        if m.group("plural"):
            assert len(_strings(m.group("strs"))) == plurals, _join(m.group("id"))


def test_fill_asks_a_complete_language_for_its_own_plural_forms():
    """A complete language is filled with the plural forms its header declares (German: two),
    not Russian's three; an organiser's string it lacks is reported."""
    po = (
        '#: templates/tournaments/organiser/round.html:9\nmsgid "Draw"\nmsgstr ""\n\n'
        '#: templates/tournaments/organiser/round.html:29\nmsgid "%(n)s table"\n'
        'msgid_plural "%(n)s tables"\nmsgstr[0] ""\nmsgstr[1] ""\n'
    )
    _text, missing = fill(po, {"Draw": ["Auslosung"]}, plurals=2)
    assert missing == ["%(n)s table"]
    text, missing = fill(
        po, {"Draw": ["Auslosung"], "%(n)s table": ["%(n)s Tisch", "%(n)s Tische"]}, plurals=2
    )
    assert missing == [] and 'msgstr[1] "%(n)s Tische"' in text and "msgstr[2]" not in text


def test_player_facing_scope_is_files_that_exist():
    root = Path(settings.BASE_DIR)
    for scope in locale_build.PLAYER_FACING:
        assert (root / scope).exists(), scope


def test_fill_reports_only_the_missing_player_facing_strings():
    """The scope at work: an untranslated string of a player-facing template is reported (the
    build and the test above fail on it); one of an organiser's page is not."""
    po = (
        '#: templates/tournaments/public/event.html:3\nmsgid "Rounds"\nmsgstr ""\n\n'
        '#: templates/tournaments/organiser/round.html:9\nmsgid "Draw"\nmsgstr ""\n\n'
        '#: templates/pdf/standings.html:4\nmsgid "%(n)s error"\nmsgid_plural "%(n)s errors"\n'
        'msgstr[0] ""\nmsgstr[1] ""\n'
    )
    text, missing = fill(po, {}, plurals=2, required=player_facing)
    assert missing == ["Rounds", "%(n)s error"]
    text, missing = fill(
        po,
        {"Rounds": ["Runden"], "%(n)s error": ["%(n)s Fehler"]},
        plurals=2,
        required=player_facing,
    )
    assert missing == ["%(n)s error"]  # German has two plural forms: one is not enough
    assert 'msgstr "Runden"' in text
    text, missing = fill(
        po,
        {"Rounds": ["Runden"], "%(n)s error": ["%(n)s Fehler", "%(n)s Fehler"]},
        plurals=2,
        required=player_facing,
    )
    assert missing == [] and 'msgstr[1] "%(n)s Fehler"' in text
    _text, missing = fill(po, {})  # Russian: every string is required
    assert missing == ["Rounds", "Draw", "%(n)s error"]


def test_the_catalogues_hold_every_player_facing_string_of_the_code(tmp_path):
    """The committed catalogues are current: ``makemessages`` run afresh on a copy of the code
    finds no player-facing string that the catalogues lack, and no string at all that a
    :data:`COMPLETE` catalogue lacks (a string added to a template without
    ``manage.py locale_build`` fails here)."""
    root = Path(settings.BASE_DIR)
    copy = tmp_path / "src"
    copy.mkdir()
    for name in ("manage.py", "pyproject.toml"):
        shutil.copy(root / name, copy / name)
    ignore = shutil.ignore_patterns("*.mo", "*.po", "__pycache__", "static", "locale_src")
    for name in ("tournaments", "templates", "scoring", "rules"):
        shutil.copytree(root / name, copy / name, ignore=ignore)
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "de",
            "--no-obsolete",
            "-v",
            "0",
        ],
        cwd=copy,
        check=True,
    )
    fresh = (copy / "tournaments" / "locale" / "de" / "LC_MESSAGES" / "django.po").read_text(
        encoding="utf-8"
    )
    every = {
        (_join(m.group("ctx")), _join(m.group("id"))): player_facing(m.group("head"))
        for m in _ENTRY.finditer(fresh)
        if _join(m.group("id"))
    }
    assert len([key for key, facing in every.items() if facing]) > 300
    for language in NEW:
        wanted = {key for key, facing in every.items() if facing or language in COMPLETE}
        have = {
            (_join(m.group("ctx")), _join(m.group("id")))
            for m in _entries(language)
            if all(_strings(m.group("strs")))
        }
        assert not wanted - have, (language, sorted(wanted - have)[:5])


@pytest.mark.django_db
def test_qr_links_open_the_pages_in_the_sheets_language(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    """A Croatian blank protocol's QR code opens the table's entry page in Croatian, and a
    Swedish link slip the player's page in Swedish; English sheets keep the plain links."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PULKA_BASE_URL = "https://pulka.example.org"
    setup = make_table(slug="qr-languages")
    key = setup.table.url_key
    with django_capture_on_commit_callbacks(execute=True):
        blank = generated_file_request(
            event=setup.event, kind="blank", round_=setup.round, language="hr"
        )
        slips = generated_file_request(event=setup.event, kind="links", language="sv")
        english = generated_file_request(event=setup.event, kind="blank", round_=setup.round)
    for f in (blank, slips, english):
        f.refresh_from_db()
        assert f.status == "ok", f.error
    def squeezed(f) -> str:
        # the PDF's text without spaces, and without hyphens: a private key may hold a "-",
        # where the printed link can wrap, and pdftotext drops a hyphen at a line's end
        return "".join(pdf_text(f.file.read(), tmp_path).split()).replace("-", "")

    def link(url: str) -> str:
        return url.replace("-", "")

    text = squeezed(blank)
    assert link(f"https://pulka.example.org/hr/t/{key}/") in text
    assert "Kolo1" in text
    entry_key = setup.entries[0].url_key
    assert link(f"https://pulka.example.org/sv/p/{entry_key}/") in squeezed(slips)
    assert link(f"https://pulka.example.org/t/{key}/") in squeezed(english)
    from django.test import Client

    html = Client().get(f"/hr/t/{key}/").content.decode()
    assert "Nositelj igre" in html
