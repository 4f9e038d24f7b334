"""A table key cannot change the event's rules (issue 25, "Results nobody can bend", item 2): a
protocol takes the convention, options, target and players from the event and the draw; a
document that states others is refused naming the field, and nothing is stored."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.russian.jsonio import from_dict, to_dict
from tournaments.errors import UserFacingError
from tournaments.models import Protocol
from tournaments.services.protocols import notation_read

from .test_protocol_services import closed_protocol, save


def url(setup):
    return f"/api/v1/events/{setup.event.slug}/rounds/1/tables/1/protocols"


def table_api(setup) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    return api


@pytest.mark.parametrize(
    ("change", "field", "said"),
    [
        ({"convention": "leningrad"}, "convention", "Sochi"),
        ({"convention": "питер"}, "convention", "Sochi"),  # an alias is the same convention
        ({"options": {"whist_style": "gentleman"}}, "options", "whist_style"),
        ({"target": 50}, "target", "10"),
        ({"players": ["Anna", "Vera", "Boris"]}, "players", "Anna, Boris, Vera"),
    ],
)
def test_a_table_key_document_that_changes_the_rules_is_refused_naming_the_field(
    setup, change, field, said
):
    document = {**to_dict(closed_protocol(setup)), **change}
    r = table_api(setup).post(url(setup), {"protocol": document}, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["extra"]["field"] == field
    assert r.json()["message"].startswith(f"{field}:") and said in r.json()["message"]
    assert not Protocol.objects.exists()


def test_the_text_notation_through_the_key_cannot_change_the_convention_either(setup):
    text = "convention: leningrad\ntarget: 10\nplayers: Anna, Boris, Vera\n\nAnna 6♠ = w/p\n"
    r = table_api(setup).post(url(setup), {"notation": text}, format="json")
    assert r.status_code == 400 and r.json()["extra"]["field"] == "convention"
    text = "target: 12\nplayers: Anna, Boris, Vera\n\nAnna 6♠ = w/p\n"
    r = table_api(setup).post(url(setup), {"notation": text}, format="json")
    assert r.status_code == 400 and r.json()["extra"]["field"] == "target"
    assert not Protocol.objects.exists()


def test_what_a_document_leaves_out_and_what_agrees_is_the_events(setup):
    setup.event.convention_options = {"whist_style": "gentleman"}
    setup.event.save()
    document = to_dict(closed_protocol(setup))
    del document["convention"], document["options"]  # left out: the event's
    r = table_api(setup).post(url(setup), {"protocol": document}, format="json")
    assert r.status_code == 201, r.content
    stored = from_dict(Protocol.objects.get().data)[0]
    assert (stored.convention, dict(stored.options)) == ("sochi", {"whist_style": "gentleman"})
    same = {**document, "convention": "Сочи", "options": {"whist_style": "gentleman"}}
    r = table_api(setup).post(url(setup), {"protocol": same, "based_on_version": 1}, format="json")
    assert r.status_code == 201, (
        r.content
    )  # the same rules, spelled otherwise: stored as the event's
    assert from_dict(Protocol.objects.get(version=2).data)[0].convention == "sochi"


def test_a_referee_cannot_change_them_either(setup):
    """Referees are held to the same rule: the event's settings (the organiser) set the rules
    of every table; before, a referee's JSON stored any rules and his text's were replaced."""
    api = APIClient()
    api.force_authenticate(setup.referee)
    document = {**to_dict(closed_protocol(setup)), "convention": "rostov"}
    r = api.post(url(setup), {"protocol": document}, format="json")
    assert r.status_code == 400 and r.json()["extra"]["field"] == "convention"
    protocol, _sheet = notation_read(
        setup.table, "convention: rostov\ntarget: 10\nplayers: Anna, Boris, Vera\n\nAnna 6♠ = w/p"
    )
    with pytest.raises(UserFacingError) as caught:
        save(setup, protocol, None, by=setup.referee)
    assert caught.value.extra["field"] == "convention"
    assert not Protocol.objects.exists()


def test_the_referees_desk_refuses_a_text_that_changes_the_rules_naming_the_field(client, setup):
    """Item 2 on the desk page: the text's header is held to the event's rules too."""
    client.force_login(setup.referee)
    desk = f"/e/{setup.event.slug}/manage/rounds/1/tables/1/protocol"
    text = "convention: rostov\ntarget: 10\nplayers: Anna, Boris, Vera\n\nAnna 6♠ = w/p\n"
    r = client.post(desk, {"notation": text, "entry_kind": "table", "ending": "closed"})
    assert r.status_code == 400 and "convention: this event plays" in r.content.decode()
    assert not Protocol.objects.exists()
