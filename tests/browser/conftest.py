"""Playwright fixtures: Debian's Chromium (/usr/bin/chromium, never a downloaded browser)
against pytest-django's ``live_server``. Browser tests are marked ``browser`` and need
``django_db(transaction=True)`` so that the server thread sees their rows."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM calls from the test
# body are still synchronous and safe here.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is not installed: the test command installs it (apt chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def phone(browser) -> Iterator[object]:
    """A page on a phone-sized viewport (390 × 844, touch)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def desk(browser) -> Iterator[object]:
    """A page on a desktop viewport, for keyboard-only use."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def login(page, live_server, user) -> None:
    """Log ``user`` in by giving the browser a session cookie made by Django's test client."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value,
                               "url": live_server.url}])


if os.environ.get("PULKA_TEST_DB_SUFFIX"):
    @pytest.fixture(scope="session")
    def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
        from django.conf import settings

        test = settings.DATABASES["default"].setdefault("TEST", {})
        test["NAME"] = f"{test.get('NAME') or 'test_pulka'}_{os.environ['PULKA_TEST_DB_SUFFIX']}"
