"""Steps an organiser takes in the browser before a table plays, shared by the families'
end-to-end tests (Balkan, pot games, Priffe): create the event in a rule family, register and
check in the players, draw round 1 and start it."""

from __future__ import annotations


def create_event(
    page,
    base: str,
    *,
    slug: str,
    name: str,
    day: str,
    venue: str,
    variant: str,
    table_size_policy: str,
) -> None:
    """The new-event form, then the settings page choosing the rules (``variant``) and the
    table size; saving shows the family's own options (the caller sets them next)."""
    page.goto(f"{base}/manage/new-event/")
    page.get_by_label("Short name (URL)").fill(slug)
    page.get_by_label("Name:", exact=True).fill(name)
    page.get_by_label("First day").fill(day)
    page.get_by_label("Last day").fill(day)
    page.get_by_label("Venue").fill(venue)
    page.get_by_label("Number of rounds").fill("1")  # one round tonight: a quick draw
    page.get_by_label("Published").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    page.goto(f"{base}/e/{slug}/manage/settings/")
    page.select_option("select[name=variant]", variant)
    page.select_option("select[name=table_size_policy]", table_size_policy)
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()


def start_round_one(page, base: str, *, slug: str, players_csv: str) -> None:
    """Import the players (CSV with a header line), check them all in, draw round 1 with a
    published seed hash, publish the seating and start play."""
    page.goto(f"{base}/e/{slug}/manage/entries/import/")
    page.get_by_label("…or paste the CSV").fill(players_csv)
    with page.expect_navigation():
        page.get_by_role("button", name="Import").click()
    page.goto(f"{base}/e/{slug}/manage/entries/")
    with page.expect_navigation():
        page.get_by_role("button", name="Check in everyone registered").click()
    page.goto(f"{base}/e/{slug}/manage/")
    with page.expect_navigation():
        page.get_by_role("button", name="New round").click()
    page.goto(f"{base}/e/{slug}/manage/rounds/1/")
    with page.expect_navigation():
        page.get_by_role("button", name="Publish the seed's hash").click()
    with page.expect_navigation(timeout=60000):
        page.get_by_role("button", name="Draw", exact=True).click(timeout=60000)
    with page.expect_navigation():
        page.get_by_role("button", name="Publish", exact=True).click()
    with page.expect_navigation():
        page.get_by_role("button", name="Start play").click()
