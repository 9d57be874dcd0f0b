"""Upload checks: a body-size limit applied before the body is read, a form's end, and the
photo type.

`BodyLimit` answers 413 as soon as a request declares (Content-Length) or streams (chunked)
more than the limit, so a 50 MB upload is refused without being stored. `FormEnd` marks a
form whose body was cut short. `check_photo_bytes` accepts JPEG, PNG, WebP and BMP by their
first bytes (`vision.photo.photo_kind`), not by the name or the declared type, and refuses a
photo cut short.
"""

from __future__ import annotations

import json
from typing import Any

from referee.server.errors import INCOMPLETE, IncompleteUploadError, UnsupportedPhotoError
from referee.server.text import file_label


def check_photo_bytes(data: bytes, filename: str = "upload") -> str:
    """The photo's kind.

    :raises UnsupportedPhotoError: empty, not JPEG/PNG/WebP/BMP, or a JPEG of too low a
        quality (`vision.photo.MIN_JPEG_QUALITY`), naming the file;
        IncompleteUploadError: a photo that ends before its image does (`photo_cut`).
    """
    filename = file_label(filename)
    if not data:
        raise UnsupportedPhotoError(f"The file {filename} is empty: send a JPEG, PNG, WebP "
                                    "or BMP photo.", "photo.empty", {"file": filename})
    from referee.vision.photo import is_heif, photo_cut, photo_kind

    kind = photo_kind(data)
    if kind is None and is_heif(data):  # an iPhone's photo, sent from a laptop
        raise UnsupportedPhotoError(f"The file {filename} is a HEIC (or AVIF) photo, which "
                                    "the referee cannot read: send it as a JPEG (on an "
                                    "iPhone: Settings, Camera, Formats, Most Compatible).",
                                    "photo.heic", {"file": filename})
    if kind is None:
        raise UnsupportedPhotoError(f"The file {filename} is not a photo: send a JPEG, PNG, "
                                    "WebP or BMP photo from a camera or phone.",
                                    "photo.not-a-photo", {"file": filename})
    if photo_cut(data):  # the phone's connection dropped mid-photo
        raise IncompleteUploadError(INCOMPLETE, "photo.incomplete")
    from referee.vision.photo import MIN_JPEG_QUALITY, jpeg_quality

    quality = jpeg_quality(data)
    if quality is not None and quality < MIN_JPEG_QUALITY:  # a chat app's shrunk copy
        raise UnsupportedPhotoError(f"The file {filename} was saved at a very low quality "
                                    f"(about {quality:.0f} of 100), which smears the stones: "
                                    "send the photo as the camera took it.",
                                    "photo.low-quality", {"file": filename,
                                                          "quality": round(quality)})
    return kind


FORM_CUT = "referee.form_cut"  # the request scope's mark of a form body cut short


def form_boundary(content_type: bytes | None) -> bytes | None:
    """A multipart form's boundary from its Content-Type, read by the function Starlette's
    form parser reads it with; None for a body of another type, or one without a boundary."""
    from starlette.formparsers import parse_options_header

    if not content_type:
        return None
    kind, params = parse_options_header(content_type)
    if kind != b"multipart/form-data":
        return None
    return params.get(b"boundary") or None


class FormEnd:
    """ASGI middleware: a multipart form whose body ends before its closing boundary
    (`--<boundary>--`) gets the mark `FORM_CUT` in its scope. That is an upload cut short:
    the phone's connection dropped while it sent a photo. The form parser does not check
    that the form ended (python-multipart's `finalize` does nothing) and Starlette leaves
    out a part that never ended, so such a photo was read as no photo at all; a route that
    takes a form refuses the mark (`routes.deps.whole_form`). An empty body is not marked:
    nothing was sent, so nothing was cut."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        boundary = (form_boundary(dict(scope.get("headers") or []).get(b"content-type"))
                    if scope["type"] == "http" else None)
        if boundary is None:
            await self.app(scope, receive, send)
            return
        # the close delimiter follows a line break, or opens a body of no part at all
        close = b"\r\n--" + boundary + b"--"
        tail, seen, closed = b"\r\n", 0, False

        async def watching_receive() -> dict:
            nonlocal tail, seen, closed
            msg = await receive()
            if msg["type"] == "http.request":
                body = msg.get("body", b"")
                seen += len(body)
                if not closed:  # the delimiter may be split between two chunks
                    window = tail + body
                    closed, tail = close in window, window[-(len(close) - 1):]
                if not msg.get("more_body", False) and seen and not closed:
                    scope[FORM_CUT] = True
            return msg

        await self.app(scope, watching_receive, send)


class _TooLarge(Exception):
    """The body passed the upload limit while it was being read."""


class BodyLimit:
    """ASGI middleware: HTTP request bodies over their limit get 413 and are not read further:
    `max_bytes` for a multipart form (a photo), `max_other_bytes` for any other body (JSON,
    which the app parses whole, on its one event loop, before any key is checked)."""

    def __init__(self, app: Any, max_bytes: int, max_other_bytes: int | None = None) -> None:
        self.app, self.max_bytes = app, max_bytes
        self.max_other_bytes = max_bytes if max_other_bytes is None else max_other_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        raw = scope.get("headers") or []
        types = [v for k, v in raw if k == b"content-type"]
        if len(types) > 1:  # which one the app reads is not ours to guess (a re-trial: JSON
            # first, "multipart" second, and the photo's limit let a 15 MB JSON body through)
            await self._refuse(send, 0, 0, "the request has more than one Content-Type")
            return
        form = bool(types) and types[0].lower().startswith(b"multipart/form-data")
        limit = self.max_bytes if form else self.max_other_bytes
        declared = dict(raw).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(send, int(declared), limit)
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
                if seen > limit:
                    if not started:
                        refused = True
                        await self._refuse(send, seen, limit)
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

    async def _refuse(self, send: Any, size: int, limit: int, bad: str = "") -> None:
        said = f"{limit / (1024 * 1024):.0f} MB" if limit >= 1024 * 1024 else \
            f"{limit // 1024} KB"
        body = json.dumps({"detail": bad, "error": "RequestValidationError"} if bad else
                          {"detail": f"the upload is too large ({size} bytes or more); "
                                     f"the limit is {said}", "error": "UploadTooLargeError"})
        await send({"type": "http.response.start", "status": 400 if bad else 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body.encode()})
