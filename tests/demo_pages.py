"""The demo tournament and the pages a person opens on the day (issue 29): the public pages, a
player's private pages, the tables' phone pages and the organiser's desk, each with the demo's
own data (findings, a draft, a confirmed protocol, a ruling and an appeal, standings with
provisional results).

Shared by the browser tests (phone fit, accessibility, screenshots) and by the test that scans
every page's text for internal codes (tests/tournaments/views/test_words_not_codes.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.demo.events import demo_event
from tournaments.demo.protocols import demo_protocols
from tournaments.models import Event, Round
from tournaments.services.standings import standings_recompute

__all__ = ["FAMILY_DEMOS", "DemoPage", "demo_pages", "family_demo_pages", "league_demo_pages"]


@dataclass(frozen=True)
class DemoPage:
    """One page: a short name (the screenshot's file name), its path, and whether it needs the
    organiser signed in."""

    name: str
    path: str
    staff: bool = False


def demo_pages(*, organiser) -> tuple[Event, list[DemoPage]]:
    """Build the demo cup (26 players, rounds 1–2 closed, round 3 in play, round 4 a draft) with
    its protocols and standings, and list its pages."""
    event = demo_event(organiser=organiser)
    demo_protocols(event)
    standings_recompute(event_id=event.pk)
    slug = event.slug
    in_play = event.rounds.get(state=Round.State.IN_PLAY)
    tables = list(in_play.tables.order_by("number"))
    four = next(t for t in tables if t.seats.count() == 4)
    player = tables[0].seats.order_by("position").first().entry
    closed = event.rounds.filter(state=Round.State.CLOSED).order_by("number").first()
    draft = event.rounds.get(state=Round.State.DRAFT)
    n = in_play.number
    referee = f"/e/{slug}/manage/rounds/{n}/tables"
    pages = [
        DemoPage("home", "/"),
        DemoPage("event", f"/e/{slug}/"),
        DemoPage("round", f"/e/{slug}/rounds/{n}/"),
        DemoPage("standings", f"/e/{slug}/standings/"),
        DemoPage("standings-round", f"/e/{slug}/standings/rounds/{closed.number}/"),
        DemoPage("cross-table", f"/e/{slug}/standings/cross/"),
        DemoPage("standings-player", f"/e/{slug}/standings/players/{player.pk}/"),
        DemoPage("documents", f"/e/{slug}/documents/"),
        DemoPage("player", f"/p/{player.url_key}/"),
        DemoPage("player-protocols", f"/p/{player.url_key}/protocols/"),
        DemoPage("table-findings", f"/t/{tables[0].url_key}/"),
        DemoPage("table-in-progress", f"/t/{tables[1].url_key}/"),
        DemoPage("table-confirmed", f"/t/{tables[2].url_key}/"),
        DemoPage("table-of-four", f"/t/{four.url_key}/"),
        DemoPage("desk", f"/e/{slug}/manage/", staff=True),
        DemoPage("desk-round", f"/e/{slug}/manage/rounds/{n}/", staff=True),
        DemoPage("desk-round-closed", f"/e/{slug}/manage/rounds/{closed.number}/", staff=True),
        DemoPage("desk-round-draft", f"/e/{slug}/manage/rounds/{draft.number}/", staff=True),
        DemoPage("desk-players", f"/e/{slug}/manage/entries/", staff=True),
        DemoPage("desk-constraints", f"/e/{slug}/manage/constraints/", staff=True),
        DemoPage("desk-settings", f"/e/{slug}/manage/settings/", staff=True),
        DemoPage("desk-staff", f"/e/{slug}/manage/staff/", staff=True),
        DemoPage("desk-log", f"/e/{slug}/manage/log/", staff=True),
        DemoPage("desk-protocols", f"/e/{slug}/manage/rounds/{n}/protocols", staff=True),
        DemoPage("referee-findings", f"{referee}/{tables[0].number}/protocol", staff=True),
        DemoPage("referee-ruling", f"{referee}/{tables[3].number}/protocol", staff=True),
        DemoPage("referee-versions", f"{referee}/{tables[0].number}/protocol/versions", staff=True),
        DemoPage("referee-incidents", f"{referee}/{tables[3].number}/incidents", staff=True),
        DemoPage("desk-penalties", f"/e/{slug}/manage/penalties/", staff=True),
        DemoPage("desk-appeals", f"/e/{slug}/manage/appeals/", staff=True),
        DemoPage("desk-protocol-log", f"/e/{slug}/manage/protocol-log/", staff=True),
        DemoPage("desk-standings", f"/e/{slug}/manage/standings/", staff=True),
        DemoPage("desk-documents", f"/e/{slug}/manage/documents/", staff=True),
    ]
    return event, pages


#: The other rule families' demo evenings, by the name a test gives them.
FAMILY_DEMOS = ("balkan", "priffe", "pot")


def family_demo_pages(*, organiser, families: Sequence[str] = FAMILY_DEMOS) -> list[DemoPage]:
    """The other rule families' demo evenings (Croatian, Priffe, Viennese pot game; or those of
    ``families``, names of :data:`FAMILY_DEMOS`), each with its event, standings, rounds, every
    table's phone page and referee page, and a player's pages; names are prefixed with the
    event's slug."""
    from tournaments.demo.balkan import demo_balkan_event
    from tournaments.demo.pot import demo_pot_event
    from tournaments.demo.priffe import demo_priffe_event

    makers = {"balkan": demo_balkan_event, "priffe": demo_priffe_event, "pot": demo_pot_event}
    pages = []
    for make in (makers[name] for name in families):
        event = make(organiser=organiser)
        slug = event.slug
        pages += [
            DemoPage(f"{slug}-event", f"/e/{slug}/"),
            DemoPage(f"{slug}-standings", f"/e/{slug}/standings/"),
            DemoPage(f"{slug}-cross-table", f"/e/{slug}/standings/cross/"),
            DemoPage(f"{slug}-desk", f"/e/{slug}/manage/", staff=True),
        ]
        for r in event.rounds.exclude(state=Round.State.DRAFT).order_by("number"):
            n = r.number
            pages += [
                DemoPage(f"{slug}-round-{n}", f"/e/{slug}/rounds/{n}/"),
                DemoPage(f"{slug}-results-{n}", f"/e/{slug}/standings/rounds/{n}/"),
                DemoPage(f"{slug}-desk-round-{n}", f"/e/{slug}/manage/rounds/{n}/", staff=True),
            ]
            for t in r.tables.order_by("number"):
                pages += [
                    DemoPage(f"{slug}-table-{n}-{t.number}", f"/t/{t.url_key}/"),
                    DemoPage(
                        f"{slug}-referee-{n}-{t.number}",
                        f"/e/{slug}/manage/rounds/{n}/tables/{t.number}/protocol",
                        staff=True,
                    ),
                ]
        entry = event.entries.order_by("pk").first()
        pages += [
            DemoPage(f"{slug}-player", f"/p/{entry.url_key}/"),
            DemoPage(f"{slug}-player-protocols", f"/p/{entry.url_key}/protocols/"),
            DemoPage(f"{slug}-standings-player", f"/e/{slug}/standings/players/{entry.pk}/"),
        ]
    return pages


