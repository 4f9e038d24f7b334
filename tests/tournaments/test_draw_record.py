"""The draw record (issue 4: "the seed (or its hash, published before the draw) lets anyone
re-run the draw with manage.py and get the same tables"): the API gives it for a public
round, and ``draw_verify --record`` checks it with no database rows of the event."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import EventRole
from tournaments.services.rounds import (
    round_commit_seed,
    round_create,
    round_draw,
    round_publish,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory(table_size_policy="mixed", rounds_planned=4)
    for i in range(13):
        EntryFactory(event=event, player__rating=1500 + i)
    return event


def test_the_public_gets_the_record_of_a_public_round_and_anyone_verifies_it(
    event, tmp_path, capsys, django_assert_num_queries
):
    url = f"/api/v1/events/{event.slug}/rounds/1/draw-record"
    round_ = round_commit_seed(round_=round_create(event=event))
    api = APIClient()
    assert api.get(url).status_code == 404  # a draft
    round_draw(round_=round_)
    assert api.get(url).status_code == 404  # drawn, not public yet
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role="referee")
    staff = APIClient()
    staff.force_authenticate(referee)
    assert staff.get(url).status_code == 200  # the event's referees see it once drawn
    round_publish(round_=round_)
    answer = api.get(url)
    assert answer.status_code == 200
    record = answer.json()
    assert record["format"] == "pulka-draw-record" and record["version"] == 1
    assert record["round"] == 1 and record["seed_sha256"] == round_.draw_seed_hash
    assert record["seed_published_at"] < record["drawn_at"]
    assert len(record["tables"]) == 4 and len(record["input"]["entries"]) == 13
    path = tmp_path / "round-1.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with django_assert_num_queries(0):  # the check needs nothing from the database
        call_command("draw_verify", record=str(path))
    out = capsys.readouterr().out
    assert "matches sha256" in out and "before the draw" in out
    assert "the engine gives the same 4 tables" in out and out.rstrip().endswith("verified")


def test_a_tampered_or_foreign_record_fails(event, tmp_path, capsys):
    from tournaments.services.draw_record import draw_record

    round_ = round_draw(round_=round_create(event=event))  # no hash published before
    record = draw_record(round_)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    call_command("draw_verify", record=str(path))
    assert "not published before the draw" in capsys.readouterr().out
    record["tables"][0]["seats"].reverse()
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CommandError, match="verification failed"):
        call_command("draw_verify", record=str(path))
    assert "table 1: recorded" in capsys.readouterr().out
    record["seed"] = "another seed"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CommandError, match="verification failed"):
        call_command("draw_verify", record=str(path))
    assert "does not match the published hash" in capsys.readouterr().out
    for bad, says in (
        ({**record, "format": "something"}, "format"),
        ({**record, "version": 2}, "version"),
        ({**record, "input": {}}, "input: missing"),
        ({**record, "input": {"entries": "many"}}, "input: the engine cannot read it"),
        ({**record, "drawn_at": "yesterday"}, "drawn_at: 'yesterday' is not an ISO 8601"),
        ({**record, "drawn_at": "2026-12-05T10:00:00"}, "drawn_at: .* has no UTC offset"),
    ):
        path.write_text(json.dumps(bad), encoding="utf-8")
        with pytest.raises(CommandError, match=says):
            call_command("draw_verify", record=str(path))
    path.write_text("not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("draw_verify", record=str(path))
    path.write_text("[" * 100_000, encoding="utf-8")  # issue 25 item 7: no RecursionError
    with pytest.raises(CommandError, match="nested too deeply"):
        call_command("draw_verify", record=str(path))
    with pytest.raises(CommandError, match="not both"):
        call_command("draw_verify", event.slug, "1", record=str(path))


def test_the_documented_record_verifies(tmp_path, capsys):
    """docs/draw-record.md shows a real record: it must pass the check as it stands."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "draw-record.md").read_text("utf-8")
    [block] = re.findall(r"```json\n(.*?)```", doc, re.S)
    path = tmp_path / "doc.json"
    path.write_text(block, encoding="utf-8")
    call_command("draw_verify", record=str(path))
    out = capsys.readouterr().out
    assert "before the draw" in out and out.rstrip().endswith("verified")


def test_corrections_after_the_draw_are_public_and_in_the_record(event, client, capsys):
    """A swap after publication changes the seating players see: the round's page says what
    changed, when and why, and the record lists it beside the tables as drawn (which still
    verify)."""
    import json as json_

    from django.urls import reverse

    from tournaments.services.rounds import seats_swap

    round_ = round_publish(round_=round_draw(round_=round_create(event=event)))
    page_url = reverse("round-seating", args=[event.slug, 1])
    assert 'id="corrections"' not in client.get(page_url).content.decode()
    first, second = (t.seats.order_by("position").first() for t in round_.tables.all()[:2])
    seats_swap(round_=round_, first=first.entry_id, second=second.entry_id, reason="wrong hall")
    page = client.get(page_url).content.decode()
    assert 'id="corrections"' in page and "wrong hall" in page
    assert first.entry.player.name in page.split('id="corrections"')[1]
    record = APIClient().get(f"/api/v1/events/{event.slug}/rounds/1/draw-record").json()
    [swap] = record["corrections"]
    assert swap["action"] == "seats.swapped" and swap["reason"] == "wrong hall"
    assert record["tables"] == round_.draw_params["tables"]  # the draw as the engine made it
    call_command("draw_verify", event.slug, "1")
    out = capsys.readouterr().out
    assert "verified" in out and "correction" in out and "wrong hall" in out
    json_.dumps(record)  # JSON-safe
