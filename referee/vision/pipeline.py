"""Photo → measured build, stage by stage, with timings: the only vision entry the server uses.

Stages (each a function of its own module, timed here; settings.py has a node per stage):
1. pose: the mats' markers grouped into boards, this station's mat, its pose (pose.py,
   mats.py), or the reason none is usable;
2. colour: the paper's white, the exposure checks, the table's colours (colour.py);
3. rectify: the front view on the build line (rectify.py);
4. segment: Lab and per-colour masks (colour.py);
5. fit: bar templates per colour (fit.py), each colour's stone chosen, held up and pinned
   along its length (choose.py, grooves.py);
6. build: positions in u, gaps and table heights in mm → MeasuredBuild (assemble.py,
   WORLD.md §4), and the colour self-check (selfcheck.py).
What cannot be measured becomes a `problems` entry (unsure), never a guess.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from functools import cache

import cv2
import numpy as np

from referee.build import MeasuredBuild, Orientation, Unmeasured
from referee.vision.assemble import OVER_EXPOSED, assemble, unshaped
from referee.vision.choose import (
    behind_piece,
    choose,
    from_top,
    ground,
    other_stones,
    pin,
    pinned_rival,
    resting,
    template_settings,
    unheld_parts,
)
from referee.vision.colour import (
    TABLE,
    WHITE,
    as_light_as_snow,
    may_hold,
    paper_white,
    table_centres,
    table_shade,
    to_lab,
    unclipped,
)
from referee.vision.depth import fits_at_depth, structure_depth
from referee.vision.ends import bare_top, face_below, lit_seam, odd_end, run_below, snow_like
from referee.vision.fit import BarFit, band_vector_mm, bar_candidates, face_fill
from referee.vision.grooves import groove_scale, unit_scale
from referee.vision.infront import foot_hidden, in_front
from referee.vision.lookalike import greyish, hued, unknown_stone, veiled_columns
from referee.vision.mat import PAPER_BEYOND
from referee.vision.mats import (
    MIRRORED,
    WASHED_OUT,
    camera_mismatch,
    choose_mat,
    edge_blur_mm,
    mirrored,
    no_mat_reason,
    washed_out,
)
from referee.vision.pose import Pose, detect_mats, is_weak, solve_pose
from referee.vision.rectify import FrontView, rectify
from referee.vision.refit import refit_lent, refit_tinted
from referee.vision.rivals import rivalled, rivalled_by_build
from referee.vision.selfcheck import (
    channel_orders,
    clipped_faces,
    colour_doubt,
    face_colours,
)
from referee.vision.settings import VisionSettings, default_settings
from referee.vision.station import Station

# a photo whose shorter side is under this is a thumbnail (a chat app's preview): the mat's
# markers need more (a dev scene at 213×120 px is still judged; at 200×112 the mat is lost)
MIN_SIDE_PX = 120


@dataclass
class Measurement:
    """The pipeline's result: the build, and what a person needs to see why (overlay)."""

    build: MeasuredBuild
    pose: Pose | None = None
    view: FrontView | None = None
    fits: list[BarFit] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    channel_fit: dict[tuple[int, int, int], float] = field(default_factory=dict)
    paper_bgr: np.ndarray | None = None
    mats_seen: int = 0  # boards of the mat's markers in the photo (this station's and others)
    depth_mm: float | None = None  # the structure's front faces behind the line (depth.py)
    # a phone's photo whose focal length is known only roughly: the scales of it at which
    # the verdict must hold too (`phone_station`; check.check_photo measures again at each)
    focal_checks: tuple[float, ...] = ()


def black_and_white(image: np.ndarray, max_spread: int = 2) -> bool:
    """Whether H×W×3 uint8 BGR `image` holds no colour at all: its channels differ by at most
    `max_spread` at 99 % of the pixels (every 4th row and column looked at). A grey JPEG, a
    phone's black-and-white mode or a night camera's picture is such; a colour photo of any
    table has its stones' hues."""
    px = image[::4, ::4].astype(np.int16)
    spread = np.maximum(np.abs(px[..., 0] - px[..., 1]), np.abs(px[..., 1] - px[..., 2]))
    return float(np.percentile(spread, 99)) <= max_spread


