"""Issue 36, "the new-event form follows the game chosen": the size field's label and default,
the table sizes the game allows and only that family's options; a post that changed the game
is shown again with the new game's settings rather than refused for (or saved with) the old
game's defaults."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tournaments.models import Event, Organisation, OrganisationRole

pytestmark = pytest.mark.django_db


def _value(page: str, name: str) -> str:
    m = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
    return m.group(1) if m else ""


def _selected(page: str, name: str) -> str:
    select = re.search(rf'<select name="{name}".*?</select>', page, re.S).group(0)
    return re.search(r'<option value="([^"]*)" selected', select).group(1)


@pytest.mark.parametrize(
    ("variant", "label", "size", "tables", "option", "foreign"),
    [
        ("sochi", "Pulka size", "20", "mixed", "option_whist_style", "option_refa_limit"),
        ("croatian", "Bula", "30", "3", "option_refa_limit", "option_whist_style"),
        ("viennese", "Stake (chips)", "10", "mixed", "option_max_amount", "option_refa_limit"),
        ("german", "Stake (chips)", "10", "3", "option_cap", "option_whist_style"),
        ("priffe", "Sits", "3", "4", "option_penalty_points", "option_max_amount"),
    ],
)
def test_the_form_starts_from_the_chosen_games_defaults(
    client, variant, label, size, tables, option, foreign
):
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("event-new") + f"?variant={variant}").content.decode()
    assert re.search(rf"<label[^>]*>{re.escape(label)}", page), label
    assert _value(page, "pulka_target") == size
    assert _selected(page, "table_size_policy") == tables
    assert f'name="{option}"' in page and f'name="{foreign}"' not in page


def test_a_changed_game_is_shown_again_with_its_settings_then_saved(client):
    client.force_login(UserFactory(is_staff=True))
    fields = {
        "slug": "wien", "name": "Wien", "starts_on": "2027-03-06", "ends_on": "2027-03-06",
        "venue": "Café", "rounds_planned": 3, "default_draw_method": "no_repeats",
    }  # fmt: skip
    # the form was shown for Sochi (20, mixed); the organiser chose the Viennese game
    r = client.post(
        reverse("event-new"),
        {**fields, "shown_family": "russian", "variant": "viennese", "pulka_target": 20,
         "table_size_policy": "mixed"},  # fmt: skip
    )
    page = r.content.decode()
    assert r.status_code == 200 and not Event.objects.filter(slug="wien").exists()
    assert "the chosen game&#x27;s settings" in page
    assert _value(page, "pulka_target") == "10" and _value(page, "name") == "Wien"
    assert 'name="option_max_amount"' in page and 'name="option_whist_style"' not in page
    r = client.post(
        reverse("event-new"),
        {**fields, "shown_family": "pot", "variant": "viennese", "pulka_target": 10,
         "table_size_policy": "mixed"},  # fmt: skip
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Event.objects.get(slug="wien").pulka_target == 10


def test_the_desk_names_the_game_size_as_the_family_does(client):
    """Issue 36: a Balkan event's desk says "Bula: 30", not "Pulka: 30"."""
    client.force_login(UserFactory(is_staff=True))
    fields = {
        "slug": "liga", "name": "Liga", "starts_on": "2027-03-06", "ends_on": "2027-03-06",
        "venue": "Klub", "rounds_planned": 3, "default_draw_method": "no_repeats",
        "variant": "croatian", "pulka_target": 30, "table_size_policy": "3",
    }  # fmt: skip
    assert client.post(reverse("event-new"), fields).status_code == 302
    page = client.get(reverse("manage", args=["liga"])).content.decode()
    assert "Bula: 30" in page and "Pulka: 30" not in page


def test_tie_breaks_and_keeping_clubs_apart_are_chosen_at_creation(client):
    """Issue 36: the new-event form offers the family's tie-breaks and keeping clubs apart."""
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("event-new") + "?variant=croatian").content.decode()
    assert 'name="tiebreaks"' in page and 'name="separate_clubs"' in page
    offered = re.findall(r'name="tiebreaks" value="([^"]+)"', page)
    assert offered, page
    fields = {
        "slug": "liga", "name": "Liga", "starts_on": "2027-03-06", "ends_on": "2027-03-06",
        "venue": "Klub", "rounds_planned": 3, "default_draw_method": "no_repeats",
        "variant": "croatian", "pulka_target": 30, "table_size_policy": "3",
        "separate_clubs": "on", "tiebreaks": list(reversed(offered[:2])),
    }  # fmt: skip
    r = client.post(reverse("event-new"), fields)
    assert r.status_code == 302, r.content.decode()[:3000]
    event = Event.objects.get(slug="liga")
    assert event.tiebreaks == offered[:2] and event.separate_clubs


