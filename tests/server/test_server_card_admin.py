"""The box's admin and the card tables: listing every one, archiving, deleting (the same
admin key and the same rules as for the Tuki tables)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from referee.server.app import create_app
from referee.server.settings import Settings

from .conftest import admin_headers, claim_seats, local_client


def make(c: TestClient, game: str = "taki", players=("Ava", "Ben"), **extra) -> dict:
    r = c.post("/api/games", json={"game": game, "players": list(players), **extra})
    assert r.status_code == 201, r.text
    return claim_seats(c, r.json())


def seat(g: dict, i: int) -> dict[str, str]:
    return {"X-Seat-Key": g["seats"][i]["key"]}


def test_only_the_admin_key_lists_archives_and_deletes(c: TestClient, csettings) -> None:
    g = make(c)
    url = f"/api/games/{g['id']}"
    for headers in ({}, {"X-Table-Secret": g["secret"]}, seat(g, 0),
                    {"X-Admin-Key": "x" * 32}):
        assert c.post(f"{url}/archive", headers=headers).status_code in (401, 403), headers
        assert c.delete(url, headers=headers).status_code in (401, 403), headers
    assert c.get("/api/games", headers={"X-Admin-Key": "x" * 32}).status_code == 403
    # a seat's or the table's key in the admin's header opens nothing either
    assert c.get("/api/games", headers={"X-Admin-Key": g["secret"]}).status_code == 403
    assert c.get(url).json()["archived"] is False  # untouched by all of that
    # without a key: only the listed tables; with the admin's: every one
    listed = make(c, "tukki", name="Kitchen", listed=True)
    public = {t["id"] for t in c.get("/api/games").json()}
    assert public == {listed["id"]}
    admin = admin_headers(csettings.data_dir)
    every = {t["id"]: t for t in c.get("/api/games", headers=admin).json()}
    assert set(every) == {g["id"], listed["id"]}
    assert every[g["id"]]["view_path"] == g["view"] and not every[g["id"]]["archived"]


def test_an_archived_table_is_read_not_played(c: TestClient, csettings) -> None:
    g = make(c, name="Friday", listed=True)
    url = f"/api/games/{g['id']}"
    admin = admin_headers(csettings.data_dir)
    me = c.get(f"{url}/seats/0", headers=seat(g, 0)).json()
    with c.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "key": g["seats"][1]["key"]}))
        assert ws.receive_json()["role"] == "seat"
        assert ws.receive_json()["view"]["archived"] is False
        r = c.post(f"{url}/archive", headers=admin)
        assert r.status_code == 200
        assert ws.receive_json()["view"]["archived"] is True  # the phones see it at once
    assert c.post(f"{url}/archive", headers=admin).json() == r.json()  # idempotent
    # read: the view, a seat's own view
    assert c.get(url).json()["archived"] is True
    mine = c.get(f"{url}/seats/0", headers=seat(g, 0))
    assert mine.status_code == 200
    # no one is to play (a break-it trial: the seat whose turn it was still had its moves
    # offered, each tap refused)
    assert mine.json()["legal"] == [] and mine.json()["current_player"] is None
    assert c.get(url).json()["current_player"] is None
    # never played again: no move, no rematch, no bot, no end
    r = c.post(f"{url}/seats/0/act", headers=seat(g, 0), json={"action": me["legal"][0]})
    assert r.status_code == 409 and "archived" in r.json()["detail"]
    assert r.json()["code"] == "table.archived"  # said in the phone's language
    owner = {"X-Table-Secret": g["secret"]}
    assert c.post(f"{url}/rematch", headers=owner).status_code == 409
    assert c.post(f"{url}/seats/1/bot", headers=owner, json={"bot": "easy"}).status_code == 409
    assert c.post(f"{url}/end", headers=owner).status_code == 409
    # gone from the public list, still in the admin's (archived)
    assert g["id"] not in {t["id"] for t in c.get("/api/games").json()}
    mine = {t["id"]: t for t in c.get("/api/games", headers=admin).json()}
    assert mine[g["id"]]["archived"] is True
    # kept at a restart
    with local_client(create_app(csettings)) as again:
        token = g["view"].split("?v=")[1]  # a new phone: no view cookie yet
        assert again.get(url, params={"v": token}).json()["archived"] is True
        assert again.post(f"{url}/seats/0/act", headers=seat(g, 0),
                          json={"action": me["legal"][0]}).status_code == 409


def test_an_archived_table_no_longer_counts_against_the_limits(tmp_path) -> None:
    settings = Settings(data_dir=tmp_path / "data", demo=False, max_tables=2)
    with local_client(create_app(settings)) as c:
        first = make(c)
        make(c)
        assert c.post("/api/games", json={"game": "taki", "players": ["A", "B"]}
                      ).status_code == 429
        admin = admin_headers(settings.data_dir)
        assert c.post(f"/api/games/{first['id']}/archive", headers=admin).status_code == 200
        make(c)


def test_a_deleted_table_opens_for_no_key(c: TestClient, csettings) -> None:
    g = make(c, players=("Ava", "Ben", None))  # an open seat: a room code
    keep = make(c, "tokaido")
    url = f"/api/games/{g['id']}"
    admin = admin_headers(csettings.data_dir)
    with c.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "key": g["seats"][0]["key"]}))
        assert ws.receive_json()["role"] == "seat"
        ws.receive_json()
        assert c.delete(url, headers=admin).status_code == 204
        with pytest.raises(WebSocketDisconnect):  # the live socket is closed
            ws.receive_json()
    # no key opens anything of it any more
    token = g["view"].split("?v=")[1]
    assert c.get(f"{url}/seats/0", headers=seat(g, 0)).status_code == 404
    assert c.post(f"{url}/seats/0/act", headers=seat(g, 0),
                  json={"action": "draw"}).status_code == 404
    assert c.get(url, params={"v": token}).status_code == 404
    assert c.get(f"{url}/seats", headers={"X-Table-Secret": g["secret"]}).status_code == 404
    assert c.get(g["view"]).status_code == 404  # the page
    assert c.post("/api/games/join", json={"code": g["code"], "name": "Cy"}).status_code == 404
    with pytest.raises(WebSocketDisconnect) as e:
        with c.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
            ws.receive_json()
    assert e.value.code == 4404
    assert c.delete(url, headers=admin).status_code == 404  # once only
    # gone from the lists; the other table is untouched
    assert [t["id"] for t in c.get("/api/games", headers=admin).json()] == [keep["id"]]
    assert c.get(f"/api/games/{keep['id']}/seats/0", headers=seat(keep, 0)).status_code == 200
    # and gone from the store: not back at a restart
    with local_client(create_app(csettings)) as again:
        assert again.get(f"{url}/seats/0", headers=seat(g, 0)).status_code == 404
        assert [t["id"] for t in again.get("/api/games", headers=admin).json()] == [keep["id"]]


def test_health_counts_the_card_tables(csettings) -> None:
    """/healthz counts both kinds of table: a card table in play, and one set aside as
    damaged at start (with the admin key: its id); `card_tables` is the card games' share."""
    with local_client(create_app(csettings)) as c:
        assert c.get("/healthz").json()["tables"] == 0
        ok = make(c, players=["Ava", "Ben"])
        bad = make(c, players=["Cy", "Dee"])
        h = c.get("/healthz").json()
        assert (h["tables"], h["card_tables"], h["damaged"]) == (2, 2, 0)
        store = c.app.state.cards.store
        store.append_many(bad["id"], [("action", {"seat": 0, "action": "no such move"})],
                          expect_seq=c.app.state.cards.get(bad["id"]).seq + 1)
    with local_client(create_app(csettings)) as c:  # the box restarts
        h = c.get("/healthz").json()
        assert (h["tables"], h["card_tables"], h["damaged"]) == (1, 1, 1)
        h = c.get("/healthz", headers=admin_headers(csettings.data_dir)).json()
        assert h["damaged"] == [bad["id"]] and h["tables"] == 1
        assert ok["id"] not in h["damaged"]
