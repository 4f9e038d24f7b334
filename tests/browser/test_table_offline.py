"""The table's phone keeps working when the hall's Wi-Fi does not (issue 42, "Done when"), in
Debian's Chromium with the network cut by ``context.set_offline``."""

from __future__ import annotations

import dataclasses
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scoring.model import Ending
from tests.tournaments.protocols.conftest import make_table
from tournaments.models import EntryKind, Protocol, ProtocolConfirmation, Round
from tournaments.services import protocols as svc
from tournaments.services.entries import entry_rotate_key

from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: five all-pass deals, each players' tricks (Anna, Boris, Vera): their order is checked
FIVE = [("4", "3", "3"), ("5", "3", "2"), ("6", "2", "2"), ("2", "4", "4"), ("3", "3", "4")]


def versions(setup) -> list[Protocol]:
    return list(
        Protocol.objects.filter(table=setup.table, entry_kind=EntryKind.TABLE).order_by("version")
    )


#: the page's path among what the phone keeps (the service worker's caches)
KEPT = """async () => {
  for (const name of await caches.keys()) {
    for (const r of await (await caches.open(name)).keys()) {
      if (new URL(r.url).pathname === location.pathname) { return true; }
    }
  }
  return false;
}"""

#: every cache by name, with the paths it keeps
CACHES = """async () => {
  const all = {};
  for (const name of await caches.keys()) {
    all[name] = (await (await caches.open(name)).keys()).map(r => new URL(r.url).pathname);
  }
  return all;
}"""


def wait_until(page, script: str, timeout: float = 15.0) -> None:
    """Poll ``script`` (a function) in the page until it answers true: the page's CSP forbids
    the eval ``wait_for_function`` polls with."""
    end = time.monotonic() + timeout

    def true() -> bool:
        try:
            return bool(page.evaluate(script))
        except PlaywrightError as exc:  # the page navigated meanwhile: ask the new one
            if "context was destroyed" not in str(exc):
                raise
            return False

    while not true():
        if time.monotonic() > end:
            outbox = page.locator("#outbox").inner_text() if page.locator("#outbox").count() else ""
            raise AssertionError(f"still false after {timeout} s: {script}\n{page.url}\n{outbox}")
        page.wait_for_timeout(100)


def open_and_keep(page, url: str) -> None:
    """Open the table's page and wait until its service worker controls it (the page kept)."""
    page.goto(url)
    wait_until(page, "() => navigator.serviceWorker.controller !== null")
    wait_until(page, KEPT)


def raspasy(page, tricks) -> None:
    page.get_by_label("Raspasy (all passed)").check()
    for name, taken in zip(("Anna", "Boris", "Vera"), tricks, strict=True):
        page.get_by_label(f"Tricks of {name}").fill(taken)
    page.get_by_role("button", name="Add the deal").tap()


def kept_tricks(setup) -> list[tuple[str, ...]]:
    current = Protocol.objects.get(table=setup.table, entry_kind=EntryKind.TABLE, is_current=True)
    deals = svc.stored_protocol(current.data).deals
    return [tuple(str(t) for t in deal.tricks) for deal in deals if hasattr(deal, "tricks")]


def test_five_deals_offline_survive_a_reload_and_are_stored_once_in_order(phone, live_server):
    setup = make_table(slug="offline-five")
    page = phone
    url = f"{live_server.url}/t/{setup.table.url_key}/"
    open_and_keep(page, url)
    page.context.set_offline(True)
    for tricks in FIVE:
        raspasy(page, tricks)
    entries = page.locator("#outbox li.entry")
    entries.nth(4).wait_for()
    assert entries.count() == 5
    assert page.locator("#outbox .network").inner_text().startswith("No network")
    assert all(t == "on this phone" for t in page.locator("#outbox li .state").all_inner_texts())
    assert versions(setup) == []
    # the phone reopens the page with no network: what it holds is still there
    page.reload()
    page.locator("#outbox li.entry").nth(4).wait_for()
    assert page.locator("#outbox li.entry").count() == 5
    assert "Tricks of Anna: 6" in page.locator("#outbox li.entry").nth(2).inner_text()
    # the network returns: all five go, in order, and the page shows the server's pulka
    page.context.set_offline(False)
    wait_until(page, "() => document.querySelectorAll('tr.deal').length === 5")
    stored = versions(setup)
    assert [v.version for v in stored] == [1, 2, 3, 4, 5]
    assert len({v.client_id for v in stored}) == 5 and all(v.client_id for v in stored)
    assert kept_tricks(setup) == FIVE
    assert page.locator("#outbox li.entry").count() == 0


