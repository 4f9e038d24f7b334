"""Organisations from Pulka's own pages (issue 39): a new club, league or federation
(``/manage/new-organisation/``, for those who may create events), its name and kind
(``/o/<slug>/settings/``), its organisers and referees (``/o/<slug>/staff/``) and its log of
them (``/o/<slug>/log/``). Thin: each
parses the form, calls one service of ``services.organisations`` and renders.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.access.organisations import can_organise_organisation
from tournaments.forms.series import OrganisationForm, OrganisationStaffForm
from tournaments.models import Organisation
from tournaments.services import organisations as services
from tournaments.views.decorators import posted_id, role_granted, run_form_service, run_service
from tournaments.words import audit as audit_text

__all__ = ["organisation_log", "organisation_new", "organisation_settings", "organisation_staff"]


def _organised(request, slug: str) -> Organisation:
    """The organisation, for one of its organisers only (a visitor is asked to log in)."""
    organisation = get_object_or_404(Organisation, slug=slug)
    if not can_organise_organisation(request.user, organisation):
        raise PermissionDenied
    return organisation


@require_http_methods(["GET", "POST"])
def organisation_new(request):
    """A new club, league or federation; its creator is its first organiser. Those who may
    create an event may create an organisation."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not (request.user.is_staff or request.user.is_superuser):
        raise PermissionDenied
    form = OrganisationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        organisation, _error = run_form_service(
            request,
            form,
            services.organisation_create,
            by=request.user,
            success=_("Organisation created."),
            **form.cleaned_data,
        )
        if organisation:
            return redirect("organisation", slug=organisation.slug)
    return render(request, "tournaments/series/organisation_form.html", {"form": form})


@require_http_methods(["GET", "POST"])
def organisation_settings(request, slug: str):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    organisation = _organised(request, slug)
    initial = {f: getattr(organisation, f) for f in ("slug", "name", "kind", "city")}
    form = OrganisationForm(request.POST or None, initial=initial)
    form.fields["slug"].disabled = True
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k != "slug"}
        _ok, error = run_form_service(
            request,
            form,
            services.organisation_update,
            organisation=organisation,
            by=request.user,
            success=_("Saved."),
            **data,
        )
        if not error:
            return redirect("organisation", slug=organisation.slug)
    return render(
        request,
        "tournaments/series/organisation_form.html",
        {"form": form, "organisation": organisation},
    )


@require_http_methods(["GET", "POST"])
def organisation_staff(request, slug: str):
    """Who organises the organisation and referees for it: grant a role (creating the
    account), revoke one (its last organiser stays)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    organisation = _organised(request, slug)
    form = OrganisationStaffForm()
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            role = get_object_or_404(organisation.roles, pk=posted_id(request.POST.get("role")))
            run_service(
                request,
                services.organisation_role_revoke,
                role=role,
                by=request.user,
                success=_("The role is revoked."),
            )
            return redirect("organisation-staff", slug=organisation.slug)
        form = OrganisationStaffForm(request.POST)
        if form.is_valid():
            result, _error = run_form_service(
                request,
                form,
                services.organisation_staff_add,
                organisation=organisation,
                by=request.user,
                **form.cleaned_data,
            )
            if role_granted(request, result):
                return redirect("organisation-staff", slug=organisation.slug)
    return render(
        request,
        "tournaments/series/organisation_staff.html",
        {
            "organisation": organisation,
            "roles": organisation.roles.select_related("user").order_by("role", "user__username"),
            "form": form,
        },
    )


@require_http_methods(["GET"])
def organisation_log(request, slug: str):
    """The organisation's log (its organisers only): who gave or took which role, as an
    event's log says it; append-only."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    organisation = _organised(request, slug)
    items = list(organisation.log.select_related("user")[:500])
    log = [
        (
            item,
            audit_text.who(item.user, item.data, {}),
            audit_text.described(item.action, item.data, {}),
        )
        for item in items
    ]
    return render(
        request,
        "tournaments/series/organisation_log.html",
        {"organisation": organisation, "log": log},
    )
