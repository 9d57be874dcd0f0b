"""Tables: the Tuki game (referee.tuki.game) wired to storage, cameras, judging and the hub.
This module has the service's life cycle (open, replay, the demo table, close), making a
table, storing events, the admin's archive and delete, and the reads; the round's commands
are referee.server.rounds.

Each table is the fold of its stored events. A command is checked by `game.decide`; its events
(and the server's own notes, kinds `server:*`: frozen photos, overlays, demo rounds) are stored
together in one SQLite transaction before anything else sees them, so a crash mid-round loses
nothing: `open()` replays every table, and re-queues the judging of any frozen photo that has
no verdict yet.
"""

from __future__ import annotations

import hmac
import itertools
import json
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from referee.errors import RefereeError
from referee.server import demo as demo_mod
from referee.server import judging
from referee.server.camera_pool import CameraPool
from referee.server.cameras import CameraError
from referee.server.errors import (
    MissingSecretError,
    TableSetupError,
    UnknownTableError,
    find_table,
)
from referee.server.files import private_folder, write_synced
from referee.server.keys import (
    Credentials,
    admin_key,
    key_hash,
    new_key,
    seat_entry,
)
from referee.server.limits import NewTables, check_limits
from referee.server.live import LiveHub
from referee.server.rounds import Rounds
from referee.server.schemas import TableCreate
from referee.server.service_base import log, plain_words
from referee.server.settings import Settings
from referee.server.stations import describe, station_path
from referee.server.storage import EventStore, StorageError
from referee.server.table import Table, table_view
from referee.server.text import clean_text, shown
from referee.tuki import game

DEMO_ID = "demo"

_hash = key_hash
# camera kinds that reach into the box (a device, a URL, a file, a folder): the admin's alone
BOX_CAMERAS = ("capture", "picamera", "folder")


def _check_stored_names(table: Table) -> None:
    """The stored table's name and players pass the API's text check (stored before it
    existed, or written by hand), so that no page or answer fails on them.

    :raises StorageError: naming which text, never the text itself.
    """
    texts = [("name", table.config.get("name"), 60)] + [
        (f"player {i + 1}'s name", n, 30) for i, n in enumerate(table.state.players)]
    for what, text, limit in texts:
        try:
            clean_text(text if isinstance(text, str) else "", limit)
        except ValueError as e:
            raise StorageError(f"table {table.id!r}: its stored {what} cannot be shown "
                               f"({e})") from None


