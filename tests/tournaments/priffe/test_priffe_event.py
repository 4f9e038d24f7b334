"""A Priffe event through the Django side (issue 27, "Tournaments"): created in the modern
scoring at tables of four, deals entered on the table's phone page with live findings citing
seed 004, confirmed by all four and approved, ranked by the player totals (credited to both
partners), and printed in the below/above-the-line layout."""

from __future__ import annotations

import random
import subprocess
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.variants import VARIANTS
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import EventRole, Protocol, Round, Seat, Table
from tournaments.pdf import contexts as pdf_contexts
from tournaments.pdf import documents as pdf
from tournaments.pdf import protocol_contexts as pdf_protocols
from tournaments.services.events import event_create
from tournaments.services.protocols import (
    protocol_approve,
    protocol_confirm,
    protocol_save,
    stored_protocol,
    table_header,
)
from tournaments.services.standings import standings_recompute
from tournaments.variants import ui_for

pytestmark = pytest.mark.django_db

PRIFFE = VARIANTS["priffe"]
NAMES = ("Anna", "Bertil", "Cecilia", "David")


def priffe_table(*, convention: str = "modern", sits: int = 3, tables: int = 1):
    event = EventFactory(variant=convention, pulka_target=sits, table_size_policy="4")
    round_ = Round.objects.create(event=event, number=1, state=Round.State.IN_PLAY)
    made = []
    for number in range(1, tables + 1):
        table = Table.objects.create(round=round_, number=number, first_dealer=0)
        for position, name in enumerate(NAMES):
            entry = EntryFactory(event=event, player=PlayerFactory(name=f"{name} {number}"))
            Seat.objects.create(round=round_, table=table, position=position, entry=entry)
        made.append(table)
    referee = UserFactory(username=f"ref-{event.slug}")
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    return event, made, referee


def current(table):
    return Protocol.objects.get(table=table, entry_kind="table", is_current=True)


def pdf_text(data: bytes, tmp_path) -> str:
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True)
    return " ".join(out.stdout.split())


def test_a_priffe_event_is_played_at_tables_of_four_for_three_sits():
    organiser = UserFactory(username="org-priffe")
    event = event_create(
        slug="priffe-1", name="Priffe", starts_on="2026-12-12", variant="gammaldags", by=organiser
    )
    assert event.variant == "old" and event.table_size_policy == "4"
    assert event.pulka_target == 3  # three sits: everyone partners everyone (seed 004)
    with pytest.raises(UserFacingError) as exc:
        event_create(
            slug="priffe-2",
            name="Priffe",
            starts_on="2026-12-12",
            variant="modern",
            table_size_policy="mixed",
        )
    assert exc.value.extra["field"] == "table_size_policy" and "(Priffe rules)" in str(exc.value)
    assert ui_for("modern").key == "priffe"


def test_the_table_header_is_a_priffe_game_with_the_partnership_schedule():
    event, (table,), _ = priffe_table(sits=2)
    header = table_header(table)
    assert type(header) is PRIFFE.protocol_type
    assert header.target == 2 and header.convention == "modern"
    # a+c, a+b, a+d from the first dealer (A-PR-5)
    assert header.sittings == ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))


def post_deal(client, url, version, **fields):
    data = {"based_on_version": version, "action": "add", "kind": "hand", **fields}
    r = client.post(url, data)
    assert r.status_code == 302, r.content.decode()[:3000]


def test_phone_page_takes_priffe_deals_and_shows_findings_citing_seed_004(client):
    event, (table,), _ = priffe_table()
    url = reverse("protocol-table", args=[table.url_key])
    page = client.get(url).content.decode()
    assert 'name="tricks_own"' in page and 'name="honours_holder"' in page
    contracts = page[page.index('<select name="contract"') :]
    contracts = contracts[: contracts.index("</select>")]
    # the contracts in the reader's words, the notation's code the value (issue 36: no Swedish
    # contract on an English page; the Swedish page's words are the rule text's)
    assert "forced misère" in page and '<option value="hjärter">hearts<' in contracts
    assert "tvångsnoll" not in page and ">hjärter<" not in contracts
    assert 'value="spader"' not in contracts  # modern: an information bid, not a contract
    with translation.override("sv"):
        swedish = client.get(reverse("protocol-table", args=[table.url_key])).content.decode()
    assert "tvångsnoll" in swedish and '<option value="hjärter">hjärter<' in swedish
    assert "Anna 1 &amp; Cecilia 1 — Bertil 1 &amp; David 1" in page  # sits 1's partnerships
    # Bertil bids hjärter, his side takes 9: 30 under the line, a game; Cecilia holds 3 honours
    post_deal(
        client, url, "", sits="1", contract="hjärter", declarer="1", tricks_own="9",
        honours_holder="2", honours_pattern="3",
    )  # fmt: skip
    v1 = current(table)
    assert v1.error_count == 0, v1.findings
    game = stored_protocol(v1.data)
    assert game.deals[0].tricks == (4, 9)  # side 0 (Anna, Cecilia) took the other four
    totals = [int(r["whists"]) for r in v1.result]
    assert totals == [30, 30, 30, 30]  # 30 honours for Anna & Cecilia, 30 below for B & D
    page = client.get(url).content.decode()
    assert "game won" in page  # Bertil & David's game line
    # tvångsnoll: the side of Anna takes 5 → 20 below for them
    post_deal(client, url, "1", kind="tvangsnoll", sits="1", declarer="0", tricks_own="5")
    game = stored_protocol(current(table).data)
    assert game.deals[1].declarer is None and game.deals[1].tricks == (5, 8)
    # tricks making 14: stored with a finding next to the deal, citing seed 004
    post_deal(
        client, url, "2", sits="1", contract="pref", declarer="2", tricks_own="8", tricks_other="6"
    )
    v3 = current(table)
    assert {f["code"] for f in v3.findings} >= {"TRICKS_SUM"}, v3.findings
    page = client.get(url).content.decode()
    assert "The tricks do not make thirteen" in page and "[Priffe rules, “Number of cards”]" in page
    # a form without a declarer is refused naming the field, nothing lost
    r = client.post(url, {"based_on_version": "3", "action": "add", "kind": "hand",
                          "contract": "noll", "tricks_own": "3"})  # fmt: skip
    assert r.status_code == 400 and "Choose the declarer." in r.content.decode()
    assert current(table).version == 3


