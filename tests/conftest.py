"""Fixtures shared by every test package."""

from __future__ import annotations

import pathlib

import pytest


@pytest.fixture
def huge_file(tmp_path, monkeypatch):
    """A 1 GB file named `name` (sparse: no disk used) starting with JPEG's magic bytes, and
    `Path.read_bytes` made to fail on it: what reads it whole, whatever its size, fails."""
    real = pathlib.Path.read_bytes

    def read_bytes(self):
        assert self.stat().st_size < 1 << 30, "read a 1 GB file whole"
        return real(self)

    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)

    def make(name: str = "clip.jpg") -> pathlib.Path:
        path = tmp_path / name
        with open(path, "wb") as f:
            f.write(b"\xff\xd8\xff")
            f.truncate(1 << 30)
        return path

    return make
