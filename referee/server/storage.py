"""The SQLite event store: tables and their events, one transaction per command (WAL).

Nothing is kept only in memory: a table's state is rebuilt by replaying its events, so a crash
or power cut mid-game loses at most the request in flight. The events of one command (a
"done" and the round end it causes, say) are stored in one transaction, so a replay never
sees half a command; a table's row, its secret's hash and its `game_started` are stored in
one transaction too, so no crash leaves a table that nobody controls. `synchronous=FULL`
makes every committed event durable before the request that made it returns.

Schema:
  tables(id, created_at, config JSON, admin_hash)   admin_hash = sha256 hex of the table key
  events(table_id, seq 1.., at, kind, payload JSON)
  keys(table_id, name, value)   the table's other keys (referee.server.keys): "view" -> the
                                view token; "seat:N" -> "<generation>:<sha256 hex>"
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RefereeError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY,
  created_at REAL NOT NULL,
  config TEXT NOT NULL,
  admin_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seq INTEGER NOT NULL,
  at REAL NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS keys (
  table_id TEXT NOT NULL REFERENCES tables(id),
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (table_id, name)
);
"""


class StorageError(RefereeError):
    """The database cannot be opened or written; the message names the file."""


@dataclass(frozen=True)
class StoredEvent:
    """One stored event: `seq` counts from 1 per table; `at` is Unix seconds."""

    table_id: str
    seq: int
    at: float
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class StoredTable:
    id: str
    created_at: float
    config: dict[str, Any]
    admin_hash: str


