"""Writes of a duplicate event (docs/duplicate.md): the event's duplicate option, its boards
(dealt from a committed seed or read from a board file), a table's or a referee's result on a
board, and the rescoring of a board's comparison (the job ``tournaments.duplicate_board_rescore``
runs :func:`board_rescore`; a result saved only asks for it, through the outbox); the
double-dummy count of a board's makeable contracts (the job
``tournaments.duplicate_board_makeable`` runs :func:`board_count_makeable`; boards dealt or
read ask for it, never a page).
"""

from __future__ import annotations

import hmac
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.duplicate.boards import Board as PureBoard
from scoring.duplicate.boards import BoardFileError, generate_boards, read_boards, seed_sha256
from scoring.duplicate.comparison import Adjustment, TableResult, score_boards
from scoring.duplicate.double_dummy import DENOMINATIONS, makeable
from scoring.duplicate.values import DealError, board_protocol, deal_values, read_board_deal
from scoring.notation_lexer import NotationError
from tournaments.errors import UserFacingError, said_error
from tournaments.families import event_variant
from tournaments.jobs.outbox import job_enqueue
from tournaments.models import (
    Board,
    BoardResult,
    BoardScore,
    DuplicateEvent,
    Event,
    Round,
    Table,
)
from tournaments.models.event import TableSizePolicy
from tournaments.selectors.duplicate import duplicate_of, event_plays
from tournaments.services.audit import audit_log
from tournaments.services.events import event_create
from tournaments.web_cache import versions as page_cache

__all__ = [
    "ANY_VERSION",
    "RESCORE_TASK",
    "MAKEABLE_TASK",
    "StaleBoardResult",
    "duplicate_set_up",
    "duplicate_event_create",
    "duplicate_commit_seed",
    "duplicate_deal_boards",
    "board_as_entered",
    "duplicate_import_boards",
    "board_header",
    "board_result_enter",
    "board_result_adjust",
    "duplicate_set_percents",
    "board_rescore",
    "duplicate_schedule_rescore",
    "board_count_makeable",
    "duplicate_schedule_makeable",
]

#: the job that re-scores one board's comparison everywhere (``jobs.result_tasks``)
RESCORE_TASK = "tournaments.duplicate_board_rescore"
#: the job that counts one board's makeable contracts double dummy (``jobs.result_tasks``)
MAKEABLE_TASK = "tournaments.duplicate_board_makeable"


#: ``based_on_version`` not given: the write does not check the version (the pages)
ANY_VERSION = object()


class StaleBoardResult(UserFacingError):
    """A write based on a version of the board's result that is no longer the current one."""


def _check_version(board: Board, table: Table, based_on: int | None | object) -> None:
    if based_on is ANY_VERSION:
        return
    current = (
        BoardResult.objects.select_for_update()
        .filter(board=board, table=table)
        .values_list("version", flat=True)
        .first()
    )
    if current != based_on:
        raise StaleBoardResult(
            _("The board's result has changed since (version %(current)s): reload it and enter "
              "it again.") % {"current": current if current is not None else "—"},
            {"field": "based_on_version", "current_version": current},
        )


def _require_duplicate(event: Event) -> DuplicateEvent:
    dup = duplicate_of(event)
    if dup is None:
        raise UserFacingError(_("This event is not a duplicate event."), {"field": "event"})
    return dup


