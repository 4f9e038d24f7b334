"""Protocol API: submit, get, versions and findings of a table's protocol.

``/api/v1/events/<slug>/rounds/<n>/tables/<t>/protocols``. Referees authenticate by session or
token; the table itself by its private key in the ``X-Table-Key`` header (Tabbycat's URL-key
authentication). Errors are ``{"message", "extra"}``: 400 for bad input, 403, 404, and 409 for a
save or an approval of an old version (``extra.current_version`` and ``extra.differences``) or an
approval someone else made first (``extra.approved_by``).
"""

from __future__ import annotations

import secrets
from functools import cache

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.access import lockout
from tournaments.access.permissions import can_referee
from tournaments.api.jobs import JobQueuedOutput, job_mark, job_output, job_since
from tournaments.api.schema import error
from tournaments.errors import UserFacingError
from tournaments.jobs.outbox import STANDINGS_QUEUED
from tournaments.models import EntryKind, Protocol
from tournaments.selectors.protocols import protocol_current, table_of_event
from tournaments.services import protocols as svc

__all__ = [
    "ProtocolApproveApi",
    "ProtocolFindingsApi",
    "ProtocolSubmitApi",
    "ProtocolVersionDetailApi",
    "ProtocolVersionListApi",
]


@extend_schema_serializer(component_name="Protocol")
class ProtocolOutputSerializer(serializers.ModelSerializer):
    confirmations = serializers.SerializerMethodField()

    class Meta:
        model = Protocol
        fields = [
            "id",
            "entry_kind",
            "version",
            "based_on_version",
            "data",
            "sheet",
            "notation",
            "findings",
            "error_count",
            "warning_count",
            "result",
            "rulings_applied",
            "ruling_entries",
            "is_current",
            "approved",
            "approved_at",
            "players_errors_acknowledged_at",
            "players_errors_note",
            "source",
            "reason",
            "resolution",
            "created_at",
            "confirmations",
        ]

    def get_confirmations(self, obj: Protocol) -> list[int]:
        return sorted(c.seat for c in obj.confirmations.all())


@cache
def _output_fields() -> list[tuple[str, serializers.Field]]:
    """The fields of :class:`ProtocolOutputSerializer` built once: DRF builds a model
    serializer's fields from the model again for every instance, which cost a save's answer more
    CPU than the rest of it (issue 38). Their ``to_representation`` keeps no state."""
    fields = ProtocolOutputSerializer().fields
    return [(name, field) for name, field in fields.items() if name != "confirmations"]


def new_version_answer(protocol: Protocol) -> dict:
    """``ProtocolOutputSerializer(protocol).data`` for a version just saved (confirmed by
    nobody yet), as DRF's ``Serializer.to_representation`` makes it, without building the
    serializer for each save."""
    out = {}
    for name, field in _output_fields():
        value = field.get_attribute(protocol)
        out[name] = None if value is None else field.to_representation(value)
    out["confirmations"] = []
    return out


@extend_schema_serializer(component_name="ProtocolVersionSummary")
class VersionSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Protocol
        fields = [
            "id",
            "entry_kind",
            "version",
            "error_count",
            "is_current",
            "approved",
            "source",
            "reason",
            "created_at",
        ]


# --- OpenAPI documentation (drf-spectacular) --------------------------------------------------

#: The table's private key: lets the table in without a referee's login.
TABLE_KEY = OpenApiParameter(
    "X-Table-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "The table's private key (from its private link). Without a referee's login "
        "(session or token) it is needed; a referee needs none."
    ),
)
#: The ``kind`` query parameter of the version and findings reads.
KIND = OpenApiParameter(
    "kind",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    enum=list(EntryKind.values),
    default=EntryKind.TABLE.value,
    description="Which chain: the table's entry or the referee's second entry (double entry).",
)
_FORBIDDEN = error("Neither a referee's login nor the table's key (``X-Table-Key``).")
_TABLE_NOT_FOUND = error("No such event, round or table.")


@extend_schema_serializer(component_name="ProtocolDifference")
class _DifferenceOutput(serializers.Serializer):
    deal = serializers.IntegerField(
        allow_null=True, help_text="The deal, from 0; null for the ending."
    )
    a = serializers.CharField(help_text='The current version\'s line ("" if it has no such deal).')
    b = serializers.CharField(help_text='The submitted line ("" if it has no such deal).')


@extend_schema_serializer(component_name="StaleProtocolErrorExtra")
class _StaleExtra(serializers.Serializer):
    field = serializers.CharField(help_text='Always "based_on_version".')
    current_version = serializers.IntegerField(
        allow_null=True, help_text="The current version (null: none saved yet)."
    )
    differences = _DifferenceOutput(many=True)


