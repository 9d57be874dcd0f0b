"""Camera sources behind one small interface: `latest()` never blocks, `status()` says why not.

Sources:
- `CaptureSource`: OpenCV `VideoCapture` on a device index, a video file, or an RTSP or
  HTTP/MJPEG URL (a phone's IP-camera app);
- `PiCameraSource`: the Raspberry Pi camera through picamera2 (extra `[pi]`, imported only
  when such a source starts), with its pixel formats turned into BGR (`pi_to_bgr`);
- `FolderSource`: a folder of photos, one shown at a time (the demo's "camera");
- `UploadSource`: the last photo uploaded from the phone.

Each live source (capture, Pi) reads in its own daemon thread and keeps only the newest frame;
a camera that fails is marked dead and retried with exponential backoff (1 s doubling up to
`retry_max_s`). No request ever waits on a camera.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from referee.errors import RefereeError

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")


class CameraError(RefereeError):
    """A camera source cannot be made from its description; the message echoes it."""


@dataclass(frozen=True)
class Frame:
    """One picture: `image_bgr` H×W×3 uint8 BGR; `taken_at` Unix seconds; `origin` says whence
    (a file name, "upload", "camera"); `data` the original encoded bytes when there are any."""

    image_bgr: np.ndarray
    taken_at: float
    origin: str
    data: bytes | None = None


@dataclass(frozen=True)
class SourceStatus:
    """state: "live" (frames coming), "waiting" (no frame yet), "dead" (failed; retrying),
    "idle" (an upload source before its first photo). detail: plain words; retry_in_s: seconds
    to the next attempt when dead."""

    kind: str
    state: str
    detail: str = ""
    last_frame_at: float | None = None
    retry_in_s: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "state": self.state, "detail": self.detail,
                "last_frame_at": self.last_frame_at, "retry_in_s": self.retry_in_s}


class FrameSource(ABC):
    """A camera: `start()` once, then `latest()` and `status()` at will, `stop()` at the end."""

    kind: str = "source"

    def start(self) -> None:
        """Begin reading (live sources start their thread)."""
        return None

    def stop(self) -> None:
        """Stop reading and release the device."""
        return None

    @abstractmethod
    def latest(self) -> Frame | None:
        """The newest frame, or None when there is none; never blocks."""

    @abstractmethod
    def status(self) -> SourceStatus: ...


class UploadSource(FrameSource):
    """The last photo uploaded from a phone (`put`)."""

    kind = "upload"

    def __init__(self) -> None:
        self._frame: Frame | None = None

    def put(self, frame: Frame) -> None:
        self._frame = frame

    def latest(self) -> Frame | None:
        return self._frame

    def status(self) -> SourceStatus:
        f = self._frame
        if f is None:
            return SourceStatus(self.kind, "idle", "waiting for a photo from a phone")
        return SourceStatus(self.kind, "live", f.origin, f.taken_at)


class FolderSource(FrameSource):
    """A folder of photos, shown one at a time in name order; `show(name)` picks one.

    :raises CameraError: the folder does not exist or holds no photo.
    """

    kind = "folder"

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"photo folder {str(folder)!r} does not exist")
        self.files = sorted(p for p in self.folder.iterdir()
                            if p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.files:
            raise CameraError(f"photo folder {str(folder)!r} holds no photo "
                              f"({', '.join(PHOTO_SUFFIXES)})")
        self._index = 0
        self._cache: Frame | None = None

    def show(self, name: str) -> None:
        """Show the photo whose file stem or name is `name`.

        :raises CameraError: no such photo in the folder.
        """
        for i, p in enumerate(self.files):
            if name in (p.name, p.stem):
                self._index, self._cache = i, None
                return
        raise CameraError(f"no photo {name!r} in {str(self.folder)!r}; "
                          f"it holds {', '.join(p.stem for p in self.files)}")

    def next(self) -> None:
        self._index, self._cache = (self._index + 1) % len(self.files), None

    @property
    def current(self) -> Path:
        return self.files[self._index]

    def latest(self) -> Frame | None:
        if self._cache is None:
            import cv2

            path = self.current
            data = path.read_bytes()
            img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            if img is None:
                return None
            self._cache = Frame(img, time.time(), path.stem, data)
        return self._cache

    def status(self) -> SourceStatus:
        return SourceStatus(self.kind, "live", f"{self.current.name} "
                            f"({self._index + 1} of {len(self.files)})")


class ThreadedSource(FrameSource):
    """A live camera read in its own thread; subclasses give `_open`, `_read`, `_close`."""

    def __init__(self, retry_max_s: float = 30.0, retry_first_s: float = 1.0) -> None:
        self.retry_max_s = retry_max_s
        self.retry_first_s = retry_first_s
        self._frame: Frame | None = None
        self._state = "waiting"
        self._detail = "starting"
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
                while not self._stop.is_set():
                    img = self._read()
                    if img is None:
                        raise CameraError("the camera gave no frame")
                    self._frame = Frame(img, time.time(), "camera")
                    self._state, self._detail = "live", ""
                    delay = self.retry_first_s
            except Exception as e:  # any failure of a device: mark dead, back off, retry
                self._state, self._detail = "dead", str(e) or type(e).__name__
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

    def latest(self) -> Frame | None:
        return self._frame

    def status(self) -> SourceStatus:
        retry = None
        if self._state == "dead" and self._retry_at is not None:
            retry = round(max(0.0, self._retry_at - time.time()), 1)
        last = self._frame.taken_at if self._frame else None
        return SourceStatus(self.kind, self._state, self._detail, last, retry)


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

        self._cap = cv2.VideoCapture(self.spec)
        if not self._cap.isOpened():
            raise CameraError(f"cannot open camera {self.spec!r}")
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
                      "XBGR8888 or YUV420")


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
                              "on the Raspberry Pi") from e
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


def make_source(spec: dict[str, Any], retry_max_s: float = 30.0) -> FrameSource:
    """A source from its description: {"kind": "upload"} | {"kind": "folder", "path": ...} |
    {"kind": "capture", "device": "0" or a file or URL} | {"kind": "picamera", "format": ...}.

    :raises CameraError: an unknown kind or a missing field.
    """
    kind = spec.get("kind", "upload")
    if kind == "upload":
        return UploadSource()
    if kind == "folder":
        if "path" not in spec:
            raise CameraError(f"a folder camera needs a path: {spec!r}")
        return FolderSource(Path(spec["path"]))
    if kind == "capture":
        if "device" not in spec or str(spec["device"]).strip() == "":
            raise CameraError(f"a capture camera needs a device index, file or URL: {spec!r}")
        return CaptureSource(spec["device"], retry_max_s=retry_max_s)
    if kind == "picamera":
        size = tuple(spec.get("size", (1280, 720)))
        return PiCameraSource(size=(int(size[0]), int(size[1])),
                              fmt=spec.get("format", "RGB888"), retry_max_s=retry_max_s)
    raise CameraError(f"unknown camera kind {kind!r}; expected upload, folder, capture or "
                      "picamera")
