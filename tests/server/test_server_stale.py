"""Stale frames (issue 10 item 4): a camera that sends one frame and stalls shows "stalled" and
reconnects; a "done" is judged on the first frame captured after it, or, when none comes within
the stale limit, is kept in its time order and the place asks for a photo (`camera:stale`).

The stalled stream is shared/tuki/cases/stalled-stream/stall_mjpeg.py (copied to fixtures/),
on a loopback port.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from referee.server.app import create_app
from referee.server.camera_streams import CaptureSource, ThreadedSource
from referee.server.settings import Settings

from .conftest import SCENES, free_port, local_client, scene_card, scene_photo

STALL = Path(__file__).parent / "fixtures" / "stall_mjpeg.py"


def _until(pred, timeout_s: float, step_s: float = 0.02):
    end = time.monotonic() + timeout_s
    while True:
        got = pred()
        if got or time.monotonic() > end:
            return got
        time.sleep(step_s)


class Stream:
    """The stalling MJPEG server in a subprocess: its URL, and how often it sent its frame."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = tmp / "stall.log"
        self.proc = subprocess.Popen(
            [sys.executable, str(STALL), str(self.port), str(SCENES / "D03-02" / "image.jpg")],
            stdout=open(self.log, "wb"), stderr=subprocess.STDOUT)
        assert _until(self._listening, 10.0), "the stalling stream did not start"

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def frames_sent(self) -> int:
        return self.log.read_text().count("sent one frame")

    def pause(self) -> None:
        """The phone's app is paused: nothing more comes, not even to a new connection."""
        os.kill(self.proc.pid, signal.SIGSTOP)

    def close(self) -> None:
        os.kill(self.proc.pid, signal.SIGCONT)
        self.proc.kill()
        self.proc.wait(timeout=10)


@pytest.fixture
def stream(tmp_path: Path) -> Iterator[Stream]:
    s = Stream(tmp_path)
    try:
        yield s
    finally:
        s.close()


def test_a_stalled_stream_shows_stalled_hands_out_no_old_frame_and_reconnects(stream):
    src = CaptureSource(stream.url, stale_s=0.3, retry_max_s=1.0)
    src.start()
    try:
        first = _until(src.latest, 15.0)
        assert first is not None and first.image_bgr.shape == (600, 800, 3)
        assert _until(lambda: src.status().state == "stalled", 5.0), src.status()
        stalled_at = time.time()
        # "stalled" within about the limit, not after tens of seconds
        assert stalled_at - first.taken_at < 2.0
        assert src.latest() is None  # the old frame is not handed out as today's
        assert "no new picture" in src.status().detail
        # it opens the stream again, and the next frame is one captured after the stall
        again = src.frame_after(stalled_at, 10.0)
        assert again is not None and again.taken_at > stalled_at
        assert stream.frames_sent() >= 2
    finally:
        src.stop()


def _settings(tmp: Path, stale_s: float) -> Settings:
    return Settings(data_dir=tmp / "data", demo=False, camera_stale_s=stale_s)


def _table(c: TestClient, camera: dict) -> tuple[str, dict[str, str]]:
    admin = {"X-Admin-Key": c.app.state.service.admin_key}  # a camera of the box
    r = c.post("/api/tables", json={"players": ["Ava", "Ben"], "places": [
        {"station": "D03", "camera": camera}, {"station": "D04"}]}, headers=admin)
    assert r.status_code == 201, r.text
    c.headers.update({"X-Table-Secret": r.json()["secret"]})
    return r.json()["id"], {"X-Table-Secret": r.json()["secret"]}


def _view(c: TestClient, table_id: str) -> dict:
    return c.get(f"/api/tables/{table_id}").json()


def _start(c: TestClient, table_id: str, h: dict[str, str]) -> None:
    grid, die = scene_card("D03-02")
    r = c.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    assert r.status_code == 200, r.text