def _problem(code: str, text: str, unit_mm: float, m: Measurement) -> Measurement:
    m.build = MeasuredBuild((), unit_mm, (Unmeasured(code, text),))
    return m


def phone_station(image: np.ndarray, station: Station, s: VisionSettings,
                  focal_scale: float = 1.0) -> tuple[Station, str | None, tuple[float, ...]]:
    """The station as a phone's photo of it needs: intrinsics worked out from the mat in the
    photo (principal point at the centre, one focal length, no distortion), not the station
    camera's, and no stored mat pose (the phone stands elsewhere). The reason, in plain
    words, when the mat in the photo cannot pin the camera down (then the build is unsure).
    A photo without the mat is left to the usual mat checks.

    The focal length's 1σ doubt d (a share of it, from OpenCV's `calibrateCameraExtended`)
    decides: up to `pose.max_focal_doubt` it is taken as it is; up to
    `pose.max_focal_doubt_checked` it is taken, and the scales 1 ± k·d (k =
    `pose.focal_check_sigmas`) are handed back, at which the caller must measure again and
    find the same verdict (the doubt carried into the verdict, not a threshold on it); above
    that, the reason. focal_scale: multiplies the worked-out focal length (for those checks).
    """
    from referee.vision.calibration import intrinsics_from_mat
    from referee.vision.errors import CalibrationError
    from referee.vision.pose import detect_mat

    h, w = image.shape[:2]
    det = detect_mat(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), s.pose.upscale_below_markers,
                     s.pose.upscale_max_side_px, s.pose.fine_cell_px)
    if is_weak(det, s):
        return replace(station, mat_pose=None), None, ()
    why = ("the phone's camera could not be worked out from the mat in this photo: take it "
           "with the whole mat in view, from a little higher")
    try:
        k, doubt, rms = intrinsics_from_mat(det, (w, h))
    except CalibrationError:
        return station, why, ()
    p = s.pose
    if doubt > p.max_focal_doubt_checked or rms > p.max_single_view_rms_px * max(1.0, max(h, w)
                                                                               / 1000):
        return station, why, ()
    checks: tuple[float, ...] = ()
    if doubt > p.max_focal_doubt:
        d = min(p.focal_check_sigmas * doubt, 0.9)
        checks = (1.0 - d, 1.0 + d)
    k = k.copy()
    k[0, 0] *= focal_scale
    k[1, 1] *= focal_scale
    return replace(station, camera_matrix=k, dist_coeffs=np.zeros(5), image_size=(w, h),
                   mat_pose=None), None, checks


def same_shape(shape: tuple[int, ...], image_size: tuple[int, int], max_change: float
               ) -> bool:
    """Whether a photo of `shape` (H, W, ...) has the shape of a camera's `image_size`
    (W, H px), its aspect ratio within `max_change` (a share) of it: a resize, not a crop."""
    w0, h0 = image_size
    return abs((shape[1] / shape[0]) / (w0 / h0) - 1.0) <= max_change


