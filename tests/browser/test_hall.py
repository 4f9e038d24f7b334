"""The projector in the hall (issue 29): one page at a time, turning by itself, and following
the round's state without a reload."""

from __future__ import annotations

import random

import pytest

from tests.browser.steps import FITS, screenshots
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Round
from tournaments.services.rounds import round_start
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VISIBLE_PAGES = "[...document.querySelectorAll('.hall-page')].filter(p => !p.hidden).length"


def test_the_hall_screen_pages_and_follows_the_round(browser, live_server):
    event, entries = make_event(players=30, slug="hall-cup")
    rng = random.Random(4)
    play_round(event, entries, 1, rng=rng)
    play_round(event, entries, 2, rng=rng, protocols=False)
    Round.objects.filter(event=event, number=2).update(state=Round.State.PUBLISHED)
    standings_recompute(event_id=event.pk)

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{live_server.url}/e/hall-cup/hall/?seconds=1&poll=1")
        hall = page.locator("#hall")
        assert page.evaluate(VISIBLE_PAGES) == 1
        first = page.locator(".hall-page:not([hidden]) h1").inner_text()
        assert first.startswith("Round 2") and "Published" in first
        shots = screenshots("pulka-hall-")
        page.screenshot(path=str(shots / "hall-seating-1280x720.png"))
        # it turns the page by itself: seating (2 pages of 30 names), then standings (3)
        page.wait_for_function("() => document.getElementById('hall').dataset.page === '2'")
        page.wait_for_function(
            "() => document.querySelector('.hall-page:not([hidden])').dataset.kind === 'standings'"
        )
        assert page.evaluate(VISIBLE_PAGES) == 1
        # the seating fits the screen: no page scrolls sideways
        assert page.evaluate(FITS)
        page.screenshot(path=str(shots / "hall-standings-1280x720.png"))

        # the round starts: the screen follows without a reload, back at the seating
        page.evaluate("window.stillTheSamePage = true")
        version = hall.get_attribute("data-version")
        round_start(round_=Round.objects.get(event=event, number=2))
        page.wait_for_function(f"() => document.getElementById('hall').dataset.version !== {version!r}")
        page.wait_for_function(
            "() => document.querySelector('.hall-page:not([hidden]) h1').innerText.includes('In play')"
        )
        assert page.evaluate("window.stillTheSamePage === true")
        assert page.evaluate(VISIBLE_PAGES) == 1
    finally:
        context.close()


#: the names of the shown page whose rows lie wholly inside the hall and are not cut sideways
SHOWN_NAMES = """() => {
  const hall = document.getElementById('hall').getBoundingClientRect();
  const page = document.querySelector('.hall-page:not([hidden])');
  return [...page.querySelectorAll('table.hall-seating tbody tr')].filter(tr => {
    const r = tr.getBoundingClientRect(), cell = tr.cells[0];
    return r.top >= hall.top - 0.5 && r.bottom <= hall.bottom + 0.5 && r.right <= hall.right + 0.5
      && cell.scrollWidth <= cell.clientWidth + 1;
  }).map(tr => tr.cells[0].innerText.trim());
}"""


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1366, 768), (1920, 1080), (1366, 900)])
def test_the_hall_shows_every_player_at_common_projector_sizes(browser, live_server, size):
    # issue 36: at 1366 × 900 page 1 cut a row and one player never appeared on any page
    event, entries = make_event(players=31, slug=f"hall-{size[0]}x{size[1]}")
    long = ["Aleksandra Konstantinovna Vasilyeva-Rimskaya", "Hans-Christian Oberwinkler-Lang"]
    for entry, name in zip(entries, long, strict=False):
        entry.player.name = name
        entry.player.save()
    play_round(event, entries, 1, rng=random.Random(5), protocols=False)
    Round.objects.filter(event=event, number=1).update(state=Round.State.PUBLISHED)
    players = {s.entry.player.name for s in Round.objects.get(event=event, number=1).seats.all()}
    assert len(players) == 31
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{live_server.url}/e/{event.slug}/hall/?seconds=600&poll=600")
        count = page.locator(".hall-page[data-kind=seating]").count()
        assert count >= 2  # 31 names: the seating takes more than one page
        seen: list[str] = []
        for number in range(1, count + 1):
            page.wait_for_function(f"() => document.getElementById('hall').dataset.page === '{number}'")
            seen += page.evaluate(SHOWN_NAMES)
            page.keyboard.press("ArrowRight")
        assert sorted(seen) == sorted(players), set(players) - set(seen)
        assert page.evaluate(FITS)
        shots = screenshots("pulka-hall-")
        page.screenshot(path=str(shots / f"hall-{size[0]}x{size[1]}.png"))
    finally:
        context.close()