class EventStore:
    """A thread-safe store over one SQLite file; every write (a command) is one transaction."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as e:
            raise StorageError(f"cannot open the database {str(path)!r}: {e}") from e
        self._lock = threading.Lock()
        self.path = path

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def check(self) -> None:
        """That the server can start on this database: its list of tables readable, and a
        write possible (no other program holds it).

        :raises StorageError: in plain words, naming the file (a break-it trial: a damaged
            or locked file stopped the server with a 53-line traceback).
        """
        with self._lock:
            try:
                self._db.execute("SELECT count(*) FROM tables").fetchone()
                self._db.execute("SELECT count(*) FROM keys").fetchone()
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("ROLLBACK")
            except sqlite3.OperationalError as e:
                self._rollback()
                if "locked" in str(e) or "busy" in str(e):
                    raise StorageError(f"the database {str(self.path)!r} is in use by another "
                                       "program (another referee server on this data "
                                       "folder?); stop it, or choose another --data") from None
                raise StorageError(f"cannot use the database {str(self.path)!r}: {e}") from None
            except sqlite3.DatabaseError as e:
                self._rollback()
                raise StorageError(f"the database {str(self.path)!r} is damaged ({e}): restore "
                                   "it from a backup, or move it away to start with no tables "
                                   "(choose another --data)") from None

    def _insert_events(self, table_id: str, first_seq: int, at: float,
                       items: Sequence[tuple[str, dict[str, Any]]]) -> list[StoredEvent]:
        """Insert `items` as events `first_seq`, `first_seq + 1`, ... inside the caller's
        transaction (the lock held); the stored events."""
        out = []
        for seq, (kind, payload) in enumerate(items, first_seq):
            self._db.execute("INSERT INTO events (table_id, seq, at, kind, payload) "
                             "VALUES (?, ?, ?, ?, ?)",
                             (table_id, seq, at, kind, json.dumps(payload)))
            out.append(StoredEvent(table_id, seq, at, kind, payload))
        return out

    def create_table(self, table_id: str, config: dict[str, Any], admin_hash: str,
                     items: Sequence[tuple[str, dict[str, Any]]] = (),
                     keys: dict[str, str] | None = None) -> list[StoredEvent]:
        """The table's row (with its key's hash), its other keys and its first events
        (`game_started`), in one transaction: a crash leaves the whole table or nothing. The
        stored events."""
        out: list[StoredEvent] = []
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                at = time.time()
                self._db.execute(
                    "INSERT INTO tables (id, created_at, config, admin_hash) "
                    "VALUES (?, ?, ?, ?)", (table_id, at, json.dumps(config), admin_hash))
                self._put_keys(table_id, keys or {})
                out = self._insert_events(table_id, 1, at, items)
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return out

    def _put_keys(self, table_id: str, keys: dict[str, str]) -> None:
        for name, value in keys.items():
            self._db.execute("INSERT OR REPLACE INTO keys (table_id, name, value) "
                             "VALUES (?, ?, ?)", (table_id, name, value))

    def set_keys(self, table_id: str, keys: dict[str, str]) -> None:
        """Add or replace some of a table's keys (a seat's new key, say), in one transaction."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._put_keys(table_id, keys)
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    def keys(self, table_id: str) -> dict[str, str]:
        """The table's keys by name (those that are readable text)."""
        with self._lock:
            rows = self._db.execute("SELECT name, value FROM keys WHERE table_id = ?",
                                    (table_id,)).fetchall()
        return {n: v for n, v in rows if isinstance(n, str) and isinstance(v, str)}

    def delete_table(self, table_id: str) -> None:
        """Delete a table: its keys, events and row, in one transaction."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for sql in ("DELETE FROM keys WHERE table_id = ?",
                            "DELETE FROM events WHERE table_id = ?",
                            "DELETE FROM tables WHERE id = ?"):
                    self._db.execute(sql, (table_id,))
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def drop_unfinished(self, table_id: str) -> bool:
        """Delete a table row that has no event (a creation cut short by a crash before
        creations were one transaction; nobody was ever given its secret). Whether it did.

        :raises StorageError: the table's stored data cannot be read (a damaged file)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("DELETE FROM keys WHERE table_id = ? AND NOT EXISTS "
                                 "(SELECT 1 FROM events WHERE table_id = ?)",
                                 (table_id, table_id))
                cur = self._db.execute(
                    "DELETE FROM tables WHERE id = ? AND NOT EXISTS "
                    "(SELECT 1 FROM events WHERE table_id = ?)", (table_id, table_id))
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as e:
                self._rollback()
                if isinstance(e, sqlite3.OperationalError) and "locked" in str(e):
                    raise
                raise StorageError(f"table {table_id!r}: its stored events cannot be read "
                                   f"({e})") from None
            except BaseException:
                self._rollback()
                raise
        return cur.rowcount > 0

    def set_admin_hash(self, table_id: str, admin_hash: str) -> None:
        """Give a table a new secret (its hash), in one transaction."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("UPDATE tables SET admin_hash = ? WHERE id = ?",
                                 (admin_hash, table_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    def table(self, table_id: str) -> StoredTable | None:
        """:raises StorageError: the table's stored row cannot be read back (damaged)."""
        with self._lock:
            row = self._db.execute("SELECT id, created_at, CAST(config AS BLOB), admin_hash "
                                   "FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        try:
            config = _decode(row[2])
        except StorageError:
            config = None
        if not isinstance(config, dict) or not isinstance(row[3], str):
            raise StorageError(f"table {table_id!r}: its stored settings are damaged")
        return StoredTable(row[0], row[1], config, row[3])

    def table_ids(self) -> list[str]:
        """Every table's id, oldest first (an id that is not readable text is skipped)."""
        with self._lock:
            rows = self._db.execute("SELECT CAST(id AS BLOB) FROM tables "
                                    "ORDER BY created_at").fetchall()
        out = []
        for (raw,) in rows:
            try:
                out.append(bytes(raw).decode("utf-8"))
            except (TypeError, UnicodeDecodeError):
                continue
        return out

    def append(self, table_id: str, kind: str, payload: dict[str, Any]) -> StoredEvent:
        """Store one event in its own transaction; return it with its sequence number."""
        return self.append_many(table_id, [(kind, payload)])[0]

    def append_many(self, table_id: str, items: list[tuple[str, dict[str, Any]]],
                    expect_seq: int | None = None,
                    keys: dict[str, str] | None = None) -> list[StoredEvent]:
        """Store the events of one command together, in one transaction, numbered in order,
        with the keys it adds or replaces (`keys`: a seat's new key beside its `seat_bot`),
        so that a crash never leaves a key without its event or the other way round.

        expect_seq: if given, the first event must get exactly this number (nobody appended
            since the caller read the table); else StorageError and nothing is stored.
        """
        out: list[StoredEvent] = []
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                (last,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events "
                                           "WHERE table_id = ?", (table_id,)).fetchone()
                if expect_seq is not None and last + 1 != expect_seq:
                    raise StorageError(f"table {table_id!r} moved on: next event {last + 1}, "
                                       f"expected {expect_seq}")
                self._put_keys(table_id, keys or {})
                out = self._insert_events(table_id, last + 1, time.time(), items)
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return out

    def events(self, table_id: str, after: int = 0) -> list[StoredEvent]:
        """The table's events with seq > `after`, in order.

        :raises StorageError: a stored event cannot be read back (damaged), naming its number.
        """
        with self._lock:
            rows = self._db.execute("SELECT seq, at, CAST(kind AS BLOB), CAST(payload AS BLOB) "
                                    "FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
                                    (table_id, after)).fetchall()
        out = []
        for seq, at, kind, payload in rows:
            try:
                k = bytes(kind).decode("utf-8")
                p = _decode(payload)
                if not isinstance(p, dict) or not isinstance(seq, int):
                    raise ValueError("not an event")
                out.append(StoredEvent(table_id, seq, float(at), k, p))
            except (TypeError, ValueError, StorageError):
                raise StorageError(f"table {table_id!r}: stored event {seq} is damaged") \
                    from None
        return out


def _decode(raw: Any) -> Any:
    """JSON from a stored column read as bytes. :raises StorageError: not UTF-8 JSON."""
    try:
        return json.loads(bytes(raw).decode("utf-8"))
    except (TypeError, ValueError) as e:  # UnicodeDecodeError and JSONDecodeError included
        raise StorageError("a stored value is not readable JSON") from e
