"""Standings and documents pages. Thin: each loads the event, calls one selector or service and
renders; nothing here computes standings (they are read from the stored snapshot).

Public (published events): ``/e/<slug>/standings/`` (overall), ``…/rounds/<n>/`` (a round's
results), ``…/cross/`` (who met whom), ``…/players/<entry>/`` (a player's page),
``/e/<slug>/documents/`` (PDFs). Organisers and referees: ``/e/<slug>/manage/standings/``
(state of the recomputation, tie-break chain) and ``/e/<slug>/manage/documents/`` (render PDFs).
"""

from __future__ import annotations

import csv
import datetime
import io
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import escape
from django.utils.http import http_date
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.access.permissions import (
    PUBLIC_DOCUMENTS,
    can_organise,
    can_read_document,
    can_referee,
    can_request_document,
    readable_documents,
)
from tournaments.errors import UserFacingError
from tournaments.jobs.outbox import DOCUMENT_QUEUED, STANDINGS_QUEUED, jobs_waiting
from tournaments.models import Entry, Event, GeneratedFile, Round, Table
from tournaments.pdf.files import generated_file_request, qr_address, qr_address_is_local
from tournaments.pdf.paper import PAPERS
from tournaments.selectors import standings as sel
from tournaments.selectors.desk import gaps_annotations, gaps_version, round_gaps
from tournaments.selectors.duplicate import duplicate_of
from tournaments.selectors.sit_out import event_sit_outs
from tournaments.services.events import round_scores_of, standings_configure
from tournaments.services.standings import standings_schedule
from tournaments.standings import ROUND_SCORES
from tournaments.standings.metrics import tiebreak_keys_for
from tournaments.variants import event_convention, event_variant, ui_of_event
from tournaments.views.caching import conditional, page_etag, public_page
from tournaments.views.decorators import posted_id
from tournaments.views.standings_search import (
    RowIndex,
    Skeleton,
    found_html,
    new_slots,
    public_search,
    row_index,
    skeleton_of,
    skeleton_request,
)
from tournaments.web_cache.versions import EVENT, STANDINGS
from tournaments.words.gaps import gap_items

#: how long a rendered cross-table stays cached (its key changes with every recomputation;
#: the time only bounds what an old version occupies)
CROSS_CACHE_SECONDS = 3600


#: the event as its pages read it: with its team rules, which the pages' navigation asks for
#: (issue 40), in the same query
_EVENTS = Event.objects.select_related("team_rules", "duplicate")  # duplicate: no query more


def _when(stamp: object) -> object:
    """A stored ISO time as a datetime (the template writes it in the page's format)."""
    try:
        return datetime.datetime.fromisoformat(str(stamp))
    except ValueError:
        return None


def _runs_in_words(snapshot: Any) -> list[dict[str, Any]]:
    """The snapshot's recent runs, newest first, with times to format (issue 36: one date
    format on the page); each keeps its stored outcome, which the page says in words
    (``run_outcome``, :func:`tournaments.words.standings.run_outcome`)."""
    return [
        {
            "started": _when(run.get("started")),
            "finished": _when(run.get("finished")),
            "outcome": str(run.get("outcome") or ""),
            "pid": run.get("pid", ""),
        }
        for run in reversed(list(getattr(snapshot, "runs", None) or []))
    ]


def _public_event(request, slug: str) -> Event:
    event = get_object_or_404(_EVENTS, slug=slug)
    if not event.published and not can_referee(request.user, event):
        raise Http404
    return event


def _staff_event(request, slug: str) -> Event | None:
    """The event if the user referees or organises it; None when a login is needed."""
    event = get_object_or_404(_EVENTS, slug=slug)
    if not request.user.is_authenticated:
        return None
    if not can_referee(request.user, event):
        raise PermissionDenied
    return event


def _criterion(event: Event) -> str | None:
    """What a table result is, as the event's rule family says (``None``: the page's own)."""
    try:
        return ui_of_event(event).standings_criterion(event_convention(event))
    except (LookupError, ValueError):
        return None


def _standings_etag(request, event: Event, snapshot, *parts: object) -> str:
    """The ETag of a page written from the stored standings: their version and state (a
    pending recomputation is announced), and the event's fields the page shows."""
    state = (snapshot.status, snapshot.pending) if snapshot is not None else None
    return page_etag(
        request,
        sel.snapshot_version(snapshot),
        state,
        event.name,
        event.variant,
        event.convention_options,
        event.sit_out_score,
        *parts,
    )


def _standings_changed_at(snapshot):
    """Last-Modified of a page written from the stored standings: the later of their
    computation and the last request for one."""
    if snapshot is None:
        return None
    stamps = [t for t in (snapshot.computed_at, snapshot.requested_at) if t is not None]
    return max(stamps) if stamps else None


