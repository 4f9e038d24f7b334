"""A duplicate event's pages (issue 43, docs/duplicate.md): the table's boards on its private
link ``/t/<key>/boards/`` (a phone: the family's deal form, board by board), the public
overview and standings ``/e/<slug>/duplicate/``, a board's traveller
``/e/<slug>/duplicate/boards/<n>/`` (every table's result; the hand record once the round is
closed; a referee corrects a table's result there), and the organisers' preparation
``/e/<slug>/manage/duplicate/``. Thin: selectors and services do the work."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.duplicate.boards import seed_sha256
from tournaments.access import lockout
from tournaments.access.permissions import can_organise, can_referee
from tournaments.errors import UserFacingError, whole_number
from tournaments.models import Board, BoardResult, DuplicateEvent, Round
from tournaments.selectors import duplicate as sel
from tournaments.selectors import protocols as psel
from tournaments.services import duplicate as svc
from tournaments.variants import ui_of_event
from tournaments.views.caching import public_page
from tournaments.views.decorators import event_view
from tournaments.web_cache.versions import DUPLICATE, EVENT
from tournaments.words.duplicate import makeable_table
from tournaments.words.protocols import finding_message

__all__ = ["table_boards", "duplicate_overview", "board_traveller", "duplicate_manage"]

_STAFF = frozenset({"organiser", "chief_referee", "referee"})


def _dup_or_404(event) -> DuplicateEvent:
    dup = sel.duplicate_of(event)
    if dup is None:
        raise Http404("not a duplicate event")
    return dup


def table_boards(request, key: str):
    """``/t/<key>/boards/``: the table's boards this round, stanza by stanza, and the family's
    deal form for the board being entered."""
    table = lockout.guarded(lockout.PRIVATE_KEY, request, lambda: psel.table_by_key(key))
    event = table.round.event
    _dup_or_404(event)
    plays = sel.table_plays(table)
    numbers = [b for p in plays for b in p.boards]
    boards = {b.number: b for b in Board.objects.filter(event=event, number__in=numbers)}
    results = {
        r.board.number: r
        for r in BoardResult.objects.filter(table=table, board__number__in=numbers).select_related("board")
    }
    ui = ui_of_event(event)
    wanted = _number(request.POST.get("board") if request.method == "POST" else request.GET.get("board"))
    current = wanted if wanted in boards else next((n for n in numbers if n not in results and n in boards), None)
    open_round = table.round.state in (Round.State.PUBLISHED, Round.State.IN_PLAY)
    error = None
    if request.method == "POST" and wanted not in boards:
        # a board this table does not play this round (or none): refused, nothing saved
        error = UserFacingError(
            _("Table %(table)d does not play board %(board)s in this round.")
            % {"table": table.number, "board": wanted if wanted is not None else "—"},
            {"field": "board"},
        )
    header = svc.board_header(table, boards[current]) if current is not None else None
    if request.method == "POST" and header is not None and error is None:
        try:
            deal = ui.deal_from_post(request.POST, header, header.first_dealer)
            svc.board_result_enter(table=table, board_number=current, deal=deal, by=request.user)
            return HttpResponseRedirect(reverse("duplicate-table", args=[key]) + "#boards")
        except UserFacingError as exc:
            error = exc
    rows = []
    for p in plays:
        for n in p.boards:
            board = boards.get(n)
            result = results.get(n)
            rows.append({"stanza": p.stanza, "number": n, "board": board, "result": result,
                         "findings": _said(result), "dealer": _dealer_name(table, board)})
    form = None
    context = {}
    if header is not None:
        if error and wanted == current:
            form = ui.form_values(header, None, request.POST)  # a refused form keeps what it had
        else:  # "correct" opens the form filled with the board's result as entered
            entered = results.get(current)
            protocol = svc.board_as_entered(table, boards[current], entered) if entered else header
            form = ui.form_values(protocol, 0 if protocol.deals else None)
        context = ui.entry_context(header)
    return render(
        request,
        "tournaments/duplicate/table.html",
        {
            "table": table,
            "event": event,
            "seats": psel.seats_of(table),
            "rows": rows,
            "current": current,
            "ui": ui,
            "form": form,
            **context,
            "error": error,
            "open_round": open_round,
            "post": request.POST,
        },
        status=400 if error else 200,
    )


def adjustment_labels(dup: DuplicateEvent) -> dict[str, str]:
    """The referee's adjusted scores in the reader's language, with the event's shares."""
    return {
        "plus": _("average-plus (%(p)d %%)") % {"p": dup.average_plus_percent},
        "average": _("average (%(p)d %%)") % {"p": dup.average_percent},
        "minus": _("average-minus (%(p)d %%)") % {"p": dup.average_minus_percent},
    }


def _said(result: BoardResult | None) -> list[str]:
    """A result's findings in the reader's language."""
    return [finding_message(f) for f in result.findings] if result is not None else []


def _number(value: object) -> int | None:
    """A posted or queried board or table number; anything else names none."""
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 5 else None


def _percent(value: object) -> int:
    """A posted percentage; anything else is -1, which the service refuses naming the field."""
    number = _number(value)
    return number if number is not None else -1


def _dealer_name(table, board) -> str:
    if board is None:
        return ""
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    return seats[board.dealer - 1].entry.player.name if len(seats) >= board.dealer else ""


