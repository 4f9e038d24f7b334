"""The table's phone without the hall's network (issue 42): the page as an installable web app.

``/t/<key>/sw.js`` is the service worker, scoped to that table's page alone (its scope is the
folder it is served from): it keeps the page and its own script and stylesheet, so a phone that
opened the page once reopens it offline, and it keeps nothing else. ``/t/<key>/manifest`` is the
web app's manifest. ``/t/<key>/send`` takes one send of the phone's outbox
(``tournaments/static/tournaments/table-offline.js``): the page's form fields, the id the phone
made (``client_id``) and the version the send builds on, and answers JSON — ``saved`` with the
version (a resend of an id answers the version the first send stored, ``replay``), ``conflict``
(409: the protocol changed meanwhile, both shown), ``refused`` (400: the reason, e.g. the round
is closed). A revoked key is a 404 as for the page, and the phone stops sending. A player's
protocols page has the same: ``/p/<key>/protocols/sw.js`` keeps his page alone, and
``/p/<key>/protocols/send`` takes a confirmation he made offline.
"""

from __future__ import annotations

import json

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tournaments.access import lockout
from tournaments.errors import BIGINT_MAX, UserFacingError, whole_number
from tournaments.models import Entry, Protocol
from tournaments.selectors import protocols as sel
from tournaments.services import protocols as svc
from tournaments.variants import ui_of_protocol
from tournaments.views.protocols.common import _save_from_post
from tournaments.words import protocols as protocol_words

__all__ = [
    "OFFLINE_ASSETS",
    "outbox_words",
    "player_send",
    "player_worker",
    "table_manifest",
    "table_send",
    "table_worker",
]

#: Pulka's own static files the table's page needs offline (the service worker keeps them).
OFFLINE_ASSETS = (
    "tournaments/pulka.css",
    "tournaments/table-offline.css",
    "tournaments/scroll-boxes.js",
    "tournaments/autosubmit.js",
    "tournaments/protocol-entry.js",
    "tournaments/table-offline.js",
)


def outbox_words() -> dict[str, str]:
    """What the phone's script says, in the page's language (the page carries them as JSON:
    the script itself has no words)."""
    return {
        "heading": _("Kept on this phone"),
        "offline": _(
            "No network: what you enter is kept on this phone and sent, in order, when the "
            "network returns."
        ),
        "online": _("The network is back: sending what this phone holds…"),
        "queued": _("on this phone"),
        "sending": _("sending"),
        "saved": _("saved (version {version})"),
        "conflict": _("not saved: the protocol changed meanwhile"),
        "refused": _("not saved"),
        "waiting": _("waits for the one before it"),
        "conflict_ask": _(
            "The protocol was changed while this phone was offline (a referee's correction or "
            "another phone of this table). Below: what was saved meanwhile and what this phone "
            "holds. Nothing was overwritten: choose."
        ),
        "keep_mine": _("Add this phone's entries after the current version"),
        "discard_mine": _("Discard this phone's entries"),
        "back_to_form": _("Back to the form"),
        "revoked": _(
            "This table's link was replaced by a referee: this phone no longer sends. Ask the "
            "referee for the table's new link; what the phone holds is listed here."
        ),
        "check_tricks": _("The tricks add up to {sum}; a deal has {max}."),
        "check_trick": _("{field}: at most {max} tricks."),
        "check_declarer": _("Choose the declarer: a player at this table."),
        "sitting_out_stale": _(
            "Who deals and sits out is shown as of the last saved version: with the deals this "
            "phone holds, the turn to deal has moved on. The server counts the turn when they "
            "arrive; if the player shown sitting out played this deal, write it on the paper "
            "protocol and enter it when the network returns."
        ),
        "sits_out": _("%(name)s deals and sits out this deal."),
        "check_sitting_out": _(
            "{name} deals and sits out this deal, as this phone counts the turn: leave "
            "blank what is entered for him, or choose another player."
        ),
        "correct_deal": _("Correct deal"),
        "save_correction": _("Save the correction"),
        "delete_deal": _("Delete this deal"),
        "cancel": _("Cancel"),
        "kind_add": _("Deal"),
        "kind_replace": _("Correction of deal {n}"),
        "kind_delete": _("Deal {n} deleted"),
        "kind_sheet": _("A row the players wrote"),
        "kind_ending": _("The ending"),
    }


def player_outbox_words() -> dict[str, str]:
    """The phone's words on a player's own page (his confirmations kept offline)."""
    return {
        **outbox_words(),
        "revoked": _(
            "Your link was replaced by a referee: this phone no longer sends. Ask the referee "
            "for your new link; what the phone holds is listed here."
        ),
        "kind_confirm": _("I confirm this protocol"),
    }


def _table(request, key: str):
    return lockout.guarded(lockout.PRIVATE_KEY, request, lambda: sel.table_by_key(key))