class TableService(Rounds):
    """Every table of the server; thread-safe; each method is one user action."""

    def __init__(self, settings: Settings, hub: LiveHub) -> None:
        self.settings = settings
        self.hub = hub
        self.store: EventStore | None = None
        self.tables: dict[str, Table] = {}
        self.damaged: dict[str, str] = {}  # table id -> why it is set aside (plain words)
        self.admin_key = ""  # read (or made) at open()
        self.cameras = CameraPool()  # one reader thread per physical camera
        # station id -> its mat's pose as last seen for sure (<data>/mat-poses.json)
        self.mat_poses: dict[str, list[list[float]]] = {}
        self._lock = threading.Lock()
        self._creating = threading.Lock()  # one table creation at a time (the limits)
        self.new_tables = NewTables()  # each client's tables of the last hour (the limits)
        # the client addresses of the box's other tables in play (the card games'), which
        # count against the same limits
        self.other_clients: Callable[[], list[str]] = list
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge")
        # table id -> its photos waiting to be judged (whose turn: `_served`, judging.py)
        self._waiting: dict[str, deque[tuple[Table, int, int]]] = {}
        self._served: dict[str, int] = {}  # table id -> the turn its last photo was judged in
        self._turns = itertools.count()
        # waits (at most the stale limit) for a camera's first frame after a "done"
        self._capture_pool = ThreadPoolExecutor(max_workers=3, thread_name_prefix="capture")

    # ---- life cycle -----------------------------------------------------------------------

    def open(self) -> None:
        """Open the database, replay every table, start cameras, create the demo table."""
        private_folder(self.settings.data_dir)
        self.admin_key = admin_key(self.settings.data_dir)
        self.mat_poses = self._read_mat_poses()
        self.store = EventStore(self.settings.db_path)
        for table_id in self.store.table_ids():
            try:
                if self.store.drop_unfinished(table_id):  # a row without game_started
                    log.warning("table %r was never finished being made (a crash); removed",
                                table_id)
                    continue
            except StorageError as e:  # its events unreadable: set aside, like any damage
                self._set_aside(table_id, e)
                continue
            if self._card_game(table_id):  # referee.server.cardtables replays it
                continue
            try:
                self._load(table_id)
            except Exception as e:  # one damaged table must not keep the others offline
                self._set_aside(table_id, e)
        if self.settings.demo and DEMO_ID not in self.damaged:
            self._demo_table()
        for table in self.tables.values():
            self._resume_judging(table)

    def _card_game(self, table_id: str) -> bool:
        """Whether a stored table plays another game than Tuki (`config["game"]`)."""
        assert self.store is not None
        try:
            row = self.store.table(table_id)
        except StorageError:
            return False
        return row is not None and row.config.get("game", "tuki") != "tuki"

    def _demo_table(self) -> None:
        """Make the demo table, or give it a new secret when its secret file is lost (or
        does not match). The file is written (and synced) before the database changes, so a
        crash in between leaves a file that the next start replaces, never a demo table whose
        secret nobody has."""
        assert self.store is not None
        path = self.settings.data_dir / "demo-secret.txt"
        table = self.tables.get(DEMO_ID)
        if table is not None:
            try:
                known = path.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                known = ""
            if known and hmac.compare_digest(_hash(known), table.admin_hash):
                self._ensure_keys(table, known)
                return
        secret = secrets.token_urlsafe(24)
        write_synced(path, (secret + "\n").encode(), mode=0o600)
        if table is None:
            self._create(DEMO_ID, TableCreate(**demo_mod.table_spec()), secret)
        else:
            log.warning("the demo table's secret file was missing or did not match; the demo "
                        "table has a new secret (%s)", path.name)
            self.store.set_admin_hash(DEMO_ID, _hash(secret))
            table.admin_hash = _hash(secret)
            table.seat_keys = {}  # the old seat keys came from the old table key
            self._ensure_keys(table, secret)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._capture_pool.shutdown(wait=False, cancel_futures=True)
        for t in self.tables.values():
            for s in t.sources:
                s.stop()
        if self.store is not None:
            self.store.close()

    def _load(self, table_id: str) -> Table:
        """Replay a stored table and start its cameras.

        :raises Exception: anything that keeps the table from being replayed (the caller sets
            it aside); nothing is written.
        """
        assert self.store is not None
        row = self.store.table(table_id)
        if row is None:
            raise UnknownTableError(f"no table {table_id!r}")
        table = Table(row.id, row.config, row.admin_hash, [])
        self._read_keys(table)
        for ev in self.store.events(table_id):
            try:
                table.fold(ev)
            except Exception as e:
                raise StorageError(f"stored event {ev.seq} ({ev.kind[:40]!r}) does not fit "
                                   "the game") from e
        if not isinstance(row.config.get("places"), list):
            raise StorageError(f"table {table_id!r}: its stored build places are damaged")
        _check_stored_names(table)
        table.sources = (self._archived_sources(row.config) if table.archived
                         else self._sources(row.config))
        try:
            if table.config.get("demo") and table.demo_rounds:
                try:
                    self._show_demo_photos(table, table.demo_rounds - 1)
                except CameraError as e:  # the folder changed: the camera says so itself
                    log.warning("demo table %r: %s", table_id, e)
            # the table can be shown (as UTF-8 too), else it is set aside
            try:
                json.dumps(table_view(table), ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError:
                raise StorageError(f"table {table_id!r}: its stored settings hold text that "
                                   "cannot be shown") from None
        except BaseException:
            for src in table.sources:
                src.stop()
            raise
        self.tables[table_id] = table
        return table

    def _set_aside(self, table_id: str, e: Exception) -> None:
        """A table that cannot be replayed: listed as damaged, its data kept untouched."""
        log.error("table %r cannot be replayed and is set aside; its data is kept (%s)",
                  table_id, e, exc_info=None if isinstance(e, StorageError) else e)
        why = (str(e).removeprefix(f"table {table_id!r}: ") if isinstance(e, StorageError)
               else "its stored data does not fit the game")
        self.damaged[table_id] = (f"{why}; the table is set aside and its data kept "
                                  "untouched (the server's log says more)")

    # ---- creation and access --------------------------------------------------------------

    def create(self, body: TableCreate, creds: Credentials | None = None,
               client: str = "") -> tuple[str, str, str]:
        """A new table: its id, its table key (shown once) and its view token.

        :raises MissingSecretError, WrongSecretError: a camera place (capture, picamera,
            folder) without the box's admin key; TableLimitError: too many live tables on the
            box or from `client` (an address); RefereeError: a bad station, camera, or a game
            the rules refuse.
        """
        creds = creds or Credentials()
        boxed = [p.camera.kind for p in body.places if p.camera.kind in BOX_CAMERAS]
        if boxed:
            if not creds.admin:
                raise MissingSecretError(f"a {boxed[0]} camera reads from the box itself, so it "
                                     "needs the box's admin key (`referee admin-key`); a "
                                     "table whose places take phone photos needs none")
            self.check_admin(creds.admin)
        with self._creating:  # the count and the new table together: no race past the limits
            self._check_limits(client)
            self.new_tables.take(client, self.settings.max_new_tables_per_hour, time.time())
            secret = new_key()
            table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
            self._create(table_id, body, secret, client)
        return table_id, secret, self.tables[table_id].view_token

    def live_clients(self) -> list[str]:
        """The client address of each Tuki table in play (for the box's limits): not over,
        archived or the demo, something happened within the settings' idle minutes."""
        now, idle_s = time.time(), 60.0 * self.settings.idle_min
        with self._lock:
            return [str(t.config.get("client")) for t in self.tables.values()
                    if t.in_play(now, idle_s)]

    def _check_limits(self, client: str) -> None:
        """:raises TableLimitError: the box has its most live tables, or `client` has."""
        s = self.settings
        check_limits(self.live_clients() + self.other_clients(), client, s.max_tables,
                     s.max_tables_per_client, s.idle_min)

    def _create(self, table_id: str, body: TableCreate, secret: str, client: str = "") -> None:
        assert self.store is not None
        for p in body.places:
            self._check_station(p.station, body.level)
        config = body.model_dump()
        config["demo"] = table_id == DEMO_ID
        config["client"] = client[:64]
        cmd = game.NewGame(tuple(body.players), body.level, body.first_lookout,
                           tuple(p.station for p in body.places))
        try:  # the rules check players and places
            events = game.decide(game.TukiState(), cmd)
        except game.IllegalCommandError as e:
            raise TableSetupError(str(e)) from e
        keys = {"view": new_key()} | {f"seat:{i}": seat_entry(secret, i, 1)
                                      for i in range(len(body.players))}
        sources = self._sources(config, strict=True)
        try:  # the row, the keys and game_started: one transaction
            stored = self.store.create_table(table_id, config, _hash(secret),
                                             [(e.kind, e.data) for e in events], keys)
        except BaseException:
            for src in sources:
                src.stop()
            raise
        table = Table(table_id, config, _hash(secret), sources)
        self._take_keys(table, keys)
        for ev in stored:
            table.fold(ev)
        with self._lock:
            self.tables[table_id] = table
        self.hub.publish(table_id, table.seq)

    def _check_station(self, station_id: str, level: str) -> None:
        """:raises UnknownStationError: no such station; TableSetupError: its profile does not
        load, or it is set up for another level than the table's."""
        path = station_path(station_id)
        try:
            station = judging.load_station(path)
        except Exception as e:
            log.warning("station %r does not load: %s", station_id, e)
            why = ""
            if isinstance(e, RefereeError):  # its first line, without the file's own path
                first = str(e).splitlines()[0] if str(e) else ""
                first = first.replace(f"{path}: ", "").replace(str(path), path.name)
                why = plain_words(first, self.settings.data_dir)[:200]
            raise TableSetupError(f"station {station_id!r} cannot be used: its profile does not "
                                  f"load{' (' + why + ')' if why else ''}; fix it or calibrate "
                                  "it again with `referee calibrate`", "station.broken",
                                  {"station": station_id, "why": why or "?"}) from None
        if station.level != level:
            # the table's level first: a family whose stones include orange plays advanced
            # (a new user was told only to recalibrate the station)
            stones = ("its stones include orange" if station.level == "advanced"
                      else "its stones are gray, blue and purple")
            raise TableSetupError(
                f"station {station_id!r} is set up for the {station.level} level ({stones}), "
                f"but this table plays {level}: set the table's Level to {station.level}, or "
                f"choose a station of the {level} level (or change this one with `referee "
                f"calibrate level {station_id} {level}`)",
                "table.station-advanced" if station.level == "advanced"
                else "table.station-normal", {"station": station_id[:40]})

    def get(self, table_id: str) -> Table:
        """:raises UnknownTableError, DamagedTableError: set aside at start."""
        return find_table(self.tables, self.damaged, table_id,
                          f"no table {shown(table_id)}; check the link")

    # ---- keys ------------------------------------------------------------------------------

    def demo_links(self) -> list[tuple[str, str, str]]:
        """(table id, table key, view token) of the demo table, for the CLI's start-up
        message."""
        path = self.settings.data_dir / "demo-secret.txt"
        table = self.tables.get(DEMO_ID)
        if table is not None and path.exists():
            return [(DEMO_ID, path.read_text(encoding="utf-8").strip(), table.view_token)]
        return []

    # ---- storing --------------------------------------------------------------------------

    def _commit(self, table: Table, items: list[tuple[str, dict[str, Any]]]) -> int:
        """Store events (one transaction), fold them, wake the phones; the new seq."""
        assert self.store is not None
        with table.lock:
            stored = self.store.append_many(table.id, items, expect_seq=table.seq + 1)
            for ev in stored:
                table.fold(ev)
        self.hub.publish(table.id, table.seq)
        return table.seq

    def _decide(self, table: Table, cmd: Any) -> list[tuple[str, dict[str, Any]]]:
        return [(e.kind, e.data) for e in game.decide(table.state, cmd)]

    # ---- the admin: archive and delete -----------------------------------------------------

    def archive(self, table_id: str) -> int:
        """Archive a table (the admin's): its cameras stop, it is kept to read and never played
        again, and it no longer counts against the limits. Idempotent."""
        table = self.get(table_id)
        with table.lock:
            if table.archived:
                return table.seq
            seq = self._commit(table, [("server:archived", {})])
            for src in table.sources:
                src.stop()
            table.sources = self._archived_sources(table.config)
        return seq

    def delete(self, table_id: str) -> None:
        """Delete a table (the admin's): its cameras stop, its events, keys and photos go.
        A table set aside as damaged can be deleted too."""
        import shutil

        assert self.store is not None
        if table_id not in self.damaged:
            self.get(table_id)
        with self._lock:
            table = self.tables.pop(table_id, None)
            self.damaged.pop(table_id, None)
        if table is not None:
            for src in table.sources:
                src.stop()
        self.store.delete_table(table_id)
        shutil.rmtree(self.settings.photos_dir / table_id, ignore_errors=True)
        self.hub.publish(table_id, -1)

    # ---- reading --------------------------------------------------------------------------

    def events(self, table_id: str, after: int = 0) -> list[dict[str, Any]]:
        self.get(table_id)
        assert self.store is not None
        return [{"seq": e.seq, "at": e.at, "kind": e.kind, "data": e.payload}
                for e in self.store.events(table_id, after)]

    def stations(self) -> list[dict[str, Any]]:
        return describe()

    def summaries(self, everything: bool = False) -> list[dict[str, Any]]:
        """The tables that chose to be listed, with their view links; `everything` (the
        admin's list): every table, also archived ones and those set aside at start (with
        `damaged`: why, in plain words)."""
        out = [{"id": t.id, "name": t.name, "players": list(t.state.players),
                "phase": t.state.phase, "demo": bool(t.config.get("demo")), "damaged": None,
                "archived": t.archived, "view_path": f"/t/{t.id}?v={t.view_token}"}
               for t in list(self.tables.values())
               if everything or (t.config.get("listed") and not t.archived)]
        if everything:
            out += [{"id": tid, "name": tid[:60], "players": [], "phase": "damaged",
                     "demo": False, "damaged": why, "archived": False, "view_path": None}
                    for tid, why in self.damaged.items()]
        return out

    def health(self, everything: bool = False) -> dict[str, Any]:
        """The database answers; how many tables, damaged tables and cameras in each state.
        `everything` (the admin's): the damaged tables' ids and each table's camera states."""
        assert self.store is not None
        self.store.table_ids()  # the database answers
        states: dict[str, int] = {}
        for t in list(self.tables.values()):
            for src in t.sources:
                state = src.status().state
                states[state] = states.get(state, 0) + 1
        out: dict[str, Any] = {"status": "ok", "tables": len(self.tables),
                               "damaged": len(self.damaged), "camera_states": states}
        if everything:  # ids only for the admin: the public list names listed tables only
            out["damaged"] = sorted(self.damaged)
            out["cameras"] = {t.id: [s.status().state for s in t.sources]
                              for t in list(self.tables.values())}
        return out

    def view(self, table_id: str) -> dict[str, Any]:
        """The table as the phones see it (no secret); see docs/server.md for the shape."""
        table = self.get(table_id)
        with table.lock:
            return table_view(table)
