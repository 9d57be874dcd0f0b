"""The card tables' seats: who holds which seat and how a phone takes one
(docs/server.md "Card games at the table", "Keys"; cardtables.CardTableService puts the parts
together).

A person's seat starts with an invitation derived from the table key (so the owner can show
its link again); it opens nothing but `claim`, which gives the phone that opens the link a
random key of its own and makes the invitation useless, so nobody else who saw the link (the
owner) can read that seat without the player's link failing. A seat taken with the room code
(`join`) gets a random key at once. The owner's list (`seats`) shows only invitations; a
taken seat is `joined`, without a key. Handing a seat to a bot or back (`set_bot`) makes a
new generation: the old key opens nothing more.
"""

from __future__ import annotations

import secrets
import time
from abc import abstractmethod
from collections import deque
from typing import Any

from referee.games.engine import State
from referee.server.card_base import CardServiceBase
from referee.server.cardtable import CardTable
from referee.server.errors import (
    ConflictError,
    ForbiddenError,
    MissingSecretError,
    TableLimitError,
    UnknownSeatError,
    UnknownTableError,
    WrongSecretError,
)
from referee.server.keys import Access, Credentials, key_hash, new_key, same, seat_entry, seat_key
from referee.server.text import default_seat_name, name_key

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud at a table
CODE_LEN = 5
JOINS_PER_MINUTE = 12  # room-code attempts per client address


def room_code(text: str) -> str:
    """A room code as typed ("l9 prz", "L9-PRZ") as it is kept: upper case, without the
    spaces and hyphens people put in to read it aloud."""
    return "".join(c for c in text.upper() if c not in " -")


class JoinLimitError(TableLimitError):
    """Too many room-code attempts from one address (429)."""


