"""A person's record for the organisers of his events (issue 39, privacy): how public pages
show him (name or initials), everything Pulka holds about him as JSON, and erasing his
personal data while his results stay. Thin: each calls one service."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.access.organisations import can_edit_person
from tournaments.models import Person, PersonLogEntry
from tournaments.services import persons as person_services
from tournaments.services import privacy
from tournaments.views.decorators import run_service


def _editable(request, person_id: int) -> Person | HttpResponse:
    person = get_object_or_404(Person, pk=person_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_edit_person(request.user, person):
        raise PermissionDenied
    return person


@require_http_methods(["GET", "POST"])
def person_manage(request, person_id: int):
    person = _editable(request, person_id)
    if isinstance(person, HttpResponse):
        return person
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "shown_as":
            run_service(
                request,
                person_services.person_update,
                person=person,
                shown_as=request.POST.get("shown_as", ""),
                by=request.user,
                success=_("Saved."),
            )
        elif action == "erase":
            if request.POST.get("confirm") != "erase":
                messages.error(request, _("Tick the box to confirm the erasure."))
            else:
                run_service(
                    request,
                    privacy.person_erase,
                    person=person,
                    by=request.user,
                    success=_("The person's data is erased; the results stay, anonymised."),
                )
        else:
            raise Http404
        return redirect("person-manage", person_id=person.pk)
    return render(
        request,
        "tournaments/series/person_manage.html",
        {
            "person": person,
            "choices": Person.ShownAs.choices,
            "log": PersonLogEntry.objects.filter(person=person).select_related("user")[:50],
        },
    )


def person_export(request, person_id: int):
    """Everything Pulka holds about the person, as a JSON download (logged)."""
    person = _editable(request, person_id)
    if isinstance(person, HttpResponse):
        return person
    document = privacy.person_export(person=person, by=request.user)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2, default=str),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="person-{person.pk}.json"'
    return response
