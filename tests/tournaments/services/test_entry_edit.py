"""Editing a player and undoing a check-in, each logged (issue 29); forms that speak the
user's language beside the field, never a constraint's name."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, Entry, EventRole
from tournaments.services.entries import entry_check_in_undo, entry_update
from tournaments.words import audit as audit_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return EventFactory(name="Club Night")


@pytest.fixture
def organiser(client, event):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    client.force_login(user)
    return user


def test_a_players_details_are_corrected_and_the_log_keeps_old_and_new(event):
    entry = EntryFactory(event=event, player=PlayerFactory(name="Ana Petrova", club="Ferz"))
    by = UserFactory()
    entry_update(
        entry=entry, name="Anna Petrova", club="Ferz", rating=1700, federation_id="RU-7", by=by
    )
    entry.player.refresh_from_db()
    assert (entry.player.name, entry.player.rating, entry.player.federation_id) == (
        "Anna Petrova",
        1700,
        "RU-7",
    )
    logged = AuditLogEntry.objects.get(event=event, action="entry.updated")
    assert logged.user == by
    assert logged.data["changes"] == {
        "name": ["Ana Petrova", "Anna Petrova"],
        "rating": [None, 1700],
        "federation_id": ["", "RU-7"],
    }
    assert audit_text.described(logged.action, logged.data, {entry.pk: "Anna Petrova"}) == (
        "Anna Petrova: details changed (name: Ana Petrova → Anna Petrova; rating: — → 1700; "
        "federation id: — → RU-7)"
    )
    # nothing changed: nothing logged
    entry_update(entry=entry, name="Anna Petrova", club="Ferz", rating=1700, federation_id="RU-7")
    assert AuditLogEntry.objects.filter(action="entry.updated").count() == 1


def test_an_edit_refuses_a_federation_id_of_another_player_and_a_namesake(event):
    EntryFactory(event=event, player=PlayerFactory(name="Boris", federation_id="RU-1"))
    entry = EntryFactory(event=event, player=PlayerFactory(name="Vera"))
    with pytest.raises(UserFacingError) as refused:
        entry_update(entry=entry, name="Vera", federation_id="RU-1")
    assert refused.value.message == "The federation id RU-1 is Boris's already."
    assert refused.value.extra["field"] == "federation_id"
    with pytest.raises(UserFacingError) as refused:
        entry_update(entry=entry, name="boris")
    assert refused.value.extra["field"] == "name"
    with pytest.raises(UserFacingError):
        entry_update(entry=entry, name="  ")
    entry.player.refresh_from_db()
    assert (
        entry.player.name == "Vera"
        and not AuditLogEntry.objects.filter(action="entry.updated").exists()
    )


def test_the_edit_page_saves_and_shows_errors_beside_the_field(client, organiser, event):
    EntryFactory(event=event, player=PlayerFactory(name="Boris", federation_id="RU-1"))
    entry = EntryFactory(event=event, player=PlayerFactory(name="Vera", club="Mizer"))
    url = reverse("manage-entry-edit", args=[event.slug, entry.pk])
    page = client.get(url).content.decode()
    assert 'value="Vera"' in page and 'value="Mizer"' in page
    assert '<div class="field-label"><label for="id_name">' in page  # label above its input
    page = client.post(url, {"name": "Vera", "federation_id": "RU-1"}).content.decode()
    error = page[page.index('id="id_federation_id"') :].split("</div>")[0]
    assert "The federation id RU-1 is Boris&#x27;s already." in error  # beside the field
    assert "federation_id_unique" not in page
    page = client.post(url, {"name": "Vera Ilyina", "club": "Mizer", "rating": "1650"}, follow=True)
    body = page.content.decode()
    assert "Vera Ilyina&#x27;s details are saved." in body and "Vera Ilyina" in body
    assert AuditLogEntry.objects.filter(action="entry.updated").count() == 1
    # the players' page links to the edit
    assert url in client.get(reverse("manage-entries", args=[event.slug])).content.decode()


def test_a_check_in_is_undone_and_logged(client, organiser, event):
    entry = EntryFactory(event=event, player=PlayerFactory(name="Gleb"))
    assert entry.status == Entry.Status.CHECKED_IN
    url = reverse("manage-entry-action", args=[event.slug, entry.pk, "undo-check-in"])
    page = client.post(url, follow=True).content.decode()
    assert "Gleb&#x27;s check-in is undone" in page
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED
    logged = AuditLogEntry.objects.get(action="entry.check_in_undone", user=organiser)
    assert audit_text.described(logged.action, logged.data, {entry.pk: "Gleb"}) == (
        "Gleb: check-in undone"
    )
    with pytest.raises(UserFacingError, match="Gleb is not checked in."):
        entry_check_in_undo(entry=entry)
    page = client.get(reverse("manage-entries", args=[event.slug])).content.decode()
    assert "Undo check-in" not in page and "Check in" in page


def test_entry_actions_say_what_they_did_with_the_players_name(client, organiser, event):
    entry = EntryFactory(event=event, player=PlayerFactory(name="Dasha"))
    url = reverse("manage-entry-action", args=[event.slug, entry.pk, "withdraw"])
    page = client.post(url, follow=True).content.decode()
    assert "Dasha has withdrawn: not drawn again." in page and "Done." not in page
    EntryFactory(event=event, status=Entry.Status.REGISTERED)
    page = client.post(
        reverse("manage-entries-check-in-all", args=[event.slug]), follow=True
    ).content.decode()
    assert "1 player checked in." in page
    page = client.post(
        reverse("manage-entries-check-in-all", args=[event.slug]), follow=True
    ).content.decode()
    assert "Nobody was waiting to be checked in." in page and "0 players" not in page


def test_the_event_form_says_the_last_day_cannot_be_before_the_first(client, organiser, event):
    fields = {
        "name": "Club Night",
        "starts_on": "2027-03-07",
        "ends_on": "2027-03-06",
        "venue": "",
        "variant": "sochi",
        "pulka_target": 20,
        "table_size_policy": "threes",
        "rounds_planned": 3,
        "default_draw_method": "no_repeats",
    }
    page = client.post(reverse("manage-settings", args=[event.slug]), fields).content.decode()
    assert "event_ends_after_it_starts" not in page and "Constraint" not in page
    beside = page[page.index('id="id_ends_on"') :].split("</div>")[0]
    assert "The last day cannot be before the first." in beside
    assert 'class="field field-invalid"' in page
    # the input names its error for screen readers (aria-describedby), and the error is there
    described = re.search(r'<input[^>]*id="id_ends_on"[^>]*>', page).group(0)
    assert 'aria-describedby="id_ends_on_error"' in described and 'aria-invalid="true"' in described
    assert 'id="id_ends_on_error"' in beside
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    page = client.post(reverse("event-new"), {**fields, "slug": "new-one"}).content.decode()
    assert "The last day cannot be before the first." in page
    assert "event_ends_after_it_starts" not in page


def test_the_round_page_lists_each_draw_method_once(client, organiser, event):
    from tournaments.services.rounds import round_create

    for _ in range(6):
        EntryFactory(event=event)
    round_create(event=event)
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    select = page[page.index('name="method"') :].split("</select>")[0]
    labels = [line for line in select.split("<option")[1:]]
    assert len(labels) == 4
    assert select.count("Avoid repeated opponents") == 1


def test_a_services_refusal_is_shown_beside_the_field_it_is_about(client, organiser, event):
    EntryFactory(event=event, player=PlayerFactory(name="Oleg"))
    page = client.post(reverse("manage-entries", args=[event.slug]), {"name": "oleg"})
    body = page.content.decode()
    beside = body[body.index('id="id_name"') :].split("</div>")[0]
    assert "oleg is already entered" in beside
    assert 'class="messages"' not in body  # said once, where it belongs
