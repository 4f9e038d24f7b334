"""Template tags of Pulka's pages and documents."""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from tournaments import rule_sources
from tournaments.access import permissions
from tournaments.errors import said_or_stored
from tournaments.models import Event, Ruling
from tournaments.pdf import contexts as pdf_contexts
from tournaments.selectors.desk import job_watch as watch
from tournaments.variants import event_convention, ui_of_event
from tournaments.words import standings as standings_words
from tournaments.words.rulings import kind_words

register = template.Library()

#: the suit symbols as printed on protocols (rules/contracts.py) and their outline forms
_RED = "♦♥♢♡"
_BLACK = "♠♣♤♧"
_SUITS = re.compile(f"[{_RED}{_BLACK}]")


@register.filter
def variant_named(event: dict) -> str:
    """A PDF context's event header: its convention by its name in the document's language."""
    return pdf_contexts.variant_named(event)


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
def said(words, stored) -> str:
    """A job's error stored as ``words`` in the page's language; ``stored`` (the text saved
    beside them) where there are none: ``{{ f.error_words|said:f.error }}``."""
    return said_or_stored(words, stored or "")


@register.filter
def standings_warning(warning) -> str:
    """A standings recomputation's stored warning in the page's language."""
    return standings_words.warning_said(warning)


@register.filter
def run_outcome(run) -> str:
    """A standings run's outcome in the page's language ("computed", "failed")."""
    return standings_words.run_outcome(run)


@register.filter
def penalty_kind(penalty, family) -> str:
    """An event penalty's (or its definition's) kind in the family's words ("Fixed points" in
    a Balkan event, "Fixed whists" in a Russian one)."""
    label = penalty.get_kind_display()
    return family.penalty_kind_name(penalty.kind, label) if family else str(label)


@register.filter
def partnerships(table, event) -> list:
    """Who partners whom at ``table`` in each sits of a partnership game (Priffe, seed 004:
    the draw's schedule from the table's first dealer, A-PR-5), as ``{"number", "sides"}``;
    empty for a game without partnerships."""
    if not isinstance(event, Event):
        return []
    ui = ui_of_event(event)
    if not ui.partnerships:
        return []
    names = [s.entry.player.name for s in sorted(table.seats.all(), key=lambda s: s.position)]
    return ui.blank_sheet(
        players=names, first_dealer=table.first_dealer, options=event_convention(event)
    )["sits"]


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
