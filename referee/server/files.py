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