@extend_schema_serializer(component_name="StaleProtocolError")
class _StaleOutput(serializers.Serializer):
    message = serializers.CharField()
    extra = _StaleExtra()


def _error(exc: UserFacingError, code: int = status.HTTP_400_BAD_REQUEST) -> Response:
    return Response(exc.as_dict(), status=code)


_NEITHER = "A referee's login or the table's key (X-Table-Key) is needed."


class _TableApi(APIView):
    """Loads the table; lets in a referee of the event or the holder of the table's key."""

    permission_classes = [AllowAny]

    def load(self, request, slug: str, number: int, table_number: int):
        table = table_of_event(slug=slug, round_number=number, table_number=table_number)
        event = table.round.event
        referee = can_referee(request.user, event)
        given = request.headers.get("X-Table-Key", "")
        by_key = False
        if given:  # a key offered: a wrong one slows its sender, never the table (lockout.py)
            by_key = secrets.compare_digest(given.encode(), table.url_key.encode())
            if not by_key and (wait := lockout.failure(lockout.PRIVATE_KEY, request)):
                raise lockout.LockedOut(lockout.PRIVATE_KEY, wait)
        return event, table, referee, by_key

    def allowed(self, request, slug: str, number: int, table_number: int):
        """:meth:`load`, letting in only a referee or the table's key (else a 403, as
        :meth:`forbidden`); returns the table and whether a referee asks."""
        _event, table, referee, by_key = self.load(request, slug, number, table_number)
        if not (referee or by_key):
            raise exceptions.PermissionDenied(_NEITHER)
        return table, referee

    def forbidden(self) -> Response:
        return Response({"message": _NEITHER, "extra": {}}, status=status.HTTP_403_FORBIDDEN)

    def invalid(self, serializer: serializers.Serializer) -> Response:
        """The 400 of an input its serializer refuses, each field's errors in ``extra``."""
        return Response(
            {"message": "Invalid input.", "extra": serializer.errors},
            status=status.HTTP_400_BAD_REQUEST,
        )


class ProtocolSubmitApi(_TableApi):
    """GET: the current versions; POST: save a new version (JSON document or notation)."""

    @extend_schema_serializer(component_name="ProtocolSubmitInput")
    class InputSerializer(serializers.Serializer):
        protocol = serializers.JSONField(required=False)
        notation = serializers.CharField(required=False, allow_blank=False)
        based_on_version = serializers.IntegerField(allow_null=True, required=False)
        entry_kind = serializers.ChoiceField(choices=EntryKind.choices, default=EntryKind.TABLE)
        reason = serializers.CharField(required=False, allow_blank=True, default="")

        def validate(self, attrs):
            if ("protocol" in attrs) == ("notation" in attrs):
                raise serializers.ValidationError("give either 'protocol' or 'notation'")
            return attrs

    @extend_schema(
        operation_id="protocols_current",
        tags=["protocols"],
        summary="The table's current protocols",
        description=(
            "A referee of the event, or the table by its key. One key per entry kind, null "
            "while nothing is saved."
        ),
        parameters=[TABLE_KEY],
        responses={
            200: inline_serializer(
                "CurrentProtocols",
                {
                    kind: ProtocolOutputSerializer(allow_null=True, help_text=label)
                    for kind, label in EntryKind.choices
                },
            ),
            403: _FORBIDDEN,
            404: _TABLE_NOT_FOUND,
        },
    )
    def get(self, request, slug: str, number: int, table_number: int) -> Response:
        table, referee = self.allowed(request, slug, number, table_number)
        out = {kind: None for kind in EntryKind.values}
        for kind in EntryKind.values:
            current = protocol_current(table, kind)
            if current is not None:
                out[kind] = ProtocolOutputSerializer(current).data
        return Response(out)

    @extend_schema(
        operation_id="protocols_submit",
        tags=["protocols"],
        summary="Save a new version of the table's protocol",
        description=(
            "A referee of the event, or the table by its key (the table's own entry only; the "
            "referee's second entry needs a referee). Give either ``protocol`` (the JSON "
            "document, as a version's ``data``) or ``notation`` (the text), and "
            "``based_on_version``: the current version you started from, null for the first. "
            "A save based on another version is refused with 409 and the differences. "
            "The players come from the draw and the convention, its options and the target "
            "from the event: a document may leave the convention and options out (the "
            "event's are used); one that states others is refused with 400, ``extra.field`` "
            "naming ``players``, ``target``, ``convention`` or ``options`` — whoever submits "
            "it, the table's key or a referee. A closed round takes no more saves by the "
            "table's key (400, ``extra.field`` ``round``); a referee corrects it with a "
            "``reason``."
        ),
        parameters=[TABLE_KEY],
        request=InputSerializer,
        responses={
            201: ProtocolOutputSerializer,
            400: error(
                'Invalid input: ``message`` is "Invalid input." and ``extra`` maps each field '
                "(or ``non_field_errors``) to its errors; or a protocol that cannot be read or "
                "saved (``extra.field`` names the field, ``extra.rule`` the rule if any); or a "
                "body that is not valid JSON."
            ),
            403: error(
                "Neither a referee's login nor the table's key (``X-Table-Key``); or the "
                "referee's entry without a referee's login."
            ),
            404: _TABLE_NOT_FOUND,
            409: error(
                "``based_on_version`` is not the current version: reload, check the "
                "differences and save again.",
                _StaleOutput,
            ),
        },
    )
    def post(self, request, slug: str, number: int, table_number: int) -> Response:
        table, referee = self.allowed(request, slug, number, table_number)
        serializer = self.InputSerializer(data=request.data)
        if not serializer.is_valid():
            return self.invalid(serializer)
        data = serializer.validated_data
        if data["entry_kind"] != EntryKind.TABLE and not referee:
            return self.forbidden()
        try:
            if "notation" in data:
                protocol, sheet = svc.notation_read(table, data["notation"])
            else:
                protocol, sheet = svc.protocol_from_document(table, data["protocol"])
            saved = svc.protocol_save(
                table=table,
                protocol=protocol,
                sheet=sheet,
                notation=data.get("notation", ""),
                based_on_version=data.get("based_on_version"),
                entry_kind=data["entry_kind"],
                reason=data["reason"],
                by=request.user,
                source=Protocol.Source.API,
            )
        except svc.StaleProtocolError as exc:
            return _error(exc, status.HTTP_409_CONFLICT)
        except UserFacingError as exc:
            return _error(exc)
        return Response(new_version_answer(saved), status=status.HTTP_201_CREATED)


