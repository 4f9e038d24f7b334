"""The referee's text box in every family (issue 36 "Entering and correcting"): it shows the
family's own examples (never the Russian ones on a Viennese, German or Priffe event), each
example reads on a table of that game, a first name is enough where no one else at the table
has it, and a protocol entered on the phone is shown so that it saves back unchanged (a Priffe
protocol with its sits' seatings)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.notation_lexer import players_named
from tournaments.models import Protocol
from tournaments.services.protocols import notation_read, stored_protocol

from ..balkan.test_balkan_event import balkan_table
from ..pot.test_pot_event import pot_table
from ..priffe.test_priffe_event import priffe_table

pytestmark = pytest.mark.django_db

RUSSIAN_EXAMPLE = "ровно w/p"

TABLES = {
    "balkan": lambda: balkan_table(),
    "viennese": lambda: pot_table(first_dealer=2),
    "german": lambda: pot_table(convention="german", first_dealer=0),
    "priffe": lambda: priffe_table(),
}


def current(table):
    return Protocol.objects.get(table=table, entry_kind="table", is_current=True)


def desk(client, event, referee):
    client.force_login(referee)
    return reverse("protocol-referee", args=[event.slug, 1, 1])


def examples(page: str) -> tuple[list[str], list[str]]:
    """The deal lines the box's label quotes, and the sheet lines of the hint below it."""
    label = re.search(r'<label for="notation">(.*?)</label>', page, re.S).group(1)
    hint = re.search(r'</label>\s*<p class="muted">(.*?)<a ', page, re.S).group(1)
    unquote = lambda s: s.replace("&#x27;", "'").replace("&quot;", '"')  # noqa: E731
    return (
        [unquote(x) for x in re.findall(r"“([^”]+)”", label)],
        [unquote(x) for x in re.findall(r"“([^”]+)”", hint)],
    )


@pytest.mark.parametrize("game", list(TABLES))
def test_the_box_shows_the_familys_own_examples_and_each_reads_with_first_names(client, game):
    event, (table,), referee = TABLES[game]()
    page = client.get(desk(client, event, referee)).content.decode()
    deals, sheet = examples(page)
    assert deals and sheet, game
    assert RUSSIAN_EXAMPLE not in page and "распасы" not in page, game
    # the table's players are "Anna 1", "Bertil 1" …: the examples name them by first name
    lead = [line for line in deals if line.startswith("sits ")]
    for line in deals:
        if line in lead:
            continue
        protocol, _sheet = notation_read(table, "\n".join([*lead, line]))
        assert len(protocol.deals) == 1, (game, line)
    protocol, _sheet = notation_read(table, "\n".join([*lead, deals[len(lead)], sheet[0]]))
    assert _sheet is not None, (game, sheet[0])


def test_first_names_where_unique_at_the_table():
    players = ("Ana Kovač", "Ana Babić", "Boris Horvat")
    assert players_named(players, "boris") == [2] and players_named(players, "Ana") == []
    assert players_named(players, "ana kovač") == [0]


def test_a_priffe_protocol_entered_on_the_phone_saves_back_unchanged_from_the_box(client):
    event, (table,), referee = priffe_table()
    phone = reverse("protocol-table", args=[table.url_key])
    deals = [
        {"kind": "hand", "sits": "1", "contract": "hjärter", "declarer": "1", "tricks_own": "9"},
        {"kind": "hand", "sits": "1", "contract": "ruter", "declarer": "0", "tricks_own": "10"},
        {"kind": "hand", "sits": "2", "contract": "noll", "declarer": "2", "tricks_own": "5"},
    ]
    for n, fields in enumerate(deals):
        based_on = str(current(table).version) if n else ""
        r = client.post(phone, {"based_on_version": based_on, "action": "add", **fields})
        assert r.status_code == 302, r.content.decode()[:2000]
    before = stored_protocol(current(table).data)
    url = desk(client, event, referee)
    page = client.get(url).content.decode()
    text = re.search(r'<textarea id="notation"[^>]*>(.*?)</textarea>', page, re.S).group(1)
    text = text.replace("&quot;", '"').replace("&#x27;", "'")
    assert text.startswith("sits 1: ")
    r = client.post(
        url,
        {"notation": text, "ending": str(before.ending), "based_on_version": "3",
         "entry_kind": "table"},
    )  # fmt: skip
    assert r.status_code == 302, re.findall(r'role="alert">(.*?)<', r.content.decode())
    after = stored_protocol(current(table).data)
    assert current(table).version == 4 and after.deals == before.deals
    assert after.sittings == before.sittings
    # deals typed without any sits line stand under the draw's first sits
    protocol, _sheet = notation_read(table, "Bertil hjärter 9/4\nAnna ruter 10")
    assert protocol.sittings[0] == before.sittings[0]
    assert [d.sits for d in protocol.deals] == [0, 0]


def test_the_round_page_says_who_partners_whom_in_each_sits(client):
    event, (table,), referee = priffe_table()  # Anna 1 deals first: a+c, a+b, a+d (A-PR-5)
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert "Sits 1: Anna 1 &amp; Cecilia 1 against Bertil 1 &amp; David 1" in page
    assert "Sits 2: Anna 1 &amp; Bertil 1 against Cecilia 1 &amp; David 1" in page
    assert "Sits 3: Anna 1 &amp; David 1 against Bertil 1 &amp; Cecilia 1" in page
    client.force_login(referee)
    page = client.get("/sv" + reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert "Sits 2: Anna 1 &amp; Bertil 1 mot Cecilia 1 &amp; David 1" in page
    event, (table,), referee = balkan_table()  # no partnerships: nothing said
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert "against" not in page and 'class="partners"' not in page
