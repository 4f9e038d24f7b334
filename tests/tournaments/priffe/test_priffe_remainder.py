"""A Priffe event whose players are not a multiple of four (issue 27, "Tournaments"): the
organiser's choice, applied by the draw — refuse (saying what to choose), players sitting out
in turn with a stated score (explained on the round page and in the standings), or
substitutes filling the last table (not ranked)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse

from rules.priffe import Contract
from scoring.model import Ending
from scoring.priffe.protocol import Hand
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import Entry, Round
from tournaments.services.events import event_update
from tournaments.services.protocols import protocol_approve, protocol_save, table_header
from tournaments.services.rounds import (
    round_close,
    round_create,
    round_draw,
    round_publish,
    round_start,
)
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def priffe_event(n: int, substitutes: int = 0, **fields):
    event = EventFactory(
        variant="modern", pulka_target=1, table_size_policy="4", rounds_planned=4,
        published=True, **fields,
    )  # fmt: skip
    entries = [EntryFactory(event=event, status=Entry.Status.CHECKED_IN) for _ in range(n)]
    subs = [
        EntryFactory(event=event, status=Entry.Status.CHECKED_IN, substitute=True)
        for _ in range(substitutes)
    ]
    return event, entries, subs


def seated(round_: Round) -> list[list[int]]:
    return [
        [s.entry_id for s in t.seats.order_by("position")] for t in round_.tables.order_by("number")
    ]


def test_by_default_the_draw_refuses_and_says_what_to_choose():
    event, _entries, _ = priffe_event(13)
    round_ = round_create(event=event)
    with pytest.raises(UserFacingError) as err:
        round_draw(round_=round_)
    assert err.value.extra == {"field": "fours_remainder"}
    assert "sit out" in str(err.value) and "substitutes" in str(err.value)
    assert "3.2.10" not in str(err.value)  # a Russian rule has nothing to say about Priffe


def approve_tables(round_: Round, referee) -> None:
    """Every table plays one sits: side 1 wins two hjärter games (seed 004); approved."""
    for table in round_.tables.all():
        header = table_header(table)
        deals = (Hand(0, Contract.HJARTER, header.sittings[0][1], (4, 9)),) * 2
        game = dataclasses.replace(header.with_deals(deals), ending=Ending.CLOSED)
        version = protocol_save(table=table, protocol=game, based_on_version=None)
        assert version.error_count == 0, version.findings
        protocol_approve(protocol=version, by=referee, confirm_missing=True)


def play(round_: Round, referee) -> None:
    round_publish(round_=round_)
    round_start(round_=round_)
    approve_tables(round_, referee)
    round_close(round_=round_)


def test_players_sit_out_in_turn_with_the_stated_score(client):
    event, entries, _ = priffe_event(13, fours_remainder="sit_out", sit_out_score=Decimal(25))
    referee = UserFactory(is_superuser=True)
    out: Counter = Counter()
    for _ in range(1, 4):
        round_ = round_create(event=event)
        round_draw(round_=round_)
        round_.refresh_from_db()
        tables = seated(round_)
        assert [len(t) for t in tables] == [4, 4, 4]
        assert len(round_.sitting_out) == 1
        (sitter,) = round_.sitting_out
        assert sitter not in {e for t in tables for e in t}
        out[sitter] += 1
        play(round_, referee)
    assert len(out) == 3 and set(out.values()) == {1}  # three different players sat out
    # the round page says who sits out and what it is worth
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    name = Entry.objects.get(pk=event.rounds.get(number=1).sitting_out[0]).player.name
    assert "Sitting out this round" in page and name in page and "25 points" in page
    # the standings credit the score for the round sat out
    snapshot = standings_recompute(event_id=event.pk)
    totals = {r["entry"]: Fraction(str(r["total"])) for r in snapshot.data["rows"]}
    for entry in out:
        # two rounds played: 0 or 60 points each (two games of 30), plus 25
        assert totals[entry] % 30 == 25 % 30, (entry, totals[entry])
    page = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert 'id="sit-outs"' in page and "25 points" in page and name in page
    # the organiser changes the score: the standings follow
    event_update(event=event, sit_out_score=Decimal(10))
    snapshot = standings_recompute(event_id=event.pk)
    after = {r["entry"]: Fraction(str(r["total"])) for r in snapshot.data["rows"]}
    for entry in out:
        assert after[entry] == totals[entry] - 15


def test_with_place_points_a_round_sat_out_is_worth_the_average_place(client):
    event, _entries, _ = priffe_event(
        13,
        fours_remainder="sit_out",
        sit_out_score=Decimal(25),
        tiebreaks=[{"round_score": "place_points"}, "whists"],
    )
    referee = UserFactory(is_superuser=True)
    for _ in range(1, 3):
        round_ = round_create(event=event)
        round_draw(round_=round_)
        play(round_, referee)
    snapshot = standings_recompute(event_id=event.pk)
    rows = {r["entry"]: r for r in snapshot.data["rows"]}
    for number in (1, 2):
        (sitter,) = event.rounds.get(number=number).sitting_out
        row = rows[sitter]
        # one round played: side 1 won both games, a table of four shares 3, 2 (2.5 each) and
        # 1, 0 (0.5 each); the round sat out adds the average place, 1.5 — not the 25 points
        (cell,) = row["rounds"].values()
        assert cell["score"] in (2.5, 0.5)
        assert row["sat_out"] == 1.5 and row["total"] == cell["score"] + 1.5
        # the stated score still counts in the whists tie-break
        assert row["metrics"]["whists"] == cell["whists"] + 25
    # the round page and the standings page say what the round sat out is worth
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert "Each is credited 1.50 place points" in page
    page = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert "is credited 1.50 place points in the total" in page


def test_substitutes_fill_the_last_table_and_are_not_ranked(client):
    event, entries, subs = priffe_event(14, substitutes=3, fours_remainder="substitute")
    round_ = round_create(event=event)
    round_draw(round_=round_)
    tables = seated(round_)
    assert [len(t) for t in tables] == [4, 4, 4, 4]
    everyone = {e for t in tables for e in t}
    assert {e.pk for e in entries} <= everyone
    assert len(everyone & {s.pk for s in subs}) == 2  # two fill the table, one waits
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    round_publish(round_=round_)
    page = client.get(reverse("round-seating", args=[event.slug, 1])).content.decode()
    assert "Substitutes filling a table of four" in page
    round_start(round_=round_)
    approve_tables(round_, UserFactory(is_superuser=True))
    snapshot = standings_recompute(event_id=event.pk)
    ranked = {r["entry"] for r in snapshot.data["rows"]}
    assert ranked == {e.pk for e in entries}  # the substitutes are not in the standings
    # in round 2 the substitute who waited plays first (fewest rounds played)
    round_close(round_=round_)
    waiting = ({s.pk for s in subs} - everyone).pop()
    second = round_create(event=event)
    round_draw(round_=second)
    assert waiting in {e for t in seated(second) for e in t}


def test_too_few_substitutes_are_refused_naming_the_field():
    event, _entries, _subs = priffe_event(13, substitutes=1, fours_remainder="substitute")
    round_ = round_create(event=event)
    with pytest.raises(UserFacingError) as err:
        round_draw(round_=round_)
    assert err.value.extra == {"field": "fours_remainder"}
    assert "need 3 substitutes" in str(err.value) and "1 are checked in" in str(err.value)


def test_the_organiser_chooses_on_the_settings_page_and_marks_substitutes(client):
    event, entries, _ = priffe_event(13)
    organiser = UserFactory(is_superuser=True, is_staff=True)
    client.force_login(organiser)
    page = client.get(reverse("manage-settings", args=[event.slug])).content.decode()
    assert 'name="fours_remainder"' in page and 'name="sit_out_score"' in page
    assert 'value="sit_out"' in page and 'value="substitute"' in page
    url = reverse("manage-entry-action", args=[event.slug, entries[0].pk, "substitute"])
    assert client.post(url).status_code == 302
    entries[0].refresh_from_db()
    assert entries[0].substitute
    page = client.get(reverse("manage-entries", args=[event.slug])).content.decode()
    assert "A player, not a substitute" in page
    client.post(reverse("manage-entry-action", args=[event.slug, entries[0].pk, "regular"]))
    entries[0].refresh_from_db()
    assert not entries[0].substitute


def test_a_priffe_draw_spreads_partners_too(monkeypatch):
    """Partners sit opposite (seed 004): the draw's input says so, and the engine is asked for
    the partnerships policy, which also spreads who partners whom over the rounds."""
    from tournaments import seating
    from tournaments.services import rounds

    event, _entries, _ = priffe_event(8)
    asked = []
    real = seating.draw_round

    def spy(*args, **kwargs):
        asked.append(kwargs["policy"])
        return real(*args, **kwargs)

    monkeypatch.setattr(seating, "draw_round", spy)
    round_ = round_create(event=event)
    assert rounds.draw_input(round_)["partnerships"] is True
    round_draw(round_=round_)
    assert asked == [seating.TablePolicy.PARTNERSHIPS]
    russian = EventFactory(variant="sochi", table_size_policy="4")
    assert "partnerships" not in rounds.draw_input(round_create(event=russian))
