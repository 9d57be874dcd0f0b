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
from referee.vision.colour import (
    NONE,
    channel_orders,
    face_distances,
    paper_white,
    table_centres,
    to_lab,
)
from referee.vision.fit import BarFit, band_vector_mm, bar_candidates, face_fill, length_slack_u
from referee.vision.grooves import anchor_top, refine
from referee.vision.mat import PAPER_BEYOND
from referee.vision.pose import MatDetection, Pose, detect_mats, is_weak, solve_pose
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
    channel_fit: dict[tuple[int, int, int], float] = field(default_factory=dict)
    face_distance: dict[str, float] = field(default_factory=dict)
    paper_bgr: np.ndarray | None = None


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
    camera = station.camera_for(image.shape)
    w0, h0 = station.image_size
    if (image.shape[1] - image.shape[0]) * (w0 - h0) < 0:  # never turned back to be judged
        lap("pose")
        return _problem("photo:rotated", "the photo is turned a quarter turn against the "
                        "station's camera: hold the phone the other way, or turn the camera",
                        unit, m)
    dets, n_seen = detect_mats(gray, camera, station.dist_coeffs, s.pose.min_markers,
                               s.pose.marker_inlier, s.pose.marker_inlier_tight)
    if not dets or n_seen == 0:
        lap("pose")
        return _problem(*_no_mat(image, gray, station, n_seen, s), unit, m)
    chosen = choose_mat(dets, image.shape, camera, station, s)
    if isinstance(chosen, str):
        lap("pose")
        return _problem("mat:several", chosen, unit, m)
    det = chosen
    weak = is_weak(det, s)
    if weak:
        lap("pose")
        if _mirrored(gray, station, s):
            return _problem(*_no_mat(image, gray, station, 0, s), unit, m)
        return _problem("mat:partly-hidden" if det.n_markers else "mat:weak",
                        f"the referee mat is not seen well enough ({weak}); is part of it "
                        "covered, or outside the photo?", unit, m)
    pose = solve_pose(det, camera, station.dist_coeffs)
    m.pose = pose
    lap("pose")
    # the reprojection limit is for a ~1280 px photo; a larger photo has larger pixels' worth
    rms_limit = s.pose.max_pose_rms_px * max(1.0, max(image.shape[:2]) / 1280.0)
    if pose.rms_px > rms_limit or pose.tvec.ravel()[2] <= 0:
        return _problem("mat:weak", f"the mat's pose does not fit well ({pose.rms_px:.1f} px): "
                        "is the mat flat? If it is, check the station's camera calibration",
                        unit, m)
    try:
        white = paper_white(image, pose)
    except ValueError as e:
        return _problem("mat:weak", str(e), unit, m)
    m.paper_bgr = white
    if float(white.mean()) < s.exposure.min_paper_luma:
        return _problem("photo:dark", "the photo is too dark to tell the colours", unit, m)
    # the paper may clip (webcams expose for the scene); that only matters where the stones
    # themselves are blown out, or where a stone that is not found could be a blown-out one
    paper_clipped = float(white.min()) >= s.exposure.clipped_level
    model = station.colour_model
    others = table_centres(image, white, pose, model, s.colour.table_classes)
    lap("colour")
    view = FrontView.for_settings(s.rectify.px_per_mm, s.rectify.view_height_mm)
    m.view = view
    front = rectify(image, pose, view)
    lap("rectify")
    lab = to_lab(front, white)
    labels = model.labels(lab, station.colours, others)
    masks = {c: labels == i for i, c in enumerate(station.colours)}
    # snow, stones and paper can hold a stone up; snow in shade, or next to a table of
    # nearly its colour, may fall outside every class, but it stays neutral and not dark
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    support = (labels >= 0) | ((chroma < s.colour.neutral_chroma) &
                               (lab[..., 0] > s.colour.min_snow_lightness))
    lap("segment")
    band = band_vector_mm(pose, view, unit)
    doubt_mm = s.build.depth_doubt_mm * math.tan(elevation_rad(pose))
    # a counted stone stands on the paper beyond the board (WORLD.md §5), its centre over
    # the paper; nothing stands below the table (but a face set forward looks lower)
    x0, x1 = PAPER_BEYOND[0], PAPER_BEYOND[1]
    top = s.rectify.view_height_mm
    regions = {"H": (x0 - 2.5 * unit, x1 - 2.5 * unit, -doubt_mm, top - unit),
               "V": (x0 - 0.5 * unit, x1 - 0.5 * unit, -doubt_mm, top - 5 * unit)}
    fits, all_cands = [], {}
    table_band = doubt_mm + s.fit.table_band_mm
    for colour in station.colours:
        cands = bar_candidates(masks[colour], colour, view, unit, band, regions, support,
                               table_band_mm=table_band, **_template_settings(s))
        all_cands[colour] = cands
        f = choose(cands, lab[..., 0], view, unit, s)
        if f is not None:
            fits.append(f)
    fits = ground(fits, all_cands, support, lab[..., 0], view, unit, table_band, s)
    chromatic = model.chromatic(station.colours)
    fits = [_pin(f, masks, lab[..., 0], view, unit, band, chromatic, s) if f.supported else f
            for f in fits]
    m.fits = fits
    lap("fit")
    out = front.min(axis=2) >= s.exposure.clipped_level  # blown out in every channel
    blown = [f.colour for f in fits if face_fill(out, view, unit, f.orientation, f.x_mm,
                                                 f.h_mm) >= s.exposure.max_blown_face]
    faces = _face_colours(front, view, unit, fits, masks)
    m.channel_fit = channel_orders({c: v for c, v in faces.items() if c in chromatic}, white,
                                   model)
    m.face_distance = face_distances(faces, white, model)
    odd = _unknown_stone(lab, labels, view, unit, band, regions, fits, support, table_band, s) \
        if len([f for f in fits if f.fill >= s.fit.missing_fill]) < len(station.colours) else False
    # a stone is only missing where the photo's colours were checked on a coloured stone,
    # against the station's own colour calibration (default priors fit no edition for sure)
    odd = odd or not m.channel_fit or model.source != "photo"
    m.build = assemble(fits, unit, doubt_mm, s, station.colours, paper_clipped, blown, odd)
    why = colour_doubt(m.channel_fit, model.source, s)
    if why:
        m.build = replace(m.build, problems=(*m.build.problems, Unmeasured("photo:colours", why)))
    lap("build")
    return m


