"""Issue 36, "the new-event form follows the game chosen", in a real browser: choosing a game
switches the form at once (its script, event-form.js, fetches the same page for that game):
the size under the game's name and its default, the table sizes the game allows, only that
game's options and tie-breaks, what the organiser typed kept; in German and Swedish. Each
family's event is then created through the form in its language and its settings page read
back; without scripts, saving shows the chosen game's form instead."""

from __future__ import annotations

import pytest

from rules.variants import FAMILIES
from tests.browser.conftest import login
from tests.factories import UserFactory
from tournaments.forms import convention_options
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FORM = "form[data-game-form]"


def choose(page, variant: str, family: str) -> None:
    """Choose the game and wait until the form shows it."""
    page.select_option(f"{FORM} select[name=variant]", variant)
    page.wait_for_selector(f"{FORM}[data-family={family}]:not([aria-busy])")


def options_of(family: str) -> list[str]:
    """The options of ``family``'s conventions, as the form names them."""
    prefix = convention_options.PREFIX
    return sorted(name[len(prefix) :] for name in convention_options.option_fields(FAMILIES[family]))


def shown(page) -> dict[str, object]:
    """What the form's game parts show."""
    return {
        "label": page.locator("label[for=id_pulka_target]").inner_text().rstrip(":"),
        "size": page.input_value("input[name=pulka_target]"),
        "tables": page.input_value("select[name=table_size_policy]"),
        "options": sorted(
            n[len("option_") :]
            for n in page.eval_on_selector_all(
                f"{FORM} [name^=option_]", "els => els.map(e => e.name)"
            )
        ),
        "tiebreaks": page.eval_on_selector_all(
            "input[name=tiebreaks]", "els => els.map(e => e.value)"
        ),
    }


@pytest.mark.parametrize(
    ("language", "steps"),
    [
        (
            "de",
            [  # (variant, family, the size's label, its default, the table sizes, an option)
                ("croatian", "balkan", "Bula", "30", "3", "refa_limit"),
                ("german", "pot", "Einsatz (Spielmarken)", "10", "3", "cap"),
                ("old", "priffe", "Sits (oder Spiele / Summe in der einfacheren Variante)", "3",
                 "4", "penalty_points"),  # fmt: skip
                ("sochi", "russian", "Pulka-Größe", "20", "mixed", "whist_style"),
            ],
        ),
        (
            "sv",
            [
                ("modern", "priffe", "Sitsar (eller givar / summa i den enklare varianten)", "3",
                 "4", "penalty_points"),  # fmt: skip
                ("viennese", "pot", "Insats (marker)", "10", "mixed", "max_amount"),
                ("serbian", "balkan", "Bula", "30", "3", "refa_limit"),
                ("rostov", "russian", "Pulkans storlek", "20", "mixed", "whist_style"),
            ],
        ),
    ],
)
def test_choosing_a_game_switches_the_form_at_once(desk, live_server, language, steps):
    page = desk
    login(page, live_server, UserFactory(is_staff=True))
    url = f"{live_server.url}/{language}/manage/new-event/"
    page.goto(url)
    page.fill("input[name=name]", "Klubabend")
    page.fill("input[name=venue]", "Café Central")
    page.select_option("select[name=default_draw_method]", "random")
    seen = {"russian": shown(page)}
    assert seen["russian"]["size"] == "20"
    assert seen["russian"]["options"] == options_of("russian")
    for variant, family, label, size, tables, option in steps:
        choose(page, variant, family)
        now = shown(page)
        assert (now["label"], now["size"], now["tables"]) == (label, size, tables), variant
        assert option in now["options"], (variant, now["options"])
        assert now["options"] == options_of(family), variant  # only this game's options
        seen.setdefault(family, now)
        assert now["tiebreaks"] == seen[family]["tiebreaks"] and now["tiebreaks"]
        # what was typed stays, the page was not reloaded, nothing said in English
        assert page.input_value("input[name=name]") == "Klubabend"
        assert page.input_value("input[name=venue]") == "Café Central"
        assert page.input_value("select[name=default_draw_method]") == "random"
        assert page.url == url
        assert page.input_value("input[name=shown_family]") == family
        assert page.locator("html").get_attribute("lang") == language
    assert seen["balkan"]["tiebreaks"] != seen["russian"]["tiebreaks"]