def duplicate_set_up(
    *,
    event: Event,
    method: str = DuplicateEvent.Method.MATCHPOINTS,
    boards_per_set: int = 1,
    stanzas: int | None = None,
    by=None,
) -> DuplicateEvent:
    """Make ``event`` a duplicate event (or change its option while no result is entered)."""
    if method not in DuplicateEvent.Method.values:
        raise UserFacingError(_("Choose matchpoints or the difference from the average."), {"field": "method"})
    if not 1 <= boards_per_set <= 10:
        raise UserFacingError(_("A set holds 1 to 10 boards."), {"field": "boards_per_set"})
    if stanzas is not None and stanzas < 1:
        raise UserFacingError(_("At least one table plays each board."), {"field": "stanzas"})
    if 3 not in event_variant(event).table_sizes:
        raise UserFacingError(
            _("Duplicate boards are dealt for tables of three; this game is not played at three."),
            {"field": "variant"},
        )
    with transaction.atomic():
        dup, _created = DuplicateEvent.objects.select_for_update().get_or_create(event=event)
        if BoardResult.objects.filter(board__event=event).exists() and (
            dup.boards_per_set != boards_per_set or dup.stanzas != stanzas
        ):
            raise UserFacingError(
                _("Results are entered already: the movement can no longer change."),
                {"field": "boards_per_set"},
            )
        dup.method = method
        dup.boards_per_set = boards_per_set
        dup.stanzas = stanzas
        dup.save()
        audit_log(event=event, action="duplicate.set_up", by=by,
                  data={"method": method, "boards_per_set": boards_per_set, "stanzas": stanzas})
        # the event's public pages read the option: its standings page now leads to the
        # duplicate standings, so a stored ordinary page of it is stale
        page_cache.changed(event_id=event.pk, parts=(page_cache.EVENT, page_cache.STANDINGS))
        if BoardResult.objects.filter(board__event=event).exists():
            for board_id in Board.objects.filter(event=event).values_list("id", flat=True):
                _schedule_rescore(event, board_id)
    return dup


#: the new-event form's names of the duplicate option's fields (``forms.event``)
_FORM_FIELD = {"method": "duplicate_method", "boards_per_set": "duplicate_boards_per_set",
               "seed_hash": "duplicate_seed", "variant": "variant"}


def duplicate_event_create(*, duplicate: dict[str, Any], by=None, **fields: Any) -> Event:
    """A new event that is a duplicate event from the start (the organiser's new-event form):
    the event (``services.events.event_create``, at tables of three only, docs/duplicate.md
    "Fours"), its option (``method``, ``boards_per_set``) and, when ``duplicate["seed"]`` is
    given, the publication of the seed's SHA-256 (the boards are dealt from the seed later, on
    the event's duplicate page, once the rounds are known). All or nothing; an error names the
    form's field."""
    fields["table_size_policy"] = TableSizePolicy.THREE
    try:
        with transaction.atomic():
            event = event_create(by=by, **fields)
            duplicate_set_up(
                event=event,
                method=duplicate.get("method") or DuplicateEvent.Method.MATCHPOINTS,
                boards_per_set=duplicate.get("boards_per_set") or 1,
                by=by,
            )
            seed = (duplicate.get("seed") or "").strip()
            if seed:
                duplicate_commit_seed(event=event, seed_hash=seed_sha256(seed), by=by)
    except UserFacingError as exc:
        field = exc.extra.get("field")
        if field in _FORM_FIELD:
            raise UserFacingError(exc.message, {**exc.extra, "field": _FORM_FIELD[field]}) from exc
        raise
    return event


def duplicate_commit_seed(*, event: Event, seed_hash: str, by=None) -> DuplicateEvent:
    """Publish the SHA-256 of the seed the boards will be dealt from (before play)."""
    dup = _require_duplicate(event)
    value = seed_hash.strip().lower()
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise UserFacingError(_("A SHA-256 hash is 64 hexadecimal digits."), {"field": "seed_hash"})
    if dup.seed_hash:
        raise UserFacingError(_("The seed's hash is published already and cannot change."), {"field": "seed_hash"})
    dup.seed_hash = value
    dup.seed_committed_at = timezone.now()
    dup.save(update_fields=["seed_hash", "seed_committed_at"])
    audit_log(event=event, action="duplicate.commit_seed", by=by, data={"seed_hash": value})
    return dup


def _boards_needed(event: Event, dup: DuplicateEvent) -> int:
    return max((b for p in event_plays(event, dup) for b in p.boards), default=0)


