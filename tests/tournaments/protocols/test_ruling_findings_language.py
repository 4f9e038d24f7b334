"""A ruling kept as made is read in the reader's language, not the saver's: the finding stores
how to say its ruling and its reason again (``param_words``: the ruling's id, the error's
template) beside the English ``params`` and ``message`` the API has always given."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from scoring.russian.protocol import Call, Game
from tournaments.errors import UserFacingError, say
from tournaments.models import Ruling
from tournaments.services.protocols import table_header
from tournaments.services.rulings import incident_record, ruling_make
from tournaments.words.protocols import finding_message
from tournaments.words.rulings import ruling_in_words

from .test_protocol_services import SIX, save

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)

#: the keys of a stored finding before ``param_words`` (the API's promise)
FINDING_KEYS = {
    "code",
    "severity",
    "rule",
    "message",
    "text",
    "params",
    "deal",
    "data_deal",
    "player",
    "column",
    "written",
    "expected",
}


def _kept(setup, saved_in: str):
    """An adjusted result on deal 1 (001 §3.8.5.1 Б), then the deal deleted by a version saved
    in ``saved_in``: the ruling is kept as made ("An adjusted result needs the deal.")."""
    header = table_header(setup.table)
    deals = (Game(0, SIX, (Call.WHIST, Call.PASS), 6, (3, 1), dealer=0),)
    save(setup, header.with_deals(deals), None)
    incident = incident_record(
        table=setup.table, deal=0, seats=[1, 2], by=setup.referee, description="the plan"
    )
    ruling = ruling_make(
        incident=incident,
        kind=Ruling.Kind.ADJUSTED,
        by=setup.referee,
        reason="3.8.5.1 Б",
        params={"other_tricks": 5, "other_split": [4, 1], "passer": 2, "lot": "played"},
    )
    with translation.override(saved_in):
        version = save(setup, header.with_deals(()), 2)
    (finding,) = [f for f in version.findings if f["code"] == "RULING_NOT_RECOMPUTED"]
    return ruling, finding


def _expected(ruling, language: str) -> str:
    with translation.override(language):
        return translation.gettext("the ruling on {ruling} kept as made: {reason}").format(
            ruling=ruling_in_words(ruling),
            reason=translation.gettext("An adjusted result needs the deal."),
        )


@pytest.mark.parametrize(("saved_in", "read_in"), [("ru", "en"), ("en", "ru"), ("ru", "ru")])
def test_the_whole_finding_is_in_the_readers_language(setup, saved_in, read_in):
    ruling, finding = _kept(setup, saved_in)
    with translation.override(read_in):
        said = finding_message(finding)
    assert said == _expected(ruling, read_in)
    if read_in == "en":
        assert not CYRILLIC.search(said), said
        assert said.endswith("kept as made: An adjusted result needs the deal.")
    else:
        assert said.startswith("решение — тур 1, стол 1, сдача 1: ")
        assert said.endswith("Для присуждённого результата нужна сдача.")
    # the English message and parameters, whoever saved the version
    assert finding["message"] == _expected(ruling, "en")
    assert not CYRILLIC.search(str(finding["params"]))
    assert finding["params"]["reason"] == "An adjusted result needs the deal."


def test_the_api_finding_keeps_its_shape(setup):
    ruling, stored = _kept(setup, "ru")
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    url = f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols/findings"
    with translation.override("ru"):
        r = api.get(url)
    assert r.status_code == 200, r.content
    (finding,) = [f for f in r.json()["findings"] if f["code"] == "RULING_NOT_RECOMPUTED"]
    assert set(finding) == FINDING_KEYS | {"param_words"}  # one key added, none changed
    assert set(finding["params"]) == {"ruling", "reason"}
    assert all(isinstance(v, str) for v in finding["params"].values())
    assert finding["message"] == _expected(ruling, "en")
    assert finding["param_words"] == {
        "ruling": {"ruling": ruling.pk},
        "reason": {"text": "An adjusted result needs the deal.", "params": {}},
    }


def test_an_old_finding_still_displays_as_stored(setup):
    # versions stored before param_words: parameters in the saver's language, as saved
    old = {
        "code": "RULING_NOT_RECOMPUTED",
        "message": "the ruling on round 1, table 1, deal 1: Anna kept as made: gone",
        "text": "the ruling on {ruling} kept as made: {reason}",
        "params": {"ruling": "тур 1, стол 1, сдача 1: Anna", "reason": "сдачи нет"},
    }
    with translation.override("en"):
        assert finding_message(old) == (
            "the ruling on тур 1, стол 1, сдача 1: Anna kept as made: сдачи нет"
        )
    with translation.override("ru"):
        assert finding_message(old) == (
            "решение — тур 1, стол 1, сдача 1: Anna — оставлено как вынесено: сдачи нет"
        )
    older = {"message": "m", "text": "ruling #{ruling} kept as made: {reason}"}
    older["params"] = {"ruling": 7, "reason": "gone"}
    with translation.override("ru"):
        assert finding_message(older) == "решение №7 оставлено как вынесено: gone"


def test_words_that_cannot_be_said_again_fall_back_to_the_stored_parameters(setup):
    ruling, finding = _kept(setup, "ru")
    gone = dict(finding, param_words={"ruling": {"ruling": ruling.pk + 1000}, "reason": "x"})
    with translation.override("ru"):
        said = finding_message(gone)
    assert said.startswith("решение — round 1, table 1, deal 1: ")  # the English parameters
    assert said.endswith(": An adjusted result needs the deal.")


def test_an_error_keeps_its_template_to_be_said_again():
    with translation.override("ru"):
        exc = UserFacingError.said("%(code)s is not a penalty of the rules.", {"code": "XYZ"})
    assert CYRILLIC.search(exc.message) and "XYZ" in exc.message
    assert exc.words == {
        "text": "%(code)s is not a penalty of the rules.",
        "params": {"code": "XYZ"},
    }
    with translation.override("en"):
        assert say(exc.words) == "XYZ is not a penalty of the rules."
    assert UserFacingError("said once").words is None


def test_an_archived_finding_names_the_imported_ruling(setup):
    """The archive (docs/archive-format.md) carries the ruling of a finding's words by its
    reference; the imported finding names the imported ruling, never another row."""
    import json

    from tests.factories import UserFactory
    from tournaments.archive.export import event_archive
    from tournaments.archive.load import event_archive_import
    from tournaments.archive.refs import findings_mapped, words_mapped
    from tournaments.words.protocols import version_reason

    ruling, _finding = _kept(setup, "ru")
    document = json.loads(json.dumps(event_archive(event=setup.event)))
    organiser = UserFactory(username="archivist", is_staff=True, is_superuser=True)
    event = event_archive_import(document=document, by=organiser, slug="copy")
    copied = Ruling.objects.get(incident__event=event)
    assert copied.pk != ruling.pk
    version = event.rounds.get().tables.get().protocols.get(is_current=True)
    (finding,) = [f for f in version.findings if f["code"] == "RULING_NOT_RECOMPUTED"]
    assert finding["param_words"]["ruling"] == {"ruling": copied.pk}
    with translation.override("ru"):
        assert finding_message(finding) == _expected(copied, "ru")
    # the version the ruling wrote, and its log entry, say their reason with the copy's ruling
    rescored = event.rounds.get().tables.get().protocols.get(version=2)
    assert rescored.reason_words["param_words"] == {"ruling": {"ruling": copied.pk}}
    with translation.override("ru"):
        assert version_reason(rescored).startswith(f"Решение — {ruling_in_words(copied)}.")
    (logged,) = event.audit_log.filter(action="protocol.rescored")
    assert logged.data["reason_words"] == rescored.reason_words
    # a ruling the map does not know loses its words: the stored parameters are shown
    (unknown,) = findings_mapped([finding], {"ruling": {}})
    assert set(unknown["param_words"]) == {"reason"}
    assert words_mapped(rescored.reason_words, {"ruling": {}}) is None


def test_a_rescored_versions_reason_is_in_the_readers_language(client, setup):
    """The version a ruling writes says why in the reader's language (the versions page, the
    protocols' log), whoever made the ruling; the stored ``reason`` is English (the API's)."""
    import html

    from django.urls import reverse

    from tournaments.models import Protocol
    from tournaments.words.protocols import version_reason

    header = table_header(setup.table)
    save(setup, header.with_deals((Game(0, SIX, (Call.WHIST, Call.PASS), 6, (3, 1)),)), None)
    incident = incident_record(
        table=setup.table, deal=0, seats=[0], by=setup.referee, description="discard seen"
    )
    with translation.override("ru"):  # a referee reading Russian
        ruling = ruling_make(
            incident=incident,
            kind=Ruling.Kind.CATALOGUE,
            penalty_code="DISCARD_PEEK",
            seat=0,
            reason="видел снос",
            by=setup.referee,
        )
    version = Protocol.objects.get(table=setup.table, is_current=True)
    with translation.override("en"):
        english = f"Ruling on {ruling_in_words(ruling)}. Reason: видел снос"
    with translation.override("ru"):
        russian = f"Решение — {ruling_in_words(ruling)}. Причина: видел снос"
    assert version.reason == english and version.reason_words
    for language, reason in (("en", english), ("ru", russian)):
        with translation.override(language):
            assert version_reason(version) == reason
            versions = reverse("protocol-versions", args=[setup.event.slug, 1, 1])
            log = reverse("protocol-log", args=[setup.event.slug])
        client.force_login(setup.referee)
        assert reason in html.unescape(client.get(versions).content.decode())
        client.force_login(setup.chief)
        assert reason in html.unescape(client.get(log).content.decode())
    # a version stored before reason_words, or a typed reason: as stored
    version.reason_words = None
    with translation.override("ru"):
        assert version_reason(version) == english
