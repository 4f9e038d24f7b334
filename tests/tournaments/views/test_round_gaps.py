"""Issue 29: a round's results page lists the tables left without a result and says why (no
protocol; a protocol not approved; the round closed without them, with the organiser's
reason), on the public page and on the organiser's round page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EventFactory, UserFactory
from tests.tournaments.views.test_desk import record, seat_round
from tournaments.models import EventRole, Protocol, ProtocolConfirmation
from tournaments.selectors.desk import round_gaps
from tournaments.services.rounds import round_close

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return EventFactory(name="Club Night", slug="club-night", published=True)


@pytest.fixture
def round_in_play(event):
    """Table 1 no protocol, 2 errors, 3 waiting for approval, 4 approved."""
    round_ = seat_round(event, 1, 4)
    t = {t.number: t for t in round_.tables.all()}
    record(t[2], errors=2)
    record(t[3], confirmed=3)
    record(t[4], confirmed=3, approved=True)
    return round_


def results(client, event, number=1, language=""):
    url = reverse("standings-round", args=[event.slug, number])
    response = client.get(f"/{language}{url}" if language else url)
    assert response.status_code == 200
    return response


def gaps_section(html: str) -> str:
    assert 'id="round-gaps"' in html
    return html[html.index('id="round-gaps"') :].split("</section>")[0]


def test_the_public_page_lists_the_tables_without_a_result(client, event, round_in_play):
    html = results(client, event).content.decode()
    gaps = gaps_section(html)
    assert "3 tables have no approved result yet" in gaps
    assert "Table 1 (R1T1-1, R1T1-2, R1T1-3): no protocol" in gaps
    assert "Table 2 (R1T2-1, R1T2-2, R1T2-3): protocol not approved" in gaps
    assert "Table 3 (R1T3-1, R1T3-2, R1T3-3): protocol not approved" in gaps
    assert "Table 4" not in gaps
    assert "/protocol" not in gaps  # the public has no referee's links
    assert "once a referee approves its protocol" in gaps


def test_a_closed_round_says_why_its_tables_have_no_result(client, event, round_in_play):
    round_close(round_=round_in_play, unfinished_reason="tables 1-3 ran out of time")
    gaps = gaps_section(results(client, event).content.decode())
    assert "The round was closed without a result for 3 tables" in gaps
    assert "Reason: tables 1-3 ran out of time" in gaps
    assert "no result for this round in the standings" in gaps
    # one table approved after the close: it leaves the list, the reason stays
    Protocol.objects.filter(table__round=round_in_play, table__number=3).update(approved=True)
    gaps = gaps_section(results(client, event).content.decode())
    assert "without a result for 2 tables" in gaps and "Table 3" not in gaps


def test_the_organiser_sees_the_states_in_the_desks_words_with_links(client, event, round_in_play):
    organiser = UserFactory()
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    client.force_login(organiser)
    gaps = gaps_section(results(client, event).content.decode())
    assert "Table 2 (R1T2-1, R1T2-2, R1T2-3): protocol with errors" in gaps
    assert "Table 3 (R1T3-1, R1T3-2, R1T3-3): waiting for approval" in gaps
    assert reverse("protocol-referee", args=[event.slug, 1, 2]) in gaps
    # the round's page: while in play its close lists them; once closed, this list and why
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert 'id="round-gaps"' not in page and 'id="unfinished-tables"' in page
    round_close(round_=round_in_play, unfinished_reason="the hall closed at midnight")
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    gaps = gaps_section(page)
    assert "The round was closed without a result for 3 tables" in gaps
    assert "Reason: the hall closed at midnight" in gaps
    assert "Table 1 (R1T1-1, R1T1-2, R1T1-3): no protocol" in gaps
    assert reverse("protocol-referee", args=[event.slug, 1, 1]) in gaps


def test_every_table_with_its_result_lists_nothing(client, event):
    round_ = seat_round(event, 1, 2)
    for table in round_.tables.all():
        record(table, confirmed=3, approved=True)
    assert round_gaps(round_=round_).tables == []
    assert 'id="round-gaps"' not in results(client, event).content.decode()
    # a round not in play yet has no gaps to speak of
    draft = seat_round(event, 2, 1, state="drawn")
    assert round_gaps(round_=draft) is None


def test_a_protocol_entered_changes_the_pages_etag(client, event, round_in_play):
    """The list is read each time, not from the stored standings: a refresh naming the old
    ETag gets the new list, not a 304."""
    first = results(client, event)
    etag = first["ETag"]
    url = reverse("standings-round", args=[event.slug, 1])
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    record(round_in_play.tables.get(number=1), errors=1)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert "Table 1 (R1T1-1, R1T1-2, R1T1-3): protocol not approved" in again.content.decode()
    # a referee's page changes with a confirmation, an approval, a close
    staff = UserFactory()
    EventRole.objects.create(event=event, user=staff, role=EventRole.Role.REFEREE)
    client.force_login(staff)
    etag = client.get(url)["ETag"]
    protocol = Protocol.objects.get(table__round=round_in_play, table__number=3)
    seat = protocol.table.seats.get(position=0)
    protocol.confirmations.filter(seat=0).delete()
    page = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert page.status_code == 200
    assert "Table 3 (R1T3-1, R1T3-2, R1T3-3): not confirmed by every player" in (
        page.content.decode()
    )
    ProtocolConfirmation.objects.create(protocol=protocol, seat=0, entry=seat.entry)
    etag = client.get(url)["ETag"]
    Protocol.objects.filter(pk=protocol.pk).update(approved=True)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    etag = client.get(url)["ETag"]
    round_close(round_=round_in_play, unfinished_reason="late")
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_the_list_reads_in_russian(client, event, round_in_play):
    round_close(round_=round_in_play, unfinished_reason="нет времени")
    gaps = gaps_section(results(client, event, language="ru").content.decode())
    assert "Тур закрыт без результата для 3 столов" in gaps
    assert "нет протокола" in gaps
    assert "Table" not in gaps and "protocol" not in gaps
