"""Issue 36: the text that was not marked for translation, or was passed through in English, is
said in the reader's language in every language Pulka offers (ru, hr, sr-latn, de, sv): the
Kodeks penalty catalogue on the referees' pages and in a ruling's words, the errors of the pure
packages, the standings settings' warnings and outcomes, the background jobs' stored errors, the
log's sentences and the error pages."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from rules.conventions import InvalidConventionError
from rules.penalties import CATALOGUE, PenaltyError
from rules.variants import FAMILIES, find_any_convention
from scoring.notation_lexer import NotationError
from scoring.russian.penalties import penalty_entries
from scoring.russian.protocol import Game
from tests.factories import EntryFactory, EventFactory, UserFactory
from tests.tournaments.protocols.conftest import incident_form, make_table, talon_peek_ruling
from tests.tournaments.protocols.test_protocol_services import closed_protocol, save
from tournaments import rule_sources
from tournaments.convention_labels import FAMILY_OPTION_LABELS, convention_name, family_name
from tournaments.errors import UserFacingError, error_words, said_error, said_or_stored
from tournaments.jobs.outbox import lost_words
from tournaments.management.commands.locale_build import COMPLETE
from tournaments.models import Avoidance, Entry, Job, Round, Ruling
from tournaments.pdf.contexts import _rules_named
from tournaments.seating import ConstraintError, Constraints, TablePolicy
from tournaments.seating import Entry as SeatingEntry
from tournaments.seating.setup import prepare
from tournaments.selectors.standings import metric_label
from tournaments.selectors.standings_inputs import _warning
from tournaments.services.draw_jobs import draw_job_queue
from tournaments.services.events import (
    standings_configure,
    validate_tiebreaks,
    validate_variant,
)
from tournaments.services.protocols.documents import notation_read
from tournaments.services.rounds import round_create, round_draw
from tournaments.services.ruling_entries import _compute
from tournaments.services.standings import standings_mark_failed
from tournaments.standings import config_from_json
from tournaments.views import errors
from tournaments.words.audit import described
from tournaments.words.standings import run_outcome, warning_said

pytestmark = pytest.mark.django_db

#: the catalogue's English words a page under another language must not show
ENGLISH = [p.name_en for p in CATALOGUE] + [p.writes_en for p in CATALOGUE]


@pytest.fixture
def setup(db):
    """A Russian (Sochi) event's table of Anna, Boris and Vera (the protocols' tests' table)."""
    return make_table()


def _url(language: str, name: str, *args) -> str:
    with translation.override(language):
        return reverse(name, args=args)


@pytest.mark.parametrize("language", COMPLETE)
def test_the_penalty_catalogue_is_in_the_pages_language(client, setup, language):
    """The penalties page lists each Kodeks penalty by its name and what it writes in the
    reader's language, cited as a referee knows it ("Kodeks 1996, 3.2.21"), never "001 §"."""
    client.force_login(setup.referee)
    page = client.get(_url(language, "protocol-penalties", setup.event.slug)).content.decode()
    english = [text for text in ENGLISH if text.replace("'", "&#x27;") in page]
    assert not english, (language, english)
    with translation.override(language):
        talon = translation.gettext("Looked at the talon")
        kodeks = rule_sources.cite("001", "3.2.21")  # the one map of the rule texts' names
    assert talon != "Looked at the talon" and talon in page
    assert kodeks in page and "001 §" not in page


@pytest.mark.parametrize("language", COMPLETE)
def test_a_ruling_and_the_ruling_form_name_the_penalty_in_the_pages_language(
    client, setup, language
):
    """The incidents page's penalty choice and a recorded ruling's words ("Boris: 5 into the
    gora (3.2.21, looked at the talon)") name the catalogue's penalty in the reader's language."""
    save(setup, closed_protocol(setup), None)
    client.force_login(setup.referee)
    url = _url(language, "protocol-incidents", setup.event.slug, 1, 1)
    assert client.post(url, incident_form("Boris, deal 3")).status_code == 302
    incident = setup.table.incidents.get()
    assert client.post(url, talon_peek_ruling(incident)).status_code == 302
    page = client.get(url).content.decode()
    english = [text for text in ENGLISH if text.replace("'", "&#x27;") in page]
    assert not english, (language, english)
    assert "looked at the talon" not in page.lower()
    with translation.override(language):
        talon = translation.gettext("Looked at the talon")
    assert talon[1:] in page  # the ruling's words write it with a small first letter


