"""Drawing for people: the photo with the mat axes, the build zone, each fitted stone in its
colour, and the verdict with its faults, so that anyone sees why."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from referee.vision.mat import BUILD_LINE_Y_MM, BUILD_ZONE

if TYPE_CHECKING:
    from referee.vision.fit import BarFit
    from referee.vision.pipeline import Measurement
    from referee.vision.rectify import FrontView

DRAW_BGR = {"G": (128, 128, 128), "B": (220, 120, 20), "P": (190, 60, 170),
            "O": (0, 140, 255)}
VERDICT_BGR = {"correct": (60, 170, 60), "wrong": (40, 40, 220), "unsure": (0, 170, 230)}


def _bar_box(fit: BarFit, view: FrontView, unit: float, depth: float = 0.0) -> np.ndarray:
    """The fitted bar's 8 corners in board mm (8×3): its front face, then the face 1 u
    behind it (`depth` mm further back)."""
    w, h = (5 * unit, unit) if fit.orientation == "H" else (unit, 5 * unit)
    x0, z0 = fit.x_mm, fit.h_mm
    pts = []
    for dy in (0.0, unit):
        for dx, dz in ((0, 0), (w, 0), (w, h), (0, h)):
            p = view.board_points(x0 + dx, z0 + dz, depth_mm=depth + dy)
            pts.append(p[0])
    return np.array(pts)


def draw_overlay(image: np.ndarray, m: Measurement, verdict: Any,
                 captions: bool = True) -> np.ndarray:
    """A copy of H×W×3 uint8 BGR `image` with the measurement `m` and `verdict` drawn.

    captions: the verdict and its faults in words (English) on a dark strip at the top; the
    phones' pages leave them out and show them in the phone's own language beside the photo.

    verdict: a `tuki.judge.Verdict` (verdict, faults and reasons with code, text and
    subject); vision does not import tuki/, so it is not typed here. A fitted stone that a
    fault or reason is about is outlined in red.
    """
    out = image.copy()
    pose, view = m.pose, m.view
    unit = m.build.unit_mm
    if pose is not None:
        o = pose.project(np.array([[0, 0, 0], [60, 0, 0], [0, 60, 0], [0, 0, -60]], float))
        o = o.round().astype(int)
        for end, col in ((o[1], (0, 0, 255)), (o[2], (0, 200, 0)), (o[3], (255, 0, 0))):
            cv2.arrowedLine(out, tuple(o[0]), tuple(end), col, 2, cv2.LINE_AA)
        x0, x1, y0, y1 = BUILD_ZONE
        zone = pose.project(np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]]))
        cv2.polylines(out, [zone.round().astype(np.int32)], True, (200, 200, 200), 1,
                      cv2.LINE_AA)
        line = pose.project(np.array([[x0, BUILD_LINE_Y_MM, 0], [x1, BUILD_LINE_Y_MM, 0]]))
        cv2.line(out, tuple(line[0].round().astype(int)), tuple(line[1].round().astype(int)),
                 (255, 255, 0), 1, cv2.LINE_AA)
    faulty = {f.subject for f in (*verdict.faults, *verdict.reasons) if f.subject}
    letter = float(np.clip(out.shape[1] / 960, 1.0, 2.0)) * 0.85  # cv2 font scale
    if pose is not None and view is not None:
        for f in m.fits:
            pts = pose.project(_bar_box(f, view, unit))
            front = pts[:4].round().astype(np.int32)
            hull = cv2.convexHull(pts.astype(np.float32)).round().astype(np.int32)
            col = DRAW_BGR.get(f.colour, (255, 255, 255))
            cv2.polylines(out, [hull], True, col, 1, cv2.LINE_AA)
            thick = 3 if f.colour in faulty else 2
            cv2.polylines(out, [front], True, (0, 0, 255) if f.colour in faulty else col,
                          thick, cv2.LINE_AA)
            # the stone's letter in bold, its colour on a dark outline, larger on larger
            # photos (a new user's trial read a thin grey "G" on white as "C")
            at = tuple(front[3] + np.array([2, -5]))
            cv2.putText(out, f.colour, at, cv2.FONT_HERSHEY_SIMPLEX, letter, (20, 20, 20),
                        5, cv2.LINE_AA)
            cv2.putText(out, f.colour, at, cv2.FONT_HERSHEY_SIMPLEX, letter, col, 2,
                        cv2.LINE_AA)
    if not captions:
        return out
    # verdict banner on a dark strip, so the words read on any background; each fault or
    # reason wrapped to the photo's width (a new user's trial: "lower the ligh", cut off)
    items = [f"{f.code}: {f.text}" for f in verdict.faults] + \
        [f"{r.code}: {r.text}" for r in verdict.reasons]
    lines = [ln for text in items for ln in _wrap(text, out.shape[1] - 20, 0.5)][:MAX_LINES]
    banner_h = min(36 + 22 * len(lines), out.shape[0])
    dark = out[:banner_h].astype(np.float32) * 0.35
    out[:banner_h] = dark.astype(np.uint8)
    cv2.putText(out, verdict.verdict.upper(), (10, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                VERDICT_BGR.get(verdict.verdict, (255, 255, 255)), 2, cv2.LINE_AA)
    for i, text in enumerate(lines):
        cv2.putText(out, text, (10, 56 + 22 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    (255, 255, 255), 1, cv2.LINE_AA)
    return out


MAX_LINES = 10  # caption lines under the verdict, at most


def _wrap(text: str, width_px: int, scale: float) -> list[str]:
    """`text` in lines no wider than `width_px` at `scale` (cv2.FONT_HERSHEY_SIMPLEX), broken
    between words; the lines after the first indented."""
    lines: list[str] = []
    cur = ""
    for word in text.split():
        trial = f"{cur} {word}" if cur else word
        if cur and cv2.getTextSize(trial, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)[0][0] > width_px:
            lines.append(cur)
            cur = "   " + word
        else:
            cur = trial
    return [*lines, cur] if cur else lines
