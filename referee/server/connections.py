"""What one caller may hold open on the box: uvicorn's HTTP protocol (h11), with two limits
that uvicorn does not have (a break-it trial: 82 idle WebSockets from one address took every
file descriptor, and a request head never finished was held open for good).

- At most `max_per_client` connections from one address (HTTP and WebSockets alike; uvicorn
  keeps every protocol object of the server in one set): one more is closed at once.
- A caller that owes the request's head or body and sends nothing for `stall_s` seconds is
  cut off (a phone mid-upload keeps sending; a fresh connection that sends nothing is
  treated so too); so is a head not whole `stall_s` after it began (a head is a few hundred
  bytes: one byte every 10 s held one open for days, a re-trial found), and a body that
  arrives slower than `MIN_BODY_BYTES_PER_S` once `stall_s` has passed. A request whose
  answer is being worked out, or a WebSocket, is never cut.

`referee serve` sets both from its settings (`REFEREE_MAX_CONNECTIONS_PER_CLIENT`,
`REFEREE_STALL_S`) and runs uvicorn with `http=GuardedH11Protocol`.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

MIN_BODY_BYTES_PER_S = 2048  # a phone's slowest upload is far faster (15 MB in 2 hours)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a per-address connection limit and a stall timeout."""

    max_per_client: int = 48
    stall_s: float = 20.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._last_rx = self._head_from = self.loop.time()
        self._body_from: float | None = None
        self._body_bytes = 0
        self._watch: asyncio.TimerHandle | None = None
        ip = self.client[0] if self.client else None
        if ip is not None and sum(1 for p in self.connections
                                  if (getattr(p, "client", None) or (None,))[0] == ip) \
                > self.max_per_client:
            transport.close()  # connection_lost takes it out of the set
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        self._last_rx = self.loop.time()
        before = self.conn.their_state
        if before is h11.SEND_BODY:
            self._body_bytes += len(data)
        super().data_received(data)
        if before is h11.IDLE and self.conn.their_state is h11.SEND_BODY:  # a head, whole
            self._body_from, self._body_bytes = self._last_rx, 0

    def on_response_complete(self) -> None:
        self._head_from, self._body_from = self.loop.time(), None  # the next request's head
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if getattr(self, "_watch", None) is not None:
            self._watch.cancel()  # type: ignore[union-attr]
            self._watch = None
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._watch = self.loop.call_later(max(0.2, self.stall_s / 4), self._check)

    def _owes_data(self) -> bool:
        """Whether the caller owes the request's head or body: nothing of a request is
        being answered (an answer in the making is the server's time, not the caller's)."""
        theirs = self.conn.their_state
        if theirs is h11.SEND_BODY:
            return True
        return theirs is h11.IDLE and (self.cycle is None or self.cycle.response_complete)

    def _check(self) -> None:
        self._watch = None
        if self.transport.is_closing():
            return
        if self.transport.get_protocol() is not self:  # upgraded to a WebSocket
            return
        if self._owes_data() and self._too_slow(self.loop.time()):
            self.transport.close()
            return
        self._arm()

    def _too_slow(self, now: float) -> bool:
        """Whether the caller, who owes data, is too slow: silent for `stall_s`, a head not
        whole `stall_s` after it began, or a body under `MIN_BODY_BYTES_PER_S`."""
        if now - self._last_rx >= self.stall_s:
            return True
        if self.conn.their_state is h11.IDLE:
            return now - self._head_from >= self.stall_s
        if self._body_from is None:
            return False
        taken = now - self._body_from
        return taken >= self.stall_s and self._body_bytes < MIN_BODY_BYTES_PER_S * taken


def configure(max_per_client: int, stall_s: float) -> type[Any]:
    """The protocol class with the box's limits set (a class attribute each: uvicorn makes
    one protocol object per connection from the class it is given)."""
    GuardedH11Protocol.max_per_client = max_per_client
    GuardedH11Protocol.stall_s = stall_s
    return GuardedH11Protocol