@pytest.mark.parametrize("language", COMPLETE)
def test_the_log_says_a_change_of_rules_and_of_tie_breaks_in_words(language):
    """``event.family_changed`` and ``standings.tiebreaks`` are sentences on the log page, the
    conventions and tie-breaks named in the reader's language, not action codes."""
    data = {
        "from": "sochi",
        "to": "croatian",
        "reset": {"pulka_target": [20, 30], "tiebreaks": [["raspasy_won"], []]},
    }
    chain = {"before": ["raspasy_won"], "after": [{"round_score": "whists"}, "head_to_head"]}
    with translation.override(language):
        family = described("event.family_changed", data, {})
        tiebreaks = described("standings.tiebreaks", chain, {})
        croatian = translation.gettext("Croatian Preference")
        sochi = translation.gettext("Sochi")
    assert croatian in family and sochi in family and "croatian" not in family, family
    assert "event.family_changed" not in family and "pulka_target" not in family
    assert "standings.tiebreaks" not in tiebreaks and "raspasy_won" not in tiebreaks
    assert "head_to_head" not in tiebreaks and "→" in tiebreaks
    for english in ("The rules changed", "Tie-breaks changed", "the game's size"):
        assert english not in family + tiebreaks, (language, english)


@pytest.mark.parametrize("language", COMPLETE)
def test_conventions_are_named_in_the_readers_language(language):
    """No English gloss beside a convention's name ("Hrvatski preferans (Croatian)"): each
    convention and family is named in the page's language."""
    for family in FAMILIES.values():
        with translation.override(language):
            names = [convention_name(c, family) for c in family.conventions.values()]
            names.append(family_name(family))
        for name in names:
            for gloss in ("(Croatian)", "(Serbian)", "(Slovenian)", "(Viennese)", "(German)"):
                assert gloss not in name, (language, name)
    with translation.override(language):
        assert convention_name("croatian") == translation.gettext("Croatian Preference")
    with translation.override("hr"):
        assert convention_name("croatian") == "Hrvatski preferans"


@pytest.mark.parametrize("language", COMPLETE)
def test_the_error_pages_are_the_sites_in_the_readers_language(client, language):
    """400, 403, 404 and 500 are the site's pages in its layout and the reader's language, not
    Django's English defaults ("Not Found", "Bad Request (400)")."""
    page = client.get(f"/{language}/no-such-page/")
    assert page.status_code == 404
    html = page.content.decode()
    with translation.override(language):
        heading = translation.gettext("Page not found")
    assert heading != "Page not found" and f"<h1>{heading}</h1>" in html
    assert 'class="brand"' in html and "Not Found" not in html
    factory = RequestFactory()
    for status, handler in (
        (400, errors.bad_request),
        (403, errors.permission_denied),
        (404, errors.not_found),
        (500, errors.server_error),
    ):
        request = factory.get(f"/{language}/x/")
        request.user = AnonymousUser()
        with translation.override(language):
            response = handler(request) if status == 500 else handler(request, None)
            said = str(errors.PAGES[status][0])
        with translation.override("en"):
            english = str(errors.PAGES[status][0])
        assert response.status_code == status
        assert said in response.content.decode() and said != english, (language, status)


@pytest.mark.parametrize("language", COMPLETE)
def test_the_standings_settings_say_warnings_and_outcomes_in_the_readers_language(
    client, setup, language
):
    """A recomputation's warnings are stored as words (said at read time; an older snapshot's
    plain string as stored) and each run's outcome code ("computed", "failed: …") is shown in
    the reader's language."""
    warning = {
        "text": "Round %(round)s, table %(table)s: seat %(seat)s has no player; its result is "
        "not counted.",
        "params": {"round": 2, "table": 3, "seat": 4},
        "message": "table 2/3: seat 4 has no entry",
    }
    with translation.override(language):
        said = warning_said(warning)
        assert warning_said("table 1/1: old words") == "table 1/1: old words"
        failed = run_outcome({"outcome": "failed: ValueError: x"})
        computed = run_outcome({"outcome": "computed"})
    assert "Round" not in said and "2" in said and "4" in said, said
    assert failed != "failed" and "ValueError" not in failed and computed != "computed"
    standings_mark_failed(event_id=setup.event.pk, error="ValueError: x", final=False)
    client.force_login(setup.chief)
    page = client.get(_url(language, "standings-manage", setup.event.slug)).content.decode()
    assert f"<td>{failed}</td>" in page and "<td>failed" not in page


def test_a_seat_without_a_player_is_a_warning_in_words():
    """``table_rows`` keeps its warning as a template with values and the English line."""
    found = _warning(
        "Round %(round)s, table %(table)s: seat %(seat)s has no player; its result is not "
        "counted.",
        "table 2/3: seat 4 has no entry",
        round=2,
        table=3,
        seat=4,
    )
    with translation.override("de"):
        assert warning_said(found).startswith("Runde 2, Tisch 3: Auf Platz 4")
    assert found["message"] == "table 2/3: seat 4 has no entry"