def game_online(page) -> None:
    """Anna 6♠, Boris whists, Vera passes, Anna takes 6: sent the usual way (online)."""
    page.select_option("#declarer", label="Anna")
    page.select_option("#contract", "6♠")
    page.get_by_label("Call of Boris").select_option("whist")
    page.get_by_label("Call of Vera").select_option("pass")
    page.get_by_label("Tricks of Anna").fill("6")
    page.get_by_role("button", name="Add the deal").tap()
    page.wait_for_selector("#deal-1")


def referee_corrects_the_game(setup) -> None:
    """The referee's correction of version 1's game (the first deal): Anna took 7, not 6; it
    is version 2."""
    protocol = svc.stored_protocol(versions(setup)[0].data)
    corrected = protocol.with_deals((dataclasses.replace(protocol.deals[0], declarer_tricks=7),))
    svc.protocol_save(
        table=setup.table, protocol=corrected, based_on_version=1, by=setup.referee,
        source=Protocol.Source.REFEREE,
    )  # fmt: skip


def back_online_in_conflict(page):
    """The phone back online, its outbox's conflict shown (the current version and its own)."""
    page.context.set_offline(False)
    conflict = page.locator("#outbox .both")
    conflict.wait_for()
    return conflict


def referees_version_is_current(setup) -> None:
    """The referee's correction (:func:`referee_corrects_the_game`) is the current version."""
    stored = versions(setup)
    assert [v.version for v in stored] == [1, 2] and stored[-1].is_current
    assert svc.stored_protocol(stored[-1].data).deals[0].declarer_tricks == 7


def test_a_referees_correction_made_while_offline_is_a_conflict_not_an_overwrite(
    phone, live_server
):
    setup = make_table(slug="offline-conflict")
    page = phone
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    game_online(page)
    assert [v.version for v in versions(setup)] == [1]
    page.context.set_offline(True)
    raspasy(page, FIVE[0])
    raspasy(page, FIVE[1])
    page.locator("#outbox li.entry").nth(1).wait_for()
    # meanwhile the referee corrects the protocol: Anna took 7, not 6 (version 2)
    referee_corrects_the_game(setup)
    text = back_online_in_conflict(page).inner_text()
    assert "now version 2" in text and "Saved meanwhile" in text and "Yours" in text
    states = page.locator("#outbox li .state").all_inner_texts()
    assert states == ["not saved: the protocol changed meanwhile", "waits for the one before it"]
    referees_version_is_current(setup)  # nothing was overwritten
    # the players choose: theirs after the referee's correction
    page.get_by_role("button", name="Add this phone's entries after the current version").tap()
    wait_until(page, "() => document.querySelectorAll('tr.deal').length === 3")
    stored = versions(setup)
    assert [v.version for v in stored] == [1, 2, 3, 4]
    assert kept_tricks(setup) == FIVE[:2]  # the raspasy, after the game
    assert svc.stored_protocol(stored[-1].data).deals[0].declarer_tricks == 7


