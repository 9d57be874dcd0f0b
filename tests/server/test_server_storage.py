"""The SQLite event store: WAL, numbering, one transaction per command, durability."""

from __future__ import annotations

import sqlite3

import pytest

from referee.server.storage import EventStore, StorageError


def test_events_are_numbered_and_survive_reopening(tmp_path):
    db = tmp_path / "r.sqlite3"
    s = EventStore(db)
    s.create_table("t1", {"name": "x"}, "h")
    assert [e.seq for e in s.append_many("t1", [("a", {"n": 1}), ("b", {"n": 2})])] == [1, 2]
    assert s.append("t1", "c", {"n": 3}).seq == 3
    s.close()
    s2 = EventStore(db)
    assert [(e.seq, e.kind, e.payload) for e in s2.events("t1", after=1)] == [
        (2, "b", {"n": 2}), (3, "c", {"n": 3})]
    assert s2.table("t1").config == {"name": "x"} and s2.table("zz") is None
    mode = sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_stale_writer_stores_nothing(tmp_path):
    s = EventStore(tmp_path / "r.sqlite3")
    s.create_table("t1", {}, "h")
    s.append("t1", "a", {})
    with pytest.raises(StorageError, match="moved on"):
        s.append_many("t1", [("b", {}), ("c", {})], expect_seq=1)
    assert [e.kind for e in s.events("t1")] == ["a"]


def test_a_failing_command_leaves_no_half(tmp_path):
    s = EventStore(tmp_path / "r.sqlite3")
    s.create_table("t1", {}, "h")
    with pytest.raises(TypeError):
        s.append_many("t1", [("a", {}), ("b", {"x": object()})])  # not JSON: nothing stored
    assert s.events("t1") == []
