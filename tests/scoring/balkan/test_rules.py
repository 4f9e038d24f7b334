"""Each Croatian rule, Serbian and Slovenian difference and each option, with its source."""

import pytest

from scoring.balkan.check import check
from scoring.balkan.jsonio import JsonFormatError, from_dict
from scoring.balkan.notation import NotationError, parse
from scoring.balkan.protocol import AllPass, BalkanProtocol, Defence, Hand, Penalty
from scoring.balkan.score import deal_stats, score

PLAY, DROP, INVITE = Defence.PLAY, Defence.DROP, Defence.INVITE
NAMES = ("A", "B", "C")


def game(*deals, bula=30, convention="croatian", ending="in-progress", **options):
    return BalkanProtocol(NAMES, bula, tuple(deals), convention=convention,
                          options=tuple(sorted(options.items())), ending=ending)


def codes(scored):
    return [f.code for f in scored.findings]


# --- Croatian (seed 002 main text) -------------------------------------------------

def test_value_is_twice_contract_plus_igra():
    # 002 "Scoring": acorns 10, game in acorns 12
    assert score(game(Hand(0, 5, tricks=(6, 2, 2)))).deals[0].value == 10
    assert score(game(Hand(0, 5, True, tricks=(6, 2, 2)))).deals[0].value == 12


def test_defender_alone_needs_two():
    # 002 "The Defenders' Decisions": "If one defender plays and wins two or more tricks, he is safe"
    s = score(game(Hand(0, 3, defence=(PLAY, DROP), tricks=(9, 1, 0))))
    assert s.deals[0].failed == (1,) and s.columns == (-24, -36, -30)
    assert s.soups[1][0] == 6


@pytest.mark.parametrize("split, failed", [((2, 1), (2,)), ((1, 1), (1, 2)), ((3, 0), (2,)),
                                           ((2, 2), ()), ((4, 0), ())])
def test_both_playing_team_rule(split, failed):
    # 002 "The Defenders' Decisions" (three tricks: the one with one or none pays) and note (j)
    tricks = (10 - sum(split), *split)
    assert score(game(Hand(0, 3, tricks=tricks))).deals[0].failed == failed


def test_defender_quota_each_option():
    # variants.md §3 "Defender quota": each playing defender needs 2 (note (j) reads the team rule)
    s = score(game(Hand(2, 5, tricks=(4, 1, 5)), defender_quota="each"))
    assert s.deals[0].failed == (1,) and s.columns[1] == -40


def test_invitation_host_answers_for_four_guest_never_pays():
    # 002 "The Defenders' Decisions": invited player always safe; host needs four
    s = score(game(Hand(0, 4, defence=(INVITE, DROP), tricks=(7, 3, 0))))
    assert s.deals[0].host == 1 and s.deals[0].failed == (1,)
    assert s.soups[1][0] == 24 and s.soups[2][0] == 0 and s.columns[2] == -30


def test_kontra_host_needs_five_and_writes_all():
    # 002 "Kontra"; note (k)
    s = score(game(Hand(0, 4, defence=(PLAY, PLAY), kontra=1, kontra_by=2, tricks=(6, 3, 1))))
    d = s.deals[0]
    assert d.multiplier == 2 and d.failed == (2,) and d.host == 2 and d.guest == 1
    assert s.soups[2][0] == 64 and s.soups[1][0] == 0 and s.columns == (-14, -30, -46)


def test_kontra_soups_own_option():
    # variants.md §3 "Kontra soups": each defender writes his own tricks
    s = score(game(Hand(0, 4, kontra=1, kontra_by=2, tricks=(6, 3, 1)), kontra_soups="own"))
    assert s.soups[1][0] == 48 and s.soups[2][0] == 16 and s.deals[0].failed == (2,)


def test_kontra_defence_of_five_defeats():
    s = score(game(Hand(0, 4, kontra=3, kontra_by=1, tricks=(5, 4, 1))))
    d = s.deals[0]
    assert d.made is False and d.failed == () and d.value == 64
    assert s.columns[0] == -94 and s.soups[1][0] == 320