def test_a_closed_round_refuses_the_queued_deals_with_the_reason_shown(phone, live_server):
    setup = make_table(slug="offline-closed")
    page = phone
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    page.context.set_offline(True)
    raspasy(page, FIVE[0])
    raspasy(page, FIVE[1])
    page.locator("#outbox li.entry").nth(1).wait_for()
    Round.objects.filter(pk=setup.round.pk).update(state=Round.State.CLOSED)
    page.context.set_offline(False)
    page.locator("#outbox li.refused").nth(1).wait_for()
    reasons = page.locator("#outbox li.refused p.error").all_inner_texts()
    assert len(reasons) == 2
    assert all("Round 1 is closed" in r and setup.chief.username in r for r in reasons)
    assert versions(setup) == []
    # what the phone holds stays listed, to copy on paper for the referee
    assert "Tricks of Anna: 5" in page.locator("#outbox li.entry").nth(1).inner_text()


def test_a_revoked_table_key_stops_the_phone_from_sending(phone, live_server):
    setup = make_table(slug="offline-revoked")
    page = phone
    sends = []
    page.on("request", lambda r: sends.append(r.url) if r.url.endswith("/send") else None)
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    page.context.set_offline(True)
    raspasy(page, FIVE[0])
    raspasy(page, FIVE[1])
    page.locator("#outbox li.entry").nth(1).wait_for()
    svc.table_rotate_key(table=setup.table)
    page.context.set_offline(False)
    page.locator("#outbox li.revoked").nth(1).wait_for()
    assert "link was replaced" in page.locator("#outbox .network").inner_text()
    page.wait_for_timeout(4000)  # longer than the phone's retry: nothing more is sent
    assert len(sends) == 1 and versions(setup) == []


def test_the_service_worker_keeps_only_its_tables_page(phone, live_server, django_user_model):
    one = make_table(slug="offline-own")
    other = make_table(slug="offline-other")
    page = phone
    mine = f"/t/{one.table.url_key}/"
    open_and_keep(page, live_server.url + mine)
    login(page, live_server, one.referee)
    for path in (f"/e/{one.event.slug}/manage/", f"/t/{other.table.url_key}/", "/", mine):
        page.goto(live_server.url + path)
    page.wait_for_timeout(500)
    caches = page.evaluate(CACHES)
    own = caches[f"pulka-table:{mine}"]
    assert mine in own
    assert all(p == mine or p.startswith("/static/") for p in own)
    everything = [p for paths in caches.values() for p in paths]
    assert f"/e/{one.event.slug}/manage/" not in everything and "/" not in everything
    # the other table's page is only ever in its own worker's keeping, never in this one's
    assert f"/t/{other.table.url_key}/" not in own
    page.context.set_offline(True)
    page.reload()
    assert page.locator("h1").inner_text().startswith(one.event.name)
    with pytest.raises(PlaywrightError):
        page.goto(f"{live_server.url}/e/{one.event.slug}/manage/")


class DroppingProxy:
    """A proxy in front of the live server that forwards each request and, for the requests
    ``drop`` picks, reads the server's whole answer and then closes the phone's connection
    without a byte of it: the send was stored, the phone never hears so."""

    def __init__(self, upstream: str, drop) -> None:
        import socket
        import threading
        from urllib.parse import urlsplit

        self.upstream = urlsplit(upstream)
        self.drop = drop
        self.seen: list[str] = []
        self.dropped: list[str] = []
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(32)
        self.url = f"http://localhost:{self.server.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        import threading

        while True:
            try:
                client, _addr = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(client,), daemon=True).start()

    @staticmethod
    def _read_request(client) -> bytes:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = client.recv(65536)
            if not chunk:
                return data
            data += chunk
        head, _sep, body = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _colon, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(body) < length:
            body += client.recv(65536)
        lines = [
            line for line in head.split(b"\r\n")
            if not line.lower().startswith((b"connection:", b"keep-alive:"))
        ]
        return b"\r\n".join([*lines, b"Connection: close"]) + b"\r\n\r\n" + body

    def _one(self, client) -> None:
        import socket

        with client:
            request = self._read_request(client)
            if not request:
                return
            line = request.split(b"\r\n", 1)[0].decode()
            self.seen.append(line)
            with socket.create_connection((self.upstream.hostname, self.upstream.port)) as up:
                up.sendall(request)
                answer = b""
                while chunk := up.recv(65536):
                    answer += chunk
            if self.drop(line):
                self.dropped.append(line)
                return  # the answer is thrown away: the phone's connection just closes
            head, _sep, body = answer.partition(b"\r\n\r\n")
            lines = [h for h in head.split(b"\r\n") if not h.lower().startswith(b"connection:")]
            client.sendall(b"\r\n".join([*lines, b"Connection: close"]) + b"\r\n\r\n" + body)

    def close(self) -> None:
        self.server.close()


