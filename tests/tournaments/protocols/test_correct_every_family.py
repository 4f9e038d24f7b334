"""The "Correct" link opens the deal's form filled with the deal as entered, in every family
(issue 36 "Entering and correcting"): each deal entered on the table's phone page is opened
with ``?edit=<index>``, its form read back as a browser would submit it, and saved as a
correction; the protocol's deals are then unchanged. A blank or wrongly filled form would
change a deal (or be refused). Deals and penalties are shown with the players' names, never
their seat numbers, on the page and in the filled PDF."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.balkan.protocol import Penalty as BalkanPenalty
from scoring.russian.generate import random_protocol
from tournaments.models import Protocol
from tournaments.services.protocols import protocol_save, stored_protocol
from tournaments.variants import ADAPTERS, FamilyUI, ui_of_protocol

from ..balkan.test_balkan_event import balkan_table
from ..pot.test_pot_event import pot_table
from ..priffe.test_priffe_event import priffe_table
from .conftest import make_table

pytestmark = pytest.mark.django_db


class _DealForm(HTMLParser):
    """The fields of ``<form id="form">`` as a browser submits them: a text or number input's
    value, a checked box or radio button, a select's selected option (else its first); a
    disabled one (who sits out at four) is not sent."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.fields: dict[str, str] = {}
        self.select: str | None = None
        self.first: str | None = None
        self.chosen: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == "form"
        if not self.inside:
            return
        if tag in ("input", "select") and "disabled" in a:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields[a["name"]] = a.get("value", "on")
            else:
                self.fields[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select, self.first, self.chosen = a.get("name"), None, None
        elif tag == "option" and self.select:
            if self.first is None:
                self.first = a.get("value", "")
            if "selected" in a:
                self.chosen = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select" and self.select and self.inside:
            self.fields[self.select] = self.chosen if self.chosen is not None else self.first or ""
            self.select = None


def deal_form(page: str) -> dict[str, str]:
    parser = _DealForm()
    parser.feed(page)
    return parser.fields


def phone_page(made) -> tuple:
    """The table of ``made`` (a family's one-table event: ``(event, (table,), ...)``) and its
    phone page's address."""
    _event, (table,), *_ = made
    return table, reverse("protocol-table", args=[table.url_key])


#: a Balkan hand as the phone form sends it (contract 3, both defending, 2 tricks each)
BALKAN_HAND = {
    "kind": "hand", "declarer": "0", "contract": "3", "defence_1": "play", "defence_2": "play",
    "tricks_1": "2", "tricks_2": "2",
}  # fmt: skip


def current(table):
    return Protocol.objects.get(table=table, entry_kind="table", is_current=True)


def enter(client, table, url, *deals):
    for n, fields in enumerate(deals):
        based_on = str(current(table).version) if n else ""
        r = client.post(url, {"based_on_version": based_on, "action": "add", **fields})
        assert r.status_code == 302, r.content.decode()[:2000]


def correct_each_unchanged(client, table, url):
    """Open every deal's correction form and save it as shown: nothing changes."""
    before = stored_protocol(current(table).data).deals
    # the phone opens the same forms offline from the values the page carries (issue 42)
    offline = client.get(url).context["corrections"]
    for index in range(len(before)):
        page = client.get(f"{url}?edit={index}").content.decode()
        fields = deal_form(page)
        assert fields["action"] == "replace" and fields["index"] == str(index)
        phone = dict(offline[index]["fields"])
        for name, value in fields.items():
            if name not in ("action", "index", "based_on_version", "csrfmiddlewaretoken"):
                assert phone.get(name, "") == value, (index, name, phone)
        r = client.post(url, fields)
        assert r.status_code == 302, (index, r.content.decode()[:2000])
        after = stored_protocol(current(table).data).deals
        assert after == before, (index, before[index], after[index])
    return before


def test_balkan_correction_form_is_the_deal_as_entered(client):
    table, url = phone_page(balkan_table())
    enter(
        client, table, url,
        BALKAN_HAND,
        {"kind": "hand", "declarer": "1", "contract": "4", "igra": "on", "defence_2": "play",
         "defence_0": "invite", "kontra": "1", "kontra_by": "2", "tricks_0": "1",
         "tricks_1": "6", "tricks_2": "3"},
        {"kind": "allpass"},
    )  # fmt: skip
    page = client.get(url + "?edit=1").content.decode()
    assert '<input type="checkbox" name="igra" checked>' in page
    assert '<option value="invite" selected>' in page and '<option value="1" selected>' in page
    deals = correct_each_unchanged(client, table, url)
    assert deals[1].kontra_by == 2 and deals[1].game
    # the players by name, never by seat number ("1 igra srce … kontra 3")
    shown = _deal_cells(client.get(url).content.decode())
    assert shown[1].startswith("Branko 1 igra srce ide/zove kontra Cvijeta 1 štihovi 1-6-3")
    assert sheet_texts(table)[1] == "Branko 1 igra srce ide/zove kontra Cvijeta 1 štihovi 1-6-3"


@pytest.mark.parametrize("size", [3, 4])
def test_pot_correction_form_is_the_deal_as_entered(client, size):
    table, url = phone_page(pot_table(size=size, first_dealer=2))
    # dealer Cecilia (seat 2): at four she sits out; Anna plays with an efterköp chain after
    enter(
        client, table, url,
        {"kind": "hand", "declarer": "0", "contract": "3", "defence_1": "go",
         "defence_3" if size == 4 else "defence_2": "home", "tricks_1": "4"},
        {"kind": "hand", "declarer": "0", "contract": "2", "efterkop_by_1": "1",
         "efterkop_contract_1": "5", "tricks_0": "5", "tricks_2": "5"},
        # the third deal's dealer: Bertil at three, Anna at four (she sits out)
        {"kind": "rundpass", **{f"tricks_{p}": t for p, t in enumerate(
            (3, 3, 4) if size == 3 else (0, 3, 3, 4))}},
    )  # fmt: skip
    deals = correct_each_unchanged(client, table, url)
    assert [c.code for _s, c in deals[1].efterkop] == ["5"]
    shown = _deal_cells(client.get(url).content.decode())
    # an English page: the game's words in English (issue 36)
    assert shown[1].startswith("Anna 1 2 after-purchase Bertil 1 5")
    assert sheet_texts(table)[1].startswith("Anna 1 2 after-purchase Bertil 1 5")
    if size == 4:  # the form of deal 1 names its own dealer, not the next deal's
        page = client.get(url + "?edit=0").content.decode()
        assert "Cecilia 1 deals and sits out this deal." in page
        assert "tricks_2" not in deal_form(page)


def test_priffe_correction_form_is_the_deal_as_entered(client):
    table, url = phone_page(priffe_table())
    enter(
        client, table, url,
        {"kind": "hand", "sits": "1", "tricks_own": "9", "bid_0": "pass", "bid_1": "spader",
         "bid_2": "hjärter", "bid_3": "pass", "honours_holder": "2", "honours_pattern": "3"},
        {"kind": "tvangsnoll", "sits": "1", "declarer": "1", "tricks_own": "6"},
        {"kind": "straff", "sits": "1", "offender": "2", "penalty_points": "50",
         "penalty_rule": "revoke"},
        {"kind": "hand", "sits": "1", "contract": "noll", "declarer": "3", "tricks_other": "8"},
    )  # fmt: skip
    page = client.get(url + "?edit=2").content.decode()
    assert 'value="straff" checked' in page and 'value="revoke"' in page
    deals = correct_each_unchanged(client, table, url)
    assert deals[0].bids == ("spader", "hjärter", "pass", "pass")
    # "3 hjärter 9/4 honnörer 2 3", "straff 4 50 rule=…" no more
    shown = _deal_cells(client.get(url).content.decode())
    assert shown[0].startswith("Cecilia 1 hearts 9/4 honours Cecilia 1 3")  # English (#36)
    assert shown[2].startswith("penalty Cecilia 1 50")
    texts = sheet_texts(table)
    assert texts[0].startswith("Cecilia 1 hearts 9/4") and texts[2].startswith("penalty Cecilia 1")


@pytest.mark.parametrize("size", [3, 4])
def test_russian_correction_form_is_the_deal_as_entered(client, size):
    setup = make_table(names=("Anna", "Boris", "Vera", "Gleb")[:size])
    url = reverse("protocol-table", args=[setup.table.url_key])
    # Anna deals first: at four she sits out the first deal and writes the talon's tricks at
    # raspasy (Kodeks 1996, 3.7.6.1), Boris the second
    enter(
        client, setup.table, url,
        {"kind": "game", "declarer": "1", "contract": "7♥", "call_2": "whist",
         "call_3" if size == 4 else "call_0": "whist", "tricks_1": "7", "tricks_2": "2",
         "tricks_3" if size == 4 else "tricks_0": "1", "open": "on"},
        {"kind": "raspasy", **{f"tricks_{p}": t for p, t in enumerate(
            ("4", "3", "3") if size == 3 else ("3", "0", "4", "3"))}},
    )  # fmt: skip
    deals = correct_each_unchanged(client, setup.table, url)
    assert deals[0].open and deals[0].declarer_tricks == 7


def _deal_cells(page: str) -> list[str]:
    """The pulka's deal column as a person reads it."""
    cells = re.findall(r'<tr id="deal-[^"]*"[^>]*>\s*<td class="num">[^<]*</td>\s*<td>(.*?)</td>',
                       page, re.S)  # fmt: skip
    return [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in cells]


def sheet_texts(table) -> list[str]:
    """The filled protocol's deal column (the PDF's words)."""
    protocol = stored_protocol(current(table).data)
    sheet = ui_of_protocol(protocol).filled_sheet(protocol, list(range(len(protocol.deals))))
    return [d["text"] for d in sheet["deals"]]


def test_the_russian_sheet_names_the_players_and_writes_calls_in_the_pages_language(client):
    setup = make_table(names=("Anna Petrova", "Boris", "Vera"))
    url = reverse("protocol-table", args=[setup.table.url_key])
    # Anna Petrova (a name with a space: the notation writes her seat) plays 6♠, Boris whists
    enter(
        client, setup.table, url,
        {"kind": "game", "declarer": "0", "contract": "6♠", "call_1": "whist", "call_2": "pass",
         "tricks_0": "6"},
    )  # fmt: skip
    # the notation's Russian words in the page's language (issue 36: no "ровно" outside Russian)
    assert sheet_texts(setup.table) == ["Anna Petrova 6♠ / exactly w/p"]
    with translation.override("ru"):
        assert sheet_texts(setup.table) == ["Anna Petrova 6♠ / ровно в/п"]
    # the pulka's whists cell says on whom they are written
    page = client.get(url).content.decode()
    assert "W8 → Anna Petrova<br>" in page


def test_a_referees_penalty_offers_no_correct_link_where_the_form_cannot_enter_one(client):
    # the Balkan phone form enters hands and all-pass only: its "correct" would turn the
    # referee's penalty into a hand; Priffe's form has the straff, so it offers one there
    table, url = phone_page(balkan_table())
    enter(client, table, url, {"kind": "allpass"})
    header = stored_protocol(current(table).data)
    protocol_save(
        table=table,
        protocol=header.with_deals((*header.deals, BalkanPenalty(1, rule="3", column=10))),
        based_on_version=current(table).version,
    )
    page = client.get(url).content.decode()
    assert "?edit=0#form" in page and "?edit=1#form" not in page
    table, url = phone_page(priffe_table())
    enter(client, table, url, {"kind": "straff", "sits": "1", "offender": "2",
                               "penalty_points": "50", "penalty_rule": "revoke"})  # fmt: skip
    assert "?edit=0#form" in client.get(url).content.decode()


def test_a_closed_rounds_table_page_offers_no_correct_link(client):
    """Issue 36: no "correct" link on a closed round's table page (the page could not save the
    correction); the same page offers it while the round is open."""
    from tournaments.models import Round

    table, url = phone_page(balkan_table())
    enter(client, table, url, BALKAN_HAND)
    assert 'class="edit"' in client.get(url).content.decode()
    Round.objects.filter(pk=table.round_id).update(state=Round.State.CLOSED)
    page = client.get(url).content.decode()
    assert 'class="edit"' not in page and "?edit=" not in page


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_the_russian_corrections_count_the_dealers_once_and_give_the_same_forms(
    players: int, seed: int
) -> None:
    """The phone's correction forms of a Russian pulka (issue 42) count the deals' dealers by
    one scoring of the whole pulka (001 §3.2.2); each deal's form made alone, as ``?edit=N``
    makes it, is the same (random pulkas played to their end, at three and at four)."""
    ui = ADAPTERS["russian"]
    protocol = random_protocol(random.Random(seed), players=players, target=20)
    assert len(protocol.deals) > 10
    assert ui.correction_forms(protocol) == FamilyUI.correction_forms(ui, protocol)