@public_page(EVENT, DUPLICATE)
@event_view()
def duplicate_overview(request, event):
    """The duplicate standings and the event's boards, each linked to its traveller."""
    dup = _dup_or_404(event)
    table, entries = sel.duplicate_standings(event)
    rows = [
        {
            "s": s,
            "name": entries[s.player].player.name,
            "total": float(s.total),
            "percent": None if s.percent is None else float(s.percent * 100),
            "values": float(s.values),
        }
        for s in table
    ]
    return render(
        request,
        "tournaments/duplicate/overview.html",
        {
            "event": event,
            "dup": dup,
            "rows": rows,
            "boards": Board.objects.filter(event=event).order_by("number"),
            "is_matchpoints": dup.method == DuplicateEvent.Method.MATCHPOINTS,
            "seed": sel.seed_revealed(event, dup),
            "adjusted": _adjusted_said(sel.adjusted_results(event), adjustment_labels(dup)),
        },
    )


def _adjusted_said(rows, labels: dict[str, str]) -> list[dict]:
    return [
        {"row": r, "seats": [{"name": name, "said": labels.get(code, "")} for name, code in r.seats]}
        for r in rows
    ]


@public_page(EVENT, DUPLICATE)
@event_view()
def board_traveller(request, event, number: int):
    """Every table's result on board ``number``; the hand record once its round is closed; a
    referee's correction of one table's result (re-scored everywhere by a job)."""
    dup = _dup_or_404(event)
    board = get_object_or_404(Board, event=event, number=number)
    round_number = sel.board_round(event, number)
    rnd = Round.objects.filter(event=event, number=round_number).first()
    referee = can_referee(request.user, event)
    error = None
    if request.method == "POST":
        if not referee:
            raise Http404
        table_number = _number(request.POST.get("table"))
        table = rnd.tables.filter(number=table_number).first() if rnd else None
        if table is None:
            raise Http404
        try:
            if request.POST.get("action") == "adjust":
                svc.board_result_adjust(
                    table=table, board_number=number,
                    adjusted=[request.POST.get(f"seat{k}", "") for k in range(1, table.seats.count() + 1)],
                    reason=request.POST.get("reason", ""), by=request.user,
                )
            else:
                svc.board_result_enter(
                    table=table, board_number=number, text=request.POST.get("deal", ""),
                    referee=True, by=request.user, reason=request.POST.get("reason", ""),
                )
            messages.success(request, _("The result is saved; the board is being scored again."))
            return redirect("duplicate-board", slug=event.slug, number=number)
        except UserFacingError as exc:
            error = exc
    closed = rnd is not None and rnd.state == Round.State.CLOSED
    pure = sel.pure_board(board)
    labels = adjustment_labels(dup)
    hands = [
        {"seat": k, "cards": [c.label for c in pure.sorted_hand(k)]} for k in (1, 2, 3)
    ] if closed or referee else []
    return render(
        request,
        "tournaments/duplicate/traveller.html",
        {
            "event": event,
            "dup": dup,
            "board": board,
            "round": rnd,
            "rows": [
                {
                    "r": r,
                    "findings": _said(r.result),
                    "seats": [
                        {
                            "n": k + 1,
                            "player": player,
                            "value": float(r.values[k]) if r.values else None,
                            "score": float(r.scores[k]) if r.scores and r.scores[k] is not None else None,
                            "adjusted": labels.get(r.adjusted[k], "") if r.adjusted else "",
                        }
                        for k, player in enumerate(r.players)
                    ],
                }
                for r in sel.traveller(board)
            ],
            "hands": hands,
            "talon": [c.label for c in pure.talon] if hands else [],
            # the double-dummy count as the job stored it (None: not counted yet)
            "makeable": makeable_table(board.makeable) if hands else None,
            "closed": closed,
            "referee": referee,
            "error": error,
            "post": request.POST,
            "is_matchpoints": dup.method == DuplicateEvent.Method.MATCHPOINTS,
            "adjustments": list(labels.items()),
        },
        status=400 if error else 200,
    )


@event_view(roles=frozenset({"organiser", "chief_referee"}))
def duplicate_manage(request, event):
    """Make the event a duplicate event and prepare its boards: publish the seed's hash, deal
    the boards from the seed, or read a board file."""
    dup = sel.duplicate_of(event)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "set_up":
                stanzas = request.POST.get("stanzas", "").strip()
                svc.duplicate_set_up(
                    event=event,
                    method=request.POST.get("method", ""),
                    boards_per_set=whole_number(request.POST.get("boards_per_set")) or 0,
                    stanzas=whole_number(stanzas) if stanzas else None,
                    by=request.user,
                )
            elif action == "percents":
                svc.duplicate_set_percents(
                    event=event,
                    plus=_percent(request.POST.get("average_plus_percent")),
                    average=_percent(request.POST.get("average_percent")),
                    minus=_percent(request.POST.get("average_minus_percent")),
                    by=request.user,
                )
            elif action == "commit":
                seed = request.POST.get("seed", "").strip()
                svc.duplicate_commit_seed(
                    event=event, seed_hash=seed_sha256(seed) if seed else "", by=request.user
                )
            elif action == "deal":
                svc.duplicate_deal_boards(event=event, seed=request.POST.get("seed", ""), by=request.user)
            elif action == "import":
                svc.duplicate_import_boards(event=event, text=request.POST.get("boards", ""), by=request.user)
            else:
                raise Http404
            messages.success(request, _("Saved."))
            return redirect("duplicate-manage", slug=event.slug)
        except UserFacingError as exc:
            messages.error(request, exc.message)
    return render(
        request,
        "tournaments/duplicate/manage.html",
        {
            "event": event,
            "dup": dup,
            "methods": DuplicateEvent.Method.choices,
            "boards": Board.objects.filter(event=event).count(),
            "can_organise": can_organise(request.user, event),
        },
    )