def test_both_drop_declarer_wins_without_soups():
    # 002 "The Defenders' Decisions": "If neither wishes to play then declarer has ... won 10"
    s = score(game(Hand(0, 3, defence=(DROP, DROP))))
    assert s.deals[0].kind == "no-play" and s.columns[0] == -24 and not any(map(any, s.soups))


def test_plain_two_without_kontra_declarer_wins_by_default():
    # 002 "Kontra": "there is no play and the declarer wins ten tricks by default"
    s = score(game(Hand(0, 2)))
    assert s.deals[0].kind == "plain-two" and s.deals[0].outcome == "declarer-wins"
    assert s.columns[0] == -26


def test_plain_two_played_without_kontra_is_a_finding():
    s = score(game(Hand(0, 2, tricks=(6, 2, 2))))
    assert codes(s) == ["KONTRA_MISSING"] and s.deals[0].kind == "not-scored"
    assert s.columns == (-30, -30, -30)


def test_two_with_refa_is_not_plain():
    # variants.md A-HR-5: a declarer with a refa may play the two without kontra
    s = score(game(AllPass(), Hand(0, 2, tricks=(6, 2, 2))))
    assert s.deals[1].kind == "played" and s.deals[1].value == 8 and codes(s) == []


def test_bettel_lost_each_defender_five_values():
    # 002 "Scoring": non-game bettel lost: each defender 60, the declarer 12
    s = score(game(Hand(0, 6, tricks=(1, 5, 4))))
    assert s.columns[0] == -42 and s.soups[1][0] == 60 and s.soups[2][0] == 60
    s = score(game(Hand(0, 6, True, tricks=(2, 4, 4))))
    assert s.columns[0] == -44 and s.soups[1][0] == 70


def test_bettel_won_no_soups():
    # variants.md §1.5 item 5 (notes (i), (o))
    s = score(game(Hand(0, 6, tricks=(0, 5, 5))))
    assert s.columns[0] == -18 and not any(map(any, s.soups))


@pytest.mark.parametrize("option, writers", [("host", (2,)), ("each", (1, 2))])
def test_bettel_kontra_option_and_warning(option, writers):
    # variants.md A-HR-1 and §9: undefined by the seed; scored per the option, with a warning
    s = score(game(Hand(0, 6, kontra=1, kontra_by=2, tricks=(1, 5, 4)), bettel_kontra=option))
    assert codes(s) == ["BETTEL_KONTRA"] and s.findings[0].citation == '002 "Kontra"'
    assert s.ok  # a warning
    assert tuple(w for w in (1, 2) if s.soups[w][0]) == writers
    assert all(s.soups[w][0] == 120 for w in writers) and s.columns[0] == -54


def test_drop_in_bettel_is_a_finding():
    s = score(game(Hand(0, 6, defence=(PLAY, DROP), tricks=(1, 9, 0))))
    assert codes(s) == ["DROP_IN_BETTEL"] and s.deals[0].kind == "not-scored"


def test_refa_doubles_oldest_first_one_per_hand():
    # 002 "Refa"; notes (e), (g); bula 50 gives three rounds
    s = score(game(AllPass(), AllPass(), Hand(0, 3, tricks=(6, 2, 2)),
                   Hand(0, 3, tricks=(6, 2, 2)), bula=50))
    assert s.deals[2].refa_used_from == 0 and s.deals[3].refa_used_from == 1
    assert s.deals[2].value == 12 and s.refas == (0, 2, 2)


def test_refa_limit_and_hat():
    # 002 "Refa": from 30 just one refa; none while anybody is above zero
    s = score(game(AllPass(), AllPass()))
    assert [d.outcome for d in s.deals] == ["refa", "no-effect"] and s.refas == (1, 1, 1)
    s = score(game(Hand(0, 5, True, defence=(DROP, DROP)), Hand(0, 5, True,
                   defence=(DROP, DROP)), Hand(0, 5, True, defence=(DROP, DROP)), AllPass()))
    assert s.columns[0] == 6 and s.deals[3].outcome == "no-effect"


