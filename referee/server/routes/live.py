"""The live feed: a WebSocket per phone that receives the table's whole view on every change.

On connect the phone gets the current view at once, so a phone that reconnects catches up.
Camera states (dead, retrying) are re-checked every second and sent when they change.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from referee.server.errors import DamagedTableError, UnknownTableError

router = APIRouter(tags=["live"])


@router.websocket("/ws/tables/{table_id}")
async def table_feed(ws: WebSocket, table_id: str) -> None:
    service = ws.app.state.service
    hub = ws.app.state.hub
    try:
        service.get(table_id)
    except UnknownTableError:
        await ws.close(code=4404, reason="no such table")
        return
    except DamagedTableError:
        await ws.close(code=4409, reason="this table is set aside")
        return
    await ws.accept()
    queue = hub.subscribe(table_id)
    reader = asyncio.create_task(_drain(ws))  # notices the phone leaving
    last = ""
    try:
        while not reader.done():
            view = service.view(table_id)
            text = json.dumps({"type": "view", "view": view})
            if text != last:
                await ws.send_text(text)
                last = text
            waiter = asyncio.create_task(queue.get())
            await asyncio.wait({waiter, reader}, timeout=1.0,
                               return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        hub.unsubscribe(table_id, queue)


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) what the phone sends, until it disconnects."""
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return
