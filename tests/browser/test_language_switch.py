"""The header's language switcher in a real browser (issue 28, views.language): on a public page
served compressed from the page cache, choosing a language shows the same page in it, with and
without JavaScript (a GET form; its button shows only without JavaScript)."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cup(settings):
    settings.PULKA_PAGE_CACHE = True  # the anonymous viewer's stored, compressed pages
    from django.core.cache import cache

    cache.clear()
    event, entries = make_event(players=9, slug="lang-cup")
    play_round(event, entries, 1, rng=random.Random(28))
    standings_recompute(event_id=event.pk)
    return event


def test_the_switcher_shows_the_same_page_in_the_chosen_language(desk, live_server, cup):
    path = f"/e/{cup.slug}/standings/"
    desk.goto(live_server.url + path)  # stored
    served = desk.goto(live_server.url + path)  # a refresh: the browser revalidates its copy
    headers = served.all_headers()
    assert served.status in (200, 304) and headers["etag"].endswith('-gz"')  # the gzip copy
    assert "accept-encoding" in headers["vary"].lower()
    assert "Игрок 0001" in desk.content()
    assert desk.locator("html").get_attribute("lang") == "en"
    switcher = desk.locator("header form.lang")
    assert not switcher.get_by_role("button").is_visible()  # JavaScript submits on change
    with desk.expect_navigation():
        switcher.locator("select").select_option("ru")
    assert desk.url == f"{live_server.url}/ru{path}"
    assert desk.locator("html").get_attribute("lang") == "ru"
    assert "Игрок 0001" in desk.content() and "Log in" not in desk.content()
    assert desk.locator("header form.lang select").input_value() == "ru"
    # the cookie keeps the choice: the page without a prefix is the default language's
    with desk.expect_navigation():
        desk.locator("header form.lang select").select_option("en")
    assert desk.url == live_server.url + path
    assert desk.locator("html").get_attribute("lang") == "en"


def test_the_switcher_works_without_javascript(browser, live_server, cup):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1280, "height": 900}
    )
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        path = f"/e/{cup.slug}/"
        assert page.goto(live_server.url + path).ok
        switcher = page.locator("header form.lang")
        switcher.locator("select").select_option("de")
        assert page.url == live_server.url + path  # nothing submits the form by itself
        with page.expect_navigation():
            switcher.get_by_role("button", name="Change the language").click()
        assert page.url == f"{live_server.url}/de{path}"
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.locator("header form.lang").get_by_role("button").inner_text() == (
            "Sprache wechseln"
        )
    finally:
        context.close()
