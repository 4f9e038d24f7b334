"""Generated files: request a PDF, render it in a Celery job, keep it until its data changes
(pretix ``CachedFile``).

:func:`generated_file_request` builds the document's context (cheap), hashes it, and returns the
stored file of the same kind, scope, paper, language and hash if there is one; otherwise it
creates a pending :class:`~tournaments.models.GeneratedFile` and enqueues
:func:`tournaments.jobs.result_tasks.generated_file_render` after the commit. The job renders with
:func:`tournaments.pdf.documents.render` and saves the bytes. Requests for the same document while one is pending
return the pending row (no second job).
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.errors import UserFacingError
from tournaments.jobs.outbox import job_enqueue
from tournaments.models import Event, GeneratedFile, Round, Table
from tournaments.models.round import without_draw_record
from tournaments.pdf import contexts as pdf_contexts
from tournaments.pdf import documents as pdf
from tournaments.pdf import duplicate as pdf_duplicate
from tournaments.pdf import paper as pdf_paper
from tournaments.pdf import protocol_contexts as pdf_protocols
from tournaments.services.standings import jobs_queue

__all__ = [
    "qr_address",
    "qr_address_is_local",
    "generated_file_request",
    "generated_file_render",
    "generated_file_mark_failed",
    "document_context",
]


def qr_address(request_base: str = "") -> str:
    """The site address the QR codes and private links of the printed documents point at:
    ``PULKA_BASE_URL``, else the address the page was asked at."""
    return getattr(settings, "PULKA_BASE_URL", "") or request_base or "http://localhost:8000"


def qr_address_is_local(address: str) -> bool:
    """Whether ``address`` is one the players' phones cannot open: this machine (localhost,
    127.x, ::1, 0.0.0.0) or a name of the local network only (``.local``, no dot).

    >>> qr_address_is_local("http://localhost:8000/"), qr_address_is_local("http://127.0.0.1/")
    (True, True)
    >>> qr_address_is_local("https://pulka.example.org"), qr_address_is_local("http://laptop/")
    (False, True)
    """
    host = (urlsplit(address).hostname or "").lower()
    if not host or host == "localhost" or host.endswith((".localhost", ".local")):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host
    return ip.is_loopback or ip.is_unspecified or ip.is_link_local


def document_context(
    *,
    kind: str,
    event: Event,
    round_: Round | None = None,
    table: Table | None = None,
    base_url: str = "",
) -> dict[str, Any]:
    """The context of a document of ``kind``.

    :raises UserFacingError: for a kind that needs a round or a table and got none.
    """
    if kind == GeneratedFile.Kind.STANDINGS:
        return pdf_contexts.standings_context(event=event)
    if kind == GeneratedFile.Kind.PLAYER_LINKS:
        return pdf_contexts.player_links_context(event=event, base_url=base_url)
    if kind == GeneratedFile.Kind.DUPLICATE_BOARDS:
        return pdf_duplicate.duplicate_boards_context(event=event)
    if kind == GeneratedFile.Kind.EVENT_PROTOCOLS:
        return pdf_protocols.filled_event_context(event=event)  # every round's tables, one file
    if kind == GeneratedFile.Kind.FILLED_PROTOCOL:
        if table is not None:
            return pdf_protocols.filled_protocol_context(table=table)
        if round_ is None:
            raise UserFacingError(_("Choose a round or a table."), {"field": "table"})
        return pdf_protocols.filled_round_context(
            round_=round_
        )  # every table of the round, one file
    if round_ is None:
        raise UserFacingError(_("Choose a round."), {"field": "round"})
    if kind == GeneratedFile.Kind.SEATING:
        return pdf_contexts.seating_context(round_=round_)
    if kind == GeneratedFile.Kind.BLANK_PROTOCOLS:
        return pdf_contexts.blank_protocols_context(round_=round_, base_url=base_url)
    raise UserFacingError(_("Unknown document kind."), {"field": "kind"})


@transaction.atomic
def generated_file_request(
    *,
    event: Event,
    kind: str,
    round_: Round | None = None,
    table: Table | None = None,
    paper: str = "A4",
    language: str = "en",
    base_url: str = "",
) -> GeneratedFile:
    """The stored document if its data has not changed, else a pending one being rendered.

    :raises UserFacingError: bad kind, paper or scope (naming the field).
    """
    if paper not in pdf_paper.PAPERS:
        raise UserFacingError(_("Paper must be A4 or letter."), {"field": "paper"})
    if table is not None:
        round_ = table.round
    if kind in (GeneratedFile.Kind.BLANK_PROTOCOLS, GeneratedFile.Kind.PLAYER_LINKS):
        # the QR codes and links on the sheets and slips are absolute
        base_url = qr_address(base_url)
        if language != settings.LANGUAGE_CODE:
            # and open the page in the document's language (i18n_patterns: /<code>/t/<key>/)
            base_url = f"{base_url.rstrip('/')}/{language}"
    else:
        base_url = ""
    with translation.override(language):  # the words a context holds are the document's
        hashed = _hashed(kind=kind, event=event, round_=round_, table=table, base_url=base_url)
    digest = pdf.context_hash(kind, hashed, paper=paper, language=language)
    scope = {
        "event": event,
        "kind": kind,
        "round": round_,
        "table": table,
        "paper": paper,
        "language": language,
    }
    # serialise requests for one document: lock the event's existing rows of this scope
    existing = (
        GeneratedFile.objects.select_for_update()
        .filter(**scope, inputs_hash=digest)
        .exclude(status=GeneratedFile.Status.FAILED)
        .order_by("-created_at")
        .first()
    )
    if existing is not None:
        return existing
    created = GeneratedFile.objects.create(
        **scope, inputs_hash=digest, base_url=base_url, status=GeneratedFile.Status.PENDING
    )

    # the job is written with the row and sent after the commit (jobs.outbox)
    job_enqueue(
        task="tournaments.generated_file_render",
        args=[created.pk],
        queue=jobs_queue(),
        event_id=event.pk,
        key=f"file:{created.pk}",
    )
    return created


def _by_inputs(kind: str, round_: Round | None, table: Table | None) -> bool:
    """Whether a document is found by its sheets' inputs (many sheets) or by its context."""
    return kind == GeneratedFile.Kind.EVENT_PROTOCOLS or (
        kind == GeneratedFile.Kind.FILLED_PROTOCOL and table is None and round_ is not None
    )


