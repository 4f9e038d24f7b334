"""The OpenAPI reference (drf-spectacular, ``/api/schema/``): generated without a warning or an
error, every endpoint with its request, responses and errors."""

import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS

#: Every operation of ``/api/v1/`` (``tournaments/api/urls_*.py``).
OPERATIONS = 44  # 31, a duplicate table's board result (read, enter; issue 43), the series' four (issue 39), the team standings (issue 40), the ratings' four (issue 41),
# the duplicate event and board (issue 43)


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    path = tmp_path_factory.mktemp("openapi") / "schema.yml"
    GENERATOR_STATS.reset()
    # --fail-on-warn raises CommandError on any warning or error; --validate checks the
    # result against the OpenAPI 3 specification.
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(path))
    assert not GENERATOR_STATS
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def operations(schema):
    for url, item in schema["paths"].items():
        if url.startswith("/api/v1/"):
            for method, operation in item.items():
                yield url, method, operation


def operation(schema, operation_id):
    [found] = [op for _, _, op in operations(schema) if op["operationId"] == operation_id]
    return found


def ref(schema, media):
    """The component a response or request body's ``$ref`` points to."""
    name = media["schema"]["$ref"].rsplit("/", 1)[1]
    return schema["components"]["schemas"][name]


def test_every_operation_has_a_summary_a_success_and_error_envelopes(schema):
    ops = list(operations(schema))
    assert len(ops) == OPERATIONS
    assert len({op["operationId"] for _, _, op in ops}) == OPERATIONS
    for url, method, op in ops:
        assert op.get("summary"), (url, method)
        codes = set(op["responses"])
        assert any(code.startswith("2") for code in codes), (url, method)
        for code, response in op["responses"].items():
            if code == "204":
                assert "content" not in response
                continue
            assert response["content"], (url, method, code)
            if code.startswith("4"):
                body = ref(schema, response["content"]["application/json"])
                assert set(body["properties"]) == {"message", "extra"}, (url, method, code)
                assert response["description"], (url, method, code)


def test_the_draw_documents_the_inline_round_and_the_background_job(schema):
    draw = operation(schema, "rounds_draw")
    assert {"200", "202", "400", "403", "404"} <= set(draw["responses"])
    drawn = ref(schema, draw["responses"]["200"]["content"]["application/json"])
    assert "tables" in drawn["properties"] and "draw_seed" in drawn["properties"]
    job = draw["responses"]["202"]
    assert set(ref(schema, job["content"]["application/json"])["properties"]) == {
        "job",
        "status_url",
    }
    assert "Location" in job["headers"]
    body = ref(schema, draw["requestBody"]["content"]["application/json"])
    assert set(body["properties"]) == {"method", "seed", "background"}


def test_keeping_apart_documents_201_and_400(schema):
    apart = operation(schema, "constraints_apart_create")
    assert {"201", "400", "403", "404"} <= set(apart["responses"])
    created = ref(schema, apart["responses"]["201"]["content"]["application/json"])
    assert set(created["properties"]) == {"id", "first", "second", "reason"}
    assert set(operation(schema, "constraints_apart_destroy")["responses"]) == {
        "204",
        "403",
        "404",
    }


def test_protocol_submit_documents_the_table_key_and_the_stale_version(schema):
    submit = operation(schema, "protocols_submit")
    [key] = [p for p in submit["parameters"] if p["name"] == "X-Table-Key"]
    assert key["in"] == "header" and not key.get("required", False)
    assert {"201", "400", "403", "404", "409"} <= set(submit["responses"])
    stale = ref(schema, submit["responses"]["409"]["content"]["application/json"])
    extra = schema["components"]["schemas"]["StaleProtocolErrorExtra"]
    assert stale["properties"]["extra"]["$ref"].endswith("/StaleProtocolErrorExtra")
    assert {"current_version", "differences"} <= set(extra["properties"])
    current = operation(schema, "protocols_current")
    body = ref(schema, current["responses"]["200"]["content"]["application/json"])
    assert set(body["properties"]) == {"table", "referee"}
    for op_id in (
        "protocol_versions_list",
        "protocol_versions_retrieve",
        "protocol_findings_retrieve",
    ):
        assert "X-Table-Key" in [p["name"] for p in operation(schema, op_id)["parameters"]]


def test_the_standings_document_their_pages(schema):
    op = operation(schema, "standings_retrieve")
    params = {p["name"]: p for p in op["parameters"] if p["in"] == "query"}
    assert params["page"]["schema"]["type"] == "integer"
    assert params["page_size"]["schema"]["type"] == "integer"
    assert not params["page"].get("required") and not params["page_size"].get("required")
    assert {"400", "404"} <= set(op["responses"])
    body = ref(schema, op["responses"]["200"]["content"]["application/json"])
    assert {"count", "next", "previous"} <= set(body["properties"])
    assert not {"count", "next", "previous"} & set(body.get("required", ()))


