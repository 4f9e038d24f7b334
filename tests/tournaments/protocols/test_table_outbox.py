"""The table's phone offline, server side (issue 42): a send of the phone's outbox carries an id
made on the phone and the version it builds on; a resend of the id stores nothing new and
answers the same; a stale version, a closed round and a revoked key are refused with the
reason; the service worker and the manifest are the table's own."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.errors import UserFacingError
from tournaments.models import Player, Protocol, Round, Seat
from tournaments.services import protocols as svc

from .conftest import deal_form, raspasy
from .test_protocol_services import closed_protocol, save

pytestmark = pytest.mark.django_db


def send_url(setup) -> str:
    return reverse("protocol-table-send", args=[setup.table.url_key])


def game(based_on: str) -> dict:
    """Anna 6♠, Boris whists, Vera passes, Anna takes 6 (the browser test's first deal)."""
    return deal_form(
        based_on, "game", declarer="0", contract="6♠", call_1="whist", call_2="pass", tricks_0="6"
    )


def versions(setup) -> list[int]:
    return list(
        Protocol.objects.filter(table=setup.table).order_by("version").values_list("version", flat=True)
    )


def test_the_same_send_twice_stores_one_version_and_answers_the_same(client, setup):
    first = client.post(send_url(setup), {**game(""), "client_id": "phone-1"})
    assert first.status_code == 200, first.content
    answer = first.json()
    assert answer["state"] == "saved" and answer["version"] == 1 and answer["replay"] is False
    # the answer was lost: the phone sends the same again, still based on "nothing saved yet"
    again = client.post(send_url(setup), {**game(""), "client_id": "phone-1"})
    assert again.status_code == 200
    assert again.json()["version"] == 1 and again.json()["replay"] is True
    assert {k: v for k, v in again.json().items() if k != "replay"} == {
        k: v for k, v in answer.items() if k != "replay"
    }
    assert versions(setup) == [1]
    saved = Protocol.objects.get(table=setup.table)
    assert saved.client_id == "phone-1" and saved.source == Protocol.Source.TABLE_LINK
    assert len(svc.stored_protocol(saved.data).deals) == 1
    # the next send builds on version 1, with its own id
    nxt = client.post(send_url(setup), {**raspasy("1", "4", "3", "3"), "client_id": "phone-2"})
    assert nxt.json()["version"] == 2 and versions(setup) == [1, 2]


def test_a_resend_after_a_newer_version_still_answers_its_own(client, setup):
    client.post(send_url(setup), {**game(""), "client_id": "a"})
    client.post(send_url(setup), {**raspasy("1", "4", "3", "3"), "client_id": "b"})
    late = client.post(send_url(setup), {**game(""), "client_id": "a"})
    assert late.status_code == 200 and late.json()["version"] == 1
    assert versions(setup) == [1, 2]


def test_findings_come_back_with_the_saved_version(client, setup):
    r = client.post(send_url(setup), {**raspasy("", "4", "3", "2"), "client_id": "slip"})
    answer = r.json()
    assert answer["state"] == "saved" and answer["errors"] == 1
    assert answer["summary"] == "1 error" and "9" in " ".join(answer["findings"])


def test_a_stale_send_is_a_conflict_showing_both_and_stores_nothing(client, setup):
    client.post(send_url(setup), {**game(""), "client_id": "phone-a"})
    # a referee corrects meanwhile: version 2
    protocol = svc.stored_protocol(Protocol.objects.get(table=setup.table).data)
    save(setup, protocol.with_deals(()), 1, by=setup.referee)
    r = client.post(send_url(setup), {**raspasy("1", "4", "3", "3"), "client_id": "phone-b"})
    assert r.status_code == 409
    answer = r.json()
    assert answer["state"] == "conflict" and answer["current_version"] == 2
    assert "version 2" in answer["message"]
    assert "Saved meanwhile" in answer["html"] and "Yours" in answer["html"]
    assert versions(setup) == [1, 2]
    # the players choose to add theirs after the current version: the same id, based on 2
    r = client.post(send_url(setup), {**raspasy("2", "4", "3", "3"), "client_id": "phone-b"})
    assert r.json()["version"] == 3


def test_a_closed_round_refuses_with_the_reason_for_good(client, setup):
    Round.objects.filter(pk=setup.round.pk).update(state=Round.State.CLOSED)
    r = client.post(send_url(setup), {**game(""), "client_id": "late"})
    assert r.status_code == 400
    answer = r.json()
    assert answer["state"] == "refused" and answer["final"] is True
    assert "Round 1 is closed" in answer["message"] and answer["field"] == "round"
    assert versions(setup) == []


def test_bad_input_is_refused_naming_the_field_and_is_not_final(client, setup):
    r = client.post(send_url(setup), {**deal_form("", "game", tricks_0="6"), "client_id": "x"})
    assert r.status_code == 400 and r.json()["final"] is False and r.json()["message"]
    r = client.post(send_url(setup), {**game(""), "client_id": "x" * 65})
    assert r.status_code == 400 and r.json()["field"] == "client_id"
    r = client.post(send_url(setup), game(""))  # no id at all
    assert r.status_code == 400 and r.json()["field"] == "client_id"
    assert versions(setup) == []


def test_a_revoked_key_stops_the_phone(client, setup):
    old = setup.table.url_key
    svc.table_rotate_key(table=setup.table)
    r = client.post(reverse("protocol-table-send", args=[old]), {**game(""), "client_id": "z"})
    assert r.status_code == 404
    assert client.get(reverse("protocol-table-worker", args=[old])).status_code == 404
    assert versions(setup) == []


def test_the_service_once_per_id(setup):
    good = closed_protocol(setup)
    kwargs = {"table": setup.table, "protocol": good, "based_on_version": None}
    saved, replay = svc.protocol_save_once(client_id="id-1", **kwargs)
    again, replay2 = svc.protocol_save_once(client_id="id-1", **kwargs)
    assert (replay, replay2) == (False, True) and again.pk == saved.pk
    with pytest.raises(UserFacingError):
        svc.protocol_save_once(client_id="", **kwargs)


@pytest.mark.django_db(transaction=True)
def test_two_sends_of_one_id_at_once_store_one_version():
    from .conftest import make_table

    setup = make_table(slug="twice-at-once")
    good = closed_protocol(setup)
    results, errors = [], []
    barrier = threading.Barrier(2)

    def send():
        try:
            barrier.wait()
            results.append(
                svc.protocol_save_once(
                    client_id="same", table=setup.table, protocol=good, based_on_version=None
                )
            )
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(replay for _saved, replay in results) == [False, True]
    assert Protocol.objects.filter(table=setup.table).count() == 1


def test_the_service_worker_and_manifest_are_the_tables_own(client, setup):
    key = setup.table.url_key
    page = reverse("protocol-table", args=[key])
    sw = client.get(reverse("protocol-table-worker", args=[key]))
    assert sw.status_code == 200 and sw["Content-Type"].startswith("text/javascript")
    body = sw.content.decode()
    assert f"var PAGE = {json.dumps(page)};" in body
    assert "&quot;" not in body and "/static/tournaments/table-offline.js" in body
    manifest = client.get(reverse("protocol-table-manifest", args=[key])).json()
    assert manifest["scope"] == page and manifest["start_url"] == page
    html = client.get(page).content.decode()
    assert f'href="{reverse("protocol-table-manifest", args=[key])}"' in html
    assert '<script id="outbox-words" type="application/json">' in html
    assert "table-offline.js" in html and "Kept on this phone" in html
    # in another language, the script's words come in it
    ru = client.get("/ru" + page).content.decode()
    words = json.loads(ru.split('<script id="outbox-words" type="application/json">')[1].split("</script>")[0])
    assert words["queued"] != "on this phone"


def test_the_pages_own_form_with_an_id_is_stored_once(client, setup):
    """The form sent the usual way (online) carries the phone's id too: sent twice (the first
    answer lost), one version."""
    page = reverse("protocol-table", args=[setup.table.url_key])
    first = client.post(page, {**game(""), "client_id": "form-1"})
    again = client.post(page, {**game(""), "client_id": "form-1"})
    assert first.status_code == again.status_code == 302
    assert versions(setup) == [1]
    assert Protocol.objects.get(table=setup.table).client_id == "form-1"
    # without an id, as before: every post a save
    client.post(page, raspasy("1", "4", "3", "3"))
    assert versions(setup) == [1, 2]


def test_a_players_confirmation_sent_from_his_phone_is_stored_once(client, setup):
    """His own page's outbox (issue 42): a resend stores nothing twice; a protocol of another
    table is refused naming the field; a revoked key is a 404 (the phone stops)."""
    from tournaments.models import ProtocolConfirmation
    from tournaments.services.entries import entry_rotate_key

    assert client.post(reverse("protocol-table", args=[setup.table.url_key]),
                       raspasy("", "4", "3", "3")).status_code == 302  # fmt: skip
    ended = {"based_on_version": "1", "action": "ending", "ending": "agreement"}
    assert client.post(reverse("protocol-table", args=[setup.table.url_key]), ended).status_code == 302
    protocol = Protocol.objects.get(table=setup.table, is_current=True)
    anna = setup.entries[0]
    url = reverse("protocol-player-send", args=[anna.url_key])
    for client_id in ("phone-1", "phone-1", "phone-2"):
        answer = client.post(url, {"protocol": protocol.pk, "client_id": client_id})
        assert answer.status_code == 200 and answer.json()["version"] == 2, answer.content
    assert list(ProtocolConfirmation.objects.filter(protocol=protocol).values_list("seat", flat=True)) == [0]
    assert client.post(url, {"protocol": protocol.pk}).status_code == 400  # every send names itself
    missing = client.post(url, {"protocol": str(protocol.pk + 1000), "client_id": "phone-3"})
    assert missing.status_code == 400 and missing.json()["field"] == "protocol"
    worker = client.get(reverse("protocol-player-worker", args=[anna.url_key]))
    page = reverse("protocol-player", args=[anna.url_key])
    assert worker.status_code == 200 and f"var PAGE = {json.dumps(page)};" in worker.content.decode()
    old_worker = reverse("protocol-player-worker", args=[anna.url_key])
    entry_rotate_key(entry=anna)  # the referee gave him a new link: the old one sends nothing
    assert client.post(url, {"protocol": protocol.pk, "client_id": "phone-4"}).status_code == 404
    assert client.get(old_worker).status_code == 404


def test_a_send_reads_the_seats_once_under_the_lock_and_names_the_draws_players(client, setup):
    """A send on top of a stored version reads no seat before the table's lock: the form's pulka
    is put on the draw's players under it (issue 38), so a player renamed since the stored
    version is named as the draw now names him, and the seats are read in one statement."""
    first = client.post(send_url(setup), {**game(""), "client_id": "phone-1"})
    assert first.json()["version"] == 1
    seat = Seat.objects.select_related("entry").get(table=setup.table, position=1)
    Player.objects.filter(pk=seat.entry.player_id).update(name="Boris Renamed")
    with CaptureQueriesContext(connection) as ctx:
        nxt = client.post(send_url(setup), {**raspasy("1", "4", "3", "3"), "client_id": "phone-2"})
    assert nxt.json()["state"] == "saved" and nxt.json()["version"] == 2, nxt.content
    sql = [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]
    seats = [i for i, s in enumerate(sql) if '"tournaments_seat"' in s]
    locked = [i for i, s in enumerate(sql) if s.endswith("FOR NO KEY UPDATE OF t")]
    assert seats == locked and len(seats) == 1, "\n".join(sql)
    saved = Protocol.objects.get(table=setup.table, version=2)
    assert svc.stored_protocol(saved.data).players[1] == "Boris Renamed"
    assert len(svc.stored_protocol(saved.data).deals) == 2
