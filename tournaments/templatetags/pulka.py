"""Template tags of Pulka's pages and documents."""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from tournaments import rule_sources
from tournaments.access import permissions
from tournaments.models import Event, Ruling
from tournaments.selectors.desk import job_watch as watch
from tournaments.variants import ui_of_event
from tournaments.words.rulings import kind_words

register = template.Library()

#: the suit symbols as printed on protocols (rules/contracts.py) and their outline forms
_RED = "♦♥♢♡"
_BLACK = "♠♣♤♧"
_SUITS = re.compile(f"[{_RED}{_BLACK}]")


@register.filter
def ruling_citation(ruling, event) -> str:
    """A ruling's rule as a reader looks it up: a penalty of the event's rule texts cited from
    its family's seed (``001 §3.8.5.1``; a family without penalties has none), one of the
    event's own penalties by the reference the organiser gave it (``reg. 5``)."""
    rule = getattr(ruling, "rule", "") or ""
    if not rule or not isinstance(event, Event):
        return rule
    if ruling.kind in (Ruling.Kind.CATALOGUE, Ruling.Kind.ADJUSTED):
        return ui_of_event(event).cite(rule)
    return rule


@register.filter
def penalty_kind(penalty, family) -> str:
    """An event penalty's (or its definition's) kind in the family's words ("Fixed points" in
    a Balkan event, "Fixed whists" in a Russian one)."""
    label = penalty.get_kind_display()
    return family.penalty_kind_name(penalty.kind, label) if family else str(label)


@register.simple_tag
def can_manage(user, event) -> bool:
    """Whether ``user`` may open the event's desk (an organiser or a referee of it)."""
    return isinstance(event, Event) and permissions.can_referee(user, event)


@register.filter(needs_autoescape=True)
def suits(text, autoescape: bool = True) -> SafeString:
    """``text`` with each suit symbol in a span that colours it: ♦ and ♥ red (``suit-red``),
    ♠ and ♣ black (``suit-black``), on the pages and in the PDFs alike. The rest of the text is
    escaped as usual.

    >>> str(suits("8♦ / one down, 6♠"))
    '8<span class="suit-red">♦</span> / one down, 6<span class="suit-black">♠</span>'
    >>> str(suits("<b>7♥</b>"))
    '&lt;b&gt;7<span class="suit-red">♥</span>&lt;/b&gt;'
    """
    if text is None:
        return mark_safe("")
    escaped = conditional_escape(text) if autoescape else str(text)

    def paint(m: re.Match) -> str:
        colour = "red" if m.group(0) in _RED else "black"
        return f'<span class="suit-{colour}">{m.group(0)}</span>'

    return mark_safe(_SUITS.sub(paint, escaped))


@register.inclusion_tag("tournaments/_job_watch.html")
def job_watch(event, seconds: int = 3, running: bool = False) -> dict:
    """While a background job of ``event`` runs (a draw, the standings, a document, the plan of
    the rounds ahead), the staff page follows it: ``job-watch.js`` asks the event's job state
    every ``seconds`` and reloads the page when it changes, except while a form on the page is
    being filled in (it then offers a reload instead); without JavaScript a plain refresh does
    it. Nothing is written, and nothing asked, while no job runs. ``running``: the page knows
    of work going on that has no job row (a draw sent before jobs had rows)."""
    state = watch(event=event) if isinstance(event, Event) else None
    return {
        "event": event,
        "running": bool(running or (state and state.running)),
        "version": state.version if state else "",
        "seconds": seconds,
    }


@register.filter
def cited(citation) -> str:
    """A rule cited in the code's form (``"001 §4.1.3"``, ``'002 "Kontra"'``) as a referee
    knows it, in the page's language ("Kodeks 1996, 4.1.3"): templates write the rule as the
    code does and show it as people read it (:func:`tournaments.rule_sources.cite_code`)."""
    return rule_sources.cite_code(str(citation))


@register.filter
def rule_of(rule, family) -> str:
    """A rule of ``family``'s rule text ("3.2.21", "Kontra") as a referee knows it ("Kodeks
    1996, 3.2.21"); ``rule`` unchanged without a family."""
    return family.cite(str(rule)) if family is not None and rule else str(rule or "")


@register.filter
def ruling_kind(ruling) -> str:
    """A ruling's kind as its line begins ("Penalty", "Adjusted result"): the rule it rests on
    is cited beside it (:func:`tournaments.words.rulings.kind_words`)."""
    return kind_words(ruling)
