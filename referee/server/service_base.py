"""What the table service's parts share (tables.TableService puts them together): the
settings, the store, the tables, the cameras, and the two steps every command ends with
(`_decide` by the rules, `_commit` to the store)."""

from __future__ import annotations

import logging
import os
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from referee.paths import ROOT
from referee.server.camera_pool import CameraPool
from referee.server.live import LiveHub
from referee.server.settings import Settings
from referee.server.storage import EventStore
from referee.server.table import Table

log = logging.getLogger("referee.server")


def plain_words(text: str, *folders: Path) -> str:
    """A message without the server's own folders: the project's and `folders` (the data
    folder) become relative, so that no server path reaches a user."""
    for folder in (ROOT, *folders):
        text = text.replace(str(folder) + os.sep, "").replace(str(folder), ".")
    return text


class ServiceBase(ABC):
    """The state the parts of the table service share; `TableService` sets it up and gives
    the three steps below."""

    settings: Settings
    hub: LiveHub
    store: EventStore | None
    tables: dict[str, Table]
    damaged: dict[str, str]
    admin_key: str
    cameras: CameraPool
    mat_poses: dict[str, list[list[float]]]
    _lock: threading.Lock
    _pool: ThreadPoolExecutor
    _waiting: dict[str, deque[tuple[Table, int, int]]]
    _served: dict[str, int]
    _turns: Iterator[int]
    _capture_pool: ThreadPoolExecutor

    @abstractmethod
    def get(self, table_id: str) -> Table:
        """The table. :raises UnknownTableError, DamagedTableError:"""

    @abstractmethod
    def _commit(self, table: Table, items: list[tuple[str, dict[str, Any]]]) -> int:
        """Store the events of one command (one transaction) and fold them; the new seq."""

    @abstractmethod
    def _decide(self, table: Table, cmd: Any) -> list[tuple[str, dict[str, Any]]]:
        """The events the rules give for a command. :raises IllegalCommandError:"""

    @abstractmethod
    def _check_limits(self, client: str) -> None:
        """:raises TableLimitError: the box has its most live tables, or `client` has."""