def drop_first(path_end: str):
    """Drop the answer of the first POST whose path ends with ``path_end``."""
    done = []

    def drop(line: str) -> bool:
        method, path, _version = line.split(" ")
        if method == "POST" and path.endswith(path_end) and not done:
            done.append(line)
            return True
        return False

    return drop


def test_a_send_whose_answer_is_cut_is_stored_once(phone, live_server):
    setup = make_table(slug="offline-cut")
    proxy = DroppingProxy(live_server.url, drop_first("/send"))
    try:
        page = phone
        open_and_keep(page, f"{proxy.url}/t/{setup.table.url_key}/")
        page.context.set_offline(True)
        for tricks in FIVE[:3]:
            raspasy(page, tricks)
        page.locator("#outbox li.entry").nth(2).wait_for()
        page.context.set_offline(False)
        wait_until(page, "() => document.querySelectorAll('tr.deal').length === 3", timeout=30)
    finally:
        proxy.close()
    sends = [line for line in proxy.seen if line.startswith("POST") and "/send" in line]
    assert len(proxy.dropped) == 1 and len(sends) == 4  # the first one went twice
    stored = versions(setup)
    assert [v.version for v in stored] == [1, 2, 3]
    assert kept_tricks(setup) == FIVE[:3]


def test_a_form_sent_online_whose_answer_is_cut_is_kept_and_stored_once(phone, live_server):
    setup = make_table(slug="online-cut")
    key = setup.table.url_key
    proxy = DroppingProxy(live_server.url, drop_first(f"/t/{key}/"))
    try:
        page = phone
        open_and_keep(page, f"{proxy.url}/t/{key}/")
        raspasy(page, FIVE[0])  # the usual form, online: the server stores it, the answer is lost
        wait_until(page, "() => document.querySelectorAll('tr.deal').length === 1", timeout=30)
    finally:
        proxy.close()
    assert len(proxy.dropped) == 1
    assert [v.version for v in versions(setup)] == [1]
    assert kept_tricks(setup) == FIVE[:1]


def test_the_phone_checks_what_needs_no_server(phone, live_server):
    setup = make_table(slug="offline-checks")
    page = phone
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    page.context.set_offline(True)
    # a game without a declarer is bad input: the form says so and nothing is kept
    page.get_by_label("Game").check()
    page.get_by_label("Tricks of Anna").fill("6")
    page.get_by_role("button", name="Add the deal").tap()
    alert = page.locator("form.deal-form p.local-check")
    assert "Choose the declarer: a player at this table." in alert.inner_text()
    assert page.locator("#outbox li.entry").count() == 0
    # tricks that do not add up are a finding, not bad input: kept, said, and sent as entered
    page.get_by_label("Tricks of Anna").fill("")
    raspasy(page, ("6", "3", "3"))
    entry = page.locator("#outbox li.entry")
    entry.wait_for()
    assert entry.locator(".check").inner_text() == "The tricks add up to 12; a deal has 10."
    assert page.locator("form.deal-form p.local-check").count() == 0
    page.context.set_offline(False)
    page.locator("tr.finding.error").wait_for()  # the server's finding, stored with the deal
    assert versions(setup)[-1].error_count == 1