def _hashed(
    *, kind: str, event: Event, round_: Round | None, table: Table | None, base_url: str
) -> dict[str, Any]:
    """What a document's hash is taken of: its context; for the filled protocols of a whole
    round or of the whole event, the inputs of their sheets (:func:`pdf.filled_event_inputs`),
    so that asking for them does not build every sheet in the request."""
    if _by_inputs(kind, round_, table):
        return pdf_protocols.filled_event_inputs(
            event=event, round_=None if kind == GeneratedFile.Kind.EVENT_PROTOCOLS else round_
        )
    return document_context(kind=kind, event=event, round_=round_, table=table, base_url=base_url)


def _progress(file_id: int, done: int, total: int) -> None:
    GeneratedFile.objects.filter(pk=file_id).update(progress={"done": done, "total": total})


def generated_file_render(*, file_id: int) -> GeneratedFile:
    """Render the file (the job's body; idempotent: a file already rendered is returned).

    The rendering runs outside any lock or transaction, so that a long one (a round's filled
    protocols: hundreds of sheets) shows its progress (``GeneratedFile.progress``) as it goes;
    the file is stored under the row's lock, unless another delivery of the job stored it
    meanwhile."""
    f = (
        GeneratedFile.objects.select_related("event", "round", "table")
        .defer(*without_draw_record("round"))
        .get(pk=file_id)
    )
    if f.status == GeneratedFile.Status.OK and f.file:
        return f
    # the inputs' hash read before the sheets (never newer than what is printed)
    hashed = (
        _hashed(kind=f.kind, event=f.event, round_=f.round, table=f.table, base_url=f.base_url)
        if _by_inputs(f.kind, f.round, f.table)
        else None
    )
    # the context's words (penalty rows, rulings, findings) in the document's language, as
    # the page in that language says them (issue 36: a Russian sheet's rulings in Russian)
    with translation.override(f.language or settings.LANGUAGE_CODE):
        context = document_context(
            kind=f.kind, event=f.event, round_=f.round, table=f.table, base_url=f.base_url
        )
    rendered = pdf.render(
        f.kind,
        context,
        paper=f.paper,
        language=f.language,
        progress=lambda done, total: _progress(file_id, done, total),
    )
    with transaction.atomic():
        f = (
            GeneratedFile.objects.select_for_update(of=("self",))
            .select_related("event", "round", "table")
            .defer(*without_draw_record("round"))
            .get(pk=file_id)
        )
        if f.status == GeneratedFile.Status.OK and f.file:
            return f
        old = [
            o
            for o in GeneratedFile.objects.filter(
                event=f.event,
                kind=f.kind,
                round=f.round,
                table=f.table,
                paper=f.paper,
                language=f.language,
            ).exclude(pk=f.pk)
        ]
        f.file.save(rendered.filename, ContentFile(rendered.data), save=False)
        f.filename = rendered.filename
        f.content_type = rendered.content_type
        f.status = GeneratedFile.Status.OK
        f.error = ""
        f.progress = {}
        f.rendered_at = timezone.now()
        # the hash of what was rendered (the data may have moved on since the request)
        f.inputs_hash = pdf.context_hash(
            f.kind, hashed or context, paper=f.paper, language=f.language
        )
        f.save()
        for o in old:  # superseded versions of the same document
            if o.file:
                o.file.delete(save=False)
            o.delete()
    return f


def generated_file_mark_failed(
    *, file_id: int, error: str, words: dict[str, Any] | None = None
) -> None:
    """The document failed: ``error`` in English (the API, the logs), ``words`` said again in
    the reader's language (:func:`tournaments.errors.error_words`)."""
    GeneratedFile.objects.filter(pk=file_id).update(
        status=GeneratedFile.Status.FAILED, error=error[:4000], error_words=words
    )
