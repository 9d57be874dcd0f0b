"""Station calibration: intrinsics from ChArUco views and the colour model from the colour photo.

Sources: OpenCV `calibrateCameraExtended` (with the intrinsics' standard deviations, as
WORLD.md §6 asks), the mat of WORLD.md §5, and the colour photo of WORLD.md §6.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.vision.colour import ColourModel, learn_from_stack, paper_white, to_lab
from referee.vision.errors import CalibrationError, VisionError
from referee.vision.photo import read_photo
from referee.vision.pose import MatDetection, detect_mat, is_weak, solve_pose
from referee.vision.rectify import FrontView, rectify
from referee.vision.settings import default_settings

if TYPE_CHECKING:
    from referee.vision.station import Station

MIN_VIEWS = 4


def learn_colours_from_photo(photo: Path, station: Station, order: str
                             ) -> tuple[ColourModel, tuple[np.ndarray, np.ndarray]]:
    """`learn_colours` on a photo file. :raises PhotoError, CalibrationError:"""
    return learn_colours(read_photo(photo), station, order, str(photo))


def learn_colours(image: np.ndarray, station: Station, order: str, where: str = "the colour photo"
                  ) -> tuple[ColourModel, tuple[np.ndarray, np.ndarray]]:
    """The colour model from a colour photo (H×W×3 uint8 BGR): the stones lying horizontal on
    the build line, stacked bottom to top in `order` (e.g. `GBPO`), left ends aligned
    (WORLD.md §6); and the mat's pose in it (rvec, tvec: (3,) float64, Rodrigues and mm), which
    the station keeps to tell its own mat from a neighbour's.

    :raises CalibrationError: no mat, its paper not in view, the mat seen through another
        camera than the station's (`mats.camera_mismatch`), or the stack not found (naming
        `where`).
    """
    from referee.vision.mats import camera_mismatch  # mats reads calibration's one-view fit

    s = default_settings()
    # found on the photo enlarged when few markers show, as in a build photo
    # (pose._detect_board): OL01's and OL02's far, blurred mats. A light grey learned so (OL01,
    # L 73) is as light as snow in shade; a groove-less fit as light as the snow is then weak
    # (`ends.snow_like`), not a stone a fault may rest on
    det = detect_mat(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), s.pose.upscale_below_markers,
                     s.pose.upscale_max_side_px, s.pose.fine_cell_px)
    if is_weak(det, s):
        raise CalibrationError(f"{where}: the referee mat is not visible in the colour photo "
                               "(covered, outside the photo, or blurred)")
    camera = station.camera_for(image.shape)
    # another camera of the same picture size (a new user's trial took another station's
    # colour photo: learnt, that camera's colours then made every photo `photo:colours`)
    other = camera_mismatch(det, camera, (image.shape[1], image.shape[0]), s)
    if other is not None:
        raise CalibrationError(f"{where}: {other}; take the colour photo with station "
                               f"{station.id}'s own camera")
    pose = solve_pose(det, camera, station.dist_coeffs)
    view = FrontView.for_settings(s.rectify.px_per_mm, s.rectify.view_height_mm)
    try:
        white = paper_white(image, pose)
    except ValueError as e:  # the paper's margins outside the photo
        raise CalibrationError(f"{where}: {e}") from None
    lab = to_lab(rectify(image, pose, view), white)
    try:
        model = learn_from_stack(lab, view, order, station.unit_mm)
    except ValueError as e:
        raise CalibrationError(f"{where}: {e}") from None
    return model, (pose.rvec.reshape(3).astype(np.float64),
                   pose.tvec.reshape(3).astype(np.float64))


@dataclass(frozen=True)
class CameraCalibration:
    """camera_matrix 3×3 float64 (px); dist_coeffs (5,) float64; rms_px: the RMS
    reprojection error; std_intrinsics: the standard deviations of the intrinsics, in
    `cv2.calibrateCameraExtended`'s order (fx, fy, cx, cy, k1, k2, p1, p2, k3, ...);
    views_used: photos that showed the mat well; image_size: (w, h) px; left_out: the
    photos left out, each as (its path as given, why)."""

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    rms_px: float
    std_intrinsics: np.ndarray
    views_used: int
    image_size: tuple[int, int]
    left_out: tuple[tuple[str, str], ...] = ()


def calibrate_camera(photos: list[Path], fix_principal_point: bool = True) -> CameraCalibration:
    """Intrinsics from photos of the mat held at several angles.

    The principal point stays at the centre unless asked (few, alike views are
    ill-conditioned: WORLD.md §6).
    A photo whose mat's corners all lie within `pose.duplicate_view_px` of another's is the
    same view again (a copy): it counts once. Each view's own focal length (a one-view fit,
    `intrinsics_from_mat`) must agree with the others' within their doubts
    (`pose.max_calib_focal_chi2`): photos of different cameras or zoom settings fit one
    camera badly, and every verdict made with it could be wrong.
    :raises CalibrationError: a photo missing or unreadable (named), fewer than MIN_VIEWS
        usable views, photos of different sizes, views that disagree on the focal length
        (naming the two furthest apart), or a focal length no real camera has
        (`station.FOV_DEG`: the views too alike for the fit).
    """
    obj: list[np.ndarray] = []
    img: list[np.ndarray] = []
    own_f: list[tuple[Path, float, float]] = []  # (photo, its own focal length, 1σ) px
    copies = 0
    left_out: list[tuple[str, str]] = []
    size: tuple[int, int] | None = None
    s = default_settings()
    for p in photos:
        try:
            image = read_photo(p)
        except VisionError as e:  # a file the user named: say which, not "0 of 2 show the mat"
            raise CalibrationError(str(e)) from None
        hw = image.shape[1], image.shape[0]
        if size is not None and hw != size:
            raise CalibrationError(f"{p}: {hw[0]}×{hw[1]} px, but the first photo is "
                                   f"{size[0]}×{size[1]}; use one camera setting")
        size = hw
        det = detect_mat(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        if is_weak(det, s) or det.n_charuco < 6:
            left_out.append((str(p), "the mat not seen well enough"))
            continue
        o, i = det.object_points.astype(np.float32), det.image_points.astype(np.float32)
        if any(oo.shape == o.shape and np.array_equal(oo, o) and
               float(np.max(np.abs(ii - i))) < s.pose.duplicate_view_px
               for oo, ii in zip(obj, img, strict=True)):
            copies += 1
            left_out.append((str(p), "the same view as another photo"))
            continue
        obj.append(o)
        img.append(i)
        with contextlib.suppress(CalibrationError):
            k1, doubt, _ = intrinsics_from_mat(det, hw)
            own_f.append((p, float(k1[0, 0]), max(doubt * float(k1[0, 0]), 1e-6)))
    if len(obj) < MIN_VIEWS or size is None:
        again = f" ({copies} the same view as another)" if copies else ""
        raise CalibrationError(f"only {len(obj)} of {len(photos)} photos show the mat well "
                               f"enough{again}; at least {MIN_VIEWS} are needed, from varied "
                               "angles")
    if len(own_f) >= 2:
        fs = np.array([v[1] for v in own_f])
        sd = np.array([v[2] for v in own_f])
        mean = float(np.sum(fs / sd ** 2) / np.sum(1 / sd ** 2))
        chi2 = float(np.sum(((fs - mean) / sd) ** 2)) / (len(fs) - 1)
        if chi2 > s.pose.max_calib_focal_chi2:
            least, most = own_f[int(np.argmin(fs))], own_f[int(np.argmax(fs))]
            raise CalibrationError(
                f"the photos disagree on the camera: {least[0]} shows a focal length of "
                f"{least[1]:.0f} px, {most[0]} {most[1]:.0f} px; they look like photos of "
                "different cameras or zoom settings. Take them all with this station's "
                "camera, without zooming")
    w, h = size
    f0 = 1.2 * max(w, h)
    k0 = np.array([[f0, 0, (w - 1) / 2], [0, f0, (h - 1) / 2], [0, 0, 1]], np.float64)
    flags = cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_FIX_K3
    if fix_principal_point:
        flags |= cv2.CALIB_FIX_PRINCIPAL_POINT
    rms, k, d, _, _, std_in, _, _ = cv2.calibrateCameraExtended(
        obj, img, size, k0, np.zeros(5), flags=flags)
    from referee.vision.station import FOV_DEG, focal_outside

    bad = focal_outside(k, (w, h))  # NaN too: a fit gone wrong, no lens
    if bad is not None:
        _, f, side, across, lo, hi = bad
        raise CalibrationError(
            f"the photos give a focal length of {f:.6g} px, which no real camera has for "
            f"photos {side} px {across} ({hi:.0f} px for a field of view of "
            f"{FOV_DEG[0]:g}° across them, {lo:.3g} px for {FOV_DEG[1]:g}°); take the photos "
            "again, the whole mat in each, tilted a different way in each")
    return CameraCalibration(k, d.ravel()[:5], float(rms), std_in.ravel(), len(obj), size,
                             tuple(left_out))


def intrinsics_from_mat(det: MatDetection, image_size: tuple[int, int]
                        ) -> tuple[np.ndarray, float, float]:
    """A camera matrix (3×3 float64) for a photo of unknown camera (a phone), from the mat's
    points in that one photo: principal point at the centre, one focal length, no
    distortion (OpenCV `calibrateCameraExtended` on one view; WORLD.md §6 on what a single
    view can pin down). Also the focal length's relative 1σ doubt and the RMS in px.

    :raises CalibrationError: too few points, or a fit that does not converge.
    """
    w, h = image_size
    if len(det.object_points) < 8:
        raise CalibrationError("too few points of the mat to work out the camera")
    f0 = 1.2 * max(w, h)
    k0 = np.array([[f0, 0, (w - 1) / 2], [0, f0, (h - 1) / 2], [0, 0, 1]], np.float64)
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_ASPECT_RATIO
             | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_ZERO_TANGENT_DIST
             | cv2.CALIB_FIX_K1 | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
    try:
        rms, k, _, _, _, std_in, _, _ = cv2.calibrateCameraExtended(
            [det.object_points.astype(np.float32)], [det.image_points.astype(np.float32)],
            (w, h), k0, np.zeros(5), flags=flags)
    except cv2.error as e:
        raise CalibrationError(f"the camera could not be worked out from the mat ({e.msg})") \
            from None
    f = float(k[0, 0])
    if not np.isfinite(f) or f <= 0:
        raise CalibrationError("the camera could not be worked out from the mat")
    # with a fixed aspect ratio OpenCV reports the focal length's doubt on fx or on fy
    std = std_in.ravel()
    return k.astype(np.float64), float(max(std[0], std[1])) / f, float(rms)
