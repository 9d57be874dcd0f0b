"""The judging worker: photos frozen at "done" are stored, judged in a worker thread and the
verdict handed to the rules; and the one call into vision (a frozen photo, its station and the
round's target → a verdict).

`judge_photo` wraps `referee.check.check_photo` (where pixels meet the rules) and loads
station profiles once; `JudgingWorker` is the table service's part that stores photos, queues
and runs the judging, keeps the stations' mat poses, and records why a photo could not be
judged. The verdict is exactly what the referee computed; nothing here makes one up.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from referee.errors import RefereeError
from referee.server.cameras import Frame
from referee.server.errors import (
    ConflictError,
    ReusedPhotoError,
    UnknownPhotoError,
    UploadTooLargeError,
)
from referee.server.files import sync_dir, write_synced
from referee.server.fingerprints import Fingerprint, fingerprint
from referee.server.service_base import ServiceBase, log, plain_words
from referee.server.stations import station_path
from referee.server.table import JUDGE_FAILED, Table
from referee.server.text import file_label, shown
from referee.server.uploads import check_photo_bytes
from referee.tuki import game
from referee.tuki.die import DieFace

_stations: dict[str, Any] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class Judged:
    """verdict: the WORLD.md §4 dict; overlay_jpeg: the photo with fitted stones and faults;
    build: the MeasuredBuild as a dict; timings_ms: per stage; mat_pose: the station's mat
    pose (rvec, tvec) when it alone was in view and sure (check.PhotoCheck), else None."""

    verdict: dict[str, Any]
    overlay_jpeg: bytes | None
    build: dict[str, Any]
    timings_ms: dict[str, float]
    mat_pose: tuple[list[float], list[float]] | None = None


def load_station(path: Path) -> Any:
    """The station profile at `path` (a folder with station.json, a station.json, or a
    profile YAML), cached. :raises StationError: (vision) for a bad profile."""
    from referee.vision.station import load_station as _load

    key = str(path)
    with _lock:
        if key not in _stations:
            _stations[key] = _load(path)
        return _stations[key]


def decode(data: bytes, max_pixels: int | None = None) -> np.ndarray:
    """H×W×3 uint8 BGR (a large JPEG decoded at a half, quarter or eighth of its size when
    that still leaves `max_pixels`: `vision.photo.decode_photo`). :raises PhotoError: a
    corrupt or unsupported file."""
    from referee.check import decode_photo

    return decode_photo(data, max_pixels)


def forget_station(path: Path) -> None:
    """Drop a cached profile (it was calibrated again)."""
    with _lock:
        _stations.pop(str(path), None)


def judge_photo(image_bgr: np.ndarray, station_path: Path, target_rows: list[str],
                face: Any, level: str,
                mat_pose: tuple[list[float], list[float]] | None = None,
                intrinsics: str = "station") -> Judged:
    """Run the referee on one photo; `mat_pose` (rvec, tvec), if given, is the station's mat
    pose as last seen for sure, used instead of the profile's; intrinsics "from-mat" for a
    phone's photo of a camera's station (vision.pipeline.phone_station), "auto" for a photo
    at a phone place: the station's camera where the photo has its shape, else worked out
    from the mat (another phone, or the same at another picture size: a new user's trial had
    every 16:9 photo at a 4:3 station refused as cropped). Errors of vision propagate (the
    caller records them)."""
    import dataclasses

    import cv2

    from referee.check import check_photo
    from referee.vision.pipeline import same_shape
    from referee.vision.settings import default_settings

    station = load_station(station_path)
    if intrinsics == "auto":
        same = same_shape(image_bgr.shape, station.image_size,
                          default_settings().pose.max_aspect_change)
        intrinsics = "station" if same else "from-mat"
        mat_pose = mat_pose if same else None  # where the station's camera saw the mat
    if mat_pose is not None:
        station = dataclasses.replace(station, mat_pose=(
            np.asarray(mat_pose[0], np.float64).reshape(3),
            np.asarray(mat_pose[1], np.float64).reshape(3)))
    # the overlay without its English captions: the phones show them in their own language
    result = check_photo(image_bgr, station, list(target_rows), face, level, captions=False,
                         intrinsics=intrinsics)
    ok, buf = (False, None) if result.overlay_bgr is None else \
        cv2.imencode(".jpg", result.overlay_bgr, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return Judged(result.verdict.to_dict(), buf.tobytes() if ok and buf is not None else None,
                  result.build.to_dict(),
                  {k: round(float(v), 1) for k, v in dict(result.timings_ms).items()},
                  result.mat_pose)


# a photo larger than this (px) is scaled down before it is stored and judged: a phone's
# 12 MP is far more than the referee needs (its accuracy is measured on 0.5 MP photos), and
# one judge serves every table
MAX_JUDGED_PIXELS = 4_000_000


def jpeg_metadata(data: bytes) -> bool:
    """Whether a JPEG's header holds metadata a stored photo must not keep: an APP1 to APP15
    segment (EXIF with where it was taken and the phone's make, XMP, ...) or a comment,
    before its first scan (`vision.photo.jpeg_header`). A camera's own frames hold none (or
    APP0, JFIF); a header that cannot be walked to its first scan counts as holding some
    (the photo is stored re-encoded)."""
    from referee.vision.photo import jpeg_header

    segments, end = jpeg_header(data)
    return end != "scan" or any(0xE1 <= m <= 0xEF or m == 0xFE for m, _, _ in segments)


# a photo in another format than JPEG larger than this (px) is refused before decoding
MAX_OTHER_PIXELS = 12_000_000
# uploads decoded at once: a 126 KB PNG may hold 40 MP (120 MB decoded); twenty sent together
# took 4 GB before (a break-it trial, 2026-12-01)
DECODING = threading.BoundedSemaphore(2)


def _judged_pixels(data: bytes) -> np.ndarray:
    """A photo's pixels as the referee judges them: decoded, at most `MAX_JUDGED_PIXELS`
    (a larger one scaled down). :raises PhotoError / PhotoTooLargeError:"""
    import cv2

    image = decode(data, MAX_JUDGED_PIXELS)
    h, w = image.shape[:2]
    if h * w > MAX_JUDGED_PIXELS:
        f = (MAX_JUDGED_PIXELS / (h * w)) ** 0.5
        image = cv2.resize(image, (max(1, int(w * f)), max(1, int(h * f))),
                           interpolation=cv2.INTER_AREA)
    return image


def _judge_photo_now(*args: Any, **kw: Any) -> Judged:
    """`judge_photo`, looked up when called (so that a test may stand in for it)."""
    return globals()["judge_photo"](*args, **kw)


class JudgingWorker(ServiceBase):
    """The table service's photos and judging: store a frozen photo, judge it in the worker
    thread, hand the verdict to the rules, or record in plain words why it could not be."""

    def _check_upload(self, data: bytes, filename: str) -> None:
        """An upload's size and kind, before any pixel is decoded.

        :raises UploadTooLargeError: over `max_upload_bytes`; UnsupportedPhotoError: not a
            photo format the referee reads; PhotoTooLargeError: a PNG, WebP or BMP over
            `MAX_OTHER_PIXELS`."""
        from referee.vision.photo import PhotoTooLargeError, header_size

        if len(data) > self.settings.max_upload_bytes:
            raise UploadTooLargeError(f"{file_label(filename)} is {len(data)} bytes; the limit is "
                                      f"{self.settings.max_upload_bytes} bytes")
        if check_photo_bytes(data, filename) != "jpeg":
            # a camera's photo is a JPEG, decoded at a reduced scale when large; a PNG of a
            # few hundred KB may hold 40 MP (16-bit) that take seconds to decode, again and
            # again when it is corrupt (a second break-it trial)
            size = header_size(data)
            if size is not None and size[0] * size[1] > MAX_OTHER_PIXELS:
                raise PhotoTooLargeError(
                    f"{file_label(filename)} is too large ({size[0]}×{size[1]} px); a PNG, "
                    f"WebP or BMP photo may have at most {MAX_OTHER_PIXELS // 1_000_000} "
                    "megapixels (a camera's JPEG may be larger)")

    def _upload_frame(self, data: bytes, filename: str) -> Frame:
        """The uploaded photo as a frame, at most `MAX_JUDGED_PIXELS` (a larger one scaled
        down: one huge photo cannot hold up every table's verdicts), decoded one at a time
        (`DECODING`: parallel uploads of small files that hold huge images cannot take the
        box's memory), and stored re-encoded (`_save`), never as sent: a phone's photo
        carries its place and make in its metadata (EXIF), which the table's view link would
        hand to anyone.

        The caller has checked the upload (`_check_upload`) before the rules took it.

        :raises PhotoError / PhotoTooLargeError: a corrupt file, or one over
            `vision.photo.MAX_PIXELS`."""
        with DECODING:
            image = _judged_pixels(data)
        return Frame(image, time.time(), "upload", None)

    def _photo_dir(self, table: Table) -> Path:
        d = self.settings.photos_dir / table.id
        if not d.is_dir():  # made, and its name made durable in its parents
            d.mkdir(parents=True, exist_ok=True)
            sync_dir(d.parent)
            sync_dir(d.parent.parent)
        return d

    def _write(self, path: Path, data: bytes) -> None:
        write_synced(path, data)

    def _stored(self, frame: Frame) -> tuple[bytes, Fingerprint]:
        """The file a frozen photo is stored as (the frame's own JPEG when it holds no
        metadata, else re-encoded), and its fingerprint: the pixels as taken, and as anyone
        who downloads the stored file and sends it gets them decoded (`_judged_pixels`)."""
        import cv2

        data = frame.data
        if data is None or not data.startswith(b"\xff\xd8") or jpeg_metadata(data):
            ok, buf = cv2.imencode(".jpg", frame.image_bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
            data = buf.tobytes()
        return data, fingerprint(_judged_pixels(data), frame.image_bgr)

    def _save(self, table: Table, rnd: int, seat: int, frame: Frame,
              stored: tuple[bytes, Fingerprint] | None = None) -> dict[str, Any]:
        """Store a frozen photo (`stored`: its file and fingerprint, made beforehand
        outside the table's lock; else made now); the note of its `server:photo` event."""
        data, fp = stored if stored is not None else self._stored(frame)
        name = f"r{rnd}-p{seat}-{secrets.token_hex(4)}.jpg"
        self._write(self._photo_dir(table) / name, data)
        return {"round": rnd, "player": seat, "photo": name, "fingerprint": fp.to_json()}

    def _check_fresh(self, table: Table, rnd: int, seat: int, fp: Fingerprint) -> None:
        """Refuse a photo sent for `seat`'s build that is a photo already frozen at this
        table for another builder of this round, or for anyone in an earlier round or game:
        it shows someone else's build, or an earlier one. The same builder may send the
        same photo again in the same round (a retry). Under table.lock.

        :raises ReusedPhotoError: (409, `photo.reused`) nothing is stored; the builder may
            send a photo of their own build."""
        for f in table.frozen:
            if (f.game, f.round, f.seat) == (table.games, rnd, seat):
                continue
            if f.fingerprint is None:  # an event stored before fingerprints were kept
                f.fingerprint = self._fingerprint_of_file(table, f.photo)
            if f.fingerprint is not None and fp.same(f.fingerprint):
                log.info("table %r: round %d, seat %d sent the photo frozen in round %d "
                         "for seat %d (game %d); refused", table.id, rnd, seat, f.round,
                         f.seat, f.game)
                whose = ("another builder's build this round"
                         if (f.game, f.round) == (table.games, rnd) else "an earlier round")
                raise ReusedPhotoError(
                    f"this photo was already taken at this table, of {whose}: a build is "
                    "judged only on a new photo of its own; take a photo of "
                    f"{table.state.players[seat]}'s build now and send it", "photo.reused")

    def _fingerprint_of_file(self, table: Table, name: str) -> Fingerprint | None:
        try:
            return fingerprint(_judged_pixels((self._photo_dir(table) / name).read_bytes()))
        except (OSError, RefereeError):
            return None

    def _queue_judging(self, table: Table, rnd: int, seat: int) -> None:
        """Queue a photo's judging. One worker judges for every table, and takes the tables
        waiting in turn (round robin): a table that sends photo after photo (a noise photo
        takes seconds) waits for its own, never holds up the other tables' verdicts."""
        with self._lock:
            self._waiting.setdefault(table.id, deque()).append((table, rnd, seat))
        self._pool.submit(self._judge_next)

    def _judge_next(self) -> None:
        """Judge the first photo of the table whose turn it is: of the tables with a photo
        waiting, the one whose last photo was judged longest ago."""
        with self._lock:
            ready = [t for t, jobs in self._waiting.items() if jobs]
            if not ready:
                return
            # the table served longest ago (never: first), the earliest to queue among equals
            table_id = min(ready, key=lambda t: self._served.get(t, -1))
            job = self._waiting[table_id].popleft()
            if not self._waiting[table_id]:
                del self._waiting[table_id]
            self._served[table_id] = next(self._turns)
        self._judge(*job)

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
            image = decode((self._photo_dir(table) / shot.photo).read_bytes())
            face = DieFace.parse(st.die or "bear")
            known = self.mat_poses.get(station_id)
            # a phone's photo of a place that has its own camera: the phone's intrinsics are
            # worked out from the mat in it, not taken from the station camera's profile
            kind = (table.config["places"][b.place].get("camera") or {}).get("kind", "upload")
            phone = shot.uploaded and kind != "upload"
            # at a phone place, the station's camera is a phone: used where the photo has
            # its shape, else the photo's own worked out from the mat (`judge_photo`)
            mode = "from-mat" if phone else "auto" if shot.uploaded else "station"
            result = _judge_photo_now(image, station, list(st.target), face, st.level,
                                         None if phone or not known else (known[0], known[1]),
                                         mode)
        except Exception as e:  # record why, never invent a verdict; a new photo may retry
            # the builder reads plain words: a RefereeError's own, else a sentence; the
            # details go to the server's log only (the events are public)
            log.warning("table %r: round %d, seat %d: the photo could not be judged",
                        table.id, rnd, seat, exc_info=e)
            msg = (plain_words(str(e), self.settings.data_dir) if isinstance(e, RefereeError)
                   else JUDGE_FAILED)
            self._note_failure(table, rnd, seat, msg)
            return
        # the mat's pose is learned from the station's own camera only: a phone's photo is
        # taken from anywhere (and anyone at a phone place may send one)
        if (result.mat_pose is not None and result.verdict.get("verdict") != "unsure"
                and not shot.uploaded and kind != "upload"):
            self._remember_mat_pose(station_id, result.mat_pose)
        overlay = None
        if result.overlay_jpeg:
            overlay = shot.photo.replace(".jpg", "-overlay.jpg")
            self._write(self._photo_dir(table) / overlay, result.overlay_jpeg)
        with table.lock:
            if table.state.round_no != rnd or table.state.ended:  # (the owner ended the
                return  # game meanwhile: no verdict is wanted, and no error is to be shown)
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
                              {"round": rnd, "player": seat, "error": msg, "plain": True})])

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

    def photo_path(self, table_id: str, name: str) -> Path:
        """:raises UnknownTableError: no such table; UnknownPhotoError: no such photo there."""
        table = self.get(table_id)
        known = {s.photo for s in table.shots.values()} | {
            s.overlay for s in table.shots.values() if s.overlay}
        if name not in known:
            raise UnknownPhotoError(f"no photo {shown(name)} at table {table_id!r}")
        return self._photo_dir(table) / name
