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
