import pytest

from tests.factories import EntryFactory, EventFactory
from tournaments.errors import UserFacingError
from tournaments.models import Entry, Player
from tournaments.services.entries import (
    CsvImportError,
    entries_import_csv,
    entry_check_in,
    entry_reenter,
    entry_register,
    entry_rotate_key,
    entry_withdraw,
)

pytestmark = pytest.mark.django_db

GOOD_CSV = "name,club,city,rating,federation_id\n" + "\n".join(
    f"Player {i:02d},Club {i % 7},City,{1500 + i},F{i:04d}" for i in range(60)
)


def test_import_of_sixty_players():
    event = EventFactory()
    entries = entries_import_csv(event=event, text=GOOD_CSV).entries
    assert len(entries) == 60
    assert Entry.objects.filter(event=event).count() == 60
    p = Player.objects.get(federation_id="F0007")
    assert (p.name, p.club, p.rating) == ("Player 07", "Club 0", 1507)


def test_import_accepts_semicolons_russian_headers_and_a_bom():
    event = EventFactory()
    text = "\ufeffИмя;Клуб;Город;Рейтинг\nИванов И.;Ферзь;Москва;1600\nПетров П.;;Сочи;\n"
    entries = entries_import_csv(event=event, text=text).entries
    assert [e.player.name for e in entries] == ["Иванов И.", "Петров П."]
    assert entries[0].player.city == "Москва"
    assert entries[1].player.rating is None


def test_import_reports_every_bad_line_and_imports_nothing():
    event = EventFactory()
    EntryFactory(event=event, player__name="Old", player__federation_id="F9")
    text = (
        "name,club,rating,federation_id\n"
        "Anna,A,1500,F1\n"
        ",B,1500,F2\n"  # 3: no name
        "Boris,B,strong,F3\n"  # 4: rating not a number
        "Vera,V,1400,F1\n"  # 5: federation id repeated
        "Oleg,O,,F9\n"  # 6: already entered
        "Anna,A,,\n"  # 7: a namesake without ids is fine? no: Anna has F1 here
        "Ivan,I,,\n"
        "Ivan,I,,\n"  # 9: duplicate name without ids
        f"{'x' * 200},,,\n"  # 10: too long
    )
    with pytest.raises(CsvImportError) as info:
        entries_import_csv(event=event, text=text)
    found = {(e.line, e.field) for e in info.value.errors}
    assert found == {
        (3, "name"),
        (4, "rating"),
        (5, "federation_id"),
        (6, "federation_id"),
        (9, "name"),
        (10, "name"),
    }
    assert "nothing was imported" in info.value.message
    assert [line["line"] for line in info.value.extra["lines"]] == [3, 4, 5, 6, 9, 10]
    assert Entry.objects.filter(event=event).count() == 1  # only the one entered before


@pytest.mark.parametrize(
    ("text", "field"),
    [("", "file"), ("club,city\nA,B\n", "name"), ("name\n", "file"), ("name\nA\x00B\n", "file")],
)
def test_import_refuses_unusable_files(text, field):
    with pytest.raises(CsvImportError) as info:
        entries_import_csv(event=EventFactory(), text=text)
    assert info.value.errors[0].field == field


def test_register_by_hand_late_entry_withdrawal_and_reentry():
    event = EventFactory()
    entry = entry_register(event=event, name="Anna", club="Ферзь")
    assert entry.joined_round is None  # no round played yet
    event.rounds.create(number=1, state="closed")
    late = entry_register(event=event, name="Late Larry")
    assert late.joined_round == 2
    with pytest.raises(UserFacingError) as info:
        entry_register(event=event, name="   ")
    assert info.value.extra["field"] == "name"
    entry_withdraw(entry=entry, reason="ill")
    with pytest.raises(UserFacingError):
        entry_check_in(entry=entry)
    entry_reenter(entry=entry, reason="better")
    assert entry.status == Entry.Status.CHECKED_IN
    with pytest.raises(UserFacingError):
        entry_reenter(entry=entry)


def test_private_keys_are_unguessable_and_revocable():
    entry = EntryFactory()
    old = entry.url_key
    assert len(old) >= 20
    entry_rotate_key(entry=entry)
    entry.refresh_from_db()
    assert entry.url_key != old
    assert not Entry.objects.filter(url_key=old).exists()


def test_same_federation_id_is_one_player_across_events():
    a, b = EventFactory(), EventFactory()
    entry_register(event=a, name="Anna", federation_id="RU-1", club="Old club")
    entry_register(event=b, name="Anna K.", federation_id="RU-1", club="New club")
    assert Player.objects.filter(federation_id="RU-1").count() == 1
    assert Player.objects.get(federation_id="RU-1").club == "New club"
    with pytest.raises(UserFacingError) as info:
        entry_register(event=b, name="Anna", federation_id="RU-1")
    assert info.value.extra["field"] == "federation_id"


def test_importing_an_extended_list_again():
    """Players already entered (by federation id, or by name without one) are refused line by
    line; with ``skip_entered`` they are left out and the new ones entered."""
    event = EventFactory()
    entries_import_csv(event=event, text="name,club,federation_id\nАнна,Ферзь,\nBoris,B,F2\n")
    extended = "name,club,federation_id\nанна,Ферзь,\nBoris,B,F2\nVera,V,\n"
    with pytest.raises(CsvImportError) as info:
        entries_import_csv(event=event, text=extended)
    assert {(e.line, e.field) for e in info.value.errors} == {(2, "name"), (3, "federation_id")}
    assert "namesakes" in info.value.errors[0].message
    assert event.entries.count() == 2  # nothing imported
    result = entries_import_csv(event=event, text=extended, skip_entered=True)
    assert [e.player.name for e in result.entries] == ["Vera"] and result.skipped == (2, 3)
    assert sorted(event.entries.values_list("player__name", flat=True)) == ["Boris", "Vera", "Анна"]
    again = entries_import_csv(event=event, text=extended, skip_entered=True)
    assert again.entries == [] and again.skipped == (2, 3, 4)


