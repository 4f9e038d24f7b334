"""Seed 002 "Example of Scoring", notes (a)–(p), deal by deal (variants.md §1.5)."""

import pytest

from scoring.balkan.score import pairwise_results, score

from .worked_example import PROTOCOL, TABLE


@pytest.fixture(scope="module")
def scored():
    return score(PROTOCOL)


@pytest.mark.parametrize("index", range(len(TABLE)))
def test_columns_after_every_deal(scored, index):
    note, value, columns = TABLE[index]
    deal = scored.deals[index]
    assert deal.columns == columns, f"note ({note})"
    assert deal.capped_value == value, f"note ({note})"


def test_final_soups_and_settlement(scored):
    # soups[writer][against]: A 166 vs B, 132 vs C; B 24 vs A, 54 vs C; C 188 vs A, 168 vs B
    assert scored.soups == ((0, 166, 132), (24, 0, 54), (188, 168, 0))
    assert scored.columns == (42, -24, -18)
    # 002 "Example of Scoring": A +506, B -496, C -10
    assert scored.settlement == (506, -496, -10)
    assert scored.ended and scored.ended_at == 14 and scored.zero_sum
    assert scored.findings == ()


def test_notes_in_detail(scored):
    d = scored.deals
    # (b): "they each score 12 against" C (variants.md §1.5 item 1: not against A)
    assert d[0].soup_delta == ((0, 0, 12), (0, 0, 12), (0, 0, 0))
    # (d): one refa for each, (e) A uses his: value 20, C 60 against A
    assert d[2].refa_given and d[2].refas == (1, 1, 1)
    assert d[3].refa_used and d[3].multiplier == 2 and d[3].soup_delta[2][0] == 60
    assert d[3].refas == (0, 1, 1)
    # (f): host A writes all 4 tricks at 20
    assert d[4].host == 0 and d[4].guest == 1 and d[4].soup_delta[0][2] == 80
    # (g): kontra ×2, no second refa for A; B fails and writes 24 against A
    assert d[5].multiplier == 2 and not d[5].refa_used and d[5].failed == (1,)
    assert d[5].soup_delta[1][0] == 24 and d[5].column_delta == (8, -8, 0)
    # (h): B's bettel lost with his refa: -24, A and C 120 each
    assert d[6].made is False and d[6].column_delta[1] == -24
    assert d[6].soup_delta[0][1] == 120 and d[6].soup_delta[2][1] == 120
    # (i): C under the hat; (j): loses it again, B (1 trick) not penalised
    assert d[7].hats == ((2, "up"),) and d[8].hats == ((2, "down"),)
    assert d[8].failed == () and d[8].made is False
    # (k): rekontra ×4; C fails with 4 defence tricks, writes 128
    assert d[9].multiplier == 4 and d[9].failed == (2,) and d[9].soup_delta[2][0] == 128
    assert d[9].hats == ((0, "up"),)
    # (n): both drop: no play, no soups
    assert d[12].kind == "no-play" and d[12].capped_value == 12
    assert not any(map(any, d[12].soup_delta))
    # (p): end cap: 10 → 6, the defence tricks at 6 too (A-HR-2)
    assert d[14].value == 10 and d[14].capped and d[14].capped_value == 6
    assert d[14].soup_delta[0][1] == 6 and d[14].soup_delta[2][1] == 18


def test_pairwise_sums_to_the_settlement():
    r = pairwise_results(PROTOCOL)
    assert tuple(sum(row) for row in r) == (506, -496, -10)
    assert all(r[p][q] == -r[q][p] for p in range(3) for q in range(3))


def test_deal_stats_of_the_example():
    from scoring.balkan.score import deal_stats
    from scoring.variants import VARIANTS

    stats = deal_stats(PROTOCOL)
    assert all(set(s) == set(VARIANTS["balkan"].stat_keys) for s in stats)
    # A declared (e), (g), (k), (o); B (c), (h), (m), (n), (p) and lost (h); C lost (j)
    assert [(s["games"], s["games_made"], s["games_lost"]) for s in stats] == [
        (4, 4, 0), (5, 4, 1), (5, 4, 1)]
    # kontras: B at (g), C at (k); each failed once there; one refa used each
    assert [s["kontras"] for s in stats] == [0, 1, 1]
    assert [s["defences_failed"] for s in stats] == [0, 1, 1]
    assert [s["refas_used"] for s in stats] == [1, 1, 1] and stats[0]["defences"] == 7