def _require_no_results(event: Event) -> None:
    if BoardResult.objects.filter(board__event=event).exists():
        raise UserFacingError(
            _("Results are entered already: the boards can no longer change."), {"field": "boards"}
        )


def duplicate_deal_boards(*, event: Event, seed: str, count: int | None = None, by=None) -> int:
    """Deal the event's boards from ``seed``; its hash must be the one published, if one was.
    ``count`` defaults to what the movement needs for the planned rounds."""
    dup = _require_duplicate(event)
    seed = seed.strip()
    if not seed:
        raise UserFacingError(_("Give the seed."), {"field": "seed"})
    if dup.seed_hash and not hmac.compare_digest(seed_sha256(seed), dup.seed_hash):
        raise UserFacingError(
            _("This seed does not have the hash published before play."), {"field": "seed"}
        )
    n = count or _boards_needed(event, dup)
    if n < 1:
        raise UserFacingError(_("The event has no rounds to deal boards for."), {"field": "count"})
    boards = generate_boards(seed, n)
    with transaction.atomic():
        _require_no_results(event)
        Board.objects.filter(event=event).delete()
        made = Board.objects.bulk_create(
            Board(event=event, number=b.number, dealer=b.dealer, cards=b.cards) for b in boards
        )
        _schedule_makeable(event, [b.pk for b in made])
        dup.seed = seed
        dup.source = DuplicateEvent.Source.SEED
        dup.prepared_at = timezone.now()
        dup.save(update_fields=["seed", "source", "prepared_at"])
        audit_log(event=event, action="duplicate.deal_boards", by=by, data={"count": n, "seed": seed})
    return n


def duplicate_import_boards(*, event: Event, text: str, by=None) -> int:
    """Read the event's boards from a board file (docs/duplicate.md); nothing is taken from a
    file with a line that does not read."""
    dup = _require_duplicate(event)
    try:
        boards = read_boards(text)
    except BoardFileError as exc:
        raise UserFacingError.of(exc, {"field": "boards", "line": exc.line, "part": exc.field}) from exc
    with transaction.atomic():
        _require_no_results(event)
        Board.objects.filter(event=event).delete()
        made = Board.objects.bulk_create(
            Board(event=event, number=b.number, dealer=b.dealer, cards=b.cards) for b in boards
        )
        _schedule_makeable(event, [b.pk for b in made])
        dup.seed = ""
        dup.source = DuplicateEvent.Source.FILE
        dup.prepared_at = timezone.now()
        dup.save(update_fields=["seed", "source", "prepared_at"])
        audit_log(event=event, action="duplicate.import_boards", by=by, data={"count": len(boards)})
    return len(boards)


def _board_header(table: Table, board: Board) -> Any:
    event = table.round.event
    seats = sorted(table.seats.select_related("entry__player"), key=lambda s: s.position)
    return board_protocol(
        event_variant(event),
        players=tuple(s.entry.player.name for s in seats),
        dealer=board.dealer,
        convention=event.variant,
        target=event.pulka_target,
        options=tuple(sorted((event.convention_options or {}).items())),
    )


def board_header(table: Table, board: Board) -> Any:
    """The family's empty protocol of ``board`` at ``table`` (its deal form reads into it)."""
    return _board_header(table, board)


def board_as_entered(table: Table, board: Board, result: BoardResult | None) -> Any:
    """The family's protocol of ``board`` at ``table`` holding ``result``'s deal as entered (its
    one deal, index 0), so that "correct" opens the deal form filled as ordinary protocols'
    corrections do; the empty protocol when there is no result or its stored line no longer
    reads (the form then opens blank rather than failing)."""
    header = _board_header(table, board)
    if result is None:
        return header
    try:
        return read_board_deal(event_variant(table.round.event), header, result.deal_text)
    except (NotationError, DealError, ValueError):
        return header


