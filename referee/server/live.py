"""Live fan-out: each phone's WebSocket gets a wake-up when its table changes.

Publishers may run in worker threads (judging a photo), so `publish` hands the wake-up to the
event loop thread-safely. Messages carry only the table's new event number; the socket handler
then sends the table's whole view, so a phone that reconnects catches up by construction.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict


class LiveHub:
    """Subscribers per table: one asyncio.Queue each, holding event numbers."""

    def __init__(self) -> None:
        self._subs: dict[str, set[asyncio.Queue[int]]] = defaultdict(set)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the server's event loop (called at start-up)."""
        self._loop = loop

    def subscribe(self, table_id: str) -> asyncio.Queue[int]:
        q: asyncio.Queue[int] = asyncio.Queue(maxsize=64)
        with self._lock:
            self._subs[table_id].add(q)
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return q

    def unsubscribe(self, table_id: str, q: asyncio.Queue[int]) -> None:
        with self._lock:
            self._subs[table_id].discard(q)

    def count(self, table_id: str) -> int:
        with self._lock:
            return len(self._subs[table_id])

    def publish(self, table_id: str, seq: int) -> None:
        """Wake every subscriber of the table; safe from any thread; never blocks."""
        with self._lock:
            queues = list(self._subs[table_id])
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        for q in queues:
            loop.call_soon_threadsafe(_offer, q, seq)


def _offer(q: asyncio.Queue[int], seq: int) -> None:
    if q.full():  # a slow phone: it only needs the newest number
        try:
            q.get_nowait()
        except asyncio.QueueEmpty:
            pass
    q.put_nowait(seq)
