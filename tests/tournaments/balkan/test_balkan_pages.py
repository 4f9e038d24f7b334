"""The organiser's pages of a Balkan event (issue 24 §4): the settings page names the bula and
offers the family's options (seed 002); the standings page offers the family's tie-breaks."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import EventFactory, UserFactory
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db

SETTINGS = {
    "name": "Liga",
    "starts_on": "2027-01-09",
    "ends_on": "2027-01-09",
    "venue": "Klub",
    "variant": "croatian",
    "pulka_target": 50,
    "table_size_policy": "3",
    "rounds_planned": 5,
    "default_draw_method": "no_repeats",
}


def test_settings_page_sets_the_bula_and_the_refa_limit(client):
    event = EventFactory(slug="liga", variant="croatian", pulka_target=30, table_size_policy="3")
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-settings", args=[event.slug])
    page = client.get(url).content.decode()
    assert "Bula" in page and 'name="option_refa_limit"' in page
    assert "Croatian rules" in page and "002" not in page and 'name="option_whist_style"' not in page
    assert "Croatian Preference" in page and "Sochi" in page  # grouped choices, in English
    r = client.post(url, {**SETTINGS, "option_refa_limit": "2", "option_plain_two": ""})
    assert r.status_code == 302, r.content.decode()[:3000]
    event.refresh_from_db()
    assert (event.pulka_target, event.convention_options) == (50, {"refa_limit": 2})
    r = client.post(url, {**SETTINGS, "table_size_policy": "mixed"})
    assert r.status_code == 200 and "(Croatian rules)" in r.content.decode()  # tables of three only
    event.refresh_from_db()
    assert event.table_size_policy == "3"


def test_standings_page_offers_the_balkan_tiebreaks(client):
    event = EventFactory(slug="liga", variant="croatian", pulka_target=30, table_size_policy="3")
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("standings-manage", args=[event.slug])).content.decode()
    assert "Contracts lost" in page and "Defences failed" in page
    assert "Raspasy won" not in page
    assert '<option value="place_points"' in page
    assert '<option value="normalised"' not in page  # every Balkan table seats three


def test_round_pages_cite_the_familys_rules_not_the_kodeks(client):
    """Seed 002 says how the deal rotates, not how seats or the first dealer are drawn: a
    Balkan event's round pages cite no rule there, where a Russian one cites 001 §3.1.1 and
    §3.2.1 (FamilyUI.seating_rule, first_dealer_rule)."""
    from tests.tournaments.balkan.test_balkan_event import balkan_table

    client.force_login(UserFactory(is_superuser=True))
    event, (table,), _ = balkan_table()
    organiser = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    public = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert "Where the players drew their seats and the first deal themselves." in organiser
    for page in (organiser, public):
        assert "first dealer" in page
        # "001 §", not "001": a select's option value (an entry's id) may hold "001"
        assert "Kodeks" not in page and "001 §" not in page and "Kodeks 1996" not in page and "3.2.1" not in page
    russian = EventFactory(slug="kup", variant="sochi")
    round_ = Round.objects.create(event=russian, number=1, state=Round.State.IN_PLAY)
    Table.objects.create(round=round_, number=1, first_dealer=0)
    page = client.get(reverse("manage-round", args=[russian.slug, 1])).content.decode()
    assert "(Kodeks 1996, 3.1.1, Kodeks 1996, 3.2.1)" in page
    assert "first dealer (Kodeks 1996, 3.2.1)" in page


def test_seats_as_drawn_errors_cite_no_russian_rule_in_a_balkan_event():
    from tests.tournaments.balkan.test_balkan_event import balkan_table
    from tournaments.errors import UserFacingError
    from tournaments.services.rounds import table_seat_as_drawn

    event, (table,), _ = balkan_table()
    round_ = table.round
    seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    with pytest.raises(UserFacingError) as err:
        table_seat_as_drawn(
            round_=round_, table=1, order=[seats[0]] * 3, first_dealer=seats[0], reason="x"
        )
    assert "001" not in err.value.message and err.value.extra == {"field": "order", "rule": ""}
    with pytest.raises(UserFacingError) as err:
        table_seat_as_drawn(round_=round_, table=1, order=seats, first_dealer=-1, reason="x")
    assert err.value.message.endswith("table 1.") and err.value.extra["rule"] == ""


def test_standings_settings_say_the_familys_criterion_and_round_scores(client):
    """The organiser's standings page of a Balkan event: the criterion is the final
    calculation's points (002 "Scoring", FamilyUI.criterion_text), the round scores are in
    points; a Russian event's still says whists (001 §4.1.3)."""
    event = EventFactory(slug="liga", variant="croatian", pulka_target=30, table_size_policy="3")
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("standings-manage", args=[event.slug])).content.decode()
    assert "the sum of the final calculation&#x27;s points" in page
    assert "sum of whists" not in page and "Kodeks 1996, 4.1.3" not in page
    assert "Points (the final calculation)" in page and "Capped points" in page
    m = re.search(r">[^<]*whists", page, re.I)
    assert not m, page[m.start() - 300 : m.end() + 100]
    russian = EventFactory(slug="kup", variant="sochi")
    page = client.get(reverse("standings-manage", args=[russian.slug])).content.decode()
    assert "sum of whists" in page and "Kodeks 1996, 4.1.3" in page and "Capped whists" in page


