"""Issue 29 in a real browser: the staff's pages follow the background jobs by themselves. The
desk reloads when a job ends and then stops asking; a page with a form being filled in is not
reloaded under the user's hands: it says the jobs moved on and offers a reload, and the input
stays until then."""

from __future__ import annotations

import pytest

from tests.browser.conftest import login
from tests.factories import EventFactory, UserFactory
from tournaments.models import EventRole, GeneratedFile, Job

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STATE = "/manage/jobs/state"


@pytest.fixture
def organiser():
    event = EventFactory(slug="club-night", name="Club Night")
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return event, user


def test_the_desk_reloads_when_a_job_ends_then_stops_asking(desk, live_server, organiser):
    event, user = organiser
    job = Job.objects.create(task="tournaments.standings_recompute", event=event, state="running")
    page = desk
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if STATE in r.url else None)
    login(page, live_server, user)
    page.goto(f"{live_server.url}/e/club-night/manage/")
    running = page.locator("#desk-jobs").get_by_text("The standings' recomputation is running")
    assert running.is_visible()
    page.wait_for_timeout(4000)  # the job still runs: the page asks, and stays
    assert asked, "the desk did not ask for the jobs' state while a job ran"
    assert running.is_visible()
    page.evaluate("window.scrollTo(0, 0); window.kept = 'the same page'")
    job.state = "done"
    job.save()
    page.wait_for_function("() => window.kept === undefined", timeout=15000)  # reloaded by itself
    assert page.locator("#desk-jobs").count() == 0
    assert page.locator("#job-watch").get_attribute("data-running") == "0"
    assert page.locator("#job-watch-changed").count() == 0
    before = len(asked)
    page.wait_for_timeout(4000)  # nothing runs: nothing is asked
    assert len(asked) == before


def test_a_form_being_filled_in_is_not_reloaded_away(desk, live_server, organiser):
    event, user = organiser
    f = GeneratedFile.objects.create(
        event=event, kind="standings", status="pending", progress={"done": 1, "total": 2}
    )
    page = desk
    login(page, live_server, user)
    page.goto(f"{live_server.url}/e/club-night/manage/documents/")
    paper = (
        page.locator("form")
        .filter(has=page.locator("input[value=standings]"))
        .get_by_label("Paper")
    )
    paper.select_option("letter")
    page.locator("h1").click()  # the field loses the focus; its value differs from the page's
    page.evaluate("window.kept = 'the same page'")
    f.status, f.progress, f.error = "failed", {}, "no fonts"
    f.save()
    offer = page.locator("#job-watch-changed")
    offer.wait_for(state="visible", timeout=15000)
    assert "A background job has moved on" in offer.inner_text()
    assert page.evaluate("window.kept") == "the same page"
    assert paper.input_value() == "letter"
    assert page.get_by_text("Failed: no fonts").count() == 0  # the page was not reloaded
    with page.expect_navigation():
        offer.get_by_role("button", name="Reload").click()
    assert page.get_by_text("Failed: no fonts").is_visible()
    assert page.locator("#job-watch-changed").count() == 0
