"""Upload checks: a body-size limit applied before the body is read, and the photo type.

`BodyLimit` answers 413 as soon as a request declares (Content-Length) or streams (chunked)
more than the limit, so a 50 MB upload is refused without being stored. `check_photo_bytes` accepts
JPEG, PNG, WebP and BMP by their first bytes, not by the name or the declared type.
"""

from __future__ import annotations

import json
from typing import Any

from referee.server.errors import UnsupportedPhotoError
from referee.server.text import file_label

MAGIC: tuple[tuple[bytes, str], ...] = ((b"\xff\xd8\xff", "jpeg"), (b"\x89PNG\r\n\x1a\n", "png"),
                                        (b"BM", "bmp"))


def photo_kind(data: bytes) -> str | None:
    """`jpeg`, `png`, `webp` or `bmp` from the first bytes, else None."""
    for magic, kind in MAGIC:
        if data.startswith(magic):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def check_photo_bytes(data: bytes, filename: str = "upload") -> str:
    """The photo's kind.

    :raises UnsupportedPhotoError: empty, or not JPEG/PNG/WebP/BMP, naming the file.
    """
    filename = file_label(filename)
    if not data:
        raise UnsupportedPhotoError(f"The file {filename} is empty: send a JPEG, PNG, WebP "
                                    "or BMP photo.", "photo.empty", {"file": filename})
    kind = photo_kind(data)
    from referee.vision.photo import is_heif

    if kind is None and is_heif(data):  # an iPhone's photo, sent from a laptop
        raise UnsupportedPhotoError(f"The file {filename} is a HEIC (or AVIF) photo, which "
                                    "the referee cannot read: send it as a JPEG (on an "
                                    "iPhone: Settings, Camera, Formats, Most Compatible).",
                                    "photo.heic", {"file": filename})
    if kind is None:
        raise UnsupportedPhotoError(f"The file {filename} is not a photo: send a JPEG, PNG, "
                                    "WebP or BMP photo from a camera or phone.",
                                    "photo.not-a-photo", {"file": filename})
    return kind


class _TooLarge(Exception):
    """The body passed the upload limit while it was being read."""


class BodyLimit:
    """ASGI middleware: HTTP request bodies over `max_bytes` get 413 and are not read further."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send, int(declared))
            return
        seen = 0
        started = refused = False

        async def counting_receive() -> dict:
            # over the limit, the 413 is sent from here, at once: the app's own answer to the
            # broken body (FastAPI makes any error while reading a form a 400) is dropped
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_bytes:
                    if not started:
                        refused = True
                        await self._refuse(send, seen)
                    raise _TooLarge
            return msg

        async def tracking_send(msg: dict) -> None:
            nonlocal started
            if refused:
                return
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except Exception as e:
            if not (refused or isinstance(e, _TooLarge)):
                raise

    async def _refuse(self, send: Any, size: int) -> None:
        mb = self.max_bytes / (1024 * 1024)
        body = json.dumps({"detail": f"the upload is too large ({size} bytes or more); "
                                     f"the limit is {mb:.0f} MB", "error": "UploadTooLargeError"})
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body.encode()})
