"""The organiser's desk (issue 29): what needs attention now, per round, with links there."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.models import (
    Appeal,
    Entry,
    EntryKind,
    EventRole,
    GeneratedFile,
    Incident,
    Job,
    Protocol,
    ProtocolConfirmation,
    Round,
    Ruling,
    Seat,
    Table,
)
from tournaments.selectors.desk import EntryCounts, desk_for_event, table_states
from tournaments.words import desk as desk_text

pytestmark = pytest.mark.django_db


def seat_round(event, number: int, tables: int, state=Round.State.IN_PLAY) -> Round:
    """A round of ``tables`` tables of three, each seat a new entry named T<table>-<seat>."""
    round_ = Round.objects.create(event=event, number=number, state=state)
    for n in range(1, tables + 1):
        table = Table.objects.create(round=round_, number=n)
        for position in range(3):
            entry = EntryFactory(
                event=event, player=PlayerFactory(name=f"R{number}T{n}-{position + 1}")
            )
            Seat.objects.create(round=round_, table=table, position=position, entry=entry)
    return round_


def record(table: Table, *, errors=0, confirmed=0, approved=False, kind=EntryKind.TABLE):
    """A current version of the table's record with ``confirmed`` seats confirmed."""
    seats = list(table.seats.order_by("position"))
    protocol = Protocol.objects.create(
        table=table,
        entry_kind=kind,
        version=1,
        data={},
        result=[{"seat": s.position, "entry": s.entry_id, "whists": "0"} for s in seats],
        error_count=errors,
        approved=approved,
        is_current=True,
    )
    for seat in seats[:confirmed]:
        ProtocolConfirmation.objects.create(protocol=protocol, seat=seat.position, entry=seat.entry)
    return protocol


@pytest.fixture
def event():
    return EventFactory(name="Club Night")


@pytest.fixture
def round_in_play(event):
    """Table 1 no protocol, 2 errors, 3 one confirmation of three, 4 all confirmed (waiting
    for approval), 5 approved."""
    round_ = seat_round(event, 1, 5)
    t = {t.number: t for t in round_.tables.all()}
    record(t[2], errors=2)
    record(t[3], confirmed=1)
    record(t[4], confirmed=3)
    record(t[5], confirmed=3, approved=True)
    return round_


@pytest.fixture
def organiser(client, event):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    client.force_login(user)
    return user