def test_the_csv_import_and_the_pdf_download(schema):
    imported = operation(schema, "entries_import")
    assert "application/json" in imported["requestBody"]["content"]
    csv = ref(schema, imported["requestBody"]["content"]["application/json"])
    assert set(csv["properties"]) == {"csv"}
    assert {"201", "400", "415"} <= set(imported["responses"])
    assert "text/csv" in imported["requestBody"]["content"]
    pdf = operation(schema, "documents_retrieve")["responses"]
    assert pdf["200"]["content"]["application/pdf"]["schema"]["format"] == "binary"
    assert {"404", "409", "410"} <= set(pdf)


def test_the_job_status_documents_done_running_and_failed(schema):
    job = operation(schema, "jobs_retrieve")
    assert set(job["responses"]) == {"200", "409", "410"}
    done = ref(schema, job["responses"]["200"]["content"]["application/json"])
    assert set(done["properties"]) == {"state", "result"}


# --- the documented bodies are the bodies the API returns ------------------------------------

PRIMITIVES = {"integer": int, "number": (int, float), "string": str, "boolean": bool}


def conforms(schema, node, value, where="$"):
    """``value`` fits the schema ``node``: every required key present, no undocumented key,
    the documented types (OpenAPI 3.0: ``nullable``, ``allOf`` of one ``$ref``)."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        return conforms(schema, schema["components"]["schemas"][name], value, where)
    if value is None:
        assert node.get("nullable"), f"{where}: null but not nullable"
        return
    if "allOf" in node:
        for part in node["allOf"]:
            conforms(schema, part, value, where)
        return
    kind = node.get("type")
    if "enum" in node:
        assert value in node["enum"], f"{where}: {value!r} not in {node['enum']}"
    if kind in PRIMITIVES:
        assert isinstance(value, PRIMITIVES[kind]) and not (
            kind != "boolean" and isinstance(value, bool)
        ), f"{where}: {value!r} is not {kind}"
    elif kind == "array":
        assert isinstance(value, list), f"{where}: not an array"
        for i, item in enumerate(value):
            conforms(schema, node["items"], item, f"{where}[{i}]")
    elif kind == "object" and "properties" in node:
        assert isinstance(value, dict), f"{where}: not an object"
        keys, documented = set(value), set(node["properties"])
        assert keys <= documented, f"{where}: undocumented {sorted(keys - documented)}"
        missing = set(node.get("required", ())) - keys
        assert not missing, f"{where}: missing {sorted(missing)}"
        for key in keys:
            conforms(schema, node["properties"][key], value[key], f"{where}.{key}")
    elif kind == "object":
        assert isinstance(value, dict), f"{where}: not an object"


def documented(schema, operation_id, response):
    """The response's status code is documented for the operation, and its body fits."""
    op = operation(schema, operation_id)
    code = str(response.status_code)
    assert code in op["responses"], f"{operation_id}: {code} is not documented"
    if code == "204":
        assert not response.content
        return response
    conforms(
        schema, op["responses"][code]["content"]["application/json"]["schema"], response.json()
    )
    return response


