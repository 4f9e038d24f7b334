"""``Authorization: Token …`` with the lockout of :mod:`tournaments.access.lockout`: wrong tokens are
counted per address; a locked address gets 429 with ``Retry-After`` and its tokens are not even
looked up."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from tournaments.access import lockout

__all__ = ["LockoutTokenAuthentication"]


class LockoutTokenAuthentication(TokenAuthentication):
    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() != self.keyword.lower().encode():
            return None  # no token offered: nothing to count
        lockout.check(lockout.API_TOKEN, request)
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            if wait := lockout.failure(lockout.API_TOKEN, request):
                raise lockout.LockedOut(lockout.API_TOKEN, wait) from None
            raise