def test_a_refused_entry_goes_back_to_the_form_and_keeps_its_place(phone, live_server):
    setup = make_table(slug="offline-back")
    page = phone
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    page.context.set_offline(True)
    raspasy(page, FIVE[0])
    # bad input the phone cannot tell: a game without its contract (the server refuses it)
    page.get_by_label("Game").check()
    page.select_option("#declarer", label="Anna")
    page.get_by_label("Tricks of Anna").fill("6")
    page.get_by_role("button", name="Add the deal").tap()
    raspasy(page, FIVE[2])
    page.locator("#outbox li.entry").nth(2).wait_for()
    page.context.set_offline(False)
    refused = page.locator("#outbox li.refused")
    refused.wait_for()
    assert refused.locator("p.error").inner_text()  # the server's reason
    states = page.locator("#outbox li .state").all_inner_texts()
    assert states == ["saved (version 1)", "not saved", "waits for the one before it"]
    refused.get_by_role("button", name="Back to the form").tap()
    # the form is filled once the entry is marked back on the phone (IndexedDB): wait for it
    expect(page.locator("#declarer")).to_have_value("0")  # Anna, as entered
    expect(page.get_by_label("Tricks of Anna")).to_have_value("6")
    page.select_option("#contract", "6♠")
    page.get_by_label("Call of Boris").select_option("whist")
    page.get_by_label("Call of Vera").select_option("pass")
    page.get_by_role("button", name="Add the deal").tap()
    wait_until(page, "() => document.querySelectorAll('tr.deal').length === 3")
    assert [v.version for v in versions(setup)] == [1, 2, 3]
    deals = svc.stored_protocol(versions(setup)[-1].data).deals
    assert kept_tricks(setup) == [FIVE[0], FIVE[2]]
    assert deals[1].declarer == 0 and deals[1].declarer_tricks == 6  # the game in its place


def test_at_a_table_of_four_the_phone_counts_who_deals_and_sits_out(phone, live_server):
    """At a table of four the dealer sits out (Kodeks 1996, 3.2.2 and 3.2.10): offline, the
    phone moves the turn over the deals it holds, marks in the form who deals and sits out,
    and says what is entered for him instead of keeping it; the server, counting the same
    turn when the deals arrive, stores them as the phone showed them."""
    setup = make_table(slug="offline-four", names=("Anna", "Boris", "Vera", "Gleb"))
    page = phone
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    shown = page.locator("#form p.sitting-out")
    expect(shown).to_have_text("Anna deals and sits out this deal.")
    page.context.set_offline(True)
    page.get_by_label("Raspasy (all passed)").check()
    # at raspasy the one who sits out writes the talon's tricks (Kodeks 1996, 3.7.6.1): kept
    for name, taken in (("Anna", "0"), ("Boris", "4"), ("Vera", "3"), ("Gleb", "3")):
        page.get_by_label(f"Tricks of {name}").fill(taken)
    page.get_by_role("button", name="Add the deal").tap()
    page.locator("#outbox li.entry").first.wait_for()
    # the deal held passed the turn on: Boris deals and sits out, Anna plays again
    expect(shown).to_have_text("Boris deals and sits out this deal.")
    assert page.locator("#sitting-out-stale").count() == 0
    expect(page.locator("#form tr.sitting-out")).to_have_attribute("data-name", "Boris")
    page.get_by_label("Game").check()
    expect(page.get_by_label("Call of Boris")).to_be_hidden()
    expect(page.get_by_label("Call of Anna")).to_be_visible()
    offered = page.locator("#declarer option:not([disabled])").all_inner_texts()
    assert offered == ["—", "Anna", "Vera", "Gleb"]
    # tricks entered for the one who sits out: said, and nothing kept
    page.select_option("#declarer", label="Anna")
    page.select_option("#contract", "6♠")
    page.get_by_label("Call of Vera").select_option("whist")
    page.get_by_label("Call of Gleb").select_option("pass")
    page.get_by_label("Tricks of Anna").fill("6")
    page.get_by_label("Tricks of Boris").fill("2")
    page.get_by_role("button", name="Add the deal").tap()
    alert = page.locator("form.deal-form p.local-check")
    assert alert.inner_text().startswith(
        "Boris deals and sits out this deal, as this phone counts the turn"
    )
    assert page.locator("#outbox li.entry").count() == 1
    page.get_by_label("Tricks of Boris").fill("")
    page.get_by_role("button", name="Add the deal").tap()
    page.locator("#outbox li.entry").nth(1).wait_for()
    expect(shown).to_have_text("Vera deals and sits out this deal.")
    # reopened offline, the phone counts the same from what it holds
    page.reload()
    page.locator("#outbox li.entry").nth(1).wait_for()
    expect(page.locator("#form p.sitting-out")).to_have_text("Vera deals and sits out this deal.")
    # the network returns: both are stored, and the server's page names the same dealer
    page.context.set_offline(False)
    wait_until(page, "() => document.querySelectorAll('tr.deal').length === 2")
    expect(page.locator("#form p.sitting-out")).to_have_text("Vera deals and sits out this deal.")
    assert [v.version for v in versions(setup)] == [1, 2]
    assert all(v.error_count == 0 for v in versions(setup)), [v.findings for v in versions(setup)]
    game = svc.stored_protocol(versions(setup)[-1].data).deals[1]
    assert (game.declarer, game.declarer_tricks) == (0, 6)