def test_late_entries_imported_after_a_round_join_the_next_round():
    event = EventFactory()
    event.rounds.create(number=1, state="closed")
    event.rounds.create(number=2, state="draft")
    (late,) = entries_import_csv(event=event, text="name\nLate Larry\n").entries
    assert late.joined_round == 2
    # at the venue once the event has begun: checked in, so the next draw seats them
    assert late.status == Entry.Status.CHECKED_IN
    by_hand = entry_register(event=event, name="Late Lena")
    assert (by_hand.joined_round, by_hand.status) == (2, Entry.Status.CHECKED_IN)
    early = entry_register(event=EventFactory(), name="Early Eva")
    assert early.status == Entry.Status.REGISTERED


def test_a_namesake_by_hand_needs_a_federation_id():
    event = EventFactory()
    entry_register(event=event, name="Ivan Petrov")
    with pytest.raises(UserFacingError, match="federation id") as info:
        entry_register(event=event, name="ivan petrov")
    assert info.value.extra == {"field": "name"}
    assert entry_register(event=event, name="Ivan Petrov", federation_id="RU-77").pk
    assert event.entries.count() == 2


def test_a_skipped_line_is_left_out_whole():
    """With ``skip_entered`` a line of a player already entered is not read further: a bad
    cell on it refuses nothing."""
    event = EventFactory()
    entries_import_csv(event=event, text="name,rating,federation_id\nBoris,1500,F2\n")
    text = "name,rating,federation_id\nBoris,strong,F2\nVera,1400,\n"
    result = entries_import_csv(event=event, text=text, skip_entered=True)
    assert [e.player.name for e in result.entries] == ["Vera"] and result.skipped == (2,)
    with pytest.raises(CsvImportError) as info:
        entries_import_csv(event=event, text=text)
    assert {(e.line, e.field) for e in info.value.errors} == {
        (2, "rating"),
        (2, "federation_id"),
        (3, "name"),  # Vera came in with the import before
    }


@pytest.mark.parametrize(
    "header",
    ["ime;klub;grad", "Name;Verein;Ort", "namn;klubb;ort", "Ime;Klub;Mesto", "name,club,city"],
)
def test_csv_import_reads_the_column_names_in_every_language(header):
    """Issue 36: a club in Zagreb, Vienna or Uppsala imports its list with the column names in
    its own language, as English and Russian ones are read."""
    event = EventFactory()
    sep = header[len(header.split(";")[0])] if ";" in header else ","
    text = header + "\n" + sep.join(["Ana Horvat", "Klub Zagreb", "Zagreb"]) + "\n"
    (entry,) = entries_import_csv(event=event, text=text).entries
    assert (entry.player.name, entry.player.club, entry.player.city) == (
        "Ana Horvat",
        "Klub Zagreb",
        "Zagreb",
    )


@pytest.mark.parametrize(
    "header",
    [
        "ФИО;Клуб;Город;Рейтинг;Номер;Команда",
        "Ime i prezime;Klub;Mjesto;Rejting;Članski broj;Ekipa",
        "Ime;Klub;Grad;Rejting;Broj;Momčad",
        "Ime i prezime;Klub;Mesto;Rejting;Članski broj;Tim",
        "Vor- und Nachname;Verein;Ort;Wertungszahl;Mitgliedsnummer;Mannschaft",
        "Name;Verein;Wohnort;Elo;Nummer;Team",
        "Namn;Klubb;Ort;Rating;Medlemsnummer;Lag",
        "Spelare;Förening;Hemort;Rating;Medlemsnummer;Lag",
    ],
)
def test_csv_import_reads_every_column_as_a_club_there_writes_it(header):
    """Issue 36: a club's list in its own words, its full-name, member-number and team columns
    included (a team of three, the smallest a team may be)."""
    event = EventFactory()
    rows = [
        ["Ana Horvat", "Klub Zagreb", "Zagreb", "1510", "HR-1", "Sjever"],
        ["Branko Kovač", "Klub Zagreb", "Zagreb", "1490", "HR-2", "Sjever"],
        ["Cvijeta Babić", "Klub Split", "Split", "", "HR-3", "Sjever"],
    ]
    text = header + "\n" + "\n".join(";".join(r) for r in rows) + "\n"
    entries = entries_import_csv(event=event, text=text).entries
    got = [
        (e.player.name, e.player.club, e.player.city, e.player.rating, e.player.federation_id,
         e.team_membership.team.name)
        for e in entries
    ]  # fmt: skip
    assert got == [(n, c, city, int(r) if r else None, f, t) for n, c, city, r, f, t in rows]


def test_a_csv_lines_error_names_the_column_in_the_readers_language():
    """A bad line's field is named as the page names it, never ``federation_id``."""
    from django.utils import translation

    event = EventFactory()
    entries_import_csv(event=event, text="name,federation_id\nAna,F1\n")
    with pytest.raises(CsvImportError) as info, translation.override("hr"):
        entries_import_csv(event=event, text="ime;broj\nBranko;F1\n")
    with translation.override("hr"):
        (said,) = [str(e) for e in info.value.errors]
        assert "Broj u savezu" in said and "federation_id" not in said, said