#: the names on the shown series page whose rows lie wholly inside the hall, not cut sideways
SHOWN_SERIES_NAMES = """() => {
  const hall = document.getElementById('hall').getBoundingClientRect();
  const page = document.querySelector('.hall-page:not([hidden])');
  if (page.dataset.kind !== 'series-standings') return [];
  return [...page.querySelectorAll('table.hall-series tbody tr')].filter(tr => {
    const r = tr.getBoundingClientRect(), cell = tr.cells[1];
    return r.top >= hall.top - 0.5 && r.bottom <= hall.bottom + 0.5 && r.right <= hall.right + 0.5
      && cell.scrollWidth <= cell.clientWidth + 1;
  }).map(tr => tr.cells[1].innerText.trim());
}"""


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1366, 768), (1920, 1080), (1366, 900)])
def test_the_hall_shows_every_ranked_person_of_the_series_table(browser, live_server, size):
    """Issue 39: the hall of an evening of a league shows the league's table in its rotation;
    every ranked person appears whole on one of its pages at the common projector sizes."""
    from tournaments.models import Entry, Organisation
    from tournaments.services import series as series_services
    from tournaments.services.persons import person_new

    event, entries = make_event(players=31, slug=f"hall-league-{size[0]}x{size[1]}")
    long = ["Aleksandra Konstantinovna Vasilyeva-Rimskaya", "Hans-Christian Oberwinkler-Lang"]
    for i, entry in enumerate(entries):
        name = long[i] if i < len(long) else f"Igrač Ligaški {i:02d}"
        Entry.objects.filter(pk=entry.pk).update(person=person_new(name=name))
    play_round(event, entries, 1, rng=random.Random(6))
    standings_recompute(event_id=event.pk)
    league = Organisation.objects.create(slug=f"l-{size[0]}x{size[1]}", name="Liga", kind="league")
    series = series_services.series_create(
        organisation=league, slug=f"s-{size[0]}x{size[1]}", name="Liga 2026", family="russian"
    )
    series_services.series_event_add(series=series, event=event)
    series_services.series_update(series=series, published=True)
    snapshot = series_services.series_standings_recompute(series_id=series.pk)
    ranked = {
        Entry.objects.filter(person_id=row["person"]).get().person.name
        for row in snapshot.data["rows"]
        if row["place"] is not None
    }
    assert len(ranked) == 31
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{live_server.url}/e/{event.slug}/hall/?seconds=600&poll=600")
        total = page.locator(".hall-page").count()
        assert page.locator(".hall-page[data-kind=series-standings]").count() >= 3
        seen: list[str] = []
        for number in range(1, total + 1):
            page.wait_for_function(f"() => document.getElementById('hall').dataset.page === '{number}'")
            seen += page.evaluate(SHOWN_SERIES_NAMES)
            page.keyboard.press("ArrowRight")
        assert sorted(seen) == sorted(ranked), ranked - set(seen)
        assert page.evaluate(FITS)
        shots = screenshots("pulka-hall-")
        page.screenshot(path=str(shots / f"hall-series-{size[0]}x{size[1]}.png"))
    finally:
        context.close()
