"""Rounds: lifecycle, the verifiable draw through the engine, corrections (issue 4)."""

from collections import Counter
from itertools import combinations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, Avoidance, Entry, Round, Seat
from tournaments.services.entries import entries_import_csv, entry_register, entry_withdraw
from tournaments.services.round_states import seed_hash
from tournaments.services.rounds import (
    draw_in_background,
    round_close,
    round_commit_seed,
    round_create,
    round_draw,
    round_publish,
    round_start,
    seat_move,
    seats_swap,
    table_redraw,
    table_seat_as_drawn,
)

pytestmark = pytest.mark.django_db


def make_event(n: int, **fields):
    event = EventFactory(**fields)
    for _ in range(n):
        EntryFactory(event=event)
    return event


def play_round(event, **draw):
    r = round_create(event=event)
    round_draw(round_=r, **draw)
    round_publish(round_=r)
    round_start(round_=r)
    round_close(round_=r, unfinished_reason="no protocols in this test")
    return r


def tables_of(round_: Round) -> list[list[int]]:
    return [
        [s.entry_id for s in t.seats.order_by("position")] for t in round_.tables.order_by("number")
    ]


def meetings(event) -> Counter:
    pairs: Counter = Counter()
    for r in event.rounds.exclude(state="draft"):
        for table in tables_of(r):
            pairs.update(frozenset(p) for p in combinations(table, 2))
    return pairs


def test_lifecycle_draft_drawn_published_in_play_closed_and_no_skipping():
    event = make_event(9)
    r = round_create(event=event)
    assert (r.number, r.state) == (1, "draft")
    with pytest.raises(UserFacingError) as info:
        round_publish(round_=r)
    assert info.value.extra["field"] == "state"
    with pytest.raises(UserFacingError):
        round_create(event=event)  # round 1 is still a draft
    round_draw(round_=r)
    r.refresh_from_db()
    assert r.state == "drawn" and r.tables.count() == 3
    round_publish(round_=r)
    with pytest.raises(UserFacingError):
        round_draw(round_=r)  # a published round is corrected, not drawn again
    round_start(round_=r)
    round_close(round_=r, unfinished_reason="no protocols in this test")
    assert round_create(event=event).number == 2
    actions = list(AuditLogEntry.objects.filter(event=event).values_list("action", flat=True))
    for action in ("round.drawn", "round.published", "round.started", "round.closed"):
        assert action in actions


def test_sixty_players_from_csv_six_rounds_without_a_repeated_meeting():
    event = EventFactory(table_size_policy="mixed")
    csv = "name,club\n" + "\n".join(f"P{i:02d},C{i % 5}" for i in range(60))
    entries_import_csv(event=event, text=csv)
    for _ in range(6):
        r = play_round(event)
        assert sorted(len(t) for t in tables_of(r)) == [3] * 20
    assert max(meetings(event).values()) == 1


def test_counts_that_need_mixed_tables_get_tables_of_three_and_four():
    event = make_event(61, table_size_policy="mixed")
    r = round_create(event=event)
    round_draw(round_=r)
    sizes = Counter(len(t) for t in tables_of(r))
    assert sizes[3] * 3 + sizes[4] * 4 == 61 and sizes[4] >= 1
    seated = [e for t in tables_of(r) for e in t]
    assert len(seated) == len(set(seated)) == 61


def test_too_few_players_is_a_clear_error():
    event = make_event(2)
    with pytest.raises(UserFacingError) as info:
        round_draw(round_=round_create(event=event))
    assert "three" in info.value.message


def test_late_entry_and_withdrawal_between_rounds():
    event = make_event(12)
    play_round(event)
    quitter = Entry.objects.filter(event=event).first()
    entry_withdraw(entry=quitter, reason="train")
    late = [entry_register(event=event, name=f"Late {i}") for i in range(1)]
    assert late[0].joined_round == 2
    r2 = round_create(event=event)
    round_draw(round_=r2)
    seated = {e for t in tables_of(r2) for e in t}
    assert quitter.pk not in seated
    assert late[0].pk in seated
    assert len(seated) == 12


def test_players_who_must_not_meet_and_clubs_kept_apart():
    event = make_event(12, separate_clubs=True)
    entries = list(Entry.objects.filter(event=event).select_related("player"))
    for i, e in enumerate(entries):  # four clubs of three
        e.player.club = f"Club {i % 4}"
        e.player.save()
    Avoidance.objects.create(event=event, first=entries[0], second=entries[5], reason="family")
    r = round_create(event=event)
    round_draw(round_=r)
    club = {e.pk: e.player.club for e in entries}
    for table in tables_of(r):
        assert len({club[e] for e in table}) == len(table), f"club mates together at {table}"
        assert not {entries[0].pk, entries[5].pk} <= set(table)


def test_a_player_who_must_sit_at_a_given_table():
    event = make_event(15)
    fixed = Entry.objects.filter(event=event).last()
    fixed.fixed_table = 4
    fixed.save()
    for _ in range(3):
        r = play_round(event)
        assert fixed.pk in tables_of(r)[3]


