"""Camera sources behind one small interface: `latest()` never blocks, `status()` says why not.

Sources:
- `CaptureSource`: OpenCV `VideoCapture` on a device index, a video file, or an RTSP or
  HTTP/MJPEG URL (a phone's IP-camera app);
- `PiCameraSource`: the Raspberry Pi camera through picamera2 (extra `[pi]`, imported only
  when such a source starts), with its pixel formats turned into BGR (`pi_to_bgr`);
- `FolderSource`: a folder of photos, one shown at a time (the demo's "camera");
- `UploadSource`: the last photo uploaded from the phone;
- `BrokenSource`: a camera whose description cannot be used, dead for good.

Each live source (capture, Pi) reads in its own daemon thread and keeps only the newest frame,
stamped with the time it was captured; a camera that fails is marked dead and retried with
exponential backoff (1 s doubling up to `retry_max_s`); a folder that is gone is looked at
again on the same schedule. No request ever waits on a camera. A dead camera's `detail` is
plain English words (a `RefereeError`'s message), never an exception's dump; its `code` and
`params` (`camera.cannot-open` with the device, ...) are what a phone says in its own
language (i18n `refusal.<code>`, the same words as a refused request carrying that code).

A live source whose newest frame is older than `stale_s` (a stream that sent a frame and then
stalled) is "stalled": it hands out no frame, and the stream is opened again (a network
stream is opened with a read timeout of `stale_s`, so a stalled read ends). `frame_after(t)`
waits for the first frame captured after `t`, which is what a "done" is judged on. Folder and
upload sources are still sources (`still`): their picture does not age, and they never stall.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from referee.errors import RefereeError
from referee.server.errors import ServerError

log = logging.getLogger("referee.server")

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")
# what a camera is doing now (SourceStatus.state, shown on the phones as is)
CameraState = Literal["live", "waiting", "stalled", "dead", "idle"]


def shown_device(spec: str | int) -> str:
    """A camera's device as phones may see it: an index as is, a URL without its user and
    password (and query), a file by its name only."""
    from urllib.parse import urlsplit

    if isinstance(spec, int) or str(spec).isdigit():
        return str(spec)
    text = str(spec)
    if "://" in text:
        try:
            u = urlsplit(text)
            host = u.hostname or ""
            port = f":{u.port}" if u.port else ""
            return f"{u.scheme}://{host}{port}{u.path}"[:120]
        except ValueError:
            return "(a network camera)"
    return Path(text).name[:80]


class CameraError(ServerError):
    """A camera source cannot be made from its description, or a camera fails; the message
    (English, for logs and old clients) echoes it. `code` and `params` say it in any
    language (i18n `refusal.<code>`, as every server error's code; an answer carries both)."""


# The codes of why a camera does not work (a status's or a CameraError's `code`); each has
# words in every language (i18n `refusal.<code>`: tests/server/test_server_reason_words.py).
CAMERA_CODES = ("camera.cannot-open", "camera.no-frame", "camera.failed", "camera.stalled",
                "camera.folder-missing", "camera.folder-unreadable", "camera.no-photo",
                "camera.photo-unreadable", "camera.photo-unknown", "camera.pi-missing",
                "camera.pi-format", "camera.needs-path", "camera.needs-device",
                "camera.unknown-kind", "camera.folder-elsewhere", "camera.bad-settings",
                "camera.archived")
Why = tuple[str, str | None, dict[str, Any]]  # English words, code, params


def why_of(e: BaseException, fallback: str = "the camera failed",
           fallback_code: str = "camera.failed") -> Why:
    """What users are told of a camera's failure: a `RefereeError`'s own words (and code),
    else `fallback` (an exception's text is for the server's log only)."""
    if isinstance(e, RefereeError):
        code = getattr(e, "code", None)
        return str(e), code if isinstance(code, str) else None, dict(getattr(e, "params", {}))
    return fallback, fallback_code, {}


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
    """state: "live" (frames coming), "waiting" (no frame yet), "stalled" (a live camera whose
    newest frame is too old; reconnecting), "dead" (failed; retrying), "idle" (an upload
    source before its first photo). detail: plain English words (for logs and old clients);
    code and params: why, for a phone's language (`camera.cannot-open` and its device: i18n
    `refusal.<code>`), None when there is nothing to explain; retry_in_s: seconds to the next
    attempt when dead."""

    kind: str
    state: CameraState
    detail: str = ""
    last_frame_at: float | None = None
    retry_in_s: float | None = None
    code: str | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "state": self.state, "detail": self.detail,
                "code": self.code, "params": dict(self.params),
                "last_frame_at": self.last_frame_at, "retry_in_s": self.retry_in_s}