class _Posted(HTMLParser):
    """What a browser posts for a page's event form (``data-game-form``) as it stands: each input's value (a
    checkbox's when checked), each select's selected option (else its first), each textarea's
    text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._in_form = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._in_form = "data-game-form" in a
        if not self._in_form or "disabled" in a:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "button"):
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.fields.append((a["name"], a.get("value") or ("on" if "checked" in a else "")))
        elif tag == "select":
            self._select, self._options = a.get("name"), []
        elif tag == "option" and self._select:
            self._options.append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag):
        if tag == "form":
            self._in_form = False
        if tag == "select" and self._select and self._options:
            chosen = [v for v, selected in self._options if selected] or [self._options[0][0]]
            self.fields.append((self._select, chosen[0]))
            self._select = None


def _as_posted(page: str) -> dict[str, object]:
    parser = _Posted()
    parser.feed(page)
    posted: dict[str, object] = {}
    for name, value in parser.fields:
        posted.setdefault(name, []).append(value)  # type: ignore[union-attr]
    return {name: values if len(values) > 1 else values[0] for name, values in posted.items()}


@pytest.mark.parametrize(
    ("variant", "key", "size", "tables"),
    [
        ("sochi", "sochi", 20, "mixed"),
        ("leningrad", "leningrad", 20, "mixed"),
        ("rostov", "rostov", 20, "mixed"),
        ("classic", "classic", 20, "mixed"),
        ("croatian", "croatian", 30, "3"),
        ("serbian", "serbian", 30, "3"),
        ("slovenian", "slovenian", 30, "3"),
        ("viennese", "viennese", 10, "mixed"),
        ("german", "german", 10, "3"),
        ("priffe", "modern", 3, "4"),  # the family's name: its first convention
        ("old", "old", 3, "4"),
    ],
)
def test_each_games_form_is_saved_as_the_form_left_it(client, variant, key, size, tables):
    """Issue 36, "no refusal for a default the form itself left": each game's form, as the
    page gives it (?variant=, what the form's script asks for when the game is chosen), with
    only the event's name and dates typed in, creates the event with the game's defaults."""
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("event-new") + f"?variant={variant}").content.decode()
    posted = {
        **_as_posted(page),
        "slug": f"e-{variant}", "name": variant, "starts_on": "2027-03-06",
        "ends_on": "2027-03-06",
    }  # fmt: skip
    assert posted["shown_family"] and posted["variant"] == key
    r = client.post(reverse("event-new"), posted)
    assert r.status_code == 302, r.content.decode()[:3000]
    event = Event.objects.get(slug=f"e-{variant}")
    assert (event.variant, event.pulka_target, event.table_size_policy) == (key, size, tables)
    assert event.convention_options == {}


def test_the_form_marks_the_games_parts_for_its_script(client):
    """The new-event page loads its script (a file: the Content-Security-Policy forbids inline
    scripts) and marks the parts it swaps; the settings page, where saving switches the game
    (the service resets the old game's settings), does not."""
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(reverse("event-new") + "?variant=croatian").content.decode()
    assert "tournaments/event-form.js" in page
    assert 'data-game-form="/manage/new-event/"' in page and 'data-family="balkan"' in page
    for part in ("pulka_target", "table_size_policy", "default_draw_method", "tiebreaks"):
        assert re.search(rf'id="game-{part}" data-game-part>.*?name="{part}"', page, re.S), part
    assert 'id="game-options" data-game-part' in page
    page = client.get("/hr" + reverse("event-new") + "?variant=croatian").content.decode()
    assert 'data-game-form="/hr/manage/new-event/"' in page
    fields = {
        "slug": "liga", "name": "Liga", "starts_on": "2027-03-06", "ends_on": "2027-03-06",
        "venue": "Klub", "rounds_planned": 3, "default_draw_method": "no_repeats",
        "variant": "croatian", "pulka_target": 30, "table_size_policy": "3",
    }  # fmt: skip
    assert client.post(reverse("event-new"), fields).status_code == 302
    settings = client.get(reverse("manage-settings", args=["liga"])).content.decode()
    assert "event-form.js" not in settings and "data-game-form" not in settings


def test_an_organisations_new_event_form_follows_the_game_too(client):
    """The organisation's new-event page is the same form: ?variant= sets the game, a post
    that changed the game is shown again for it."""
    league = Organisation.objects.create(slug="mpl", name="Međimurska liga", kind="league")
    user = UserFactory()
    OrganisationRole.objects.create(organisation=league, user=user, role="organiser")
    client.force_login(user)
    url = reverse("organisation-event-new", args=[league.slug])
    page = client.get(url + "?variant=priffe").content.decode()
    assert _value(page, "pulka_target") == "3" and _selected(page, "table_size_policy") == "4"
    assert f'data-game-form="{url}"' in page
    fields = {
        "slug": "vecer", "name": "Večer", "starts_on": "2027-03-06", "ends_on": "2027-03-06",
        "rounds_planned": 3, "default_draw_method": "no_repeats",
    }  # fmt: skip
    r = client.post(
        url,
        {**fields, "shown_family": "russian", "variant": "croatian", "pulka_target": 20,
         "table_size_policy": "mixed"},  # fmt: skip
    )
    page = r.content.decode()
    assert r.status_code == 200 and not Event.objects.filter(slug="vecer").exists()
    assert _value(page, "pulka_target") == "30" and _selected(page, "table_size_policy") == "3"