@pytest.mark.parametrize("language", COMPLETE)
def test_a_draw_the_engine_refuses_is_said_in_the_readers_language_with_names(language):
    """The seating engine's error (two players kept apart but fixed at one table, stored
    without the service's own check) reaches the organiser in the page's language, with
    players' names; the engine's English message stays for the API and the logs."""
    event = EventFactory(table_size_policy="3")
    a, b, *_ = [EntryFactory(event=event) for _ in range(6)]
    Entry.objects.filter(pk__in=[a.pk, b.pk]).update(fixed_table=2)
    Avoidance.objects.create(event=event, first=a, second=b)
    round_ = round_create(event=event)
    with translation.override(language), pytest.raises(UserFacingError) as err:
        round_draw(round_=round_)
    said = err.value.message
    assert a.player.name in said and b.player.name in said, said
    assert "must_not_meet" not in said and "kept apart" not in said, said
    assert err.value.words["text"].startswith("%(first)s and %(second)s are kept apart")
    with pytest.raises(ConstraintError, match="must_not_meet: 1 and 2 must both sit at table 1"):
        prepare(
            [SeatingEntry(id=1), SeatingEntry(id=2), SeatingEntry(id=3)],
            TablePolicy.THREES,
            Constraints(must_sit={1: 1, 2: 1}, must_not_meet=frozenset({frozenset({1, 2})})),
        )


@pytest.mark.parametrize("language", COMPLETE)
def test_a_refused_tie_break_chain_is_said_in_the_readers_language(language):
    """The standings' errors reach the organiser in the page's language, naming tie-breaks and
    round scores by their names, never their keys; their English message stays."""
    event = EventFactory(variant="croatian", table_size_policy="3", pulka_target=30)
    with translation.override(language):
        with pytest.raises(UserFacingError) as twice:
            standings_configure(event=event, tiebreaks=["head_to_head", "head_to_head"])
        with pytest.raises(UserFacingError) as foreign:
            validate_tiebreaks(["raspasy_won"], "croatian")
        with pytest.raises(UserFacingError) as score:
            validate_tiebreaks([{"round_score": "whists", "cap": 5}], "croatian")
        head_to_head = metric_label("head_to_head")["name"]
    assert head_to_head in twice.value.message and "head_to_head" not in twice.value.message
    for said in (twice.value.message, foreign.value.message, score.value.message):
        assert "_" not in said.replace("%(", ""), said
        for english in ("is in the chain twice", "does not apply", "takes no parameter"):
            assert english not in said, (language, said)
    with pytest.raises(ValueError, match="tie-break 'head_to_head' is in the chain twice"):
        config_from_json(["head_to_head", "head_to_head"])


@pytest.mark.parametrize("language", COMPLETE)
def test_a_refused_convention_option_is_said_in_the_readers_language(language):
    """A convention's error reaches the organiser in the page's language, the option by its
    label ("Refa limit …"), not its key; the rule text's English message stays."""
    with translation.override(language):
        with pytest.raises(UserFacingError) as refa:
            validate_variant("croatian", {"refa_limit": 99})
        with pytest.raises(UserFacingError) as stake:
            validate_variant("viennese", {"base_stake": 15})
        label = str(FAMILY_OPTION_LABELS["balkan"]["refa_limit"])
    assert label in refa.value.message and "refa_limit" not in refa.value.message
    for said in (refa.value.message, stake.value.message):
        assert "is not an integer" not in said and "divisible by ten" not in said, said
        assert "base_stake" not in said, said
    with pytest.raises(InvalidConventionError, match="'refa_limit': 99 is not an integer"):
        find_any_convention("croatian").with_options(refa_limit=99)


@pytest.mark.parametrize("language", COMPLETE)
def test_a_failed_draw_job_is_said_in_the_readers_language(client, language):
    """A draw job run in the worker's language (English here) stores its error's words beside
    the English text; the round's page says them in the reader's language. An older row
    (text only) shows its text as stored."""
    event = EventFactory(table_size_policy="3")
    a, b, *_ = [EntryFactory(event=event) for _ in range(6)]
    Entry.objects.filter(pk__in=[a.pk, b.pk]).update(fixed_table=2)
    Avoidance.objects.create(event=event, first=a, second=b)
    round_ = round_create(event=event)
    with translation.override("en"), pytest.raises(UserFacingError):
        draw_job_queue(round_=round_)
    round_.refresh_from_db()
    assert "are kept apart, but both must sit at table 2" in round_.draw_job_error  # English
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(_url(language, "manage-round", event.slug, 1)).content.decode()
    with translation.override(language):
        said = said_or_stored(round_.draw_job_error_words, "")
    assert said and said != round_.draw_job_error and said in page.replace("&#x27;", "'")
    assert round_.draw_job_error not in page
    Round.objects.filter(pk=round_.pk).update(draw_job_error_words=None)
    page = client.get(_url(language, "manage-round", event.slug, 1)).content.decode()
    assert round_.draw_job_error in page  # an older row: as stored


