"""Who may do what: the box's admin key, a table's key, seat keys and view links.

- admin key: camera places (`capture`, `picamera`, `folder`), station profiles, archiving and
  deleting tables, every table's view. Header `X-Admin-Key`; kept in `<data>/admin-key`
  (0600) and shown by `referee admin-key`.
- table key: managing its table; on a Tuki table also acting for any seat. Header
  `X-Table-Secret`; the control link's fragment `#k=`.
- seat key: that seat's own actions, and the round's controls while the seat is the lookout.
  Header `X-Seat-Key`; the seat link's fragment `#s=`.
- view token: the table's view, photos, previews, QR code and live feed. `?v=TOKEN`, then an
  HttpOnly SameSite=Strict cookie `v_<table id>`.

The table key is made at creation and only its SHA-256 is stored. A seat's key is derived from
the table key (HMAC-SHA256 of "seat:<seat>:<generation>"), so the table key's holder can show
every seat's link again; the server stores only its hash and generation, and a new generation
(a seat that changes hands) makes the old key useless. The view token is stored as it is: it
opens only what anyone at the table may see. docs/server.md has the whole table.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from referee.server.files import write_synced

ADMIN_FILE = "admin-key"
Role = Literal["admin", "table", "seat", "view"]


def new_key() -> str:
    """A fresh random key: 32 URL-safe characters (192 bits)."""
    return secrets.token_urlsafe(24)


def key_hash(key: str) -> str:
    """SHA-256 hex of a key, as stored."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def same(key: str | None, stored_hash: str) -> bool:
    """Whether `key` hashes to `stored_hash` (constant time)."""
    return bool(key) and hmac.compare_digest(key_hash(key or ""), stored_hash)


def seat_key(table_key: str, seat: int, generation: int) -> str:
    """A seat's key, derived from its table's key: 32 URL-safe characters."""
    mac = hmac.new(table_key.encode(), f"seat:{seat}:{generation}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode().rstrip("=")


def seat_entry(table_key: str, seat: int, generation: int) -> str:
    """What the store keeps for a seat: "<generation>:<sha256 hex of its key>"."""
    return f"{generation}:{key_hash(seat_key(table_key, seat, generation))}"


def parse_seat_entry(value: str) -> tuple[int, str]:
    """(generation, hash) of a stored seat entry; (0, "") when unreadable (opens nothing)."""
    gen, _, digest = value.partition(":")
    try:
        return int(gen), digest
    except ValueError:
        return 0, ""


def admin_key(data_dir: Path) -> str:
    """The box's admin key, made at first start in `<data>/admin-key` (mode 0600).

    :raises OSError: the data folder cannot be written.
    """
    path = data_dir / ADMIN_FILE
    try:
        key = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        key = ""
    if len(key) >= 16:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        return key
    key = new_key()
    data_dir.mkdir(parents=True, exist_ok=True)
    write_synced(path, (key + "\n").encode(), mode=0o600)
    return key


@dataclass(frozen=True)
class Access:
    """What one request may do at one table: the strongest key it brought.

    role: "admin" (the box's key), "table" (the table's key), "seat" (a seat's key, `seat`
    set), or "view" (the view token).
    """

    role: Role
    seat: int | None = None

    @property
    def manages(self) -> bool:
        """The table key: managing the table (and, on a Tuki table, acting for any seat)."""
        return self.role == "table"


@dataclass(frozen=True)
class Credentials:
    """The keys a request brought (each may be absent)."""

    admin: str | None = None
    table: str | None = None
    seat: str | None = None
    view: str | None = None

    @property
    def any_key(self) -> bool:
        return bool(self.admin or self.table or self.seat)


def resolve(table_id: str, creds: Credentials, table_hash: str,
            seats: list[tuple[int, str]], admin: str, view_token: str) -> Access:
    """What a request's keys open at one table: its table key, else a seat key (`seats`:
    (seat, stored hash) pairs), else the box's admin key, else the view token. Constant-time
    comparisons throughout.

    :raises MissingSecretError: no key and no view link; WrongSecretError: keys, none of
        which is this table's (or a view link that is not).
    """
    from referee.server.errors import MissingSecretError, WrongSecretError

    found: list[Access] = []
    if creds.table and same(creds.table, table_hash):
        found.append(Access("table"))
    if creds.seat:
        found += [Access("seat", seat) for seat, digest in seats
                  if digest and same(creds.seat, digest)]
    if creds.admin and admin and hmac.compare_digest(creds.admin.encode("utf-8", "replace"),
                                                     admin.encode()):
        found.append(Access("admin"))
    if found:
        return found[0]
    if creds.any_key:
        raise WrongSecretError(f"table {table_id!r}: the key does not match (a seat that "
                               "changed hands gets a new link)")
    if creds.view and view_token and hmac.compare_digest(
            creds.view.encode("utf-8", "replace"), view_token.encode()):
        return Access("view")
    if creds.view:
        raise WrongSecretError(f"table {table_id!r}: this view link is not the table's; scan "
                               "the table's QR code again")
    raise MissingSecretError(f"table {table_id!r}: open the table's link (scan its QR code); "
                             "the table's id alone opens nothing")
