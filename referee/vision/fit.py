"""Colour masks + pose → candidate placements of each colour's bar (WORLD.md §1).

Each stone is a 1 × 1 × 5 u bar whose front face stands on the build line. In the front view
(see rectify.py) the front face is an exact rectangle of 5 × 1 u (H) or 1 × 5 u (V); the top
face and one side face show as bands displaced toward the camera, by a vector computed from the
pose. A bar is fitted per colour by correlating its mask with a template: the face counts for,
thin strips just outside the face and its bands count against, the bands themselves are
neutral (they may be hidden by neighbours). Depth is not observable from one view: the front
faces are taken on the build line, and assemble.py settles what that leaves in doubt.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from referee.build import ORIENTATIONS, Orientation
from referee.vision.pose import Pose
from referee.vision.rectify import FrontView


@dataclass(frozen=True)
class BarFit:
    """One fitted bar in the front view: colour (a stone letter, or `?` for a thing of no
    calibrated colour, `lookalike.unknown_stone`), orientation `H`/`V`, the lower-left corner of
    its front face (x_mm along the build line, h_mm above the table), and how well it fits.

    fill: share of the front face showing the colour (0–1); score: template response;
    supported: something holds it up; grooves: its grooves were found (grooves.refine);
    slack_u: how far (u) the face could slide along its length and still cover as much of
    its colour (an end hidden by a piece in front, or lost in a pale background), so that
    its position along the length is not pinned; anchored: placed from its top end
    (grooves.anchor_top); edge: a lying bar placed up and down by the edge between its front
    and top faces (grooves.refine); rivalled: a candidate of the other orientation, held up
    and full enough, scores at least as high (`rivals.rivalled`): which way the stone
    lies is in doubt; rested: placed by its grooves where it rests on, holds up or lies
    beside another stone (`choose.resting`): its place along its length rests on grooves
    that repeat every unit; tinted: found on pixels that another stone's colour claimed
    (`refit.refit_tinted`): a shadow tinted so looks the same, so its place is evidence too
    weak for a fault to rest on alone (also the pixels a table class of its hue took,
    `refit.refit_lent`); odd_end: one end segment of its face is unlike the other four
    (`odd_end`), so it may end a unit short on a look-alike: weak too; lit_seam: light
    shows between a lying bar and one lying on it over a unit (`ends.lit_seam`), so part of
    it may be a shadow under the other's overhang: weak too; bare_top: a standing
    bar whose top face shows none of its colour with nothing on it (`bare_top`), so its
    fitted face may hold its top face, its foot hidden: weak too; snow_like: a groove-less
    grey fit whose face is nearer the snow's lightness than the grey's (`ends.snow_like`),
    or any groove-less grey fit (`fit.grooveless_grey`): it may be a snow pillar, weak too;
    face_below: a lying bar whose face runs on below its fitted bottom, grooves and all
    (`ends.face_below`): it may stand lower, weak too; foot_hidden: its face ends a unit up
    or less behind a piece lying in front (`infront.foot_hidden`), so its lower end is not
    seen: `stone:hidden`; behind: such a bar placed from its top end instead
    (`choose.behind_piece`): weak.
    """

    colour: str
    orientation: Orientation
    x_mm: float
    h_mm: float
    fill: float
    score: float
    supported: bool = True
    grooves: bool = False
    slack_u: float = 0.0
    anchored: bool = False
    edge: bool = False
    rivalled: bool = False
    rested: bool = False
    tinted: bool = False
    odd_end: bool = False
    lit_seam: bool = False
    bare_top: bool = False
    snow_like: bool = False
    face_below: bool = False
    foot_hidden: bool = False
    behind: bool = False


def band_vector_mm(pose: Pose, view: FrontView, depth_mm: float,
                   at: tuple[float, float] = (140.0, 40.0)) -> tuple[float, float]:
    """Where a point `depth_mm` behind the build line appears in the front view, relative to
    the point in front of it: (dx_mm, dh_mm), at `at` (x, h mm on the line; the centre of
    the build zone unless given: a point higher up, nearer the camera's height, shows less
    of what lies behind it)."""
    a = view.board_points(*at)
    b = view.board_points(*at, depth_mm=depth_mm)
    c = pose.camera_centre_mm()
    # intersect the ray camera→b with the plane y = plane_y
    d = b[0] - c
    t = (view.plane_y_mm - c[1]) / d[1]
    p = c + t * d
    return float(p[0] - a[0, 0]), float(-p[2] + a[0, 2])


def _template(w_px: int, h_px: int, band: tuple[float, float], s: float, strip_mm: float = 3.0
              ) -> tuple[np.ndarray, tuple[int, int]]:
    """Correlation kernel for a face of w×h px with its band (dx, dh in px); returns the
    kernel (float32) and the face's lower-left corner (col, row) inside it.

    The kernel is 1/(w·h) on the face, 0 on the band, and one negative constant on the
    strips around both (`_response` relies on these three values)."""
    bx, bh = band[0], band[1]
    st = max(2, round(strip_mm * s))
    pad_l = st + max(0, round(-bx))
    pad_r = st + max(0, round(bx))
    pad_t = st + max(0, round(bh))
    pad_b = st
    kw, kh = w_px + pad_l + pad_r, h_px + pad_t + pad_b
    k = np.zeros((kh, kw), np.float32)
    face = (slice(pad_t, pad_t + h_px), slice(pad_l, pad_l + w_px))
    # penalty region: everything in the kernel outside face ∪ band, near its outline
    occupied = np.zeros_like(k, np.uint8)
    poly_face = np.array([[pad_l, pad_t], [pad_l + w_px, pad_t], [pad_l + w_px, pad_t + h_px],
                          [pad_l, pad_t + h_px]], np.float32)
    shifted = poly_face + np.array([bx, -bh], np.float32)
    hull = cv2.convexHull(np.concatenate([poly_face, shifted])).round().astype(np.int32)
    cv2.fillConvexPoly(occupied, hull, 1)
    outside = occupied == 0
    n_out = max(int(outside.sum()), 1)
    k[outside] = -0.6 * (w_px * h_px) / n_out  # strips weigh as much as 0.6 of a face
    k[face] = 1.0
    k /= float(w_px * h_px)
    return k, (pad_l, pad_t + h_px)


def _strip_counts(win: np.ndarray, strips: np.ndarray, anchor: tuple[int, int],
                  ys: range, xs: range) -> np.ndarray:
    """Σ strips[i, j]·win[Y + i − ay, X + j − ax] for each Y in `ys`, X in `xs` (anchor
    (ax, ay); win h×w uint8 0/1, zeros beyond it): the correlation `cv2.filter2D` makes,
    exactly, as int32 counts.

    The strips are what lies outside a convex hull in the kernel's box, so each kernel row
    holds at most two runs of them, and rows with the same runs come in a few bands (above
    the hull, along the face, along each slanted side of it one row at a time): a band of
    rows' run is a box, summed from one integral image for the whole block at once. A few
    dozen array operations instead of a large kernel's correlation (`filter2D`, which was
    the pipeline's hot spot)."""
    ax, ay = anchor
    kh, kw = strips.shape
    ny, nx = len(ys), len(xs)
    # sub[p + i, q + j] = win[ys[p] + i − ay, xs[q] + j − ax], zero beyond win
    y0, x0 = ys.start - ay, xs.start - ax
    sub = np.zeros((ny + kh - 1, nx + kw - 1), np.uint8)
    r0, r1 = max(y0, 0), min(y0 + sub.shape[0], win.shape[0])
    c0, c1 = max(x0, 0), min(x0 + sub.shape[1], win.shape[1])
    if r1 > r0 and c1 > c0:
        sub[r0 - y0:r1 - y0, c0 - x0:c1 - x0] = win[r0:r1, c0:c1]
    ii = np.asarray(cv2.integral(sub, sdepth=cv2.CV_32S), np.int32)
    out = np.zeros((ny, nx), np.int32)
    for i, c, coef in _strip_corners(strips.tobytes(), kh, kw):
        out += coef * ii[i:i + ny, c:c + nx]
    return out


