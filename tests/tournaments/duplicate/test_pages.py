"""A duplicate event's pages: the table's boards on its phone link (the family's deal form),
the traveller with the hand record once the round is closed, a referee's correction, the
standings, the organisers' preparation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.duplicate.factories import nine_player_event, seat_duplicate_round
from tournaments.models import Board, BoardResult, EventRole, Round
from tournaments.selectors.duplicate import table_plays
from tournaments.services.duplicate import duplicate_deal_boards

pytestmark = pytest.mark.django_db


def six_spades_made(declarer: int, whister: int) -> dict[str, str]:
    post = {"kind": "game", "declarer": str(declarer), "contract": "6♠"}
    for seat in range(3):
        post[f"call_{seat}"] = "" if seat == declarer else "whist" if seat == whister else "pass"
        post[f"tricks_{seat}"] = "6" if seat == declarer else "4" if seat == whister else "0"
    return post


@pytest.fixture
def evening():
    event = nine_player_event()
    duplicate_deal_boards(event=event, seed="snowfall")
    return event, seat_duplicate_round(event, 1)


def test_the_table_enters_its_boards_on_the_phone(client, evening, django_capture_on_commit_callbacks):
    event, round_ = evening
    table = round_.tables.get(number=1)
    url = reverse("duplicate-table", args=[table.url_key])
    page = client.get(url).content.decode()
    assert "Board 1" in page and 'name="tricks_0"' in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"board": "1", **six_spades_made(0, 1)})
    assert answer.status_code == 302
    result = BoardResult.objects.get(table=table, board__number=1)
    assert result.values == ["16/3", "4/3", "-20/3"]
    page = client.get(url).content.decode()
    assert "Board 2" in page  # the next board without a result
    # a board of another round is not this table's
    bad = client.post(url, {"board": "4", **six_spades_made(0, 1)})
    assert BoardResult.objects.filter(table=table).count() == 1 and bad.status_code in (200, 400)
    # tricks that do not add up are refused naming the problem, nothing saved
    wrong = six_spades_made(0, 1) | {"tricks_1": "9"}
    answer = client.post(url, {"board": "2", **wrong})
    assert answer.status_code == 400 and 'role="alert"' in answer.content.decode()
    assert BoardResult.objects.filter(table=table).count() == 1


def test_correct_opens_the_boards_form_filled_with_the_result_as_entered(
    client, evening, django_capture_on_commit_callbacks
):
    """As an ordinary protocol's "Correct" does (issue 29): the board's form shows the deal as
    the table entered it, not a blank form; a blank board's form stays blank."""
    event, round_ = evening
    table = round_.tables.get(number=1)
    url = reverse("duplicate-table", args=[table.url_key])
    blank = client.get(url + "?board=1").content.decode()
    assert 'value="6" selected' not in blank and "selected>Anna" not in blank
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"board": "1", **six_spades_made(1, 2)})
    page = client.get(url).content.decode()
    assert 'href="?board=1#form">correct' in page
    form = client.get(url + "?board=1").content.decode().split('id="form"', 1)[1]
    seats = {s.position: s.entry.player.name for s in table.seats.select_related("entry__player")}
    assert f'<option value="1" selected>{seats[1]}</option>' in form  # the declarer
    assert 'value="6♠" selected' in form  # the contract
    assert 'name="tricks_1"' in form and 'value="6"' in form.split('name="tricks_1"', 1)[1][:160]
    assert 'value="4"' in form.split('name="tricks_2"', 1)[1][:160]
    # the form as shown saves the same result again (a correction with nothing changed)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"board": "1", **six_spades_made(1, 2)})
    assert answer.status_code == 302
    result = BoardResult.objects.get(table=table, board__number=1)
    assert result.version == 2 and result.values == ["-20/3", "16/3", "4/3"]


def test_the_traveller_shows_the_hand_record_once_the_round_is_closed(
    client, evening, django_capture_on_commit_callbacks
):
    event, round_ = evening
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.all():
            client.post(
                reverse("duplicate-table", args=[table.url_key]),
                {"board": "1", **six_spades_made(table.number - 1, table.number % 3)},
            )
    url = reverse("duplicate-board", args=[event.slug, 1])
    page = client.get(url).content.decode()
    assert "Traveller" in page and page.count("ровно") == 3 and page.count("traveller-table") == 3
    assert "The hand record is shown once the round is closed." in page
    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    page = client.get(url).content.decode()
    assert "Talon" in page and "♠" in page
    standings = client.get(reverse("duplicate", args=[event.slug])).content.decode()
    assert "Duplicate standings" in standings and "Anna" in standings