def test_a_deal_is_corrected_and_deleted_offline_and_sent_in_order(phone, live_server):
    """"Correct" opens offline (the page carries each deal's form values): the correction and
    a deletion go to the outbox like deals, survive a reload, and are stored once, in order,
    each on the version the one before it made."""
    setup = make_table(slug="offline-correct")
    page = phone
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    game_online(page)
    raspasy(page, FIVE[0])  # online: the form goes the usual way
    page.wait_for_selector("#deal-2")
    assert [v.version for v in versions(setup)] == [1, 2]
    page.context.set_offline(True)
    page.locator("a.edit").first.tap()
    form = page.locator("form.deal-form")
    expect(form.locator("h2")).to_have_text("Correct deal 1")
    expect(page.locator("#declarer")).to_have_value("0")  # Anna, as saved
    expect(page.get_by_label("Call of Boris")).to_have_value("whist")
    expect(page.get_by_label("Tricks of Anna")).to_have_value("6")
    page.get_by_label("Tricks of Anna").fill("7")
    page.get_by_role("button", name="Save the correction").tap()
    page.locator("#outbox li.entry").first.wait_for()
    expect(form.locator("h2")).to_have_text("Next deal (3)")  # the form adds deals again
    page.locator("a.edit").nth(1).tap()
    expect(form.locator("h2")).to_have_text("Correct deal 2")
    expect(page.get_by_label("Tricks of Vera")).to_have_value("3")
    page.get_by_role("button", name="Delete this deal").tap()
    page.locator("#outbox li.entry").nth(1).wait_for()
    raspasy(page, FIVE[1])
    page.locator("#outbox li.entry").nth(2).wait_for()
    kinds = page.locator("#outbox li.entry strong").all_inner_texts()
    assert kinds == ["Correction of deal 1", "Deal 2 deleted", "Deal"]
    assert versions(setup)[-1].version == 2  # nothing sent yet
    page.reload()  # reopened offline: still held
    page.locator("#outbox li.entry").nth(2).wait_for()
    page.context.set_offline(False)
    wait_until(page, "() => document.querySelectorAll('#outbox li.entry').length === 0")
    stored = versions(setup)
    assert [v.version for v in stored] == [1, 2, 3, 4, 5]
    deals = svc.stored_protocol(stored[-1].data).deals
    assert len(deals) == 2 and deals[0].declarer_tricks == 7
    assert kept_tricks(setup) == [FIVE[1]]


