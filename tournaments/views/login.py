"""The login pages (``/accounts/login/`` and the admin's) with the lockout of
:mod:`tournaments.access.lockout`: failed logins are counted per user name and per address; a locked
caller gets the page back with 429, ``Retry-After`` and when to try again, and the password is
not even checked."""

from __future__ import annotations

from functools import wraps

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from tournaments.access import lockout

__all__ = ["AdminLockoutAuthenticationForm", "LockoutAuthenticationForm", "with_lockout_status"]


class _Lockout:
    """Mixed into Django's login forms, before them."""

    def clean(self):
        request = self.request  # type: ignore[attr-defined]
        username = (self.cleaned_data.get("username") or "").strip()  # type: ignore[attr-defined]
        try:
            lockout.check(lockout.LOGIN, request, account=username)
        except lockout.LockedOut as exc:
            request.pulka_locked_out = exc.seconds
            raise ValidationError(lockout.message(exc.seconds), code="locked_out") from None
        try:
            cleaned = super().clean()  # type: ignore[misc]
        except ValidationError as exc:
            if self.user_cache is not None:  # type: ignore[attr-defined]
                raise  # the password was right (an inactive or, for the admin, non-staff user)
            wait = lockout.failure(lockout.LOGIN, request, account=username)
            if not wait:
                raise
            request.pulka_locked_out = wait
            raise ValidationError(
                [*exc.error_list, ValidationError(lockout.message(wait), code="locked_out")]
            ) from None
        lockout.success(lockout.LOGIN, request, account=username)
        return cleaned


class LockoutAuthenticationForm(_Lockout, AuthenticationForm):
    pass


class AdminLockoutAuthenticationForm(_Lockout, AdminAuthenticationForm):
    pass


def with_lockout_status(view):
    """The login page answers 429 with ``Retry-After`` while the caller must wait."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        seconds = getattr(request, "pulka_locked_out", 0)
        if seconds and response.status_code == 200:
            response.status_code = 429
            response["Retry-After"] = str(seconds)
        return response

    return wrapper