def measure(image: np.ndarray, station: Station, settings: VisionSettings | None = None,
            intrinsics: str = "station", focal_scale: float = 1.0) -> Measurement:
    """Measure the build in a H×W×3 uint8 BGR photo taken at `station`.

    Never raises for what a photo shows; a photo without the mat, too dark or with a hidden
    stone gives a build with `problems`. intrinsics: "station" (the station camera's) or
    "from-mat" (a phone's photo of the station: `phone_station`, whose `focal_checks` land
    in the result; focal_scale multiplies the focal length worked out from the mat).
    """
    s = settings or default_settings()
    unit = station.unit_mm
    m = Measurement(MeasuredBuild((), unit))
    t = time.perf_counter()
    if min(image.shape[:2]) < MIN_SIDE_PX:  # a thumbnail: no mat or stone can be seen in it
        return _problem("photo:small", f"the photo is only {image.shape[1]}×{image.shape[0]} "
                        "px, too small to see the mat and the stones: send it at full size",
                        unit, m)
    if intrinsics == "from-mat":
        station, why, m.focal_checks = phone_station(image, station, s, focal_scale)
        if why is not None:
            m.timings_ms["pose"] = round((time.perf_counter() - t) * 1000, 2)
            return _problem("mat:weak", why, unit, m)

    def lap(name: str) -> None:
        nonlocal t
        now = time.perf_counter()
        m.timings_ms[name] = round((now - t) * 1000, 2)
        t = now

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    camera = station.camera_for(image.shape)
    w0, h0 = station.image_size
    dets, n_seen = detect_mats(gray, camera, station.dist_coeffs, s.pose.min_markers,
                               s.pose.marker_inlier, s.pose.marker_inlier_tight,
                               s.pose.upscale_below_markers, s.pose.upscale_max_side_px,
                               s.pose.fine_cell_px)
    if (image.shape[1] - image.shape[0]) * (w0 - h0) < 0:  # never turned back to be judged
        lap("pose")
        if n_seen == 0:  # no mat at all (a photo of something else): turning will not help
            return _problem(*no_mat_reason(image, gray, station, n_seen, s), unit, m)
        return _problem("photo:rotated", "the photo is turned a quarter turn against the "
                        "station's camera: hold the phone the other way, or turn the camera",
                        unit, m)
    m.mats_seen = len(dets)
    if not dets or n_seen == 0:
        lap("pose")
        return _problem(*no_mat_reason(image, gray, station, n_seen, s), unit, m)
    if intrinsics == "station" and not same_shape(image.shape, station.image_size,
                                                  s.pose.max_aspect_change):
        # a crop, not a resize (a photo of something else was told so above): the station's
        # camera matrix, scaled to this size, would put every stone off (a break-it trial:
        # D03-02 cropped to 800×450, judged wrong)
        lap("pose")
        return _problem("photo:cropped", f"the photo is {image.shape[1]}×{image.shape[0]} px, "
                        f"not the shape of the station camera's {w0}×{h0}: was it cropped, or "
                        "is the camera set to another picture size? Send it uncropped, in the "
                        "shape the station was calibrated with", unit, m)
    chosen = choose_mat(dets, image.shape, camera, station, s)
    if isinstance(chosen, str):
        lap("pose")
        return _problem("mat:several", chosen, unit, m)
    det = chosen
    weak = is_weak(det, s)
    if not weak and intrinsics == "station":
        why = camera_mismatch(det, camera, (image.shape[1], image.shape[0]), s)
        if why is not None:
            lap("pose")
            return _problem("photo:camera", why, unit, m)
    blur = edge_blur_mm(gray, det) if not weak and s.pose.max_blur_mm > 0 else None
    if blur is not None and blur > s.pose.max_blur_mm:
        lap("pose")
        return _problem("photo:blurred", f"the photo is blurred (the mat's edges are spread "
                        f"over about {2 * blur:.0f} mm): focus the camera, wipe its lens, and "
                        "hold it still", unit, m)
    if weak:
        lap("pose")
        if mirrored(gray, station, s):
            return _problem(*MIRRORED, unit, m)
        return _problem("mat:partly-hidden" if det.n_markers else "mat:weak",
                        f"the referee mat is not seen well enough ({weak}); is part of it "
                        "covered or outside the photo, or is the photo blurred?", unit, m)
    pose = solve_pose(det, camera, station.dist_coeffs)
    m.pose = pose
    lap("pose")
    # the reprojection limit is for a ~1280 px photo; a larger photo has larger pixels' worth
    rms_limit = s.pose.max_pose_rms_px * max(1.0, max(image.shape[:2]) / 1280.0)
    if pose.rms_px > rms_limit or pose.tvec.ravel()[2] <= 0:
        return _problem("mat:weak", f"the mat's pose does not fit well ({pose.rms_px:.1f} px): "
                        "is the mat flat? If it is, check the station's camera calibration",
                        unit, m)
    if black_and_white(image):  # the mat is seen, but no stone can be told from another
        return _problem("photo:greyscale", "the photo has no colours (black and white): "
                        "switch the camera or phone to colour", unit, m)
    try:
        white = paper_white(image, pose)
    except ValueError as e:
        return _problem("mat:weak", str(e), unit, m)
    m.paper_bgr = white
    if float(white.mean()) < s.exposure.min_paper_luma:
        return _problem("photo:dark", "the photo is too dark to tell the colours", unit, m)
    if washed_out(gray, s):
        return _problem(*WASHED_OUT, unit, m)
    # the paper may clip (webcams expose for the scene); that only matters where the stones
    # themselves are blown out, or where a stone that is not found could be a blown-out one
    paper_clipped = float(white.min()) >= s.exposure.clipped_level
    model = station.colour_model
    if s.fit.anchor_grey and s.fit.anchor_grey_apart > 0 and any(
            as_light_as_snow(model, station.colours, s.fit.anchor_grey_apart)):
        # a grey as light as snow cannot tell its top end from a snow cube on it (PO03-06:
        # the grey 3 of 22 from white, a cube between it and the blue on it, the bar fitted a
        # unit up from its top): no grey bar is placed from its top at such a station
        s = replace(s, fit=replace(s.fit, anchor_grey=False))
    cs = s.colour
    others = table_centres(image, white, pose, model, cs.table_classes,
                           min_share=cs.table_min_share, drop_near=cs.table_drop_near,
                           spare_near=cs.spare_near, spare_share=cs.spare_share)
    lap("colour")
    view = FrontView.for_settings(s.rectify.px_per_mm, s.rectify.view_height_mm)
    m.view = view
    front = rectify(image, pose, view)
    lap("rectify")
    lab = to_lab(front, white)
    labels = model.labels(lab, station.colours, others)
    if s.colour.clip_max_scale > 1.0:
        scales = np.arange(1.0, s.colour.clip_max_scale + 1e-6, s.colour.clip_scale_step)
        labels = unclipped(front, white, labels, model, station.colours, others,
                           s.exposure.clipped_level, tuple(float(k) for k in scales))
    masks = {c: labels == i for i, c in enumerate(station.colours)}
    # snow, stones and paper can hold a stone up; snow in shade, in tinted light, or next to
    # a table of nearly its colour, may fall outside every class
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    support = may_hold(lab, labels, s.colour.neutral_chroma, s.colour.min_snow_lightness,
                       s.colour.tinted_snow_chroma, s.colour.tinted_snow_lightness, chroma,
                       s.colour.shade_snow_chroma, s.colour.shade_snow_lightness)
    lap("segment")
    band = band_vector_mm(pose, view, unit)
    doubt_mm = s.build.depth_doubt_mm * math.tan(elevation_rad(pose))
    # a counted stone stands on the paper beyond the board (WORLD.md §5), its centre over
    # the paper; nothing stands below the table (but a face set forward looks lower)
    x0, x1 = PAPER_BEYOND[0], PAPER_BEYOND[1]
    top = s.rectify.view_height_mm
    regions: dict[Orientation, tuple[float, ...]] = {
        "H": (x0 - 2.5 * unit, x1 - 2.5 * unit, -doubt_mm, top - unit),
        "V": (x0 - 0.5 * unit, x1 - 0.5 * unit, -doubt_mm, top - 5 * unit)}
    fits, all_cands = [], {}
    table_band = doubt_mm + s.fit.table_band_mm
    for colour in station.colours:
        cands = bar_candidates(masks[colour], colour, view, unit, band, regions, support,
                               table_band_mm=table_band, **template_settings(s))
        all_cands[colour] = cands
        f = choose(cands, lab[..., 0], view, unit, s, masks[colour])
        if f is not None:
            fits.append(f)
    # a chain down to the table runs through snow and stones, never through the table seen
    # far behind the build (a white table is as neutral as snow, but it is its own class)
    chain = support & (labels != TABLE)
    # the paper sets the white balance; clipped, it says nothing of the light's tint, so
    # snow under a stone whose grooves show may come out tinted (V03-06: chroma 15, blue)
    held_by = support if not paper_clipped else support | (
        (chroma < s.fit.clipped_snow_chroma) & (lab[..., 0] > s.colour.min_snow_lightness))
    fits = ground(fits, all_cands, held_by, chain, lab[..., 0], view, unit, table_band, s,
                  masks)
    chromatic = model.chromatic(station.colours)
    if s.fit.tinted_grey > 0:
        fits = refit_tinted(fits, all_cands, masks, lab, labels, station.colours, model,
                            view, unit, band, regions, (support, held_by, chain), table_band,
                            s)
    # nothing stands lower than the table in front of the line (the V search region's floor)
    neutral = chroma < s.colour.neutral_chroma  # snow, paper: what has no hue
    fits = [pin(f, masks, lab[..., 0], view, unit, band, chromatic, s, regions["V"][2],
                neutral) if f.supported else f for f in fits]
    # a standing bar still sliding, once the others are pinned: their faces tell which
    # edges beside it are theirs (grooves.anchor_top)
    placed = [f for f in fits if f.supported and f.fill >= s.fit.min_stone_fill and
              (f.slack_u < s.fit.max_slack_u or f.anchored)]
    if placed:
        fits = [(from_top(f, masks, lab[..., 0], view, unit, band, chromatic, s, neutral,
                          [o for o in placed if o.colour != f.colour]) or f)
                if f.supported and not f.anchored else f for f in fits]
    fits = [pinned_rival(f, all_cands[f.colour], fits, masks, lab[..., 0], view, unit, band,
                         chromatic, s, regions["V"][2]) if f.supported else f for f in fits]
    sliding = [f for f in fits if f.slack_u >= s.fit.max_slack_u and not f.anchored]
    if s.fit.rest_on_grooves and sliding:  # a patch of the colour larger than a bar: the
        # stone in it, found by its grooves; a grey one may have taken the table's shade
        rest_masks = table_shade(masks, lab, labels, model, chromatic) \
            if s.fit.rest_table_shade else masks
        fits = [(resting(f, fits, rest_masks, lab[..., 0], view, unit, s, regions["V"][2])
                 or f) if f in sliding else f for f in fits]
    if s.fit.lend_table:  # a lit face in the class of a table of nearly its hue
        fits = refit_lent(fits, masks, lab, labels, model, chromatic, view, unit, band,
                          (held_by, chain), table_band, s, regions["V"][2], neutral)
    fits = [replace(f, rivalled=True) if rivalled(f, all_cands.get(f.colour, []), unit, s)
            else f for f in fits]
    fits = unheld_parts(fits, chromatic, held_by, chain, view, unit, table_band, s)
    if s.fit.odd_end_k > 0:
        fits = [replace(f, odd_end=True) if odd_end(lab[..., 0], view, unit, f,
                                                    s.fit.light_min_step, s.fit.odd_end_k)
                else f for f in fits]
    if s.fit.lit_seam_l > 0:  # the paper lit between a lying bar and one lying on it
        fits = [replace(f, lit_seam=True) if lit_seam(
            lab[..., 0], masks[f.colour], view, unit, f, [o for o in fits if o is not f],
            s.fit.lit_seam_l, s.fit.lit_seam_fill) else f for f in fits]
    if s.fit.bare_top_fill > 0:  # a bar whose top face does not show

        def top_bare(f: BarFit) -> bool:
            """`ends.bare_top`, its band seen at the bar's top (higher up, thinner); covered
            by other stones, and for a standing bar by snow, for a lying one by what stands
            on it; a lying bar only while its colour runs on below the fit (`run_below`)."""
            lying = f.orientation == "H"
            cover = other_stones(masks, f.colour) | (
                _stood_on(f, fits, view, unit, neutral.shape) if lying else neutral)
            at = (f.x_mm + 2.5 * unit, f.h_mm + unit) if lying else \
                (f.x_mm + 0.5 * unit, f.h_mm + 5 * unit)
            if not bare_top(masks[f.colour], cover, lab, view, unit, f,
                            band_vector_mm(pose, view, unit, at), s.fit.bare_top_fill,
                            s.fit.bare_top_band_u, s.fit.bare_top_hue_deg,
                            s.colour.neutral_chroma, s.fit.bare_top_alike * model.max_distance,
                            model.lightness_weight, lying=s.fit.bare_top_lying):
                return False
            return not lying or (run_below(masks[f.colour], view, unit, f) or 0.0) >= \
                s.fit.below_run_u * unit * view.px_per_mm

        fits = [replace(f, bare_top=True) if f.colour in chromatic and top_bare(f) else f
                for f in fits]
    if s.fit.below_run_u > 0:  # a lying bar's face running on below it, grooves and all
        fits = [replace(f, face_below=True) if face_below(
            masks[f.colour], lab[..., 0], view, unit, f, s.fit.below_run_u,
            s.fit.below_grooves, s.fit.below_shift_u) else f for f in fits]
    if s.fit.snow_split > 0:  # grey and snow differ only in lightness (WORLD.md §1)
        snow_l = model.centres[WHITE][0]
        fits = [replace(f, snow_like=True) if f.colour == "G" and snow_like(
                    masks[f.colour], lab[..., 0], view, unit, f, model.centres[f.colour][0],
                    snow_l, s.fit.snow_split) else f for f in fits]
    if s.fit.grooveless_grey:  # only the grooves tell a grey stone from snow in shade for
        # sure: lightness moves with the camera's tone (a break-it trial: G03-03 under a
        # gamma of 0.75, a 10 % green tint, sharpening or a 2° roll, its grey fitted on the
        # shaded snow pillar below the stone, 5 u low; correct builds judged wrong)
        fits = [replace(f, snow_like=True) if f.colour not in chromatic and not f.grooves
                and not f.anchored else f for f in fits]
    @cache
    def inside() -> np.ndarray:  # where the front view shows the photo (H×W bool)
        return rectify(np.full(image.shape[:2], 255, np.uint8), pose, view, (0,)) > 127

    if s.fit.frame_reach_u > 0:  # a stone running out of the photo: its end is not seen
        fits = [replace(f, slack_u=max(f.slack_u, s.fit.max_slack_u), anchored=False)
                if f.supported and near_frame(inside(), view, unit, f, s.fit.frame_reach_u)
                else f for f in fits]
    lap("fit")
    if s.in_front.enabled:  # a piece lying in front may hide a stone's foot (infront.py)
        f_ = s.in_front
        pieces = in_front(image, pose, white, view, unit, f_.px_per_mm, f_.erode_mm,
                          f_.light_share, f_.min_area_u2, f_.reach_u, f_.white_mm)
        fits = [behind_piece(f, masks, lab[..., 0], view, unit, band, chromatic, f_.agree_u,
                             [o for o in fits if o.colour != f.colour], neutral,
                             s.fit.min_stone_fill)
                if not f.anchored and f.supported and foot_hidden(
                    f, pieces, lab, view, unit, f_.min_share, table_band, f_.top_u,
                    f_.alike, f_.darker, f_.alike_share) else f for f in fits]
        lap("in_front")
    m.fits = fits
    # blown out in every channel (np.minimum of the channels: numpy's reduction along the
    # last, 3-long axis took ten times as long)
    out = np.minimum(np.minimum(front[..., 0], front[..., 1]), front[..., 2]) >= \
        s.exposure.clipped_level
    blown = [f.colour for f in fits if face_fill(out, view, unit, f.orientation, f.x_mm,
                                                 f.h_mm) >= s.exposure.max_blown_face]
    faces = face_colours(front, view, unit, fits, masks, s.fit.min_stone_fill,
                         s.exposure.clipped_level)
    m.channel_fit = channel_orders({c: v for c, v in faces.items() if c in chromatic}, white,
                                   model)
    # a stone is only missing where the photo's colours were checked on a coloured stone,
    # against the station's own colour calibration (default priors fit no edition for sure),
    # and no stone-shaped thing of an unknown colour stands by (asked only when one is absent)
    absent = len([f for f in fits if f.fill >= s.fit.missing_fill]) < len(station.colours)
    odd = not m.channel_fit or model.source != "photo" or (absent and unknown_stone(
        lab, labels, view, unit, band, regions, fits, support, table_band, s))
    # stage 5b: the structure may stand off the build line (WORLD.md §5); measure the build
    # where it stands, not as the line's plane shows it (the overlay keeps the front view)

    def seen_scale() -> float | None:  # asked only when two depths rival (depth.py)
        scales = [groove_scale(f, lab[..., 0], view, unit) for f in fits if f.grooves and
                  f.supported and f.fill >= s.fit.min_stone_fill and
                  f.slack_u < s.fit.max_slack_u]
        known = [k for k in scales if k is not None]
        return float(np.median(known)) if len(known) >= s.depth.scale_stones else None

    m.depth_mm = structure_depth(fits, view, pose, unit, s.depth, s.fit.min_stone_fill,
                                 seen_scale)
    placed = fits if m.depth_mm is None else fits_at_depth(fits, view, pose, m.depth_mm)
    cam = pose.camera_centre_mm()

    @cache
    def veil() -> np.ndarray | None:  # a hot spot's veil over the build (asked once)
        return veiled_columns(front, view, unit, s.exposure.clipped_level,
                              s.build.veiled_share, inside()) \
            if s.build.veiled_chroma > 0 else None

    def hued_here(colour: str) -> bool:  # asked only of a stone not there (assemble)
        if colour not in chromatic:  # no hue to follow: its grey, a band of light at a time
            return greyish(colour, station.colours, lab, labels, model, view, unit, band,
                           regions, fits, support, table_band, s)
        return s.build.hued_degrees > 0 and hued(
            colour, station.colours, lab, labels, model.centres[colour], view, unit, band,
            regions, fits, support, table_band, s, veil())

    m.build = assemble(placed, unit, doubt_mm, s, station.colours, paper_clipped, blown, odd,
                       (float(cam[0]), float(cam[1]), float(cam[2])), chromatic,
                       float(white.max()) >= s.exposure.clipped_level,
                       unshaped(fits, masks, view, unit, regions, station.colours,
                                s.build.not_found_faces), unit_px(pose, unit),
                       hued_here, rivalled_by_build(fits, all_cands, unit, s)
                       if s.build.rival_not_missing else ())
    g = s.grooves
    off = unit_scale(fits, lab[..., 0], view, unit, g.unit_spread, g.unit_step,
                     g.unit_min_fits, g.unit_agree, g.unit_max_off)
    if off is not None:  # a unit typed wrong misplaces every stone by a share of its offset
        m.build = replace(m.build, problems=(*m.build.problems, Unmeasured(
            "photo:unit", f"the stones' grooves stand {abs(off - 1):.0%} "
            f"{'further apart' if off > 1 else 'closer together'} than the station's unit of "
            f"{unit:g} mm says (about {unit * off:.1f} mm a unit): is the station's unit "
            "right? A stone is 5 units long (referee calibrate camera NAME --unit-mm)")))
    why = colour_doubt(m.channel_fit, model.source, s)
    if why and model.source != "photo":
        # on the default colours the cure is the station's own colour photo, whatever else
        # (a break-it trial: a clipped photo on defaults was told to lower the exposure)
        m.build = replace(m.build, problems=(*m.build.problems, Unmeasured(
            "photo:colours", "the stones' colours do not fit the default colours: take the "
            "station's colour photo (`referee calibrate colours`)")))
    elif why and clipped_faces(front, view, unit, fits, masks, s):
        # the stones' colours are off because the photo clipped them, not because the
        # light or the camera changed: what to do about it is to lower the exposure (said
        # once: assemble may have said it already, with the stones not found)
        if not any(p.code == OVER_EXPOSED.code for p in m.build.problems):
            m.build = replace(m.build, problems=(*m.build.problems, OVER_EXPOSED))
    elif why:
        m.build = replace(m.build, problems=(*m.build.problems, Unmeasured("photo:colours", why)))
    lap("build")
    return m


