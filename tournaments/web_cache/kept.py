"""What a process keeps in its own memory of what the shared cache holds (issue 28): the last
values by key, bounded by their number and, where the values say their size, by their bytes.

A value kept here is only ever served under the version it was stored with, the version read
from the shared cache for that request (``views.caching.public_page``, ``views.standings_search``):
what a process keeps spares it copying a large stored page out of Redis again, never a check of
its freshness.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

__all__ = ["Kept"]


class Kept:
    """The last ``size`` values by key in this process (least recently used out first), at most
    ``max_bytes`` of them in all when ``put`` is told each value's size; thread-safe.

    >>> kept = Kept(2, max_bytes=10)
    >>> kept.put("a", 1, nbytes=4); kept.put("b", 2, nbytes=4); kept.get("a")
    1
    >>> kept.put("c", 3, nbytes=4)  # over 10 bytes: "b", the least recently used, goes
    >>> kept.get("b") is None, kept.get("a"), kept.get("c")
    (True, 1, 3)
    >>> kept.put("d", 4, nbytes=11)  # larger than the whole budget: not kept
    >>> kept.get("d") is None
    True
    """

    def __init__(self, size: int, *, max_bytes: int | None = None) -> None:
        self._items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size
        self._max_bytes = max_bytes
        self._bytes = 0

    def get(self, key: Any) -> Any:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: Any, value: Any, *, nbytes: int = 0) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if self._max_bytes is not None and nbytes > self._max_bytes:
                return
            self._items[key] = (value, nbytes)
            self._bytes += nbytes
            while len(self._items) > self._size or (
                self._max_bytes is not None and self._bytes > self._max_bytes
            ):
                _key, (_value, gone) = self._items.popitem(last=False)
                self._bytes -= gone

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0
