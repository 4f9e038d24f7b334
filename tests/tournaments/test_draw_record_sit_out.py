"""Who sits a round out, re-checked by ``draw_verify`` (issue 29): players beyond a multiple
of four sit out in turn, fewest rounds out first, then by a lot drawn from the round's seed
(``tournaments/seating/remainder.py``). The draw record carries what that choice depended on
besides the seed — the players' earlier rounds out as the draw counted them, and who was fixed
at a table (``input.remainder``, docs/draw-record.md) — so the choice is made again from the
record alone, and on the site's machine compared with the sit-outs stored there."""

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.conftest import kept_for_the_module
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.archive.export import event_archive
from tournaments.archive.load import event_archive_import
from tournaments.models import Entry, Event, Round
from tournaments.services.draw_record import draw_record
from tournaments.services.rounds import round_commit_seed, round_create, round_draw

pytestmark = pytest.mark.django_db


def _three_rounds() -> int:
    """13 players at tables of four, one sitting out each round: three rounds drawn (the
    schedule's searches take seconds: 12 players at fours over 4 rounds must repeat)."""
    event = EventFactory(
        variant="modern", pulka_target=1, table_size_policy="4", rounds_planned=4,
        fours_remainder="sit_out",
    )  # fmt: skip
    for _ in range(13):
        EntryFactory(event=event, status=Entry.Status.CHECKED_IN)
    for _ in range(3):
        round_draw(round_=round_commit_seed(round_=round_create(event=event)))
    return event.pk


@pytest.fixture(scope="module")
def _event_key(django_db_setup, django_db_blocker):
    """The event, drawn once for the module (tests/conftest.py)."""
    yield from kept_for_the_module(django_db_blocker, _three_rounds)


@pytest.fixture
def event(db, _event_key):
    """The module's event, read afresh for the test."""
    return Event.objects.get(pk=_event_key)


def check(record: dict, tmp_path, capsys) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    call_command("draw_verify", record=str(path))
    return capsys.readouterr().out


def check_fails(record: dict, tmp_path, capsys) -> str:
    with pytest.raises(CommandError, match="verification failed"):
        check(record, tmp_path, capsys)
    return capsys.readouterr().out


def check_here_fails(slug: str, number: int, capsys) -> str:
    """``draw_verify EVENT ROUND`` on this site's database, which must fail: its output."""
    with pytest.raises(CommandError, match="verification failed"):
        call_command("draw_verify", slug, str(number))
    return capsys.readouterr().out


def test_the_record_carries_the_earlier_sit_outs_and_the_choice_is_made_again(
    event, tmp_path, capsys
):
    round3 = Round.objects.get(event=event, number=3)
    record = draw_record(round3)
    earlier = [Round.objects.get(event=event, number=n).sitting_out[0] for n in (1, 2)]
    assert record["input"]["remainder"]["rounds_out"] == {str(e): 1 for e in sorted(earlier)}
    assert record["input"]["remainder"]["fixed"] == []
    (sitter,) = round3.sitting_out
    assert sitter not in earlier  # nobody sits out twice before everyone has once
    out = check(record, tmp_path, capsys)
    assert (
        f"who sits out ({sitter}) follows from the seed and the earlier sit-outs "
        "(2 of the 13 players had sat out before)"
    ) in out
    assert out.rstrip().endswith("verified")
    # the first round: nobody had sat out before
    out = check(draw_record(Round.objects.get(event=event, number=1)), tmp_path, capsys)
    assert "(0 of the 13 players had sat out before)" in out
    # on the site's machine: the sit-outs stored here are those drawn and counted
    call_command("draw_verify", event.slug, "3")
    out = capsys.readouterr().out
    assert f"the players sitting out here are those drawn ({sitter})" in out
    assert "the earlier rounds' sit-outs stored here are those the draw counted" in out


def test_a_tampered_sitter_or_count_is_detected(event, tmp_path, capsys):
    round3 = Round.objects.get(event=event, number=3)
    record = draw_record(round3)
    (sitter,) = record["input"]["sitting_out"]
    # another player named as the sitter, the real one among the players drawn
    tampered = copy.deepcopy(record)
    entry = tampered["input"]["entries"][0]
    other, entry["id"] = entry["id"], sitter
    tampered["input"]["sitting_out"] = [other]
    out = check_fails(tampered, tmp_path, capsys)
    assert f"who sits out differs: recorded {other}, the seed and the earlier sit-outs give" in out
    # the counts changed so that only another player is due
    tampered = copy.deepcopy(record)
    rounds_out = tampered["input"]["remainder"]["rounds_out"]
    everyone = [e["id"] for e in tampered["input"]["entries"]] + [sitter]
    tampered["input"]["remainder"]["rounds_out"] = {str(e): 1 for e in everyone if e != other}
    assert rounds_out != tampered["input"]["remainder"]["rounds_out"]
    out = check_fails(tampered, tmp_path, capsys)
    assert (
        f"who sits out differs: recorded {sitter}, the seed and the earlier sit-outs give {other}"
        in out
    )
    # here: the stored sitter is not the one drawn
    Round.objects.filter(pk=round3.pk).update(sitting_out=[other])
    out = check_here_fails(event.slug, 3, capsys)
    assert f"the players sitting out here ({other}) are not those drawn ({sitter})" in out
    # here: an earlier round's stored sit-out is not the one the draw counted
    Round.objects.filter(pk=round3.pk).update(sitting_out=[sitter])
    round1 = Round.objects.get(event=event, number=1)
    (first,) = round1.sitting_out
    Round.objects.filter(pk=round1.pk).update(sitting_out=[sitter])
    out = check_here_fails(event.slug, 3, capsys)
    assert "the earlier rounds' sit-outs stored here are not those the draw counted" in out
    assert (
        f"{first} sat out 0 here, 1 counted" in out and f"{sitter} sat out 1 here, 0 counted" in out
    )


def test_an_older_record_verifies_saying_the_sit_outs_were_not_rechecked(event, tmp_path, capsys):
    record = draw_record(Round.objects.get(event=event, number=3))
    del record["input"]["remainder"]["rounds_out"], record["input"]["remainder"]["fixed"]
    (sitter,) = record["input"]["sitting_out"]
    out = check(record, tmp_path, capsys)
    assert (
        f"who sat out ({sitter}) was not re-checked: the record does not carry the earlier "
        "sit-outs the choice depended on"
    ) in out
    assert out.rstrip().endswith("verified")


def test_an_imported_rounds_sit_outs_are_checked_through_its_entry_ids(event, capsys):
    organiser = UserFactory(is_superuser=True)
    document = json.loads(json.dumps(event_archive(event=event)))
    copy_ = event_archive_import(document=document, by=organiser, slug="copy")
    here = Round.objects.get(event=copy_, number=3)
    drawn = Round.objects.get(event=event, number=3)
    assert here.sitting_out != drawn.sitting_out  # this event's ids, not the draw's
    call_command("draw_verify", "copy", "3")
    out = capsys.readouterr().out
    assert f"the players sitting out here are those drawn ({drawn.sitting_out[0]})" in out
    assert "the earlier rounds' sit-outs stored here are those the draw counted" in out