def _page_number(request, name: str = "page") -> int:
    try:
        return max(1, int(request.GET.get(name, "1")))
    except ValueError:
        return 1


STANDINGS_TEMPLATE = "tournaments/standings/standings.html"


def _standings_context(
    request, event: Event, snapshot, *, query: str, page: int, found=None
) -> tuple[dict, RowIndex | None]:
    """The standings page's context and its rows rendered (:func:`row_index`; None without
    rows); ``found``: the search's part of the page when given (a skeleton's slot), else
    ``page`` of the rows matching ``query``."""
    view = sel.standings_view(event=event, snapshot=snapshot)
    ui = ui_of_event(event)
    # the tie-breaks in the family's words (a Balkan table result is in points)
    columns = [{**c, **ui.metric_label(c["key"])} for c in view.get("tiebreak_columns", [])]
    index = row_index(event=event, view=view, columns=columns) if view["rows"] else None
    if found is None and index is not None:
        found = found_html(slug=event.slug, index=index, query=query, page=page)
    context = {
        "event": event,
        "criterion": _criterion(event),
        "ui": ui,
        **view,
        "tiebreak_columns": columns,
        "found": found,
        "sit_outs": event_sit_outs(event=event),
        "staff": can_referee(request.user, event),
    }
    return context, index


def _search_skeleton(request, slug: str) -> Skeleton | None:
    """The standings page for an anonymous viewer with the slots of ``standings_search`` (the
    search's part, the page's path, the CSRF token); None when the event is not public."""
    try:
        event = _public_event(request, slug)
    except Http404:
        return None
    snapshot = sel.standings_header(event=event)
    found_slot, path_slot = new_slots()
    fake = skeleton_request(request, path_slot)
    context, index = _standings_context(
        fake, event, snapshot, query="", page=1, found=mark_safe(found_slot)
    )
    changed_at = _standings_changed_at(snapshot)
    return skeleton_of(
        render(fake, STANDINGS_TEMPLATE, context),
        found_slot=found_slot,
        path_slot=path_slot,
        index=index,
        slug=event.slug,
        last_modified=http_date(int(changed_at.timestamp())) if changed_at is not None else None,
    )


@public_search(EVENT, STANDINGS, skeleton=_search_skeleton)
@public_page(EVENT, STANDINGS, query=("page",))
def standings(request, slug: str):
    """A page of 100 rows at a time, or the rows whose player's name, club or city matches
    ``q``; the whole list is the CSV download. The rows are rendered once per stored version
    and language (``standings_search.row_index``); a refresh naming the page's ETag costs a
    304. An anonymous viewer's pages come from the cache (``public_page``), his searches from
    the cached rows (``public_search``)."""
    event = _public_event(request, slug)
    if duplicate_of(event) is not None:
        # a duplicate event ranks by its boards' comparison, not by pulka results: its
        # standings are the duplicate page's (docs/duplicate.md)
        return redirect("duplicate", event.slug)
    snapshot = sel.standings_header(event=event)
    query = request.GET.get("q", "")[: sel.SEARCH_MAX]
    page = _page_number(request)

    def page_of_standings():
        context, _index = _standings_context(request, event, snapshot, query=query, page=page)
        return render(request, STANDINGS_TEMPLATE, context)

    return conditional(
        request,
        etag=_standings_etag(request, event, snapshot, "standings", query, page),
        last_modified=_standings_changed_at(snapshot),
        render=page_of_standings,
    )


