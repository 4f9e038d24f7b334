"""Events of any rule family (issue 24 §1, §4): the convention names the family, the family
decides the table sizes, the game size's name and the tie-breaks offered."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from scoring.russian.stats import STAT_KEYS
from scoring.variants import VARIANTS
from tests.factories import EventFactory
from tournaments.errors import UserFacingError
from tournaments.forms.convention_options import family_for, game_size_label, option_fields
from tournaments.services.events import event_create, event_table_policy, event_update
from tournaments.standings.metrics import TIEBREAK_KEYS, tiebreak_keys_for

DAY = dt.date(2027, 3, 6)


def test_the_russian_tiebreaks_are_those_its_counters_allow():
    assert tiebreak_keys_for(STAT_KEYS) == TIEBREAK_KEYS


def test_balkan_tiebreaks_drop_raspasy_and_misere_and_add_its_own():
    keys = tiebreak_keys_for(VARIANTS["balkan"].stat_keys)
    assert not {"raspasy_won", "raspasy_tricks", "remizes", "misere_tricks"} & set(keys)
    assert {"games_lost", "defences_failed", "games_made", "penalties", "head_to_head"} <= set(keys)


@pytest.mark.django_db
def test_a_croatian_event_is_created_at_tables_of_three_with_a_bula():
    event = event_create(slug="liga", name="Liga", starts_on=DAY, variant="hrvatski")
    assert event.variant == "croatian"
    assert event.table_size_policy == "3"
    assert event.pulka_target in (30, 50, 60, 100)  # a bula, not a Russian pulka's 20
    with translation.override("hr"):
        assert event.convention_name == "Hrvatski preferans"
    assert event_table_policy(event) == "3"


@pytest.mark.django_db
def test_a_balkan_event_refuses_tables_of_four_and_russian_tiebreaks():
    with pytest.raises(UserFacingError) as info:
        event_create(
            slug="liga", name="Liga", starts_on=DAY, variant="serbian", table_size_policy="mixed"
        )
    assert info.value.extra["field"] == "table_size_policy"
    assert "(Croatian rules)" in info.value.message
    with pytest.raises(UserFacingError) as info:
        event_create(
            slug="liga", name="Liga", starts_on=DAY, variant="serbian", tiebreaks=["remizes"]
        )
    assert info.value.extra["field"] == "tiebreaks"
    with pytest.raises(UserFacingError) as info:
        event_create(
            slug="liga",
            name="Liga",
            starts_on=DAY,
            variant="slovenian",
            convention_options={"end_cap": "maybe"},
        )
    assert info.value.extra["field"] == "convention_options"


@pytest.mark.django_db
def test_changing_a_russian_event_to_balkan_rules_seats_threes():
    event = EventFactory(variant="sochi", table_size_policy="mixed4")
    event = event_update(event=event, variant="croatian", convention_options={"refa_limit": 2})
    assert event.table_size_policy == "3"
    assert event.convention_options == {"refa_limit": 2}


def test_the_form_offers_the_chosen_familys_options_and_names_its_game_size():
    balkan = family_for("croatian")
    fields = option_fields(balkan)
    assert "option_refa_limit" in fields and "option_whist_style" not in fields
    assert "(Croatian rules, “Kontra”)" in str(fields["option_plain_two"].label)
    assert str(game_size_label(balkan)) == "Bula"
    assert str(game_size_label(family_for("sochi"))) == "Pulka size"


def test_the_balkan_form_offers_the_issue_37_options_with_their_source():
    # seed 002 "Kontra" (a two "without 'game' and without refa") and "Refa"
    fields = option_fields(family_for("serbian"))
    refa_two = fields["option_plain_two_refa"]
    assert "(Croatian rules, “Kontra”)" in str(refa_two.label) and "refa" in str(refa_two.label)
    assert "002" not in str(refa_two.label)
    assert "(Croatian rules, “Refa”)" in str(fields["option_refas"].label)
    assert [value for value, _ in refa_two.choices] == ["", "excluded", "included"]
    assert [value for value, _ in fields["option_refas"].choices] == ["", "true", "false"]
    # 001 §4.2.14: the settlement's two methods with §4.2.12's rounding, and exact
    rounding = option_fields(family_for("sochi"))["option_rounding"]
    assert [value for value, _ in rounding.choices] == ["", "kodeks", "average", "exact"]
    assert "Variant 2" in dict(rounding.choices)["average"]


@pytest.mark.django_db
def test_a_balkan_event_takes_the_issue_37_options_and_refuses_their_contradictions():
    event = EventFactory(variant="serbian", table_size_policy="3")
    event = event_update(event=event, convention_options={"plain_two_refa": "included",
                                                          "refas": True})
    assert event.convention_options == {"plain_two_refa": "included", "refas": True}
    croatian = EventFactory(variant="croatian", table_size_policy="3")
    with pytest.raises(UserFacingError) as info:  # the Croatian text states the exception
        event_update(event=croatian, convention_options={"plain_two_refa": "included"})
    assert info.value.extra["field"] == "convention_options"
    with pytest.raises(UserFacingError):
        event_update(event=croatian, convention_options={"refas": False, "refa_limit": 2})
