"""The suit filter (tournaments/templatetags/pulka.py): ♦ and ♥ red, ♠ and ♣ black, on the
pages and in the PDFs (issue 29)."""

import doctest

from django.template import Context, Template

from tournaments.templatetags import pulka


def render(source: str, **context) -> str:
    return Template("{% load pulka %}" + source).render(Context(context))


def test_red_and_black_suits():
    html = render("{{ t|suits }}", t="6♠ 7♣ 8♦ 9♥ 10БК / ровно")
    assert html == (
        '6<span class="suit-black">♠</span> 7<span class="suit-black">♣</span> '
        '8<span class="suit-red">♦</span> 9<span class="suit-red">♥</span> 10БК / ровно'
    )


def test_the_text_around_the_suits_is_escaped():
    html = render("{{ t|suits }}", t='<script>alert("♥")</script>')
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert '<span class="suit-red">♥</span>' in html


def test_text_without_suits_and_empty_values():
    assert render("{{ t|suits }}", t="misère / clean") == "misère / clean"
    assert render("{{ t|suits }}", t=None) == ""
    assert render("{{ t|default:'—'|suits }}", t="") == "—"


def test_the_docstring_examples_run():
    result = doctest.testmod(pulka)
    assert result.attempted >= 2 and result.failed == 0