def test_the_draw_is_recorded_and_reproducible_from_its_seed(capsys):
    event = make_event(21)
    play_round(event)
    r = round_create(event=event)
    round_commit_seed(round_=r)
    r.refresh_from_db()
    committed = r.draw_seed_hash
    assert committed == seed_hash(r.draw_seed)
    round_draw(round_=r)
    r.refresh_from_db()
    assert r.draw_seed_hash == committed  # the hash published before the draw
    assert r.draw_params["input"]["history"]  # round 1 is part of the input
    call_command("draw_verify", event.slug, "2")
    out = capsys.readouterr().out
    assert "same 7 tables" in out
    assert "engine version" not in out  # drawn and re-run by the same version
    # the same seed on the same input gives the same tables; another seed (almost surely) not
    before = tables_of(r)
    round_draw(round_=r, seed=r.draw_seed)
    assert tables_of(r) == before
    # a tampered record fails verification
    params = r.draw_params
    params["tables"][0]["seats"] = list(reversed(params["tables"][0]["seats"]))
    Round.objects.filter(pk=r.pk).update(draw_params=params)
    with pytest.raises(CommandError):
        call_command("draw_verify", event.slug, "2")
    # a draw recorded by another engine version: the command says so
    params["engine"] = "pulka-seating 1.0"
    Round.objects.filter(pk=r.pk).update(draw_params=params)
    with pytest.raises(CommandError):
        call_command("draw_verify", event.slug, "2")
    assert "drawn by pulka-seating 1.0, re-run by pulka-seating" in capsys.readouterr().out


def test_draw_report_explains_each_players_table():
    event = make_event(9)
    play_round(event)
    r = round_create(event=event)
    round_draw(round_=r)
    r.refresh_from_db()
    report = r.draw_report
    assert {p["id"] for p in report["players"]} == set(
        Entry.objects.filter(event=event).values_list("pk", flat=True)
    )
    assert "summary" in report


def test_swap_two_players_is_atomic_and_logged():
    user = UserFactory()
    event = make_event(9)
    r = round_create(event=event)
    round_draw(round_=r)
    t = tables_of(r)
    a, b = t[0][0], t[1][1]
    with pytest.raises(UserFacingError) as info:
        seats_swap(round_=r, first=a, second=b, reason=" ")
    assert info.value.extra["field"] == "reason"
    seats_swap(round_=r, first=a, second=b, reason="asked to swap", by=user)
    after = tables_of(r)
    assert after[0][0] == b and after[1][1] == a
    log = AuditLogEntry.objects.get(event=event, action="seats.swapped")
    assert (log.reason, log.user) == ("asked to swap", user)


def test_move_keeps_tables_of_three_or_four():
    event = make_event(13)  # 3 + 3 + 3 + 4
    r = round_create(event=event)
    round_draw(round_=r)
    t = tables_of(r)
    four = next(i for i, table in enumerate(t) if len(table) == 4)
    three = next(i for i, table in enumerate(t) if len(table) == 3)
    other_three = next(i for i, table in enumerate(t) if len(table) == 3 and i != three)
    with pytest.raises(UserFacingError) as info:
        seat_move(round_=r, entry=t[three][0], table=other_three + 1, reason="x")
    assert info.value.extra["rule"] == "3.2.10"
    seat_move(round_=r, entry=t[four][2], table=three + 1, reason="accessibility")
    after = tables_of(r)
    assert len(after[four]) == 3 and len(after[three]) == 4
    assert t[four][2] == after[three][3]
    assert sorted(
        s.position for s in Seat.objects.filter(table__round=r, table__number=four + 1)
    ) == [0, 1, 2]


def test_redraw_one_table_touches_only_that_table():
    event = make_event(12)
    r = round_create(event=event)
    round_draw(round_=r)
    before = tables_of(r)
    table_redraw(round_=r, table=2, reason="seats were mixed up")
    after = tables_of(r)
    assert sorted(after[1]) == sorted(before[1])
    assert after[0] == before[0] and after[2:] == before[2:]
    assert AuditLogEntry.objects.filter(event=event, action="table.redrawn").count() == 1


def test_seats_as_drawn_at_the_table_are_recorded_with_the_first_dealer():
    """001 §3.1.1 (тираж: seats by the cards drawn), §3.2.1 (the first deal by lot)."""
    event = make_event(9, table_size_policy="3")
    r = round_create(event=event)
    round_draw(round_=r)
    before = tables_of(r)
    a, b, c = before[1]
    table_seat_as_drawn(round_=r, table=2, order=[c, a, b], first_dealer=a, reason="тираж")
    assert tables_of(r)[1] == [c, a, b] and tables_of(r)[0] == before[0]
    assert r.tables.get(number=2).first_dealer == 1  # a sits at seat 2 (index 1)
    log = AuditLogEntry.objects.get(event=event, action="table.seated_as_drawn")
    assert log.reason == "тираж" and log.data["before"]["seats"] == [a, b, c]
    stranger = before[0][0]
    with pytest.raises(UserFacingError, match="3.1.1") as err:
        table_seat_as_drawn(round_=r, table=2, order=[c, a, stranger], first_dealer=a, reason="x")
    assert err.value.extra == {"field": "order", "rule": "3.1.1"}
    with pytest.raises(UserFacingError, match="3.1.1"):
        table_seat_as_drawn(round_=r, table=2, order=[c, a, a], first_dealer=a, reason="x")
    with pytest.raises(UserFacingError, match="3.2.1"):
        table_seat_as_drawn(round_=r, table=2, order=[c, a, b], first_dealer=stranger, reason="x")
    with pytest.raises(UserFacingError, match="reason"):
        table_seat_as_drawn(round_=r, table=2, order=[a, b, c], first_dealer=a, reason=" ")
    assert tables_of(r)[1] == [c, a, b]  # the refused corrections changed nothing


