"""A Swiss draw through the services (issue 4: "Swiss-like: group by current standings, then
minimise repeats inside groups"): the draw reads the stored standings, records them in its
input (so ``draw_verify`` re-runs it), and seats players of similar score together."""

import random

import pytest

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.selectors.standings import scores_for_draw
from tournaments.services.rounds import round_create, round_draw
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def test_a_swiss_round_groups_players_by_the_stored_standings():
    event, entries = make_event(players=18, table_size_policy="3")
    play_round(event, entries, 1, rng=random.Random(4))
    standings_recompute(event_id=event.pk)
    scores = scores_for_draw(event=event)
    assert len(scores) == 18
    round_ = round_create(event=event)
    round_draw(round_=round_, method="swiss")
    round_.refresh_from_db()
    assert round_.draw_method == "swiss"
    recorded = {int(k): v for k, v in round_.draw_params["input"]["standings"].items()}
    assert recorded == scores
    ranked = sorted(scores, key=lambda e: -scores[e])
    rank = {e: i for i, e in enumerate(ranked)}
    tables = [list(t.seats.values_list("entry_id", flat=True)) for t in round_.tables.all()]
    assert sorted(len(t) for t in tables) == [3] * 6
    # each table holds players close in the standings: much closer than a random draw would
    assert max(max(rank[e] for e in t) - min(rank[e] for e in t) for t in tables) <= 8
    assert round_.draw_report["summary"]["repeated meetings"] == 0