@pytest.mark.django_db
def test_event_round_and_constraint_bodies_are_as_documented(schema):
    from rest_framework.test import APIClient

    from tests.conftest import eager_off
    from tests.factories import EntryFactory, EventFactory, UserFactory
    from tournaments.models import EventRole
    from tournaments.services.rounds import round_create

    event = EventFactory()
    entries = [EntryFactory(event=event) for _ in range(12)]
    organiser = UserFactory()
    EventRole.objects.create(event=event, user=organiser, role="organiser")
    api, staff = APIClient(), APIClient()
    staff.force_authenticate(organiser)
    e = f"/api/v1/events/{event.slug}"

    documented(schema, "events_list", api.get("/api/v1/events/"))
    documented(schema, "events_retrieve", api.get(f"{e}/"))
    documented(schema, "events_retrieve", api.get("/api/v1/events/nope/"))
    documented(schema, "entries_list", api.get(f"{e}/entries/"))
    documented(schema, "entries_register", api.post(f"{e}/entries/register", {"name": "Zed"}))
    r = staff.post(f"{e}/entries/register", {"name": "Zed", "rating": None}, format="json")
    assert documented(schema, "entries_register", r).status_code == 201
    assert staff.post(f"{e}/entries/register", {}, format="json").status_code == 400
    r = staff.post(f"{e}/entries/import", {"csv": "name,club\nYan,Sochi\n"}, format="json")
    assert documented(schema, "entries_import", r).status_code == 201
    r = staff.post(f"{e}/entries/import", {"csv": "name,rating\nA,x\n"}, format="json")
    assert documented(schema, "entries_import", r).status_code == 400
    r = staff.post(f"{e}/entries/import", "name\nB\n", content_type="text/csv")
    assert documented(schema, "entries_import", r).status_code == 201
    r = staff.post(f"{e}/entries/import", b"<players/>", content_type="application/xml")
    assert documented(schema, "entries_import", r).status_code == 415

    round_create(event=event)
    assert (
        documented(schema, "rounds_publish", staff.post(f"{e}/rounds/1/publish")).status_code == 400
    )
    r = staff.post(f"{e}/rounds/1/draw", {"background": False}, format="json")
    assert documented(schema, "rounds_draw", r).status_code == 200
    documented(schema, "rounds_list", staff.get(f"{e}/rounds/"))
    assert documented(schema, "rounds_ahead", staff.get(f"{e}/rounds/ahead")).status_code == 200
    documented(schema, "rounds_retrieve", staff.get(f"{e}/rounds/1/"))
    documented(schema, "rounds_retrieve", api.get(f"{e}/rounds/1/"))  # 404 until published
    assert (
        documented(schema, "rounds_publish", staff.post(f"{e}/rounds/1/publish")).status_code == 200
    )
    documented(schema, "rounds_draw", staff.post(f"{e}/rounds/1/draw", {}, format="json"))  # 400
    r = staff.get(f"{e}/rounds/1/draw-report")
    assert documented(schema, "rounds_draw_report", r).status_code == 200
    seated = {s["entry"] for t in staff.get(f"{e}/rounds/1/").json()["tables"] for s in t["seats"]}
    assert {p["id"] for p in r.json()["players"]} == seated
    assert documented(
        schema, "rounds_draw_report", api.get(f"{e}/rounds/1/draw-report")
    ).status_code in (401, 403)
    r = api.get(f"{e}/rounds/1/draw-record")
    assert documented(schema, "rounds_draw_record", r).status_code == 200
    round_create(event=event)
    r = api.get(f"{e}/rounds/2/draw-record")
    assert documented(schema, "rounds_draw_record", r).status_code == 404
    r = staff.post(f"{e}/rounds/2/commit-seed")
    assert documented(schema, "rounds_commit_seed", r).status_code == 200
    r = staff.post(f"{e}/rounds/2/commit-seed")
    assert documented(schema, "rounds_commit_seed", r).status_code == 400
    r = api.get(f"{e}/rounds/commitments")
    assert documented(schema, "rounds_commitments", r).json()[0]["round"] == 2
    with eager_off():
        documented(schema, "jobs_retrieve", api.get("/api/v1/jobs/no-such-job"))  # 409, PENDING

    first, second = entries[0].pk, entries[1].pk
    r = staff.post(f"{e}/constraints/apart", {"first": first, "second": second}, format="json")
    assert documented(schema, "constraints_apart_create", r).status_code == 201
    pair = r.json()["id"]
    r = staff.post(f"{e}/constraints/apart", {"first": first, "second": first}, format="json")
    assert documented(schema, "constraints_apart_create", r).status_code == 400
    r = staff.post(f"{e}/constraints/fixed-table", {"entry": first, "table": 2}, format="json")
    assert documented(schema, "constraints_fixed_table_set", r).status_code == 200
    r = staff.post(f"{e}/constraints/fixed-table", {"entry": second, "table": None}, format="json")
    assert documented(schema, "constraints_fixed_table_set", r).json()["table"] is None
    documented(schema, "constraints_retrieve", staff.get(f"{e}/constraints/"))
    documented(schema, "constraints_retrieve", api.get(f"{e}/constraints/"))  # 403
    r = staff.delete(f"{e}/constraints/apart/{pair}")
    assert documented(schema, "constraints_apart_destroy", r).status_code == 204
    r = staff.delete(f"{e}/constraints/apart/{pair}")
    assert documented(schema, "constraints_apart_destroy", r).status_code == 404