def unit_px(pose: Pose, unit: float) -> float:
    """How many photo pixels a unit spans at the build: along the build line, in the build
    zone's middle, 40 mm up (`Pose.project`)."""
    p = pose.project(np.array([[140.0, -15.0, -40.0], [140.0 + unit, -15.0, -40.0]]))
    return float(np.linalg.norm(p[1] - p[0]))


def near_frame(inside: np.ndarray, view: FrontView, unit: float, f: BarFit,
               reach_u: float) -> bool:
    """Whether the fit's face, widened by `reach_u` units each way (along its length and
    across it), meets the photo's edge: `inside` (H×W bool front view) is False where the
    front view lies outside the photo. A stone running out of the frame may end anywhere
    beyond it, and what lies outside reads as paper (a break-it trial: F01-02 with the top 13 %
    of the photo cut off, its standing purple bar fitted a unit low, a correct build judged
    wrong). unit: u in mm."""
    u = unit * view.px_per_mm
    col, row = view.to_px(f.x_mm, f.h_mm)
    w_u, h_u = (5.0, 1.0) if f.orientation == "H" else (1.0, 5.0)
    r0 = int(round(float(row) - (h_u + reach_u) * u))
    r1 = int(round(float(row) + reach_u * u))
    c0 = int(round(float(col) - reach_u * u))
    c1 = int(round(float(col) + (w_u + reach_u) * u))
    zone = inside[max(r0, 0):max(r1, 0), max(c0, 0):max(c1, 0)]
    return zone.size > 0 and not bool(zone.all())


def elevation_rad(pose: Pose) -> float:
    """The camera's elevation above the table, seen from the build line (radians)."""
    c = pose.camera_centre_mm()
    horiz = math.hypot(c[0] - 140.0, c[1] + 15.0)
    return math.atan2(-c[2], horiz)


def _stood_on(f: BarFit, fits: list[BarFit], view: FrontView, unit: float,
              shape: tuple[int, ...]) -> np.ndarray:
    """The front view's columns (H×W bool, True over whole columns) above a lying bar `f`
    where another fitted stone lies higher than half a unit over its bottom: what stands on
    the bar, or snow on it holding a stone up, covers its top face there. A lying bar's
    top-face band is not asked about snow's white by colour (`ends.bare_top`): a white wall
    behind looks as neutral as snow (QD04-04)."""
    out = np.zeros(shape[:2], bool)
    for t in fits:
        if t is f or t.h_mm < f.h_mm + 0.5 * unit:
            continue
        w = 5 * unit if t.orientation == "H" else unit
        c0, _ = view.to_px(t.x_mm, t.h_mm)
        c1, _ = view.to_px(t.x_mm + w, t.h_mm)
        out[:, max(int(round(float(c0))), 0):max(int(round(float(c1))), 0)] = True
    return out
