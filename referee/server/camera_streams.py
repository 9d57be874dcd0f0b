"""Live cameras, each read in its own daemon thread (the interface: referee.server.cameras):

- `CaptureSource`: OpenCV `VideoCapture` on a device index, a video file, or an RTSP or
  HTTP/MJPEG URL (a phone's IP-camera app);
- `PiCameraSource`: the Raspberry Pi camera through picamera2 (extra `[pi]`, imported only
  when such a source starts), with its pixel formats turned into BGR (`pi_to_bgr`).

The thread keeps only the newest frame, stamped with the time it was captured; a camera that
fails is marked dead and retried with exponential backoff (1 s doubling up to `retry_max_s`),
and says why in plain words and a code (cameras.why_of). A live source whose newest frame is
older than `stale_s` (a stream that sent a frame and then stalled) is "stalled": it hands out
no frame, and the stream is opened again (a network stream is opened with a read timeout of
`stale_s`, so a stalled read ends). `frame_after(t)` waits for the first frame captured
after `t`, which is what a "done" is judged on.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import abstractmethod
from pathlib import Path
from typing import Any

import numpy as np

from referee.server.cameras import (
    CameraError,
    CameraState,
    Frame,
    FrameSource,
    SourceStatus,
    Why,
    shown_device,
    why_of,
)

log = logging.getLogger("referee.server")


class ThreadedSource(FrameSource):
    """A live camera read in its own thread; subclasses give `_open`, `_read`, `_close`.

    stale_s: a frame older than this is not handed out, and the camera shows "stalled".
    """

    still = False

    def __init__(self, retry_max_s: float = 30.0, retry_first_s: float = 1.0,
                 stale_s: float = 2.0) -> None:
        self.retry_max_s = retry_max_s
        self.retry_first_s = retry_first_s
        self.stale_s = stale_s
        self._frame: Frame | None = None
        self._new_frame = threading.Condition()
        self._state: CameraState = "waiting"
        self._detail = "starting"
        self._code: str | None = None  # why it is dead, for a phone's language
        self._params: dict[str, Any] = {}
        self._retry_at: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @abstractmethod
    def _open(self) -> None: ...

    @abstractmethod
    def _read(self) -> np.ndarray | None:
        """One BGR frame, or None when the camera gives none (counts as a failure)."""

    @abstractmethod
    def _close(self) -> None: ...

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"camera-{self.kind}",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        delay = self.retry_first_s
        while not self._stop.is_set():
            try:
                self._open()
                self._state, self._detail, self._retry_at = "waiting", "opened", None
                self._code, self._params = None, {}
                while not self._stop.is_set():
                    img = self._read()
                    if img is None:
                        raise CameraError("the camera gave no frame", "camera.no-frame")
                    with self._new_frame:  # stamped with its capture time
                        self._frame = Frame(img, time.time(), "camera")
                        self._state, self._detail = "live", ""
                        self._new_frame.notify_all()
                    delay = self.retry_first_s
            except Exception as e:  # any failure of a device: mark dead, back off, retry
                # users see plain words: a CameraError's own, else a sentence; the rest is
                # for the server's log
                detail, code, params = why_of(e)
                state: CameraState = "dead"
                if self._state == "live" and self._stale(time.time()):
                    state, (detail, code, params) = "stalled", self._stalled_why()
                if detail != self._detail:
                    log.warning("camera %s: %s", self.kind, e)
                self._state, self._detail = state, detail
                self._code, self._params = code, params
                self._frame = None  # never hand out a frame from before the failure
            finally:
                try:
                    self._close()
                except Exception:  # closing a broken device may fail too
                    pass
            if self._stop.is_set():
                break
            self._retry_at = time.time() + delay
            self._stop.wait(delay)
            delay = min(delay * 2, self.retry_max_s)

    def _stale(self, now: float) -> bool:
        f = self._frame
        return f is not None and now - f.taken_at > self.stale_s

    def _stalled_why(self) -> Why:
        return (f"no new picture for over {self.stale_s:g} s; reconnecting", "camera.stalled",
                {"s": self.stale_s})

    def latest(self) -> Frame | None:
        """The newest frame, unless it is older than `stale_s` (a stalled stream)."""
        f = self._frame
        return None if f is None or time.time() - f.taken_at > self.stale_s else f

    def frame_after(self, t: float, timeout_s: float) -> Frame | None:
        end = time.time() + timeout_s
        with self._new_frame:
            while True:
                f = self._frame
                if f is not None and f.taken_at > t:
                    return f
                left = end - time.time()
                if left <= 0 or self._stop.is_set():
                    return None
                self._new_frame.wait(left)

    def status(self) -> SourceStatus:
        now = time.time()
        state, detail, code, params = self._state, self._detail, self._code, self._params
        if state == "live" and self._stale(now):  # before the stalled read gives up
            state, (detail, code, params) = "stalled", self._stalled_why()
        retry = None
        if state in ("dead", "stalled") and self._retry_at is not None:
            retry = round(max(0.0, self._retry_at - now), 1)
        last = self._frame.taken_at if self._frame else None
        if state not in ("dead", "stalled"):
            code, params = None, {}
        return SourceStatus(self.kind, state, detail, last, retry, code, params)


class CaptureSource(ThreadedSource):
    """OpenCV `VideoCapture` on a device index ("0"), a video file, or an RTSP/HTTP URL."""

    kind = "capture"

    def __init__(self, spec: str | int, **kw: Any) -> None:
        super().__init__(**kw)
        self.spec: str | int = int(spec) if str(spec).isdigit() else spec
        self._cap: Any = None
        self._file = False
        self._period_s = 0.1

    def _open(self) -> None:
        import cv2

        if isinstance(self.spec, str) and "://" in self.spec:
            # a network stream: a read that waits longer than the stale limit ends, so that
            # a stalled stream is opened again instead of hanging (FFmpeg backend)
            ms = max(100, int(self.stale_s * 1000))
            self._cap = cv2.VideoCapture(self.spec, cv2.CAP_ANY, [
                cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, max(ms, 5000),
                cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms])
        else:
            self._cap = cv2.VideoCapture(self.spec)
        if not self._cap.isOpened():
            # the device may be a URL holding a password: the log has it, the phones do not
            log.warning("cannot open camera %r", self.spec)
            device = shown_device(self.spec)
            raise CameraError(f"cannot open camera {device}: is it plugged in, switched on "
                              "and on this network?", "camera.cannot-open", {"device": device})
        # a video file plays at its own pace and loops, like a camera that never ends
        self._file = isinstance(self.spec, str) and Path(self.spec).is_file()
        fps = self._cap.get(cv2.CAP_PROP_FPS) if self._file else 0.0
        self._period_s = 1.0 / fps if fps and fps > 0 else 0.1

    def _read(self) -> np.ndarray | None:
        import cv2

        ok, img = self._cap.read()
        if not ok and self._file:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, img = self._cap.read()
        if ok and self._file:
            self._stop.wait(self._period_s)
        return img if ok else None

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def pi_to_bgr(array: np.ndarray, fmt: str) -> np.ndarray:
    """Turn a picamera2 array of format `fmt` into H×W×3 uint8 BGR.

    picamera2 names formats by libcamera's convention, so in memory "RGB888" is already B,G,R
    and "BGR888" is R,G,B; the X formats carry a 4th byte (picamera2 manual, §4.2.2.2).
    "YUV420" arrives as (H·3/2)×W planes.

    :raises CameraError: a format this function does not know.
    """
    import cv2

    if fmt == "RGB888":
        return array
    if fmt == "BGR888":
        return array[:, :, ::-1].copy()
    if fmt == "XRGB8888":
        return array[:, :, :3].copy()
    if fmt == "XBGR8888":
        return array[:, :, 2::-1].copy()
    if fmt == "YUV420":
        return cv2.cvtColor(array, cv2.COLOR_YUV2BGR_I420)
    raise CameraError(f"unknown picamera2 format {fmt!r}; expected RGB888, BGR888, XRGB8888, "
                      "XBGR8888 or YUV420", "camera.pi-format", {"format": str(fmt)[:40]})


class PiCameraSource(ThreadedSource):
    """The Raspberry Pi camera via picamera2 (install the `[pi]` extra on the Pi)."""

    kind = "picamera"

    def __init__(self, size: tuple[int, int] = (1280, 720), fmt: str = "RGB888",
                 **kw: Any) -> None:
        super().__init__(**kw)
        self.size, self.fmt = size, fmt
        self._cam: Any = None

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as e:
            raise CameraError("picamera2 is not installed: pip install 'referee[pi]' "
                              "on the Raspberry Pi", "camera.pi-missing") from e
        self._cam = Picamera2()
        self._cam.configure(self._cam.create_video_configuration(
            main={"size": self.size, "format": self.fmt}))
        self._cam.start()

    def _read(self) -> np.ndarray | None:
        return pi_to_bgr(self._cam.capture_array("main"), self.fmt)

    def _close(self) -> None:
        if self._cam is not None:
            self._cam.close()
            self._cam = None