def test_a_referee_corrects_a_closed_rounds_result(client, evening, django_capture_on_commit_callbacks):
    event, round_ = evening
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    client.force_login(referee)
    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    url = reverse("duplicate-board", args=[event.slug, 2])
    answer = client.post(url, {"table": "2", "deal": "1 6S ровно w/p"})
    assert answer.status_code == 400  # a closed round's correction needs its reason
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"table": "2", "deal": "1 6S ровно w/p", "reason": "slip"})
    assert answer.status_code == 302
    result = BoardResult.objects.get(board__number=2, table__number=2)
    assert result.entered_by == "referee" and result.scores.count() == 3


def test_the_organiser_prepares_the_boards(client):
    event = nine_player_event()
    organiser = UserFactory()
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    client.force_login(organiser)
    url = reverse("duplicate-manage", args=[event.slug])
    assert "Publish the seed" in client.get(url).content.decode()
    client.post(url, {"action": "commit", "seed": "first frost"})
    client.post(url, {"action": "deal", "seed": "wrong"})
    assert not Board.objects.filter(event=event).exists()
    client.post(url, {"action": "deal", "seed": "first frost"})
    assert Board.objects.filter(event=event).count() == 9


def test_the_tables_link_and_the_event_page_lead_to_the_duplicate_pages(client, evening):
    event, round_ = evening
    table = round_.tables.get(number=1)
    answer = client.get(reverse("protocol-table", args=[table.url_key]))
    assert answer.status_code == 302 and answer["Location"].endswith(f"/t/{table.url_key}/boards/")
    page = client.get(reverse("event", args=[event.slug])).content.decode()
    assert reverse("duplicate", args=[event.slug]) in page


def test_the_ordinary_standings_page_leads_to_the_duplicate_standings(client, evening):
    event, _round = evening
    answer = client.get(reverse("standings", args=[event.slug]))
    assert answer.status_code == 302 and answer["Location"] == reverse("duplicate", args=[event.slug])
    assert "Duplicate standings" in client.get(answer["Location"]).content.decode()


def test_the_desk_lists_a_duplicate_rounds_tables_by_the_board_results_they_miss(
    client, evening, django_capture_on_commit_callbacks
):
    """Not by a missing pulka protocol: table 1 has every board of the round, the others not."""
    event, round_ = evening
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.ORGANISER)
    table = round_.tables.get(number=1)
    url = reverse("duplicate-table", args=[table.url_key])
    with django_capture_on_commit_callbacks(execute=True):
        for board in (b for p in table_plays(table) for b in p.boards):
            client.post(url, {"board": str(board), **six_spades_made(0, 1)})
    client.force_login(referee)
    desk = client.get(reverse("manage", args=[event.slug])).content.decode()
    assert "2 tables with a board without its result" in desk
    assert "without a protocol" not in desk
    assert reverse("protocol-referee", args=[event.slug, 1, 2]) not in desk
    assert reverse("duplicate", args=[event.slug]) in desk


def test_a_stored_standings_page_is_stale_once_the_event_turns_duplicate(
    client, settings, django_capture_on_commit_callbacks
):
    """The page cache kept the ordinary (empty) standings page; setting the duplicate option
    replaces the event's page versions, so the next viewer is led to the duplicate standings."""
    from tests.factories import EventFactory
    from tournaments.services.duplicate import duplicate_set_up

    settings.PULKA_PAGE_CACHE = True
    with django_capture_on_commit_callbacks(execute=True):  # its page versions made
        event = EventFactory(variant="sochi", pulka_target=10, rounds_planned=3, published=True)
    url = reverse("standings", args=[event.slug])
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # served from the cache
    with django_capture_on_commit_callbacks(execute=True):
        duplicate_set_up(event=event)
    answer = client.get(url)
    assert answer.status_code == 302 and answer["Location"] == reverse("duplicate", args=[event.slug])


def test_the_seed_is_revealed_once_every_round_is_closed(client):
    from scoring.duplicate.boards import seed_sha256
    from tournaments.services.duplicate import duplicate_commit_seed

    event = nine_player_event()
    duplicate_commit_seed(event=event, seed_hash=seed_sha256("thaw"))
    duplicate_deal_boards(event=event, seed="thaw")
    rounds = [seat_duplicate_round(event, n) for n in (1, 2, 3)]
    page = client.get(reverse("duplicate", args=[event.slug])).content.decode()
    assert seed_sha256("thaw") in page and "thaw" not in page.replace(seed_sha256("thaw"), "")
    Round.objects.filter(pk__in=[r.pk for r in rounds]).update(state=Round.State.CLOSED)
    page = client.get(reverse("duplicate", args=[event.slug])).content.decode()
    assert "The seed, revealed now that every round is closed: thaw." in page


