"""Standings and documents pages. Thin: each loads the event, calls one selector or service and
renders; nothing here computes standings (they are read from the stored snapshot).

Public (published events): ``/e/<slug>/standings/`` (overall), ``…/rounds/<n>/`` (a round's
results), ``…/cross/`` (who met whom), ``…/players/<entry>/`` (a player's page),
``/e/<slug>/documents/`` (PDFs). Organisers and referees: ``/e/<slug>/manage/standings/``
(state of the recomputation, tie-break chain) and ``/e/<slug>/manage/documents/`` (render PDFs).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.errors import UserFacingError
from tournaments.models import Entry, Event, GeneratedFile, Round, Table
from tournaments.pdf import PAPERS
from tournaments.pdf_files import generated_file_request, qr_address, qr_address_is_local
from tournaments.permissions import (
    PUBLIC_DOCUMENTS,
    can_organise,
    can_read_document,
    can_referee,
    can_request_document,
    readable_documents,
)
from tournaments.selectors import standings as sel
from tournaments.selectors.sit_out import event_sit_outs
from tournaments.services.events import round_scores_of
from tournaments.services.jobs import DOCUMENT_QUEUED, STANDINGS_QUEUED, jobs_waiting
from tournaments.services.standings import standings_configure, standings_schedule
from tournaments.standings import ROUND_SCORES
from tournaments.standings.metrics import tiebreak_keys_for
from tournaments.variants import event_variant, ui_of_event
from tournaments.views.decorators import posted_id

#: how long a rendered cross-table stays cached (its key changes with every recomputation;
#: the time only bounds what an old version occupies)
CROSS_CACHE_SECONDS = 3600


def _public_event(request, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not event.published and not can_referee(request.user, event):
        raise Http404
    return event


def _staff_event(request, slug: str) -> Event | None:
    """The event if the user referees or organises it; None when a login is needed."""
    event = get_object_or_404(Event, slug=slug)
    if not request.user.is_authenticated:
        return None
    if not can_referee(request.user, event):
        raise PermissionDenied
    return event


def _criterion(event: Event) -> str | None:
    """What a table result is, as the event's rule family says (``None``: the page's own)."""
    from tournaments.variants import event_convention, ui_of_event

    try:
        return ui_of_event(event).standings_criterion(event_convention(event))
    except (LookupError, ValueError):
        return None


def standings(request, slug: str):
    event = _public_event(request, slug)
    ui = ui_of_event(event)
    view = sel.standings_view(event=event)
    return render(
        request,
        "tournaments/standings/standings.html",
        {
            "event": event,
            "criterion": _criterion(event),
            "ui": ui,
            **view,
            # the tie-breaks in the family's words (a Balkan table result is in points)
            "tiebreak_columns": [
                {**c, **ui.metric_label(c["key"])} for c in view.get("tiebreak_columns", [])
            ],
            "sit_outs": event_sit_outs(event=event),
            "staff": can_referee(request.user, event),
        },
    )


def round_results(request, slug: str, number: int):
    event = _public_event(request, slug)
    get_object_or_404(Round, event=event, number=number)
    return render(
        request,
        "tournaments/standings/round.html",
        {"event": event, "ui": ui_of_event(event), **sel.round_results(event=event, number=number)},
    )


def _cross_table_html(event: Event, cross: dict) -> str:
    """The cross-table (head and rows) as HTML, written directly: a million cells at 1,000
    players are too many for the template engine (3.5 s); strings are escaped and numbers
    localised as the template would."""
    rounds_word = escape(_("rounds"))
    link = reverse("standings-player", args=[event.slug, 0]).replace("/0/", "/%d/")
    order = cross["order"]
    matrix = cross["matrix"]
    head = "".join(
        f'<th class="num" title="{escape(r["name"])}">{i}</th>'
        for i, r in enumerate(cross["rows"], start=1)
    )
    out = [
        f'<thead><tr><th class="num">{escape(_("Place"))}</th><th>{escape(_("Player"))}</th>'
        f'{head}<th class="num">{escape(_("Total"))}</th></tr></thead>\n<tbody>'
    ]
    for i, row in enumerate(cross["rows"], start=1):
        mine = matrix.get(row["entry"], {})
        cells = []
        for other in order:
            c = mine.get(other)
            if other == row["entry"]:
                cells.append('<td class="self">×</td>')
            elif c is None:
                cells.append("<td></td>")
            else:
                cells.append(
                    f'<td class="num{" provisional" if c["provisional"] else ""}" '
                    f'title="{rounds_word} {", ".join(map(str, c["rounds"]))}">'
                    f"{escape(localize(c['result']))}</td>"
                )
        out.append(
            f'<tr><td class="num">{escape(row["place_label"])}</td><td>{i}. '
            f'<a href="{link % row["entry"]}">{escape(row["name"])}</a></td>\n    '
            + "".join(cells)
            + f'\n    <td class="num"><strong>{escape(localize(row["total"]))}</strong></td></tr>'
        )
    out.append("</tbody>")
    return "".join(out)


def cross_table(request, slug: str):
    """The table is written once per stored version of the standings and language, then served
    from the cache (a recomputation stores a new version, so the key changes with it); the page
    around it is rendered per request (it shows who is logged in)."""
    event = _public_event(request, slug)
    snapshot = sel.standings_header(event=event)
    version = sel.snapshot_version(snapshot)
    key = f"pulka:cross:{event.pk}:{version}:{get_language()}"
    table = cache.get(key)
    view = {"snapshot": snapshot, **sel.decoded_standings(snapshot).view}
    if table is None:
        table = _cross_table_html(event, sel.cross_table(event=event, snapshot=snapshot))
        cache.set(key, table, CROSS_CACHE_SECONDS)
    return render(
        request,
        "tournaments/standings/cross.html",
        {
            "event": event,
            **view,
            "cross_note": ui_of_event(event).cross_table_note,  # what a cell is in the family
            "cross_table": mark_safe(table),  # noqa: S308 (escaped above)
        },
    )


def player(request, slug: str, entry_id: int):
    event = _public_event(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), event=event, pk=entry_id)
    return render(
        request,
        "tournaments/standings/player.html",
        {"event": event, "ui": ui_of_event(event), **sel.player_standing(event=event, entry=entry)},
    )


def documents(request, slug: str):
    event = _public_event(request, slug)
    files = [
        f
        for f in sel.generated_files(event=event)
        if f.kind in PUBLIC_DOCUMENTS and f.status == GeneratedFile.Status.OK
    ]
    return render(
        request,
        "tournaments/standings/documents.html",
        {"event": event, "files": files, "staff": can_referee(request.user, event)},
    )


def document_download(request, slug: str, file_id: int):
    event = _public_event(request, slug)
    f = get_object_or_404(GeneratedFile, event=event, pk=file_id)
    if not can_read_document(request.user, event, f.kind):
        raise Http404
    if f.status != GeneratedFile.Status.OK or not f.file:
        raise Http404
    return FileResponse(
        f.file.open("rb"), as_attachment=False, filename=f.filename, content_type=f.content_type
    )


@require_http_methods(["GET", "POST"])
def manage_standings(request, slug: str):
    event = _staff_event(request, slug)
    if event is None:
        return redirect_to_login(request.get_full_path())
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "recompute":
            job = standings_schedule(event_id=event.pk)
            job.refresh_from_db(fields=["state"])
            if job.state == job.State.QUEUED:  # the broker is down: the sweep sends it later
                messages.warning(request, STANDINGS_QUEUED)
            elif job.state == job.State.DONE:  # ran inline: say so, not "scheduled"
                messages.success(request, _("The standings are recomputed."))
            elif job.state == job.State.FAILED:
                messages.error(request, _("The recomputation failed; see below."))
            else:
                messages.success(request, _("Recomputation scheduled."))
        elif action == "tiebreaks":
            if not can_organise(request.user, event):
                raise PermissionDenied
            chain: list = [k for k in request.POST.getlist("tiebreak") if k]
            score = request.POST.get("round_score", "whists")
            if score != "whists":
                params = {}
                if score == "capped":
                    cap = (request.POST.get("cap") or "200").strip()
                    if not cap.isdigit():
                        messages.error(request, _("The cap must be a whole number."))
                        return redirect("standings-manage", slug=event.slug)
                    params["cap"] = int(cap)
                if score == "scaled":
                    params["factor"] = request.POST.get("factor") or "1"
                chain.insert(0, {"round_score": score, **params})
            try:
                standings_configure(event=event, tiebreaks=chain, by=request.user)
                messages.success(request, _("Tie-break chain saved; standings are recomputed."))
            except UserFacingError as error:
                messages.error(request, error.message)
        return redirect("standings-manage", slug=event.slug)
    view = sel.standings_view(event=event)
    current = [k for k in event.tiebreaks if isinstance(k, str)]
    score = next(
        (k for k in event.tiebreaks if isinstance(k, dict) and "round_score" in k),
        {"round_score": "whists"},
    )
    return render(
        request,
        "tournaments/standings/manage.html",
        {
            "event": event,
            **view,
            "current_chain": current,
            "current_score": score,
            "jobs_queued": jobs_waiting(event_id=event.pk, task="tournaments.standings_recompute"),
            "chain_slots": [current[i] if i < len(current) else "" for i in range(6)],
            "choices": [  # the tie-breaks that make sense for the event's rule family
                ui_of_event(event).metric_label(k)
                for k in tiebreak_keys_for(event_variant(event).stat_keys)
            ],
            "criterion": _criterion(event),
            "ui": ui_of_event(event),
            "round_scores": [
                (k, ui_of_event(event).round_score_name(k))
                # from the convention's table sizes: nothing to normalise where one size is played
                for k in round_scores_of(event.variant) or ROUND_SCORES
            ],
            "can_organise": can_organise(request.user, event),
        },
    )


@require_http_methods(["GET", "POST"])
def manage_documents(request, slug: str):
    event = _staff_event(request, slug)
    if event is None:
        return redirect_to_login(request.get_full_path())
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        paper = request.POST.get("paper", "A4")
        round_ = table = None
        if request.POST.get("round"):
            number = posted_id(request.POST["round"])
            round_ = get_object_or_404(Round, event=event, number=number)
        if request.POST.get("table"):
            table = get_object_or_404(
                Table, round__event=event, pk=posted_id(request.POST["table"])
            )
        if not can_request_document(request.user, event, kind):
            raise PermissionDenied
        # the document's language: the page's unless the form asks for another (a Croatian
        # table's sheets printed by an organiser reading the pages in English)
        language = request.POST.get("language") or get_language() or "en"
        if language not in dict(settings.LANGUAGES):
            messages.error(request, _("Unknown language: %(code)s") % {"code": language})
            return redirect("documents-manage", slug=event.slug)
        try:
            f = generated_file_request(
                event=event,
                kind=kind,
                round_=round_,
                table=table,
                paper=paper,
                language=language,
                base_url=request.build_absolute_uri("/"),
            )
            if kind in QR_KINDS and qr_address_is_local(f.base_url):
                messages.warning(request, _local_qr_warning(f.base_url))
            f.refresh_from_db(fields=["status", "filename", "error"])  # rendered inline?
            if f.status == GeneratedFile.Status.OK:
                messages.success(
                    request, _("The document is ready: %(name)s") % {"name": f.filename}
                )
            elif f.status == GeneratedFile.Status.FAILED:
                messages.error(
                    request,
                    _("The document could not be rendered: %(error)s")
                    % {"error": (f.error or "?").strip().splitlines()[0]},
                )
            elif jobs_waiting(event_id=event.pk, key=f"file:{f.pk}"):
                messages.warning(request, DOCUMENT_QUEUED)
            else:
                messages.success(request, _("The document is being rendered."))
        except UserFacingError as error:
            messages.error(request, error.message)
        return redirect("documents-manage", slug=event.slug)
    rounds = list(Round.objects.filter(event=event).prefetch_related("tables").order_by("number"))
    readable = readable_documents(request.user, event)
    address = qr_address(request.build_absolute_uri("/"))
    return render(
        request,
        "tournaments/standings/manage_documents.html",
        {
            "event": event,
            "files": [f for f in sel.generated_files(event=event) if f.kind in readable],
            "can_organise": can_organise(request.user, event),
            "round_list": rounds,
            "rounds": [r.number for r in rounds],
            "papers": list(PAPERS),
            "languages": settings.LANGUAGES,
            "qr_warning": _local_qr_warning(address) if qr_address_is_local(address) else "",
        },
    )


#: documents whose QR codes and links take players and tables to this site
QR_KINDS = (GeneratedFile.Kind.BLANK_PROTOCOLS, GeneratedFile.Kind.PLAYER_LINKS)


def _local_qr_warning(address: str) -> str:
    return _(
        "The QR codes would point at %(address)s, an address of this computer that the "
        "players' phones cannot open. Set PULKA_BASE_URL to the address players reach Pulka at "
        "(for example PULKA_BASE_URL=https://pulka.myclub.org in the server's environment or "
        "docker/.env), restart Pulka, then print the blank protocols and the players' links."
    ) % {"address": address}
