"""Issue 36: "The Viennese game in a German-speaking club reads in German (Topf, aus der Hand,
Herz, geht mit / bleibt daheim, Zwangsspiel…); the Swedish words of its rule text are for
/sv/." The phone form and the deal lines of a Viennese table on a German page, and the same
table on a Swedish page."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.tournaments.pot.test_pot_event import current, post_deal, pot_table
from tests.tournaments.views.test_words_not_codes import shown_text

pytestmark = pytest.mark.django_db

SWEDISH = ("går med", "stannar hemma", "bjuder in", "tvång", "utan köp", "hjärter", "åtta",
           "rundpass", "pott")  # fmt: skip


def _deal_rows(page: str) -> str:
    return " ".join(re.findall(r'<tr id="deal-\d+" class="deal[^"]*"[^>]*>(.*?)</tr>', page, re.S))


def test_a_viennese_table_on_a_german_page_reads_german(client):
    _event, (table,), _ = pot_table(options={"max_amount": 30})
    path = reverse("protocol-table", args=[table.url_key])
    url = "/de" + path
    page = shown_text(client.get(url).content.decode())
    for word in ("mitgehen", "daheim bleiben", "einladen", "Zwangsspiel", "1 aus der Hand",
                 "Herz", "fünf", "acht aus der Hand", "alle passen", "Topf"):  # fmt: skip
        assert word in page, word
    for word in SWEDISH:
        assert word not in page, word
    assert "Alle passen" in page and "Alle passen (alle passen)" not in page  # said once
    post_deal(client, url, None, declarer="0", contract="1", defence_1="forced",
              defence_2="forced", tricks_1="3", tricks_2="3")  # fmt: skip
    post_deal(client, url, 1, declarer="1", contract="4u", defence_2="home", defence_0="go",
              tricks_1="7", tricks_0="3")  # fmt: skip
    assert current(table).error_count == 0, current(table).findings
    page = html.unescape(client.get(url).content.decode())
    rows = _deal_rows(page)
    assert "Zwangsspiel, Zwangsspiel" in rows and "Herz / daheim bleiben, mitgehen" in rows, rows
    for word in SWEDISH:
        assert word not in shown_text(page), word
    # the rule text's own words on a Swedish page
    url = "/sv" + path
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    page = html.unescape(response.content.decode())
    rows = _deal_rows(page)
    assert "tvång, tvång" in rows and "hjärter / stannar hemma, går med" in rows, rows


GERMAN = ("mitgehen", "daheim bleiben", "aus der Hand", "Prämie", "alle passen", "Topf")


@pytest.mark.parametrize(
    "language, words",
    [
        ("hr", ("dolazi", "ne dolazi", "prisilna igra", "1 iz ruke", "herc", "pot", "svi dalje")),
        ("sr-latn", ("dolazi", "ne dolazi", "1 iz ruke", "herc", "pot")),
        ("ru", ("вистует", "пасует", "обязательная игра", "1 без прикупа", "черви", "банк")),
        ("en", ("goes along", "stays home", "forced play", "1 without the talon", "hearts", "pot")),
    ],
)
def test_a_viennese_table_reads_the_readers_words_in_every_language(client, language, words):
    """Issue 36: the Viennese game was Swedish on hr, sr-latn, ru and en pages; the form's
    choices and the deal lines say the reader's words (the Swedish only on /sv/)."""
    _event, (table,), _ = pot_table(options={"max_amount": 30})
    url = ("" if language == "en" else f"/{language}") + reverse(
        "protocol-table", args=[table.url_key]
    )
    post_deal(client, url, None, declarer="0", contract="1", defence_1="forced",
              defence_2="forced", tricks_1="3", tricks_2="3")  # fmt: skip
    post_deal(client, url, 1, declarer="1", contract="4u", defence_2="home", defence_0="go",
              tricks_1="7", tricks_0="3")  # fmt: skip
    assert current(table).error_count == 0, current(table).findings
    page = shown_text(html.unescape(client.get(url).content.decode()))
    for word in words:
        assert word in page, word
    for word in SWEDISH:
        assert word not in page, word


@pytest.mark.parametrize("language", ["hr", "en", "sv"])
def test_a_german_table_reads_the_readers_words_outside_german(client, language):
    _event, (table,), _ = pot_table(convention="german", first_dealer=0)
    url = ("" if language == "en" else f"/{language}") + reverse(
        "protocol-table", args=[table.url_key]
    )
    page = shown_text(html.unescape(client.get(url).content.decode()))
    for word in GERMAN:
        assert word not in page, word
