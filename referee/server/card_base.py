"""What the card table service's parts share (cardtables.CardTableService puts them
together): the settings, the store, the tables, the bots' worker, and the steps they call
on one another (`get`, `_seat_of`, `_apply`, `_playable`)."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from referee.server.cardtable import CardTable
from referee.server.errors import ConflictError
from referee.server.live import LiveHub
from referee.server.settings import Settings
from referee.server.storage import EventStore

if TYPE_CHECKING:
    from referee.server.card_bots import BotQueue


class CardServiceBase(ABC):
    """The state the parts of the card table service share; `CardTableService` sets it up
    and gives the steps below."""

    settings: Settings
    hub: LiveHub
    store: EventStore
    tables: dict[str, CardTable]
    damaged: dict[str, str]
    _lock: threading.Lock
    _bots: BotQueue
    _closed: bool

    @abstractmethod
    def get(self, table_id: str) -> CardTable:
        """The table. :raises UnknownTableError, DamagedTableError:"""

    @abstractmethod
    def _seat_of(self, table: CardTable, seat: int, seat_key_text: str | None) -> None:
        """:raises UnknownTableError, MissingSecretError, ForbiddenError, WrongSecretError:
        the key is not this seat's."""

    @abstractmethod
    def _apply(self, table: CardTable, seat: int, text: str) -> None:
        """Check an action on a copy of the state, store it, then take the copy.
        :raises IllegalMoveError:"""

    @staticmethod
    def _playable(table: CardTable) -> None:
        """:raises ConflictError: the table is archived (read only)."""
        if table.archived:
            raise ConflictError(f"table {table.id!r} is archived: it can be read, not played",
                                "table.archived")
