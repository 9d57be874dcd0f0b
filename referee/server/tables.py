"""Tables: the Tuki game (referee.tuki.game) wired to storage, cameras, judging and the hub.

Each table is the fold of its stored events. A command is checked by `game.decide`; its events
(and the server's own notes, kinds `server:*`: frozen photos, overlays, demo rounds) are stored
together in one SQLite transaction before anything else sees them, so a crash mid-round loses
nothing: `open()` replays every table, and re-queues the judging of any frozen photo that has
no verdict yet.

"done": the frame of that moment is frozen (the uploaded photo, else the place's camera),
stored, and judged in a worker thread; the verdict comes back as `game.Judge`. When the round
ends with one builder still building, that builder's frame is frozen at the same moment (a
camera place), or awaited as an upload (a phone place).
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.paths import MODELS, ROOT
from referee.server import demo as demo_mod
from referee.server import judging
from referee.server.cameras import (
    BrokenSource,
    CameraError,
    CameraPool,
    FolderSource,
    Frame,
    FrameSource,
    UploadSource,
)
from referee.server.errors import (
    ConflictError,
    DamagedTableError,
    ForbiddenError,
    MissingSecretError,
    RoundInputError,
    TableLimitError,
    TableSetupError,
    UnknownTableError,
    UploadTooLargeError,
    WrongSecretError,
)
from referee.server.files import sync_dir, write_synced
from referee.server.keys import (
    Access,
    Credentials,
    admin_key,
    key_hash,
    new_key,
    parse_seat_entry,
    same,
    seat_entry,
    seat_key,
)
from referee.server.live import LiveHub
from referee.server.schemas import TableCreate
from referee.server.settings import Settings
from referee.server.stations import describe, station_path
from referee.server.storage import EventStore, StorageError
from referee.server.table import JUDGE_FAILED, STALE, Table, table_view
from referee.server.text import clean_text, shown
from referee.server.uploads import check_photo_bytes
from referee.tuki import game
from referee.tuki.cards import Card, Deck, turn
from referee.tuki.die import DieFace

DEMO_ID = "demo"

log = logging.getLogger("referee.server")


_hash = key_hash
# camera kinds that reach into the box (a device, a URL, a file, a folder): the admin's alone
BOX_CAMERAS = ("capture", "picamera", "folder")


def _plain(text: str, *folders: Path) -> str:
    """A message without the server's own folders: the project's and `folders` (the data
    folder) become relative, so that no server path reaches a user."""
    for folder in (ROOT, *folders):
        text = text.replace(str(folder) + os.sep, "").replace(str(folder), ".")
    return text


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


class TableService:
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
        # the client addresses of the box's other tables in play (the card games'), which
        # count against the same limits
        self.other_clients: Callable[[], list[str]] = list
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge")
        # waits (at most the stale limit) for a camera's first frame after a "done"
        self._capture_pool = ThreadPoolExecutor(max_workers=3, thread_name_prefix="capture")

    # ---- life cycle -----------------------------------------------------------------------

    def open(self) -> None:
        """Open the database, replay every table, start cameras, create the demo table."""
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.admin_key = admin_key(self.settings.data_dir)
        self.mat_poses = self._read_mat_poses()
        self.store = EventStore(self.settings.db_path)
        for table_id in self.store.table_ids():
            if self.store.drop_unfinished(table_id):  # a row without game_started
                log.warning("table %r was never finished being made (a crash); removed",
                            table_id)
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

    def folder_path(self, raw: object) -> Path:
        """The folder a folder camera may read: inside `<data>/folders/` or the project's
        models/demo/. A relative path starting with `models/` is the project's, any other is
        the data folder's (`folders/table1`).

        :raises CameraError: a path elsewhere (e.g. /etc), in plain words.
        """
        text = str(raw or "").strip()
        if not text:
            raise CameraError("a folder camera needs a path, e.g. folders/table1 (inside the "
                              "data folder)")
        roots = (self.settings.data_dir / "folders", MODELS / "demo")
        try:
            path = Path(text)
            if not path.is_absolute():
                path = (ROOT if path.parts[0] == "models" else self.settings.data_dir) / path
            path = path.resolve()
            if any(path.is_relative_to(r.resolve()) for r in roots):
                return path
        except (OSError, ValueError, RuntimeError):  # a NUL byte, a symlink loop, ...
            pass
        raise CameraError(f"a folder camera may only read a folder inside folders/ in the "
                          f"server's data folder (e.g. folders/table1) or models/demo/; "
                          f"{text[:80]!r} is elsewhere")

    def _source(self, spec: dict[str, Any], strict: bool) -> FrameSource:
        """A started camera. strict (a new table): a bad camera raises CameraError; else (a
        stored table) it becomes a dead camera on the dashboard, and the table still opens."""
        spec = dict(spec)
        try:
            if spec.get("kind") == "folder":
                spec["label"] = str(spec.get("path") or "")[:80]
                spec["path"] = str(self.folder_path(spec.get("path")))
            src = self.cameras.take(spec, self.settings.camera_retry_max_s,
                                    self.settings.camera_stale_s)
            if strict and isinstance(src, FolderSource):
                src.check()
        except Exception as e:
            if strict:
                raise
            why = (str(e) if isinstance(e, RefereeError)
                   else "this camera's settings cannot be used")
            log.warning("camera of a stored table: %s", e)
            src = BrokenSource(str(spec.get("kind", "camera"))[:20], why)
        src.start()
        return src

    def _sources(self, config: dict[str, Any], strict: bool = False) -> list[FrameSource]:
        out: list[FrameSource] = []
        try:
            for place in config["places"]:
                out.append(self._source(place.get("camera") or {"kind": "upload"}, strict))
        except BaseException:
            for src in out:
                src.stop()
            raise
        return out

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
        log.error("table %r cannot be replayed and is set aside; its data is kept",
                  table_id, exc_info=e)
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
        self._check_limits(client)
        secret = new_key()
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        self._create(table_id, body, secret, client)
        return table_id, secret, self.tables[table_id].view_token

    def _check_limits(self, client: str) -> None:
        """:raises TableLimitError: the box has its most live tables, or `client` has."""
        with self._lock:
            live = [t.config.get("client") for t in self.tables.values() if t.counts]
        live += self.other_clients()
        if len(live) >= self.settings.max_tables:
            raise TableLimitError(f"this box already has {len(live)} tables in play (the "
                                  f"most is {self.settings.max_tables}); finish or archive "
                                  "one first")
        mine = sum(1 for c in live if c == client)
        if mine >= self.settings.max_tables_per_client:
            raise TableLimitError(f"this phone or computer already has {mine} tables in play "
                                  f"(the most is {self.settings.max_tables_per_client}); "
                                  "finish one first")

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
                why = _plain(first, self.settings.data_dir)[:200]
            raise TableSetupError(f"station {station_id!r} cannot be used: its profile does not "
                                  f"load{' (' + why + ')' if why else ''}; fix it or calibrate "
                                  "it again with `referee calibrate`") from None
        if station.level != level:
            raise TableSetupError(f"station {station_id!r} is set up for the {station.level} "
                                  f"level, but this table plays {level}; choose a station of "
                                  f"the {level} level")

    def get(self, table_id: str) -> Table:
        """:raises UnknownTableError, DamagedTableError: set aside at start."""
        table = self.tables.get(table_id)
        if table is None and table_id in self.damaged:
            raise DamagedTableError(f"table {table_id!r} cannot be played: "
                                    f"{self.damaged[table_id]}")
        if table is None:
            raise UnknownTableError(f"no table {shown(table_id)}; check the link")
        return table

    # ---- keys ------------------------------------------------------------------------------

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
        found: list[Access] = []
        if creds.table and same(creds.table, table.admin_hash):
            self._ensure_keys(table, creds.table)
            found.append(Access("table"))
        if creds.seat:
            for seat, (_, digest) in table.seat_keys.items():
                if digest and same(creds.seat, digest):
                    found.append(Access("seat", seat))
        if creds.admin and self.admin_key and hmac.compare_digest(
                creds.admin.encode("utf-8", "replace"), self.admin_key.encode()):
            found.append(Access("admin"))
        if found:
            return found[0]
        if creds.any_key:
            raise WrongSecretError(f"table {table_id!r}: the key does not match (a seat "
                                   "that changed hands gets a new link)")
        if creds.view and table.view_token and hmac.compare_digest(
                creds.view.encode("utf-8", "replace"), table.view_token.encode()):
            return Access("view")
        if creds.view:
            raise WrongSecretError(f"table {table_id!r}: this view link is not the table's; "
                                   "scan the table's QR code again")
        raise MissingSecretError(f"table {table_id!r}: open the table's link (scan its QR "
                                 "code); the table's id alone opens nothing")

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
            UnknownTableError: no such seat.
        """
        table = self._managed(table_id, table_key)
        if not 0 <= seat < len(table.state.players):
            raise UnknownTableError(f"table {table_id!r} has no seat {seat}")
        assert self.store is not None
        with table.lock:
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
        ConflictError: the table is archived."""
        if table.archived:
            raise ConflictError(f"table {table.id!r} is archived: it can be read, not played")
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

    # ---- the round ------------------------------------------------------------------------

    def start_round(self, table_id: str, card_id: str | None, grid: str | None,
                    die: str, who: Access) -> int:
        """Start a round with a deck card (by id) or a typed grid, and the rolled face.

        :raises CardError, DieError, IllegalCommandError; ForbiddenError: neither the table's
            key nor the lookout's seat.
        """
        table = self.get(table_id)
        self._may(table, who, lookout=True)
        face = DieFace.parse(die)
        level = table.state.level
        if grid and grid.strip():
            card = Card.parse(card_id or "typed", grid, level)
        elif card_id and card_id.strip():
            card = Deck.load(level).get(card_id.strip())
        else:
            raise RoundInputError("a round needs a card: its id (e.g. N01) or its grid; "
                                  "got neither")
        with table.lock:
            items = self._decide(table, game.StartRound(card.id, tuple(turn(card, face)),
                                                        str(face), table.state.lookout))
            return self._commit(table, items)

    def demo_round(self, table_id: str, who: Access) -> int:
        """The demo table's next scripted round: cameras show its photos, card and die from
        the scene's label. :raises ConflictError: not a demo table; ForbiddenError: neither
        the table's key nor the lookout's seat."""
        table = self.get(table_id)
        self._may(table, who, lookout=True)
        if not table.config.get("demo"):
            raise ConflictError(f"table {table_id!r} is not a demo table; start rounds with a "
                                "card and a die face")
        rounds = demo_mod.script().rounds
        with table.lock:
            index = table.demo_rounds % len(rounds)
            r = rounds[index]
            card = Card.parse(r.scene, r.card, table.state.level)
            face = DieFace.parse(r.die)
            items = self._decide(table, game.StartRound(card.id, tuple(turn(card, face)),
                                                        str(face), table.state.lookout))
            self._show_demo_photos(table, index)
            return self._commit(table, [("server:demo", {"index": index, "scene": r.scene})]
                                + items)

    def _show_demo_photos(self, table: Table, index: int) -> None:
        r = demo_mod.script().rounds[index % len(demo_mod.script().rounds)]
        for src, name in zip(table.sources, r.photos, strict=False):
            if isinstance(src, FolderSource):
                src.show(name)

    def done(self, table_id: str, seat: int, upload: bytes | None, who: Access,
             filename: str = "upload") -> int:
        """A builder's "done" (or the photo of a build still awaiting one): stored at once, in
        its time order; the build is judged on the photo sent with it, else on its camera's
        first frame captured after this moment (a folder's photo at once). A camera that gives
        none within the stale limit (stalled or dead) leaves the place asking for a photo,
        with the reason `camera:stale`. When the round ends with one builder still building,
        that builder's frame is taken the same way, from the same moment.

        :raises IllegalCommandError: the rules refuse it; UnsupportedPhotoError / PhotoError:
            a bad upload; ConflictError: a phone place without a photo, or a photo already
            being taken; ForbiddenError: neither the table's key nor this seat's.
        """
        table = self.get(table_id)
        self._may(table, who, seat=seat)
        frame = self._upload_frame(upload, filename) if upload else None
        pressed = time.time()
        with table.lock:
            st = table.state
            b = st.builder(seat) if 0 <= seat < len(st.players) else None
            rnd = st.round_no
            shot = table.shots.get((rnd, seat))
            late = (b is not None and b.status in ("done", "stopped") and b.verdict is None
                    and (shot is None or not shot.judging))
            if late and frame is None and (rnd, seat) in table.capturing:
                raise ConflictError(f"{st.players[seat]}'s camera is taking the photo now; "
                                    "wait a moment")
            if late:  # the photo of a build that has no verdict yet (phone place, or retry)
                items: list[tuple[str, dict[str, Any]]] = []
            else:
                items = self._decide(table, game.Done(seat))
            seats = [seat] + [d["last"] for k, d in items if k == "round_closed"]
            notes: list[tuple[str, dict[str, Any]]] = []
            after: list[int] = []  # seats whose frame a live camera gives after `pressed`
            for i, s in enumerate(seats):
                src = self._place_source(table, s)
                if i == 0 and frame is not None:  # the photo sent with "done"
                    if isinstance(src, UploadSource):  # the phone is this place's camera
                        src.put(frame)
                    notes.append(("server:photo", self._save(table, rnd, s, frame)))
                elif isinstance(src, UploadSource):  # a phone place: its Photo button
                    if i == 0:
                        raise ConflictError(f"no photo for {st.players[s]}'s place; send a "
                                            "photo from the phone")
                elif src is not None and src.still and (now := src.latest()) is not None:
                    notes.append(("server:photo", self._save(table, rnd, s, now)))
                elif src is not None and not src.still and src.status().state != "dead":
                    after.append(s)
                else:  # a dead camera: the done counts, the place asks for a photo
                    notes.append(("server:no_photo", self._no_photo(rnd, s, src)))
            # the photo sent or frozen at "done" comes first, as it was taken first
            first = [n for n in notes[:1] if n[0] == "server:photo" and n[1]["player"] == seat]
            items = first + items + notes[len(first):]
            for s in after:
                table.capturing.add((rnd, s))
            try:
                seq = self._commit(table, items)
            except BaseException:
                for s in after:
                    table.capturing.discard((rnd, s))
                raise
        for kind, data in items:
            if kind == "server:photo":
                self._queue_judging(table, rnd, data["player"])
        for s in after:
            self._capture_pool.submit(self._capture_after, table, rnd, s, pressed)
        return seq

    def _place_source(self, table: Table, seat: int) -> FrameSource | None:
        """The camera of the place this round gave the builder (None: no such place)."""
        b = table.state.builder(seat)
        place = b.place if b is not None else None
        if place is None or not 0 <= place < len(table.sources):
            return None
        return table.sources[place]

    def _no_photo(self, rnd: int, seat: int, src: FrameSource | None) -> dict[str, Any]:
        """The note of a place whose camera gave no frame after "done": it asks for a photo."""
        detail = src.status().detail if src is not None else "no camera"
        return {"round": rnd, "player": seat, "reason": STALE, "camera": detail[:200]}

    def _capture_after(self, table: Table, rnd: int, seat: int, pressed: float) -> None:
        """Freeze the first frame the seat's camera captures after `pressed` (at most the
        stale limit later) and judge it; none: the place asks for a photo (`camera:stale`)."""
        src = self._place_source(table, seat)
        f = (src.frame_after(pressed, self.settings.camera_stale_s)
             if src is not None else None)
        try:
            with table.lock:  # the view never sees the note and "judging" together
                table.capturing.discard((rnd, seat))
                b = table.state.builder(seat)
                shot = table.shots.get((rnd, seat))
                if (table.state.round_no != rnd or b is None or b.verdict is not None
                        or (shot is not None and shot.judging)):
                    return  # the round moved on, or a photo came from the phone meanwhile
                if f is None:
                    self._commit(table, [("server:no_photo", self._no_photo(rnd, seat, src))])
                    return
                note = self._save(table, rnd, seat, f) | {"taken_at": f.taken_at,
                                                          "asked_at": pressed}
                self._commit(table, [("server:photo", note)])
        except Exception:  # e.g. the server stops meanwhile; the done itself is stored
            log.exception("table %r: round %d, seat %d: the camera's photo was not stored",
                          table.id, rnd, seat)
            return
        finally:
            self.hub.publish(table.id, table.seq)  # also when nothing was stored
        self._queue_judging(table, rnd, seat)

    def decide(self, table_id: str, seat: int, correct: bool, by: int | None,
               who: Access) -> int:
        """A decision on an unsure build: the lookout's, or for the lookout's own build each
        other player's vote. With a seat's key the decider is that seat (`by`, if sent, must
        be it); with the table's key, `by` (default the lookout).

        :raises IllegalCommandError: the rules refuse it; ForbiddenError: `by` is another seat
            than the key's.
        """
        table = self.get(table_id)
        if who.role == "seat":
            if by is not None and by != who.seat:
                raise ForbiddenError("a seat's link decides or votes for its own seat only")
            by = who.seat
        self._may(table, who, seat=by)
        with table.lock:
            decider = table.state.lookout if by is None else by
            return self._commit(table, self._decide(table, game.Decide(decider, seat, correct)))

    def end_round(self, table_id: str, who: Access) -> int:
        """Void the round by the lookout's hand. :raises IllegalCommandError; ForbiddenError:
        neither the table's key nor the lookout's seat."""
        table = self.get(table_id)
        self._may(table, who, lookout=True)
        with table.lock:
            return self._commit(table, self._decide(table,
                                                    game.VoidRound(table.state.lookout)))

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

    def _archived_sources(self, config: dict[str, Any]) -> list[FrameSource]:
        return [BrokenSource(str((p.get("camera") or {}).get("kind", "upload"))[:20],
                             "this table is archived")
                for p in config.get("places") or []]

    # ---- photos and judging ---------------------------------------------------------------

    def _upload_frame(self, data: bytes, filename: str) -> Frame:
        if len(data) > self.settings.max_upload_bytes:
            raise UploadTooLargeError(f"{filename!r} is {len(data)} bytes; the limit is "
                                      f"{self.settings.max_upload_bytes} bytes")
        check_photo_bytes(data, filename)
        image = judging.decode(data)
        return Frame(image, time.time(), "upload", data)

    def _photo_dir(self, table: Table) -> Path:
        d = self.settings.photos_dir / table.id
        if not d.is_dir():  # made, and its name made durable in its parents
            d.mkdir(parents=True, exist_ok=True)
            sync_dir(d.parent)
            sync_dir(d.parent.parent)
        return d

    def _write(self, path: Path, data: bytes) -> None:
        write_synced(path, data)

    def _save(self, table: Table, rnd: int, seat: int, frame: Frame) -> dict[str, Any]:
        import cv2

        data = frame.data
        if data is None or not data.startswith(b"\xff\xd8"):
            ok, buf = cv2.imencode(".jpg", frame.image_bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
            data = buf.tobytes()
        name = f"r{rnd}-p{seat}-{secrets.token_hex(4)}.jpg"
        self._write(self._photo_dir(table) / name, data)
        return {"round": rnd, "player": seat, "photo": name}

    def _queue_judging(self, table: Table, rnd: int, seat: int) -> None:
        self._pool.submit(self._judge, table, rnd, seat)

    def _resume_judging(self, table: Table) -> None:
        for (rnd, seat), shot in table.shots.items():
            b = table.state.builder(seat)
            if (shot.judging and rnd == table.state.round_no and b is not None
                    and b.verdict is None):
                self._queue_judging(table, rnd, seat)

    def _judge(self, table: Table, rnd: int, seat: int) -> None:
        shot = table.shots.get((rnd, seat))
        if shot is None:
            return
        st = table.state
        try:
            b = st.builder(seat)
            if b is None:
                raise ConflictError(f"{st.players[seat]} does not build this round")
            station_id = table.config["places"][b.place]["station"]
            station = station_path(station_id)
            image = judging.decode((self._photo_dir(table) / shot.photo).read_bytes())
            face = DieFace.parse(st.die or "bear")
            known = self.mat_poses.get(station_id)
            result = judging.judge_photo(image, station, list(st.target), face, st.level,
                                         (known[0], known[1]) if known else None)
        except Exception as e:  # record why, never invent a verdict; a new photo may retry
            # the builder reads plain words: a RefereeError's own, else a sentence; the
            # details go to the server's log only (the events are public)
            log.warning("table %r: round %d, seat %d: the photo could not be judged",
                        table.id, rnd, seat, exc_info=e)
            msg = (_plain(str(e), self.settings.data_dir) if isinstance(e, RefereeError)
                   else JUDGE_FAILED)
            self._note_failure(table, rnd, seat, msg)
            return
        if result.mat_pose is not None and result.verdict.get("verdict") != "unsure":
            self._remember_mat_pose(station_id, result.mat_pose)
        overlay = None
        if result.overlay_jpeg:
            overlay = shot.photo.replace(".jpg", "-overlay.jpg")
            self._write(self._photo_dir(table) / overlay, result.overlay_jpeg)
        with table.lock:
            if table.state.round_no != rnd:
                return
            try:
                items = self._decide(table, game.Judge(seat, result.verdict))
            except game.IllegalCommandError as e:  # e.g. the round was voided meanwhile
                self._note_failure(table, rnd, seat, str(e))
                return
            note = {"round": rnd, "player": seat, "overlay": overlay,
                    "timings_ms": result.timings_ms, "build": result.build}
            self._commit(table, [("server:judged", note)] + items)

    # ---- the admin: station profiles ---------------------------------------------------------

    def calibrate_colours(self, station_id: str, table_id: str, place: int,
                          order: str | None) -> dict[str, Any]:
        """Learn a station's colours from a frame of a table's place camera, taken through the
        station's own camera path (so a driver's channel order is learned with it), and keep
        the model, the mat's pose and the camera's kind and pixel format in the station's
        profile (calibration/stations/<id>.yaml). The admin's only.

        :raises UnknownStationError, UnknownTableError; ConflictError: the camera has no
            frame; StationError, CalibrationError: a bad order, or no mat or stack in view.
        """
        from referee.vision.calibration import learn_colours
        from referee.vision.station import check_stack_order, profile_path, save_colour_calibration

        path = station_path(station_id)
        table = self.get(table_id)
        if not 0 <= place < len(table.sources):
            raise UnknownTableError(f"table {table_id!r} has no place {place + 1}")
        src = table.sources[place]
        frame = (src.latest() if src.still
                 else src.frame_after(time.time(), self.settings.camera_stale_s))
        if frame is None:
            raise ConflictError(f"place {place + 1}'s camera has no picture now: "
                                f"{src.status().detail}")
        station = judging.load_station(path)
        order = (order or station.colours).upper()
        check_stack_order(order, station.colours, "order")
        model, pose = learn_colours(frame.image_bgr, station, order,
                                    f"the picture of place {place + 1}'s camera")
        camera = dict(table.config["places"][place].get("camera") or {"kind": "upload"})
        source = {k: str(camera[k])[:200] for k in ("kind", "device", "format", "path")
                  if camera.get(k) is not None}
        saved = save_colour_calibration(station, model, pose, source)
        judging.forget_station(path)
        judging.forget_station(profile_path(station_id))
        with self._lock:  # the new calibration's pose supersedes one learnt from photos
            self.mat_poses.pop(station_id, None)
        log.info("station %r: colours calibrated from table %r place %d", station_id,
                 table_id, place + 1)
        return {"station": station_id, "source": source,
                "profile": _plain(str(saved)),
                "colours": {c: [round(float(v), 1) for v in lab]
                            for c, lab in model.centres.items()}}

    def _read_mat_poses(self) -> dict[str, list[list[float]]]:
        """The stations' mat poses as last seen for sure; none when the file is unreadable."""
        path = self.settings.data_dir / "mat-poses.json"
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            return {str(k): [[float(x) for x in v[0]][:3], [float(x) for x in v[1]][:3]]
                    for k, v in raw.items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            log.warning("%s cannot be read; the stations' calibrated mat poses are used",
                        path.name)
            return {}

    def _remember_mat_pose(self, station_id: str, pose: tuple[list[float], list[float]]
                           ) -> None:
        """Keep a station's mat pose from a confident photo with only its mat in view, so a
        mat moved since calibration is still told from a neighbour's (WORLD.md §4
        `mat:several`); written whole (write_synced)."""
        with self._lock:
            self.mat_poses[station_id] = [list(pose[0]), list(pose[1])]
            data = json.dumps(self.mat_poses, indent=1).encode()
        try:
            write_synced(self.settings.data_dir / "mat-poses.json", data)
        except OSError as e:
            log.warning("the mat poses could not be written: %s", e)

    def _note_failure(self, table: Table, rnd: int, seat: int, msg: str) -> None:
        self._commit(table, [("server:judge_failed",
                              {"round": rnd, "player": seat, "error": msg, "plain": True})])

    def photo_path(self, table_id: str, name: str) -> Path:
        """:raises UnknownTableError: also for a photo name that is not the table's."""
        table = self.get(table_id)
        known = {s.photo for s in table.shots.values()} | {
            s.overlay for s in table.shots.values() if s.overlay}
        if name not in known:
            raise UnknownTableError(f"no photo {shown(name)} at table {table_id!r}")
        return self._photo_dir(table) / name

    def preview(self, table_id: str, place: int) -> bytes:
        """The newest frame of a place's camera as a small JPEG (for aiming the camera); it
        never waits on the camera. :raises UnknownTableError, ConflictError: no frame."""
        import cv2

        table = self.get(table_id)
        if not 0 <= place < len(table.sources):
            raise UnknownTableError(f"table {table_id!r} has no place {place}")
        frame = table.sources[place].latest()
        if frame is None:
            raise ConflictError(f"place {place + 1} has no frame now: "
                                f"{table.sources[place].status().detail}")
        cached = table.previews.get(place)
        if cached is not None and cached[0] == frame.taken_at:
            return cached[1]
        img = frame.image_bgr
        scale = min(1.0, 480 / max(img.shape[:2]))
        if scale < 1.0:
            img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 75])
        table.previews[place] = (frame.taken_at, buf.tobytes())
        return table.previews[place][1]

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

    def health(self) -> dict[str, Any]:
        assert self.store is not None
        self.store.table_ids()  # the database answers
        return {"status": "ok", "tables": len(self.tables), "damaged": sorted(self.damaged),
                "cameras": {t.id: [s.status().state for s in t.sources]
                            for t in self.tables.values()}}

    def view(self, table_id: str) -> dict[str, Any]:
        """The table as the phones see it (no secret); see docs/server.md for the shape."""
        table = self.get(table_id)
        with table.lock:
            return table_view(table)
