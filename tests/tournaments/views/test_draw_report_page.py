"""The round page's draw report speaks the page's language, names players, and says how the
tables were made (issue 4: "a referee can answer 'why am I with him again?'")."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import Avoidance
from tournaments.seating import report as seating_report
from tournaments.services.rounds import (
    round_close,
    round_create,
    round_draw,
    round_publish,
    round_start,
)

pytestmark = pytest.mark.django_db


def six_players_three_rounds():
    """Six players at tables of three: round 3 must repeat (each has met four of five)."""
    event = EventFactory(table_size_policy="3", rounds_planned=3)
    entries = [EntryFactory(event=event) for _ in range(6)]
    Avoidance.objects.create(event=event, first=entries[0], second=entries[1], reason="family")
    for _ in range(3):
        r = round_create(event=event)
        round_draw(round_=r)
        if r.number < 3:
            round_publish(round_=r)
            round_start(round_=r)
            round_close(round_=r, unfinished_reason="no protocols in this test")
    r.refresh_from_db()
    return event, entries, r


def test_the_russian_round_page_translates_the_report_and_names_the_players(client):
    event, entries, third = six_players_three_rounds()
    assert third.draw_report["summary"]["repeated meetings"] > 0
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(f"/ru/e/{event.slug}/manage/rounds/3/").content.decode()
    assert "Как составлены столы" in page  # the draw's notes, under their heading
    assert third.draw_report["notes"][0].startswith("round 3 of the plan made after round 1")
    assert "тур 3 плана, составленного после тура 1 на туры 2–3 (tabu search" in page
    assert "повторные встречи: <strong>" in page and "repeated meetings" not in page
    assert "метод: <strong>Без повторных встреч" in page
    assert "неизбежно: не встречались ещё только" in page  # the reason, in Russian
    # where nobody repeats, the why column shows the constraints, naming the other player
    first = client.get(f"/ru/e/{event.slug}/manage/rounds/1/").content.decode()
    assert f"не должен встречаться с: {entries[1].player.name}" in first
    assert f"must not meet {entries[1].pk}" not in first


def test_the_english_page_shows_the_stored_reasons_with_names(client):
    event, entries, third = six_players_three_rounds()
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(f"/e/{event.slug}/manage/rounds/3/").content.decode()
    assert "How the tables were made" in page
    assert "repeated meetings: <strong>" in page
    assert "unavoidable: only" in page
    first = client.get(f"/e/{event.slug}/manage/rounds/1/").content.decode()
    assert f"must not meet {entries[0].player.name}" in first


def test_a_round_action_says_its_success_in_the_pages_language(client):
    """The success messages are translated per request, not once at import (in English)."""
    event = EventFactory(table_size_policy="3", rounds_planned=2)
    for _ in range(6):
        EntryFactory(event=event)
    round_draw(round_=round_create(event=event))
    client.force_login(UserFactory(is_superuser=True))
    page = client.post(
        "/ru" + reverse("manage-round-action", args=[event.slug, 1, "publish"]), follow=True
    )
    assert "Тур опубликован." in page.content.decode()
    assert event.rounds.get(number=1).state == "published"


@pytest.mark.parametrize(
    "stored, shown",
    [
        (seating_report.NOT_AVOIDED, "not avoided: the draw found no seating without it"),
        (seating_report.UNAVOIDABLE.format(unmet=1), "unavoidable: only 1 players present"),
        (seating_report.MUST_SIT.format(table=4), "must sit at table 4"),
        ("a reason from a later engine", "a reason from a later engine"),
    ],
)
def test_each_stored_reason_is_shown(stored, shown):
    from tournaments.words.draw_report import why

    assert why(stored, {}).startswith(shown)


def test_a_note_names_the_players_who_left(client):
    """ "In the history but not present: [ids]" is shown with the players' names."""
    from tournaments.services.entries import entry_withdraw

    event, entries, _third = six_players_three_rounds()
    event.rounds_planned = 4
    event.save()
    for _ in range(4):
        EntryFactory(event=event)
    entry_withdraw(entry=entries[2])  # 6 + 4 − 1 = 9 players: three tables
    round_ = round_create(event=event)
    round_draw(round_=round_)
    round_.refresh_from_db()
    assert any(n.startswith("in the history but not present") for n in round_.draw_report["notes"])
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(f"/e/{event.slug}/manage/rounds/4/").content.decode()
    assert f"played before, not in this draw: {entries[2].player.name}" in page