def test_a_referee_adjusts_a_board_on_the_traveller(client, evening, django_capture_on_commit_callbacks):
    """A board fouled at table 3: the referee's form on the traveller gives each player a share;
    the traveller and the standings show it with its reason; bad input names the field."""
    event, round_ = evening
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.filter(number__in=(1, 2)):
            client.post(
                reverse("duplicate-table", args=[table.url_key]),
                {"board": "1", **six_spades_made(0, 1)},
            )
    client.force_login(referee)
    url = reverse("duplicate-board", args=[event.slug, 1])
    page = client.get(url).content.decode()
    assert 'name="action" value="adjust"' in page and "average-plus (60 %)" in page
    refused = client.post(url, {"table": "3", "action": "adjust", "seat1": "plus", "seat2": "minus",
                                "seat3": "average", "reason": ""})
    assert refused.status_code == 400 and "Say why the board" in refused.content.decode()
    refused = client.post(url, {"table": "3", "action": "adjust", "seat1": "plus", "seat2": "top",
                                "seat3": "average", "reason": "fouled"})
    assert refused.status_code == 400 and not BoardResult.objects.filter(table__number=3).exists()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"table": "3", "action": "adjust", "seat1": "plus",
                                   "seat2": "minus", "seat3": "average", "reason": "fouled board"})
    assert answer.status_code == 302
    result = BoardResult.objects.get(board__number=1, table__round=round_, table__number=3)
    assert result.adjusted == ["plus", "minus", "average"] and result.scores.count() == 3
    client.logout()
    page = client.get(url).content.decode()
    assert "Adjusted by a referee: fouled board" in page and "average-minus (40 %)" in page
    assert 'value="adjust"' not in page  # the form is the referees' only
    seats = sorted(result.table.seats.select_related("entry__player"), key=lambda s: s.position)
    standings = client.get(reverse("duplicate", args=[event.slug])).content.decode()
    assert "Adjusted scores" in standings and "fouled board" in standings
    assert f"{seats[0].entry.player.name} average-plus (60 %)" in standings


def test_the_organiser_sets_the_adjusted_scores_shares(client):
    event = nine_player_event()
    organiser = UserFactory()
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    client.force_login(organiser)
    url = reverse("duplicate-manage", args=[event.slug])
    assert 'name="average_plus_percent"' in client.get(url).content.decode()
    client.post(url, {"action": "percents", "average_plus_percent": "65", "average_percent": "50",
                      "average_minus_percent": "35"})
    event.duplicate.refresh_from_db()
    assert (event.duplicate.average_plus_percent, event.duplicate.average_minus_percent) == (65, 35)
    page = client.post(url, {"action": "percents", "average_plus_percent": "30",
                             "average_percent": "50", "average_minus_percent": "35"}, follow=True)
    assert "Average-minus cannot be above average" in page.content.decode()
    event.duplicate.refresh_from_db()
    assert event.duplicate.average_plus_percent == 65


def test_the_adjustment_is_said_in_the_readers_language(client, evening, django_capture_on_commit_callbacks):
    from django.utils import translation

    from tournaments.services.duplicate import board_result_adjust

    event, round_ = evening
    with django_capture_on_commit_callbacks(execute=True):
        board_result_adjust(table=round_.tables.get(number=3), board_number=1,
                            adjusted=["plus", "minus", "average"], reason="карты перепутаны")
    for language, words in (("ru", "средний плюс (60 %)"), ("hr", "prosjek-minus (40 %)"),
                            ("sr-latn", "prosek-plus (60 %)"), ("de", "Durchschnitt minus (40 %)"),
                            ("sv", "medel plus (60 %)")):
        with translation.override(language):
            url = reverse("duplicate-board", args=[event.slug, 1])
        page = client.get(url).content.decode()
        assert words in page and "карты перепутаны" in page, language
        assert "average-plus" not in page, language


def test_the_tables_phone_shows_the_referees_adjustment_and_takes_no_entry_over_it(
    client, evening, django_capture_on_commit_callbacks
):
    from tournaments.services.duplicate import board_result_adjust

    event, round_ = evening
    table = round_.tables.get(number=3)
    with django_capture_on_commit_callbacks(execute=True):
        board_result_adjust(table=table, board_number=1, adjusted=["plus", "minus", "average"],
                            reason="fouled board")
    url = reverse("duplicate-table", args=[table.url_key])
    page = client.get(url).content.decode()
    assert "Adjusted by a referee: fouled board" in page and 'href="?board=1#form"' not in page
    answer = client.post(url, {"board": "1", **six_spades_made(0, 1)})
    assert answer.status_code == 400 and "ask a referee to change it" in answer.content.decode()
    assert BoardResult.objects.get(table=table, board__number=1).adjusted == ["plus", "minus", "average"]