def _entry(request, key: str):
    return lockout.guarded(
        lockout.PRIVATE_KEY,
        request,
        lambda: get_object_or_404(Entry.objects.select_related("event", "player"), url_key=key),
    )


def _worker(page: str, cache: str) -> HttpResponse:
    script = render_to_string(
        "tournaments/protocols/table_sw.js",
        {
            "page": json.dumps(page),
            "assets": json.dumps([static(name) for name in OFFLINE_ASSETS]),
            "cache": json.dumps(cache + page),
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def table_worker(request, key: str) -> HttpResponse:
    """``/t/<key>/sw.js``: the service worker of this table's page (scope ``/t/<key>/``)."""
    _table(request, key)
    return _worker(reverse("protocol-table", args=[key]), "pulka-table:")


@require_GET
def player_worker(request, key: str) -> HttpResponse:
    """``/p/<key>/protocols/sw.js``: the service worker of a player's protocols page, scoped
    to that page's folder: it keeps his page alone (the table's worker's script)."""
    _entry(request, key)
    return _worker(reverse("protocol-player", args=[key]), "pulka-player:")


@require_POST
def player_send(request, key: str) -> JsonResponse:
    """``/p/<key>/protocols/send``: a confirmation the player's phone kept offline. A
    confirmation is stored once whatever the resends; a version no longer current, or one
    the rules do not let him confirm, is refused with the reason; a revoked key is a 404."""
    entry = _entry(request, key)
    try:
        svc.checked_client_id(request.POST.get("client_id", ""))
        protocol = Protocol.objects.filter(
            pk=whole_number(request.POST.get("protocol"), high=BIGINT_MAX),
            table__seats__entry=entry,
        ).first()
        if protocol is None:
            raise UserFacingError(_("No such protocol at your tables."), {"field": "protocol"})
        seat = protocol.table.seats.get(entry=entry).position
        svc.protocol_confirm(protocol=protocol, seat=seat, entry=entry)
    except UserFacingError as exc:  # a stale version too: he confirms the current one
        return JsonResponse(
            {"state": "refused", "message": exc.message, "field": exc.extra.get("field")},
            status=400,
        )
    return JsonResponse(
        {"state": "saved", "version": protocol.version, "replay": False, "errors": 0,
         "summary": "", "findings": []}  # fmt: skip
    )


@require_GET
def table_manifest(request, key: str) -> JsonResponse:
    """``/t/<key>/manifest``: the table's page as an app on the phone's home screen."""
    table = _table(request, key)
    page = reverse("protocol-table", args=[key])
    response = JsonResponse(
        {
            "name": f"{table.round.event.name}: " + _("table %(n)d") % {"n": table.number},
            "short_name": _("Table %(n)d") % {"n": table.number},
            "start_url": page,
            "scope": page,
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#ffffff",
        },
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )
    response["Cache-Control"] = "no-cache"
    return response


def _findings_summary(saved) -> str:
    if not saved.error_count and not saved.warning_count:
        return ""
    words = []
    if saved.error_count:
        words.append(
            ngettext("%(n)d error", "%(n)d errors", saved.error_count) % {"n": saved.error_count}
        )
    if saved.warning_count:
        words.append(
            ngettext("%(n)d warning", "%(n)d warnings", saved.warning_count)
            % {"n": saved.warning_count}
        )
    return ", ".join(words)


@require_POST
def table_send(request, key: str) -> JsonResponse:
    """``/t/<key>/send``: one send of the phone's outbox (the module docstring)."""
    table = _table(request, key)
    client_id = request.POST.get("client_id", "")
    try:
        client_id = svc.checked_client_id(client_id)  # every send names itself
        version, stored = sel.protocol_current_or_sent(table, client_id)
        if stored is not None:  # a resend: the version the first send stored
            saved, replay = stored, True
        else:
            protocol = svc.stored_protocol(version.data) if version else svc.table_header(table)
            ui = ui_of_protocol(protocol)
            saved, replay = _save_from_post(
                request, table, version, protocol, ui, client_id, sent=True
            )
    except svc.StaleProtocolError as exc:
        return JsonResponse(
            {
                "state": "conflict",
                "message": exc.message,
                "current_version": exc.extra.get("current_version"),
                "html": render_to_string(
                    "tournaments/protocols/_stale.html",
                    {"stale": exc, "reload_url": reverse("protocol-table", args=[key])},
                    request=request,
                ),
            },
            status=409,
        )
    except UserFacingError as exc:
        return JsonResponse(
            {
                "state": "refused",
                "message": exc.message,
                "field": exc.extra.get("field"),
                # the round closed: no send of this phone will be taken any more
                "final": exc.extra.get("state") == "closed",
            },
            status=400,
        )
    return JsonResponse(
        {
            "state": "saved",
            "version": saved.version,
            "replay": replay,
            "errors": saved.error_count,
            "summary": _findings_summary(saved),
            "findings": [protocol_words.finding_message(f) for f in saved.findings][:5],
        }
    )
