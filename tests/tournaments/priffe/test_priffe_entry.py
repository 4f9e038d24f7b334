"""The Priffe phone form's auction and penalty (tournaments.variants.priffe): each player's bid
stored in speaking order from forehand and checked against seed 004 "Budgivning" as a live
finding; a blank contract and declarer taken from the auction; a penalty entered in its sits."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from rules.priffe import Contract
from scoring.priffe.protocol import Hand, Penalty
from tournaments.services.protocols import stored_protocol
from tournaments.variants.priffe import line_in_words

from .test_priffe_event import current, post_deal, priffe_table

pytestmark = pytest.mark.django_db

ANNA, BERTIL, CECILIA, DAVID = range(4)


def bids(**said):
    return {f"bid_{p}": word for p, word in said.items()}


def test_the_form_has_a_bid_per_player_and_a_penalty_kind(client):
    event, (table,), _ = priffe_table()
    page = client.get(reverse("protocol-table", args=[table.url_key])).content.decode()
    for p in range(4):
        assert f'name="bid_{p}"' in page
    # an information bid is a bid, in the reader's words (issue 36)
    assert '<option value="spader">spades</option>' in page
    assert '<option value="pass">pass</option>' in page
    assert 'value="straff"' in page and 'name="offender"' in page
    assert 'name="penalty_points"' in page


def test_bids_are_stored_from_forehand_and_give_the_contract_and_declarer(client):
    event, (table,), _ = priffe_table()
    url = reverse("protocol-table", args=[table.url_key])
    # Anna deals sits 1's first deal: Bertil speaks first. Cecilia's hjärter is the contract.
    post_deal(
        client, url, "", sits="1", tricks_own="9",
        **bids(**{"0": "pass", "1": "spader", "2": "hjärter", "3": "pass"}),
    )  # fmt: skip
    version = current(table)
    assert version.error_count == 0, version.findings
    (deal,) = stored_protocol(version.data).deals
    assert deal == Hand(
        0, Contract.HJARTER, CECILIA, (9, 4), bids=("spader", "hjärter", "pass", "pass")
    )
    # the next deal: Bertil deals, Cecilia speaks first; four passes give tvångsnoll
    post_deal(
        client, url, "1", sits="1", declarer=str(BERTIL), tricks_own="6",
        **bids(**{"0": "pass", "1": "pass", "2": "pass", "3": "pass"}),
    )  # fmt: skip
    deal = stored_protocol(current(table).data).deals[1]
    assert deal.contract is Contract.TVANGSNOLL and deal.declarer is None
    assert deal.tricks == (7, 6) and deal.bids == ("pass",) * 4


def test_an_illegal_auction_is_stored_with_its_finding_citing_seed_004(client):
    event, (table,), _ = priffe_table()
    url = reverse("protocol-table", args=[table.url_key])
    # David is the third speaker: spader is an information bid of the first two only
    post_deal(
        client, url, "", sits="1", contract="ruter", declarer=str(ANNA), tricks_own="7",
        **bids(**{"0": "ruter", "1": "pass", "2": "pass", "3": "spader"}),
    )  # fmt: skip
    version = current(table)
    codes = {f["code"] for f in version.findings}
    assert "AUCTION_INFORMATION" in codes, version.findings
    finding = next(f for f in version.findings if f["code"] == "AUCTION_INFORMATION")
    assert "information bid" in finding["message"], finding
    assert (finding["source"], finding["rule"]) == ("004", "Budgivning"), finding
    page = client.get(url).content.decode()
    assert "[Priffe rules, “" in page
    # bids that give another contract than the one written: a finding too
    post_deal(
        client, url, "1", sits="1", contract="pref", declarer=str(CECILIA), tricks_own="7",
        **bids(**{"0": "pass", "1": "pass", "2": "noll", "3": "pass"}),
    )  # fmt: skip
    found = [f for f in current(table).findings if f["deal"] == 1]
    assert {f["code"] for f in found} == {"AUCTION_CONTRACT"}, found


def test_a_partial_or_unknown_auction_is_refused_naming_the_field(client):
    event, (table,), _ = priffe_table()
    url = reverse("protocol-table", args=[table.url_key])
    base = {"based_on_version": "", "action": "add", "kind": "hand", "sits": "1",
            "contract": "ruter", "declarer": "1", "tricks_own": "7"}  # fmt: skip
    r = client.post(url, {**base, **bids(**{"0": "pass", "1": "ruter"})})
    assert r.status_code == 400
    assert "Give Cecilia 1&#x27;s bid" in r.content.decode()
    r = client.post(url, {**base, **bids(**{"0": "pass", "1": "trumf", "2": "pass", "3": "pass"})})
    assert r.status_code == 400 and "&#x27;trumf&#x27; is not a bid." in r.content.decode()
    assert not table.protocols.exists()


def test_a_penalty_is_entered_in_the_sits_chosen(client):
    event, (table,), _ = priffe_table()
    url = reverse("protocol-table", args=[table.url_key])
    post_deal(client, url, "", sits="1", contract="ruter", declarer=str(BERTIL), tricks_own="7")
    post_deal(
        client, url, "1", kind="straff", sits="1", offender=str(CECILIA), penalty_points="50",
        penalty_rule="revoke",
    )  # fmt: skip
    version = current(table)
    assert version.error_count == 0, version.findings
    assert stored_protocol(version.data).deals[1] == Penalty(0, CECILIA, 50, "revoke")
    # Bertil & David: 10 below and 50 above; Anna & Cecilia nothing
    assert [int(r["whists"]) for r in version.result] == [0, 60, 0, 60]
    r = client.post(url, {"based_on_version": "2", "action": "add", "kind": "straff",
                          "sits": "1", "penalty_points": "50", "penalty_rule": "x"})  # fmt: skip
    assert r.status_code == 400 and "Choose the offender." in r.content.decode()
    r = client.post(url, {"based_on_version": "2", "action": "add", "kind": "straff",
                          "sits": "1", "offender": "2", "penalty_rule": "x"})  # fmt: skip
    assert r.status_code == 400 and "Give the penalty" in r.content.decode()
    assert current(table).version == 2


def test_the_referee_desk_reads_the_priffe_notation_with_bids_and_a_straff(client):
    event, (table,), referee = priffe_table()
    client.force_login(referee)
    url = reverse("protocol-referee", args=[event.slug, 1, 1])
    text = (
        "sits 1: 1, 2, 3, 4\n"
        '1. "Bertil 1" hjärter 9/4 {hjärter pass spader pass}\n'
        '2. straff "Cecilia 1" 50 rule=revoke\n'
    )
    r = client.post(
        url,
        {"notation": text, "ending": "in-progress", "based_on_version": "", "entry_kind": "table"},
    )
    assert r.status_code == 302, r.content.decode()[:3000]
    version = current(table)
    game = stored_protocol(version.data)
    assert game.deals == (
        Hand(0, Contract.HJARTER, BERTIL, (4, 9), bids=("hjärter", "pass", "spader", "pass")),
        Penalty(0, CECILIA, 50, "revoke"),
    )
    assert [f["code"] for f in version.findings] == ["AUCTION_INFORMATION", "AUCTION_NOT_HIGHER"], version.findings
    page = client.get(url).content.decode()
    assert "A bid against the bidding rules" in page and "[Priffe rules, “Bidding”]" in page


@pytest.mark.parametrize(
    "language, said",
    [
        ("en", "Bertil hearts 8/5 honours Cecilia 3 {pass spades hearts pass}"),
        ("de", "Bertil Herz 8/5 Honneurs Cecilia 3 {passe Pik Herz passe}"),
        ("hr", "Bertil herc 8/5 honeri Cecilia 3"),
        ("ru", "Bertil черви 8/5 онёры Cecilia 3"),
        ("sv", "Bertil hjärter 8/5 honnörer Cecilia 3 {pass spader hjärter pass}"),
    ],
)
def test_a_deal_line_says_the_games_words_in_the_readers_language(language, said):
    """Issue 36: the deal lines (the pulka page, the filled sheet) say the contract, the bids
    and the honours in the reader's words; /sv/ the rule text's own; a quoted rule as written."""
    line = "Bertil hjärter 8/5 honnörer Cecilia 3 {pass spader hjärter pass}"
    with translation.override(language):
        assert line_in_words(line).startswith(said)
        assert line_in_words('straff David 50 rule="hjärter"').endswith('="hjärter"')
