"""The build places of a table: their cameras (made, shared, refused), the frame a "done"
waits for, the previews that aim a camera, the demo's photo folders, and a station's colours
calibrated through its own camera."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.paths import MODELS, ROOT
from referee.server import demo as demo_mod
from referee.server import judging
from referee.server.cameras import (
    BrokenSource,
    CameraError,
    FolderSource,
    FrameSource,
    why_of,
)
from referee.server.errors import (
    ConflictError,
    UnknownPlaceError,
)
from referee.server.judging import JudgingWorker
from referee.server.service_base import log, plain_words
from referee.server.stations import station_path
from referee.server.table import STALE, Table


class Places(JudgingWorker):
    """The table service's build places and their cameras."""

    def folder_path(self, raw: object) -> Path:
        """The folder a folder camera may read: inside `<data>/folders/` or the project's
        models/demo/. A bare name is the folder of that name in `<data>/folders/` (`table1`:
        a new user typed the name and was refused); a relative path starting with `models/`
        is the project's, any other is the data folder's (`folders/table1`). Links and `..`
        are followed before the check, whichever way the path was written.

        :raises CameraError: a path elsewhere (e.g. /etc), in plain words.
        """
        text = str(raw or "").strip()
        if not text:
            raise CameraError("a folder camera needs a folder: its name in folders/ in the "
                              "data folder, e.g. table1", "camera.needs-path")
        roots = (self.settings.data_dir / "folders", MODELS / "demo")
        try:
            path = Path(text)
            if not path.is_absolute():
                first = path.parts[0] if path.parts else "."  # "." has no parts
                bare = len(path.parts) == 1 and first not in ("..", "models")
                base = (self.settings.data_dir / "folders" if bare
                        else ROOT if first == "models" else self.settings.data_dir)
                path = base / path
            path = path.resolve()
            if any(path.is_relative_to(r.resolve()) for r in roots):
                return path
        except (OSError, ValueError, RuntimeError):  # a NUL byte, a symlink loop, ...
            pass
        raise CameraError(f"a folder camera may only read a folder inside folders/ in the "
                          f"server's data folder (give its name: table1 for folders/table1) "
                          f"or models/demo/; {text[:80]!r} is elsewhere",
                          "camera.folder-elsewhere",
                          {"folder": text[:80]})

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
            why, code, params = why_of(e, "this camera's settings cannot be used",
                                       "camera.bad-settings")
            log.warning("camera of a stored table: %s", e)
            src = BrokenSource(str(spec.get("kind", "camera"))[:20], why, code, params)
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

    def _archived_sources(self, config: dict[str, Any]) -> list[FrameSource]:
        return [BrokenSource(str((p.get("camera") or {}).get("kind", "upload"))[:20],
                             "this table is archived", "camera.archived")
                for p in config.get("places") or []]

    def _place_source(self, table: Table, seat: int) -> FrameSource | None:
        """The camera of the place this round gave the builder (None: no such place)."""
        b = table.state.builder(seat)
        place = b.place if b is not None else None
        if place is None or not 0 <= place < len(table.sources):
            return None
        return table.sources[place]

    def _no_photo(self, rnd: int, seat: int, src: FrameSource | None,
                  reason: str = STALE) -> dict[str, Any]:
        """The note of a place whose camera gave no frame after "done": it asks for a photo
        (`reason`: `camera:stale`, no new picture in time; `camera:dead`, none at all)."""
        detail = src.status().detail if src is not None else "no camera"
        return {"round": rnd, "player": seat, "reason": reason, "camera": detail[:200]}

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

    def preview(self, table_id: str, place: int) -> bytes:
        """The newest frame of a place's camera as a small JPEG (for aiming the camera); it
        never waits on the camera. :raises UnknownPlaceError, ConflictError: no frame."""
        import cv2

        table = self.get(table_id)
        if not 0 <= place < len(table.sources):
            raise UnknownPlaceError(f"table {table_id!r} has no place {place}")
        cached = table.previews.get(place)
        taken_at = table.sources[place].latest_time()
        if cached is not None and taken_at is not None and cached[0] == taken_at:
            return cached[1]  # (an upload's photo is decoded from its file only once)
        frame = table.sources[place].latest()
        if frame is None:  # a dead camera's code says why in the phone's language
            st = table.sources[place].status()
            raise ConflictError(f"place {place + 1} has no frame now: {st.detail}", st.code,
                                st.params)
        img = frame.image_bgr
        scale = min(1.0, 480 / max(img.shape[:2]))
        if scale < 1.0:
            img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 75])
        table.previews[place] = (frame.taken_at, buf.tobytes())
        return table.previews[place][1]

    def _show_demo_photos(self, table: Table, index: int) -> None:
        r = demo_mod.script().rounds[index % len(demo_mod.script().rounds)]
        for src, name in zip(table.sources, r.photos, strict=False):
            if isinstance(src, FolderSource):
                src.show(name)

    def calibrate_colours(self, station_id: str, table_id: str, place: int,
                          order: str | None) -> dict[str, Any]:
        """Learn a station's colours from a frame of a table's place camera, taken through the
        station's own camera path (so a driver's channel order is learned with it), and keep
        the model, the mat's pose and the camera's kind and pixel format in the station's
        profile (calibration/stations/<id>.yaml). The admin's only.

        :raises UnknownStationError, UnknownPlaceError; ConflictError: the camera has no
            frame; StationError, CalibrationError: a bad order, or no mat or stack in view.
        """
        from referee.vision.calibration import learn_colours
        from referee.vision.station import check_stack_order, profile_path, save_colour_calibration

        path = station_path(station_id)
        table = self.get(table_id)
        if not 0 <= place < len(table.sources):
            raise UnknownPlaceError(f"table {table_id!r} has no place {place + 1}")
        src = table.sources[place]
        frame = (src.latest() if src.still
                 else src.frame_after(time.time(), self.settings.camera_stale_s))
        if frame is None:  # a dead camera's code says why in the admin's language
            st = src.status()
            raise ConflictError(f"place {place + 1}'s camera has no picture now: {st.detail}",
                                st.code, st.params)
        # kept under the id asked for (its file's name), never the file's `id:` field: a copy
        # of the example profile keeps the example's, whose file it would overwrite
        station = replace(judging.load_station(path), id=station_id)
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
                "profile": plain_words(str(saved)),
                "colours": {c: [round(float(v), 1) for v in lab]
                            for c, lab in model.centres.items()}}
