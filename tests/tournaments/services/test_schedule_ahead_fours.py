"""Issue 29: the rounds ahead at tables of four (issue 27) take the sitters' and substitutes'
turns as the real draws do, instead of keeping the first round's for every round; who sits a
round out is drawn with its seed, so a round whose seed is not chosen yet is not shown (the
page says why). The draw itself orders who sits out by its own seed, also when none was
published before it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.priffe.test_priffe_remainder import priffe_event, seated
from tournaments.models import Round
from tournaments.seating.remainder import sitting_out
from tournaments.services.rounds import (
    round_close,
    round_commit_seed,
    round_create,
    round_draw,
    round_publish,
    round_start,
    schedule_ahead,
)
from tournaments.services.rounds_ahead import _ahead_inputs, _ahead_plan

pytestmark = pytest.mark.django_db


def play(round_: Round) -> None:
    round_publish(round_=round_)
    round_start(round_=round_)
    round_close(round_=round_, unfinished_reason="no protocols in this test")


def plan(event) -> dict:
    found = _ahead_inputs(event)
    return _ahead_plan(event, *found) if found else {"rounds": [], "unknown_from": None}


def test_the_sitters_of_a_round_ahead_follow_its_seed_once_chosen(client):
    event, _entries, _ = priffe_event(13, fours_remainder="sit_out")
    first = round_create(event=event)
    round_draw(round_=first)
    first.refresh_from_db()
    # round 2's seed is not chosen: who sits it out, and so its tables, cannot be known
    assert plan(event) == {"rounds": [], "unknown_from": 2}
    assert schedule_ahead(event=event) == []
    play(first)
    second = round_commit_seed(round_=round_create(event=event))
    ahead = plan(event)
    assert ahead["unknown_from"] == 3  # round 3 has no seed yet
    [planned] = ahead["rounds"]
    assert planned["round"] == 2 and len(planned["sitting_out"]) == 1
    assert planned["sitting_out"] != first.sitting_out  # the turn passes on
    # the organiser's page says who sits out and why the rest is not shown
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("manage-schedule", args=[event.slug])).content.decode()
    name = event.entries.get(pk=planned["sitting_out"][0]).player.name
    assert f"Sitting out: {name}" in page
    assert 'id="plan-unknown"' in page and "From round 3 on the tables cannot be known" in page
    # the draw makes what was planned
    round_draw(round_=second)
    second.refresh_from_db()
    assert second.sitting_out == planned["sitting_out"]
    assert sorted(sorted(t) for t in seated(second)) == sorted(planned["tables"])


def test_substitutes_take_turns_in_the_rounds_ahead():
    """Fourteen players and four substitutes: two substitutes fill the last table each round,
    those who played fewest first; the rounds ahead are the rounds the draws then make."""
    event, _entries, subs = priffe_event(14, substitutes=4, fours_remainder="substitute")
    first = round_create(event=event)
    round_draw(round_=first)
    sub_ids = {s.pk for s in subs}
    played_first = {e for t in seated(first) for e in t} & sub_ids
    ahead = plan(event)
    assert ahead["unknown_from"] is None and [r["round"] for r in ahead["rounds"]] == [2, 3, 4]
    second_subs = {e for t in ahead["rounds"][0]["tables"] for e in t} & sub_ids
    assert second_subs == sub_ids - played_first  # the two who waited play round 2
    play(first)
    for planned in ahead["rounds"]:
        round_ = round_create(event=event)
        round_draw(round_=round_)
        assert sorted(sorted(t) for t in seated(round_)) == sorted(planned["tables"]), planned
        play(round_)


def test_the_draw_orders_who_sits_out_by_its_own_seed():
    """Without a hash published before, the draw's seed is chosen with it; the sitters are
    those that seed orders (not an empty seed's order, the same in every round)."""
    event, entries, _ = priffe_event(13, fours_remainder="sit_out")
    ids = sorted(e.pk for e in entries)
    seed = next(
        f"seed-{i}"
        for i in range(100)
        if sitting_out(ids, k=1, rounds_out={}, seed=f"seed-{i}")
        != sitting_out(ids, k=1, rounds_out={}, seed="")
    )
    round_ = round_draw(round_=round_create(event=event), seed=seed)
    round_.refresh_from_db()
    assert round_.draw_seed == seed
    assert tuple(round_.sitting_out) == sitting_out(ids, k=1, rounds_out={}, seed=seed)
    assert round_.draw_params["input"]["sitting_out"] == round_.sitting_out
