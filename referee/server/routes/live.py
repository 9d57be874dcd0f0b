"""The live feed: a WebSocket per phone that receives the table's whole view on every change.

The phone first says hello: `{"type": "hello", "key": KEY or null}` (a table, seat or admin
key; null: the table's view cookie decides), never a key in the URL. A socket that has not
said hello within the hello limit (5 s) is closed, as is one whose `Origin` is not the box it
talks to (another site's page in the same browser). The answer is `{"type": "welcome",
"role": "table" | "seat" | "admin" | "view", "seat": N or null}`, then the current view at
once, so a phone that reconnects catches up; camera states (dead, retrying) are re-checked
every second and sent when they change. A seat whose key changes (it changed hands) is closed.

Close codes: 4400 no hello, 4401 no key and no view link, 4403 a wrong key; a wrong origin
(4403), no such table (4404) or a table set aside (4409) is refused before the socket opens,
which a browser sees as HTTP 403.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from referee.errors import RefereeError
from referee.server.errors import (
    DamagedTableError,
    MissingSecretError,
    UnknownTableError,
)
from referee.server.keys import Access, Credentials
from referee.server.routes.deps import KEY_MAX, view_cookie

router = APIRouter(tags=["live"])


def same_origin(ws: WebSocket) -> bool:
    """Whether the socket's Origin (when a browser sends one) is the host it talks to."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser (a script, a test): keys still decide
    host = ws.headers.get("host", "")
    try:
        return urlsplit(origin).netloc.lower() == host.lower() and bool(host)
    except ValueError:
        return False


GONE = object()  # the phone left during the hello (or sent one over the size limit)


async def _hello(ws: WebSocket, timeout_s: float) -> str | None | bool | object:
    """The key of the phone's hello (None: no key), False: no hello in time, or not one,
    or GONE: the socket closed meanwhile (the phone left, or the server closed it with 1009
    for a message over its size limit); nothing more can be sent to it."""
    try:
        text = await asyncio.wait_for(ws.receive_text(), timeout_s)
    except WebSocketDisconnect:
        return GONE
    except (TimeoutError, KeyError, RuntimeError):
        return False
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):  # a hello 30 000 lists deep (a break-it trial:
        return False  # the handler died with a traceback in the log, no close frame)
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        return False
    key = msg.get("key")
    if key is None:
        return None
    return key[:KEY_MAX] if isinstance(key, str) else False


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    """Close the socket; one whose phone has left already is left as it is, quietly."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await ws.close(code=code, reason=reason)


def key_access(access: Callable[[str, Credentials], Access], table_id: str,
               key: str | None, cookie: str | None) -> Access:
    """What a hello's key (tried as a table, seat and admin key) or the view cookie opens."""
    if key:
        return access(table_id, Credentials(admin=key, table=key, seat=key))
    return access(table_id, Credentials(view=cookie))


async def serve_feed(ws: WebSocket, table_id: str, get: Callable[[str], Any],
                     access: Callable[[str, Credentials], Access],
                     render: Callable[[Access], dict[str, Any]], every_s: float) -> None:
    """One phone's live feed of one table (Tuki's or a card game's): the origin, the table,
    the hello and its key checked; then `render(who)` sent at once, after every change the
    hub announces, and at least every `every_s` seconds when it changed; closed when the
    key opens the table no more (a seat that changed hands, a deleted table)."""
    hub = ws.app.state.hub
    if not same_origin(ws):
        await ws.close(code=4403, reason="this page is not the box's")
        return
    try:
        get(table_id[:40])
    except DamagedTableError:
        await ws.close(code=4409, reason="this table is set aside")
        return
    except UnknownTableError:
        await ws.close(code=4404, reason="no such table")
        return
    await ws.accept()
    hello = await _hello(ws, ws.app.state.settings.ws_hello_s)
    if hello is GONE:
        return
    if hello is False:
        await _close(ws, 4400, "say hello first")
        return
    key = hello if isinstance(hello, str) else None
    cookie = ws.cookies.get(view_cookie(table_id))
    try:
        who = key_access(access, table_id, key, cookie)
    except MissingSecretError:
        await _close(ws, 4401, "open the table's link")
        return
    except RefereeError:
        await _close(ws, 4403, "this key does not open the table")
        return
    try:
        await ws.send_text(json.dumps({"type": "welcome", "role": who.role, "seat": who.seat}))
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the phone left before its welcome
    queue = hub.subscribe(table_id)
    reader = asyncio.create_task(_drain(ws))  # notices the phone leaving
    last = ""
    try:
        while not reader.done():
            try:
                now: Access | None = key_access(access, table_id, key, cookie)
            except RefereeError:
                now = None
            if now != who:
                await _close(ws, 4403, "this link opens the table no more")
                return
            text = json.dumps(render(who))
            if text != last:
                await ws.send_text(text)
                last = text
            waiter = asyncio.create_task(queue.get())
            await asyncio.wait({waiter, reader}, timeout=every_s,
                               return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        hub.unsubscribe(table_id, queue)


@router.websocket("/ws/tables/{table_id}")
async def table_feed(ws: WebSocket, table_id: str) -> None:
    """A Tuki table's feed: the whole view; camera states are looked at every second."""
    service = ws.app.state.service
    await serve_feed(ws, table_id, service.get, service.access,
                     lambda who: {"type": "view", "view": service.view(table_id)}, 1.0)


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) what the phone sends, until it disconnects."""
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return