def _csv_response(request, event: Event, snapshot, name: str, write) -> HttpResponse:
    """A CSV download written once per stored version and language (``write(out)`` writes the
    rows), with the standings' ETag."""
    key = f"pulka:{name}-csv:{event.pk}:{sel.snapshot_version(snapshot)}:{get_language()}"

    def download():
        data = cache.get(key)
        if data is None:
            out = io.StringIO()
            out.write("\ufeff")  # a byte-order mark: spreadsheets then read the names as UTF-8
            write(csv.writer(out))
            data = out.getvalue().encode()
            cache.set(key, data, CROSS_CACHE_SECONDS)
        response = HttpResponse(data, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{event.slug}-{name}.csv"'
        return response

    return conditional(
        request,
        etag=_standings_etag(request, event, snapshot, name + ".csv"),
        last_modified=_standings_changed_at(snapshot),
        render=download,
    )


@public_page(EVENT, STANDINGS)
def standings_csv(request, slug: str):
    """The whole standings as CSV: place, player, club, city, rounds played, each round's
    score, the total (and with the provisional results), the tie-breaks."""
    event = _public_event(request, slug)
    snapshot = sel.standings_header(event=event)

    def write(out):
        view = sel.standings_view(event=event, snapshot=snapshot)
        out.writerow(
            [_("Place"), _("Player"), _("Club"), _("City"), _("Rounds")]
            + [_("Round %(n)s") % {"n": n} for n in view["rounds"]]
            + [_("Total"), _("Total with the provisional results")]
            + [c["name"] for c in view["tiebreak_columns"]]
        )
        for r in view["rows"]:
            out.writerow(
                [r["place_label"], r["name"], r["club"], r["city"], r["rounds_played"]]
                + [c["score"] if c else "" for c in r["round_cells"]]
                + [r["total"], r["provisional_total"]]
                + ["" if m is None else m for m in r["metric_cells"]]
            )

    return _csv_response(request, event, snapshot, "standings", write)


@public_page(EVENT, STANDINGS)
def round_results(request, slug: str, number: int):
    event = _public_event(request, slug)
    # the round's tables left without a result are not in the stored standings: the round's
    # query reads their version, the page reads them when it is written
    round_ = get_object_or_404(
        Round.objects.annotate(**gaps_annotations()), event=event, number=number
    )
    snapshot = sel.standings_header(event=event)
    return conditional(
        request,
        etag=_standings_etag(request, event, snapshot, "round", number, gaps_version(round_)),
        last_modified=_standings_changed_at(snapshot),
        render=lambda: render(
            request,
            "tournaments/standings/round.html",
            {
                "event": event,
                "ui": ui_of_event(event),
                **sel.round_results(event=event, number=number, snapshot=snapshot),
                "gaps": gap_items(
                    event, round_gaps(round_=round_), staff=can_referee(request.user, event)
                ),
            },
        ),
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


@public_page(EVENT, STANDINGS, query=("group",))
def cross_table(request, slug: str):
    """Up to ``CROSS_MATRIX_MAX`` players, who met whom as one matrix, written once per stored
    version of the standings and language and served from the cache (a recomputation stores a
    new version, so the key changes with it). A larger event shows a group of places at a time
    (``?group=``), each player's opponents by round; the full matrix is the CSV download. The
    page around the table is rendered per request (it shows who is logged in)."""
    event = _public_event(request, slug)
    snapshot = sel.standings_header(event=event)
    group = _page_number(request, "group")

    def page():
        view = {"snapshot": snapshot, **sel.decoded_standings(snapshot).view}
        if len(view["rows"]) > sel.CROSS_MATRIX_MAX:
            return render(
                request,
                "tournaments/standings/cross.html",
                {
                    "event": event,
                    **view,
                    **sel.cross_group(event=event, snapshot=snapshot, group=group),
                    "standings_version": sel.snapshot_version(snapshot),
                },
            )
        version = sel.snapshot_version(snapshot)
        key = f"pulka:cross:{event.pk}:{version}:{get_language()}"
        table = cache.get(key)
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

    return conditional(
        request,
        etag=_standings_etag(request, event, snapshot, "cross", group),
        last_modified=_standings_changed_at(snapshot),
        render=page,
    )


@public_page(EVENT, STANDINGS)
def cross_table_csv(request, slug: str):
    """The full cross-table as CSV: a row and a column per ranked player (in standings order),
    each cell the whists the row's player won from the column's where they met."""
    event = _public_event(request, slug)
    snapshot = sel.standings_header(event=event)

    def write(out):
        cross = sel.cross_table(event=event, snapshot=snapshot)
        rows, matrix = cross["rows"], cross["matrix"]
        out.writerow(
            [_("Place"), _("Player")] + [f"{i}" for i in range(1, len(rows) + 1)] + [_("Total")]
        )
        for i, row in enumerate(rows, start=1):
            mine = matrix.get(row["entry"], {})
            cells = []
            for other in cross["order"]:
                c = mine.get(other)
                cells.append("×" if other == row["entry"] else "" if c is None else c["result"])
            out.writerow([row["place_label"], f"{i}. {row['name']}", *cells, row["total"]])

    return _csv_response(request, event, snapshot, "cross-table", write)


@public_page(EVENT, STANDINGS)
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
    # grouped by round (issue 36): the event's own documents first, then round by round
    groups: dict[int, list] = {}
    for f in files:
        round_ = f.round or (f.table.round if f.table else None)
        groups.setdefault(round_.number if round_ else 0, []).append(f)
    return render(
        request,
        "tournaments/standings/documents.html",
        {
            "event": event,
            "groups": sorted(groups.items()),
            "staff": can_referee(request.user, event),
        },
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
            "runs": _runs_in_words(view.get("snapshot") or None),
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
    files = [f for f in sel.generated_files(event=event) if f.kind in readable]
    return render(
        request,
        "tournaments/standings/manage_documents.html",
        {
            "event": event,
            "files": files,
            # the page follows a rendering as it goes (a round's protocols: table n of m)
            "rendering": any(f.status == GeneratedFile.Status.PENDING for f in files),
            "can_organise": can_organise(request.user, event),
            "round_list": rounds,
            "event_tables": any(r.tables.all() for r in rounds),  # the whole event's protocols
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