@pytest.mark.parametrize("language", COMPLETE)
def test_a_lost_job_and_a_bugs_error_are_said_in_the_readers_language(language):
    """Why a job was given up, and a bug's error, kept as words: the sentence in the reader's
    language, the exception's own text kept inside it as Python wrote it."""
    job = Job(task="tournaments.standings_recompute", worker="host:12")
    bug = error_words(KeyError("x"))
    with translation.override(language):
        lost = said_or_stored(lost_words(job), "stored")
        said = said_or_stored(bug, "stored")
    assert "host:12" in lost and "The worker running this job stopped" not in lost, lost
    assert "KeyError: 'x'" in said and "Stopped by an error" not in said, said
    assert said_or_stored(None, "as stored") == "as stored"


@pytest.mark.parametrize("language", COMPLETE)
def test_a_penalty_that_cannot_apply_is_said_in_the_readers_language_with_names(
    setup, language
):
    """Why a penalty of the rules cannot apply (the scoring's PenaltyError) reaches the referee
    in the page's language, the offender by name, not "seat 2"; its English message stays."""
    protocol = closed_protocol(setup)
    deal, game = next((i, d) for i, d in enumerate(protocol.deals) if type(d) is Game)
    seat = (game.declarer + 1) % protocol.size
    arguments = {
        "protocol": protocol,
        "deal": deal,
        "kind": Ruling.Kind.CATALOGUE,
        "penalty_code": "DISCARD_PEEK",
        "seat": seat,
        "params": {},
        "definition": None,
    }
    with translation.override(language), pytest.raises(UserFacingError) as err:
        _compute(**arguments)
    said = err.value.message
    assert protocol.players[seat] in said and "is not the declarer" not in said, said
    assert "DISCARD_PEEK" not in said and "seat" not in said.lower(), said
    with pytest.raises(PenaltyError, match="is not the declarer of deal"):
        penalty_entries("DISCARD_PEEK", protocol, deal=deal, seat=seat)


def test_the_filled_protocol_names_the_rule_family_in_every_language():
    """The filled protocol's header names the rule family in the document's language (the
    Russian family on a German sheet: not "Russian Preference")."""
    names = _rules_named(EventFactory(variant="sochi"))["family_names"]
    assert set(names) >= set(COMPLETE)
    assert names["de"] == "Russische Préférence" and names["hr"] == "Ruski preferans"
    assert names["ru"] != "Russian Preference" and names["sv"] != "Russian Preference"


@pytest.mark.parametrize("language", COMPLETE)
def test_a_notation_line_out_of_order_is_said_in_the_readers_language(setup, language):
    """The referee's text with a deal numbered out of order: the reason in the page's
    language where the notation gives its words (its English reason stays on the error)."""
    with translation.override(language), pytest.raises(UserFacingError) as err:
        notation_read(setup.table, "2. raspasy 4 3 3")
    said = err.value.message
    assert "expected deal number" not in said and "Deal number" not in said, said
    assert "1" in said, said
    cause = err.value.__cause__
    assert isinstance(cause, NotationError) and cause.reason == "expected deal number 1."


@pytest.mark.parametrize("language", COMPLETE)
def test_a_team_draw_the_engine_refuses_is_said_in_the_readers_language(language):
    """Issue 40's refusals (a team with more players present than tables; two teammates fixed
    at one table; two partners of one team) carry their words: said in the reader's language,
    with players' names, never the engine's English."""
    teams = {x: "Kazan" if x < 4 else f"T{x}" for x in range(9)}
    names = {x: f"Player {x}" for x in range(9)}
    refusals = []
    for entries, constraints, policy in (
        (range(9), Constraints(teams=teams), TablePolicy.THREES),
        (range(9), Constraints(teams={0: "A", 1: "A"}, must_sit={0: 2, 1: 2}), TablePolicy.THREES),
        (
            range(8),
            Constraints(teams={0: "A", 1: "A"}, partners=((0, 1), (2, 3), (4, 5), (6, 7))),
            TablePolicy.PARTNERSHIPS,
        ),
    ):
        with pytest.raises(ConstraintError) as err:
            prepare([SeatingEntry(id=x) for x in entries], policy, constraints)
        refusals.append(err.value)
    assert "team 'Kazan' has 4 players present, but this round has 3 tables" in str(refusals[0])
    with translation.override(language):
        said = [said_error(e, names) for e in refusals]
    assert all(e.text for e in refusals)
    assert "Kazan" in said[0] and "4" in said[0] and "3" in said[0], said[0]
    assert "Player 0" in said[1] and "Player 1" in said[1] and "2" in said[1], said[1]
    assert "Player 0" in said[2] and "Player 1" in said[2], said[2]
    if language != "en":
        assert not any("never sit at one table" in s for s in said), said
