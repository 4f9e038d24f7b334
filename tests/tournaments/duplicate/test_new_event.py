"""A duplicate event from the organiser's new-event form (issue 43): the option, the comparison,
the boards in a set and the seed whose SHA-256 is published at once; a game not played at
three is refused beside its field, nothing created; the form is in the reader's language."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.duplicate.boards import seed_sha256
from tests.factories import UserFactory
from tournaments.models import AuditLogEntry, DuplicateEvent, Event

pytestmark = pytest.mark.django_db

FIELDS = {
    "slug": "dup-night", "name": "Duplicate night", "starts_on": "2027-03-06",
    "ends_on": "2027-03-06", "venue": "Club", "rounds_planned": 3,
    "default_draw_method": "no_repeats", "variant": "sochi", "shown_family": "russian",
    "pulka_target": 20, "table_size_policy": "mixed",
}  # fmt: skip


def test_the_new_event_form_makes_a_duplicate_event(client) -> None:
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("event-new")).content.decode()
    for name in ("duplicate", "duplicate_method", "duplicate_boards_per_set", "duplicate_seed"):
        assert f'name="{name}"' in page, name
    answer = client.post(
        reverse("event-new"),
        {**FIELDS, "duplicate": "on", "duplicate_method": "average",
         "duplicate_boards_per_set": "2", "duplicate_seed": "first frost"},  # fmt: skip
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    event = Event.objects.get(slug="dup-night")
    dup = DuplicateEvent.objects.get(event=event)
    assert (dup.method, dup.boards_per_set, dup.stanzas) == ("average", 2, None)
    assert dup.seed_hash == seed_sha256("first frost") and dup.seed == ""  # the seed kept secret
    assert event.table_size_policy == "3"  # duplicate boards are dealt for threes
    assert AuditLogEntry.objects.filter(event=event, action="duplicate.commit_seed").exists()
    # the boards are dealt later from the same seed, on the event's duplicate page
    manage = client.get(reverse("duplicate-manage", args=[event.slug])).content.decode()
    assert seed_sha256("first frost") in manage


def test_an_ordinary_event_stays_ordinary(client) -> None:
    client.force_login(UserFactory(is_staff=True))
    answer = client.post(reverse("event-new"), {**FIELDS, "duplicate_seed": "ignored"})
    assert answer.status_code == 302
    event = Event.objects.get(slug="dup-night")
    assert not DuplicateEvent.objects.filter(event=event).exists()
    assert event.table_size_policy == "mixed"


def test_bad_duplicate_input_is_refused_beside_its_field(client) -> None:
    client.force_login(UserFactory(is_staff=True))
    answer = client.post(
        reverse("event-new"), {**FIELDS, "duplicate": "on", "duplicate_boards_per_set": "11"}
    )
    assert answer.status_code == 200 and not Event.objects.filter(slug="dup-night").exists()
    page = answer.content.decode()
    assert "less than or equal to 10" in page and 'aria-invalid="true"' in page.split(
        'name="duplicate_boards_per_set"', 1)[1][:300]
    # Priffe is played at fours: no duplicate (docs/duplicate.md, "Fours")
    answer = client.post(
        reverse("event-new"),
        {**FIELDS, "variant": "priffe", "shown_family": "priffe", "pulka_target": 3,
         "table_size_policy": "4", "duplicate": "on"},  # fmt: skip
    )
    assert answer.status_code == 200 and not Event.objects.filter(slug="dup-night").exists()
    assert 'role="alert"' in answer.content.decode() or "field-invalid" in answer.content.decode()


def test_the_duplicate_fields_are_in_the_readers_language(client) -> None:
    client.force_login(UserFactory(is_staff=True))
    from django.utils import translation

    for language, words in (("ru", "Дубликатный турнир"), ("hr", "Sjeme bordova"),
                            ("sr-latn", "Seme bordova"), ("de", "Startwert der Boards"),
                            ("sv", "Brickornas frö")):
        with translation.override(language):
            url = reverse("event-new")
        page = client.get(url).content.decode()
        assert words in page, language
        assert "Seed of the boards" not in page, language


def test_an_organisations_new_event_form_makes_a_duplicate_event_too(client) -> None:
    from tournaments.models import Organisation, OrganisationRole

    user = UserFactory()
    organisation = Organisation.objects.create(slug="club", name="Club")
    OrganisationRole.objects.create(organisation=organisation, user=user, role="organiser")
    client.force_login(user)
    url = reverse("organisation-event-new", args=["club"])
    answer = client.post(url, {**FIELDS, "duplicate": "on", "duplicate_seed": "thaw"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    event = Event.objects.get(slug="dup-night")
    assert event.organisation == organisation
    assert DuplicateEvent.objects.get(event=event).seed_hash == seed_sha256("thaw")
    answer = client.post(url, {**FIELDS, "slug": "plain"})
    assert answer.status_code == 302 and not DuplicateEvent.objects.filter(event__slug="plain").exists()