@pytest.mark.django_db
def test_the_sit_out_fields_are_as_documented(schema):
    from decimal import Decimal

    from rest_framework.test import APIClient

    from tests.factories import EntryFactory, EventFactory
    from tournaments.models import Entry
    from tournaments.services.rounds import round_create, round_draw, round_publish

    event = EventFactory(
        variant="modern", table_size_policy="4", published=True,
        fours_remainder="sit_out", sit_out_score=Decimal(25),
    )  # fmt: skip
    for i in range(14):
        EntryFactory(event=event, status=Entry.Status.CHECKED_IN, substitute=i == 13)
    round_ = round_create(event=event)
    round_draw(round_=round_)
    round_publish(round_=round_)
    api, e = APIClient(), f"/api/v1/events/{event.slug}"
    assert documented(schema, "events_retrieve", api.get(f"{e}/")).json()["sit_out_score"]
    assert any(
        x["substitute"] for x in documented(schema, "entries_list", api.get(f"{e}/entries/")).json()
    )
    r = documented(schema, "rounds_retrieve", api.get(f"{e}/rounds/1/"))
    assert len(r.json()["sitting_out"]) == 1
    assert documented(schema, "rounds_list", api.get(f"{e}/rounds/")).json()[0]["sitting_out"]
    props = schema["components"]["schemas"]["Event"]["properties"]
    choice = props["fours_remainder"]
    choice = next((part for part in choice.get("allOf", ()) if "$ref" in part), choice)
    enum = conforms(schema, choice, "sit_out") or schema["components"]["schemas"][
        choice["$ref"].rsplit("/", 1)[1]
    ]["enum"]
    assert enum == ["refuse", "sit_out", "substitute"]
    with pytest.raises(AssertionError):
        conforms(schema, choice, "sit-out")
    assert "description" in props["sit_out_score"]


@pytest.mark.django_db
def test_protocol_standings_and_document_bodies_are_as_documented(schema):
    from rest_framework.test import APIClient

    from scoring.russian.jsonio import to_dict
    from tests.tournaments.protocols.conftest import make_table
    from tests.tournaments.protocols.test_protocol_services import closed_protocol
    from tournaments.services.standings import standings_recompute

    setup = make_table()
    api, table, referee = APIClient(), APIClient(), APIClient()
    table.credentials(HTTP_X_TABLE_KEY=setup.table.url_key)
    referee.force_authenticate(setup.referee)
    e = f"/api/v1/events/{setup.event.slug}"
    p = f"{e}/rounds/1/tables/1/protocols"

    documented(schema, "standings_retrieve", api.get(f"{e}/standings"))  # never computed
    documented(schema, "standings_status", referee.get(f"{e}/standings/status"))
    documented(schema, "protocols_current", api.get(p))  # 403
    documented(schema, "protocols_current", table.get(p))
    document = to_dict(closed_protocol(setup))
    r = table.post(p, {"protocol": document, "based_on_version": None}, format="json")
    assert documented(schema, "protocols_submit", r).status_code == 201
    r = table.post(p, {"protocol": document, "based_on_version": None}, format="json")
    assert documented(schema, "protocols_submit", r).status_code == 409
    r = table.post(p, {"based_on_version": 1}, format="json")
    assert documented(schema, "protocols_submit", r).status_code == 400
    documented(schema, "protocols_current", referee.get(p))
    documented(schema, "protocol_versions_list", table.get(f"{p}/versions"))
    documented(schema, "protocol_versions_retrieve", table.get(f"{p}/versions/1"))
    documented(schema, "protocol_versions_retrieve", table.get(f"{p}/versions/1?kind=referee"))
    documented(schema, "protocol_findings_retrieve", table.get(f"{p}/findings"))
    documented(schema, "protocol_findings_retrieve", table.get(f"{p}/findings?kind=referee"))

    standings_recompute(event_id=setup.event.pk)
    r = api.get(f"{e}/standings")
    assert documented(schema, "standings_retrieve", r).json()["rows"]
    documented(schema, "standings_retrieve", referee.get(f"{e}/standings"))
    # a page, a page past the last, a bad page size (issue 28)
    r = api.get(f"{e}/standings", {"page": 1, "page_size": 2})
    assert documented(schema, "standings_retrieve", r).json()["count"] >= 2
    assert (
        documented(schema, "standings_retrieve", api.get(f"{e}/standings?page=99")).status_code
        == 404
    )
    r = api.get(f"{e}/standings", {"page_size": 501})
    assert documented(schema, "standings_retrieve", r).status_code == 400
    documented(schema, "standings_status", api.get(f"{e}/standings/status"))
    documented(schema, "standings_status", referee.get(f"{e}/standings/status"))
    r = referee.post(f"{e}/standings/recompute")
    assert documented(schema, "standings_recompute", r).status_code == 202
    documented(schema, "standings_recompute", api.post(f"{e}/standings/recompute"))  # 403

    r = referee.post(f"{e}/documents", {"kind": "standings"}, format="json")
    assert documented(schema, "documents_create", r).status_code == 202  # rendered on commit
    documented(schema, "documents_retrieve", api.get(r.json()["url"]))  # 409, being rendered
    documented(schema, "documents_retrieve", api.get(f"{e}/documents/999999"))  # 404
    documented(schema, "documents_create", referee.post(f"{e}/documents", {}, format="json"))
    r = referee.post(f"{e}/documents", {"kind": "seating"}, format="json")
    assert documented(schema, "documents_create", r).status_code == 400
