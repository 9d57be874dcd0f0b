"""A place's camera from its description, and the box's physical cameras shared among tables:
`make_source` turns {"kind": ...} into a source (referee.server.cameras for the still ones,
referee.server.camera_streams for the live ones); `CameraPool` opens each physical camera
once however many tables name it (one reader thread, one newest frame) and stops it when the
last table lets it go.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from referee.server.camera_streams import CaptureSource, PiCameraSource
from referee.server.cameras import (
    CameraError,
    FolderSource,
    Frame,
    FrameSource,
    SourceStatus,
    UploadSource,
)


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