@pytest.mark.parametrize("language, word", [("en", "The game (partija)"), ("hr", "Partija")])
def test_the_phone_page_names_the_game_in_the_familys_word(client, language, word):
    """Seed 002 has no pulka: the ending select and the table's accessible name say partija."""
    from django.utils import translation

    from scoring.balkan.protocol import Hand
    from tests.tournaments.balkan.test_balkan_event import balkan_table
    from tournaments.services.protocols import protocol_save, table_header

    event, (table,), _ = balkan_table()
    game = table_header(table).with_deals((Hand(2, 3, tricks=(2, 2, 6)),))
    protocol_save(table=table, protocol=game, based_on_version=None)
    with translation.override(language):
        url = reverse("protocol-table", args=[table.url_key])
    page = client.get(url).content.decode()
    assert f'<label>{word} <select name="ending">' in page
    assert f'aria-label="{word}"' in page
    main = page[page.index("<main") :]  # the product's name, Pulka, heads every page
    main = re.sub(r"<style.*?</style>", "", main, flags=re.S)  # and names CSS classes
    assert not re.search(r">[^<]*pulk", main, re.I) and "Pulka (partija)" not in page


def test_the_referee_desk_gives_examples_in_the_balkan_notation(client):
    """The examples on the referee's desk are Balkan notation the desk reads, checked clean."""
    import html

    from scoring.variants import VARIANTS
    from tests.tournaments.balkan.test_balkan_event import balkan_table

    event, (table,), referee = balkan_table()
    client.force_login(referee)
    page = html.unescape(
        client.get(reverse("protocol-referee", args=[event.slug, 1, 1])).content.decode()
    )
    assert "ровно" not in page and "распасы" not in page and "pulya, gora" not in page
    deals = re.search(r'<label for="notation">([^<]*)</label>', page).group(1)
    sheet = re.search(r"“(sheet 1:[^”]*)”", page).group(1)
    lines = re.findall(r"“([^”]*)”", deals)
    assert len(lines) == 4
    text = "bula: 30\nigrači: Ana, Branko, Cvijeta\nkraj: traje\n" + "\n".join(lines)
    protocol, written = VARIANTS["balkan"].parse_text(f"{text}\n{sheet}\n")
    assert len(protocol.deals) == 4 and written is not None
    assert VARIANTS["balkan"].check(protocol, written).findings == ()


def test_switching_a_russian_event_to_croatian_rules_resets_the_russian_settings(client):
    """A pulka to 20 is no bula, Russian options and the raspasy tie-break mean nothing in
    seed 002, a mixed table policy seats fours: switching the family resets each one the
    organiser did not set in the same change to the Balkan default, and logs what it reset."""
    from tournaments.models import AuditLogEntry

    event = EventFactory(
        slug="liga", variant="sochi", pulka_target=20, table_size_policy="mixed",
        convention_options={"raspasy_progression": "geometric"},
        tiebreaks=["raspasy_won", "head_to_head"],
    )  # fmt: skip
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-settings", args=[event.slug])
    posted = {**SETTINGS, "pulka_target": 20, "table_size_policy": "mixed"}  # as the form was
    r = client.post(url, posted)
    assert r.status_code == 302, r.content.decode()[:3000]
    event.refresh_from_db()
    assert (event.variant, event.pulka_target, event.table_size_policy) == ("croatian", 30, "3")
    assert event.convention_options == {} and event.tiebreaks == ["head_to_head"]
    log = AuditLogEntry.objects.get(event=event, action="event.family_changed")
    assert log.data == {
        "from": "sochi",
        "to": "croatian",
        "reset": {
            "convention_options": {"raspasy_progression": "geometric"},
            "pulka_target": [20, 30],
            "tiebreaks": [["raspasy_won", "head_to_head"], ["head_to_head"]],
            "table_size_policy": ["mixed", "3"],
        },
    }
    page = client.get(url).content.decode()
    assert 'name="pulka_target" value="30"' in page


