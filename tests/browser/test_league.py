"""Issue 39's "Done when" in a real browser, in Croatian: an organiser creates the league (a
new organisation) and its series, creates its three evenings under it, imports the players
(the next evenings recognise them: the likely persons are offered and accepted), plays and
approves each evening (the protocols stored as the table's phone would store them, approved on
the referee's page), sees the league table move, and downloads its PDF, whose text has the
league table in Croatian.

Screenshots go to ``PULKA_SCREENSHOTS`` (default: a temporary folder), to look at."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import time

import pytest
from django.utils import translation

from scoring.variants import VARIANTS
from tests.browser.conftest import login
from tests.browser.steps import FITS, screenshots
from tests.factories import UserFactory
from tournaments.models import Entry, Event, Person, Protocol, Series, SeriesStandingsSnapshot
from tournaments.services.protocols import protocol_save

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ana Horvat", "Branko Kovač", "Cvijeta Babić", "Davor Marić", "Ema Jurić", "Filip Novak"]
CSV = "name,club\n" + "\n".join(f"{name},Čakovec" for name in PLAYERS)


def hr(text: str) -> str:
    """What a Croatian reader sees for ``text``."""
    with translation.override("hr"):
        return translation.gettext(text)


def submit(page, form: str) -> None:
    with page.expect_navigation():
        page.locator(f"{form} button[type=submit]").first.click()


def click(page, selector: str) -> None:
    with page.expect_navigation(timeout=60000):
        page.locator(selector).first.click(timeout=60000)


def play_evening(page, base: str, slug: str, rng: random.Random) -> None:
    """Check everyone in, draw round 1, publish and start it (the organiser's pages, in
    Croatian); store each table's protocol as its phone would; the referee approves each on
    his page; the round is closed."""
    event = Event.objects.get(slug=slug)
    page.goto(f"{base}/hr/e/{slug}/manage/entries/")
    click(page, "form[action$='/check-in-all/'] button")
    page.goto(f"{base}/hr/e/{slug}/manage/")
    click(page, "form[action$='/manage/rounds/new/'] button")
    page.goto(f"{base}/hr/e/{slug}/manage/rounds/1/")
    click(page, "form[action$='/commit-seed/'] button")
    click(page, "form[action$='/draw/'] button")
    click(page, "form[action$='/publish/'] button")
    click(page, "form[action$='/start/'] button")
    round_ = event.rounds.get(number=1)
    variant = VARIANTS["balkan"]
    for table in round_.tables.order_by("number"):
        names = tuple(s.entry.player.name for s in table.seats.order_by("position"))
        game = variant.random_protocol(rng, convention=event.variant, target=event.pulka_target)
        while game.first_dealer != table.first_dealer:
            game = variant.random_protocol(rng, convention=event.variant, target=event.pulka_target)
        protocol_save(
            table=table,
            protocol=dataclasses.replace(game, players=names),
            based_on_version=None,
            source=Protocol.Source.TABLE_LINK,
        )
        page.goto(f"{base}/hr/e/{slug}/manage/rounds/1/tables/{table.number}/protocol")
        page.locator("input[name=confirm_missing]").check()
        click(page, "#approve")
    page.goto(f"{base}/hr/e/{slug}/manage/rounds/1/")
    click(page, "form[action$='/close/'] button")
    round_.refresh_from_db()
    assert round_.state == "closed"


def league_table(page, base: str) -> dict[str, tuple[str, str]]:
    """The league table as the public page shows it: name → (events played, total)."""
    page.goto(f"{base}/hr/s/liga-2027/")
    rows = {}
    for row in page.locator("#series-standings tbody tr").all():
        cells = [c.inner_text().strip() for c in row.locator("td").all()]
        name = next(c for c in cells if c in PLAYERS)
        rows[name] = (cells[-1], cells[-2])
    return rows


def test_a_croatian_league_through_the_web_pages(desk, live_server, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    shots = screenshots("pulka-league-")
    base, page = live_server.url, desk
    organiser = UserFactory(is_staff=True)  # may create events, holds no role anywhere
    login(page, live_server, organiser)

    # the league: a new organisation, from the home page
    page.goto(f"{base}/hr/")
    with page.expect_navigation():
        page.get_by_role("link", name=hr("Create a club, league or federation")).click()
    assert hr("New organisation") in page.locator("h1").inner_text()
    page.fill("input[name=slug]", "mpl")
    page.fill("input[name=name]", "Međimurska liga")
    page.select_option("select[name=kind]", "league")
    page.fill("input[name=city]", "Čakovec")
    submit(page, "#organisation-form")
    assert page.url.endswith("/hr/o/mpl/")
    assert hr("Organisers and referees") in page.locator("main").inner_text()

    # its series: the league table's rules
    page.fill("#series-new input[name=slug]", "liga-2027")
    page.fill("#series-new input[name=name]", "Međimurska liga 2027")
    page.fill("#series-new input[name=season]", "2027")
    page.select_option("#series-new select[name=family]", "balkan")
    page.check("#series-new input[name=published]")
    submit(page, "#series-new")
    assert page.url.endswith("/hr/s/liga-2027/manage/")
    series = Series.objects.get(slug="liga-2027")
    assert series.published and series.organisation.slug == "mpl"

    # its evenings, created under the league and added to the series
    for n in (1, 2, 3):
        page.goto(f"{base}/hr/o/mpl/events/new/?variant=croatian")
        page.fill("input[name=slug]", f"vecer-{n}")
        page.fill("input[name=name]", f"Međimurska liga — večer {n}")
        page.fill("input[name=starts_on]", f"2027-01-{n * 7:02d}")
        page.fill("input[name=ends_on]", f"2027-01-{n * 7:02d}")
        page.fill("input[name=venue]", "Čakovec")
        page.fill("input[name=rounds_planned]", "1")
        page.check("input[name=published]")
        submit(page, "main form")
        assert page.url.endswith(f"/hr/e/vecer-{n}/manage/"), page.url
        event = Event.objects.get(slug=f"vecer-{n}")
        assert event.organisation.slug == "mpl" and event.variant == "croatian"
        page.goto(f"{base}/hr/s/liga-2027/manage/")
        page.select_option("select[name=event]", f"vecer-{n}")
        submit(page, "#series-add")
    assert list(series.events.order_by("starts_on").values_list("slug", flat=True)) == [
        "vecer-1",
        "vecer-2",
        "vecer-3",
    ]

    # the first evening: its players imported (new persons), played, approved
    page.goto(f"{base}/hr/e/vecer-1/manage/entries/import/")
    page.fill("textarea[name=text]", CSV)
    submit(page, "form:has(textarea[name=text])")
    first = Entry.objects.filter(event__slug="vecer-1")
    assert first.count() == 6 and not first.filter(person__isnull=True).exists()
    play_evening(page, base, "vecer-1", random.Random(39))
    after_one = league_table(page, base)
    assert set(after_one) == set(PLAYERS)
    assert {played for played, _total in after_one.values()} == {"1"}
    page.screenshot(path=str(shots / "league-after-one.png"), full_page=True)

    # the next evenings: the same players are recognised (name and club): the likely person
    # is offered on the persons page, and the organiser accepts it for each; the table moves
    tables = [after_one]
    for n in (2, 3):
        page.goto(f"{base}/hr/e/vecer-{n}/manage/entries/import/")
        page.fill("textarea[name=text]", CSV)
        submit(page, "form:has(textarea[name=text])")
        page.goto(f"{base}/hr/e/vecer-{n}/manage/persons/")
        assert hr("Persons to choose") in page.locator("h1").inner_text()
        page.screenshot(path=str(shots / f"league-persons-offered-{n}.png"), full_page=True)
        for _ in PLAYERS:
            choice = page.locator("form.person-choice").first
            assert choice.locator("input[type=radio]:checked").get_attribute("value") != "new"
            submit(page, "form.person-choice")
        assert hr("Every player is linked to a person.") in page.locator("main").inner_text()
        persons = dict(
            Entry.objects.filter(event__slug="vecer-1").values_list("player__name", "person")
        )
        again = dict(
            Entry.objects.filter(event__slug=f"vecer-{n}").values_list("player__name", "person")
        )
        assert again == persons and Person.objects.count() == 6
        play_evening(page, base, f"vecer-{n}", random.Random(39 + n))
        tables.append(league_table(page, base))
        assert {played for played, _total in tables[-1].values()} == {str(n)}
        assert tables[-1] != tables[-2]  # the league table moved
    assert hr("Place") in page.locator("#series-standings thead").inner_text()
    assert page.evaluate(FITS)
    page.screenshot(path=str(shots / "league-after-three.png"), full_page=True)
    assert SeriesStandingsSnapshot.objects.get(series=series).data["final"] is True
    assert hr("Final standings") in page.locator("main").inner_text()

    # its PDF, in Croatian: rendered by a job; the link answers until the file is ready
    url = f"{base}/hr/s/liga-2027/standings.pdf"
    for _ in range(60):
        response = page.request.get(url)
        if response.headers.get("content-type") == "application/pdf":
            break
        time.sleep(1)
    assert response.headers.get("content-type") == "application/pdf"
    pdf = tmp_path / "liga.pdf"
    pdf.write_bytes(response.body())
    (shots / "league.pdf").write_bytes(pdf.read_bytes())
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for words in ("Međimurska liga 2027", hr("Final standings"), hr("Total"), *PLAYERS):
        assert words in text, words
    assert hr("Final standings") != "Final standings"
