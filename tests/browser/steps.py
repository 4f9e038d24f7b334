"""Steps shared by the families' end-to-end browser tests (Balkan, pot games, Priffe): the
organiser logs in, creates the event in a rule family, sets its game size and options,
registers and checks in the players, draws round 1 and starts it; after play the referee
approves a table's protocol and the filled protocol PDF is made and read back as text."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from tests.browser.conftest import login

#: The page is no wider than the screen (no sideways scrolling on a phone).
FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"


def screenshots(prefix: str, default: Path | None = None) -> Path:
    """The folder for a test's screenshots: ``PULKA_SCREENSHOTS``, else ``default`` if given,
    else a new temporary one."""
    folder = Path(os.environ.get("PULKA_SCREENSHOTS") or default or tempfile.mkdtemp(prefix=prefix))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def login_organiser(page, live_server):
    """A new organiser (superuser and staff), logged in on ``page``; returns the user."""
    from tests.factories import UserFactory

    organiser = UserFactory(is_superuser=True, is_staff=True)
    login(page, live_server, organiser)
    return organiser


def current_protocol(table):
    """The table's current protocol as the table entered it."""
    from tournaments.models import EntryKind, Protocol

    return Protocol.objects.get(table=table, entry_kind=EntryKind.TABLE, is_current=True)


def create_event(
    page,
    base: str,
    *,
    slug: str,
    name: str,
    day: str,
    venue: str,
    variant: str,
    table_size_policy: str,
) -> None:
    """The new-event form, then the settings page choosing the rules (``variant``) and the
    table size; saving shows the family's own options (the caller sets them next)."""
    page.goto(f"{base}/manage/new-event/")
    page.get_by_label("Short name (URL)").fill(slug)
    page.get_by_label("Name:", exact=True).fill(name)
    page.get_by_label("First day").fill(day)
    page.get_by_label("Last day").fill(day)
    page.get_by_label("Venue").fill(venue)
    page.get_by_label("Number of rounds").fill("1")  # one round tonight: a quick draw
    page.get_by_label("Published").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    page.goto(f"{base}/e/{slug}/manage/settings/")
    page.select_option("select[name=variant]", variant)
    page.select_option("select[name=table_size_policy]", table_size_policy)
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()


def start_round_one(page, base: str, *, slug: str, players_csv: str) -> None:
    """Import the players (CSV with a header line), check them all in, draw round 1 with a
    published seed hash, publish the seating and start play."""
    page.goto(f"{base}/e/{slug}/manage/entries/import/")
    page.get_by_label("…or paste the CSV").fill(players_csv)
    with page.expect_navigation():
        page.get_by_role("button", name="Import").click()
    page.goto(f"{base}/e/{slug}/manage/entries/")
    with page.expect_navigation():
        page.get_by_role("button", name="Check in everyone registered").click()
    page.goto(f"{base}/e/{slug}/manage/")
    with page.expect_navigation():
        page.get_by_role("button", name="New round").click()
    page.goto(f"{base}/e/{slug}/manage/rounds/1/")
    with page.expect_navigation():
        page.get_by_role("button", name="Publish the seed's hash").click()
    with page.expect_navigation(timeout=60000):
        page.get_by_role("button", name="Draw", exact=True).click(timeout=60000)
    with page.expect_navigation():
        page.get_by_role("button", name="Publish", exact=True).click()
    with page.expect_navigation():
        page.get_by_role("button", name="Start play").click()


def save_settings(
    page,
    base: str,
    *,
    slug: str,
    game_size: str,
    size_label: str | None = None,
    options: dict[str, str] | None = None,
    screenshot: Path | None = None,
) -> None:
    """The event's settings page: the game size, under the family's own name for it
    (``size_label``, checked visible) or else by its field; the convention options (folded
    while unchanged, so opened first), each a text or number field named by the option without
    the ``option_`` prefix; a screenshot if asked for; then Save."""
    page.goto(f"{base}/e/{slug}/manage/settings/")
    if size_label is None:
        page.fill("input[name=pulka_target]", game_size)
    else:
        size = page.get_by_label(size_label, exact=True)
        assert size.is_visible(), size_label
        size.fill(game_size)
    if options:
        page.locator("details.options summary").click()
        for name, value in options.items():
            page.fill(f"input[name=option_{name}]", value)
    if screenshot is not None:
        page.screenshot(path=str(screenshot), full_page=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()


def approve_protocol(
    page, base: str, *, slug: str, round_number: int = 1, table_number: int,
    confirm_for_the_others: bool = False,
) -> None:  # fmt: skip
    """The referee approves the table's protocol on its referee page, confirming for the
    players who have not confirmed if asked to."""
    page.goto(f"{base}/e/{slug}/manage/rounds/{round_number}/tables/{table_number}/protocol")
    if confirm_for_the_others:
        page.get_by_label("confirm for the players who have not").check()
    with page.expect_navigation():
        page.locator("#approve").click()


def filled_protocol_text(
    page, base: str, *, event, table, language: str, tmp_path: Path, keep: Path | None = None
) -> str:
    """Make the table's filled protocol PDF in ``language`` on the documents page, check the
    job made it, keep a copy at ``keep`` if given and return its text (pdftotext -layout)."""
    from tournaments.models import GeneratedFile

    page.goto(f"{base}/e/{event.slug}/manage/documents/")
    form = page.locator("form", has=page.get_by_role("button", name="Filled protocol", exact=True))
    form.locator("select[name=table]").select_option(str(table.pk))
    form.locator("select[name=language]").select_option(language)
    with page.expect_navigation():
        form.get_by_role("button", name="Filled protocol", exact=True).click()
    f = GeneratedFile.objects.filter(event=event, kind="filled").latest("pk")
    assert f.status == GeneratedFile.Status.OK and f.file
    pdf = tmp_path / "filled.pdf"
    pdf.write_bytes(f.file.open("rb").read())
    if keep is not None:
        keep.write_bytes(pdf.read_bytes())
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
