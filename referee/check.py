"""A photo judged against a card: vision's measured build handed to the Tuki judge.

This is the one place where pixels and rules meet (docs/architecture.md: camera → vision →
MeasuredBuild → judge); the CLI and the server call it, never the stages themselves.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from referee.build import MeasuredBuild
from referee.tuki.die import DieFace
from referee.tuki.judge import Reason, Verdict, judge
from referee.vision.photo import decode_photo, read_photo  # noqa: F401  (re-exported)
from referee.vision.settings import VisionSettings, default_settings
from referee.vision.station import Station, load_station  # noqa: F401  (re-exported)

UNSTEADY = ("the verdict changes when the photo is a little softer or saved again, so it is "
            "not clear enough to hand out a penalty card: the lookout decides (a sharper photo, "
            "in steadier light, helps)")
FOCAL_DOUBT = ("the phone's camera could not be worked out well enough from the mat in this "
               "photo, and the verdict depends on it: take it with the whole mat in view, from "
               "a little higher")


@dataclass
class PhotoCheck:
    """verdict; build (MeasuredBuild); overlay_bgr (H×W×3 uint8: the photo with the fitted
    stones and faults drawn); timings_ms per stage plus `judge` and `total`; paper_bgr: the
    mat paper's median B, G, R (0–255) where the mat was found; mat_pose: (rvec, tvec) of the
    mat (Rodrigues, mm) when it was the only mat in view and measured without a doubt about
    the mat or the photo, else None (a station may keep it to tell its own mat from a
    neighbour's: WORLD.md §4 `mat:several`)."""

    verdict: Verdict
    build: MeasuredBuild
    overlay_bgr: np.ndarray | None
    timings_ms: dict[str, float] = field(default_factory=dict)
    paper_bgr: tuple[float, float, float] | None = None
    mat_pose: tuple[list[float], list[float]] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The WORLD.md §4 verdict shape plus `build` and `timings_ms` (`referee judge --json`)."""
        return {**self.verdict.to_dict(), "build": self.build.to_dict(),
                "timings_ms": self.timings_ms}


def check_photo(image_bgr: np.ndarray, station: Station, target_rows: Iterable[str],
                face: DieFace | str, level: str | None = None, overlay: bool = True,
                captions: bool = True, intrinsics: str = "station",
                settings: VisionSettings | None = None) -> PhotoCheck:
    """Judge the build in a H×W×3 uint8 BGR photo against the target (the turned card).

    target_rows: the target grid, rows top to bottom (WORLD.md §2); face: the die face, e.g.
    `fish+white`; level: normal | advanced, default the station's; overlay: draw
    `overlay_bgr` (captions: with the verdict and faults in English words on it);
    intrinsics: "station", or "from-mat" for a phone's photo of a camera's station. What the
    photo shows never raises (it makes an unsure verdict). A phone's photo whose focal length
    the mat pins down only roughly (`Measurement.focal_checks`) is measured and judged again
    at each of those focal lengths: a verdict that changes with it is unsure (`mat:weak`).
    A build judged wrong is measured and judged again on the photo a little softer and on it
    saved again as a JPEG (`steady`, settings.SteadySettings): a verdict that changes with
    either is unsure (`photo:unclear`). A break-it trial found correct builds judged wrong
    whose verdict a JPEG save, a 0.2 % colour fringe or a sharpening turned; of 255 builds
    judged wrong on 749 labelled photos, 7 rightly judged ones turn unsure. settings: the
    vision settings (default: models/vision.yaml).
    :raises CardError: a target that is no valid grid of the level; DieError: an unknown
        face; LevelError: an unknown level (from `tuki.judge.judge`).
    """
    from referee.vision.overlay import draw_overlay
    from referee.vision.pipeline import measure

    rows, level = list(target_rows), level or station.level  # rows read once (an iterator)
    s = settings or default_settings()
    t0 = time.perf_counter()
    m = measure(image_bgr, station, s, intrinsics=intrinsics)
    t1 = time.perf_counter()
    verdict = judge(rows, face, m.build, level)
    t2 = time.perf_counter()
    def holds(others: Iterable[Any]) -> bool:  # the same verdict on every other measurement
        return all(judge(rows, face, o.build, level).verdict == verdict.verdict for o in others)

    if verdict.verdict != "unsure" and not holds(
            measure(image_bgr, station, s, intrinsics=intrinsics, focal_scale=k)
            for k in m.focal_checks):
        verdict = Verdict("unsure", reasons=(Reason("mat:weak", FOCAL_DOUBT),))
    t3 = time.perf_counter()
    if verdict.verdict == "wrong" and not holds(
            measure(changed, station, s, intrinsics=intrinsics)
            for changed in slightly_changed(image_bgr, s)):
        verdict = Verdict("unsure", reasons=(Reason("photo:unclear", UNSTEADY),))
    t4 = time.perf_counter()
    timings = dict(m.timings_ms)
    timings["judge"] = round((t2 - t1) * 1000, 2)
    if m.focal_checks:
        timings["focal_checks"] = round((t3 - t2) * 1000, 2)
    if t4 - t3 > 1e-4:
        timings["steady"] = round((t4 - t3) * 1000, 2)
    timings["total"] = round((t4 - t0) * 1000, 2)
    img = draw_overlay(image_bgr, m, verdict, captions) if overlay else None
    paper = None if m.paper_bgr is None else \
        (float(m.paper_bgr[0]), float(m.paper_bgr[1]), float(m.paper_bgr[2]))
    sure_mat = m.pose is not None and m.mats_seen == 1 and not any(
        u.code.split(":")[0] in ("mat", "photo", "camera") for u in m.build.problems)
    pose = None if not sure_mat or m.pose is None else (
        [float(v) for v in m.pose.rvec.ravel()], [float(v) for v in m.pose.tvec.ravel()])
    return PhotoCheck(verdict, m.build, img, timings, paper, pose)


def slightly_changed(image_bgr: np.ndarray, s: VisionSettings) -> Iterator[np.ndarray]:
    """The H×W×3 uint8 BGR photo a little softer (a Gaussian blur of `steady.blur_px` px,
    cv2.GaussianBlur), then saved again as a JPEG at `steady.jpeg_quality` (cv2.imencode):
    changes a camera, a phone or a chat app makes without anyone seeing them. Each is made
    only when asked for (a verdict that changed with the first needs no second)."""
    if s.steady.blur_px > 0:
        yield cv2.GaussianBlur(image_bgr, (0, 0), s.steady.blur_px)
    if s.steady.jpeg_quality > 0:
        ok, jpeg = cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY,
                                                    s.steady.jpeg_quality])
        again = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
        if again is not None:
            yield np.asarray(again)
