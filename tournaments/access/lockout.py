"""Failed logins and key guesses slow down, then lock out, per account and per address.

One policy for the four doors that take a secret: the login pages (``/accounts/login/`` and the
admin's), the API's token, and the private keys of tables and players (pages and the
``X-Table-Key`` header). Failures are counted in Django's cache — Redis in production
(``CACHE_URL``), so that every web process sees the same counts — per account (a user name, a
table) and per address. After half the allowed failures each further failure makes the caller
wait (1, 2, 4, 8 … seconds, a minute at most); at the limit the account or address is locked for
``LOCKOUT_SECONDS``. While locked, attempts are refused without checking the secret (so a lucky
guess during the lock finds nothing) and are not counted (so the lock ends on time). A failure
is forgotten ``LOCKOUT_SECONDS`` after the last one; a successful login clears its account.

Each failure is logged on ``pulka.security`` (the address, the scope, a digest of the account,
the count); a lock is logged as a warning. Pages answer 429 with a page saying when to try
again, the API 429 ``{"message", "extra": {"retry_after"}}`` with ``Retry-After``.

**The cache out of reach** (issue 38): the doors stay open to the right secret. While the
shared cache's server cannot be reached (its backend says so, ``tournaments.web_cache.backend``,
or a call raises), failures are counted in this process's memory with half the allowances (a
conservative limit: each process counts only the failures it sees), and the switch is logged on
``pulka.security``; the shared counts take over again when the cache is back.

Why not a library: django-axes guards only ``authenticate()`` (the login forms), not a token
or a key lookup, and needs its own tables; django-ratelimit counts every request, not failures,
and does not lock out. Both would still leave the key pages to code of our own; one small
cache-backed policy covers all four doors alike.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.http import Http404, HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

T = TypeVar("T")

__all__ = [
    "API_TOKEN",
    "LOGIN",
    "PRIVATE_KEY",
    "LockedOut",
    "Policy",
    "check",
    "client_address",
    "failure",
    "guarded",
    "locked_for",
    "message",
    "success",
]

log = logging.getLogger("pulka.security")


@dataclass(frozen=True)
class Policy:
    """``scope`` names the door; ``per_account`` and ``per_address`` are the failures allowed
    before the lock (0: that side is not counted)."""

    scope: str
    per_account: int
    per_address: int


#: Organisers' and referees' logins (both login pages share the counts).
LOGIN = Policy("login", per_account=10, per_address=50)
#: ``Authorization: Token …`` on the API: a wrong token has no account, only an address.
API_TOKEN = Policy("api-token", per_account=0, per_address=20)
#: A table's or a player's private key (``/t/<key>/``, ``/p/<key>/``, ``X-Table-Key``); the
#: account is the table, when the request names one (the API).
PRIVATE_KEY = Policy("key", per_account=10, per_address=30)


#: The longest wait before the lock itself (1, 2, 4 … doubling up to a minute).
_LONGEST_SLOWDOWN = 60


class LockedOut(Exception):
    """Too many failures: try again in ``seconds``."""

    def __init__(self, policy: Policy, seconds: int) -> None:
        super().__init__(f"{policy.scope}: locked for {seconds} s")
        self.policy = policy
        self.seconds = seconds


def client_address(request: HttpRequest) -> str:
    """The caller's address: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXIES`` reverse proxies the
    address the outermost of them saw (from the right of ``X-Forwarded-For``)."""
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _keys(policy: Policy, request: HttpRequest, account: str | None, *,
          local: bool = False) -> list[tuple[str, int]]:  # fmt: skip
    """(cache key, allowed failures) for each side counted; ``local``: the conservative
    allowances of the in-process count (half, at least one)."""
    keys = []
    if policy.per_account and account:
        keys.append((f"pulka:lockout:{policy.scope}:account:{_digest(account.lower())}",
                     policy.per_account))  # fmt: skip
    if policy.per_address:
        keys.append((f"pulka:lockout:{policy.scope}:address:{_digest(client_address(request))}",
                     policy.per_address))  # fmt: skip
    if local:
        return [(key, max(1, allowed // 2)) for key, allowed in keys]
    return keys


#: the counts while the shared cache is out of reach: this process's memory
_local = LocMemCache("pulka-lockout-local", {"OPTIONS": {"MAX_ENTRIES": 20_000}})
#: when the switch to the local counts was last logged (monotonic seconds)
_local_logged = [-math.inf]
_LOCAL_LOG_EVERY = 60.0
_FAILED = object()


def _shared_down() -> bool:
    probe = getattr(cache, "unreachable", None)  # tournaments.web_cache.backend.RedisCache
    return bool(probe()) if callable(probe) else False


def _counted(work: Callable[[BaseCache, bool], T]) -> T:
    """``work(store, local)`` on the shared cache, or on this process's memory (``local``) when
    the shared cache is out of reach before or during the work."""
    if not _shared_down():
        try:
            result = work(cache, False)
        except Exception:  # a cache backend that raises when its server is out of reach
            log.exception("lockout cache failed")
            result = _FAILED
        if result is not _FAILED and not _shared_down():
            return result
    now = time.monotonic()
    if now - _local_logged[0] >= _LOCAL_LOG_EVERY:
        _local_logged[0] = now
        log.warning("lockout counts in this process: the shared cache is out of reach")
    return work(_local, True)


def _wait(failures: int, allowed: int) -> int:
    """Seconds to wait after the ``failures``-th failure: none for the first half of the
    allowance, then doubling from 1 s, and the whole lockout at the limit."""
    lockout = settings.LOCKOUT_SECONDS
    if failures >= allowed:
        return lockout
    free = allowed // 2
    if failures <= free:
        return 0
    return min(lockout, _LONGEST_SLOWDOWN, 2 ** (failures - free - 1))


def locked_for(policy: Policy, request: HttpRequest, *, account: str | None = None) -> int:
    """Seconds until the account and the address may try again (0: now)."""
    now = time.time()

    def work(store: BaseCache, local: bool) -> int:
        keys = [key + ":until" for key, _ in _keys(policy, request, account, local=local)]
        untils = store.get_many(keys)
        return max((math.ceil(u - now) for u in untils.values() if u > now), default=0)

    return _counted(work)


def check(policy: Policy, request: HttpRequest, *, account: str | None = None) -> None:
    """:raises LockedOut: while the account or the address is locked."""
    if wait := locked_for(policy, request, account=account):
        raise LockedOut(policy, wait)


def failure(policy: Policy, request: HttpRequest, *, account: str | None = None) -> int:
    """Count a failed attempt; return the seconds the caller must now wait (0: none)."""
    window = settings.LOCKOUT_SECONDS
    now = time.time()

    def work(store: BaseCache, local: bool) -> tuple[int, list[int]]:
        wait = 0
        counts = []
        for key, allowed in _keys(policy, request, account, local=local):
            store.add(key, 0, window)
            try:
                failures = store.incr(key)
            except ValueError:  # expired between add and incr
                store.set(key, 1, window)
                failures = 1
            store.touch(key, window)
            counts.append(failures)
            if seconds := _wait(failures, allowed):
                store.set(key + ":until", now + seconds, seconds)
                wait = max(wait, seconds)
        return wait, counts

    wait, counts = _counted(work)
    fields = {
        "scope": policy.scope,
        "address": client_address(request),
        "account": _digest(account.lower()) if account else "-",
        "failures": "/".join(map(str, counts)),
        "wait": wait,
    }
    text = " ".join(f"{k}={v}" for k, v in fields.items())
    if wait >= settings.LOCKOUT_SECONDS:
        log.warning("lockout %s", text, extra={"pulka_security": fields})
    else:
        log.info("failed %s", text, extra={"pulka_security": fields})
    return wait


def success(policy: Policy, request: HttpRequest, *, account: str | None = None) -> None:
    """A right secret: the account's failures are forgotten (the address's are not, so one
    known account cannot launder guesses at others)."""
    if policy.per_account and account:
        key = _keys(policy, request, account)[0][0]

        def work(store: BaseCache, local: bool) -> None:
            store.delete_many([key, key + ":until"])

        _counted(work)


def guarded(policy: Policy, request: HttpRequest, lookup: Callable[[], T], *,
            account: str | None = None) -> T:  # fmt: skip
    """``lookup()`` (a key's table or entry) unless locked; its ``Http404`` counts a failure.

    :raises LockedOut: while the address (or ``account``) is locked.
    """
    check(policy, request, account=account)
    try:
        return lookup()
    except Http404:
        failure(policy, request, account=account)
        raise


def message(seconds: int) -> str:
    """ "Too many failed attempts. Try again in 15 minutes (after 14:32)." """
    after = timezone.localtime(timezone.now() + timedelta(seconds=seconds))
    if seconds < 90:
        wait = ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    else:
        minutes = math.ceil(seconds / 60)
        wait = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    return _("Too many failed attempts. Try again in %(wait)s (after %(time)s).") % {
        "wait": wait,
        "time": after.strftime("%H:%M:%S" if seconds < 90 else "%H:%M"),
    }