def league_demo_pages(*, organiser) -> list[DemoPage]:
    """The demo's league (issue 39): the series page and its CSV's neighbours, a person's page,
    the organisation's page, and the organisers' series, persons and merge pages."""
    from tournaments.demo.balkan import demo_balkan_event
    from tournaments.demo.league import demo_balkan_league

    series = demo_balkan_league(organiser=organiser, first=demo_balkan_event(organiser=organiser))
    first = series.series_events.order_by("event__starts_on").first().event
    person = first.entries.order_by("pk").first().person
    organisation = series.organisation.slug
    return [
        DemoPage("league", f"/s/{series.slug}/"),
        DemoPage("league-person", f"/people/{person.pk}/"),
        DemoPage("league-organisation", f"/o/{organisation}/"),
        DemoPage("league-manage", f"/s/{series.slug}/manage/", staff=True),
        DemoPage("league-organisation-staff", f"/o/{organisation}/", staff=True),
        DemoPage("league-merge", f"/o/{organisation}/persons/merge/", staff=True),
        DemoPage("league-persons", "/e/demo-liga-2/manage/persons/", staff=True),
        DemoPage("league-person-manage", f"/people/{person.pk}/manage/", staff=True),
    ]


def duplicate_demo_pages(*, organiser) -> list[DemoPage]:
    """The demo's duplicate evening (issue 43): its standings, every board's traveller, every
    table's boards page, the organisers' duplicate page and documents."""
    from tournaments.demo.duplicate import demo_duplicate_event

    event = demo_duplicate_event(organiser=organiser)
    slug = event.slug
    pages = [
        DemoPage(f"{slug}-event", f"/e/{slug}/"),
        DemoPage(f"{slug}-standings", f"/e/{slug}/duplicate/"),
        DemoPage(f"{slug}-manage", f"/e/{slug}/manage/duplicate/", staff=True),
        DemoPage(f"{slug}-documents", f"/e/{slug}/manage/documents/", staff=True),
    ]
    for board in event.boards.order_by("number"):
        pages.append(DemoPage(f"{slug}-board-{board.number}", f"/e/{slug}/duplicate/boards/{board.number}/"))
        pages.append(DemoPage(f"{slug}-board-{board.number}-referee", f"/e/{slug}/duplicate/boards/{board.number}/", staff=True))
    for r in event.rounds.order_by("number"):
        for t in r.tables.order_by("number"):
            pages.append(DemoPage(f"{slug}-table-{r.number}-{t.number}", f"/t/{t.url_key}/boards/"))
    return pages
