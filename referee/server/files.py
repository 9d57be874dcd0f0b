"""Files that survive a crash or a power cut: written whole or not at all, their folders
synced (the photos of "done", the demo table's secret)."""

from __future__ import annotations

import os
from pathlib import Path


def sync_dir(path: Path) -> None:
    """Make a folder's entries (a rename, a new file or folder in it) durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_synced(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write a file whole or not at all: a temporary file, synced, renamed over `path`, and
    the folder synced so that the rename survives a power cut."""
    tmp = path.with_name(path.name + ".part")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    sync_dir(path.parent)


def private_folder(path: Path) -> None:
    """Make the box's data folder, readable by its own user only (0700), and close one that
    other users of the box could open: it holds every card game's seed (so every hand), the
    view tokens and the phones' photos (a break-it trial found them readable by anyone on
    the box, where the admin key alone was 0600). A folder of another user is left alone.

    :raises OSError: the folder cannot be made.
    """
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = path.stat()
    if st.st_uid == os.getuid() and st.st_mode & 0o077:
        os.chmod(path, 0o700)
