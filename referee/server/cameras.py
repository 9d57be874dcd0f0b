"""Camera sources behind one small interface: `latest()` never blocks, `status()` says why not;
what users are told when a camera fails; and the still sources.

Sources:
- `FolderSource`: a folder of photos, one shown at a time (the demo's "camera");
- `UploadSource`: the last photo uploaded from the phone;
- `BrokenSource`: a camera whose description cannot be used, dead for good;
- the live ones, `CaptureSource` (OpenCV) and `PiCameraSource`, each read in its own thread:
  referee.server.camera_streams. referee.server.camera_pool makes a source from a place's
  description and opens each physical camera once for every table that names it.

Folder and upload sources are still sources (`still`): their picture does not age, and they
never stall; a folder camera shows what its folder holds at the moment it is asked (a
folder that is gone, or a photo removed, gives no frame at once). No request ever waits on
a camera. A dead camera's `detail` is plain English words (a `RefereeError`'s message),
never an exception's dump; its `code` and `params` (`camera.cannot-open` with the device,
...) are what a phone says in its own language (i18n `refusal.<code>`, the same words as a
refused request carrying that code).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from referee.errors import RefereeError
from referee.server.errors import ServerError

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

    def latest_time(self) -> float | None:
        """When the newest frame was taken (Unix seconds), None without one; never blocks."""
        f = self.latest()
        return f.taken_at if f is not None else None


class UploadSource(FrameSource):
    """The last photo uploaded from a phone: only the file the server stored it in
    (`put_file`), decoded again when asked for (`latest`). A table keeps a source per place
    until it is archived; a decoded phone photo is about 12 MB, and a break-it trial grew a
    box by 350 MB an hour with tables nobody archived."""

    kind = "upload"

    def __init__(self) -> None:
        self._file: tuple[Path, float] | None = None

    def put_file(self, path: Path, taken_at: float) -> None:
        """The photo stored at `path` (a JPEG or PNG the server wrote), taken at `taken_at`
        (Unix seconds)."""
        self._file = (Path(path), taken_at)

    def latest_time(self) -> float | None:
        return self._file[1] if self._file is not None else None

    def latest(self) -> Frame | None:
        if self._file is None:
            return None
        from referee.vision.photo import PhotoError, decode_photo

        path, taken_at = self._file
        try:
            return Frame(decode_photo(path.read_bytes()), taken_at, "upload")
        except (OSError, PhotoError):  # removed with its table meanwhile
            return None

    def status(self) -> SourceStatus:
        t = self.latest_time()
        if t is None:
            return SourceStatus(self.kind, "idle", "waiting for a photo from a phone")
        return SourceStatus(self.kind, "live", "upload", t)


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

    It shows what the folder holds now: the folder is listed and the shown photo's file
    looked at (its inode, size and times) whenever the camera is asked (a listing and a
    `stat`, no decoding), so a photo replaced, changed or removed is seen at the next ask,
    never served from memory (a "done" judged the removed photo before: a trial,
    2026-12-02). A photo is decoded once per version of its file. A folder that is missing or
    holds no photo, or a shown photo that cannot be read, makes a dead camera (no frame, its
    reason in plain words and a code), looked at again at the next ask; a photo that cannot
    be decoded is not decoded again until its file changes. `label` names the folder to
    users (never the server's own path); `check()` raises while the camera is dead.
    `retry_max_s` and `retry_first_s` are accepted for the callers' sake: a folder needs no
    backoff.
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
        self._cache_sig: tuple[Any, ...] | None = None  # the file version `_cache` was read from
        self._bad: tuple[tuple[Any, ...], Why] | None = None  # a version that cannot be decoded
        self._want: str | None = None  # the photo to show once the folder is back
        self._dead: Why | None = None  # why the folder cannot be shown (words, code, params)
        self._lock = threading.RLock()
        self._scan()

    def check(self) -> None:
        """:raises CameraError: the folder is missing, holds no photo, or cannot be read."""
        with self._lock:
            self._frame()
            if self._dead is not None:
                raise CameraError(*self._dead)

    def _scan(self) -> None:
        """List the folder as it is now; the shown photo stays the same file when it is still
        there (else the one asked for by `show`, else the one at the same place)."""
        folder = {"folder": self.label}
        try:
            if not self.folder.is_dir():
                self._fail(f"photo folder {self.label!r} does not exist",
                           "camera.folder-missing", folder)
                return
            files = sorted(p for p in self.folder.iterdir()
                           if p.suffix.lower() in PHOTO_SUFFIXES and p.is_file())
        except OSError:
            self._fail(f"photo folder {self.label!r} cannot be read",
                       "camera.folder-unreadable", folder)
            return
        if not files:
            self._fail(f"photo folder {self.label!r} holds no photo "
                       f"({', '.join(PHOTO_SUFFIXES)})", "camera.no-photo", folder)
            return
        shown = self.files[self._index] if 0 <= self._index < len(self.files) else None
        self.files, self._dead = files, None
        self._index = min(self._index, len(files) - 1)
        if self._want is not None and self._find(self._want):
            return
        if shown is not None and shown in files:
            self._index = files.index(shown)

    def _fail(self, why: str, code: str | None, params: dict[str, Any]) -> None:
        self._dead, self._cache, self._cache_sig = (why, code, params), None, None

    def _find(self, name: str) -> bool:
        for i, p in enumerate(self.files):
            if name in (p.name, p.stem):
                self._index = i
                return True
        return False

    def show(self, name: str) -> None:
        """Show the photo whose file stem or name is `name` (once the folder is back, if it is
        dead now).

        :raises CameraError: the folder is there and has no such photo.
        """
        with self._lock:
            self._scan()
            if self._dead is not None:  # the folder is gone or empty
                self._want = name
                return
            if not self._find(name):
                raise CameraError(f"no photo {name!r} in {self.label!r}; "
                                  f"it holds {', '.join(p.stem for p in self.files)}",
                                  "camera.photo-unknown", {"name": name, "folder": self.label})
            self._want = name

    def next(self) -> None:
        with self._lock:
            self._scan()
            if self.files:
                self._index = (self._index + 1) % len(self.files)
            self._want = None

    @property
    def current(self) -> Path | None:
        with self._lock:
            self._scan()
            return self.files[self._index] if self._dead is None and self.files else None

    def _frame(self) -> Frame | None:
        """The shown photo as the folder holds it now (the caller holds the lock)."""
        from referee.files import FileTooLargeError, read_bounded
        from referee.vision.photo import MAX_FILE_BYTES, MAX_PIXELS, PhotoError, decode_photo

        self._scan()
        if self._dead is not None or not self.files:
            return None
        path = self.files[self._index]
        photo = {"name": path.name, "folder": self.label}
        unreadable: Why = (f"photo {path.name!r} in folder {self.label!r} cannot be read",
                           "camera.photo-unreadable", photo)
        try:
            st = path.stat()
        except OSError:  # removed between the listing and now
            self._fail(*unreadable)
            return None
        sig = (str(path), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        if self._cache is not None and self._cache_sig == sig:
            return self._cache
        if self._bad is not None and self._bad[0] == sig:
            self._fail(*self._bad[1])
            return None
        self._cache, self._cache_sig = None, None

        def bad(what: str) -> None:  # this file stays refused until it changes
            why: Why = (f"photo {path.name!r} in folder {self.label!r} {what}",
                        "camera.photo-unreadable", photo)
            self._bad = (sig, why)
            self._fail(*why)

        try:  # never more than a photo's worth of bytes (a video named .jpg: gigabytes)
            data = read_bounded(path, MAX_FILE_BYTES)
        except OSError:
            self._fail(*unreadable)
            return None
        except FileTooLargeError:
            bad(f"is too large a file to be a photo (over {MAX_FILE_BYTES // 1_000_000} MB)")
            return None
        try:  # the same size and format checks as an uploaded photo
            img = decode_photo(data)
        except PhotoError:
            bad(f"is not a readable image of at most {MAX_PIXELS // 1_000_000} megapixels")
            return None
        self._cache, self._cache_sig = Frame(img, time.time(), path.stem, data), sig
        self._bad = None
        return self._cache

    def latest(self) -> Frame | None:
        """The shown photo as its file is now; None while the camera is dead."""
        with self._lock:
            return self._frame()

    def status(self) -> SourceStatus:
        with self._lock:
            frame = self._frame()
            if self._dead is not None or frame is None:
                why, code, params = self._dead or ("no photo", "camera.no-photo",
                                                   {"folder": self.label})
                return SourceStatus(self.kind, "dead", why, None, None, code, params)
            return SourceStatus(self.kind, "live", f"{self.files[self._index].name} "
                                f"({self._index + 1} of {len(self.files)})", frame.taken_at)
