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


def _corrupt_pages(db, *names: str) -> None:
    """Overwrite the root pages of the named tables' b-trees and their indexes (a disk's
    damage): reading them then fails with `database disk image is malformed`."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = con.execute("PRAGMA page_size").fetchone()[0]
    roots = [r for (r,) in con.execute("SELECT rootpage FROM sqlite_master WHERE tbl_name "
                                       f"IN ({','.join('?' * len(names))}) AND rootpage > 0",
                                       names)]
    con.close()
    data = bytearray(db.read_bytes())
    for r in roots:
        data[(r - 1) * size:r * size] = b"A" * size
    db.write_bytes(bytes(data))


def test_a_database_whose_events_are_damaged_sets_each_table_aside_in_plain_words(tmp_path):
    """A break-it trial: the events' pages overwritten, the server stopped at its start with
    a 53-line traceback. The file opens; each table's events cannot be read, which sets it
    aside like any damage (`TableService.open`), in plain words."""
    db = tmp_path / "r.sqlite3"
    s = EventStore(db)
    s.create_table("t1", {}, "h")
    s.append("t1", "a", {})
    s.close()
    _corrupt_pages(db, "events")
    s = EventStore(db)
    s.check()  # its tables and keys are readable, and it can be written
    with pytest.raises(StorageError, match="'t1': its stored events cannot be read"):
        s.drop_unfinished("t1")
    s.close()
    _corrupt_pages(db, "tables")
    s = EventStore(db)
    with pytest.raises(StorageError, match="is damaged .*restore it from a backup"):
        s.check()
    s.close()


def test_a_database_another_program_holds_is_named_so(tmp_path):
    """A break-it trial: a file held by another program (BEGIN EXCLUSIVE) stopped the server
    at its start with a traceback; it says the file is in use, and by what, likely."""
    db = tmp_path / "r.sqlite3"
    EventStore(db).close()
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        s = EventStore.__new__(EventStore)  # the constructor's own writes would wait too
        s._db = sqlite3.connect(db, check_same_thread=False, isolation_level=None, timeout=0.1)
        s._lock = __import__("threading").Lock()
        s.path = db
        with pytest.raises(StorageError, match="in use by another program"):
            s.check()
    finally:
        other.execute("ROLLBACK")
        other.close()
