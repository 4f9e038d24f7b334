"""The Balkan deal form (issue 24 §4) turns garbage into an error naming the field, never a
500; the event's game size is refused in the family's words (issue 25)."""

from __future__ import annotations

import dataclasses

import pytest
from django.urls import reverse

from tournaments.errors import UserFacingError
from tournaments.models import Protocol
from tournaments.services.protocols import protocol_save, table_header
from tournaments.variants import ui_for

from .test_balkan_event import balkan_table

pytestmark = pytest.mark.django_db

HAND = {
    "kind": "hand",
    "declarer": "0",
    "contract": "3",
    "defence_1": "play",
    "defence_2": "play",
    "tricks_1": "2",
    "tricks_2": "2",
}

GARBAGE = [
    ({"declarer": "Ana"}, "declarer"),
    ({"declarer": "7"}, "declarer"),
    ({"contract": "pik"}, "contract"),
    ({"contract": "9"}, "contract"),
    ({"defence_1": "maybe"}, "defence"),
    ({"kontra": "lots"}, "kontra"),
    ({"kontra": "9", "kontra_by": "1"}, "kontra"),
    ({"kontra": "-1", "kontra_by": "1"}, "kontra"),
    ({"kontra": "1"}, "kontra_by"),
    ({"kontra": "1", "kontra_by": "5"}, "kontra_by"),
    ({"kontra": "1", "kontra_by": "-2"}, "kontra_by"),
    ({"kontra": "1", "kontra_by": "x"}, "kontra_by"),
    ({"tricks_1": "two"}, "tricks_1"),
    ({"tricks_2": "-3"}, "tricks_2"),
    ({"tricks_0": "11"}, "tricks_0"),
    ({"tricks_1": "1.5"}, "tricks_1"),
]


@pytest.mark.parametrize(("bad", "field"), GARBAGE)
def test_garbage_is_an_error_naming_the_field(bad, field):
    event, (table,), _ = balkan_table()
    with pytest.raises(UserFacingError) as caught:
        ui_for("balkan").deal_from_post({**HAND, **bad}, table_header(table), dealer=1)
    assert caught.value.extra["field"] == field


def test_garbage_on_the_phone_page_is_shown_and_loses_nothing(client):
    event, (table,), _ = balkan_table()
    url = reverse("protocol-table", args=[table.url_key])
    r = client.post(url, {"based_on_version": "", "action": "add", **HAND})
    assert r.status_code == 302
    for bad, _field in GARBAGE:
        post = {"based_on_version": "1", "action": "add", **HAND, **bad}
        r = client.post(url, post)
        assert r.status_code in (200, 400), (bad, r.status_code)
        page = r.content.decode()
        assert 'class="error' in page or 'role="alert"' in page, bad
    saved = Protocol.objects.get(table=table, entry_kind="table", is_current=True)
    assert saved.version == 1 and len(saved.data["deals"]) == 1  # nothing lost, nothing added


def test_a_protocol_of_another_bula_is_refused_in_the_familys_words():
    event, (table,), _ = balkan_table(bula=50)
    other = dataclasses.replace(table_header(table), bula=30)
    with pytest.raises(UserFacingError) as caught:
        protocol_save(table=table, protocol=other, based_on_version=None)
    assert str(caught.value).startswith("bula: this event plays bula 50;")
    assert caught.value.extra == {"field": "bula", "expected": 50}


def test_the_blank_balkan_sheet_carries_each_tables_qr_code(tmp_path):
    import subprocess

    from tournaments.pdf import contexts as pdf_contexts
    from tournaments.pdf import documents as pdf

    event, tables, _ = balkan_table(tables=2)
    context = pdf_contexts.blank_protocols_context(
        round_=tables[0].round, base_url="http://pulka.test/"
    )
    rendered = pdf.render("blank", context)
    path = tmp_path / "blank.pdf"
    path.write_bytes(rendered.data)
    images = subprocess.run(
        ["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    assert len(images) == 2  # one QR code per table's sheet
    text = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    assert flat.count("Enter this table's protocol") == 4  # beside the code and at the foot
    assert flat.count("Page 1 / 2") == 1  # a sheet a page
    for table in tables:
        assert table.url_key in " ".join(text.split()).replace(" ", "")


def test_the_standings_pages_name_the_families_unit(client):
    from tests.tournaments.balkan.test_balkan_event import _played
    from tournaments.services.protocols import protocol_approve
    from tournaments.services.standings import standings_recompute

    event, (table,), referee = balkan_table()
    version = protocol_save(table=table, protocol=_played(table, 3), based_on_version=None)
    protocol_approve(protocol=version, by=referee, confirm_missing=True)
    standings_recompute(event_id=event.pk)
    page = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert "final calculation&#x27;s points" in page and "(Croatian rules, “Scoring”)" in page
    assert "sum of whists" not in page
    page = client.get(reverse("standings-round", args=[event.slug, 1])).content.decode()
    assert '<th class="num">Points</th>' in page and ">Whists<" not in page
