"""Photo → camera pose from the referee mat (WORLD.md §5; OpenCV `CharucoDetector`, `solvePnP`).

Uses the ChArUco corners and the marker corners together: more points, and never all in one
row (a pose from one row of corners is wrong).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from referee.vision.mat import board
from referee.vision.settings import VisionSettings


@dataclass(frozen=True)
class Pose:
    """Board → camera transform and the intrinsics it was found with.

    rvec, tvec: 3×1 float64 (Rodrigues, mm); camera_matrix 3×3; dist_coeffs (5,).
    n_points: board points used; rms_px: their reprojection error.
    """

    rvec: np.ndarray
    tvec: np.ndarray
    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    n_points: int
    rms_px: float

    @property
    def rotation(self) -> np.ndarray:
        return cv2.Rodrigues(self.rvec)[0]

    def camera_centre_mm(self) -> np.ndarray:
        """The camera's centre in board mm, shape (3,)."""
        return (-self.rotation.T @ self.tvec).ravel()

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Board-frame points N×3 (mm) → image points N×2 (px), with distortion."""
        pts, _ = cv2.projectPoints(np.asarray(points_mm, np.float64).reshape(-1, 1, 3),
                                   self.rvec, self.tvec, self.camera_matrix, self.dist_coeffs)
        return pts.reshape(-1, 2)


@dataclass(frozen=True)
class MatDetection:
    """What the detector found: board points (N×3 mm) and their image points (N×2 px)."""

    object_points: np.ndarray
    image_points: np.ndarray
    n_charuco: int
    n_markers: int


@cache
def _detector() -> cv2.aruco.CharucoDetector:
    cp = cv2.aruco.CharucoParameters()
    cp.tryRefineMarkers = True  # WORLD.md §6: finds the board in oblique views
    return cv2.aruco.CharucoDetector(board(), cp, cv2.aruco.DetectorParameters())


def detect_mat(gray: np.ndarray) -> MatDetection:
    """Find the mat's ChArUco corners and marker corners in a H×W uint8 grey image.

    Returns empty arrays when nothing is found; deciding what is enough is the caller's job.
    """
    cc, ci, mc, mi = _detector().detectBoard(gray)
    obj, img = [], []
    n_ch = 0 if ci is None else len(ci)
    if n_ch:
        all_corners = board().getChessboardCorners()
        obj.append(all_corners[ci.ravel()])
        img.append(cc.reshape(-1, 2))
    n_mk = 0 if mi is None else len(mi)
    if n_mk:
        ids = board().getIds().ravel().tolist()
        objs = board().getObjPoints()
        for corners, mid in zip(mc, mi.ravel(), strict=True):
            if int(mid) in ids:
                obj.append(np.asarray(objs[ids.index(int(mid))], np.float32).reshape(4, 3))
                img.append(corners.reshape(4, 2))
    if not obj:
        return MatDetection(np.zeros((0, 3)), np.zeros((0, 2)), 0, 0)
    return MatDetection(np.concatenate(obj).astype(np.float64),
                        np.concatenate(img).astype(np.float64), n_ch, n_mk)


def is_weak(det: MatDetection, settings: VisionSettings) -> str | None:
    """Why a detection is too weak for a pose (too few points, all in one row), or None."""
    if det.n_markers < settings.min_markers and det.n_charuco < settings.min_charuco:
        return f"{det.n_markers} markers and {det.n_charuco} corners"
    ys = det.object_points[:, 1]
    if np.ptp(ys) < settings.min_rows_spread_mm:
        return "all corners lie in one row"
    return None


def solve_pose(det: MatDetection, camera_matrix: np.ndarray, dist_coeffs: np.ndarray) -> Pose:
    """Board pose from a detection (`cv2.solvePnP`, iterative, then LM refinement)."""
    obj, img = det.object_points, det.image_points
    ok, rvec, tvec = cv2.solvePnP(obj, img, camera_matrix, dist_coeffs,
                                  flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        ok, rvec, tvec = cv2.solvePnP(obj, img, camera_matrix, dist_coeffs)
    rvec, tvec = cv2.solvePnPRefineLM(obj, img, camera_matrix, dist_coeffs, rvec, tvec)
    proj, _ = cv2.projectPoints(obj, rvec, tvec, camera_matrix, dist_coeffs)
    rms = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - img) ** 2, axis=1))))
    return Pose(rvec, tvec, np.asarray(camera_matrix, np.float64),
                np.asarray(dist_coeffs, np.float64).ravel(), len(obj), rms)
