"""Pages are localised: English by default, Russian under /ru/."""

import pytest

from tests.factories import EventFactory

pytestmark = pytest.mark.django_db


def test_pages_speak_russian(client):
    event = EventFactory()
    page = client.get(f"/ru/e/{event.slug}/")
    assert page.status_code == 200
    assert "Туры" in page.content.decode()


def test_the_russian_catalogue_is_complete_and_compiled(tmp_path):
    """Every string has a Russian translation, and the committed .mo is the compiled .po
    (``manage.py locale_build`` refreshes both)."""
    import shutil
    import subprocess
    from pathlib import Path

    from tournaments.management.commands.locale_build import _ENTRY, _join, _strings

    folder = Path(__file__).resolve().parents[3] / "tournaments" / "locale" / "ru" / "LC_MESSAGES"
    po = (folder / "django.po").read_text(encoding="utf-8")
    entries = [m for m in _ENTRY.finditer(po) if _join(m.group("id"))]  # not the header
    assert len(entries) > 500
    untranslated = [_join(m.group("id")) for m in entries if not all(_strings(m.group("strs")))]
    assert not untranslated, untranslated[:5]
    assert not [m for m in entries if "#, fuzzy" in m.group("head")]
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext is missing: the test command installs it (apt gettext)"
    out = tmp_path / "django.mo"
    subprocess.run(
        [msgfmt, "--check-format", "-o", str(out), str(folder / "django.po")], check=True
    )
    assert out.read_bytes() == (folder / "django.mo").read_bytes()