class CardSeats(CardServiceBase):
    """The card table service's seats: the owner's list, room codes, invitations
    claimed, seats handed to bots and back."""

    codes: dict[str, str]  # room code -> table id
    _joins: dict[str, deque[float]]  # room-code attempts per client address

    @abstractmethod
    def access(self, table_id: str, creds: Credentials) -> Access:
        """What a request's keys open at a card table.
        :raises UnknownTableError, MissingSecretError, WrongSecretError:"""

    @abstractmethod
    def _managed(self, table_id: str, table_key: str | None) -> CardTable:
        """The table, for its owner. :raises MissingSecretError, WrongSecretError:"""

    @abstractmethod
    def _commit(self, table: CardTable, items: list[tuple[str, dict[str, Any]]],
                applied: State | None = None, keys: dict[str, str] | None = None) -> None:
        """Store events and keys in one transaction, fold them, wake phones and bots.
        :raises StorageError:"""

    @staticmethod
    def _invited(table: CardTable, key: str) -> int | None:
        """The seat whose unclaimed invitation `key` is (a person's seat whose key is still
        derived from the table key), else None."""
        for i, s in enumerate(table.seats):
            if s.bot is None and not s.joined and s.digest and same(key, s.digest):
                return i
        return None

    def seats(self, table_id: str, table_key: str | None) -> list[dict[str, Any]]:
        """Each seat for the owner: name, bot, open, joined, and the invitation key of a
        person's seat that nobody has taken yet (derived from the table key); a seat taken by
        its player (its link opened, or the room code) is `joined`, its key its phone's
        alone. :raises MissingSecretError, WrongSecretError:"""
        table = self._managed(table_id, table_key)
        assert table_key is not None
        return [{"seat": i, "name": s.name, "bot": s.bot, "open": s.open, "joined": s.joined,
                 "key": (seat_key(table_key, i, s.generation)
                         if s.name is not None and s.bot is None and not s.joined else None)}
                for i, s in enumerate(table.seats)]

    def join(self, code: str, name: str, client: str = "") -> dict[str, Any]:
        """Claim the first open seat of the table with this room code.

        :raises JoinLimitError: too many attempts from `client`; UnknownTableError: no such
            code; ConflictError: no open seat, or the name is taken at that table.
        """
        now = time.monotonic()
        with self._lock:
            tries = self._joins.setdefault(client, deque())
            while tries and now - tries[0] > 60:
                tries.popleft()
            if len(tries) >= JOINS_PER_MINUTE:
                raise JoinLimitError("too many tries with room codes from this phone; wait a "
                                     "minute")
            tries.append(now)
            if len(self._joins) > 10000:  # bounded: forget the oldest addresses
                self._joins.pop(next(iter(self._joins)))
            table_id = self.codes.get(room_code(code))
        if table_id is None or table_id not in self.tables:
            raise UnknownTableError("no table has this room code; check it with the table's "
                                    "screen", "table.code-unknown")
        table = self.tables[table_id]
        with table.lock:
            self._playable(table)
            open_seats = [i for i, s in enumerate(table.seats) if s.open]
            if not open_seats or table.ended:
                raise ConflictError("this table has no open seat left", "table.no-open-seat")
            if any(s.name is not None and name_key(s.name) == name_key(name)
                   for s in table.seats):
                raise ConflictError("someone at this table already has this name; choose "
                                    "another", "table.name-taken")
            seat = open_seats[0]
            key = new_key()
            gen = table.seats[seat].generation + 1
            self._commit(table, [("seat_claimed", {"seat": seat, "name": name})],
                         keys={f"seat:{seat}": f"{gen}:{key_hash(key)}"})
        return {"id": table.id, "seat": seat, "name": name, "key": key,
                "link": f"/g/{table.id}?v={table.view_token}#s={key}"}

    def claim(self, table_id: str, key: str | None) -> dict[str, Any]:
        """A phone takes its seat with the invitation the owner handed out: the seat gets a
        random key that only this phone has (one transaction with a `seat_claimed` event),
        and the invitation opens nothing more, so nobody else who saw it (the owner) can read
        the seat unnoticed. The key of a seat already taken comes back unchanged (the same
        phone opening its link again).

        :raises MissingSecretError: no key; ForbiddenError (`table.link-taken`): the
            invitation was taken by another phone; WrongSecretError: neither an invitation
            nor a taken seat's key of this table (mistyped, or replaced by a new link).
        """
        table = self.get(table_id)
        if not key:
            raise MissingSecretError("this needs the seat's link (its key)")
        with table.lock:
            self._playable(table)
            seat = self._invited(table, key)
            if seat is None:
                if any(same(key, h) for h in table.spent.values()):
                    raise ForbiddenError("this seat's link was already opened on another "
                                         "phone, and only that phone plays the seat; ask the "
                                         "table's owner for a new link", "table.link-taken")
                who = self.access(table_id, Credentials(seat=key))
                if who.role != "seat" or who.seat is None:
                    raise WrongSecretError("this is not a seat's link")
                seat, fresh = who.seat, key
            else:
                fresh = new_key()
                gen = table.seats[seat].generation + 1
                self._commit(table, [("seat_claimed", {"seat": seat,
                                                       "name": table.seats[seat].name})],
                             keys={f"seat:{seat}": f"{gen}:{key_hash(fresh)}",
                                   f"spent:{seat}": key_hash(key)})
            name = str(table.seats[seat].name)
        return {"id": table.id, "seat": seat, "name": name, "key": fresh,
                "link": f"/g/{table.id}?v={table.view_token}#s={fresh}"}

    def set_bot(self, table_id: str, seat: int, bot: str | None, table_key: str | None
                ) -> dict[str, Any]:
        """The owner gives a seat to a bot (a level) or back to a person (None): a new key
        generation either way, so the old key opens nothing more (its player notices). Back
        to a person (also a person's seat whose phone lost its link), the owner gets a new
        invitation, which opens the seat only once a phone takes it (`claim`).

        :raises MissingSecretError, WrongSecretError; UnknownSeatError: no such seat."""
        table = self._managed(table_id, table_key)
        assert table_key is not None
        if not 0 <= seat < len(table.seats):
            raise UnknownSeatError(f"table {table_id!r} has no seat {seat}")
        with table.lock:
            self._playable(table)
            s = table.seats[seat]
            gen = s.generation + 1
            name = s.name or default_seat_name(
                bool(bot), seat, [o.name for i, o in enumerate(table.seats) if i != seat])
            entry = f"{gen}:" if bot else seat_entry(table_key, seat, gen)
            self._commit(table, [("seat_bot", {"seat": seat, "bot": bot, "name": name})],
                         keys={f"seat:{seat}": entry})
            key = None if bot else seat_key(table_key, seat, gen)
        return {"seat": seat, "name": name, "bot": bot, "key": key,
                "link": None if key is None else f"/g/{table.id}?v={table.view_token}#s={key}"}

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LEN))
            if code not in self.codes:
                return code
