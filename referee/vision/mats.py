"""Stage 1b: which mat is this station's, and why none is (WORLD.md §4–5; issue: markers that
are not this mat's, reasons that name the right fix).

A photo may hold a neighbour's identical mat or spare printed markers; `pose.detect_mats`
groups markers into boards, and `choose_mat` picks the station's own. A photo without a
usable mat gets the reason that names its fix: a black frame, a turned or mirrored photo, a
mat partly hidden, or none at all.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from referee.vision.mat import SQUARE_MM, SQUARES
from referee.vision.pose import MatDetection, Pose, detect_mats, is_weak, solve_pose
from referee.vision.settings import VisionSettings
from referee.vision.station import Station

MIRRORED = ("photo:mirrored", "the photo is mirrored (a phone's front camera does that): take "
            "it with the back camera, or turn mirroring off")


def mirrored(gray: np.ndarray, station: Station, s: VisionSettings) -> bool:
    """Whether the mat is found well in the H×W uint8 grey photo flipped left to right (and
    so the photo is a mirror image, as a phone's front camera takes). Only asked when the mat
    is not found, or found too weakly for a pose."""
    flipped, _ = detect_mats(cv2.flip(gray, 1), station.camera_for(gray.shape),
                             station.dist_coeffs, s.pose.min_markers, s.pose.marker_inlier,
                             s.pose.marker_inlier_tight)
    return any(not is_weak(d, s) for d in flipped)


_LOWER_LIGHT = "lower the light, or the camera's exposure or brightness"
WASHED_OUT = ("photo:bright", "the photo is washed out: nothing in it is dark, not even the "
              f"mat's black squares; {_LOWER_LIGHT}")


def washed_out(gray: np.ndarray, s: VisionSettings) -> bool:
    """Whether nothing in a H×W uint8 grey photo is dark: its darkest 0.1 % (every 4th pixel
    of every 4th row) at least `exposure.washed_out_level`, a mid grey. The mat's printed
    black squares are the darkest things in a photo of it; washed out to light grey (an
    unseen set's station whose exposure was raised too far: its stones white, its squares
    light grey, the mat not found), no colour can be told."""
    return float(np.percentile(gray[::4, ::4], 0.1)) >= s.exposure.washed_out_level


def no_mat_reason(image: np.ndarray, gray: np.ndarray, station: Station, n_seen: int,
                  s: VisionSettings) -> tuple[str, str]:
    """The reason code and words for a photo in which no mat was found (WORLD.md §4); those
    of a photo in which nothing is dark (`washed_out`: the mat lost in a washed-out photo,
    or a photo of something light) say what to do if the mat is in it."""
    flat = float(gray.std()) < s.pose.flat_std
    if flat and float(gray.min()) >= s.pose.white_level:  # all white: blinded, not off
        return "photo:bright", ("the picture is all white: the camera is blinded by a light "
                                f"or far over-exposed; {_LOWER_LIGHT}")
    if float(gray.max()) < s.pose.black_level or flat:
        return "camera:black", ("the camera sends a black (or blank) picture: is its lens "
                                "covered, or the camera off?")
    if mirrored(gray, station, s):
        return MIRRORED
    if not n_seen and washed_out(gray, s):  # or a photo of something light, blurred
        return "mat:not-found", ("the referee mat was not found, and nothing in the photo is "
                                 "dark: if the mat is in it, the photo is washed out; "
                                 f"{_LOWER_LIGHT}")
    if n_seen:
        return "mat:partly-hidden", ("only part of the referee mat is seen: is it covered, or "
                                     "partly outside the photo?")
    return "mat:not-found", ("the referee mat was not found: is it in the photo, flat, lit and "
                             "sharp (not blurred), with its top edge away from the camera?")


def camera_mismatch(det: MatDetection, camera: np.ndarray, image_size: tuple[int, int],
                    s: VisionSettings) -> str | None:
    """Why a station's photo cannot have come through the station's camera as calibrated,
    in plain words, or None.

    The mat in one photo pins down the focal length (OpenCV `calibrateCameraExtended` on one
    view, `calibration.intrinsics_from_mat`) to a doubt d (a share, 1σ). Off the station
    camera's `camera` (3×3, scaled to this photo) by more than `pose.focal_mismatch_sigmas`·d
    and `pose.min_focal_mismatch`, the photo is another camera's, a zoomed one's, or a crop
    taken for a resize: the station's intrinsics would misplace every stone above the mat
    (a break-it trial: another station's profile, a 1.3× digital zoom and a centre crop each
    judged correct builds wrong). image_size: (W, H) px. A mat too weak for a one-view fit
    says nothing here.
    """
    from referee.vision.calibration import intrinsics_from_mat
    from referee.vision.errors import CalibrationError

    p = s.pose
    try:
        k, doubt, rms = intrinsics_from_mat(det, image_size)
    except CalibrationError:
        return None
    if doubt > p.max_focal_doubt_checked or rms > p.max_single_view_rms_px * max(
            1.0, max(image_size) / 1000):
        return None
    ratio = float(k[0, 0]) / float(camera[0, 0])
    off = abs(ratio - 1.0)
    if off <= max(p.focal_mismatch_sigmas * doubt, p.min_focal_mismatch):
        return None
    how = "closer up (zoomed in or cropped)" if ratio > 1 else "wider (zoomed out)"
    return (f"this photo does not fit the station's camera: it shows the mat {how} than "
            f"that camera does, by about {off:.0%}. Is this the right station for this "
            "camera? If the camera was changed or zoomed, calibrate it again; send photos "
            "uncropped")


def edge_blur_mm(gray: np.ndarray, det: MatDetection) -> float | None:
    """How blurred the photo is where the mat lies: the σ (mm on the board) of its left and
    right edges, where the board's black squares meet the paper beyond it, or None when too
    few of them show.

    Each profile runs across an edge, from 7 mm out on the paper to 12 mm into the black
    square (the board's points mapped by their homography, OpenCV `findHomography`), is
    scaled from the black's median to the paper's, and a Gaussian blur σ is 1/1.349 of the
    distance between its 25 % and 75 % levels; the median over up to 16 profiles. An edge
    lit less than 30 grey levels apart (a shadow, a covered corner) is left out.

    gray: the photo, H×W uint8.
    """
    if len(det.object_points) < 8:
        return None
    homography, _ = cv2.findHomography(det.object_points[:, :2].astype(np.float64),
                                       det.image_points.astype(np.float64))
    if homography is None:
        return None
    h, w = gray.shape[:2]
    grey = gray.astype(np.float32)
    t = np.arange(-7.0, 12.05, 0.1)              # < 0: on the paper beyond the board
    board_w = SQUARES[0] * SQUARE_MM
    sigmas = []
    for x_edge, outward in ((0.0, -1.0), (board_w, 1.0)):
        # the black squares along the board's side: the first and last row (40 mm each)
        for y in (8.0, 16.0, 24.0, 32.0, 88.0, 96.0, 104.0, 112.0):
            pts = np.stack([x_edge - outward * t, np.full_like(t, y)], axis=1)
            ip = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), homography).reshape(-1, 2)
            if ip.min() < 1 or ip[:, 0].max() > w - 2 or ip[:, 1].max() > h - 2:
                continue
            prof = cv2.remap(grey, ip[:, 0].astype(np.float32).reshape(1, -1),
                             ip[:, 1].astype(np.float32).reshape(1, -1),
                             cv2.INTER_LINEAR).ravel().astype(np.float64)
            paper, black = float(np.median(prof[t <= -4])), float(np.median(prof[t >= 6]))
            if paper - black < 30:
                continue
            level = (prof - black) / (paper - black)
            at = [_crossing(t, level, q) for q in (0.25, 0.75)]
            if at[0] is not None and at[1] is not None:
                sigmas.append(abs(at[0] - at[1]) / 1.349)
    return float(np.median(sigmas)) if len(sigmas) >= 3 else None


def _crossing(t: np.ndarray, level: np.ndarray, q: float) -> float | None:
    """Where `level` (along `t`) crosses `q` nearest t = 0, linearly interpolated."""
    idx = np.flatnonzero(np.diff(np.sign(level - q)) != 0)
    if not len(idx):
        return None
    j = int(idx[np.argmin(np.abs(t[idx]))])
    return float(t[j] + (q - level[j]) / (level[j + 1] - level[j]) * (t[j + 1] - t[j]))


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
