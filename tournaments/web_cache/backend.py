"""Django's Redis cache, with one Redis client object per connection pool and process, that a
Redis out of reach never turns into a 500 (issue 38).

**One client per pool.** Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis``
for every cache call (redis-py then builds its table of response callbacks): about 0.06 ms of
CPU, as much as a trivial view costs, on every read of the public pages' versions (issue 28,
``tournaments/web_cache/versions.py``). The client is thread-safe and its pool reconnects after
a fork, so one per pool is kept. ``settings.CACHES`` uses this class wherever ``CACHE_URL``
names Redis.

**Redis down.** Everything Pulka keeps in the cache can be rebuilt or done without: the public
pages' versions and stored pages (the pages are rendered from the database instead), the
lockouts' counts (``tournaments.access.lockout`` counts in the process meanwhile), a job's
progress. So when Redis cannot be reached (a refused or timed-out connection, a read that timed
out) a cache call answers as an empty cache would — ``get`` its default, ``get_many`` nothing,
``add``/``touch``/``delete``/``has_key`` False, ``set`` nothing stored, ``incr`` a
``ValueError`` (no such key) — logs a warning once per outage on ``pulka.cache``, and for the
next ``RETRY_SECONDS`` (option ``RETRY_SECONDS`` in ``CACHES``, setting ``CACHE_RETRY_SECONDS``)
does not try Redis at all, so that a dead Redis costs a request nothing rather than a connect
timeout per call. :meth:`RedisCache.unreachable` says whether Redis is held for down (callers
that must know — the versions' reader, the lockouts — ask it after a call). The connect and read
timeouts (``socket_connect_timeout``, ``socket_timeout``) are short by default in the settings
(``CACHE_CONNECT_TIMEOUT``, ``CACHE_SOCKET_TIMEOUT``).
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["RedisCache", "unreachable"]

log = logging.getLogger("pulka.cache")

#: what a Redis out of reach raises (a refused connection, a connect or read timeout, a Redis
#: still loading its data)
_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)


def unreachable(cache) -> bool:
    """Whether ``cache`` (a backend or ``django.core.cache.cache``) holds its server for out of
    reach; False for a cache that cannot be (the process's memory)."""
    probe = getattr(cache, "unreachable", None)
    return bool(probe()) if callable(probe) else False


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._client(connection_pool=self._get_connection_pool(write))
            self._clients[index] = client
        return client


class _Down(Exception):
    """Redis is held for out of reach: the call was not tried."""


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params) -> None:
        options = dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(options.pop("RETRY_SECONDS", 5.0))
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = RedisCacheClient
        self._down_until = 0.0
        self._down_lock = threading.Lock()

    def unreachable(self) -> bool:
        """Whether the last call found Redis out of reach less than ``retry_seconds`` ago."""
        return time.monotonic() < self._down_until

    def _call(self, op: str, *args):
        if self.unreachable():
            raise _Down
        try:
            result = getattr(self._cache, op)(*args)
        except _DOWN as error:
            with self._down_lock:
                first = not self._down_until
                self._down_until = time.monotonic() + self.retry_seconds
            if first:
                log.warning(
                    "cache unreachable (%s: %s): pages from the database, lockouts counted in "
                    "this process; Redis tried again every %g s",
                    type(error).__name__, error, self.retry_seconds,
                )  # fmt: skip
            raise _Down from error
        if self._down_until:
            with self._down_lock:
                if self._down_until:
                    self._down_until = 0.0
                    log.warning("cache reachable again")
        return result

    def _soft(self, default, op: str, *args):
        try:
            return self._call(op, *args)
        except _Down:
            return default

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        return self._soft(False, "add", key, value, self.get_backend_timeout(timeout))

    def get(self, key, default=None, version=None):
        key = self.make_and_validate_key(key, version=version)
        return self._soft(default, "get", key, default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        self._soft(None, "set", key, value, self.get_backend_timeout(timeout))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        return self._soft(False, "touch", key, self.get_backend_timeout(timeout))

    def delete(self, key, version=None):
        key = self.make_and_validate_key(key, version=version)
        return self._soft(False, "delete", key)

    def get_many(self, keys, version=None):
        key_map = {self.make_and_validate_key(key, version=version): key for key in keys}
        found = self._soft({}, "get_many", key_map.keys())
        return {key_map[k]: v for k, v in found.items()}

    def has_key(self, key, version=None):
        key = self.make_and_validate_key(key, version=version)
        return self._soft(False, "has_key", key)

    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        try:
            return self._call("incr", key, delta)
        except _Down:
            raise ValueError(f"Key '{key}' not found (the cache is out of reach).") from None

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        if not data:
            return []
        safe = {self.make_and_validate_key(k, version=version): v for k, v in data.items()}
        try:
            self._call("set_many", safe, self.get_backend_timeout(timeout))
        except _Down:
            return list(data)
        return []

    def delete_many(self, keys, version=None):
        if not keys:
            return
        safe = [self.make_and_validate_key(key, version=version) for key in keys]
        self._soft(None, "delete_many", safe)

    def clear(self):
        return self._soft(False, "clear")
