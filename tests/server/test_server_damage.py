"""One damaged table never keeps the server from starting.

A table whose stored data cannot be replayed is set aside (listed as damaged, in plain words,
its rows untouched, not served for play); a camera that cannot start is a dead camera.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from referee.paths import MODELS
from referee.server.app import create_app
from referee.server.settings import Settings

from .conftest import admin_headers, local_client, scene_card

BODY = {"name": "T", "players": ["Ava", "Ben"], "level": "normal",
        "places": [{"station": "D03"}, {"station": "D04"}]}


def _settings(data: Path) -> Settings:
    return Settings(data_dir=data, demo=True, camera_retry_max_s=0.2)


def _rows(data: Path) -> list[tuple]:
    with sqlite3.connect(data / "referee.sqlite3") as db:
        return db.execute("SELECT table_id, seq, at, kind, CAST(payload AS BLOB) FROM events "
                          "ORDER BY table_id, seq").fetchall()


@contextlib.contextmanager
def _admin_client(data: Path):
    """A client of the box with the admin's key (which opens every table's view)."""
    with local_client(create_app(_settings(data))) as c:
        c.headers.update(admin_headers(data))
        yield c


def _damage(data: Path, sql: str, *args: object) -> None:
    with sqlite3.connect(data / "referee.sqlite3") as db:
        db.execute(sql, args)


def _two_tables(data: Path) -> tuple[str, str]:
    """Two tables with a round each; (the one to damage, the one left whole)."""
    ids = []
    with _admin_client(data) as c:
        for _ in range(2):
            r = c.post("/api/tables", json=BODY).json()
            grid, die = scene_card("D03-02")
            assert c.post(f"/api/tables/{r['id']}/rounds", json={"grid": grid, "die": die},
                          headers={"X-Table-Secret": r["secret"]}).status_code == 200
            ids.append(r["id"])
    return ids[0], ids[1]


@pytest.mark.parametrize("damage", [
    "UPDATE events SET payload = '{\"players\": [' WHERE table_id = ? AND seq = 2",
    # text that is not UTF-8: sqlite3 itself fails to read the row (OperationalError)
    "UPDATE events SET payload = CAST(x'7b22ff22' AS TEXT) WHERE table_id = ? AND seq = 2",
    # readable JSON that does not fit the game (a round without its builders)
    "UPDATE events SET payload = '{\"card_id\": \"N01\"}' WHERE table_id = ? AND seq = 2",
    "UPDATE tables SET config = 'not json' WHERE id = ?",
], ids=["json", "utf8", "game", "config"])
def test_a_damaged_table_is_set_aside_and_the_rest_play_on(tmp_path, damage):
    data = tmp_path / "data"
    bad, good = _two_tables(data)
    _damage(data, damage, bad)
    before = _rows(data)
    with _admin_client(data) as c:  # starts: no traceback, no exit
        listed = {t["id"]: t for t in c.get("/api/tables").json()}
        assert listed[good]["damaged"] is None and listed["demo"]["damaged"] is None
        why = listed[bad]["damaged"]
        assert "set aside" in why and "Traceback" not in why and str(data) not in why
        for path in (f"/api/tables/{bad}", f"/api/tables/{bad}/events",
                     f"/api/tables/{bad}/places/0/preview.jpg"):
            r = c.get(path)
            assert r.status_code == 409, path
            assert r.json()["detail"].startswith(f"table {bad!r} cannot be played: ")
        r = c.post(f"/api/tables/{bad}/end", headers={"X-Table-Secret": "x"})
        assert r.status_code == 409
        from starlette.websockets import WebSocketDisconnect

        with pytest.raises(WebSocketDisconnect) as closed:
            with c.websocket_connect(f"ws://localhost/ws/tables/{bad}") as ws:
                ws.receive_json()
        assert closed.value.code == 4409
        page = c.get(f"/t/{bad}")
        assert page.status_code == 409 and "This table is set aside." in page.text
        assert bad not in c.get("/").text  # the public list: listed tables only
        assert c.get("/healthz").json()["damaged"] == [bad]
        assert c.get(f"/api/tables/{good}").json()["round"]["number"] == 1
        assert c.get("/api/tables/demo").status_code == 200
    assert _rows(data) == before  # the damaged table's data is kept untouched


def test_a_damaged_demo_table_is_not_made_again(tmp_path):
    data = tmp_path / "data"
    with _admin_client(data):
        pass
    _damage(data, "UPDATE events SET payload = '[' WHERE table_id = ?", "demo")
    with _admin_client(data) as c:
        assert c.get("/api/tables/demo").status_code == 409
        assert [t["id"] for t in c.get("/api/tables").json()] == ["demo"]


def test_a_removed_camera_folder_is_a_dead_camera(tmp_path):
    """The folder of a folder camera was removed while the server was off: the server starts,
    the camera is dead on the dashboard, and is live once the folder is back."""
    data = tmp_path / "data"
    folder = data / "folders" / "ava"
    shutil.copytree(MODELS / "demo" / "photos" / "D03", folder)
    body = BODY | {"places": [{"station": "D03",
                               "camera": {"kind": "folder", "path": "folders/ava"}},
                              {"station": "D04"}]}
    with _admin_client(data) as c:
        r = c.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
    shutil.rmtree(folder)
    with _admin_client(data) as c:
        cam = c.get(f"/api/tables/{table_id}").json()["places"][0]["camera"]
        assert cam["state"] == "dead" and cam["code"] == "camera.folder-missing"
        assert cam["detail"] == "photo folder 'folders/ava' does not exist"
        r = c.get(f"/api/tables/{table_id}/places/0/preview.jpg")
        assert r.status_code == 409 and str(data) not in r.json()["detail"]
        shutil.copytree(MODELS / "demo" / "photos" / "D03", folder)
        end = time.monotonic() + 5
        while time.monotonic() < end and c.get(f"/api/tables/{table_id}").json()[
                "places"][0]["camera"]["state"] != "live":
            time.sleep(0.05)
        assert c.get(f"/api/tables/{table_id}/places/0/preview.jpg").status_code == 200


def test_a_stored_camera_folder_outside_the_allowed_places_is_dead(tmp_path):
    """A table stored before folders were restricted, whose camera reads /tmp/...: it opens,
    but that camera is dead and serves nothing."""
    data = tmp_path / "data"
    outside = tmp_path / "outside"
    shutil.copytree(MODELS / "demo" / "photos" / "D03", outside)
    with _admin_client(data) as c:
        table_id = c.post("/api/tables", json=BODY).json()["id"]
    import json

    config = json.loads(sqlite3.connect(data / "referee.sqlite3").execute(
        "SELECT config FROM tables WHERE id = ?", (table_id,)).fetchone()[0])
    config["places"][0]["camera"] = {"kind": "folder", "path": str(outside)}
    _damage(data, "UPDATE tables SET config = ? WHERE id = ?", json.dumps(config), table_id)
    with _admin_client(data) as c:
        cam = c.get(f"/api/tables/{table_id}").json()["places"][0]["camera"]
        assert cam["state"] == "dead" and "may only read" in cam["detail"]
        assert c.get(f"/api/tables/{table_id}/places/0/preview.jpg").status_code == 409
