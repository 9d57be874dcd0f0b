"""The front view: the photo resampled onto the vertical plane of the build line (WORLD.md §4–5).

Rectified coordinates: column c ↔ x = x0 + c/s mm along the build line, row r ↔ height
h = h_top - r/s mm above the table, where s = px_per_mm. In this view the stones' front faces
appear at true shape and scale (1 u = unit_mm·s px).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from referee.vision.mat import BUILD_LINE_Y_MM, PAPER_BEYOND
from referee.vision.pose import Pose

OUTSIDE = (255, 255, 255)  # what lies outside the photo reads as paper white, never a stone


@dataclass(frozen=True)
class FrontView:
    """Geometry of a rectified front view: width × height px at px_per_mm; column 0 is x0_mm
    along the build line, row 0 is h_top_mm above the table; the plane stands at board
    y = plane_y_mm (the build line, WORLD.md §5)."""

    x0_mm: float
    h_top_mm: float
    px_per_mm: float
    width: int
    height: int
    plane_y_mm: float = BUILD_LINE_Y_MM

    @classmethod
    def for_settings(cls, px_per_mm: float, view_height_mm: float) -> FrontView:
        """The paper beyond the board (WORLD.md §5) with 10 mm to spare on each side, from
        10 mm below the table up to `view_height_mm`."""
        x0, x1 = PAPER_BEYOND[0] - 10.0, PAPER_BEYOND[1] + 10.0
        return cls(x0, view_height_mm, px_per_mm, round((x1 - x0) * px_per_mm),
                   round((view_height_mm + 10.0) * px_per_mm))

    def to_plane(self, cols: Any, rows: Any) -> tuple[Any, Any]:
        """Pixel (col, row) → (x mm, h mm) on the plane (floats or arrays alike)."""
        return self.x0_mm + cols / self.px_per_mm, self.h_top_mm - rows / self.px_per_mm

    def to_px(self, x_mm: Any, h_mm: Any) -> tuple[Any, Any]:
        """(x mm, h mm) → (col, row) float px (floats or arrays alike)."""
        return (np.asarray(x_mm) - self.x0_mm) * self.px_per_mm, \
            (self.h_top_mm - np.asarray(h_mm)) * self.px_per_mm

    def board_points(self, x_mm: Any, h_mm: Any, depth_mm: float = 0.0) -> np.ndarray:
        """Plane coordinates (mm, floats or arrays of N) → board-frame points N×3 float64
        (y = plane − depth, z = −h)."""
        x = np.atleast_1d(np.asarray(x_mm, np.float64))
        h = np.broadcast_to(np.asarray(h_mm, np.float64), x.shape)
        y = np.full_like(x, self.plane_y_mm) - depth_mm
        return np.stack([x, y, -h], axis=1)

    def homography(self, pose: Pose) -> np.ndarray:
        """3×3 map from front-view px (col, row, 1) to image px, ignoring lens distortion."""
        r = pose.rotation
        s = self.px_per_mm
        # plane point (x, y0, -h) with x = x0 + c/s, h = htop - r/s
        a = np.column_stack([r[:, 0], -r[:, 2], r[:, 1] * self.plane_y_mm + pose.tvec.ravel()])
        # (x, h, 1) from (c, r, 1)
        m = np.array([[1 / s, 0, self.x0_mm], [0, -1 / s, self.h_top_mm], [0, 0, 1]])
        return pose.camera_matrix @ a @ m


def rectify(image: np.ndarray, pose: Pose, view: FrontView,
            border: tuple[int, ...] = OUTSIDE) -> np.ndarray:
    """Resample H×W×C `image` into the front view (view.height × view.width × C, same dtype);
    what lies outside the photo takes the value `border`.

    Uses `cv2.warpPerspective` (inverse map) without distortion, else a `cv2.remap` of every
    front-view pixel projected with `cv2.projectPoints`.
    """
    if not np.any(pose.dist_coeffs):
        return cv2.warpPerspective(image, view.homography(pose), (view.width, view.height),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    cols, rows = np.meshgrid(np.arange(view.width, dtype=np.float64),
                             np.arange(view.height, dtype=np.float64))
    x, h = view.to_plane(cols.ravel(), rows.ravel())
    pts = pose.project(view.board_points(x, h)).astype(np.float32)
    mx = pts[:, 0].reshape(view.height, view.width)
    my = pts[:, 1].reshape(view.height, view.width)
    return cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=border)