#: each family's event, created through the form in its club's language: (language, variant,
#: family, the size's label on its settings page, its default, the table sizes)
CREATED = [
    ("ru", "sochi", "russian", "Размер пульки", "20", "mixed"),
    ("hr", "croatian", "balkan", "Bula", "30", "3"),
    ("de", "viennese", "pot", "Einsatz (Spielmarken)", "10", "mixed"),
    ("de", "german", "pot", "Einsatz (Spielmarken)", "10", "3"),
    ("sv", "modern", "priffe", "Sitsar (eller givar / summa i den enklare varianten)", "3", "4"),
]


def test_each_familys_event_is_created_through_the_form(desk, live_server):
    page = desk
    login(page, live_server, UserFactory(is_staff=True))
    for language, variant, family, label, size, tables in CREATED:
        slug = f"abend-{variant}"
        page.goto(f"{live_server.url}/{language}/manage/new-event/")
        page.fill("input[name=slug]", slug)
        page.fill("input[name=name]", f"Abend {variant}")
        page.fill("input[name=starts_on]", "2027-01-09")
        page.fill("input[name=ends_on]", "2027-01-09")
        page.fill("input[name=venue]", "Klub")
        choose(page, variant, family)
        tiebreak = page.locator("input[name=tiebreaks]").first
        chosen = tiebreak.get_attribute("value")
        tiebreak.check()
        page.check("input[name=separate_clubs]")
        with page.expect_navigation():
            page.click(f"{FORM} button[type=submit]")
        assert page.url == f"{live_server.url}/{language}/e/{slug}/manage/", page.url
        event = Event.objects.get(slug=slug)
        assert (event.variant, str(event.pulka_target), event.table_size_policy) == (
            variant, size, tables,
        )  # fmt: skip
        assert event.tiebreaks == [chosen] and event.separate_clubs
        page.goto(f"{live_server.url}/{language}/e/{slug}/manage/settings/")
        assert page.input_value("select[name=variant]") == variant
        assert page.locator("label[for=id_pulka_target]").inner_text().rstrip(":") == label
        assert page.input_value("input[name=pulka_target]") == size
        assert page.input_value("select[name=table_size_policy]") == tables
        assert page.locator("html").get_attribute("lang") == language


def test_without_scripts_saving_shows_the_chosen_games_form(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        login(page, live_server, UserFactory(is_staff=True))
        page.goto(f"{live_server.url}/hr/manage/new-event/")
        page.fill("input[name=slug]", "liga")
        page.fill("input[name=name]", "Liga")
        page.fill("input[name=starts_on]", "2027-01-09")
        page.fill("input[name=ends_on]", "2027-01-09")
        page.select_option("select[name=variant]", "croatian")
        assert page.input_value("input[name=pulka_target]") == "20"  # no script: not yet
        with page.expect_navigation():
            page.click(f"{FORM} button[type=submit]")
        assert "Obrazac sada prikazuje postavke odabrane igre" in page.locator("main").inner_text()
        assert page.locator("label[for=id_pulka_target]").inner_text().rstrip(":") == "Bula"
        assert page.input_value("input[name=pulka_target]") == "30"
        assert page.input_value("select[name=table_size_policy]") == "3"
        assert page.input_value("input[name=name]") == "Liga"
        with page.expect_navigation():
            page.click(f"{FORM} button[type=submit]")
        event = Event.objects.get(slug="liga")
        assert (event.variant, event.pulka_target, event.table_size_policy) == ("croatian", 30, "3")
    finally:
        context.close()