def test_each_tables_record_has_its_state(event, round_in_play, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        states = table_states(rounds=event.rounds.all())
    assert [(t.number, t.state) for t in states[1]] == [
        (1, "missing"),
        (2, "errors"),
        (3, "unconfirmed"),
        (4, "waiting"),
        (5, "approved"),
    ]
    assert states[1][1].errors == 2 and states[1][2].confirmed == 1
    assert states[1][0].players == ("R1T1-1", "R1T1-2", "R1T1-3")


def test_double_entry_waits_for_the_referees_second_entry():
    event = EventFactory(double_entry=True)
    round_ = seat_round(event, 1, 2)
    t1, t2 = round_.tables.order_by("number")
    record(t1, confirmed=3)
    record(t2, confirmed=3)
    record(t2, kind=EntryKind.REFEREE)
    states = table_states(rounds=event.rounds.all())[1]
    assert [t.state for t in states] == ["second", "waiting"]


def test_the_desk_lists_what_needs_attention_with_links(client, organiser, event, round_in_play):
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    desk = page[page.index('id="desk"') :]
    assert "1 table without a protocol" in desk
    assert "1 protocol with errors" in desk and "2 errors" in desk
    assert "1 protocol not confirmed by every player" in desk and "1 of 3 confirmed" in desk
    assert "1 protocol waiting for approval" in desk
    assert "1 of 5 tables approved" in desk
    for number in (1, 2, 3, 4):
        assert reverse("protocol-referee", args=[event.slug, 1, number]) in desk
    # the approved table needs nothing: no link to it on the desk
    assert reverse("protocol-referee", args=[event.slug, 1, 5]) not in desk
    assert "Table 1 (R1T1-1, R1T1-2, R1T1-3)" in desk


def test_counts_read_plainly(client, organiser, event):
    for _i in range(12):
        EntryFactory(event=event, status=Entry.Status.CHECKED_IN)
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    assert "12 players, 12 checked in" in page
    assert "Registered:" not in page
    EntryFactory(event=event, status=Entry.Status.REGISTERED)
    EntryFactory(event=event, status=Entry.Status.WITHDRAWN)
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    assert "13 players, 12 checked in, 1 withdrawn" in page
    page = client.get(reverse("manage-entries", args=[event.slug])).content.decode()
    assert '<p id="entry-counts">13 players, 12 checked in, 1 withdrawn</p>' in page


@pytest.mark.parametrize(
    ("n", "english", "russian"),
    [
        (1, "1 player, 1 checked in", "1 игрок, 1 отмечен"),
        (3, "3 players, 3 checked in", "3 игрока, 3 отмечены"),
        (12, "12 players, 12 checked in", "12 игроков, 12 отмечены"),
        (21, "21 players, 21 checked in", "21 игрок, 21 отмечен"),
    ],
)
def test_counts_have_each_languages_plurals(n, english, russian):
    counts = EntryCounts(n, n, 0)
    assert desk_text.entry_counts_text(counts) == english
    with translation.override("ru"):
        assert desk_text.entry_counts_text(counts) == russian
        assert desk_text.state_text("missing", 5) == "5 столов без протокола"


def test_a_quiet_event_says_nothing_waits(client, organiser, event):
    round_ = seat_round(event, 1, 1)
    record(round_.tables.get(), confirmed=3, approved=True)
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    assert 'id="desk-quiet"' in page


def test_a_closed_round_with_open_tables_stays_on_the_desk(client, organiser, event):
    round_ = seat_round(event, 1, 2, state=Round.State.CLOSED)
    record(round_.tables.get(number=1), confirmed=3, approved=True)
    closed_ok = seat_round(event, 2, 1, state=Round.State.CLOSED)
    record(closed_ok.tables.get(), confirmed=3, approved=True)
    desk = desk_for_event(event=event)
    assert [d.round.number for d in desk.rounds] == [1]
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    assert 'id="desk-round-1"' in page and 'id="desk-round-2"' not in page
    assert "no result for it in the standings" in page


def test_incidents_appeals_and_jobs_are_on_the_desk(client, organiser, event, round_in_play):
    table = round_in_play.tables.get(number=2)
    now = timezone.now()
    Incident.objects.create(
        event=event, table=table, occurred_at=now, description="Looked at the talon"
    )
    decided = Incident.objects.create(
        event=event, table=table, occurred_at=now, description="Decided"
    )
    ruling = Ruling.objects.create(incident=decided, kind=Ruling.Kind.NONE, reason="no penalty")
    Appeal.objects.create(ruling=ruling, grounds="unfair", filed_by_entry=table.seats.first().entry)
    Job.objects.create(
        task="tournaments.standings_recompute", event=event, state="failed", error="Boom\ntrace"
    )
    Job.objects.create(
        task="tournaments.round_draw", event=event, args=[round_in_play.pk], state="running"
    )
    GeneratedFile.objects.create(
        event=event, kind="seating", round=round_in_play, status="failed", error="no fonts"
    )
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    incidents = page[page.index('id="desk-incidents"') :]
    assert "1 incident without a ruling" in incidents and "Looked at the talon" in incidents
    assert "Decided" not in incidents.split("</section>")[0]
    assert reverse("protocol-incidents", args=[event.slug, 1, 2]) in incidents
    appeals = page[page.index('id="desk-appeals"') :]
    assert "1 appeal to decide" in appeals and "appeal by R1T2-1" in appeals
    jobs = page[page.index('id="desk-jobs"') :].split("</section>")[0]
    assert "The standings&#x27; recomputation failed: Boom" in jobs and "trace" not in jobs
    assert "The draw of round 1 is running" in jobs
    assert "The document Seating list failed: no fonts" in jobs
    assert reverse("standings-manage", args=[event.slug]) in jobs
    assert reverse("documents-manage", args=[event.slug]) in jobs
    # a failure done again since is no longer news
    Job.objects.create(task="tournaments.standings_recompute", event=event, state="done")
    Job.objects.create(
        task="tournaments.round_draw",
        event=event,
        args=[round_in_play.pk, None, "swiss", None],
        state="done",
    )
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    assert "recomputation failed" not in page and "The draw of round 1" not in page


def test_a_referee_sees_the_desk_a_stranger_does_not(client, event, round_in_play):
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    client.force_login(referee)
    assert client.get(reverse("manage", args=[event.slug])).status_code == 200
    client.force_login(UserFactory())
    assert client.get(reverse("manage", args=[event.slug])).status_code == 403


def test_the_desk_reads_in_few_queries_whatever_the_number_of_tables(
    client, organiser, event, django_assert_max_num_queries
):
    seat_round(event, 1, 12)
    with django_assert_max_num_queries(30) as small:
        client.get(reverse("manage", args=[event.slug]))
    seat_round(event, 2, 30)
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = client.get(reverse("manage", args=[event.slug])).content.decode()
    assert len(re.findall(r"tables without a protocol", page)) == 2


def test_the_rounds_protocols_page_names_each_state_in_words(
    client, organiser, event, round_in_play
):
    page = client.get(reverse("protocol-round", args=[event.slug, 1])).content.decode()
    states = re.findall(r'<span class="state">([^<]*)</span>', page)
    assert states == [
        "has errors",
        "not confirmed yet",
        "confirmed by every player",
        "approved",
    ]
    assert "not entered" in page  # table 1


def test_the_desk_reads_in_russian(client, organiser, event, round_in_play):
    page = client.get("/ru" + reverse("manage", args=[event.slug])).content.decode()
    assert "Требует внимания сейчас" in page
    assert "1 стол без протокола" in page and "1 протокол с ошибками" in page
    assert "1 протокол ждёт утверждения" in page and "утверждено 1 из 5 столов" in page
    assert "15 игроков, 15 отмечены" in page


def test_rounds_drawn_or_published_wait_for_the_next_step(client, organiser, event):
    seat_round(event, 1, 2, state=Round.State.PUBLISHED)
    seat_round(event, 2, 2, state=Round.State.DRAWN)
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    steps = page[page.index('id="desk-next-steps"') :].split("</ul>")[0]
    assert "Round 1 is published: start play once the players are seated." in steps
    assert "Round 2 is drawn: check the tables, then publish it." in steps
    assert reverse("manage-round", args=[event.slug, 2]) in steps
    # play has not started: no table is missing its protocol yet
    assert "without a protocol" not in page and 'id="desk-quiet"' not in page
