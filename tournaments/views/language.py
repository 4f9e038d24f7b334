"""The header's language switcher: a GET form (templates/base.html), so that the pages carry no
CSRF token and an anonymous viewer's page can be stored once, compressed, and served to every
viewer (issue 28, ``views.caching.public_page``). Django's POST view (``set_language`` under
``/i18n/setlang/``) keeps working for whoever posts to it.

Choosing a language is a preference, not a change of anything on the server: the answer sets the
language cookie and goes back to the page the form was on, under that language's prefix (the
public URLs carry it: ``/ru/e/<slug>/``)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import translate_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language, get_language_from_path, override
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

__all__ = ["language_switch"]


def _safe_next(request: HttpRequest) -> str:
    """The page to go back to: ``next`` when it is on this site, else the home page."""
    next_url = request.GET.get("next", "")
    if next_url and url_has_allowed_host_and_scheme(
        url=next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return "/"


@require_safe
@never_cache
def language_switch(request: HttpRequest) -> HttpResponseRedirect:
    """``?language=<code>&next=<path>``: a language of ``settings.LANGUAGES`` is kept in the
    language cookie and the viewer goes back to ``next`` in it; anything else (an unknown code, a
    language Django knows but Pulka does not offer) changes nothing and goes back to ``next``."""
    next_url = _safe_next(request)
    code = request.GET.get("language", "")
    if code not in dict(settings.LANGUAGES) or not check_for_language(code):
        return HttpResponseRedirect(next_url)
    # ``translate_url`` resolves the path in the active language: the one the path is in (its
    # prefix; none is the default language), not the cookie's or the browser's
    with override(get_language_from_path(next_url) or settings.LANGUAGE_CODE):
        target = translate_url(next_url, code)
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