class FrameSource(ABC):
    """A camera: `start()` once, then `latest()` and `status()` at will, `stop()` at the end."""

    kind: str = "source"
    still: bool = True  # a picture that does not age (a folder, an upload); never stalls

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

    def frame_after(self, t: float, timeout_s: float) -> Frame | None:
        """The first frame captured after Unix time `t`, waiting at most `timeout_s`; a still
        source's picture counts as captured now (it does not wait)."""
        return self.latest()


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


class BrokenSource(FrameSource):
    """A camera whose description cannot be used (e.g. a stored table's camera that names a
    folder it may not read): dead for good, with the reason in plain words."""

    def __init__(self, kind: str, why: str, code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        self.kind, self.why, self.code, self.params = kind, why, code, dict(params or {})

    def latest(self) -> Frame | None:
        return None

    def status(self) -> SourceStatus:
        return SourceStatus(self.kind, "dead", self.why, code=self.code, params=self.params)


class FolderSource(FrameSource):
    """A folder of photos, shown one at a time in name order; `show(name)` picks one.

    A folder that is missing or holds no photo, or a photo that cannot be read, makes a dead
    camera that is looked at again with backoff (1 s doubling up to `retry_max_s`, checked
    whenever the camera is asked), like any dead camera. `label` names the folder to users
    (never the server's own path); `check()` raises while the camera is dead.
    """

    kind = "folder"

    def __init__(self, folder: Path, label: str | None = None, retry_max_s: float = 30.0,
                 retry_first_s: float = 1.0) -> None:
        self.folder = Path(folder)
        self.label = str(folder) if label is None else label
        self.retry_max_s, self.retry_first_s = retry_max_s, retry_first_s
        self.files: list[Path] = []
        self._index = 0
        self._cache: Frame | None = None
        self._want: str | None = None  # the photo to show once the folder is back
        self._dead: Why | None = None  # why the folder cannot be shown (words, code, params)
        self._retry_at: float | None = None
        self._delay = retry_first_s
        self._lock = threading.RLock()
        self._scan()

    def check(self) -> None:
        """:raises CameraError: the folder is missing, holds no photo, or cannot be read."""
        with self._lock:
            if self._dead is not None:
                raise CameraError(*self._dead)

    def _scan(self) -> None:
        folder = {"folder": self.label}
        try:
            if not self.folder.is_dir():
                self._fail(f"photo folder {self.label!r} does not exist",
                           "camera.folder-missing", folder)
                return
            files = sorted(p for p in self.folder.iterdir()
                           if p.suffix.lower() in PHOTO_SUFFIXES)
        except OSError:
            self._fail(f"photo folder {self.label!r} cannot be read",
                       "camera.folder-unreadable", folder)
            return
        if not files:
            self._fail(f"photo folder {self.label!r} holds no photo "
                       f"({', '.join(PHOTO_SUFFIXES)})", "camera.no-photo", folder)
            return
        self.files, self._cache = files, None
        self._dead, self._retry_at, self._delay = None, None, self.retry_first_s
        self._index = min(self._index, len(files) - 1)
        if self._want is not None:
            self._find(self._want)

    def _fail(self, why: str, code: str, params: dict[str, Any]) -> None:
        self._dead, self._cache = (why, code, params), None
        self._retry_at = time.time() + self._delay
        self._delay = min(self._delay * 2, self.retry_max_s)

    def _revive(self) -> None:
        if (self._dead is not None and self._retry_at is not None
                and time.time() >= self._retry_at):
            self._scan()

    def _find(self, name: str) -> bool:
        for i, p in enumerate(self.files):
            if name in (p.name, p.stem):
                self._index, self._cache = i, None
                return True
        return False

    def show(self, name: str) -> None:
        """Show the photo whose file stem or name is `name` (once the folder is back, if it is
        dead now).

        :raises CameraError: the folder is there and has no such photo.
        """
        with self._lock:
            self._revive()
            if self._dead is not None:
                self._want = name
                return
            if not self._find(name):
                raise CameraError(f"no photo {name!r} in {self.label!r}; "
                                  f"it holds {', '.join(p.stem for p in self.files)}",
                                  "camera.photo-unknown", {"name": name, "folder": self.label})
            self._want = name

    def next(self) -> None:
        with self._lock:
            if self.files:
                self._index, self._cache = (self._index + 1) % len(self.files), None
            self._want = None

    @property
    def current(self) -> Path | None:
        with self._lock:
            return self.files[self._index] if self.files else None

    def latest(self) -> Frame | None:
        from referee.vision.photo import MAX_PIXELS, PhotoError, decode_photo

        with self._lock:
            self._revive()
            if self._dead is not None or not self.files:
                return None
            if self._cache is None:
                path = self.files[self._index]
                photo = {"name": path.name, "folder": self.label}
                try:
                    data = path.read_bytes()
                except OSError:
                    self._fail(f"photo {path.name!r} in folder {self.label!r} cannot be read",
                               "camera.photo-unreadable", photo)
                    return None
                try:  # the same size and format checks as an uploaded photo
                    img = decode_photo(data)
                except PhotoError:
                    self._fail(f"photo {path.name!r} in folder {self.label!r} is not a "
                               "readable image of at most "
                               f"{MAX_PIXELS // 1_000_000} megapixels",
                               "camera.photo-unreadable", photo)
                    return None
                self._cache = Frame(img, time.time(), path.stem, data)
            return self._cache

    def status(self) -> SourceStatus:
        with self._lock:
            self._revive()
            if self._dead is not None:
                retry = (None if self._retry_at is None
                         else round(max(0.0, self._retry_at - time.time()), 1))
                why, code, params = self._dead
                return SourceStatus(self.kind, "dead", why, None, retry, code, params)
            return SourceStatus(self.kind, "live", f"{self.files[self._index].name} "
                                f"({self._index + 1} of {len(self.files)})")


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


def make_source(spec: dict[str, Any], retry_max_s: float = 30.0,
                stale_s: float = 2.0) -> FrameSource:
    """A source from its description: {"kind": "upload"} | {"kind": "folder", "path": ...,
    "label": how users see it} |
    {"kind": "capture", "device": "0" or a file or URL} | {"kind": "picamera", "format": ...}.

    :raises CameraError: an unknown kind or a missing field.
    """
    kind = spec.get("kind", "upload")
    if kind == "upload":
        return UploadSource()
    if kind == "folder":
        if not spec.get("path"):
            raise CameraError("a folder camera needs a path", "camera.needs-path")
        return FolderSource(Path(spec["path"]), label=spec.get("label"),
                            retry_max_s=retry_max_s)
    if kind == "capture":
        if "device" not in spec or str(spec["device"]).strip() == "":
            raise CameraError("a capture camera needs a device index, file or URL",
                              "camera.needs-device")
        return CaptureSource(spec["device"], retry_max_s=retry_max_s, stale_s=stale_s)
    if kind == "picamera":
        size = tuple(spec.get("size", (1280, 720)))
        return PiCameraSource(size=(int(size[0]), int(size[1])),
                              fmt=spec.get("format", "RGB888"), retry_max_s=retry_max_s,
                              stale_s=stale_s)
    raise CameraError(f"unknown camera kind {kind!r}; expected upload, folder, capture or "
                      "picamera", "camera.unknown-kind", {"kind": str(kind)[:20]})


class SharedSource(FrameSource):
    """One table's handle on a physical camera that several tables may use: the camera is
    read by one thread however many tables hold it; `stop()` lets go of this handle, and the
    last one stops the camera (CameraPool)."""

    def __init__(self, pool: CameraPool, key: tuple[str, ...], inner: FrameSource) -> None:
        self._pool, self._key, self.inner = pool, key, inner
        self.kind, self.still = inner.kind, inner.still
        self._held = False

    def start(self) -> None:
        self._held = True  # the pool started the camera when it was first taken

    def stop(self) -> None:
        if self._held:
            self._held = False
            self._pool.release(self._key)

    def latest(self) -> Frame | None:
        return self.inner.latest()

    def status(self) -> SourceStatus:
        return self.inner.status()

    def frame_after(self, t: float, timeout_s: float) -> Frame | None:
        return self.inner.frame_after(t, timeout_s)


class CameraPool:
    """The box's physical cameras (capture devices, the Pi camera), each opened once: tables
    that name the same device share its reader thread and its newest frame."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cams: dict[tuple[str, ...], tuple[FrameSource, int]] = {}

    @staticmethod
    def key(spec: dict[str, Any]) -> tuple[str, ...] | None:
        """What names one physical camera (None: not a physical camera: a folder, a phone)."""
        kind = spec.get("kind", "upload")
        if kind == "capture":
            return ("capture", str(spec.get("device", "")).strip())
        if kind == "picamera":
            return ("picamera", str(spec.get("format", "RGB888")), str(spec.get("size", "")))
        return None

    def take(self, spec: dict[str, Any], retry_max_s: float = 30.0,
             stale_s: float = 2.0) -> FrameSource:
        """A started handle on the camera `spec` names (made and started on first use); any
        other source kind is made anew, not started.

        :raises CameraError: as make_source.
        """
        key = self.key(spec)
        if key is None:
            return make_source(spec, retry_max_s, stale_s)
        with self._lock:
            cam, n = self._cams.get(key, (None, 0))
            if cam is None:
                cam = make_source(spec, retry_max_s, stale_s)
                cam.start()
            self._cams[key] = (cam, n + 1)
        return SharedSource(self, key, cam)

    def release(self, key: tuple[str, ...]) -> None:
        with self._lock:
            cam, n = self._cams.get(key, (None, 0))
            if cam is None:
                return
            if n <= 1:
                del self._cams[key]
            else:
                self._cams[key] = (cam, n - 1)
                return
        cam.stop()

    def running(self) -> int:
        """How many physical cameras are open now."""
        with self._lock:
            return len(self._cams)