def _mirrored(gray: np.ndarray, station: Station, s: VisionSettings) -> bool:
    """Whether the mat is found well in the photo flipped left to right (and so the photo is
    a mirror image, as a phone's front camera takes). Only asked when the mat is not found."""
    flipped, _ = detect_mats(cv2.flip(gray, 1), station.camera_for(gray.shape),
                             station.dist_coeffs, s.pose.min_markers, s.pose.marker_inlier,
                             s.pose.marker_inlier_tight)
    return any(not is_weak(d, s) for d in flipped)


def _no_mat(image: np.ndarray, gray: np.ndarray, station: Station, n_seen: int,
            s: VisionSettings) -> tuple[str, str]:
    """The reason code and words for a photo in which no mat was found (WORLD.md §4)."""
    if float(gray.max()) < s.pose.black_level or float(gray.std()) < s.pose.flat_std:
        return "camera:black", ("the camera sends a black (or blank) picture: is its lens "
                                "covered, or the camera off?")
    if _mirrored(gray, station, s):
        return "photo:mirrored", ("the photo is mirrored (a phone's front camera does that): "
                                  "take it with the back camera, or turn mirroring off")
    if n_seen:
        return "mat:partly-hidden", ("only part of the referee mat is seen: is it covered, or "
                                     "partly outside the photo?")
    return "mat:not-found", ("the referee mat was not found: is it in the photo, flat and lit, "
                             "with its top edge away from the camera?")


