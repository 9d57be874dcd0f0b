"""A crash mid-round loses nothing: kill -9 the server, start a new one on the same data."""

from __future__ import annotations

import os
import signal
import time

import httpx

from .conftest import free_port, scene_card, scene_photo, serve


def _wait(c: httpx.Client, table_id: str, pred, timeout_s: float = 20) -> dict:
    end = time.monotonic() + timeout_s
    while True:
        v = c.get(f"/api/tables/{table_id}").json()
        if pred(v) or time.monotonic() > end:
            return v
        time.sleep(0.05)


def test_kill_mid_round_and_continue(tmp_path):
    data, port, log = tmp_path / "data", free_port(), tmp_path / "server.log"
    proc = serve(data, port, log, "--no-demo")
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as c:
            body = {"name": "R", "players": ["Ava", "Ben", "Cy"], "level": "normal",
                    "places": [{"station": s} for s in ("D03", "D04", "D03")]}
            created = c.post("/api/tables", json=body).json()
            table_id, h = created["id"], {"X-Table-Secret": created["secret"]}
            c.headers.update(h)  # the table's key also opens its view
            grid, die = scene_card("D03-02")
            assert c.post(f"/api/tables/{table_id}/rounds", headers=h,
                          json={"grid": grid, "die": die}).status_code == 200
            r = c.post(f"/api/tables/{table_id}/done/0", headers=h,
                       files={"photo": ("a.jpg", scene_photo("D03-02"), "image/jpeg")})
            assert r.status_code == 200
            before = c.get(f"/api/tables/{table_id}").json()
        os.kill(proc.pid, signal.SIGKILL)  # a power cut: no shutdown at all
        proc.wait()

        proc = serve(data, port, log, "--no-demo")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30, headers=h) as c:
            after = c.get(f"/api/tables/{table_id}").json()
            assert after["round"]["card"] == before["round"]["card"]
            assert after["round"]["target"] == before["round"]["target"]
            assert [b["status"] for b in after["round"]["builders"]] == [
                "done", "building", "building"]
            assert after["round"]["done_order"] == [0]
            # Ava's frozen photo was judged, before or after the crash
            v = _wait(c, table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
            assert v["round"]["builders"][0]["verdict"]["verdict"] in ("correct", "wrong",
                                                                       "unsure")
            # the game goes on: Ben's done ends the round, Cy finished last
            r = c.post(f"/api/tables/{table_id}/done/1", headers=h,
                       files={"photo": ("b.jpg", scene_photo("D04-06"), "image/jpeg")})
            assert r.status_code == 200, r.text
            r = c.post(f"/api/tables/{table_id}/done/2", headers=h,
                       files={"photo": ("c.jpg", scene_photo("D03-05"), "image/jpeg")})
            assert r.status_code == 200, r.text
            v = _wait(c, table_id, lambda v: all(b["verdict"] for b in v["round"]["builders"]))
            assert [b["status"] for b in v["round"]["builders"]] == ["done", "done", "stopped"]
            assert all(b["verdict"] for b in v["round"]["builders"])
            kinds = [e["kind"] for e in c.get(f"/api/tables/{table_id}/events").json()]
            assert kinds.count("server:photo") == 3 and "round_closed" in kinds
    finally:
        proc.terminate()
        proc.wait(timeout=10)