def board_result_enter(
    *,
    table: Table,
    board_number: int,
    text: str = "",
    deal: Any = None,
    by=None,
    referee: bool = False,
    reason: str = "",
    based_on_version: int | None | object = ANY_VERSION,
) -> BoardResult:
    """Keep ``table``'s result on board ``board_number``: the deal line in the family's text
    notation (``text``), or the family's deal object its phone form made (``deal``), scored
    alone by the family (``scoring.duplicate.values``), with the family's
    findings. A referee may correct a result of a closed round (with a reason); the table may
    enter only while its round is in play, and never over a referee's adjusted score. The board's comparison is re-scored by a job.
    ``based_on_version`` (the API): the version of the result the writer started from, ``None``
    for none; another current version is refused with :class:`StaleBoardResult`.

    :raises UserFacingError: naming the field (``board``, ``deal``, ``reason``,
        ``based_on_version``).
    """
    # the round as stored now (a caller's table may carry a round read before it started)
    rnd, event, board = _table_of_board(table, board_number)
    if not referee and rnd.state not in (Round.State.PUBLISHED, Round.State.IN_PLAY):
        raise UserFacingError(_("This round is not in play: ask a referee."), {"field": "board"})
    if referee and rnd.state == Round.State.CLOSED and not reason.strip():
        raise UserFacingError(_("Say why the closed round's result is corrected."), {"field": "reason"})
    variant = event_variant(event)
    header = _board_header(table, board)
    try:
        if deal is not None:
            protocol = header.with_deals((deal,))
        else:
            protocol = read_board_deal(variant, header, text)
        values = deal_values(variant, protocol)
    except NotationError as exc:
        raise UserFacingError(
            _("Column %(column)d: %(reason)s") % {"column": exc.column, "reason": said_error(exc)},
            {"field": "deal", "column": exc.column},
        ) from exc
    except (DealError, ValueError) as exc:
        raise UserFacingError(said_error(exc), {"field": "deal"}) from exc
    report = variant.check(protocol)
    # stored as a protocol version stores them (services.protocols.checks), so that
    # words.protocols says them in the reader's language
    findings = [
        {
            "code": f.code, "severity": str(f.severity), "message": f.message, "rule": f.rule,
            "source": f.source, "deal": f.deal, "player": f.player, "column": f.column,
            **({"text": f.text, "params": {k: _plain(v) for k, v in f.params}} if f.text else {}),
        }
        for f in report.findings
    ]
    try:
        deal_line = variant.deal_text(protocol, 0)
    except ValueError:  # a deal the notation cannot write: as typed
        deal_line = " ".join(text.split())
    with transaction.atomic():
        _check_version(board, table, based_on_version)
        if not referee and BoardResult.objects.filter(board=board, table=table).exclude(
            adjusted=[]
        ).exists():
            raise UserFacingError(
                _("A referee adjusted this board's score: ask a referee to change it."),
                {"field": "board"},
            )
        result, _before = _result_write(
            board, table,
            deal_text=deal_line, adjusted=[], adjusted_reason="",
            values=[str(v) for v in values], findings=findings, ok=report.ok,
            entered_by=BoardResult.By.REFEREE if referee else BoardResult.By.TABLE,
        )
        audit_log(
            event=event, action="duplicate.result", by=by, reason=reason,
            data={"board": board_number, "table": table.number, "round": rnd.number,
                  "deal": deal_line, "referee": referee, "version": result.version},
        )
        _schedule_rescore(event, board.id)
    return result


def _result_write(board: Board, table: Table, **fields) -> tuple[BoardResult, str]:
    """The table's result on the board written with ``fields`` under its row's lock: created
    (version 1) or replaced (the next version). Returns it and the deal it replaced ("" for
    none or an adjusted score)."""
    result, created = BoardResult.objects.select_for_update().get_or_create(
        board=board, table=table, defaults=fields
    )
    if created:
        return result, ""
    before = result.deal_text
    for name, value in fields.items():
        setattr(result, name, value)
    result.version += 1
    result.save()
    return result, before


