"""Camera sources: formats, folders, a video file, and a dead camera retried with backoff."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from referee.paths import MODELS
from referee.server.camera_pool import make_source
from referee.server.camera_streams import CaptureSource, pi_to_bgr
from referee.server.cameras import CameraError, FolderSource, UploadSource


def _wait(pred, timeout_s: float = 5.0) -> bool:
    end = time.monotonic() + timeout_s
    while not pred():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def test_pi_formats_become_bgr():
    b, g, r = 10, 20, 30
    bgr = np.array([[[b, g, r]]], np.uint8)
    assert (pi_to_bgr(bgr, "RGB888") == bgr).all()  # libcamera's RGB888 is B,G,R in memory
    assert (pi_to_bgr(np.array([[[r, g, b]]], np.uint8), "BGR888") == bgr).all()
    assert (pi_to_bgr(np.array([[[b, g, r, 255]]], np.uint8), "XRGB8888") == bgr).all()
    assert (pi_to_bgr(np.array([[[r, g, b, 255]]], np.uint8), "XBGR8888") == bgr).all()
    yuv = cv2.cvtColor(np.full((4, 4, 3), (b, g, r), np.uint8), cv2.COLOR_BGR2YUV_I420)
    assert np.abs(pi_to_bgr(yuv, "YUV420").astype(int) - [b, g, r]).max() <= 3
    with pytest.raises(CameraError, match="NV12"):
        pi_to_bgr(bgr, "NV12")


def test_folder_source_shows_a_chosen_photo():
    src = FolderSource(MODELS / "demo" / "photos" / "D03")
    src.show("D03-05")
    f = src.latest()
    assert f is not None and f.origin == "D03-05" and f.image_bgr.shape[2] == 3
    src.next()
    assert src.latest().origin == "D03-06"
    with pytest.raises(CameraError, match="no photo 'X'"):
        src.show("X")
    with pytest.raises(CameraError, match="does not exist"):
        FolderSource(MODELS / "nowhere").check()


def test_a_missing_folder_is_a_dead_camera_until_it_comes_back(tmp_path):
    """A folder camera whose folder is gone is dead (plain words, its label, not the server's
    path), looked at again at every ask, and live once the folder is back; a folder removed
    leaves no frame in hand."""
    import shutil

    folder = tmp_path / "cam"
    src = FolderSource(folder, label="folders/cam", retry_max_s=0.2, retry_first_s=0.05)
    st = src.status()
    assert st.state == "dead" and st.detail == "photo folder 'folders/cam' does not exist"
    assert (st.code, st.params) == ("camera.folder-missing", {"folder": "folders/cam"})
    assert str(tmp_path) not in st.detail
    assert src.latest() is None
    src.show("D03-05")  # remembered until the folder is back
    shutil.copytree(MODELS / "demo" / "photos" / "D03", folder)
    assert src.status().state == "live"
    assert src.latest().origin == "D03-05"
    shutil.rmtree(folder)  # the frame in hand is not handed out any more
    assert src.latest() is None and src.status().state == "dead"
    assert src.status().code == "camera.folder-missing"


def test_upload_source_is_idle_until_a_photo():
    src = UploadSource()
    assert src.latest() is None and src.status().state == "idle"


def test_capture_from_a_video_file(tmp_path):
    path = tmp_path / "clip.avi"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        w.write(np.full((48, 64, 3), (i * 40, 100, 200), np.uint8))
    w.release()
    src = make_source({"kind": "capture", "device": str(path)}, retry_max_s=0.2)
    src.start()
    try:
        assert _wait(lambda: src.latest() is not None)
        assert src.latest().image_bgr.shape == (48, 64, 3)
        seen = {int(src.latest().image_bgr[0, 0, 0]) // 40}
        assert _wait(lambda: seen.add(int(src.latest().image_bgr[0, 0, 0]) // 40) or
                     {0, 4} <= seen)  # it plays through to the end and loops
        assert src.status().state == "live"
    finally:
        src.stop()


def test_a_dead_camera_is_marked_and_retried(tmp_path):
    src = CaptureSource(str(tmp_path / "no-such-camera.avi"), retry_max_s=0.4,
                        retry_first_s=0.05)
    attempts = []
    opener = src._open
    src._open = lambda: (attempts.append(time.monotonic()), opener())[1]
    src.start()
    try:
        assert _wait(lambda: len(attempts) >= 5)
        st = src.status()
        assert st.state == "dead" and "cannot open camera" in st.detail
        assert (st.code, st.params) == ("camera.cannot-open", {"device": "no-such-camera.avi"})
        assert st.to_dict()["code"] == "camera.cannot-open"
        assert st.retry_in_s is not None and st.retry_in_s <= 0.4
        # backoff doubles from 0.05 s up to the 0.4 s cap; a busy machine only makes the
        # waits longer, so each wait is at least its step (a fixed delay fails at gaps[2])
        gaps = np.diff(attempts[:5])
        assert (gaps >= np.array([0.05, 0.1, 0.2, 0.4]) - 0.01).all(), gaps
        assert src.latest() is None  # never blocks, never invents a frame
    finally:
        src.stop()


def test_unknown_camera_kind():
    with pytest.raises(CameraError, match="unknown camera kind 'webcam'"):
        make_source({"kind": "webcam"})
    with pytest.raises(CameraError, match="needs a device") as e:
        make_source({"kind": "capture"})
    assert e.value.code == "camera.needs-device"


def test_an_empty_folder_and_an_unknown_format_have_codes(tmp_path):
    """Every way a camera fails has a code a phone can say in its language."""
    src = FolderSource(tmp_path, label="folders/empty")
    st = src.status()
    assert (st.state, st.code, st.params) == ("dead", "camera.no-photo",
                                              {"folder": "folders/empty"})
    with pytest.raises(CameraError) as e:
        src.check()
    assert e.value.code == "camera.no-photo"
    with pytest.raises(CameraError) as e:
        pi_to_bgr(np.zeros((2, 2, 3), np.uint8), "NV12")
    assert (e.value.code, e.value.params) == ("camera.pi-format", {"format": "NV12"})


def test_pi_camera_through_picamera2(monkeypatch):
    """picamera2 is imported only when a Pi source starts; its XBGR8888 frames become BGR."""
    import sys
    import types

    calls: list[str] = []

    class FakePicamera2:
        def create_video_configuration(self, main):
            calls.append(f"config {main['format']} {main['size']}")
            return main

        def configure(self, cfg):
            self.fmt = cfg["format"]

        def start(self):
            calls.append("start")

        def capture_array(self, name):
            return np.tile(np.array([30, 20, 10, 255], np.uint8), (2, 3, 1))  # R,G,B,X

        def close(self):
            calls.append("close")

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    src = make_source({"kind": "picamera", "format": "XBGR8888", "size": [3, 2]})
    src.start()
    try:
        assert _wait(lambda: src.latest() is not None)
        assert src.latest().image_bgr.shape == (2, 3, 3)
        assert src.latest().image_bgr[0, 0].tolist() == [10, 20, 30]
        assert src.status().state == "live"
    finally:
        src.stop()
    assert calls[:2] == ["config XBGR8888 (3, 2)", "start"] and calls[-1] == "close"


def test_pi_camera_missing_is_a_dead_camera(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    src = make_source({"kind": "picamera"}, retry_max_s=0.2)
    src.start()
    try:
        assert _wait(lambda: src.status().state == "dead")
        assert "pip install 'referee[pi]'" in src.status().detail
        assert src.status().code == "camera.pi-missing"
    finally:
        src.stop()