def choose_mat(dets: list[MatDetection], shape: tuple[int, ...], camera: np.ndarray,
               station: Station, s: VisionSettings) -> MatDetection | str:
    """This station's mat among the mats found (issue: identical mats of three builders on one
    table, spare markers): the one whose pose lies nearest the pose stored with the station
    (`station.mat_pose`), else the one whose build zone lies nearest the bottom centre of the
    photo, measured in the board's own width there (a neighbour's mat further back looks
    smaller). Returns the reason's words instead when two fit that rule about equally (their
    distances within `several_ratio` of each other).
    """
    usable = [d for d in dets if not is_weak(d, s)]
    if len(usable) <= 1:
        return (usable or dets)[0]
    h, w = shape[:2]
    dist = []
    for d in usable:
        pose = solve_pose(d, camera, station.dist_coeffs)
        if station.mat_pose is not None:
            dist.append(pose_distance(pose, *station.mat_pose))
        else:  # in px of the board's own width: a farther mat looks smaller and higher
            ends = pose.project(np.array([[140.0, -40.0, 0.0], [0.0, 0.0, 0.0],
                                          [280.0, 0.0, 0.0]]))
            width = max(float(np.linalg.norm(ends[2] - ends[1])), 1.0)
            dist.append(float(np.hypot(ends[0][0] - w / 2, ends[0][1] - h)) / width)
    order = np.argsort(dist)
    a, b = dist[order[0]], dist[order[1]]
    if b < s.pose.several_ratio * max(a, 1e-6):
        return ("two referee mats are in view and the referee cannot tell which is this "
                "station's: move the other mat out of view, or turn this camera to its mat")
    return usable[int(order[0])]


def pose_distance(pose: Pose, rvec: np.ndarray, tvec: np.ndarray) -> float:
    """How far a pose lies from a stored one: mm of the board origin's move plus 10 mm per
    degree of turn (a few cm and degrees tell one mat from its neighbour)."""
    move = float(np.linalg.norm(pose.tvec.ravel() - np.asarray(tvec, np.float64).ravel()))
    r = pose.rotation.T @ cv2.Rodrigues(np.asarray(rvec, np.float64).reshape(3, 1))[0]
    turn = math.degrees(math.acos(max(-1.0, min(1.0, (float(np.trace(r)) - 1) / 2))))
    return move + 10.0 * turn


def _template_settings(s: VisionSettings) -> dict:
    """The bar template's settings, as `fit.bar_candidates` takes them."""
    f = s.fit
    return {"min_support": f.min_support, "per_orientation": f.per_orientation,
            "strip_mm": f.strip_mm, "min_peak": f.min_peak}


def _pin(f: BarFit, masks: dict[str, np.ndarray], lum: np.ndarray, view: FrontView,
         unit: float, band: tuple[float, float], chromatic: str, s: VisionSettings) -> BarFit:
    """The fit with its slack along its length (`length_slack_u`); a vertical bar of a
    `chromatic` colour that can slide is placed from its top end where that end shows
    (`grooves.anchor_top`). A grey stone is not: snow in shade takes its colour, so the top
    of its colour may be snow."""
    mask = masks[f.colour]
    slack = length_slack_u(mask, view, unit, f, band, s.fit.slack_fill_tolerance)
    if slack >= s.fit.max_slack_u and f.orientation == "V" and s.fit.anchor_top and \
            f.colour in chromatic:
        others = np.zeros_like(mask)
        for c, m in masks.items():
            if c != f.colour:
                others |= m
        a = anchor_top(f, mask, lum, others, view, unit, band)
        # the top end can only move the bar within its slack, and never under the table
        if a is not None and abs(a.h_mm - f.h_mm) <= (slack + 0.5) * unit and \
                a.h_mm >= -s.build.depth_doubt_mm - s.fit.table_band_mm:
            a = refine(a, lum, view, unit, s.grooves.reach_u, s.grooves.edge_reach_u) \
                if s.grooves.use_grooves else a
            return replace(a, slack_u=0.0, anchored=True)
    return replace(f, slack_u=slack)


