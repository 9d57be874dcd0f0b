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

import hashlib
import hmac
import os
import secrets
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.paths import ROOT
from referee.server import demo as demo_mod
from referee.server import judging
from referee.server.cameras import FolderSource, Frame, FrameSource, UploadSource, make_source
from referee.server.errors import (
    ConflictError,
    MissingSecretError,
    RoundInputError,
    TableSetupError,
    UnknownTableError,
    UploadTooLargeError,
    WrongSecretError,
)
from referee.server.live import LiveHub
from referee.server.schemas import TableCreate
from referee.server.settings import Settings
from referee.server.stations import describe, station_path
from referee.server.storage import EventStore
from referee.server.table import Table, table_view
from referee.server.uploads import check_photo_bytes
from referee.tuki import game
from referee.tuki.cards import Card, Deck, turn
from referee.tuki.die import DieFace

DEMO_ID = "demo"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class TableService:
    """Every table of the server; thread-safe; each method is one user action."""

    def __init__(self, settings: Settings, hub: LiveHub) -> None:
        self.settings = settings
        self.hub = hub
        self.store: EventStore | None = None
        self.tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge")

    # ---- life cycle -----------------------------------------------------------------------

    def open(self) -> None:
        """Open the database, replay every table, start cameras, create the demo table."""
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = EventStore(self.settings.db_path)
        for table_id in self.store.table_ids():
            self._load(table_id)
        if self.settings.demo and DEMO_ID not in self.tables:
            secret = secrets.token_urlsafe(24)
            self._create(DEMO_ID, TableCreate(**demo_mod.table_spec()), secret)
            path = self.settings.data_dir / "demo-secret.txt"
            path.write_text(secret + "\n", encoding="utf-8")
            path.chmod(0o600)
        for table in self.tables.values():
            self._resume_judging(table)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        for t in self.tables.values():
            for s in t.sources:
                s.stop()
        if self.store is not None:
            self.store.close()

    def _sources(self, config: dict[str, Any]) -> list[FrameSource]:
        out = []
        for place in config["places"]:
            spec = dict(place.get("camera") or {"kind": "upload"})
            if spec.get("kind") == "folder" and not Path(spec["path"]).is_absolute():
                spec["path"] = str(ROOT / spec["path"])
            src = make_source(spec, self.settings.camera_retry_max_s)
            src.start()
            out.append(src)
        return out

    def _load(self, table_id: str) -> Table:
        assert self.store is not None
        row = self.store.table(table_id)
        if row is None:
            raise UnknownTableError(f"no table {table_id!r}")
        table = Table(row.id, row.config, row.admin_hash, self._sources(row.config))
        for ev in self.store.events(table_id):
            table.fold(ev)
        if table.config.get("demo") and table.demo_rounds:
            self._show_demo_photos(table, table.demo_rounds - 1)
        self.tables[table_id] = table
        return table

    # ---- creation and access --------------------------------------------------------------

    def create(self, body: TableCreate) -> tuple[str, str]:
        """A new table and its secret (shown once). :raises RefereeError: a bad station,
        camera, or a game the rules refuse (player count, places)."""
        secret = secrets.token_urlsafe(24)
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        self._create(table_id, body, secret)
        return table_id, secret

    def _create(self, table_id: str, body: TableCreate, secret: str) -> None:
        assert self.store is not None
        for p in body.places:
            station_path(p.station)  # raises for an unknown station
        config = body.model_dump()
        config["demo"] = table_id == DEMO_ID
        cmd = game.NewGame(tuple(body.players), body.level, body.first_lookout,
                           tuple(p.station for p in body.places))
        try:  # the rules check players and places
            events = game.decide(game.TukiState(), cmd)
        except game.IllegalCommandError as e:
            raise TableSetupError(str(e)) from e
        sources = self._sources(config)
        self.store.create_table(table_id, config, _hash(secret))
        table = Table(table_id, config, _hash(secret), sources)
        with self._lock:
            self.tables[table_id] = table
        self._commit(table, [(e.kind, e.data) for e in events])

    def get(self, table_id: str) -> Table:
        """:raises UnknownTableError:"""
        table = self.tables.get(table_id)
        if table is None:
            raise UnknownTableError(f"no table {table_id!r}; check the link")
        return table

    def check_secret(self, table_id: str, secret: str | None) -> None:
        """Constant-time check of a table's secret.

        :raises UnknownTableError, MissingSecretError, WrongSecretError:
        """
        table = self.get(table_id)
        if not secret:
            raise MissingSecretError(f"table {table_id!r}: this needs the table's secret "
                                     "(open the control link)")
        if not hmac.compare_digest(_hash(secret), table.admin_hash):
            raise WrongSecretError(f"table {table_id!r}: the secret does not match; the "
                                   "viewer link is read-only")

    def demo_links(self) -> list[tuple[str, str]]:
        """(table id, secret) of the demo table, for the CLI's start-up message."""
        path = self.settings.data_dir / "demo-secret.txt"
        if DEMO_ID in self.tables and path.exists():
            return [(DEMO_ID, path.read_text(encoding="utf-8").strip())]
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
                    die: str) -> int:
        """Start a round with a deck card (by id) or a typed grid, and the rolled face.

        :raises CardError, DieError, IllegalCommandError:
        """
        table = self.get(table_id)
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

    def demo_round(self, table_id: str) -> int:
        """The demo table's next scripted round: cameras show its photos, card and die from
        the scene's label. :raises ConflictError: not a demo table."""
        table = self.get(table_id)
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

    def done(self, table_id: str, seat: int, upload: bytes | None,
             filename: str = "upload") -> int:
        """A builder's "done" (or the photo of a build still awaiting one): freeze, store,
        judge in the background.

        :raises IllegalCommandError: the rules refuse it; UnsupportedPhotoError / PhotoError:
            a bad upload; ConflictError: the camera has no frame.
        """
        table = self.get(table_id)
        frame = self._upload_frame(upload, filename) if upload else None
        with table.lock:
            st = table.state
            b = st.builder(seat) if 0 <= seat < len(st.players) else None
            rnd = st.round_no
            shot = table.shots.get((rnd, seat))
            late = (b is not None and b.status in ("done", "stopped") and b.verdict is None
                    and (shot is None or not shot.judging))
            if late:  # the photo of a build that has no verdict yet (phone place, or retry)
                items: list[tuple[str, dict[str, Any]]] = []
            else:
                items = self._decide(table, game.Done(seat))
            if frame is not None and b is not None:  # the phone is this place's camera
                src = table.sources[b.place] if b.place < len(table.sources) else None
                if isinstance(src, UploadSource):
                    src.put(frame)
            frame = frame or self._camera_frame(table, seat)
            items = [("server:photo", self._save(table, rnd, seat, frame))] + items
            for kind, data in list(items):
                if kind == "round_closed":  # the last builder's frame, at the same moment
                    last = data["last"]
                    f = self._camera_frame(table, last, required=False)
                    if f is not None:
                        items.append(("server:photo", self._save(table, rnd, last, f)))
            seq = self._commit(table, items)
            for kind, data in items:
                if kind == "server:photo":
                    self._queue_judging(table, rnd, data["player"])
        return seq

    def decide(self, table_id: str, seat: int, correct: bool, by: int | None = None) -> int:
        """The lookout's decision on an unsure build (`by` defaults to the lookout; for the
        lookout's own build each other player votes with `by`). :raises IllegalCommandError:"""
        table = self.get(table_id)
        with table.lock:
            who = table.state.lookout if by is None else by
            return self._commit(table, self._decide(table, game.Decide(who, seat, correct)))

    def end_round(self, table_id: str) -> int:
        """Void the round by the lookout's hand. :raises IllegalCommandError:"""
        table = self.get(table_id)
        with table.lock:
            return self._commit(table, self._decide(table,
                                                    game.VoidRound(table.state.lookout)))

    # ---- photos and judging ---------------------------------------------------------------

    def _upload_frame(self, data: bytes, filename: str) -> Frame:
        if len(data) > self.settings.max_upload_bytes:
            raise UploadTooLargeError(f"{filename!r} is {len(data)} bytes; the limit is "
                                      f"{self.settings.max_upload_bytes} bytes")
        check_photo_bytes(data, filename)
        image = judging.decode(data)
        return Frame(image, time.time(), "upload", data)

    def _camera_frame(self, table: Table, seat: int, required: bool = True) -> Frame | None:
        b = table.state.builder(seat)  # the place this round gave the builder
        place = b.place if b is not None else None
        src = table.sources[place] if place is not None and place < len(table.sources) else None
        frame = src.latest() if src is not None else None
        if frame is None and required:
            why = ("send a photo from the phone" if isinstance(src, UploadSource)
                   else f"the camera says: {src.status().detail if src else 'none'}")
            raise ConflictError(f"no frame for {table.state.players[seat]}'s place; {why}")
        return frame

    def _photo_dir(self, table: Table) -> Path:
        d = self.settings.photos_dir / table.id
        d.mkdir(parents=True, exist_ok=True)
        return d

    def _write(self, path: Path, data: bytes) -> None:
        tmp = path.with_suffix(".part")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)

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
            station = station_path(table.config["places"][b.place]["station"])
            image = judging.decode((self._photo_dir(table) / shot.photo).read_bytes())
            face = DieFace.parse(st.die or "bear")
            result = judging.judge_photo(image, station, list(st.target), face, st.level)
        except Exception as e:  # record why, never invent a verdict; a new photo may retry
            msg = str(e) if isinstance(e, RefereeError) else f"{type(e).__name__}: {e}"
            if not isinstance(e, RefereeError):
                traceback.print_exc()
            self._note_failure(table, rnd, seat, msg)
            return
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

    def _note_failure(self, table: Table, rnd: int, seat: int, msg: str) -> None:
        self._commit(table, [("server:judge_failed",
                              {"round": rnd, "player": seat, "error": msg})])

    def photo_path(self, table_id: str, name: str) -> Path:
        """:raises UnknownTableError: also for a photo name that is not the table's."""
        table = self.get(table_id)
        known = {s.photo for s in table.shots.values()} | {
            s.overlay for s in table.shots.values() if s.overlay}
        if name not in known:
            raise UnknownTableError(f"no photo {name!r} at table {table_id!r}")
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

    def summaries(self) -> list[dict[str, Any]]:
        return [{"id": t.id, "name": t.name, "players": list(t.state.players),
                 "phase": t.state.phase, "demo": bool(t.config.get("demo"))}
                for t in self.tables.values()]

    def health(self) -> dict[str, Any]:
        assert self.store is not None
        self.store.table_ids()  # the database answers
        return {"status": "ok", "tables": len(self.tables),
                "cameras": {t.id: [s.status().state for s in t.sources]
                            for t in self.tables.values()}}

    def view(self, table_id: str) -> dict[str, Any]:
        """The table as the phones see it (no secret); see docs/server.md for the shape."""
        table = self.get(table_id)
        with table.lock:
            return table_view(table)
