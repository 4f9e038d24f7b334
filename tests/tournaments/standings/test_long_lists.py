"""Long standings on a phone (issue 28): the standings page shows 100 rows at a time or the
players matching a search (name, club, city), the whole list is a CSV download; above 60 players
the cross-table shows a group of places at a time, each player's opponents by round, and the full
matrix is a CSV download."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest
from django.urls import reverse

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import Player
from tournaments.selectors.standings import rows_matching, standings_page
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_event():
    event, entries = make_event(players=123, tiebreaks=["raspasy_won"])
    Player.objects.filter(pk=entries[7].player_id).update(name="Ana Kovač", club="Zagreb PK")
    rng = random.Random(28)
    play_round(event, entries, 1, rng=rng)
    play_round(event, entries, 2, rng=rng)
    standings_recompute(event_id=event.pk)
    snapshot = event.standings_snapshot
    snapshot.refresh_from_db()
    event.rows = snapshot.data["rows"]
    event.entries_list = entries
    return event


def players_on(html: str) -> list[int]:
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [int(n) for n in re.findall(r"/standings/players/(\d+)/", body)]


def test_the_standings_show_a_hundred_rows_a_page(client, big_event):
    url = reverse("standings", args=[big_event.slug])
    order = [r["entry"] for r in big_event.rows]
    first = client.get(url).content.decode()
    assert players_on(first) == order[:100]
    assert "Shown: 1–100 of 123." in first
    assert 'href="?page=2"' in first
    second = client.get(url, {"page": 2}).content.decode()
    assert players_on(second) == order[100:]
    assert "Shown: 101–123 of 123." in second
    # a page past the end or not a number: the last page, the first
    assert players_on(client.get(url, {"page": 9}).content.decode()) == order[100:]
    assert players_on(client.get(url, {"page": "x"}).content.decode()) == order[:100]


def test_the_standings_find_players_by_name_club_or_city(client, big_event):
    url = reverse("standings", args=[big_event.slug])
    ana = big_event.entries_list[7].pk
    place = next(r["place_label"] for r in big_event.rows if r["entry"] == ana)
    html = client.get(url, {"q": "kovač"}).content.decode()
    assert players_on(html) == [ana]
    assert f'<td class="num">{place}</td>' in html  # the place in the whole standings
    assert players_on(client.get(url, {"q": "zagreb"}).content.decode()) == [ana]
    club3 = [r["entry"] for r in big_event.rows if r["entry"] in club_members(big_event, 3)]
    assert len(club3) > 10
    assert players_on(client.get(url, {"q": "club 3"}).content.decode()) == club3
    none = client.get(url, {"q": "nobody-like-this"}).content.decode()
    assert "No player matches." in none


def club_members(event, n: int) -> set[int]:
    return {e.pk for e in event.entries_list if e.player.club == f"Club {n}"} - {
        event.entries_list[7].pk
    }


def test_rows_matching_finds_the_text_in_name_club_or_city():
    rows = [
        {"name": "Ana Kovač", "club": "Zagreb PK", "city": "Zagreb"},
        {"name": "Ivan Horvat", "club": "Split", "city": "Split"},
    ]
    assert rows_matching(rows, "KOVAČ") == rows[:1]
    assert rows_matching(rows, "kovac") == rows[:1]  # without accents (issue 28)
    assert rows_matching(rows, "ZAGREB\u00a0PK") == rows[:1]  # a no-break space is a space
    assert rows_matching(rows, "  zagreb   pk ") == rows[:1]
    assert rows_matching(rows, "ana split") == []
    assert rows_matching(rows, "  ") == rows
    page = standings_page({"rows": rows}, query="", page=3, size=1)
    assert page["page"] == 2 and page["page_rows"] == rows[1:]


def test_the_whole_standings_download_as_csv(client, big_event):
    response = client.get(reverse("standings-csv", args=[big_event.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0][:5] == ["Place", "Player", "Club", "City", "Rounds"]
    assert lines[0][5:7] == ["Round 1", "Round 2"]
    assert len(lines) == 1 + 123
    names = {e.pk: e.player.name for e in big_event.entries_list}
    names[big_event.entries_list[7].pk] = "Ana Kovač"
    for line, row in zip(lines[1:], big_event.rows, strict=True):
        assert line[0] == row["place_label"] and line[1] == names[row["entry"]]
        assert line[7] == str(row["total"])
    etag = response["ETag"]
    again = client.get(reverse("standings-csv", args=[big_event.slug]), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304


def test_a_large_cross_table_shows_a_group_of_places(client, big_event):
    url = reverse("standings-cross", args=[big_event.slug])
    html = client.get(url).content.decode()
    assert players_on_rows(html) == [r["entry"] for r in big_event.rows[:50]]
    assert 'href="?group=3"' in html and "101–123" in html
    third = client.get(url, {"group": 3}).content.decode()
    assert players_on_rows(third) == [r["entry"] for r in big_event.rows[100:]]
    # the first player's opponents in round 1, by their numbers in the standings, with results
    top = big_event.rows[0]
    cell = top["rounds"]["1"]
    numbers = {r["entry"]: i for i, r in enumerate(big_event.rows, start=1)}
    row_html = html[html.index('id="no-1"') : html.index('id="no-2"')]
    for other, result in cell["versus"].items():
        assert f'/standings/players/{other}/">{numbers[int(other)]}</a>' in row_html
        assert str(result) in row_html or f"{result:g}" in row_html
    assert len(html) < 120_000  # a group, not a 123 × 123 matrix


def players_on_rows(html: str) -> list[int]:
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [
        int(n)
        for n in re.findall(
            r'<td class="player"><a href="/e/[^"]+/standings/players/(\d+)/">', body
        )
    ]


def test_the_full_cross_table_downloads_as_csv(client, big_event):
    response = client.get(reverse("standings-cross-csv", args=[big_event.slug]))
    assert response.status_code == 200
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(lines) == 1 + 123 and all(len(line) == 2 + 123 + 1 for line in lines)
    rows = big_event.rows
    index = {r["entry"]: i for i, r in enumerate(rows)}
    for i, row in enumerate(rows):
        line = lines[1 + i]
        assert line[2 + i] == "×"
        met: dict[int, float] = {}
        for cell in row["rounds"].values():
            for other, result in cell.get("versus", {}).items():
                met[int(other)] = met.get(int(other), 0) + result
        for other, total in met.items():
            assert float(line[2 + index[other]]) == pytest.approx(total, abs=0.01)
        assert sum(1 for c in line[2:-1] if c not in ("", "×")) == len(met)