def test_exactly_zero_is_not_under_the_hat():
    # variants.md A-HR-3
    s = score(game(Hand(0, 5, defence=(DROP, DROP)), Hand(0, 5, defence=(DROP, DROP)),
                   Hand(0, 5, defence=(DROP, DROP)), AllPass(), bula=30))
    assert s.columns[0] == 0 and s.deals[3].refa_given and s.deals[2].hats == ()


def test_refa_count_per_player_option():
    # variants.md §3 "Refa count": blocked once any player holds the maximum
    played = (Hand(0, 3, tricks=(6, 2, 2)), Hand(1, 3, tricks=(2, 6, 2)),
              Hand(2, 3, tricks=(2, 2, 6)))
    p = game(AllPass(), AllPass(), AllPass(), *played, AllPass(), bula=50,
             refa_count="per_player")
    assert score(p).refas == (3, 3, 3)
    assert score(p.with_options(refa_count="rounds")).refas == (2, 2, 2)


def test_end_cap_only_when_declarer_wins_and_nobody_fails():
    # 002 "Ending the Game": a failed defender: scored in full, the game goes on
    base = (Hand(0, 5, True, defence=(DROP, DROP)),) * 7  # 7 × 12 = 84 of the 90
    s = score(game(*base, Hand(1, 5, tricks=(2, 6, 2))))
    assert s.deals[-1].capped and s.deals[-1].capped_value == 6 and s.ended
    assert s.soups[0][1] == 12 and s.soups[2][1] == 12
    s = score(game(*base, Hand(1, 5, defence=(PLAY, DROP), tricks=(0, 9, 1))))
    assert not s.deals[-1].capped and not s.ended and s.columns[1] == -20


def test_end_cap_off_option():
    # variants.md §3 "End cap": no cap, the game ends when the sum is >= 0
    base = (Hand(0, 5, True, defence=(DROP, DROP)),) * 7
    s = score(game(*base, Hand(1, 5, tricks=(2, 6, 2)), end_cap=False))
    assert not s.deals[-1].capped and s.deals[-1].capped_value == 10 and s.ended
    assert sum(s.columns) == 4 and s.settlement == (540 + 20, -200 - 40, -300 + 20)
    assert sum(s.settlement) == 40 and not s.zero_sum


def test_deal_after_end_is_a_finding():
    s = score(game(*(Hand(0, 5, True, defence=(DROP, DROP)),) * 8, Hand(1, 3, tricks=(2, 6, 2))))
    assert s.deals[7].capped_value == 6
    assert s.ended_at == 7 and codes(s) == ["DEAL_AFTER_END"]
    assert s.deals[8].outcome == "after-end" and s.zero_sum


def test_stopped_early_settlement_is_not_zero_sum():
    # variants.md A-HR-4: the formula applied as it stands
    s = score(game(Hand(0, 3, tricks=(6, 2, 2)), ending="time-limit"))
    assert s.settlement == (-240 - 24, -300 + 12, -300 + 12)
    assert sum(s.settlement) == 10 * sum(s.columns) and not s.zero_sum and s.stopped_early
    assert codes(s) == ["STOPPED_EARLY"] and s.ok
    # cited as every Balkan finding is: a section of seed 002, not the reading aid's id
    assert s.findings[0].citation == '002 "Ending the Game"'


def test_penalty_entry():
    s = score(game(Penalty(1, "referee", column=10, soups=((0, 20), (2, 5)))))
    assert s.columns == (-30, -40, -30) and s.soups[0][1] == 20 and s.soups[2][1] == 5
    assert deal_stats(game(Penalty(1, column=2)))[1]["penalties"] == 1


# --- Serbian (seed 002 "variations played in Serbia") -----------------------------

def test_serbian_pik_without_kontra_gives_a_refa():
    s = score(game(Hand(0, 2), convention="serbian"))
    assert s.deals[0].outcome == "refa" and s.refas == (1, 1, 1)


def test_serbian_pik_scores_only_under_the_hat():
    hat = (Hand(0, 5, True, defence=(DROP, DROP)),) * 3  # A at +6: no refa possible
    s = score(game(*hat, Hand(0, 2), Hand(1, 2), convention="serbian", bula=30))
    assert s.deals[3].outcome == "declarer-wins" and s.deals[3].column_delta[0] == 4
    assert s.deals[4].outcome == "no-score" and s.deals[4].column_delta == (0, 0, 0)