def test_a_correction_made_offline_meets_a_referees_as_a_conflict(phone, live_server):
    setup = make_table(slug="offline-correct-conflict")
    page = phone
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    game_online(page)
    page.context.set_offline(True)
    page.locator("a.edit").first.tap()
    page.get_by_label("Tricks of Anna").fill("8")
    page.get_by_role("button", name="Save the correction").tap()
    page.locator("#outbox li.entry").first.wait_for()
    # meanwhile the referee corrects the same deal: Anna took 7 (version 2)
    referee_corrects_the_game(setup)
    conflict = back_online_in_conflict(page)
    assert "Saved meanwhile" in conflict.inner_text() and "Yours" in conflict.inner_text()
    assert page.locator("#outbox li .state").all_inner_texts() == [
        "not saved: the protocol changed meanwhile"
    ]
    referees_version_is_current(setup)  # nothing overwritten


def confirmable(slug: str):
    """A table whose pulka was entered and ended by agreement: each player may confirm it."""
    from django.test import Client

    setup = make_table(slug=slug)
    url = f"/t/{setup.table.url_key}/"
    client = Client()
    fields = {"based_on_version": "", "action": "add", "kind": "raspasy",
              **{f"tricks_{p}": t for p, t in enumerate(FIVE[0])}}  # fmt: skip
    assert client.post(url, fields).status_code == 302
    ended = {"based_on_version": "1", "action": "ending", "ending": "agreement"}
    assert client.post(url, ended).status_code == 302
    return setup


def confirmed(setup) -> list[int]:
    return sorted(
        ProtocolConfirmation.objects.filter(protocol__table=setup.table).values_list(
            "seat", flat=True
        )
    )


def test_a_player_confirms_offline_on_his_own_page(phone, live_server):
    """The player's page has its own worker, scoped to his page: reopened offline, his
    confirmation is kept on the phone and stored once when the network returns; the worker
    keeps nothing but his page and Pulka's own files."""
    setup = confirmable("offline-confirm")
    other = make_table(slug="offline-confirm-other")
    page = phone
    mine = f"/p/{setup.entries[0].url_key}/protocols/"
    open_and_keep(page, live_server.url + mine)
    for path in (f"/p/{setup.entries[1].url_key}/protocols/", f"/t/{setup.table.url_key}/",
                 f"/t/{other.table.url_key}/", f"/e/{setup.event.slug}/manage/", mine):  # fmt: skip
        page.goto(live_server.url + path)
    page.context.set_offline(True)
    page.reload()  # reopened with no network: his page, kept
    page.get_by_role("button", name="I confirm this protocol").tap()
    entry = page.locator("#outbox li.entry")
    entry.wait_for()
    assert entry.inner_text().startswith("I confirm this protocol Round 1, table 1, version 2")
    assert entry.locator(".state").inner_text() == "on this phone"
    assert confirmed(setup) == []
    page.reload()
    page.locator("#outbox li.entry").wait_for()
    page.context.set_offline(False)
    page.get_by_text("You confirmed this version.").wait_for()
    assert confirmed(setup) == [0]  # his seat, once
    assert page.locator("#outbox li.entry").count() == 0
    caches = page.evaluate(CACHES)
    # each page visited is in its own worker's keeping only; his keeps his page alone
    assert all(p == mine or p.startswith("/static/") for p in caches[f"pulka-player:{mine}"])
    for name, paths in caches.items():
        assert all(p == name.split(":", 1)[1] or p.startswith("/static/") for p in paths)
    everything = [p for paths in caches.values() for p in paths]
    assert f"/e/{setup.event.slug}/manage/" not in everything


