"""``Authorization: Token …`` with the lockout of :mod:`tournaments.access.lockout`: wrong tokens are
counted per address and slow their sender (429 with ``Retry-After`` for a wrong token while it
must wait); a right token is never refused (issue 38)."""

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
        try:  # a right token always authenticates (issue 38): wrong ones only slow the sender
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            if wait := lockout.failure(lockout.API_TOKEN, request):
                raise lockout.LockedOut(lockout.API_TOKEN, wait) from None
            raise