def test_a_size_set_with_the_switch_is_kept_and_a_played_event_cannot_switch():
    from tests.tournaments.balkan.test_balkan_event import balkan_table
    from tournaments.errors import UserFacingError
    from tournaments.services.events import event_update
    from tournaments.services.protocols import protocol_save, table_header

    russian = EventFactory(slug="kup", variant="sochi", pulka_target=20)
    event_update(event=russian, variant="croatian", pulka_target=50)
    russian.refresh_from_db()
    assert (russian.variant, russian.pulka_target) == ("croatian", 50)
    event_update(event=russian, variant="leningrad")  # back: the Russian default size
    russian.refresh_from_db()
    assert (russian.variant, russian.pulka_target) == ("leningrad", 10)
    event, (table,), _ = balkan_table()
    protocol_save(table=table, protocol=table_header(table), based_on_version=None)
    with pytest.raises(UserFacingError, match="protocols are written in") as err:
        event_update(event=event, variant="sochi")
    assert err.value.extra == {"field": "variant"}
    event.refresh_from_db()
    assert event.variant == "croatian"
    event_update(event=event, variant="serbian")  # a convention of the same family: allowed
    event.refresh_from_db()
    assert (event.variant, event.pulka_target) == ("serbian", 30)


@pytest.mark.parametrize("language, size", [("en", "Bula: 30"), ("hr", "Bula: 30")])
def test_the_public_event_page_names_the_bula(client, language, size):
    event = EventFactory(slug="liga", variant="croatian", pulka_target=30, table_size_policy="3")
    prefix = "" if language == "en" else f"/{language}"  # English has no prefix
    page = client.get(f"{prefix}/e/{event.slug}/").content.decode()
    assert size in page and "Pulka" not in page[page.index("<main") :]


def test_settings_and_ruling_forms_offer_no_russian_rule_in_a_balkan_event(client):
    """Seed 002 has no random-draw note, no adjusted result (001 §3.8.5.1 Б) and none of the
    Kodeks catalogue's parameters: a Balkan event's settings and incident pages offer none of
    them (FamilyUI.random_draw_citation, adjusted_result_rule, ruling_params_template), where a
    Russian event's do."""
    from tests.tournaments.balkan.test_balkan_event import balkan_table

    client.force_login(UserFactory(is_superuser=True))
    event, (table,), _ = balkan_table()
    settings = client.get(reverse("manage-settings", args=[event.slug])).content.decode()
    assert ">Random draw</option>" in settings and "Kodeks" not in settings
    assert "pulka length" not in settings and "the game size above" in settings
    from django.utils import timezone

    from tournaments.models import Incident

    Incident.objects.create(
        event=event, table=table, occurred_at=timezone.now(), description="looked at the talon"
    )
    incidents = reverse("protocol-incidents", args=[event.slug, 1, table.number])
    page = client.get(incidents).content.decode()
    assert 'name="kind"' in page  # the ruling form is there, without the Russian rulings
    assert 'value="adjusted"' not in page and "3.8.5.1" not in page
    assert 'name="p_gora"' not in page and "3.2.17" not in page
    russian = EventFactory(slug="kup", variant="sochi")
    round_ = Round.objects.create(event=russian, number=1, state=Round.State.IN_PLAY)
    kup_table = Table.objects.create(round=round_, number=1, first_dealer=0)
    Incident.objects.create(
        event=russian, table=kup_table, occurred_at=timezone.now(), description="talon"
    )
    settings = client.get(reverse("manage-settings", args=[russian.slug])).content.decode()
    assert ">Random draw (Kodeks 1996, note 8)</option>" in settings
    page = client.get(reverse("protocol-incidents", args=[russian.slug, 1, 1])).content.decode()
    assert "adjusted result (3.8.5.1 Б)" in page and 'name="p_gora"' in page
