"""The live feed: a phone says hello with its key (or its view cookie), then gets the view at
once and every change after it."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from .conftest import scene_card

WS = "ws://localhost/ws/tables/"


def test_websocket_pushes_changes_and_catches_up(client, make_table):
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    with client.websocket_connect(WS + table_id) as ws:
        ws.send_json({"type": "hello", "key": secret})
        assert ws.receive_json() == {"type": "welcome", "role": "table", "seat": None}
        first = ws.receive_json()
        assert first["type"] == "view" and first["view"]["round"] is None
        grid, die = scene_card("D04-01")
        seq = client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                          headers=h).json()["seq"]
        pushed = ws.receive_json()["view"]
        assert pushed["seq"] == seq and pushed["round"]["die"]["animal"] == "fish"
        assert secret not in str(pushed)
    # a phone that (re)connects later gets the current view at once; with no key, the view
    # cookie (set when the table was made, as the view link sets it) decides
    client.post(f"/api/tables/{table_id}/end", headers=h)
    with client.websocket_connect(WS + table_id) as ws:
        ws.send_json({"type": "hello", "key": None})
        assert ws.receive_json()["role"] == "view"
        view = ws.receive_json()["view"]
        assert view["seq"] == seq + 1 and view["void"]


def _closed(client, table_id, hello, headers=None) -> int:
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect(WS + table_id, headers=headers or {}) as ws:
            if hello is not None:
                ws.send_json(hello)
            for _ in range(3):
                ws.receive_json()
    return e.value.code


def test_websocket_unknown_table_is_closed(client):
    assert _closed(client, "nope", {"type": "hello", "key": None}) == 4404


def test_websocket_needs_a_key_or_the_view_cookie(client, make_table):
    table_id, secret = make_table()
    assert _closed(client, table_id, {"type": "hello", "key": "x" * 32}) == 4403
    assert _closed(client, table_id, {"type": "hi"}) == 4400
    assert _closed(client, table_id, {"type": "hello", "key": None},
                   headers={"Origin": "http://evil.example"}) == 4403
    client.cookies.clear()
    assert _closed(client, table_id, {"type": "hello", "key": None}) == 4401


def test_websocket_without_hello_is_closed_in_time(client, make_table, settings):
    import time

    table_id, _ = make_table()
    t0 = time.monotonic()
    assert _closed(client, table_id, None) == 4400
    assert time.monotonic() - t0 < settings.ws_hello_s + 3


def test_a_deeply_nested_hello_is_closed_as_a_bad_hello(client, make_table):
    """A break-it trial: a hello 30 000 lists deep (under 64 KB) raised RecursionError in
    the handler, and the socket dropped without a close frame; it is a bad hello (4400)."""
    table_id, _ = make_table()
    deep = '{"type": "hello", "key": ' + "[" * 30000 + "]" * 30000 + "}"
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect(WS + table_id) as ws:
            ws.send_text(deep)
            for _ in range(3):
                ws.receive_json()
    assert e.value.code == 4400


def test_a_seat_phone_is_welcomed_as_its_seat_and_closed_when_its_key_changes(client,
                                                                              make_table):
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    seats = client.get(f"/api/tables/{table_id}/seats", headers=h).json()
    with client.websocket_connect(WS + table_id) as ws:
        ws.send_json({"type": "hello", "key": seats[1]["key"]})
        assert ws.receive_json() == {"type": "welcome", "role": "seat", "seat": 1}
        ws.receive_json()
        client.post(f"/api/tables/{table_id}/seats/1/key", headers=h)  # a new phone for Ben
        with pytest.raises(WebSocketDisconnect) as e:
            for _ in range(5):
                ws.receive_json()
        assert e.value.code == 4403


def test_an_oversize_hello_is_closed_quietly(tmp_path):
    """A hello over `referee serve`'s 64 KB message limit is closed by the server (1009),
    and the feed lets the phone go without a traceback in the log (it tried to close the
    socket again, and the WebSocketDisconnect escaped: "Exception in ASGI application"); a
    phone that leaves before its hello leaves no traceback either."""
    import asyncio
    import json

    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from .conftest import free_port, serve

    port = free_port()
    log = tmp_path / "server.log"
    proc = serve(tmp_path / "data", port, log, "--no-demo")
    try:
        g = httpx.post(f"http://127.0.0.1:{port}/api/games",
                       json={"game": "taki", "players": ["Ava", "Ben"]}).json()
        t = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={
            "players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
        ).json()

        async def phones() -> list[int | None]:
            codes: list[int | None] = []
            for path in (f"/ws/games/{g['id']}", f"/ws/tables/{t['id']}"):
                async with connect(f"ws://127.0.0.1:{port}{path}", max_size=2 ** 20) as ws:
                    await ws.send(json.dumps({"type": "hello", "key": "x" * 100_000}))
                    with pytest.raises(ConnectionClosed):
                        await ws.recv()
                    codes.append(ws.close_code)
                async with connect(f"ws://127.0.0.1:{port}{path}") as ws:
                    pass  # gone before its hello
            return codes

        assert asyncio.run(phones()) == [1009, 1009]
        # the server is still well, and answers the next phone
        assert httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = log.read_text()
    assert "Traceback" not in text and "Exception in ASGI" not in text, text[-3000:]
