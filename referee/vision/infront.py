"""Pieces lying in front of the build (WORLD.md §5; the issue on unseen tables, item 5).

A spare snow piece or stone lying between the camera and the build hides the feet of the
stones behind it, and its top, seen over their lower ends, looks like snow they stand on
(QD01-05: a blue bar on the table fitted 0.9 u up on the L piece in front, judged on a unit
of snow). The build stands behind the dashed line, so nothing of it ever lies on the board:
the board's first row, nearest the line, is mostly black print (squares, marker borders),
and whatever shows light there lies on the mat in front of the build.

`in_front` finds such patches in the photo (the board's plane seen from above) and returns
the stretches of the build line that the camera sees behind them; a stone there whose face
ends a unit up or less may end on the piece's top, its foot hidden (`foot_hidden`).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import cv2
import numpy as np

from referee.vision.colour import to_lab
from referee.vision.fit import BarFit
from referee.vision.mat import SQUARE_MM, SQUARES, board
from referee.vision.pose import Pose
from referee.vision.rectify import FrontView


class Piece(NamedTuple):
    """A piece lying in front of the build, as the build line's plane sees it: the stretch
    x0_mm–x1_mm (mm along the line) behind it, and how it looks: its patch's pixels (N×3
    float32 Lab, at most 500 of them, white-balanced on the paper as the front view is,
    `colour.to_lab`: the paper L 100)."""

    x0_mm: float
    x1_mm: float
    lab: np.ndarray


@cache
def _print(px_per_mm: float) -> np.ndarray:
    """The board as printed, H×W uint8 (0 black, 255 white), at `px_per_mm`, top-left at the
    board frame's origin (mat.py's layout)."""
    w, h = round(SQUARES[0] * SQUARE_MM * px_per_mm), round(SQUARES[1] * SQUARE_MM * px_per_mm)
    return board().generateImage((w, h), marginSize=0, borderBits=1)


def board_maps(pose: Pose, px_per_mm: float, step: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """For each pixel of the board seen from above (the frame of `_print`), where it lies in
    the photo: (map_x, map_y), each H×W float32 px, as `cv2.remap` takes them. Lens
    distortion included (`Pose.project`) on every `step`-th pixel and interpolated between
    (distortion bends the map smoothly; projecting every pixel took 0.1 s)."""
    h, w = _print(px_per_mm).shape
    cols = np.append(np.arange(0, w, step), w - 1).astype(np.float64)
    rows = np.append(np.arange(0, h, step), h - 1).astype(np.float64)
    cc, rr = np.meshgrid((cols + 0.5) / px_per_mm, (rows + 0.5) / px_per_mm)
    img = pose.project(np.stack([cc.ravel(), rr.ravel(), np.zeros(cc.size)], axis=1))
    coarse = img.reshape(len(rows), len(cols), 2).astype(np.float32)
    # linear between the projected pixels: the map at each pixel from its four neighbours
    fx = np.interp(np.arange(w), cols, np.arange(len(cols))).astype(np.float32)
    fy = np.interp(np.arange(h), rows, np.arange(len(rows))).astype(np.float32)
    gx, gy = np.meshgrid(fx, fy)
    return (cv2.remap(coarse[..., 0], gx, gy, cv2.INTER_LINEAR),
            cv2.remap(coarse[..., 1], gx, gy, cv2.INTER_LINEAR))


def board_view(image: np.ndarray, maps: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The photo (H×W or H×W×C uint8) resampled onto the board's plane (z = 0) through
    `board_maps`: row r, column c at board mm (c + ½, r + ½) / px_per_mm; 0 outside the
    photo."""
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def light_on_print(image: np.ndarray, pose: Pose, px_per_mm: float, erode_mm: float,
                   light_share: float, white_mm: float = 25.0) -> tuple[np.ndarray, np.ndarray]:
    """Where the board's black print, in its first row (nearest the build), shows
    something unlike itself in the photo (H×W×3 uint8 BGR): H×W bool in the frame of
    `_print` (only that row can be True); and the board as the photo shows it there
    (`board_view`, H×W×3 uint8 BGR).

    Unlike: lighter (L of `cv2.COLOR_BGR2Lab`) than the print's black by `light_share` of the
    way to the white, both against the lightest white print within `white_mm` (a lamp
    lights the board unevenly, and black is a share of the lit white beside it) and against
    the whole board (the 90th percentile of the black that the first test calls black, the
    median white: a shadow's edge darkens the white beside a lit black square, whose share
    then looks high). The print is shrunk by `erode_mm` first: the pose's error and the
    photo's blur mix its edges."""
    ref = _print(px_per_mm)
    maps = board_maps(pose, px_per_mm)
    bgr = board_view(image, maps)
    seen = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)[..., 0].astype(np.float32)
    hi, wi = image.shape[:2]  # where the board lies inside the photo
    inside = (maps[0] >= 0) & (maps[0] <= wi - 1) & (maps[1] >= 0) & (maps[1] <= hi - 1)
    k = max(1, round(erode_mm * px_per_mm))
    kernel = np.ones((2 * k + 1, 2 * k + 1), np.uint8)
    # shrunk from the paper beyond the board too (the image's edge is no print)
    black = cv2.erode((ref < 128).astype(np.uint8), kernel, borderType=cv2.BORDER_CONSTANT,
                      borderValue=0) > 0
    white = cv2.erode((ref >= 128).astype(np.uint8), kernel) > 0
    if not (black & inside).any() or not (white & inside).any():
        return np.zeros(ref.shape, bool), bgr
    # the white print's lightness around each pixel, in the light: a lamp lights the board
    # unevenly, and the print's black is a share of the lit white beside it however the lamp
    # falls; the lightest white around (not its mean), since a shadow's edge darkens the
    # white beside a lit black square (PJ01-05). At a quarter of the size (4 px blocks'
    # means of white, their maximum within `white_mm`), for speed.
    h, w = seen.shape
    small = (max(1, w // 4), max(1, h // 4))
    ok = (white & inside).astype(np.float32)
    wsum = cv2.resize(seen * ok, small, interpolation=cv2.INTER_AREA)
    wn = cv2.resize(ok, small, interpolation=cv2.INTER_AREA)
    block = np.where(wn > 0.25, wsum / np.maximum(wn, 1e-3), 0).astype(np.float32)
    r = max(1, round(white_mm * px_per_mm / 4))
    brightest = cv2.dilate(block, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    local = cv2.resize(brightest, (w, h), interpolation=cv2.INTER_NEAREST)
    ratio = seen / np.maximum(local, 1.0)
    # the print's black, as a share of that white (where some white lies within reach: the
    # shrunk white print is sparse, and a ratio to nothing says nothing)
    known = black & inside & (local > 0)
    if not known.any():
        return np.zeros(ref.shape, bool), bgr
    dark = float(np.median(ratio[known]))
    if dark > 0.8:  # no contrast to tell anything by (a washed-out photo)
        return np.zeros(ref.shape, bool), bgr
    # ... and light against the whole board's print too: a shadow's edge darkens the white
    # beside a lit black square, whose ratio then looks high, but not its lightness. The
    # print's black in the light is read where the ratio says black (a large piece, a hand
    # or a sheet on the board must not lift it: a break-it trial lost QH02-01's piece so)
    lit = black & inside & (local > 0) & (ratio > dark + light_share * (1.0 - dark))
    still = black & inside & ~lit
    b = float(np.percentile(seen[still], 90)) if still.any() else float(np.median(seen[black]))
    w = float(np.median(seen[white & inside]))
    out = lit & (seen > b + light_share * (w - b))
    out[round(SQUARE_MM * px_per_mm):] = False
    return out, bgr


def in_front(image: np.ndarray, pose: Pose, white: np.ndarray, view: FrontView, unit: float,
             px_per_mm: float, erode_mm: float, light_share: float, min_area_u2: float,
             reach_u: float = 0.5, white_mm: float = 25.0) -> list[Piece]:
    """The pieces lying in front of the build (`Piece`): the stretch of the line's plane
    that the camera sees behind each (from the table up to a unit above it: any piece is
    that tall), and how it looks (its patch's pixels).

    image: the photo, H×W×3 uint8 BGR; white: the paper's BGR (`photo.paper_white`). A
    piece is a patch on the board's first row (`light_on_print`) of at least `min_area_u2`
    u² after an opening by a tenth of a unit (which drops specks of glare and the print's
    blurred edges); each point of its patch, on the table and a unit up, is carried along
    its camera ray onto the plane, and the stretch grown by `reach_u` units each way (the
    patch is only the piece's part on the black print; it runs on over the white around
    it). [] when nothing lies there.
    """
    light, bgr = light_on_print(image, pose, px_per_mm, erode_mm, light_share, white_mm)
    if not light.any():
        return []
    lab = to_lab(bgr, white)
    k = max(1, round(0.1 * unit * px_per_mm))
    light = cv2.morphologyEx(light.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=8)
    min_px = min_area_u2 * (unit * px_per_mm) ** 2
    c = pose.camera_centre_mm()
    pieces = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < min_px:
            continue
        ys, xs = np.nonzero(labels == i)
        pts = np.stack([(xs + 0.5) / px_per_mm, (ys + 0.5) / px_per_mm], axis=1)
        hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)
        p = np.concatenate([np.column_stack([hull, np.full(len(hull), z)])
                            for z in (0.0, -unit)])  # z into the table: up is negative
        d = p - c
        q = c + ((view.plane_y_mm - c[1]) / d[:, 1])[:, None] * d  # rays cut by the plane
        # the patch is the piece's part on black print; the piece runs on over the white
        pieces.append(Piece(float(q[:, 0].min()) - reach_u * unit,
                            float(q[:, 0].max()) + reach_u * unit,
                            lab[ys, xs][:: max(1, len(ys) // 500)].astype(np.float32)))
    return pieces


def foot_hidden(f: BarFit, pieces: list[Piece], lab: np.ndarray, view: FrontView, unit: float,
                min_share: float, table_band_mm: float, top_u: float, alike: float,
                darker: float, share: float = 0.25) -> bool:
    """Whether a piece in front (`in_front`) may hide the bar's foot: the bar's face is
    measured above the table (`table_band_mm`) but no higher than `top_u` units, where the
    top of a piece lying in front shows (a unit, less as it lies further forward, and the
    fit's doubt); a piece's stretch covers at least `min_share` of the face's width; and
    what shows under the face there (0.1–0.5 u below it; lab: the front view's Lab, H×W×3
    float32, the paper L 100) looks like that piece: its median's a and b within `alike`
    of those of `share` of the piece's pixels or more, and its L no more than `darker`
    under theirs (the piece's patch holds its shaded sides too, or a hand by it; the top
    is its lightest face, and a lamp may light the board more).
    The piece's top faces up, lit as the board is, where the snow a bar stands on shows
    its front face, which is lit otherwise, in the build's own light (on our sets a unit of
    snow under a bar shows L 25–65 in the front view; the L piece of QD01-05, 100), and a
    spare stone in front has its colour. The bar's lower end, seen on the piece's top, is
    then not its end: it may stand on the table behind the piece, or on snow (QD01-05: a
    blue bar on the table, its visible end 0.9 u up, judged on a unit of snow)."""
    if not pieces or not table_band_mm < f.h_mm <= top_u * unit:
        return False
    w = 5 * unit if f.orientation == "H" else unit
    for p in pieces:
        a, b = max(f.x_mm, p.x0_mm), min(f.x_mm + w, p.x1_mm)
        if b - a < min_share * w:
            continue
        c0, r0 = view.to_px(a + 0.25 * (b - a), f.h_mm - 0.1 * unit)
        c1, r1 = view.to_px(b - 0.25 * (b - a), f.h_mm - 0.5 * unit)
        under = lab[max(int(r0), 0):max(int(r1), 0), max(int(c0), 0):max(int(c1), 0)]
        if not under.size:
            continue
        seen = np.median(under.reshape(-1, 3), axis=0)
        # its hue, and nearly its lightness, over a share of the patch: the patch holds the
        # piece's shaded sides too, or a hand beside it, and a lamp may light the board
        # more than the build (a break-it trial: row 1 lit 10 % more put QH02-01's piece
        # 17 L over its top seen under the bar)
        like = (np.hypot(p.lab[:, 1] - seen[1], p.lab[:, 2] - seen[2]) <= alike) & \
            (p.lab[:, 0] - darker <= seen[0])
        if len(like) and float(like.mean()) >= share:
            return True
    return False