def _rect(f: BarFit, unit: float) -> tuple[float, float, float, float]:
    w, h = (5 * unit, unit) if f.orientation == "H" else (unit, 5 * unit)
    return f.x_mm, f.h_mm, w, h


def _touches(f: BarFit, others: list[BarFit], unit: float, reach_mm: float) -> bool:
    """Whether f's face comes within `reach_mm` of another fit's face (front view)."""
    fx, fh, fw, fhh = _rect(f, unit)
    for o in others:
        if o.colour == f.colour:
            continue
        ox, oh, ow, ohh = _rect(o, unit)
        gx = max(0.0, max(fx, ox) - min(fx + fw, ox + ow))
        gh = max(0.0, max(fh, oh) - min(fh + fhh, oh + ohh))
        if math.hypot(gx, gh) <= reach_mm:
            return True
    return False


def grounded(f: BarFit, support: np.ndarray, view: FrontView, unit: float, table_band_mm: float,
             min_share: float = 0.7) -> bool:
    """Whether a chain of things that can hold a stone up (snow, stones) runs from f's
    bottom face down to the table: in some unit-wide column under it, at least `min_share`
    of the front view's `support` mask (H×W bool) between its bottom and the table.

    A stone in the build stands on the paper, on snow on the paper, or on other stones; a
    look-alike far behind the mat (a box, a wall) stands on the table far back, which the
    front view shows well above the table plane, with table between.
    """
    if f.h_mm <= table_band_mm:
        return True
    cells = 5 if f.orientation == "H" else 1
    s = view.px_per_mm
    _, r_bottom = view.to_px(f.x_mm, f.h_mm)
    _, r_table = view.to_px(f.x_mm, table_band_mm)
    r0, r1 = int(round(float(r_bottom))), int(round(float(r_table)))
    for k in range(cells):
        c, _ = view.to_px(f.x_mm + (k + 0.5) * unit, 0.0)
        c0, c1 = int(round(float(c) - 0.25 * unit * s)), int(round(float(c) + 0.25 * unit * s))
        block = support[max(r0, 0):max(r1, 0), max(c0, 0):max(c1, 0)]
        if block.size and float(block.mean()) >= min_share:
            return True
    return False


def ground(fits: list[BarFit], cands: dict[str, list[BarFit]], support: np.ndarray,
           lum: np.ndarray, view: FrontView, unit: float, table_band_mm: float,
           s: VisionSettings) -> list[BarFit]:
    """Each chosen stone held up: grounded (see `grounded`) or touching another stone.

    A fit that is neither is re-chosen among its colour's candidates under that constraint
    (issue: a stone found on a purple wall far behind the mat, 15 u high); when none holds,
    it is kept as unsupported (`stone:unsupported:X`, unsure).
    """
    good = [f for f in fits if f.supported and f.fill >= s.fit.min_stone_fill]
    reach = s.fit.touch_reach_u * unit
    out = []
    for f in fits:
        if f not in good or grounded(f, support, view, unit, table_band_mm) or \
                _touches(f, good, unit, reach):
            out.append(f)
            continue
        held = [c for c in cands[f.colour] if c.supported and c.fill >= s.fit.min_stone_fill and
                (grounded(c, support, view, unit, table_band_mm) or _touches(c, good, unit, reach))]
        if held:
            out.append(choose(held, lum, view, unit, s) or held[0])
        else:
            out.append(replace(f, supported=False))
    return out


def choose(cands: list[BarFit], lum: np.ndarray, view: FrontView, unit: float,
           s: VisionSettings) -> BarFit | None:
    """The stone among a colour's candidates: the best-scoring one that is held up and full
    enough, with a bonus where its grooves show (a stone's signature that look-alikes lack)."""
    if not cands:
        return None
    good = [c for c in cands if c.supported and c.fill >= s.fit.min_stone_fill]
    if not good:
        # the best look-alike: held up by nothing, or too little of it shows
        return cands[0]
    refined = [refine(c, lum, view, unit, s.grooves.reach_u, s.grooves.edge_reach_u)
               if s.grooves.use_grooves else c for c in good]
    return max(refined, key=lambda c: c.score + s.grooves.groove_bonus * c.grooves)


