"""Reading a user's files with a bound: never more than a file of its kind can hold, so that
a path that names a video, a photo or /dev/zero by mistake is refused in words instead of
read whole into memory. Text files (station profiles, card and build grids, photo labels,
vision settings) hold at most `MAX_TEXT_BYTES`; photos are bounded by `vision.photo`."""

from __future__ import annotations

import os
from pathlib import Path

MAX_TEXT_BYTES = 1_000_000  # such a file is a few kB; a megabyte is no profile or grid


class FileTooLargeError(ValueError):
    """A file larger than its kind can be (left unread past that)."""


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of a file of at most `limit` bytes: one that says it is larger is not read
    at all, and a device or pipe is read no further than `limit` + 1.

    :raises OSError: it cannot be opened or read. FileTooLargeError: it holds more than
        `limit` bytes.
    """
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size > limit:
            raise FileTooLargeError(f"{path} holds more than {limit} bytes")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise FileTooLargeError(f"{path} holds more than {limit} bytes")
    return data


def read_small_text(path: str | Path, encoding: str = "utf-8") -> str:
    """The text of a small file, decoded.

    :raises OSError: it cannot be opened or read. FileTooLargeError (a ValueError): it holds
        more than `MAX_TEXT_BYTES`. UnicodeDecodeError (a ValueError): it is not `encoding`.
    """
    try:
        data = read_bounded(path, MAX_TEXT_BYTES)
    except FileTooLargeError:
        raise FileTooLargeError(f"{path} is larger than {MAX_TEXT_BYTES // 1_000_000} MB: not "
                                "a text file the referee reads (a photo or video named by "
                                "mistake?)") from None
    return data.decode(encoding)