def test_seats_as_drawn_from_the_round_page(client):
    event = make_event(9, table_size_policy="3")
    r = round_create(event=event)
    round_draw(round_=r)
    a, b, c = tables_of(r)[0]
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("manage-round-action", args=[event.slug, 1, "as-drawn"])
    data = {"table": 1, "seat_1": b, "seat_2": c, "seat_3": a, "seat_4": "", "first_dealer": c}
    page = client.post(url, {**data, "reason": "тираж"}, follow=True)
    assert "Correction saved." in page.content.decode()
    assert tables_of(r)[0] == [b, c, a] and r.tables.get(number=1).first_dealer == 1
    page = client.post(url, {**data, "seat_3": b, "reason": "again"})
    assert "Seat each player of table 1 once" in page.content.decode()


def test_corrections_are_refused_in_a_closed_round():
    event = make_event(9)
    r = play_round(event)
    t = tables_of(r)
    with pytest.raises(UserFacingError):
        seats_swap(round_=r, first=t[0][0], second=t[1][0], reason="late")


def test_draws_near_the_round_bound_or_for_large_events_run_in_the_background():
    """Near the bound the engine may try several starts and CP-SAT: seconds, not ms."""
    assert not draw_in_background(make_event(30, rounds_planned=9))  # bound 14
    assert draw_in_background(make_event(30, rounds_planned=11))
    assert draw_in_background(make_event(40, rounds_planned=10, table_size_policy="4"))  # 13
    assert draw_in_background(make_event(91, rounds_planned=6))
    event = make_event(17, rounds_planned=4)  # bound 8: inline …
    assert not draw_in_background(event)
    for entry in list(event.entries.all())[:3]:
        entry_withdraw(entry=entry)
    assert draw_in_background(event)  # … 14 present: bound 6


def test_a_planned_event_re_runs_from_its_seeds_in_a_fresh_engine(capsys):
    """14 players over 4 rounds (3-3-4-4), every round its own seed: no repeat at all. Round 1
    comes from the schedule of its seed, rounds 2-4 from the plan made after round 1; both
    re-run the same without the engine's in-process plan cache (deterministic budgets)."""
    from tournaments.seating import engine

    event = make_event(14, rounds_planned=4)
    for k in range(4):
        play_round(event, seed=f"Kazan {k + 1}")
    assert max(meetings(event).values()) == 1
    assert "schedule planned for 4" in " ".join(event.rounds.get(number=1).draw_report["notes"])
    assert "plan made after round 1" in " ".join(event.rounds.get(number=4).draw_report["notes"])
    for number in ("1", "4"):
        engine._PLANS.clear()
        call_command("draw_verify", event.slug, number)
        assert "same 4 tables" in capsys.readouterr().out


def test_a_started_round_shows_when_play_ends(client):
    """The event's time limit per round, counted from the start of play."""
    import datetime as dt

    from django.utils import timezone

    event = make_event(9, table_size_policy="3", round_time_limit=150)
    r = round_create(event=event)
    round_draw(round_=r)
    round_publish(round_=r)
    round_start(round_=r)
    r.refresh_from_db()
    assert r.ends_at == r.started_at + dt.timedelta(minutes=150)
    ends = timezone.localtime(r.ends_at).strftime("%H:%M")
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert f"ends at {ends}" in page and "time limit 150 min" in page
    event.round_time_limit = None
    event.save()
    r.refresh_from_db()
    assert r.ends_at is None


def test_a_seed_other_than_the_one_whose_hash_was_published_is_refused():
    """Commit and reveal (issue 4): once the seed's hash is public, a draw with another seed
    could not be checked against it, so it is refused and nothing changes."""
    from tournaments.services.round_states import seed_hash
    from tournaments.services.rounds import round_commit_seed, round_create, round_draw

    event = EventFactory(table_size_policy="3")
    for _ in range(9):
        EntryFactory(event=event)
    round_ = round_commit_seed(round_=round_create(event=event))
    with pytest.raises(UserFacingError, match="hash of another seed") as refused:
        round_draw(round_=round_, seed="chosen after the hash was out")
    assert refused.value.extra == {"field": "seed"}
    round_.refresh_from_db()
    assert round_.state == "draft" and round_.tables.count() == 0
    drawn = round_draw(round_=round_, seed=round_.draw_seed)  # the committed seed itself is fine
    assert drawn.state == "drawn" and seed_hash(drawn.draw_seed) == drawn.draw_seed_hash