def _table_of_board(table: Table, board_number: int) -> tuple[Round, Event, Board]:
    """The table's round (as stored now) and event and the board, if the movement gives it
    the board this round."""
    rnd: Round = Round.objects.select_related("event").get(pk=table.round_id)
    event = rnd.event
    _require_duplicate(event)
    plays = [p for p in event_plays(event) if p.round == rnd.number and p.table == table.number]
    if not any(board_number in p.boards for p in plays):
        raise UserFacingError(
            _("Table %(table)d does not play board %(board)s in this round.")
            % {"table": table.number, "board": board_number},
            {"field": "board"},
        )
    board = Board.objects.filter(event=event, number=board_number).first()
    if board is None:
        raise UserFacingError(_("The boards are not prepared yet."), {"field": "board"})
    return rnd, event, board


def board_result_adjust(
    *,
    table: Table,
    board_number: int,
    adjusted: list[str] | tuple[str, ...],
    reason: str,
    by=None,
    based_on_version: int | None | object = ANY_VERSION,
) -> BoardResult:
    """A referee's adjusted score for ``table`` on board ``board_number`` (not played, or
    fouled): one of average-plus, average, average-minus for each board seat (seat 1 first),
    with the reason, which the traveller and the standings show. It replaces whatever the table
    entered (the audit log keeps it) and is scored as the event's share of the board's top,
    the others compared among themselves (``scoring.duplicate.comparison``). Logged; the board
    is re-scored by a job.

    :raises UserFacingError: naming the field (``board``, ``adjusted``, ``reason``).
    """
    rnd, event, board = _table_of_board(table, board_number)
    seats = table.seats.count()
    codes = [str(a).strip() for a in adjusted]
    if len(codes) != seats or not all(c in Adjustment.__members__.values() for c in codes):
        raise UserFacingError(
            _("Choose average-plus, average or average-minus for each player."),
            {"field": "adjusted"},
        )
    reason = reason.strip()
    if not reason:
        raise UserFacingError(_("Say why the board's score is adjusted."), {"field": "reason"})
    with transaction.atomic():
        _check_version(board, table, based_on_version)
        result, before = _result_write(
            board, table,
            deal_text="", values=[], findings=[], ok=True,
            entered_by=BoardResult.By.REFEREE, adjusted=codes, adjusted_reason=reason,
        )
        audit_log(
            event=event, action="duplicate.adjust", by=by, reason=reason,
            data={"board": board_number, "table": table.number, "round": rnd.number,
                  "adjusted": codes, "replaced": before, "version": result.version},
        )
        _schedule_rescore(event, board.id)
    return result


def duplicate_set_percents(
    *, event: Event, plus: int, average: int, minus: int, by=None
) -> DuplicateEvent:
    """The event's shares of the top for adjusted scores (percent; bridge's customary 60 / 50 /
    40 by default); every adjusted board is scored again."""
    dup = _require_duplicate(event)
    for name, value in (("average_plus_percent", plus), ("average_percent", average),
                        ("average_minus_percent", minus)):
        if not isinstance(value, int) or not 0 <= value <= 100:
            raise UserFacingError(_("A percentage from 0 to 100."), {"field": name})
    if not minus <= average <= plus:
        raise UserFacingError(
            _("Average-minus cannot be above average, nor average above average-plus."),
            {"field": "average_percent"},
        )
    with transaction.atomic():
        dup.average_plus_percent, dup.average_percent, dup.average_minus_percent = plus, average, minus
        dup.save(update_fields=["average_plus_percent", "average_percent", "average_minus_percent"])
        audit_log(event=event, action="duplicate.percents", by=by,
                  data={"plus": plus, "average": average, "minus": minus})
        duplicate_schedule_rescore(event)
    return dup


def duplicate_schedule_rescore(event: Event) -> int:
    """Ask for every board of ``event`` that has a result to be scored again (an imported
    archive: the scores are not kept in it)."""
    ids = list(
        Board.objects.filter(event=event, results__isnull=False).distinct().values_list("id", flat=True)
    )
    for board_id in ids:
        _schedule_rescore(event, board_id)
    return len(ids)


