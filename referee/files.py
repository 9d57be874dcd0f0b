"""Reading a user's small text files (station profiles, card and build grids, photo labels,
vision settings): never more than `MAX_TEXT_BYTES`, so that a path that names a video, a
photo or /dev/zero by mistake is refused in words instead of read whole into memory."""

from __future__ import annotations

from pathlib import Path

MAX_TEXT_BYTES = 1_000_000  # such a file is a few kB; a megabyte is no profile or grid


class TextTooLargeError(ValueError):
    """A text file larger than `MAX_TEXT_BYTES` (left unread past that)."""


def read_small_text(path: str | Path, encoding: str = "utf-8") -> str:
    """The text of a small file, decoded.

    :raises OSError: it cannot be opened or read. TextTooLargeError (a ValueError): it holds
        more than `MAX_TEXT_BYTES`. UnicodeDecodeError (a ValueError): it is not `encoding`.
    """
    with open(path, "rb") as f:
        data = f.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise TextTooLargeError(f"{path} is larger than {MAX_TEXT_BYTES // 1_000_000} MB: not "
                                "a text file the referee reads (a photo or video named by "
                                "mistake?)")
    return data.decode(encoding)