def test_the_next_dealer_rotates_through_the_sits_seating(client):
    event, (table,), _ = priffe_table(sits=1)
    ui = ui_for("modern")
    header = table_header(table)
    assert ui.next_dealer(header) == 0
    url = reverse("protocol-table", args=[table.url_key])
    post_deal(client, url, "", sits="1", contract="ruter", declarer="1", tricks_own="7")
    game = stored_protocol(current(table).data)
    assert ui.next_dealer(game) == 1
    page = client.get(url).content.decode()
    assert "deals" in page and "Anna 1" in page


def _played(table, seed, convention="modern"):
    rng = random.Random(seed)
    header = table_header(table)
    for _ in range(300):
        p = PRIFFE.random_protocol(rng, convention=convention, target=3)
        if p.first_dealer == table.first_dealer and p.ending == "closed":
            return p.__class__(
                **{
                    **{f: getattr(p, f) for f in p.__dataclass_fields__},
                    "players": header.players,
                }
            )
    raise AssertionError("no generated game with this first dealer")


def test_confirmed_by_all_four_approved_ranked_by_player_totals_and_printed(tmp_path):
    event, tables, referee = priffe_table(tables=2)
    results = {}
    for k, table in enumerate(tables):
        game = _played(table, 27 + k)
        version = protocol_save(table=table, protocol=game, based_on_version=None)
        assert version.error_count == 0, version.findings
        assert stored_protocol(version.data).sittings == game.sittings  # the seating kept
        seats = list(table.seats.order_by("position"))
        assert len(seats) == 4
        for seat in seats:
            protocol_confirm(protocol=version, seat=seat.position, entry=seat.entry)
        protocol_approve(protocol=version, by=referee)
        totals = PRIFFE.score(game).player_totals
        assert [Fraction(r["whists"]) for r in version.result] == [Fraction(t) for t in totals]
        for seat in seats:
            results[seat.entry_id] = Fraction(totals[seat.position])
    snapshot = standings_recompute(event_id=event.pk)
    rows = snapshot.data["rows"]
    assert {r["entry"]: Fraction(str(r["total"])) for r in rows} == results
    ordered = [Fraction(str(r["total"])) for r in rows]
    assert ordered == sorted(ordered, reverse=True)
    # the filled sheet: per sits the partnerships, över / under strecket, game lines
    context = pdf_protocols.filled_protocol_context(table=tables[0])
    assert context["layout"] == "sits"
    assert len(context["sits"]) >= 2 and len(context["settlement"]) == 4
    text = pdf_text(pdf.render("filled", context).data, tmp_path)
    first = context["sits"][0]
    for word in ("above the line", "below the line", "game won", "Player totals", first["sides"][0]):
        assert word in text, (word, text[:500])
    assert f"Sits won by {first['winner']}" in text
    blank = pdf_contexts.blank_protocols_context(
        round_=tables[0].round, base_url="http://pulka.test/"
    )
    assert blank["layout"] == "pdf/blank_protocol_priffe.html"
    assert [s["sides"] for s in blank["tables"][0]["sits"]] == [
        ["Anna 1 & Cecilia 1", "Bertil 1 & David 1"],
        ["Anna 1 & Bertil 1", "Cecilia 1 & David 1"],
        ["Anna 1 & David 1", "Bertil 1 & Cecilia 1"],
    ]
    text = pdf_text(pdf.render("blank", blank).data, tmp_path)
    assert "Bertil 1 & Cecilia 1" in text and "below the line" in text


def test_the_tiebreaks_offered_are_the_priffe_counters(client):
    from tournaments.standings.metrics import tiebreak_keys_for

    keys = tiebreak_keys_for(PRIFFE.stat_keys)
    assert {"sits_won", "games_won", "contracts_made", "contracts_failed", "slams"} <= set(keys)
    assert "raspasy_won" not in keys and "defences_failed" not in keys
