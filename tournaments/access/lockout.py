"""Failed logins and key guesses slow down the guesser, never the players (issue 38).

One module for the four doors that take a secret: the login pages (``/accounts/login/`` and the
admin's), the API's token, and the private keys of tables and players (pages and the
``X-Table-Key`` header). Failures are counted in Django's cache — Redis in production
(``CACHE_URL``), so that every web process sees the same counts. After half the allowed
failures each further failure makes the caller wait (1, 2, 4, 8 … seconds, a minute at most).

- **Keys and tokens** (``secret`` policies) are 128 bits or more: guessing them is hopeless, so
  a wrong one only slows its sender — per address, a minute at most, never a lock — and a right
  one is always let in, whoever sent wrong ones before (a hall behind one NAT is one address;
  a table's own phone is never locked out by guesses at its key).
- **Logins** are slowed per account *and address* pair (one guesser, one account): waits grow
  from 1 s to ``LOCKOUT_SECONDS``, and at the pair's limit that pair is locked; the account
  itself is locked for every address only when the failures come from several addresses
  (``account_addresses``: a spread guess), and an organiser lifts it from the desk
  (:func:`lift`, ``services.access``); an address's failures over every account only slow it.

While a login waits, the attempt is refused without checking the password (so a lucky guess
during the wait finds nothing) and is not counted (so the wait ends on time). A failure is
forgotten ``LOCKOUT_SECONDS`` after the last one; a successful login clears its pair and its
account.

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
    "account_locks",
    "lift",
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
    """``scope`` names the door; ``per_pair``, ``per_account`` and ``per_address`` are the
    failures allowed (0: that side is not counted): the pair (account and address) is locked at
    its limit, the account only when its failures also came from ``account_addresses``
    addresses or more, an address is only slowed. ``secret``: a key or token, whose failures
    only slow their sender and never refuse a right one."""

    scope: str
    per_account: int
    per_address: int
    per_pair: int = 0
    account_addresses: int = 0
    secret: bool = False


#: Organisers' and referees' logins (both login pages share the counts).
LOGIN = Policy("login", per_account=10, per_address=50, per_pair=10, account_addresses=3)
#: ``Authorization: Token …`` on the API: a wrong token has no account, only an address.
API_TOKEN = Policy("api-token", per_account=0, per_address=20, secret=True)
#: A table's or a player's private key (``/t/<key>/``, ``/p/<key>/``, ``X-Table-Key``).
PRIVATE_KEY = Policy("key", per_account=0, per_address=30, secret=True)


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


def _account_key(policy: Policy, account: str) -> str:
    return f"pulka:lockout:{policy.scope}:account:{_digest(account.lower())}"


def _keys(policy: Policy, request: HttpRequest, account: str | None, *,
          local: bool = False) -> list[tuple[str, int, str]]:  # fmt: skip
    """(cache key, allowed failures, side) for each side counted (``pair``, ``account``,
    ``address``); ``local``: the conservative allowances of the in-process count (half, at
    least one)."""
    keys = []
    address = _digest(client_address(request))
    if policy.per_pair and account:
        keys.append((f"pulka:lockout:{policy.scope}:pair:{_digest(account.lower())}:{address}",
                     policy.per_pair, "pair"))  # fmt: skip
    if policy.per_account and account:
        keys.append((_account_key(policy, account), policy.per_account, "account"))
    if policy.per_address:
        keys.append((f"pulka:lockout:{policy.scope}:address:{address}",
                     policy.per_address, "address"))  # fmt: skip
    if local:
        return [(key, max(1, allowed // 2), side) for key, allowed, side in keys]
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


def _wait(failures: int, allowed: int, *, lock: bool = True) -> int:
    """Seconds to wait after the ``failures``-th failure: none for the first half of the
    allowance, then doubling from 1 s, and the whole lockout at the limit (without ``lock``: a
    minute at most, however many)."""
    lockout = settings.LOCKOUT_SECONDS
    if failures >= allowed and lock:
        return lockout
    free = allowed // 2
    if failures <= free:
        return 0
    return min(lockout, _LONGEST_SLOWDOWN, 2 ** min(failures - free - 1, 30))


def locked_for(policy: Policy, request: HttpRequest, *, account: str | None = None) -> int:
    """Seconds until the account and the address may try again (0: now)."""
    now = time.time()

    def work(store: BaseCache, local: bool) -> int:
        keys = [key + ":until" for key, _a, _s in _keys(policy, request, account, local=local)]
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
        for key, allowed, side in _keys(policy, request, account, local=local):
            failures = _incr(store, key, window)
            counts.append(failures)
            if side == "account":  # locked only by a spread guess: several addresses
                address = _digest(client_address(request))
                if store.add(f"{key}:seen:{address}", 1, window):
                    _incr(store, key + ":addresses", window)
                spread = (store.get(key + ":addresses") or 0) >= policy.account_addresses
                seconds = settings.LOCKOUT_SECONDS if failures >= allowed and spread else 0
            else:  # a pair is slowed, then locked; an address and a secret's sender only slowed
                seconds = _wait(failures, allowed, lock=side == "pair")
            if seconds:
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


def _incr(store: BaseCache, key: str, window: int) -> int:
    store.add(key, 0, window)
    try:
        count = store.incr(key)
    except ValueError:  # expired between add and incr
        store.set(key, 1, window)
        count = 1
    store.touch(key, window)
    return count


def success(policy: Policy, request: HttpRequest, *, account: str | None = None) -> None:
    """A right secret: the pair's and the account's failures are forgotten (the address's are
    not, so one known account cannot launder guesses at others)."""
    if not account:
        return
    keys = [k for k, _a, side in _keys(policy, request, account) if side in ("pair", "account")]
    if keys:

        def work(store: BaseCache, local: bool) -> None:
            store.delete_many([k + suffix for k in keys for suffix in ("", ":until", ":addresses")])

        _counted(work)


def account_locks(policy: Policy, accounts: list[str]) -> dict[str, int]:
    """The accounts among ``accounts`` locked for every address, each with its seconds left
    (the organiser's desk shows them)."""
    now = time.time()
    keys = {_account_key(policy, a) + ":until": a for a in accounts}

    def work(store: BaseCache, local: bool) -> dict[str, int]:
        untils = store.get_many(list(keys))
        return {keys[k]: math.ceil(u - now) for k, u in untils.items() if u > now}

    return _counted(work)


def lift(policy: Policy, account: str) -> bool:
    """Lift the lock of ``account`` and forget its failures (the pairs that guessed stay
    slowed); whether it was locked. Logged on ``pulka.security``."""
    key = _account_key(policy, account)

    def work(store: BaseCache, local: bool) -> bool:
        was = store.get(key + ":until") is not None
        store.delete_many([key, key + ":until", key + ":addresses"])
        return was

    was = _counted(work)
    log.warning("lifted scope=%s account=%s", policy.scope, _digest(account.lower()))
    return was


def guarded(policy: Policy, request: HttpRequest, lookup: Callable[[], T], *,
            account: str | None = None) -> T:  # fmt: skip
    """``lookup()`` (a key's table or entry); its ``Http404`` counts a failure. A ``secret``
    policy's right key is always found (a key is never locked out); a wrong one while its
    sender waits is refused with the wait.

    :raises LockedOut: a wrong key while its sender must wait; for other policies, any
        attempt while the address (or ``account``) is locked.
    """
    if not policy.secret:
        check(policy, request, account=account)
    try:
        return lookup()
    except Http404:
        if wait := failure(policy, request, account=account):
            raise LockedOut(policy, wait) from None
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
