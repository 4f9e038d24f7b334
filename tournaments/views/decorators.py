"""Loading an event by slug and checking the user's role in it, for every event view."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from tournaments.access.permissions import has_event_role
from tournaments.errors import BIGINT_MAX, UserFacingError
from tournaments.models import Event


def event_view(*, roles: frozenset[str] | None = None):
    """Load ``Event`` from the ``slug`` kwarg; without ``roles`` the event must be published
    (or the user one of its staff); with ``roles`` the user must hold one of them."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            event = get_object_or_404(Event, slug=slug)
            if roles is not None:
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                if not has_event_role(request.user, event, roles):
                    raise PermissionDenied
            elif not event.published and not has_event_role(
                request.user, event, frozenset({"organiser", "chief_referee", "referee"})
            ):
                raise Http404
            return view(request, event, *args, **kwargs)

        return wrapper

    return decorator


def run_service(request, fn, *, success: str | None = None, **kwargs):
    """Call a service; a UserFacingError becomes an error message (nothing is lost)."""
    try:
        result = fn(**kwargs)
    except UserFacingError as exc:
        messages.error(request, exc.message)
        return None, exc
    if success:
        messages.success(request, success)
    return result, None


def run_form_service(request, form, fn, *, success: str | None = None, **kwargs):
    """As :func:`run_service` for a form's input: an error about one of the form's fields is
    shown beside that field (``extra["field"]``), not as a message at the top of the page."""
    try:
        result = fn(**kwargs)
    except UserFacingError as exc:
        field = exc.extra.get("field")
        if field in form.fields:
            form.add_error(field, exc.message)
        else:
            messages.error(request, exc.message)
        return None, exc
    if success:
        messages.success(request, success)
    return result, None


def role_granted(request, result) -> bool:
    """Says what a staff service granted (an event's or an organisation's): the password of an
    account made for the role, once ("hand it over now"), or that the role is granted; False
    when the service refused (its message is said already)."""
    if result is None:
        return False
    role, password = result
    if password:
        messages.success(
            request,
            _(
                "Account %(user)s created with the password %(password)s: hand it "
                "over now, it is not shown again."
            )
            % {"user": role.user.get_username(), "password": password},
        )
    else:
        messages.success(request, _("The role is granted."))
    return True


def posted_id(value: object) -> int:
    """The id of a row named in a posted (usually hidden) field; anything that is not a whole
    number names no row: 404, not a 500."""
    text = str(value).strip()
    try:
        number = int(text) if len(text) <= 20 else None
    except (TypeError, ValueError):
        number = None
    if number is None or not 0 < number <= BIGINT_MAX:  # no row's id, nor a bigint's (issue 38)
        raise Http404("no such row")
    return number


def back(request, fallback: str):
    return redirect(request.POST.get("next") or fallback)
