"""The header's language switcher is a GET form (views.language, issue 28): it keeps the language
in its cookie and goes back to the same page in that language, it goes nowhere outside the site,
and the public pages it sits on carry no CSRF token and set no CSRF cookie (so they can be
stored compressed); the login page still sets its cookie and logging in works."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, UserFactory

pytestmark = pytest.mark.django_db


def switch(client: Client, language: str, next_url: str):
    return client.get(reverse("language"), {"language": language, "next": next_url})


def test_the_header_holds_a_get_form_without_a_csrf_token(client):
    event = EventFactory()
    html = client.get(f"/e/{event.slug}/").content.decode()
    assert f'<form action="{reverse("language")}" method="get" class="lang">' in html
    assert f'<input name="next" type="hidden" value="/e/{event.slug}/">' in html
    assert "csrfmiddlewaretoken" not in html
    assert "<noscript><button>Change the language</button></noscript>" in html


def test_switching_goes_back_to_the_same_page_in_the_new_language(client):
    event = EventFactory()
    answer = switch(client, "ru", f"/e/{event.slug}/")
    assert answer.status_code == 302 and answer["Location"] == f"/ru/e/{event.slug}/"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert "no-store" in answer["Cache-Control"]
    assert "Туры" in client.get(answer["Location"]).content.decode()
    # from a prefixed page, with its query, to another language and back to the default one
    answer = switch(client, "de", f"/ru/e/{event.slug}/standings/?page=2")
    assert answer["Location"] == f"/de/e/{event.slug}/standings/?page=2"
    answer = switch(client, "en", f"/de/e/{event.slug}/")
    assert answer["Location"] == f"/e/{event.slug}/"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    # a viewer without the cookie, on a page he opened under another language's prefix
    fresh = switch(Client(HTTP_ACCEPT_LANGUAGE="sv"), "hr", f"/ru/e/{event.slug}/")
    assert fresh["Location"] == f"/hr/e/{event.slug}/"


@pytest.mark.parametrize("language", ["fr", "xx", "", "ru-evil"])
def test_a_language_not_offered_changes_nothing(client, language):
    answer = switch(client, language, "/e/some-cup/")
    assert answer.status_code == 302 and answer["Location"] == "/e/some-cup/"
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies


@pytest.mark.parametrize(
    "next_url", ["https://evil.example/", "//evil.example/e/", "javascript:alert(1)", ""]
)
def test_a_next_outside_the_site_goes_home(client, next_url):
    answer = switch(client, "ru", next_url)
    assert answer.status_code == 302 and answer["Location"] == "/ru/"


def test_the_switcher_takes_no_post_and_django_s_post_view_still_works(client):
    assert client.post(reverse("language"), {"language": "ru", "next": "/"}).status_code == 405
    posted = client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    assert posted.status_code == 302 and posted["Location"] == "/ru/"
    assert posted.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"


def test_a_public_page_sets_no_csrf_cookie_and_the_login_page_does():
    event = EventFactory()
    viewer = Client(enforce_csrf_checks=True)
    for url in ("/", f"/e/{event.slug}/", f"/e/{event.slug}/standings/"):
        page = viewer.get(url)
        assert page.status_code == 200, url
        assert settings.CSRF_COOKIE_NAME not in page.cookies, url
    UserFactory(username="vera", password="whist-on-six")
    login = viewer.get(reverse("login"))
    assert settings.CSRF_COOKIE_NAME in login.cookies
    token = login.context["csrf_token"]
    answer = viewer.post(
        reverse("login"),
        {"username": "vera", "password": "whist-on-six", "csrfmiddlewaretoken": str(token)},
    )
    assert answer.status_code == 302
    assert settings.SESSION_COOKIE_NAME in answer.cookies
