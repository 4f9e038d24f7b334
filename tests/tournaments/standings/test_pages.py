"""Standings pages, documents pages and the standings API: what each audience sees, read from
the stored snapshot (never computed per request)."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import EventPenalty, EventRole, GeneratedFile, Protocol, StandingsSnapshot
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    event, entries = make_event(players=9, tiebreaks=["raspasy_won", "head_to_head"])
    rng = random.Random(3)
    play_round(event, entries, 1, rng=rng)
    play_round(event, entries, 2, rng=rng, approve=False)
    EventPenalty.objects.create(
        event=event,
        entry=entries[0],
        kind="fixed_whists",
        whists=-30,
        rule="3.2.21",
        reason="looked at the talon",
    )
    standings_recompute(event_id=event.pk)
    event.entries_list = entries
    return event


def user_with(event, role):
    user = get_user_model().objects.create_user(f"{role}-user", password="pw")
    EventRole.objects.create(event=event, user=user, role=role)
    return user


def test_public_standings_page(client, event):
    snapshot = StandingsSnapshot.objects.get(event=event)
    html = client.get(reverse("standings", args=[event.slug])).content.decode()
    first = snapshot.data["rows"][0]
    name = snapshot.data["meta"]["players"][str(first["entry"])]["name"]
    assert name in html and "Last computed" in html
    assert "not yet approved" in html and 'class="num provisional"' in html  # round 2
    assert "Raspasy won" in html and "<abbr" in html
    assert "Recomputation pending" not in html


def test_page_shows_a_pending_recomputation(client, event):
    StandingsSnapshot.objects.filter(event=event).update(requested=5)
    html = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert "Recomputation pending" in html


def test_pages_read_the_snapshot_in_few_queries(client, event, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        assert client.get(reverse("standings", args=[event.slug])).status_code == 200
    with django_assert_max_num_queries(8):
        assert client.get(reverse("standings-cross", args=[event.slug])).status_code == 200


def test_unpublished_event_is_hidden_from_the_public(client, event):
    event.published = False
    event.save()
    assert client.get(reverse("standings", args=[event.slug])).status_code == 404
    client.force_login(user_with(event, "referee"))
    assert client.get(reverse("standings", args=[event.slug])).status_code == 200


def test_round_cross_and_player_pages(client, event):
    entry = event.entries_list[0]
    html = client.get(reverse("standings-round", args=[event.slug, 1])).content.decode()
    assert "Table 1" in html and entry.player.name in html
    html = client.get(reverse("standings-round", args=[event.slug, 2])).content.decode()
    assert "provisional" in html
    html = client.get(reverse("standings-cross", args=[event.slug])).content.decode()
    assert "×" in html and entry.player.name in html
    html = client.get(reverse("standings-player", args=[event.slug, entry.pk])).content.decode()
    assert "looked at the talon" in html and "3.2.21" in html and "-30" in html
    assert "version 1, approved" in html and "version 1, provisional" in html
    assert client.get(reverse("standings-round", args=[event.slug, 9])).status_code == 404


def test_manage_page_needs_a_referee_and_shows_a_failure(client, event):
    url = reverse("standings-manage", args=[event.slug])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(get_user_model().objects.create_user("nobody"))
    assert client.get(url).status_code == 403
    client.force_login(user_with(event, "referee"))
    StandingsSnapshot.objects.filter(event=event).update(
        status="failed", error="ValueError: tie-break 'x'", attempts=4
    )
    html = client.get(url).content.decode()
    assert "The last recomputation failed" in html and "tie-break" in html
    assert "Tie-break chain" not in html  # only organisers change it


def test_organiser_sets_the_tiebreak_chain(client, event, django_capture_on_commit_callbacks):
    client.force_login(user_with(event, "organiser"))
    url = reverse("standings-manage", args=[event.slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url,
            {
                "action": "tiebreaks",
                "tiebreak": ["remizes", "", "best_round"],
                "round_score": "capped",
                "cap": "150",
            },
        )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.tiebreaks == [{"round_score": "capped", "cap": 150}, "remizes", "best_round"]
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert [c["key"] for c in snapshot.data["columns"]] == ["total", "remizes", "best_round"]
    assert snapshot.data["round_score"]["key"] == "capped"


def test_documents_rendered_by_staff_and_offered_to_the_public(
    client, event, django_capture_on_commit_callbacks
):
    client.force_login(user_with(event, "referee"))
    url = reverse("documents-manage", args=[event.slug])
    html = client.get(url).content.decode()
    assert "Blank protocols" in html and "Filled protocol" in html and "Round 2" in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"kind": "seating", "round": "1", "paper": "A4"})
        client.post(url, {"kind": "blank", "round": "1", "paper": "letter"})
    seating = GeneratedFile.objects.get(kind="seating")
    blank = GeneratedFile.objects.get(kind="blank")
    assert seating.status == blank.status == "ok"
    assert blank.base_url == "http://testserver/"
    client.logout()
    html = client.get(reverse("documents", args=[event.slug])).content.decode()
    assert "Seating list" in html and "Blank protocols" not in html
    response = client.get(reverse("document", args=[event.slug, seating.pk]))
    assert response.status_code == 200 and b"".join(response.streaming_content)[:4] == b"%PDF"
    # blank protocols carry the tables' private links: staff only
    assert client.get(reverse("document", args=[event.slug, blank.pk])).status_code == 404


def test_organisers_print_the_players_private_links(
    client, event, django_capture_on_commit_callbacks
):
    """A slip per player with their private link and its QR code (issue 4: each entry's link
    is unguessable and revocable; this is how players get theirs). Organisers only: a referee
    can neither ask for it nor download it, nor can the public; a new link makes a new file."""
    from tournaments.pdf.contexts import player_links_context
    from tournaments.services.entries import entry_rotate_key

    url = reverse("documents-manage", args=[event.slug])
    client.force_login(user_with(event, "referee"))
    assert 'value="links"' not in client.get(url).content.decode()
    assert client.post(url, {"kind": "links", "paper": "A4"}).status_code == 403
    assert not GeneratedFile.objects.filter(kind="links").exists()
    client.force_login(user_with(event, "organiser"))
    assert 'value="links"' in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"kind": "links", "paper": "A4"})
    slips = GeneratedFile.objects.get(kind="links")
    assert slips.status == "ok" and slips.filename.endswith("-player-links.pdf")
    got = client.get(reverse("document", args=[event.slug, slips.pk]))
    assert got.status_code == 200 and b"".join(got.streaming_content)[:4] == b"%PDF"
    context = player_links_context(event=event, base_url="http://testserver/")
    entry = event.entries_list[0]
    assert len(context["players"]) == 9
    assert f"http://testserver/p/{entry.url_key}/" in [p["link"] for p in context["players"]]
    client.force_login(_referee(event))
    assert client.get(reverse("document", args=[event.slug, slips.pk])).status_code == 404
    assert "-player-links.pdf" not in client.get(url).content.decode()
    client.logout()
    assert client.get(reverse("document", args=[event.slug, slips.pk])).status_code == 404
    api = client.get(f"/api/v1/events/{event.slug}/documents/{slips.pk}")
    assert api.status_code == 404
    # revoking a link changes the slips: asked again, a new file is rendered
    before = slips.inputs_hash
    entry_rotate_key(entry=entry)
    client.force_login(get_user_model().objects.get(username="organiser-user"))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"kind": "links", "paper": "A4"})
    again = GeneratedFile.objects.filter(kind="links", status="ok").latest("pk")
    assert again.inputs_hash != before


def _referee(event):
    return get_user_model().objects.get(username="referee-user")


# --- API ----------------------------------------------------------------------------------------


def test_api_standings_list(client, event):
    data = client.get(f"/api/v1/events/{event.slug}/standings").json()
    assert data["status"] == "ok" and data["pending"] is False and data["computed_at"]
    assert [c["key"] for c in data["columns"]] == ["total", "raspasy_won", "head_to_head"]
    assert len(data["rows"]) == 9 and data["rows"][0]["place"] == 1
    approved = {e: Fraction(0) for e in (x.pk for x in event.entries_list)}
    for p in Protocol.objects.filter(table__round__event=event, approved=True):
        for r in p.result:
            approved[r["entry"]] += Fraction(r["whists"])
    approved[event.entries_list[0].pk] -= 30
    assert {r["entry"]: Fraction(str(r["total"])) for r in data["rows"]} == approved
    assert "error" not in data  # staff only


def test_api_recompute_and_documents(client, event, django_capture_on_commit_callbacks):
    assert client.post(f"/api/v1/events/{event.slug}/standings/recompute").status_code == 403
    client.force_login(user_with(event, "referee"))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/events/{event.slug}/standings/recompute")
    assert response.status_code == 202
    assert client.get(response.json()["status_url"]).json()["status"] == "ok"
    # documents: 202 and the status URL, then the file; asked again, 200 at once
    response = client.post(
        f"/api/v1/events/{event.slug}/documents",
        {"kind": "standings"},
        content_type="application/json",
    )
    assert response.status_code == 202
    url = response.json()["url"]
    assert client.get(url).status_code == 409  # not rendered yet (job runs after commit)
    GeneratedFile.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/v1/events/{event.slug}/documents",
            {"kind": "filled", "round": 1, "table": 1},
            content_type="application/json",
        )
    got = client.get(response.json()["url"])
    assert got.status_code == 200 and got["Content-Type"] == "application/pdf"
    again = client.post(
        f"/api/v1/events/{event.slug}/documents",
        {"kind": "filled", "round": 1, "table": 1},
        content_type="application/json",
    )
    assert again.status_code == 200 and again.json()["id"] == response.json()["id"]
    bad = client.post(
        f"/api/v1/events/{event.slug}/documents",
        {"kind": "seating"},
        content_type="application/json",
    )
    assert bad.status_code == 400 and bad.json()["extra"]["field"] == "round"
    f = GeneratedFile.objects.get(pk=response.json()["id"])
    f.status = "failed"
    f.save()
    assert client.get(response.json()["url"]).status_code == 410


def test_one_row_per_document_and_the_public_list_grouped_by_round(client, event):
    """Issue 36: on the organisers' page each document has its own row with its own paper and
    language (never one paper for three buttons); the public list is grouped by round."""
    client.force_login(user_with(event, "organiser"))
    html = client.get(reverse("documents-manage", args=[event.slug])).content.decode()
    rows = re.findall(r'<form method="post" class="inline document-row">(.*?)</form>', html, re.S)
    # standings, players' links, the whole event's protocols; per round (2): blank, seating,
    # filled of every table, one table's filled protocol
    assert len(rows) == 3 + 2 * 4
    for row in rows:
        assert row.count("<button") == 1 and row.count('name="paper"') == 1, row
        assert row.count('name="language"') == 1, row
    assert not re.search(r'<form method="post" class="inline">', html)
    client.logout()
    for kind, round_ in (("seating", 2), ("standings", None), ("seating", 1), ("standings", 1)):
        GeneratedFile.objects.create(
            event=event, kind=kind, round=event.rounds.get(number=round_) if round_ else None,
            status="ok", paper="A4", language="en",
        )  # fmt: skip
    html = client.get(reverse("documents", args=[event.slug])).content.decode()
    headings = re.findall(r"<h2>(.*?)</h2>", html)
    assert headings[:3] == ["Event", "Round 1", "Round 2"], headings
    sections = html.split("<h2>")[1:]
    assert "Standings" in sections[0] and sections[0].count("<tr>") == 2  # header + one file
    assert sections[1].count("<tr>") == 3 and "Seating list" in sections[1]
    assert sections[2].count("<tr>") == 2
