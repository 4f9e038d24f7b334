"""The demo's protocols: every state, realistic pulkas, idempotent."""

from __future__ import annotations

from fractions import Fraction

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.demo.protocols import demo_protocols
from tournaments.models import Appeal, EventRole, Protocol, Round, Ruling, Seat, Table


def demo_like_event(db):
    event = EventFactory(slug="demo-like", pulka_target=20)
    EventRole.objects.create(
        event=event, user=UserFactory(username="cr"), role=EventRole.Role.CHIEF_REFEREE
    )
    entries = [EntryFactory(event=event, player=PlayerFactory(name=f"P{i:02d}")) for i in range(19)]
    for number, state in ((1, Round.State.CLOSED), (2, Round.State.IN_PLAY)):
        round_ = Round.objects.create(event=event, number=number, state=state)
        sizes = [3, 3, 3, 3, 3, 4]
        at = 0
        for t, size in enumerate(sizes, 1):
            table = Table.objects.create(round=round_, number=t, first_dealer=(t + number) % size)
            for position in range(size):
                entry = entries[(at + number * 5) % len(entries)]
                Seat.objects.create(round=round_, table=table, position=position, entry=entry)
                at += 1
    return event


def test_demo_protocols_in_every_state_and_idempotent(db, client):
    event = demo_like_event(db)
    demo_protocols(event)
    closed = Protocol.objects.filter(table__round__number=1, is_current=True)
    assert closed.count() == 6 and all(p.approved and p.error_count == 0 for p in closed)
    for p in closed:
        assert sum(Fraction(r["whists"]) for r in p.result) == 0
        assert len(p.data["deals"]) > 10  # a real pulka to 20, not a stub
    current = {
        p.table.number: p
        for p in Protocol.objects.filter(table__round__number=2, is_current=True).select_related(
            "table"
        )
    }
    assert current[1].state == "findings" and current[1].error_count >= 1
    assert current[2].data["ending"] == "in-progress"
    assert current[3].state == "confirmed" and not current[3].approved
    assert current[4].approved and current[4].rulings_applied
    assert current[5].approved and Ruling.objects.filter(kind="adjusted").count() == 1
    assert 6 not in current
    assert Appeal.objects.filter(status="pending").count() == 1
    # every page of the demo opens: the tables' links, the desk, the players' links
    client.force_login(EventRole.objects.get(event=event).user)
    for table in Table.objects.filter(round__event=event):
        assert client.get(f"/t/{table.url_key}/").status_code == 200
        desk = f"/e/{event.slug}/manage/rounds/{table.round.number}/tables/{table.number}/protocol"
        assert client.get(desk).status_code == 200
    for seat in Seat.objects.filter(round__event=event)[:6]:
        assert client.get(f"/p/{seat.entry.url_key}/protocols/").status_code == 200
    rows = Protocol.objects.count()
    demo_protocols(event)
    assert Protocol.objects.count() == rows