def duplicate_schedule_makeable(event: Event) -> int:
    """Ask for the double-dummy count of every board of ``event`` not counted yet (an imported
    archive: the counts are not kept in it)."""
    ids = list(Board.objects.filter(event=event, makeable__isnull=True).values_list("id", flat=True))
    _schedule_makeable(event, ids)
    return len(ids)


def _schedule_makeable(event: Event, board_ids: list[int]) -> None:
    for board_id in board_ids:
        job_enqueue(task=MAKEABLE_TASK, args=[board_id], event_id=event.id, key=f"makeable:{board_id}")


def board_count_makeable(board_id: int) -> bool:
    """Count one board's makeable contracts double dummy and keep them on the board (what the
    job runs; well under a second of CPU, docs/performance.md): for each declarer's seat the
    tricks in each denomination (``scoring.duplicate.double_dummy.makeable``). False when the
    board is gone (boards dealt again) or its cards changed while it counted."""
    board = (
        Board.objects.filter(pk=board_id).only("event_id", "number", "dealer", "cards").first()
    )
    if board is None:
        return False
    pure = PureBoard.from_cards(board.number, board.dealer, board.cards)
    counts = makeable(pure)
    tricks = [[counts[(seat, d)] for d in DENOMINATIONS] for seat in (1, 2, 3)]
    kept = bool(Board.objects.filter(pk=board_id, cards=board.cards).update(makeable=tricks))
    if kept:  # the traveller's hand record shows it (written by update(): no signal)
        page_cache.changed(event_id=board.event_id, parts=(page_cache.DUPLICATE,))
    return kept


def _plain(value: object) -> object:
    return value if isinstance(value, str | int | float | bool | type(None)) else str(value)


def _schedule_rescore(event: Event, board_id: int) -> None:
    job_enqueue(task=RESCORE_TASK, args=[board_id], event_id=event.id, key=f"board:{board_id}")


def board_rescore(board_id: int) -> int:
    """Re-score one board's comparison at every table that played it (what the job runs):
    each seat against the same seat at the other tables, by the event's method, factored to
    the number of tables the movement sends the board to. Returns the scores written."""
    with transaction.atomic():
        board = Board.objects.select_related("event__duplicate").get(pk=board_id)
        dup = board.event.duplicate
        results = list(
            BoardResult.objects.select_for_update()
            .filter(board=board)
            .select_related("table")
            .prefetch_related("table__seats")
        )
        expected = sum(1 for p in event_plays(board.event, dup) if board.number in p.boards)
        entries: dict[int, list[int]] = {}
        table_results = []
        for r in results:
            seats = sorted(r.table.seats.all(), key=lambda s: s.position)
            entries[r.id] = [s.entry_id for s in seats]
            if r.adjusted:
                table_results.append(
                    TableResult(board.number, r.id, tuple(entries[r.id]), (),
                                tuple(Adjustment(a) for a in r.adjusted))
                )
            else:
                table_results.append(
                    TableResult(board.number, r.id, tuple(entries[r.id]),
                                tuple(Fraction(v) for v in r.values))
                )
        percents = {
            Adjustment.PLUS: Fraction(dup.average_plus_percent, 100),
            Adjustment.AVERAGE: Fraction(dup.average_percent, 100),
            Adjustment.MINUS: Fraction(dup.average_minus_percent, 100),
        }
        scores = score_boards(
            table_results, dup.method, expected=expected or None, percents=percents
        )
        BoardScore.objects.filter(result__board=board).delete()
        BoardScore.objects.bulk_create(
            BoardScore(
                result_id=s.table, seat=s.seat, entry_id=s.player, value=str(s.value),
                score=str(s.score), top="" if s.top is None else str(s.top), played=s.played,
                is_top=s.is_top,
            )
            for s in scores
        )
        # the travellers and the duplicate standings show the scores (written in bulk: no
        # signal), replaced after the commit
        page_cache.changed(event_id=board.event_id, parts=(page_cache.DUPLICATE,))
    return len(scores)