@pytest.mark.parametrize(
    ("stored", "english", "russian"),
    [
        ("tabu search", "tabu search", "tabu search"),  # a construction keeps its name
        ("Kirkman triple system", "Kirkman triple system", "Kirkman triple system"),
        ("tabu search over all rounds", "tabu search over all rounds", "tabu search по всем турам"),
        (
            "tabu search over all rounds, 1 repeated meeting(s) left; CP-SAT proved no schedule "
            "without repeats exists for 12 players over 4 rounds",
            "tabu search over all rounds, 1 repeated meeting left; CP-SAT proved that no "
            "schedule without repeats exists for 12 players over 4 rounds",
            "tabu search по всем турам, осталась 1 повторная встреча; CP-SAT доказал, что "
            "расписания без повторов нет (игроков: 12, туров: 4)",
        ),
        (
            "Kirkman triple system completing the first round, 3 repeated meeting(s) left; "
            "CP-SAT: no answer within its budget",
            "Kirkman triple system, completing the first round, 3 repeated meetings left; "
            "CP-SAT found no answer within its time budget",
            "Kirkman triple system, дополняя первый тур, осталось 3 повторные встречи; CP-SAT "
            "не нашёл ответа за отведённое время",
        ),
        (
            "CP-SAT found a schedule without repeats (OR-Tools 9.11)",
            "CP-SAT found a schedule without repeats (OR-Tools 9.11)",
            "CP-SAT нашёл расписание без повторов (OR-Tools 9.11)",
        ),
    ],
)
def test_how_the_engine_made_the_tables_reads_in_the_pages_language(stored, english, russian):
    """Issue 29: the draw report's construction note was an English sentence on every page
    ("… 2 repeated meeting(s) left; CP-SAT proved no schedule … exists"); the names of the
    constructions stay, the sentence around them is translated, with the plural."""
    from django.utils import translation

    from tournaments.words.draw_report import construction, note

    with translation.override("en"):
        assert construction(stored) == english
        assert note(stored, {}) == english
    with translation.override("ru"):
        assert construction(stored) == russian


def test_a_fixed_player_absent_from_the_draw_is_named_in_words():
    from django.utils import translation

    from tournaments.words.draw_report import note

    with translation.override("en"):
        assert note("must_sit for 12 ignored: not present this round", {12: "Ann Bell"}) == (
            "Ann Bell is fixed at a table but not drawn this round: the fixing is not used"
        )


def test_a_player_the_event_no_longer_has_is_said_in_words_not_by_id():
    """Issue 29: a note, a reason or a report row naming an entry the event does not hold (an
    entry deleted since, an imported draw's id the event cannot relate) read "#57"."""
    from django.utils import translation

    from tournaments.words.draw_report import note, rows, why

    report = {
        "players": [
            {"id": 57, "table": 1, "met_before": [[58, [1, 2]]], "repeats": [58], "why": ""}
        ]
    }
    with translation.override("en"):
        gone = "a player not found in this event"
        assert note("in the history but not present: [57, 12]", {12: "Ann Bell"}) == (
            f"played before, not in this draw: {gone}, Ann Bell"
        )
        assert note("must_sit for 57 ignored: not present this round", {}).startswith(gone)
        assert why(seating_report.MUST_NOT_MEET.format(entry=57), {}) == f"must not meet {gone}"
        (row,) = rows(report, {})
        assert row["name"] == gone and row["repeats"] == [gone]
        assert row["met_before"] == [f"{gone} (1, 2)"]
    with translation.override("ru"):
        (row,) = rows(report, {})
        assert "#" not in row["name"] and row["name"] != gone
