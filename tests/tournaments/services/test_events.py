import datetime as dt

import pytest

from tests.factories import UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, EventRole
from tournaments.services.events import event_create, event_update

pytestmark = pytest.mark.django_db


def test_event_create_validates_the_variant_against_rules_and_makes_the_creator_organiser():
    user = UserFactory()
    event = event_create(
        slug="cup",
        name="Cup",
        starts_on=dt.date(2026, 12, 5),
        by=user,
        variant="Питер",
        convention_options={"whist_style": "greedy"},
    )
    assert event.variant == "leningrad"  # the alias is stored as the convention's key
    assert event.ends_on == event.starts_on
    assert EventRole.objects.get(event=event, user=user).role == "organiser"
    assert AuditLogEntry.objects.filter(event=event, action="event.created").exists()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"variant": "bridge"}, "variant", "“bridge” is not a convention Pulka knows"),
        # the option by its label, the bad value quoted (issue 36: not the option's key)
        ({"convention_options": {"whist_style": "polite"}}, "convention_options", "“polite”"),
        ({"convention_options": {"no_such_option": 1}}, "convention_options", "no_such_option"),
    ],
)
def test_event_create_rejects_a_bad_variant_naming_the_field(fields, field, words):
    with pytest.raises(UserFacingError) as info:
        event_create(slug="cup", name="Cup", starts_on=dt.date(2026, 12, 5), **fields)
    assert info.value.extra["field"] == field
    assert words in info.value.message


def test_event_dates_and_duplicate_slug_are_refused():
    event_create(slug="cup", name="Cup", starts_on=dt.date(2026, 12, 5))
    with pytest.raises(UserFacingError) as info:
        event_create(slug="cup", name="Cup 2", starts_on=dt.date(2026, 12, 5))
    assert info.value.extra["field"] == "slug"
    with pytest.raises(UserFacingError) as info:
        event_create(
            slug="cup2", name="Cup 2", starts_on=dt.date(2026, 12, 5), ends_on=dt.date(2026, 12, 4)
        )
    assert info.value.extra["field"] == "ends_on"


def test_event_update_keeps_the_old_settings_when_the_new_ones_are_bad():
    event = event_create(slug="cup", name="Cup", starts_on=dt.date(2026, 12, 5))
    with pytest.raises(UserFacingError):
        event_update(event=event, variant="rostov", convention_options={"raspasy_price": 999})
    event.refresh_from_db()
    assert (event.variant, event.convention_options) == ("sochi", {})
    event_update(event=event, variant="rostov", convention_options={"raspasy_price": 5})
    event.refresh_from_db()
    assert (event.variant, event.convention_options) == ("rostov", {"raspasy_price": 5})


def test_the_tie_break_chain_is_checked_against_the_standings_metrics():
    event = event_create(
        slug="cup", name="Cup", starts_on=dt.date(2026, 12, 5), tiebreaks=["raspasy_won", "remizes"]
    )
    assert event.tiebreaks == ["raspasy_won", "remizes"]
    with pytest.raises(UserFacingError) as info:
        event_update(event=event, tiebreaks=["fewest_remizes"])
    assert info.value.extra["field"] == "tiebreaks"
    assert "fewest_remizes" in info.value.message
    event.refresh_from_db()
    assert event.tiebreaks == ["raspasy_won", "remizes"]
