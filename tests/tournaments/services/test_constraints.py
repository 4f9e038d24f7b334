"""The organiser's draw constraints (issue 4: "a player who must sit at a given table, players
who must not meet"): set on the constraints page, checked when set, logged, and honoured by
every draw; and checking in everyone registered at once."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, Avoidance, Entry
from tournaments.services.constraints import avoidance_add, avoidance_remove, entry_fix_table
from tournaments.services.entries import entries_check_in_all, entry_withdraw
from tournaments.services.rounds import round_create, round_draw

pytestmark = pytest.mark.django_db


def event_with(players: int, **fields):
    event = EventFactory(**fields)
    return event, [EntryFactory(event=event) for _ in range(players)]


def seated_together(round_, a, b) -> bool:
    return any(
        {a.pk, b.pk} <= set(t.seats.values_list("entry_id", flat=True))
        for t in round_.tables.all()
    )


def test_keeping_apart_is_checked_when_set():
    event, (a, b, *_) = event_with(6)
    with pytest.raises(UserFacingError, match="two different players") as err:
        avoidance_add(event=event, first=a, second=a)
    assert err.value.extra == {"field": "second"}
    avoidance_add(event=event, first=b, second=a, reason="family")
    with pytest.raises(UserFacingError, match="kept apart already"):
        avoidance_add(event=event, first=a, second=b)
    _other, (stranger,) = event_with(1)
    with pytest.raises(UserFacingError, match="not a player of this event"):
        avoidance_add(event=event, first=a, second=stranger)
    pair = Avoidance.objects.get(event=event)
    assert (pair.first, pair.second, pair.reason) == (a, b, "family")  # stored in order
    assert AuditLogEntry.objects.filter(event=event, action="constraint.apart_added").count() == 1


def test_a_fixed_table_and_keeping_apart_cannot_contradict_each_other():
    event, (a, b, c, *_) = event_with(6)
    entry_fix_table(entry=a, table=2)
    entry_fix_table(entry=b, table=2)
    with pytest.raises(UserFacingError, match="must both sit at table 2") as err:
        avoidance_add(event=event, first=a, second=b)
    assert err.value.extra == {"field": "second"}
    avoidance_add(event=event, first=a, second=c)
    with pytest.raises(UserFacingError, match="must sit at table 2 already") as err:
        entry_fix_table(entry=c, table=2)
    assert err.value.extra == {"field": "table"}
    c.refresh_from_db()
    assert c.fixed_table is None  # nothing changed
    with pytest.raises(UserFacingError, match="numbered from 1"):
        entry_fix_table(entry=c, table=0)
    entry_fix_table(entry=c, table=1)
    entry_fix_table(entry=a, table=None)  # freed
    a.refresh_from_db()
    assert a.fixed_table is None
    assert AuditLogEntry.objects.filter(event=event, action="constraint.table_freed").count() == 1


def test_every_draw_honours_the_constraints():
    event, entries = event_with(12, table_size_policy="3", rounds_planned=3)
    a, b, c = entries[:3]
    avoidance_add(event=event, first=a, second=b)
    entry_fix_table(entry=c, table=4)
    for _ in range(3):
        round_ = round_create(event=event)
        round_draw(round_=round_)
        round_.refresh_from_db()
        assert not seated_together(round_, a, b)
        assert round_.tables.get(seats__entry=c).number == 4
        round_.state = "closed"
        round_.save()
    avoidance_remove(avoidance=Avoidance.objects.get(event=event))
    assert not Avoidance.objects.filter(event=event).exists()


def test_check_in_everyone_registered_leaves_the_withdrawn_out():
    event = EventFactory()
    entries = [EntryFactory(event=event, status=Entry.Status.REGISTERED) for _ in range(5)]
    entry_withdraw(entry=entries[0])
    assert entries_check_in_all(event=event) == 4
    statuses = sorted(event.entries.values_list("status", flat=True))
    assert statuses == ["checked_in"] * 4 + ["withdrawn"]
    assert entries_check_in_all(event=event) == 0


def test_the_constraints_page(client):
    event, entries = event_with(9, table_size_policy="3")
    a, b, c = entries[:3]
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-constraints", args=[event.slug])
    page = client.post(
        url, {"action": "apart-add", "first": a.pk, "second": b.pk, "reason": "brothers"}
    )
    assert page.status_code == 302
    page = client.post(url, {"action": "apart-add", "first": a.pk, "second": a.pk}, follow=True)
    assert "Choose two different players to keep apart." in page.content.decode()
    client.post(url, {"action": "fix-table", "entry": c.pk, "table": "3"})
    body = client.get(url).content.decode()
    assert "brothers" in body and a.player.name in body
    c.refresh_from_db()
    assert c.fixed_table == 3
    # the draw report names the constraint with the other player's name
    round_ = round_create(event=event)
    round_draw(round_=round_)
    report = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert f"must not meet {b.player.name}" in report and "must sit at table 3" in report
    # removing the pair, and freeing the table
    pair = Avoidance.objects.get(event=event)
    client.post(url, {"action": "apart-remove", "pair": pair.pk})
    client.post(url, {"action": "fix-table", "entry": c.pk, "table": ""})
    c.refresh_from_db()
    assert not Avoidance.objects.filter(event=event).exists() and c.fixed_table is None
    russian = client.get("/ru" + url).content.decode()
    assert "Ограничения жеребьёвки" in russian


def test_only_the_organiser_sets_constraints(client):
    event, (a, b, *_) = event_with(6)
    from tournaments.models import EventRole

    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role="referee")
    client.force_login(referee)
    url = reverse("manage-constraints", args=[event.slug])
    assert client.get(url).status_code == 200  # a referee sees them
    page = client.post(url, {"action": "apart-add", "first": a.pk, "second": b.pk})
    assert page.status_code == 403
    assert not Avoidance.objects.filter(event=event).exists()


def test_check_in_all_from_the_players_page(client):
    event = EventFactory()
    for _ in range(4):
        EntryFactory(event=event, status=Entry.Status.REGISTERED)
    client.force_login(UserFactory(is_superuser=True))
    page = client.post(
        reverse("manage-entries-check-in-all", args=[event.slug]), follow=True
    ).content.decode()
    assert "4 players checked in." in page
    assert not event.entries.filter(status=Entry.Status.REGISTERED).exists()


def test_a_draw_the_constraints_or_the_count_make_impossible_names_the_players():
    event, entries = event_with(9, table_size_policy="3")
    entry_fix_table(entry=entries[0], table=7)
    round_ = round_create(event=event)
    with pytest.raises(UserFacingError) as err:
        round_draw(round_=round_)
    assert err.value.message == (
        f"{entries[0].player.name} must sit at table 7, but this round has 3 tables."
    )
    assert err.value.extra == {"field": "fixed_table"}
    entry_fix_table(entry=entries[0], table=None)
    for e in entries[:4]:
        entry_fix_table(entry=e, table=1)
    with pytest.raises(UserFacingError, match="must all sit at table 1, which seats 3"):
        round_draw(round_=round_)
    for e in entries[:4]:
        entry_fix_table(entry=e, table=None)
    EntryFactory(event=event)  # ten players cannot sit at tables of three only
    with pytest.raises(UserFacingError, match="Kodeks 1996, 3.2.10") as err:
        round_draw(round_=round_)
    assert err.value.extra == {"field": "table_size_policy", "rule": "3.2.10"}
    round_.refresh_from_db()
    assert round_.state == "draft" and round_.tables.count() == 0  # nothing changed


def test_once_check_in_starts_only_players_checked_in_are_drawn(client):
    event = EventFactory(table_size_policy="3")
    here = [EntryFactory(event=event) for _ in range(9)]  # checked in (the factory's default)
    away = [EntryFactory(event=event, status=Entry.Status.REGISTERED) for _ in range(2)]
    round_ = round_create(event=event)
    round_draw(round_=round_)
    seated = set(Entry.objects.filter(seats__round=round_).values_list("pk", flat=True))
    assert seated == {e.pk for e in here}
    round_.refresh_from_db()
    assert round_.draw_params["input"]["not_checked_in"] == sorted(e.pk for e in away)
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert 'id="not-checked-in"' in page and away[0].player.name in page


def test_before_anyone_is_checked_in_every_registered_player_is_drawn():
    event = EventFactory(table_size_policy="3")
    for _ in range(9):
        EntryFactory(event=event, status=Entry.Status.REGISTERED)
    round_ = round_create(event=event)
    round_draw(round_=round_)
    assert round_.seats.count() == 9


def test_the_round_page_warns_of_a_withdrawn_player_still_seated(client):
    event = EventFactory(table_size_policy="3")
    entries = [EntryFactory(event=event) for _ in range(9)]
    round_ = round_create(event=event)
    round_draw(round_=round_)
    entry_withdraw(entry=entries[4], reason="ill")
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-round", args=[event.slug, 1])
    page = client.get(url).content.decode()
    assert 'id="withdrawn-seated"' in page and entries[4].player.name in page
    EntryFactory(event=event)  # a reserve makes nine again; the draw is made again
    round_draw(round_=round_)
    assert 'id="withdrawn-seated"' not in client.get(url).content.decode()


def test_the_log_says_in_words_who_did_what_to_whom(client):
    from tournaments.services.rounds import seats_swap
    from tournaments.words.audit import SENTENCES, described

    event = EventFactory(table_size_policy="3")
    entries = [EntryFactory(event=event) for _ in range(9)]
    avoidance_add(event=event, first=entries[0], second=entries[1], reason="family")
    round_ = round_create(event=event)
    round_draw(round_=round_)
    seats = list(round_.seats.order_by("table__number", "position"))
    a, b = seats[0].entry, seats[5].entry
    seats_swap(round_=round_, first=a.pk, second=b.pk, reason="wrong seats")
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("manage-log", args=[event.slug])).content.decode()
    apart = f"{entries[0].player.name} and {entries[1].player.name} are kept apart"
    assert apart in page
    assert f"Round 1: {a.player.name} and {b.player.name} swapped seats" in page
    assert "Round 1 drawn (Avoid repeated opponents, 3 tables)" in page
    russian = client.get("/ru" + reverse("manage-log", args=[event.slug])).content.decode()
    assert f"Тур 1: {a.player.name} и {b.player.name} поменялись местами" in russian
    assert described("something.new", {"x": 1}, {}) == "something.new"
    assert described("seat.moved", {"round": 1}, {}) == "seat.moved"  # data of another shape
    actions = set(AuditLogEntry.objects.values_list("action", flat=True))
    assert actions <= set(SENTENCES)  # every action of this path has its sentence


def test_a_draw_with_too_few_checked_in_says_why():
    event = EventFactory(table_size_policy="3")
    EntryFactory(event=event)  # checked in
    for _ in range(8):
        EntryFactory(event=event, status=Entry.Status.REGISTERED)
    with pytest.raises(UserFacingError, match="Only 1 checked in.*8 registered are not"):
        round_draw(round_=round_create(event=event))
