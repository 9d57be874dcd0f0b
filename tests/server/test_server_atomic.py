"""One command, one transaction (issue 14 item 4): a crash while a table is made leaves the
whole table or nothing; the demo table never ends up with a secret nobody has; a photo's
rename is synced in its folder.

A crash is a real one: a child process dies (os._exit) in the middle of the creation, at a
chosen SQL statement, and the next start opens what it left.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.server.app import create_app
from referee.server.settings import Settings

from .conftest import admin_headers, local_client, scene_card, scene_photo

CRASH = textwrap.dedent('''
    import os, sys
    from pathlib import Path

    import referee.server.tables as tables
    from referee.server.live import LiveHub
    from referee.server.schemas import TableCreate
    from referee.server.settings import Settings

    data, point, demo = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "demo"

    class Dying:
        """The connection, until the statement that starts with `point`: then the process
        dies there, in the middle of its transaction."""
        def __init__(self, db):
            self._db = db
        def execute(self, sql, *args):
            if sql.startswith(point):
                os._exit(17)
            return self._db.execute(sql, *args)
        def __getattr__(self, name):
            return getattr(self._db, name)

    class Store(tables.EventStore):
        def __init__(self, path):
            super().__init__(path)
            if demo:  # the demo table is made while the server opens
                self._db = Dying(self._db)

    tables.EventStore = Store
    service = tables.TableService(Settings(data_dir=data, demo=demo), LiveHub())
    service.open()
    service.store._db = Dying(service.store._db)
    service.create(TableCreate(players=["Ava", "Ben"],
                               places=[{"station": "D03"}, {"station": "D04"}]))
    os._exit(0)  # not reached when the crash point is in the creation
''')

POINTS = ["INSERT INTO tables", "INSERT INTO events", "COMMIT"]


def _crash(data: Path, point: str, demo: bool) -> None:
    r = subprocess.run([sys.executable, "-c", CRASH, str(data), point,
                        "demo" if demo else "plain"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 17, r.stderr[-2000:]


def _rows(data: Path) -> tuple[int, int]:
    with sqlite3.connect(data / "referee.sqlite3") as db:
        return (db.execute("SELECT COUNT(*) FROM tables").fetchone()[0],
                db.execute("SELECT COUNT(*) FROM events").fetchone()[0])


@pytest.mark.parametrize("point", POINTS)
def test_a_crash_while_a_table_is_made_leaves_nothing(tmp_path, point):
    data = tmp_path / "data"
    _crash(data, point, demo=False)
    assert _rows(data) == (0, 0)
    with local_client(create_app(Settings(data_dir=data, demo=False))) as c:
        assert c.get("/api/tables").json() == []
        assert c.get("/healthz").json()["damaged"] == 0


@pytest.mark.parametrize("point", POINTS)
def test_a_crash_while_the_demo_is_made_leaves_a_demo_someone_controls(tmp_path, point):
    data = tmp_path / "data"
    _crash(data, point, demo=True)
    assert _rows(data) == (0, 0)
    # the secret file was written first; the next start makes the demo and a new secret
    assert (data / "demo-secret.txt").read_text().strip()
    with local_client(create_app(Settings(data_dir=data, demo=True))) as c:
        _demo_is_controlled(c, data)


def _demo_is_controlled(c: TestClient, data: Path) -> str:
    secret = (data / "demo-secret.txt").read_text().strip()
    assert stat.S_IMODE((data / "demo-secret.txt").stat().st_mode) == 0o600
    r = c.post("/api/tables/demo/rounds/demo", headers={"X-Table-Secret": secret})
    assert r.status_code == 200, r.text
    return secret


def test_a_row_left_by_an_old_crash_is_removed_and_the_demo_made_again(tmp_path):
    """Before creations were one transaction, a crash could leave a row without its
    game_started (nobody was given its secret): such rows go; the demo is made anew."""
    data = tmp_path / "data"
    with local_client(create_app(Settings(data_dir=data, demo=True))) as c:
        kept = c.post("/api/tables", json={"players": ["Ava", "Ben"], "places": [
            {"station": "D03"}, {"station": "D04"}]}).json()["id"]
    with sqlite3.connect(data / "referee.sqlite3") as db:
        db.execute("DELETE FROM events WHERE table_id = 'demo'")
        config = db.execute("SELECT config FROM tables WHERE id = ?", (kept,)).fetchone()[0]
        db.execute("INSERT INTO tables VALUES ('half', 0, ?, 'x')", (config,))
    with local_client(create_app(Settings(data_dir=data, demo=True))) as c:
        listed = {t["id"]: t["damaged"]
                  for t in c.get("/api/tables", headers=admin_headers(data)).json()}
        assert listed == {kept: None, "demo": None}
        _demo_is_controlled(c, data)
    assert _rows(data)[0] == 2


@pytest.mark.parametrize("loss", ["removed", "emptied", "another secret"])
def test_a_lost_demo_secret_file_is_made_again(tmp_path, loss):
    data = tmp_path / "data"
    with local_client(create_app(Settings(data_dir=data, demo=True))) as c:
        old = _demo_is_controlled(c, data)
        seq = c.get("/api/tables/demo", headers={"X-Table-Secret": old}).json()["seq"]
    path = data / "demo-secret.txt"
    if loss == "removed":
        path.unlink()
    else:
        path.write_text("" if loss == "emptied" else "not-the-secret\n")
    with local_client(create_app(Settings(data_dir=data, demo=True))) as c:
        new = (data / "demo-secret.txt").read_text().strip()
        seen = c.get("/api/tables/demo", headers={"X-Table-Secret": new}).json()
        assert seen["seq"] == seq  # the same demo table, kept
        assert new != old
        assert stat.S_IMODE((data / "demo-secret.txt").stat().st_mode) == 0o600
        r = c.post("/api/tables/demo/end", headers={"X-Table-Secret": old})
        assert r.status_code == 403
        r = c.post("/api/tables/demo/end", headers={"X-Table-Secret": new})  # its round
        assert r.status_code == 200, r.text
    with local_client(create_app(Settings(data_dir=data, demo=True))) as c:
        # a file that matches is kept as it is, and still opens the controls (the round was
        # just ended, so ending it again is the rules' 409, past the secret's check)
        assert (data / "demo-secret.txt").read_text().strip() == new
        r = c.post("/api/tables/demo/end", headers={"X-Table-Secret": new})
        assert r.status_code == 409 and r.json()["error"] == "IllegalCommandError"


def test_a_photo_is_synced_after_its_rename(client, make_table, settings, monkeypatch):
    """The photo file is synced, renamed into place, and then its folder is synced, so the
    name survives a power cut (the event that names it is stored after)."""
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    grid, die = scene_card("D03-02")
    assert client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                       headers=h).status_code == 200
    log: list[tuple[str, object]] = []
    real_fsync, real_replace = os.fsync, Path.replace

    def fsync(fd: int) -> None:
        st = os.fstat(fd)
        log.append(("fsync-dir" if stat.S_ISDIR(st.st_mode) else "fsync-file", st.st_ino))
        real_fsync(fd)

    def replace(self: Path, target):
        log.append(("rename", Path(target).name))
        return real_replace(self, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(Path, "replace", replace)
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("a.jpg", scene_photo("D03-02"), "image/jpeg")})
    assert r.status_code == 200, r.text
    folder = settings.photos_dir / table_id
    (photo,) = [p for p in folder.iterdir() if p.suffix == ".jpg"]
    i = log.index(("rename", photo.name))
    assert log[i - 1] == ("fsync-file", photo.stat().st_ino)
    assert ("fsync-dir", folder.stat().st_ino) in log[i + 1:]
    # the new folder itself was made durable in photos/
    assert ("fsync-dir", settings.photos_dir.stat().st_ino) in log[:i]
