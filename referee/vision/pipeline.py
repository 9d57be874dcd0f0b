"""Photo → measured build, stage by stage, with timings: the only vision entry the server uses.

Stages (each a function of its own module, timed here):
1. pose: find the mat (ChArUco) and the camera pose (pose.py);
2. colour: the paper's white, darkness check, the table's colours (colour.py);
3. rectify: the front view on the build line (rectify.py);
4. segment: Lab and per-colour masks (colour.py);
5. fit: one bar per colour (fit.py);
6. build: positions in u, gaps and table heights in mm → MeasuredBuild (WORLD.md §4).
What cannot be measured becomes a `problems` entry (unsure), never a guess.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from referee.build import MeasuredBuild, Unmeasured
from referee.vision.assemble import assemble
from referee.vision.colour import paper_white, table_centres, to_lab
from referee.vision.fit import BarFit, band_vector_mm, bar_candidates, face_fill, length_slack_u
from referee.vision.grooves import refine
from referee.vision.mat import PAPER_BEYOND
from referee.vision.pose import Pose, detect_mat, is_weak, solve_pose
from referee.vision.rectify import FrontView, rectify
from referee.vision.settings import VisionSettings, default_settings
from referee.vision.station import Station


@dataclass
class Measurement:
    """The pipeline's result: the build, and what a person needs to see why (overlay)."""

    build: MeasuredBuild
    pose: Pose | None = None
    view: FrontView | None = None
    fits: list[BarFit] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)


def _problem(code: str, text: str, unit_mm: float, m: Measurement) -> Measurement:
    m.build = MeasuredBuild((), unit_mm, (Unmeasured(code, text),))
    return m


def measure(image: np.ndarray, station: Station, settings: VisionSettings | None = None
            ) -> Measurement:
    """Measure the build in a H×W×3 uint8 BGR photo taken at `station`.

    Never raises for what a photo shows; a photo without the mat, too dark or with a hidden
    stone gives a build with `problems`.
    """
    s = settings or default_settings()
    unit = station.unit_mm
    m = Measurement(MeasuredBuild((), unit))
    t = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal t
        now = time.perf_counter()
        m.timings_ms[name] = round((now - t) * 1000, 2)
        t = now

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    det = detect_mat(gray)
    weak = is_weak(det, s)
    if weak:
        lap("pose")
        code = "mat:not-found" if det.n_markers + det.n_charuco == 0 else "mat:weak"
        return _problem(code, f"the referee mat was not found well enough ({weak})", unit, m)
    pose = solve_pose(det, station.camera_for(image.shape), station.dist_coeffs)
    m.pose = pose
    lap("pose")
    # the reprojection limit is for a ~1280 px photo; a larger photo has larger pixels' worth
    rms_limit = s.max_pose_rms_px * max(1.0, max(image.shape[:2]) / 1280.0)
    if pose.rms_px > rms_limit or pose.tvec.ravel()[2] <= 0:
        return _problem("mat:weak", f"the mat's pose does not fit well ({pose.rms_px:.1f} px); "
                        "check the station's camera calibration", unit, m)
    try:
        white = paper_white(image, pose)
    except ValueError as e:
        return _problem("mat:weak", str(e), unit, m)
    if float(white.mean()) < s.min_paper_luma:
        return _problem("photo:dark", "the photo is too dark to tell the colours", unit, m)
    # the paper may clip (webcams expose for the scene); that only matters where the stones
    # themselves are blown out, or where a stone that is not found could be a blown-out one
    paper_clipped = float(white.min()) >= s.clipped_level
    model = station.colour_model
    others = table_centres(image, white, pose, model, s.table_classes)
    lap("colour")
    view = FrontView.for_settings(s.px_per_mm, s.view_height_mm)
    m.view = view
    front = rectify(image, pose, view)
    lap("rectify")
    lab = to_lab(front, white)
    labels = model.labels(lab, station.colours, others)
    masks = {c: labels == i for i, c in enumerate(station.colours)}
    # snow, stones and paper can hold a stone up; snow in shade, or next to a table of
    # nearly its colour, may fall outside every class, but it stays neutral and not dark
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    support = (labels >= 0) | ((chroma < s.neutral_chroma) & (lab[..., 0] > s.min_snow_lightness))
    lap("segment")
    band = band_vector_mm(pose, view, unit)
    doubt_mm = s.depth_doubt_mm * math.tan(elevation_rad(pose))
    # a counted stone stands on the paper beyond the board (WORLD.md §5), its centre over
    # the paper; nothing stands below the table (but a face set forward looks lower)
    x0, x1 = PAPER_BEYOND[0], PAPER_BEYOND[1]
    top = s.view_height_mm
    regions = {"H": (x0 - 2.5 * unit, x1 - 2.5 * unit, -doubt_mm, top - unit),
               "V": (x0 - 0.5 * unit, x1 - 0.5 * unit, -doubt_mm, top - 5 * unit)}
    fits = []
    for colour in station.colours:
        cands = bar_candidates(masks[colour], colour, view, unit, band, regions, support,
                               table_band_mm=doubt_mm + s.table_band_mm)
        f = choose(cands, lab[..., 0], view, unit, s)
        if f is not None:
            if f.supported:
                f = replace(f, slack_u=length_slack_u(masks[colour], view, unit, f, band,
                                                      s.slack_fill_tolerance))
            fits.append(f)
    m.fits = fits
    lap("fit")
    blown = [f.colour for f in fits if _blown_share(front, view, unit, f, s) >= s.max_blown_face]
    m.build = assemble(fits, unit, doubt_mm, s, station.colours, paper_clipped, blown)
    lap("build")
    return m


def choose(cands: list[BarFit], lum: np.ndarray, view: FrontView, unit: float,
           s: VisionSettings) -> BarFit | None:
    """The stone among a colour's candidates: the best-scoring one that is held up and full
    enough, with a bonus where its grooves show (a stone's signature that look-alikes lack)."""
    if not cands:
        return None
    good = [c for c in cands if c.supported and c.fill >= s.min_stone_fill]
    if not good:
        # the best look-alike: held up by nothing, or too little of it shows
        return cands[0]
    refined = [refine(c, lum, view, unit) if s.use_grooves else c for c in good]
    return max(refined, key=lambda c: c.score + s.groove_bonus * c.grooves)


def _blown_share(front: np.ndarray, view: FrontView, unit: float, f: BarFit,
                 s: VisionSettings) -> float:
    """Share (0–1) of a fitted face whose pixels are blown out (every channel at or above
    `clipped_level`) in the front view `front` (H×W×3 uint8 BGR)."""
    blown = front.min(axis=2) >= s.clipped_level
    return face_fill(blown, view, unit, f.orientation, f.x_mm, f.h_mm)


def elevation_rad(pose: Pose) -> float:
    """The camera's elevation above the table, seen from the build line (radians)."""
    c = pose.camera_centre_mm()
    horiz = math.hypot(c[0] - 140.0, c[1] + 15.0)
    return math.atan2(-c[2], horiz)
