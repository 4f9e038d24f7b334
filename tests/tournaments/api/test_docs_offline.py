"""The API reference (``/api/docs/``) works without internet (issue 29): the page links to
nothing outside Pulka, and the Redoc script it loads is one of Pulka's static files
(drf-spectacular-sidecar). tests/browser/test_api_docs.py renders it with the internet cut off."""

import re

from django.contrib.staticfiles import finders
from django.test import Client


def test_the_api_reference_loads_only_pulkas_own_files():
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.search(r"(?:src|href)=[\"']?(?:https?:)?//", html), "a link off the site"
    assert "cdn." not in html and "googleapis" not in html
    # what the Redoc bundle itself would ask of another site (its logo) the page forbids
    [policy] = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert "default-src 'self'" in policy and "img-src 'self' data:;" in policy
    [script] = re.findall(r"<script src=\"([^\"]+)\"", html)
    assert script.startswith("/static/"), script
    found = finders.find(script.removeprefix("/static/"))
    assert found and "redoc.standalone.js" in found
    with open(found, "rb") as f:
        assert len(f.read()) > 100_000  # the real bundle, not a placeholder
