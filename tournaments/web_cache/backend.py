"""Django's Redis cache, with one Redis client object per connection pool and process.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every cache call
(redis-py then builds its table of response callbacks): about 0.06 ms of CPU, as much as a
trivial view costs, on every read of the public pages' versions (issue 28,
``tournaments/web_cache/versions.py``). The client is thread-safe and its pool reconnects after a fork,
so one per pool is kept. ``settings.CACHES`` uses this class wherever ``CACHE_URL`` names Redis.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient

__all__ = ["RedisCache"]


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


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