@lru_cache(maxsize=16)
def _strip_corners(strips: bytes, kh: int, kw: int) -> tuple[tuple[int, int, int], ...]:
    """The kh×kw bool kernel `strips` (its bytes) as integral-image corners (row, column,
    ±1 or more): each band of consecutive rows with the same runs of strips makes one box
    per run (rows i0..i1−1, columns a..b−1: +ii[i1, b] − ii[i0, b] − ii[i1, a] + ii[i0, a]),
    and the corners that boxes share cancel."""
    mask = np.frombuffer(strips, np.bool_).reshape(kh, kw)
    edges = np.diff(np.pad(mask.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    runs = [(tuple(int(c) for c in np.flatnonzero(e == 1)),
             tuple(int(c) for c in np.flatnonzero(e == -1))) for e in edges]
    coef: dict[tuple[int, int], int] = {}
    i0 = 0
    for i1 in range(1, kh + 1):
        if i1 < kh and runs[i1] == runs[i0]:
            continue
        for a, b in zip(*runs[i0], strict=True):
            for corner, sign in (((i1, b), 1), ((i0, b), -1), ((i1, a), -1), ((i0, a), 1)):
                coef[corner] = coef.get(corner, 0) + sign
        i0 = i1
    return tuple((i, c, k) for (i, c), k in sorted(coef.items()) if k)


def _response(win: np.ndarray, k: np.ndarray, anchor: tuple[int, int], w_px: int, h_px: int,
              rows: tuple[int, int], cols: tuple[int, int], min_peak: float
              ) -> tuple[np.ndarray, tuple[slice, slice]] | None:
    """The correlation of `win` (h×w uint8 0/1, zeros beyond it) with the `_template`
    kernel `k` (anchored at its face's lower-left corner `anchor`, col, row) at the window
    rows [rows) and cols [cols), exactly, wherever it can exceed `min_peak`, and −1
    elsewhere (float32); with the slices of that array where it was computed (every value
    above `min_peak`, and 5 px around); None if nowhere.

    The response is the face's share of colour less the strips' weighted colour, so it can
    exceed `min_peak` only where the face alone holds more than `min_peak` of its area:
    those sums come from one integral image, and the strips are counted only around them
    (`_strip_counts`; a few hundredths of the area in a typical photo). Both sums are
    counts of pixels, so the response does not depend on the area computed."""
    area = w_px * h_px
    (ra, rb), (ca, cb) = rows, cols
    # face sums: win padded by the face's size above and right, so every window is slices
    padded = cv2.copyMakeBorder(win, h_px, 0, 0, w_px, cv2.BORDER_CONSTANT, value=0)
    ii = cv2.integral(padded, sdepth=cv2.CV_32S)
    face = (ii[ra + h_px:rb + h_px, ca + w_px:cb + w_px] - ii[ra:rb, ca + w_px:cb + w_px]
            - ii[ra + h_px:rb + h_px, ca:cb] + ii[ra:rb, ca:cb])
    bx, by, bw, bh = cv2.boundingRect((face > min_peak * area).astype(np.uint8))
    if bw == 0:
        return None
    # around the possible peaks: the 9 × 9 maximum test and the parabola see the true values
    m = 5
    ya, yb = max(by - m, 0), min(by + bh + m, rb - ra)
    xa, xb = max(bx - m, 0), min(bx + bw + m, cb - ca)
    strips = k < 0
    counts = _strip_counts(win, strips, anchor, range(ra + ya, ra + yb),
                           range(ca + xa, ca + xb)).astype(np.float32)
    weight = float(k[strips][0]) if strips.any() else 0.0
    out = np.full((rb - ra, cb - ca), -1.0, np.float32)
    out[ya:yb, xa:xb] = face[ya:yb, xa:xb] / area + weight * counts
    return out, (slice(ya, yb), slice(xa, xb))


def bar_candidates(mask: np.ndarray, colour: str, view: FrontView, unit_mm: float,
                   band_mm: tuple[float, float], regions: dict[Orientation, tuple[float, ...]],
                   support: np.ndarray | None = None, min_support: float = 0.3,
                   per_orientation: int = 4, table_band_mm: float = 8.0,
                   strip_mm: float = 3.0, min_peak: float = 0.2) -> list[BarFit]:
    """The best H and V placements of one colour's bar, best score first.

    mask: H×W bool front-view mask of the colour. unit_mm: u in mm. band_mm: where a face's
    top or side band shows, (dx, dh) mm for a depth of 1 u (`band_vector_mm`). regions: per
    orientation, (x0, x1, h0, h1) mm where the lower-left corner may be. support: H×W bool
    of what can hold a stone up (snow, stones, the paper); a candidate with less than
    `min_support` of the strip under its face supported is marked unsupported, unless its
    bottom lies within `table_band_mm` of the table plane (it stands on the table): a stone
    never floats in the air, and a look-alike in the background usually does.
    """
    s = view.px_per_mm
    if not mask.any():
        return []
    m = mask.astype(np.uint8)
    bx, by, bw, bh = cv2.boundingRect(m)
    u = unit_mm * s
    band = (band_mm[0] * s, band_mm[1] * s)
    strip = max(2, round(4 * s))
    out: list[BarFit] = []
    # the colour's connected patches: a patch far larger than a bar (a wall, a box) has
    # peaks all over it, which took every place before the stone's own were reached
    _, patches = cv2.connectedComponents(m, connectivity=8)
    for orient in ORIENTATIONS:
        w, h = (5 * u, u) if orient == "H" else (u, 5 * u)
        w_px, h_px = round(w), round(h)
        k, (ax, ay) = _template(w_px, h_px, band, s, strip_mm)
        region = regions[orient]
        c0, r1 = view.to_px(region[0], region[2])
        c1, r0 = view.to_px(region[1], region[3])
        # only where the template can touch the colour: the mask's bounding box, grown by
        # the kernel (the hot spot of the pipeline; the response elsewhere is <= 0)
        kh, kw = k.shape
        c0, c1 = max(0, int(c0), bx - kw), min(m.shape[1] - 1, int(c1), bx + bw + kw)
        r0, r1 = max(0, int(r0), by - kh), min(m.shape[0] - 1, int(r1), by + bh + kh)
        if c1 <= c0 or r1 <= r0:
            continue
        y0, y1 = max(0, r0 - kh), min(m.shape[0], r1 + kh + 1)
        x0, x1 = max(0, c0 - kw), min(m.shape[1], c1 + kw + 1)
        got = _response(m[y0:y1, x0:x1], k, (ax, ay), w_px, h_px,
                        (r0 - y0, r1 - y0 + 1), (c0 - x0, c1 - x0 + 1), min_peak)
        if got is None:
            continue
        sub, near = got
        peaks = np.zeros(sub.shape, bool)
        peaks[near] = (sub[near] == cv2.dilate(sub[near], np.ones((9, 9), np.uint8))) & \
            (sub[near] > min_peak)
        # a peak on the edge of the search region is no maximum: what it fits lies outside
        # the region (a thing far behind the mat, seen beside the paper strip). The foot
        # is the exception: nothing stands lower than the table, so a peak there is a stone
        # on the table whose shade on the paper in front takes its colour (D01-07)
        # (within a tenth of a unit of it: a plateau's peak lands a pixel or two inside)
        edge = max(1, int(round(0.1 * u)))
        peaks[:, :edge] = False
        peaks[:, -edge:] = False
        peaks[:edge, :] = False
        ys, xs = np.nonzero(peaks[near])  # in row-major order, as over the whole array
        ys, xs = ys + near[0].start, xs + near[1].start
        for i in _diverse(np.argsort(-sub[ys, xs]), patches, r0 + ys - h_px // 2,
                          c0 + xs + w_px // 2, per_orientation):
            rr, cc = int(ys[i]), int(xs[i])
            dr = _parabola(sub[rr - 1:rr + 2, cc]) if 0 < rr < sub.shape[0] - 1 else 0.0
            dc = _parabola(sub[rr, cc - 1:cc + 2]) if 0 < cc < sub.shape[1] - 1 else 0.0
            col, row = c0 + cc + dc, r0 + rr + dr
            x_mm, h_mm = view.to_plane(np.float64(col), np.float64(row))
            fr0, fc0 = int(round(row - h_px)), int(round(col))
            face = m[max(fr0, 0):max(fr0 + h_px, 0), max(fc0, 0):max(fc0 + w_px, 0)]
            fill = float(face.sum()) / (w_px * h_px)
            share = 1.0
            if support is not None and h_mm > table_band_mm:
                below = support[r0 + rr:r0 + rr + strip, c0 + cc:c0 + cc + w_px]
                share = float(below.mean()) if below.size else 0.0
            supported = share >= min_support
            out.append(BarFit(colour, orient, float(x_mm), float(h_mm), fill,
                              float(sub[rr, cc]), supported))
    out.sort(key=lambda f: -f.score)
    return out


def _diverse(order: np.ndarray, patches: np.ndarray, rows: np.ndarray, cols: np.ndarray,
             n: int) -> np.ndarray:
    """Up to `n` of the peaks in `order` (indices, best first): the best of each patch of the
    colour that a peak's face centre (rows, cols, px) lies on first, then the rest by score;
    returned best first."""
    h, w = patches.shape
    patch = patches[np.clip(rows, 0, h - 1), np.clip(cols, 0, w - 1)][order]
    _, first = np.unique(patch, return_index=True)   # where in `order` each patch's best is
    firsts = np.sort(first)[:n]
    others = np.ones(len(order), bool)  # (np.setdiff1d sorted all the peaks: 8 ms a call)
    others[firsts] = False
    rest = np.flatnonzero(others)[:n - len(firsts)]
    return order[np.sort(np.concatenate([firsts, rest]))]


def face_slice(view: FrontView, unit_mm: float, orientation: Orientation, x_mm: float, h_mm: float
               ) -> tuple[tuple[slice, slice], int]:
    """The front-view (rows, cols) slices of the front face at lower-left (x_mm, h_mm),
    clipped to the view, and the face's whole area in px."""
    u = unit_mm * view.px_per_mm
    w_px, h_px = (round(5 * u), round(u)) if orientation == "H" else (round(u), round(5 * u))
    col, row = view.to_px(x_mm, h_mm)
    r0, c0 = int(round(float(row))) - h_px, int(round(float(col)))
    return (slice(max(r0, 0), max(r0 + h_px, 0)), slice(max(c0, 0), max(c0 + w_px, 0))), \
        w_px * h_px


def face_fill(mask: np.ndarray, view: FrontView, unit_mm: float, orientation: Orientation,
              x_mm: float, h_mm: float) -> float:
    """Share (0–1) of the front face at lower-left (x_mm, h_mm) that shows the colour of the
    H×W bool front-view `mask`; what lies outside the view counts as not showing it."""
    sl, area = face_slice(view, unit_mm, orientation, x_mm, h_mm)
    return float(np.count_nonzero(mask[sl])) / area


def _parabola(v: np.ndarray) -> float:
    if len(v) != 3:
        return 0.0
    den = v[0] - 2 * v[1] + v[2]
    return float(np.clip(0.5 * (v[0] - v[2]) / den, -0.5, 0.5)) if den < 0 else 0.0

