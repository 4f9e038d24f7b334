"""The API reference renders with the internet cut off (issue 29): every request that leaves
Pulka's own server is refused, and Redoc still shows the whole reference from Pulka's static
files (drf-spectacular-sidecar)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_api_reference_works_without_internet(desk, live_server):
    page = desk
    outside: list[tuple[str, str]] = []

    def only_pulka(route):
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            outside.append((route.request.resource_type, route.request.url))
            route.abort()

    page.route("**/*", only_pulka)
    page.goto(f"{live_server.url}/api/docs/")
    page.get_by_role("heading", name="Pulka API").first.wait_for()
    # every operation of the API is listed in the reference's menu
    assert page.locator("li[data-item-id]").count() >= 31
    # nothing from outside: no script, style sheet, font, nor Redoc's "by Redocly" logo from
    # its CDN (the page's content security policy refuses it before it is asked, issue 36)
    assert outside == []
    assert page.locator("img[src*='redoc.ly']").count() == 0  # the logo hid itself
