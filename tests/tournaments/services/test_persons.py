"""Persons across events (issue 39): registering or importing players matches people by
federation id first, then by name and club, offering a likely match rather than guessing; the
organiser's choice links the entry."""

from __future__ import annotations

import datetime as dt

import pytest

from tournaments.errors import UserFacingError
from tournaments.models import Entry, Event, Person
from tournaments.selectors.persons import folded, person_candidates, person_match
from tournaments.services.entries import entries_import_csv, entry_register
from tournaments.services.persons import entry_person_choose

pytestmark = pytest.mark.django_db

CSV = "name,club,federation_id\nAna Kovač,Čakovec,HR-1\nIvo Babić,Varaždin,\nMarko Horvat,,\n"


def event(n):
    day = dt.date(2026, 10, n)
    return Event.objects.create(slug=f"vecer-{n}", name=f"Večer {n}", starts_on=day, ends_on=day)


def test_a_first_import_makes_new_persons():
    result = entries_import_csv(event=event(1), text=CSV)
    assert result.likely == ()
    assert [e.person.name for e in result.entries] == ["Ana Kovač", "Ivo Babić", "Marko Horvat"]
    assert Person.objects.get(federation_id="HR-1").club == "Čakovec"


def test_the_second_import_recognises_an_exact_id_and_offers_the_likely_matches():
    first = entries_import_csv(event=event(1), text=CSV)
    ana, ivo, marko = (e.person for e in first.entries)
    second = entries_import_csv(
        event=event(2),
        text="name;club;fid\nANA KOVAC;;HR-1\nIvo  Babic;Varazdin;\nMarko Horvat;Čakovec;\nNova Igračica;;\n",
    )
    by_name = {e.player.name: e for e in second.entries}
    # the federation id: the same person, whatever the spelling
    assert by_name["Ana Kovač"].person == ana
    # the same name and club (accents and case aside), or the same name where a club is
    # missing: offered, not linked
    offered = {e.player.name: [p.pk for p in persons] for e, persons in second.likely}
    assert offered == {"Ivo  Babic": [ivo.pk], "Marko Horvat": [marko.pk]}
    assert by_name["Ivo  Babic"].person is None and by_name["Marko Horvat"].person is None
    # nobody like her: a new person
    assert by_name["Nova Igračica"].person.name == "Nova Igračica"
    # the organiser confirms one and makes a new person of the other
    entry_person_choose(entry=by_name["Ivo  Babic"], person=ivo)
    entry_person_choose(entry=by_name["Marko Horvat"], person=None)
    assert Entry.objects.get(pk=by_name["Ivo  Babic"].pk).person == ivo
    assert Entry.objects.get(pk=by_name["Marko Horvat"].pk).person != marko
    assert Person.objects.filter(name="Marko Horvat").count() == 2


def test_a_different_club_or_federation_id_is_no_likely_match():
    entries_import_csv(event=event(1), text=CSV)
    assert person_match(name="Ivo Babić", club="Zagreb").kind == "new"
    assert person_match(name="Ana Kovač", federation_id="HR-9").kind == "new"
    assert person_match(name="Ana Kovač", federation_id="HR-1").kind == "exact"
    assert person_match(name="Ana Kovač").kind == "likely"


def test_registering_by_hand_matches_too():
    first = entry_register(event=event(1), name="Lea Šimić", club="Rijeka")
    again = entry_register(event=event(2), name="Lea Simic", club="rijeka")
    assert again.person is None
    assert list(person_candidates(entry=again)) == [first.person]


def test_a_person_entered_already_cannot_be_chosen_again():
    one = event(1)
    first = entry_register(event=one, name="Lea Šimić", club="Rijeka")
    namesake = entry_register(event=one, name="Lea Šimić", club="Rijeka", federation_id="HR-5")
    assert namesake.person is not None and namesake.person != first.person
    other = entry_register(event=one, name="Lea Simić", club="")
    with pytest.raises(UserFacingError) as error:
        entry_person_choose(entry=other, person=first.person)
    assert error.value.extra == {"field": "person"}


def test_folded_names():
    assert folded("Đorđe  Nikolić") == folded("djordje nikolic")
    assert folded("Ana") != folded("Anna")