class ProtocolVersionListApi(_TableApi):
    @extend_schema(
        operation_id="protocol_versions_list",
        tags=["protocols"],
        summary="Every saved version of the table's protocol",
        description=(
            "A referee of the event, or the table by its key. Both entry kinds (``referee`` "
            "first), oldest version first within each."
        ),
        parameters=[TABLE_KEY],
        responses={
            200: VersionSummarySerializer(many=True),
            403: _FORBIDDEN,
            404: _TABLE_NOT_FOUND,
        },
    )
    def get(self, request, slug: str, number: int, table_number: int) -> Response:
        table, referee = self.allowed(request, slug, number, table_number)
        versions = Protocol.objects.filter(table=table).order_by("entry_kind", "version")
        return Response(VersionSummarySerializer(versions, many=True).data)


class ProtocolVersionDetailApi(_TableApi):
    @extend_schema(
        operation_id="protocol_versions_retrieve",
        tags=["protocols"],
        summary="One version of the table's protocol",
        description="A referee of the event, or the table by its key.",
        parameters=[TABLE_KEY, KIND],
        responses={
            200: ProtocolOutputSerializer,
            403: _FORBIDDEN,
            404: error("No such event, round, table, or version of this kind."),
        },
    )
    def get(self, request, slug: str, number: int, table_number: int, version: int) -> Response:
        table, referee = self.allowed(request, slug, number, table_number)
        kind = request.query_params.get("kind", EntryKind.TABLE)
        protocol = get_object_or_404(
            Protocol.objects.prefetch_related("confirmations"),
            table=table,
            entry_kind=kind,
            version=version,
        )
        return Response(ProtocolOutputSerializer(protocol).data)


class ProtocolFindingsApi(_TableApi):
    @extend_schema(
        operation_id="protocol_findings_retrieve",
        tags=["protocols"],
        summary="The checker's findings on the current version",
        description=(
            "A referee of the event, or the table by its key. Each finding as stored: `code`, "
            "`severity`, `rule`, `message` (English), `deal`, `player`, `column`, `written`, "
            "`expected`; where it can be shown in another language, `text` (the template) and "
            "`params` (its values, in English), and optionally `param_words` (the values that "
            "are themselves words: a ruling by its id, an error's template; docs/"
            "rule-families.md). Keys are only ever added."
        ),
        parameters=[TABLE_KEY, KIND],
        responses={
            200: inline_serializer(
                "ProtocolFindings",
                {
                    "version": serializers.IntegerField(),
                    "error_count": serializers.IntegerField(),
                    "warning_count": serializers.IntegerField(),
                    "findings": serializers.ListField(child=serializers.DictField()),
                },
            ),
            403: _FORBIDDEN,
            404: error(
                'No such event, round or table; or no protocol of this kind yet ("No protocol '
                'yet.").'
            ),
        },
    )
    def get(self, request, slug: str, number: int, table_number: int) -> Response:
        table, referee = self.allowed(request, slug, number, table_number)
        kind = request.query_params.get("kind", EntryKind.TABLE)
        current = protocol_current(table, kind)
        if current is None:
            return Response(
                {"message": "No protocol yet.", "extra": {}}, status=status.HTTP_404_NOT_FOUND
            )
        return Response(
            {
                "version": current.version,
                "error_count": current.error_count,
                "warning_count": current.warning_count,
                "findings": current.findings,
            }
        )