def test_done_at_a_stalled_camera_is_kept_and_asks_for_a_photo(tmp_path, stream):
    with local_client(create_app(_settings(tmp_path, 0.4))) as c:
        table_id, h = _table(c, {"kind": "capture", "device": stream.url})
        cam = lambda: _view(c, table_id)["places"][0]["camera"]  # noqa: E731
        assert _until(lambda: cam()["state"] == "live", 15.0), cam()
        live_at = time.time()
        stream.pause()
        assert _until(lambda: cam()["state"] == "stalled", 5.0), cam()
        assert time.time() - live_at < 3.0
        # the dashboard says so, in the table's language and the others
        for lang, words in (("en", "camera stalled"), ("fa", "دوربین ایستاده"),
                            ("he", "המצלמה נתקעה"), ("ar", "الكاميرا متوقفة")):
            page = c.get(f"/t/{table_id}?lang={lang}").text
            assert words in page  # the page's messages, which the dashboard script shows
        _start(c, table_id, h)
        pressed = time.time()
        r = c.post(f"/api/tables/{table_id}/done/0", headers=h)
        assert r.status_code == 200, r.text
        rnd = _view(c, table_id)["round"]
        assert rnd["done_order"] == [0]  # stored at once, in its time order
        view = _until(lambda: (v := _view(c, table_id))["round"]["builders"][0]["reason"]
                      and v, 5.0)
        assert view, _view(c, table_id)
        ava = view["round"]["builders"][0]
        assert (ava["state"], ava["reason"], ava["photo"]) == ("waiting", "camera:stale", None)
        events = c.get(f"/api/tables/{table_id}/events").json()
        note = [e for e in events if e["kind"] == "server:no_photo"]
        assert len(note) == 1 and note[0]["at"] >= pressed + 0.4 - 0.05
        assert not [e for e in events if e["kind"] == "server:photo"]  # the old frame: never
        r = c.post(f"/api/tables/{table_id}/done/0", headers=h,
                   files={"photo": ("a.jpg", scene_photo("D03-02"), "image/jpeg")})
        assert r.status_code == 200, r.text
        view = _until(lambda: (v := _view(c, table_id))["round"]["builders"][0]["verdict"]
                      and v, 20.0)
        assert view and view["round"]["builders"][0]["verdict"]["verdict"] == "correct"


class HandFedCamera(ThreadedSource):
    """A live camera whose frames the test hands in (`feed`), one read each."""

    kind = "capture"

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.frames: queue.Queue[np.ndarray] = queue.Queue()

    def feed(self, img: np.ndarray) -> None:
        self.frames.put(img)

    def _open(self) -> None:
        return None

    def _read(self) -> np.ndarray | None:
        while not self._stop.is_set():
            try:
                return self.frames.get(timeout=0.05)
            except queue.Empty:
                continue
        return None

    def _close(self) -> None:
        return None


