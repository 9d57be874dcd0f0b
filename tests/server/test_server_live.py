"""The live feed: a phone gets the view at once and every change after it."""

from __future__ import annotations

from .conftest import scene_card


def test_websocket_pushes_changes_and_catches_up(client, make_table):
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        first = ws.receive_json()
        assert first["type"] == "view" and first["view"]["round"] is None
        grid, die = scene_card("D04-01")
        seq = client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                          headers=h).json()["seq"]
        pushed = ws.receive_json()["view"]
        assert pushed["seq"] == seq and pushed["round"]["die"]["animal"] == "fish"
        assert secret not in str(pushed)
    # a phone that (re)connects later gets the current view at once
    client.post(f"/api/tables/{table_id}/end", headers=h)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        view = ws.receive_json()["view"]
        assert view["seq"] == seq + 1 and view["void"]


def test_websocket_unknown_table_is_closed(client):
    import pytest
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect("/ws/tables/nope") as ws:
            ws.receive_json()
    assert e.value.code == 4404