def test_serbian_pik_refa_or_score_option():
    hat = (Hand(0, 5, True, defence=(DROP, DROP)),) * 3
    s = score(game(*hat, Hand(1, 2), convention="serbian", plain_two="refa_or_score"))
    assert s.deals[3].outcome == "declarer-wins" and s.columns[1] == -26


def test_serbian_refa_limit_one_per_thirty():
    assert score(game(convention="serbian", bula=100)).refa_limit == 3


def test_serbian_preferans_won_and_failed():
    s = score(game(Hand(0, 8, tricks=(10, 0, 0)), convention="serbian", preferans=True))
    assert s.deals[0].value == 16 and s.columns[0] == -14
    s = score(game(Hand(0, 8, tricks=(9, 1, 0)), convention="serbian", preferans=True))
    assert codes(s) == ["UNDEFINED"] and s.findings[0].citation == '002 "variations played in Serbia"'
    assert s.deals[0].kind == "not-scored" and s.deals[0].outcome == "undefined"


def test_preferans_needs_the_option():
    assert codes(score(game(Hand(0, 8, tricks=(10, 0, 0)), convention="serbian"))) == ["CONTRACT"]


# --- Slovenian (seed 002 "variations played in Slovenia") --------------------------

def test_slovenian_leaves_without_kontra_thrown_in_with_radlc():
    s = score(game(Hand(0, 2), convention="slovenian"))
    assert s.deals[0].outcome == "thrown-in" and s.deals[0].refa_given
    assert s.columns == (-30, -30, -30) and s.refas == (1, 1, 1)
    # A-SI-1: the same limit; with the limit reached, nothing
    s = score(game(Hand(0, 2), Hand(1, 2), convention="slovenian"))
    assert not s.deals[1].refa_given and s.refas == (1, 1, 1)


def test_kontra_limit_option():
    s = score(game(Hand(0, 4, kontra=3, kontra_by=1, tricks=(6, 2, 2)), kontra_limit=2))
    assert codes(s) == ["KONTRA_LEVEL"]


# --- A two by a refa holder nobody kontras (option plain_two_refa, issue #37) --------------

def test_refa_holders_two_carries_the_croatian_exception_by_default():
    # 002 "Kontra": a plain two is one "without 'game' and without refa"; the Serbian and
    # Slovenian variations do not repeat it and the default carries it over: the two is played
    for convention in ("serbian", "slovenian"):
        s = score(game(AllPass(), Hand(0, 2, tricks=(6, 2, 2)), convention=convention))
        assert s.deals[1].kind == "played" and s.deals[1].refa_used and codes(s) == []


def test_refa_holders_two_unplayed_under_the_default_names_the_option():
    s = score(game(AllPass(), Hand(0, 2), convention="slovenian"))
    assert codes(s) == ["TRICKS_MISSING"] and "plain_two_refa" in str(s.findings[0])
    # both defenders dropping is the way to record it unplayed (002 "The Defenders' Decisions")
    s = score(game(AllPass(), Hand(0, 2, defence=(DROP, DROP)), convention="slovenian"))
    assert s.deals[1].kind == "no-play" and s.columns[0] == -22


def test_slovenian_refa_holders_two_as_written_is_thrown_in():
    # 002 "variations played in Slovenia": "If the contract is leaves (2) and no one says Kontra,
    # the hand is thrown in without score"; bula 50 allows three radlcs: a second one is given
    s = score(game(AllPass(), Hand(0, 2), bula=50, convention="slovenian",
                   plain_two_refa="included"))
    d = s.deals[1]
    assert codes(s) == [] and d.kind == "plain-two" and d.outcome == "thrown-in"
    assert d.refa_given and not d.refa_used and s.refas == (2, 2, 2)
    assert s.columns == (-50, -50, -50)