def test_done_is_judged_on_the_first_frame_after_it(tmp_path, monkeypatch):
    import referee.server.camera_pool as pool_mod

    made: list[HandFedCamera] = []
    real = pool_mod.make_source

    def make(spec, retry_max_s=30.0, stale_s=2.0):
        if spec.get("kind") != "capture":
            return real(spec, retry_max_s, stale_s)
        made.append(HandFedCamera(retry_max_s=retry_max_s, stale_s=stale_s))
        return made[-1]

    monkeypatch.setattr(pool_mod, "make_source", make)
    before = cv2.imread(str(SCENES / "D04-01" / "image.jpg"))  # another build, before done
    after = cv2.imread(str(SCENES / "D03-02" / "image.jpg"))  # the build at "done"
    with local_client(create_app(_settings(tmp_path, 5.0))) as c:
        table_id, h = _table(c, {"kind": "capture", "device": "hand"})
        (cam,) = made
        cam.feed(before)
        assert _until(lambda: _view(c, table_id)["places"][0]["camera"]["state"] == "live",
                      5.0)
        _start(c, table_id, h)
        assert c.post(f"/api/tables/{table_id}/done/0", headers=h).status_code == 200
        ava = _view(c, table_id)["round"]["builders"][0]
        assert ava["state"] == "judging" and ava["photo"] is None  # the frame is awaited
        cam.feed(after)
        view = _until(lambda: (v := _view(c, table_id))["round"]["builders"][0]["verdict"]
                      and v, 20.0)
        assert view, _view(c, table_id)
        ava = view["round"]["builders"][0]
        assert ava["verdict"]["verdict"] == "correct" and ava["reason"] is None
        stored = cv2.imdecode(np.frombuffer(c.get(ava["photo"]).content, np.uint8),
                              cv2.IMREAD_COLOR)
        assert stored.shape == after.shape  # the frame after, re-encoded
        assert np.abs(stored.astype(int) - after).mean() < 3
        assert stored.shape != before.shape or np.abs(stored.astype(int) - before).mean() > 10
        events = c.get(f"/api/tables/{table_id}/events").json()
        done = next(e for e in events if e["kind"] == "done")
        photo = next(e for e in events if e["kind"] == "server:photo")
        assert photo["seq"] > done["seq"]
        assert photo["data"]["taken_at"] > photo["data"]["asked_at"]


def test_a_folder_camera_never_stalls(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", demo=True, camera_stale_s=0.2)
    with local_client(create_app(settings)) as c:
        h = {"X-Table-Secret": (settings.data_dir / "demo-secret.txt").read_text().strip()}
        c.headers.update(h)
        assert c.post("/api/tables/demo/rounds/demo", headers=h).status_code == 200
        c.get("/api/tables/demo/places/0/preview.jpg")  # the folder's photo is read now
        time.sleep(0.5)  # far over the limit: a still picture does not age
        view = _view(c, "demo")
        assert [p["camera"]["state"] for p in view["places"]] == ["live", "live"]
        assert c.post("/api/tables/demo/done/1", headers=h).status_code == 200
        kinds = [e["kind"] for e in c.get("/api/tables/demo/events").json()]
        # both photos are frozen in the same commit as the done, nothing is awaited
        assert kinds[-4:] == ["server:photo", "done", "round_closed", "server:photo"]


def test_a_phone_photo_at_a_camera_place_is_judged_with_its_own_camera(tmp_path, monkeypatch):
    """The place's camera is dead, the builder sends a photo from the phone: it is judged
    with the camera worked out from the mat in it, not with the webcam's profile."""
    from referee.server import judging

    seen: list[str] = []
    real = judging.judge_photo

    def spy(*args, **kw):
        seen.append(kw.get("intrinsics", args[6] if len(args) > 6 else "station"))
        return real(*args, **kw)

    monkeypatch.setattr(judging, "judge_photo", spy)
    with local_client(create_app(_settings(tmp_path, 0.3))) as c:
        table_id, h = _table(c, {"kind": "capture", "device": "/nonexistent/cam.avi"})
        _start(c, table_id, h)
        r = c.post(f"/api/tables/{table_id}/done/0", headers=h,
                   files={"photo": ("a.jpg", scene_photo("D03-02"), "image/jpeg")})
        assert r.status_code == 200, r.text
        assert _until(lambda: _view(c, table_id)["round"]["builders"][0]["verdict"], 20.0)
        # Ben's place is a phone place: its photo keeps the station's own profile where it has
        # that camera's shape ("auto": judge_photo; another shape is judged from the mat)
        r = c.post(f"/api/tables/{table_id}/done/1", headers=h,
                   files={"photo": ("b.jpg", scene_photo("D04-06"), "image/jpeg")})
        assert _until(lambda: _view(c, table_id)["round"]["builders"][1]["verdict"], 20.0)
    assert seen == ["from-mat", "auto"]
