"""The demo's league (issue 39): the Međimurska liga, a league of Croatian-rules evenings. Its
first evening is the demo's Balkan event as it was (its third round in play); two more evenings
are played, a fourth is scheduled, and the league table counts the best three evenings
(idempotent). The same nine players come back each evening and are recognised by their
federation ids."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from tournaments.demo.balkan import balkan_evening
from tournaments.models import Event, Organisation, OrganisationRole, Series
from tournaments.services.events import event_create, event_update
from tournaments.services.series import (
    series_create,
    series_event_add,
    series_standings_recompute,
    series_update,
)

__all__ = ["CUP_SLUG", "LEAGUE_SLUG", "demo_balkan_league", "demo_federation_cup"]

LEAGUE_SLUG = "medjimurska-liga"


@transaction.atomic
def demo_balkan_league(*, organiser, first: Event) -> Series:
    """The league, its evenings and its table, created once; running it again changes
    nothing."""
    found = Series.objects.filter(slug=LEAGUE_SLUG).first()
    if found is not None:
        return found
    league, _created = Organisation.objects.get_or_create(
        slug="mpl",
        defaults={"name": "Međimurska liga", "kind": Organisation.Kind.LEAGUE, "city": "Čakovec"},
    )
    OrganisationRole.objects.get_or_create(
        organisation=league, user=organiser, role=OrganisationRole.Role.ORGANISER
    )
    event_update(event=first, organisation=league, by=organiser)
    evenings = [first]
    for n, day, seed in ((2, dt.date(2027, 1, 15), 700), (3, dt.date(2027, 2, 12), 900)):
        evenings.append(
            balkan_evening(
                slug=f"demo-liga-{n}",
                name=f"Međimurska liga — večer {n}",
                day=day,
                organiser=organiser,
                seed=seed,
                in_play=False,
                organisation=league,
            )
        )
    evenings.append(
        event_create(
            slug="demo-liga-4",
            name="Međimurska liga — večer 4",
            starts_on=dt.date(2027, 3, 12),
            venue="Klub «Bundeva», Čakovec",
            variant="croatian",
            pulka_target=30,
            rounds_planned=3,
            published=True,
            organisation=league,
            by=organiser,
        )
    )
    series = series_create(
        organisation=league,
        slug=LEAGUE_SLUG,
        name="Međimurska liga 2026/27",
        family="balkan",
        season="2026/27",
        best_of=3,
        min_events=2,
        by=organiser,
    )
    for event in evenings:
        series_event_add(series=series, event=event, by=organiser)
    series = series_update(series=series, published=True, by=organiser)
    series_standings_recompute(series_id=series.pk)
    return series


CUP_SLUG = "federation-cup"


@transaction.atomic
def demo_federation_cup(*, organiser, first: Event) -> Series:
    """A small federation cup of two Russian-rules tournaments of different categories: the
    demo cup (category A, its points × 1.5) and a second stage scheduled (category B); its
    table is provisional until both are played (idempotent)."""
    found = Series.objects.filter(slug=CUP_SLUG).first()
    if found is not None:
        return found
    federation, _created = Organisation.objects.get_or_create(
        slug="federation",
        defaults={"name": "Федерация преферанса", "kind": Organisation.Kind.FEDERATION},
    )
    OrganisationRole.objects.get_or_create(
        organisation=federation, user=organiser, role=OrganisationRole.Role.ORGANISER
    )
    event_update(event=first, organisation=federation, by=organiser)
    second = event_create(
        slug="federation-cup-2",
        name="Кубок федерации — этап 2",
        starts_on=dt.date(2027, 2, 20),
        ends_on=dt.date(2027, 2, 21),
        venue="Санкт-Петербург",
        variant="sochi",
        pulka_target=20,
        rounds_planned=6,
        published=True,
        organisation=federation,
        by=organiser,
    )
    series = series_create(
        organisation=federation,
        slug=CUP_SLUG,
        name="Кубок федерации 2026/27",
        family="russian",
        season="2026/27",
        by=organiser,
    )
    series_event_add(series=series, event=first, category="A", weight="1.5", by=organiser)
    series_event_add(series=series, event=second, category="B", weight="1", by=organiser)
    series = series_update(series=series, published=True, by=organiser)
    series_standings_recompute(series_id=series.pk)
    return series
