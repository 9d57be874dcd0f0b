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

    rvec, tvec: 3×1 float64 (Rodrigues, mm); camera_matrix 3×3 float64 (px);
    dist_coeffs (k,) float64, k = 4, 5, 8, 12 or 14 (OpenCV's order, as the station gives).
    n_points: board points used; rms_px: their RMS reprojection error in px.
    """

    rvec: np.ndarray
    tvec: np.ndarray
    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    n_points: int
    rms_px: float

    @property
    def rotation(self) -> np.ndarray:
        """The 3×3 float64 rotation board → camera (`cv2.Rodrigues` of rvec)."""
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
    """What the detector found: board points (N×3 float64, mm) and their image points (N×2
    float64, px); n_charuco ChArUco corners among them, then the 4 corners of each of
    n_markers markers."""

    object_points: np.ndarray
    image_points: np.ndarray
    n_charuco: int
    n_markers: int


@cache
def _detector(cell_px: int = 4) -> cv2.aruco.CharucoDetector:
    """The mat's ChArUco detector, reading each marker's bits from a square warped to
    `cell_px` px per bit cell (OpenCV's `perspectiveRemovePixelPerCell`, 4 by default)."""
    cp = cv2.aruco.CharucoParameters()
    cp.tryRefineMarkers = True  # WORLD.md §6: finds the board in oblique views
    dp = cv2.aruco.DetectorParameters()
    dp.perspectiveRemovePixelPerCell = cell_px
    return cv2.aruco.CharucoDetector(board(), cp, dp)


def _marker_object_points() -> dict[int, np.ndarray]:
    ids = np.asarray(board().getIds()).ravel().tolist()
    return {int(i): np.asarray(o, np.float64).reshape(4, 3)
            for i, o in zip(ids, board().getObjPoints(), strict=True)}


def _board_groups(corners: list[np.ndarray], ids: list[int], camera_matrix: np.ndarray,
                  dist_coeffs: np.ndarray, min_markers: int, inlier: float = 0.35,
                  tight: float = 0.15) -> list[list[int]]:
    """Markers (indices into corners/ids) grouped into boards: each group holds markers whose
    corners one board pose explains, each id at most once, largest group first.

    RANSAC over markers (OpenCV `solvePnPGeneric`, IPPE, both solutions): every
    marker proposes the pose of a board; the pose that explains most other markers (mean
    corner error under `inlier` × their size, then under `tight` × after refitting the pose
    on them) wins; its markers leave, and the rest are grouped again. A loose marker, or a
    neighbour's identical mat, forms a group of its own instead of spoiling the pose (issue:
    a stray marker gave `mat:weak` with hundreds of px of error).
    """
    obj = _marker_object_points()
    left = [i for i in range(len(ids)) if ids[i] in obj]
    groups: list[list[int]] = []

    def explained(rvec, tvec, cand: list[int], limit: float) -> list[int]:
        best: dict[int, tuple[float, int]] = {}
        for i in cand:
            img = corners[i].reshape(4, 2)
            size = float(np.sqrt(max(cv2.contourArea(img.astype(np.float32)), 1.0)))
            proj, _ = cv2.projectPoints(obj[ids[i]], rvec, tvec, camera_matrix, dist_coeffs)
            err = float(np.mean(np.linalg.norm(proj.reshape(4, 2) - img, axis=1)))
            if err < limit * size and (ids[i] not in best or err < best[ids[i]][0]):
                best[ids[i]] = (err, i)
        return sorted(i for _, i in best.values())

    def fit(members: list[int], guess: tuple[np.ndarray, np.ndarray] | None = None):
        """(found, rvec, tvec): one board pose from these markers' corners."""
        o = np.concatenate([obj[ids[k]] for k in members])
        im = np.concatenate([corners[k].reshape(4, 2) for k in members]).astype(np.float64)
        if guess is None:
            return cv2.solvePnP(o, im, camera_matrix, dist_coeffs, flags=cv2.SOLVEPNP_IPPE)
        return cv2.solvePnP(o, im, camera_matrix, dist_coeffs, guess[0], guess[1],
                            useExtrinsicGuess=True)

    if len(left) >= min_markers and len({ids[i] for i in left}) == len(left):
        # the common case first: one board, nothing stray, every marker fits one pose
        found, r, t = fit(left)
        if found and len(explained(r, t, left, tight)) == len(left):
            return [left]
    while len(left) >= min_markers:
        top: list[int] = []
        for i in left:
            ok, rvecs, tvecs, _ = cv2.solvePnPGeneric(
                obj[ids[i]], corners[i].reshape(4, 1, 2).astype(np.float64), camera_matrix,
                dist_coeffs, flags=cv2.SOLVEPNP_IPPE)
            for rvec, tvec in zip(rvecs if ok else (), tvecs if ok else (), strict=False):
                inl = explained(rvec, tvec, left, inlier)
                if len(inl) >= 3:  # refit on them, then keep what the board explains well
                    ok2, r2, t2 = fit(inl, (rvec, tvec))
                    if ok2:
                        inl = explained(r2, t2, left, tight)
                if len(inl) > len(top):
                    top = inl
        if len(top) < min_markers:
            break
        groups.append(top)
        left = [i for i in left if i not in top]
    return groups


def _detect_board(gray: np.ndarray, upscale_below: int = 0, upscale_max_side: int = 0,
                  fine_cell_px: int = 0):
    """`CharucoDetector.detectBoard` on a H×W uint8 grey image: (charuco corners, their ids,
    marker corners, marker ids), corners in px of `gray`.

    When it finds fewer than `upscale_below` markers and the image's longer side is at most
    `upscale_max_side` px, it looks again at the image enlarged twice (bicubic), and keeps
    that if it finds more: the markers' black frames of a mat seen small, blurred or washed
    out are a few px wide, too thin for the detector's thresholds and contour filters (OL02,
    measured unseen: 2 of 10 markers found, 9 after enlarging; OpenCV's ArUco tutorial
    names small markers as what `minMarkerPerimeterRate` and resolution limit). When it
    still finds fewer, it reads the markers of the image as it is with their bits sampled at
    `fine_cell_px` px per cell (0: never), and keeps that if it finds more: a mat seen at a
    grazing angle on a white table has markers whose bits are 2-3 px tall, which the default
    4 px per cell misreads, enlarged or not (OX04, measured unseen: 2 of 10 markers in each
    photo, 9-10 read at 8 px per cell). Enlarging comes first, since its corners are the
    finer (a phone's focal length worked out from them is surer).
    """
    found = _detector().detectBoard(gray)
    n = 0 if found[3] is None else len(found[3])
    if n < upscale_below and max(gray.shape[:2]) <= upscale_max_side:
        found, n = _enlarged(gray, found, n)
    if n < upscale_below and fine_cell_px:
        fine = _detector(fine_cell_px).detectBoard(gray)
        if fine[3] is not None and len(fine[3]) > n:
            found = fine
    return found


def _enlarged(gray: np.ndarray, found: tuple, n: int) -> tuple[tuple, int]:
    """`found` (n markers) or, if it finds more, the board found in `gray` enlarged twice,
    its corners mapped back to px of `gray`; and how many markers that holds."""
    cc, ci, mc, mi = _detector().detectBoard(
        cv2.resize(gray, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC))
    if mi is None or len(mi) <= n:
        return found, n

    def back(p: np.ndarray) -> np.ndarray:  # cv2.resize maps a px centre x to 2x + 0.5
        return ((np.asarray(p, np.float32) - 0.5) / 2.0).astype(np.float32)

    return (None if cc is None else back(cc), ci, tuple(back(c) for c in mc), mi), len(mi)


def detect_mats(gray: np.ndarray, camera_matrix: np.ndarray, dist_coeffs: np.ndarray,
                min_markers: int = 3, inlier: float = 0.35, tight: float = 0.15,
                upscale_below: int = 0, upscale_max_side: int = 0, fine_cell_px: int = 0
                ) -> tuple[list[MatDetection], int]:
    """Every referee mat in a H×W uint8 grey image: one detection per group of markers that
    one board explains (see `_board_groups`), with its ChArUco corners, largest first; and
    how many of the mat's markers were seen in all (0: no mat at all). upscale_below,
    upscale_max_side, fine_cell_px: see `_detect_board` (0: never look again enlarged, or
    read finer).

    Markers of the mat's dictionary that fit no board (a spare printed marker) are left out.
    """
    # markers found and refined on the board
    cc, ci, mc, mi = _detect_board(gray, upscale_below, upscale_max_side, fine_cell_px)
    if mi is None or not len(mi):
        return [], 0
    corners = [np.asarray(c, np.float32).reshape(1, 4, 2) for c in mc]
    ids = [int(i) for i in np.asarray(mi).ravel()]
    groups = _board_groups(corners, ids, camera_matrix, dist_coeffs, min_markers, inlier,
                           tight)
    if len(groups) == 1 and len(groups[0]) == len(ids):  # one board, nothing stray
        return [_pairs(cc, ci, mc, mi)], len(ids)
    out = []
    for g in groups:
        gc = tuple(corners[i] for i in g)
        gi = np.array([[ids[i]] for i in g], np.int32)
        out.append(_detection(gray, gc, gi))
    if not out and len(set(ids)) == len(ids):  # too few for a group: what a board gives
        out.append(_pairs(cc, ci, mc, mi))
    return out, len(ids)


def _detection(gray: np.ndarray, marker_corners, marker_ids) -> MatDetection:
    """ChArUco corners interpolated from one board's markers (`CharucoDetector.detectBoard`
    with the markers given), and the markers' corners, as board/image point pairs."""
    cc, ci, mc, mi = _detector().detectBoard(gray, markerCorners=marker_corners,
                                             markerIds=marker_ids)
    return _pairs(cc, ci, mc, mi)


def _pairs(cc, ci, mc, mi) -> MatDetection:
    obj: list[np.ndarray] = []
    img: list[np.ndarray] = []
    n_ch = 0 if ci is None else len(ci)
    if n_ch:
        all_corners = board().getChessboardCorners()
        obj.append(np.asarray(all_corners)[ci.ravel()])
        img.append(cc.reshape(-1, 2))
    n_mk = 0 if mi is None else len(mi)
    if n_mk:
        objs = _marker_object_points()
        for corners, mid in zip(mc, mi.ravel(), strict=True):
            if int(mid) in objs:
                obj.append(objs[int(mid)].astype(np.float32))
                img.append(np.asarray(corners).reshape(4, 2))
    if not obj:
        return MatDetection(np.zeros((0, 3)), np.zeros((0, 2)), 0, 0)
    return MatDetection(np.concatenate(obj).astype(np.float64),
                        np.concatenate(img).astype(np.float64), n_ch, n_mk)


def detect_mat(gray: np.ndarray, upscale_below: int = 0, upscale_max_side: int = 0,
               fine_cell_px: int = 0) -> MatDetection:
    """Find the mat's ChArUco corners and marker corners in a H×W uint8 grey image, taking
    every marker of the mat's ids (see `detect_mats` for photos with more than one mat;
    upscale_below, upscale_max_side, fine_cell_px: `_detect_board`).

    Returns empty arrays when nothing is found; deciding what is enough is the caller's job.
    """
    return _pairs(*_detect_board(gray, upscale_below, upscale_max_side, fine_cell_px))


def is_weak(det: MatDetection, settings: VisionSettings) -> str | None:
    """Why a detection is too weak for a pose (too few points, all in one row), or None."""
    if det.n_markers < settings.pose.min_markers and det.n_charuco < settings.pose.min_charuco:
        m, c = det.n_markers, det.n_charuco
        return f"{m} marker{'' if m == 1 else 's'} and {c} corner{'' if c == 1 else 's'}"
    ys = det.object_points[:, 1]
    if np.ptp(ys) < settings.pose.min_rows_spread_mm:
        return "all corners lie in one row"
    return None


def solve_pose(det: MatDetection, camera_matrix: np.ndarray, dist_coeffs: np.ndarray) -> Pose:
    """Board pose from a detection (`cv2.solvePnP` with IPPE, the iterative method if that
    fails, then `solvePnPRefineLM`)."""
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