def _unknown_stone(lab: np.ndarray, labels: np.ndarray, view: FrontView, unit: float,
                   band: tuple[float, float], regions: dict[str, tuple[float, ...]],
                   fits: list[BarFit], support: np.ndarray, table_band_mm: float,
                   s: VisionSettings) -> bool:
    """Whether a stone-shaped thing of no stone colour stands in the build's place.

    lab: front-view Lab (H×W×3 float32); labels: its classes (`ColourModel.labels`). The
    chromatic pixels (chroma >= `neutral_chroma`) that no stone colour or snow takes are
    fitted with the bar template (fit.py), as a stone's colour would be; a fit of at least
    `min_unknown_score` that is held up as a stone is (`grounded`, or touching a stone) is a
    bar in a colour the calibration does not know (a photo whose colours came through
    another path, or light that changed): a stone not found may be it.
    """
    odd = (labels == NONE) & (np.hypot(lab[..., 1], lab[..., 2]) >= s.colour.neutral_chroma)
    cands = bar_candidates(odd, "?", view, unit, band, regions, None,
                           **{**_template_settings(s), "per_orientation": 3})
    good = [f for f in fits if f.supported and f.fill >= s.fit.min_stone_fill]
    return any(c.score >= s.fit.min_unknown_score and c.fill >= s.fit.min_stone_fill and
               (grounded(c, support, view, unit, table_band_mm) or
                _touches(c, good, unit, s.fit.touch_reach_u * unit)) for c in cands)


def colour_doubt(fit: dict[tuple[int, int, int], float], source: str, s: VisionSettings
                 ) -> str | None:
    """Why the stones' colours cannot be trusted (the colour self-check), or None.

    fit: `channel_orders` of the found stones. Another channel order fitting better than
    the photo's own (by `channel_order_ratio`) means the frame came through a path with
    another byte order; stones far from every calibrated colour (`max_colour_distance`,
    only for a station's own colour photo: default priors are loose) mean the light or the
    camera changed since calibration. Either way colour faults would be guesses.
    """
    own = fit.get((0, 1, 2))
    if own is None:
        return None
    best = min((v for k, v in fit.items() if k != (0, 1, 2)), default=math.inf)
    if best < s.colour.channel_order_ratio * own:
        return ("the photo's colour channels seem swapped (another capture path or camera "
                "driver than at colour calibration); calibrate the colours again through this "
                "camera")
    if source == "photo" and own > s.colour.max_colour_distance:
        return ("the stones' colours are far from the station's colour calibration (other "
                "light, or another camera); calibrate the colours again")
    return None


def _face_colours(front: np.ndarray, view: FrontView, unit: float, fits: list[BarFit],
                  masks: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Median BGR (3,) float of each well-seen fitted face's own-colour pixels in `front`."""
    s = view.px_per_mm
    out = {}
    for f in fits:
        if not f.supported or f.fill < 0.6:
            continue
        w, h = (5 * unit, unit) if f.orientation == "H" else (unit, 5 * unit)
        c0, r1 = view.to_px(f.x_mm, f.h_mm)
        c0, r1 = int(round(float(c0))), int(round(float(r1)))
        r0, c1 = r1 - round(h * s), c0 + round(w * s)
        sl = (slice(max(r0, 0), max(r1, 0)), slice(max(c0, 0), max(c1, 0)))
        px = front[sl][masks[f.colour][sl]]
        if len(px) >= 20:
            out[f.colour] = np.median(px, axis=0).astype(np.float32)
    return out


def elevation_rad(pose: Pose) -> float:
    """The camera's elevation above the table, seen from the build line (radians)."""
    c = pose.camera_centre_mm()
    horiz = math.hypot(c[0] - 140.0, c[1] + 15.0)
    return math.atan2(-c[2], horiz)
