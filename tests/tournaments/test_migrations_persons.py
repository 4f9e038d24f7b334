"""Migration 0018 (issue 39): a person for every player who has entries."""

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("tournaments", "0017_leagues_organisations_persons_series")
AFTER = ("tournaments", "0018_leagues_persons_for_entries")


def test_entries_made_before_persons_point_at_one():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    apps = executor.loader.project_state([BEFORE]).apps
    Event = apps.get_model("tournaments", "Event")
    Player = apps.get_model("tournaments", "Player")
    Entry = apps.get_model("tournaments", "Entry")
    day = dt.date(2026, 3, 1)
    one = Event.objects.create(slug="one", name="One", starts_on=day, ends_on=day)
    two = Event.objects.create(slug="two", name="Two", starts_on=day, ends_on=day)
    member = Player.objects.create(name="Ana Kovač", club="Čakovec", federation_id="HR-7")
    first = Player.objects.create(name="Ivo Babić")
    again = Player.objects.create(name="Ivo Babić")  # a new record at each registration
    for event, player in ((one, member), (two, member), (one, first), (two, again)):
        Entry.objects.create(event=event, player=player, url_key=f"k{event.pk}-{player.pk}")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([AFTER])
    apps = executor.loader.project_state([AFTER]).apps
    Entry = apps.get_model("tournaments", "Entry")
    Person = apps.get_model("tournaments", "Person")
    persons = {e.player_id: e.person for e in Entry.objects.select_related("person")}
    assert persons[member.pk].federation_id == "HR-7"
    assert persons[member.pk].club == "Čakovec"
    assert persons[member.pk].name_key == "ana kovac"  # what identity matching looks up
    assert Entry.objects.filter(person=persons[member.pk]).count() == 2
    # the two records of Ivo Babić are not guessed to be one person: an organiser merges them
    assert persons[first.pk] != persons[again.pk]
    assert Person.objects.count() == 3
    assert not Entry.objects.filter(person__isnull=True).exists()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the latest for the next test
