"""The live feed: a WebSocket per phone that receives the table's whole view on every change.

On connect the phone gets the current view at once, so a phone that reconnects catches up.
Camera states (dead, retrying) are re-checked every second and sent when they change.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from referee.server.errors import UnknownTableError

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
    await ws.accept()
    queue = hub.subscribe(table_id)
    last = ""
    try:
        while True:
            view = service.view(table_id)
            text = json.dumps({"type": "view", "view": view})
            if text != last:
                await ws.send_text(text)
                last = text
            try:
                await asyncio.wait_for(queue.get(), timeout=1.0)
            except TimeoutError:
                pass
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.unsubscribe(table_id, queue)
