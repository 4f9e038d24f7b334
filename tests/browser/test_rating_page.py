"""Issue 41 in a real browser: a person's rating page on a phone shows the history plot drawn
on the server (an SVG, no script) and, first, the explanation of the last change, with the
numbers the stored change holds; the page fits the phone's width."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from tests.tournaments.ratings.factories import make_event, make_persons, play_event
from tournaments.models import RatingList
from tournaments.selectors.ratings import stored_changes
from tournaments.services import ratings as service
from tournaments.words.ratings import signed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_persons_page_shows_the_plot_and_the_last_change_explained(phone, live_server):
    persons = make_persons(10)
    rng = random.Random(12)
    for n in range(2):
        event, entries = make_event(
            persons, slug=f"vecer-{n}", day=dt.date(2026, 9, 1) + dt.timedelta(days=7 * n)
        )
        play_event(entries, event, rounds=3, rng=rng)
    service.ratings_schedule_for_event(event_id=event.pk)
    rating = RatingList.objects.get(slug="balkan")
    service.ratings_recompute(list_id=rating.pk)
    person = persons[3]
    last = [c for c in stored_changes(rating_list=rating) if c.person == person.pk][-1]
    page = phone
    page.goto(f"{live_server.url}/ratings/balkan/people/{person.pk}/")
    plot = page.locator("#rating-plot svg")
    assert plot.is_visible()
    assert plot.get_attribute("role") == "img"
    assert plot.locator("polyline").count() == 1
    box = plot.bounding_box()
    assert box["width"] > 250 and box["height"] > 80  # the figure fills the phone's width
    first = page.locator("#rating-changes li .rating-change").first.inner_text()
    assert first.startswith(signed(last.shown_after - last.shown_before) + " — round 3, table ")
    assert f"table {last.table}:" in first
    assert page.locator("#rating-changes li").count() == 6
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner
    assert plot.locator("script").count() == 0  # drawn on the server