def test_a_revoked_player_key_stops_his_phone_and_a_stale_version_is_refused(
    phone, live_server
):
    setup = confirmable("offline-confirm-revoked")
    page = phone
    open_and_keep(page, f"{live_server.url}/p/{setup.entries[0].url_key}/protocols/")
    page.context.set_offline(True)
    page.get_by_role("button", name="I confirm this protocol").tap()
    page.locator("#outbox li.entry").wait_for()
    entry_rotate_key(entry=setup.entries[0])
    page.context.set_offline(False)
    page.locator("#outbox li.revoked").wait_for()
    assert "Your link was replaced" in page.locator("#outbox .network").inner_text()
    assert confirmed(setup) == []
    # Boris confirms offline while the table saves a new version: refused with the reason
    page.goto(f"{live_server.url}/p/{setup.entries[1].url_key}/protocols/")
    wait_until(page, "() => navigator.serviceWorker.controller !== null")
    wait_until(page, KEPT)
    page.context.set_offline(True)
    page.get_by_role("button", name="I confirm this protocol").tap()
    page.locator("#outbox li.entry").wait_for()
    current = versions(setup)[-1]
    ended = dataclasses.replace(svc.stored_protocol(current.data), ending=Ending.TIME_LIMIT)
    svc.protocol_save(
        table=setup.table, protocol=ended, based_on_version=current.version, by=setup.referee,
        source=Protocol.Source.REFEREE,
    )
    page.context.set_offline(False)
    refused = page.locator("#outbox li.refused")
    refused.wait_for()
    assert refused.locator("p.error").inner_text()  # the server's reason
    assert confirmed(setup) == []


def test_at_a_table_of_four_a_deletion_held_moves_the_turn_back_or_says_it_is_behind(
    phone, live_server
):
    """The last deal deleted on the phone takes the turn back (it had passed it), as the server
    counts it; after a deal deleted in the middle the deals after it keep a dealer the referee
    recorded for them, or move up, which the phone does not guess: it says the one shown is
    behind until the server has them."""
    setup = make_table(slug="offline-four-delete", names=("Anna", "Boris", "Vera", "Gleb"))
    page = phone
    open_and_keep(page, f"{live_server.url}/t/{setup.table.url_key}/")
    shown = page.locator("#form p.sitting-out")

    def two_online():  # Anna deals the first, Boris the second
        for tricks in (("0", "4", "3", "3"), ("4", "0", "3", "3")):
            count = page.locator("tr.deal").count()
            page.get_by_label("Raspasy (all passed)").check()
            for name, taken in zip(("Anna", "Boris", "Vera", "Gleb"), tricks, strict=True):
                page.get_by_label(f"Tricks of {name}").fill(taken)
            page.get_by_role("button", name="Add the deal").tap()
            wait_until(page, f"() => document.querySelectorAll('tr.deal').length === {count + 1}")
        expect(shown).to_have_text("Vera deals and sits out this deal.")

    def delete_offline(n):
        held = page.locator("#outbox li.entry").count()
        page.locator("a.edit").nth(n - 1).tap()
        page.get_by_role("button", name="Delete this deal").tap()
        page.locator("#outbox li.entry").nth(held).wait_for()

    two_online()
    page.context.set_offline(True)
    delete_offline(2)
    expect(shown).to_have_text("Boris deals and sits out this deal.")  # the turn back
    delete_offline(1)  # now the last one too
    expect(shown).to_have_text("Anna deals and sits out this deal.")
    assert page.locator("#sitting-out-stale").count() == 0
    page.context.set_offline(False)
    wait_until(page, "() => document.querySelectorAll('#outbox li.entry').length === 0")
    expect(shown).to_have_text("Anna deals and sits out this deal.")  # the server's count
    two_online()
    page.context.set_offline(True)
    delete_offline(1)  # in the middle: the phone does not guess the deals after it
    page.locator("#sitting-out-stale").wait_for()
    page.context.set_offline(False)
    wait_until(page, "() => document.querySelectorAll('#outbox li.entry').length === 0")
    # the server's count: the deal left was entered without its dealer, so it is Anna's now
    expect(shown).to_have_text("Boris deals and sits out this deal.")
    assert page.locator("#sitting-out-stale").count() == 0
    assert [v.version for v in versions(setup)] == [1, 2, 3, 4, 5, 6, 7]
