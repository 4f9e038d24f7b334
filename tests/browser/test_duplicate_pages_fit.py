"""The duplicate evening's pages on a phone (issue 43): each fits 390 px and passes axe-core
(serious or critical), in English and in Russian; photographed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.steps import screenshots
from tests.browser.test_phone_fit import WIDTHS, on_the_phone, with_axe
from tests.demo_pages import duplicate_demo_pages
from tests.factories import UserFactory

from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_duplicate_pages_fit_a_phone_and_pass_axe(phone, live_server):
    shots: Path = screenshots("pulka-duplicate-phone-")
    organiser = UserFactory(is_staff=True, is_superuser=True)
    pages = duplicate_demo_pages(organiser=organiser)
    login(phone, live_server, organiser)
    with_axe(phone)
    problems = []
    for page in pages:
        problems += on_the_phone(phone, live_server, page, shots)
        phone.goto(f"{live_server.url}/ru{page.path}")
        width, inner = phone.evaluate(WIDTHS)
        if not width <= inner == 390:
            problems.append(f"{page.name} in Russian: the page is {width}px wide in {inner}px")
    assert not problems, "\n".join(problems)
