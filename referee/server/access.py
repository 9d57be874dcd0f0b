"""Who may do what at a table: its keys read and made, a request's keys checked, a seat's
key given anew, and each command's right checked (referee.server.keys has the model;
docs/server.md "Who may do what")."""

from __future__ import annotations

import hmac
from typing import Any

from referee.server.errors import (
    ConflictError,
    ForbiddenError,
    MissingSecretError,
    UnknownSeatError,
    WrongSecretError,
)
from referee.server.keys import (
    Access,
    Credentials,
    new_key,
    parse_seat_entry,
    resolve,
    same,
    seat_entry,
    seat_key,
)
from referee.server.service_base import ServiceBase
from referee.server.table import Table


class KeysAndAccess(ServiceBase):
    """The table service's keys: what a request's keys open, and who may act for whom."""

    def _take_keys(self, table: Table, keys: dict[str, str]) -> None:
        for name, value in keys.items():
            if name == "view":
                table.view_token = value
            elif name.startswith("seat:") and name[5:].isdigit():
                table.seat_keys[int(name[5:])] = parse_seat_entry(value)

    def _read_keys(self, table: Table) -> None:
        assert self.store is not None
        self._take_keys(table, self.store.keys(table.id))

    def _ensure_keys(self, table: Table, secret: str) -> None:
        """Give a table made before view links and seat keys existed its view token and seat
        keys, once its table key is known (one transaction)."""
        assert self.store is not None
        missing: dict[str, str] = {}
        if not table.view_token:
            missing["view"] = new_key()
        for i in range(len(table.state.players)):
            if i not in table.seat_keys:
                missing[f"seat:{i}"] = seat_entry(secret, i, 1)
        if missing:
            self.store.set_keys(table.id, missing)
            self._take_keys(table, missing)

    def check_admin(self, key: str | None) -> None:
        """:raises MissingSecretError, WrongSecretError: not the box's admin key."""
        if not key:
            raise MissingSecretError("this needs the box's admin key (`referee admin-key` "
                                     "shows it)")
        if not (self.admin_key and hmac.compare_digest(key.encode("utf-8", "replace"),
                                                       self.admin_key.encode())):
            raise WrongSecretError("the admin key does not match (`referee admin-key` shows "
                                   "it)")

    def access(self, table_id: str, creds: Credentials) -> Access:
        """What the keys of a request open at a table: the table key, else a seat key, else
        the admin key, else the view token.

        :raises UnknownTableError, DamagedTableError; MissingSecretError: no key and no view
            link; WrongSecretError: keys, none of which is this table's.
        """
        table = self.get(table_id)
        if creds.table and same(creds.table, table.admin_hash):
            self._ensure_keys(table, creds.table)  # a table made before seats had keys
        return resolve(table_id, creds, table.admin_hash,
                       [(seat, digest) for seat, (_, digest) in table.seat_keys.items()],
                       self.admin_key, table.view_token)

    def seats(self, table_id: str, table_key: str) -> list[dict[str, Any]]:
        """Each seat: its name and its current key, for its private link and QR code.

        :raises MissingSecretError, WrongSecretError: not the table's key.
        """
        table = self._managed(table_id, table_key)
        return [{"seat": i, "name": n,
                 "key": seat_key(table_key, i, table.seat_keys.get(i, (1, ""))[0])}
                for i, n in enumerate(table.state.players)]

    def _managed(self, table_id: str, table_key: str) -> Table:
        """The table, once `table_key` is its key.

        :raises MissingSecretError, WrongSecretError:
        """
        table = self.get(table_id)
        if not table_key:
            raise MissingSecretError(f"table {table_id!r}: this needs the table's key (open "
                                     "its control link)")
        if self.access(table_id, Credentials(table=table_key)).role != "table":
            raise WrongSecretError(f"table {table_id!r}: this needs the table's key")
        return table

    def new_seat_key(self, table_id: str, seat: int, table_key: str) -> dict[str, Any]:
        """Give a seat a new key (its phone changed hands): the old one opens nothing more.

        :raises MissingSecretError, WrongSecretError: not the table's key;
            UnknownSeatError: no such seat; ConflictError: the table is archived (read, never
            played again: no seat changes hands, as at a card table).
        """
        table = self._managed(table_id, table_key)
        if not 0 <= seat < len(table.state.players):
            raise UnknownSeatError(f"table {table_id!r} has no seat {seat}")
        assert self.store is not None
        with table.lock:
            if table.archived:
                raise ConflictError(f"table {table_id!r} is archived: it can be read, not "
                                    "played")
            gen = table.seat_keys.get(seat, (0, ""))[0] + 1
            entry = seat_entry(table_key, seat, gen)
            self.store.set_keys(table_id, {f"seat:{seat}": entry})
            self._take_keys(table, {f"seat:{seat}": entry})
        self.hub.publish(table_id, table.seq)  # its phones are asked to say hello again
        return {"seat": seat, "name": table.state.players[seat],
                "key": seat_key(table_key, seat, gen)}

    def _may(self, table: Table, who: Access, seat: int | None = None,
             lookout: bool = False) -> None:
        """:raises ForbiddenError: `who` may not act for `seat` (or as the lookout);
        ConflictError: the table is archived; UnknownSeatError: the table has no `seat`."""
        if table.archived:
            raise ConflictError(f"table {table.id!r} is archived: it can be read, not played")
        if seat is not None and not 0 <= seat < len(table.state.players):
            raise UnknownSeatError(f"table {table.id!r} has no seat {seat}")
        if who.role == "table":
            return
        st = table.state
        if who.role == "seat" and seat is not None and who.seat == seat:
            return
        if who.role == "seat" and lookout and who.seat == st.lookout:
            return
        if who.role == "seat" and lookout:
            raise ForbiddenError("only the lookout (or the table's owner) runs the round")
        if who.role == "seat":
            raise ForbiddenError("a seat's link acts for its own seat only")
        raise ForbiddenError("this link only watches the table; acting needs the table's "
                             "control link or a seat's link")