@extend_schema_serializer(component_name="ProtocolApproved")
class ProtocolApprovedOutput(ProtocolOutputSerializer):
    """The approved version, and the standings' recomputation the approval queued."""

    standings = JobQueuedOutput(
        allow_null=True,
        read_only=True,
        help_text=(
            "The standings' recomputation the approval queued (issue 25, item 10): "
            '``state`` "queued" when the job queue is out — the approval is kept and the '
            "standings catch up by themselves once it is back."
        ),
    )

    class Meta(ProtocolOutputSerializer.Meta):
        fields = [*ProtocolOutputSerializer.Meta.fields, "standings"]


class ProtocolApproveApi(_TableApi):
    """POST: a referee approves the version he saw (issue 25: approval bound to a version)."""

    @extend_schema_serializer(component_name="ProtocolApproveInput")
    class InputSerializer(serializers.Serializer):
        version = serializers.IntegerField(
            min_value=1, help_text="The version of the table's record you checked and approve."
        )
        confirm_missing = serializers.BooleanField(
            default=False,
            help_text="Confirm that same version for the players who have not confirmed it.",
        )
        acknowledge_players_errors = serializers.BooleanField(
            default=False,
            help_text=(
                "Approve the computed pulka although figures the players wrote differ from it "
                "(001 §4.2.7): the mismatch stays on record as the players' error, with your "
                "acknowledgement. Refused when the pulka itself has an error."
            ),
        )
        note = serializers.CharField(
            default="",
            allow_blank=True,
            help_text="Why (required with ``acknowledge_players_errors``).",
        )

    @extend_schema(
        operation_id="protocols_approve",
        tags=["protocols"],
        summary="Approve the version of the table's protocol you checked",
        description=(
            "A referee of the event. ``version`` is the version you checked: if the table saved "
            "a newer one since, nothing is approved and the answer is 409 with the differences "
            "(as for a stale save); if another referee approved it first, 409 says who and "
            "when. ``confirm_missing`` confirms that same version for the seats that have not. "
            "The answer's ``standings`` is the recomputation the approval queued: its state "
            '("queued" while the job queue is out: the approval is kept, the standings catch '
            "up by themselves) and its ``status_url``."
        ),
        request=InputSerializer,
        responses={
            200: ProtocolApprovedOutput,
            400: error(
                "Invalid input, or the version cannot be approved yet (errors, confirmations "
                "missing, double entry not resolved): ``extra.field`` names what."
            ),
            403: error("Not a referee of the event (a table's key cannot approve)."),
            404: _TABLE_NOT_FOUND,
            409: error(
                "The version is no longer the current one (``extra.current_version``, "
                "``extra.differences``: ``a`` the current version's line, ``b`` the approved "
                "one's), or it was already approved (``extra.approved_by``, "
                "``extra.approved_at``)."
            ),
        },
    )
    def post(self, request, slug: str, number: int, table_number: int) -> Response:
        event, table, referee, _by_key = self.load(request, slug, number, table_number)
        if not referee:
            return Response(
                {"message": "Only a referee of the event can approve a protocol.", "extra": {}},
                status=status.HTTP_403_FORBIDDEN,
            )
        serializer = self.InputSerializer(data=request.data)
        if not serializer.is_valid():
            return self.invalid(serializer)
        data = serializer.validated_data
        mark = job_mark()
        try:
            protocol = svc.protocol_version(table=table, version=data["version"])
            approved = svc.protocol_approve(
                protocol=protocol,
                by=request.user,
                confirm_missing=data["confirm_missing"],
                acknowledge_players_errors=data["acknowledge_players_errors"],
                note=data["note"],
            )
        except (svc.StaleProtocolError, svc.AlreadyApprovedError) as exc:
            return _error(exc, status.HTTP_409_CONFLICT)
        except UserFacingError as exc:
            return _error(exc)
        job = job_since(mark, task="tournaments.standings_recompute", event_id=event.pk)
        return Response(
            {
                **ProtocolOutputSerializer(approved).data,
                "standings": job_output(job, queued_message=STANDINGS_QUEUED),
            }
        )
