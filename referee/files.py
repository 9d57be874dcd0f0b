"""Reading a user's files with a bound: never more than a file of its kind can hold, so that
a path that names a video, a photo or /dev/zero by mistake is refused in words instead of
read whole into memory. Text files (station profiles, card and build grids, photo labels,
vision settings) hold at most `MAX_TEXT_BYTES`; photos are bounded by `vision.photo`."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

import yaml

MAX_TEXT_BYTES = 1_000_000  # such a file is a few kB; a megabyte is no profile or grid


class FileTooLargeError(ValueError):
    """A file larger than its kind can be (left unread past that)."""


def open_for_reading(path: str | Path) -> BinaryIO:
    """`path` opened for reading bytes, as `open(path, "rb")`, except that a named pipe with
    no writer reads as empty instead of blocking at open (a break-it trial: a FIFO given as
    the photo hung `referee judge`). A pipe being written to (the shell's `<(...)`) still
    reads all its writer sends.

    :raises OSError: it cannot be opened.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):  # named by its path, not by the fd number
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        os.set_blocking(fd, True)  # opened without waiting; read as usual
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of a file of at most `limit` bytes: one that says it is larger is not read
    at all, and a device or pipe is read no further than `limit` + 1.

    :raises OSError: it cannot be opened or read. FileTooLargeError: it holds more than
        `limit` bytes.
    """
    with open_for_reading(path) as f:
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


class _NoAliasLoader(yaml.SafeLoader):
    """PyYAML's safe loader without aliases: `*name` may repeat an anchored list in every
    place it names, so 800 bytes of nested aliases expand to billions of items ("billion
    laughs"). A station profile or a settings file has no use for them."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "it repeats a part by an alias (*name), which the referee does "
                "not read: write the values out", event.start_mark)
        return super().compose_node(parent, index)


def load_user_yaml(text: str) -> Any:
    """A user's YAML text (a station profile, vision settings) as Python data, safely: no
    tags that make objects (`yaml.safe_load`'s rule) and no aliases (`_NoAliasLoader`).

    :raises yaml.YAMLError: not valid YAML, or it holds an alias. ValueError: an integer of
        more digits than Python converts (4300).
    """
    return yaml.load(text, Loader=_NoAliasLoader)  # noqa: S506 (a SafeLoader subclass)