def test_serbian_refa_holders_two_as_written_gives_a_refa_or_scores_under_the_hat():
    # 002 "variations played in Serbia": "a contract of 2 (spades) is not thrown in but causes
    # a refa if no one is under the hat and there have not yet been enough refe"
    s = score(game(AllPass(), Hand(0, 2), bula=60, convention="serbian",
                   plain_two_refa="included"))
    assert s.deals[1].outcome == "refa" and s.refas == (2, 2, 2) and codes(s) == []
    # "The declarer scores for a contract of 2 if he is under the hat": his refa doubles it
    refas = (AllPass(),) * 3  # three refas each
    hat = (Hand(0, 7, True, defence=(DROP, DROP)),) * 2  # A at −50 + 32 + 32 = +14, one refa left
    s = score(game(*refas, *hat, Hand(0, 2), bula=50, convention="serbian", refa_limit=3,
                   plain_two_refa="included"))
    last = s.deals[-1]
    assert last.outcome == "declarer-wins" and last.refa_used and last.column_delta[0] == 8


def test_plain_two_refa_included_contradicts_the_croatian_text():
    with pytest.raises(ValueError, match="plain_two_refa"):
        score(game(Hand(0, 2), plain_two_refa="included"))


# --- A game agreed without refas (option refas, issue #37) --------------------------------

def test_no_refas_all_pass_has_no_effect():
    # 002 "Refa" gives refas by the bula; a league without them says refas=false
    s = score(game(AllPass(), Hand(0, 3, tricks=(6, 2, 2)), refas=False))
    assert s.refa_limit == 0 and s.deals[0].outcome == "no-effect" and s.refas == (0, 0, 0)
    assert s.deals[1].multiplier == 1 and s.columns[0] == -24
    s = score(game(Hand(0, 2), convention="slovenian", refas=False))
    assert s.deals[0].outcome == "thrown-in" and not s.deals[0].refa_given
    s = score(game(Hand(0, 2), convention="serbian", refas=False))
    assert s.deals[0].outcome == "no-score"


def test_no_refas_with_a_refa_limit_is_refused():
    with pytest.raises(ValueError, match="refa_limit"):
        score(game(refas=False, refa_limit=2))


def test_readers_refuse_options_that_contradict_each_other_naming_them():
    # the options alone are valid; together the reader refuses them (issue #37)
    text = ("format: balkan 1\nconvention: slovenian\noptions: refas=false, refa_limit=2\n"
            "bula: 30\nplayers: A, B, C\n\n1. dalje\n")
    with pytest.raises(NotationError, match="refa_limit") as caught:
        parse(text)
    assert caught.value.line == 3
    data = {"format": "pulka-balkan-protocol", "version": 1, "convention": "croatian",
            "options": {"plain_two_refa": "included"}, "bula": 30, "players": ["A", "B", "C"],
            "deals": []}
    with pytest.raises(JsonFormatError, match=r"\$\.options: .*plain_two_refa"):
        from_dict(data)
    data["options"] = {"plain_two_refa": "included", "plain_two": "thrown_in"}
    assert from_dict(data)[0].options == (("plain_two", "thrown_in"), ("plain_two_refa", "included"))


def test_two_players_with_the_same_name_are_refused_naming_the_field():
    # 002 "Players and Deal": three players, each with his own columns (issue #37)
    same = BalkanProtocol(("A", "A", "A"), 30, ())
    with pytest.raises(ValueError, match="players: seat 2 has the name of seat 1"):
        score(same)
    assert [f.code for f in check(same).findings] == ["TABLE"]
    data = {"format": "pulka-balkan-protocol", "version": 1, "bula": 30,
            "players": ["A", "B", " b"], "deals": []}
    with pytest.raises(JsonFormatError, match=r"\$\.players\[2\]: 'b' is also the name at "
                                              r"\$\.players\[1\]"):
        from_dict(data)


def test_penalty_past_the_bound_is_not_scored():
    # issue #37: every family's penalty amounts have a bound (scoring.model.PENALTY_MAX)
    s = score(game(Penalty(1, "referee", column=10**40), Penalty(1, soups=((0, 10**7),))))
    assert codes(s) == ["PENALTY", "PENALTY"] and s.columns == (-30, -30, -30)
    assert "at most 1000000" in s.findings[0].message
    assert score(game(Penalty(1, column=10**6))).columns[1] == -30 - 10**6
