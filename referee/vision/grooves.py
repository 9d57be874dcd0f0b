"""Sub-unit precision from the stones' grooves (WORLD.md §1: grooves mark the four inner
segment borders).

A colour mask places a bar to within a few mm: bevels, shade and shadows blur its edges. The
grooves are sharp dark lines exactly 1 u apart, so the phase of the four grooves along a bar
pins its position along its length: z for a vertical bar, x for a horizontal one. Across its
length a horizontal bar is pinned by the edge between its front and top faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from referee.vision.fit import BarFit
from referee.vision.rectify import FrontView


def _profile(lum: np.ndarray, rows: slice, cols: slice, axis: int) -> np.ndarray:
    patch = lum[rows, cols]
    return patch.mean(axis=axis) if patch.size else np.zeros(0, np.float32)


def _groove_phase(profile: np.ndarray, start: float, step: float, reach: float,
                  notch: float = 0.0, notch_blur: float = 1.5) -> float | None:
    """Shift (px, within ±reach) that puts the 4 positions start + k·step (k=1..4) on the
    profile's grooves; None when no clear groove pattern shows.

    The grooves are found by their dark lines, at steps of a quarter pixel. A groove wider
    than a pixel or two is about equally dark across its width, and the first of those
    equal shifts is its one edge (Q01-04: a lying bar placed 2 mm to the left, into the
    stone beside it); a lamp from the side lights one bevel of a groove and shades the
    other. Within ±`notch` px of that first phase, the shift is therefore set where the
    profile departs most from its smoothed self, dark or lit, blurred over `notch_blur`
    px: the middle of a groove, or between its shaded and lit bevels. notch 0 keeps the
    first darkest phase."""
    if len(profile) < 8:
        return None
    smooth = cv2.GaussianBlur(profile.reshape(-1, 1).astype(np.float32), (1, 0), sigmaX=0,
                              sigmaY=step / 4).ravel()
    dark = smooth - profile  # grooves stand out as positive peaks
    xs = np.arange(len(dark), dtype=np.float64)
    shifts = np.arange(-reach, reach + 0.01, 0.25)
    # every shift at once (a hot spot: a Python loop of np.interp calls before)
    pos = start + shifts[:, None] + step * np.arange(1, 5)[None, :]
    inside = (pos.min(axis=1) >= 0) & (pos.max(axis=1) <= len(dark) - 1)
    score = np.where(inside, np.interp(pos, xs, dark).sum(axis=1), -np.inf)
    best = int(np.argmax(score))
    if not np.isfinite(score[best]):
        return None
    contrast = score[best] / 4.0
    noise = float(np.median(np.abs(dark))) + 1e-6
    if contrast < 2.5 * noise:
        return None
    if notch <= 0:
        return float(shifts[best])
    near = np.abs(shifts - shifts[best]) <= notch
    depart = cv2.GaussianBlur(np.abs(dark).reshape(-1, 1), (1, 0), sigmaX=0,
                              sigmaY=notch_blur).ravel()
    centred = np.where(inside[near], np.interp(pos[near], xs, depart).sum(axis=1), -np.inf)
    return float(shifts[near][int(np.argmax(centred))])


def unit_scale(fits: Sequence[BarFit], lum: np.ndarray, view: FrontView, unit_mm: float,
               spread: float, step: float, min_fits: int, agree: float, max_off: float
               ) -> float | None:
    """How much larger (> 1) or smaller the stones' grooves stand apart than the station's
    unit says, when enough of them agree that it is off: None when it is not, or cannot be
    told (0 < `spread`: the check is on).

    The grooves of the grooved, held-up fits (`groove_scale` within ±`spread` in `step`s; a
    scale at the edge of the search is an alias, left out): at least `min_fits` of them
    within ±`agree` of their median, and that median off 1 by more than `max_off`. A unit
    typed 10 % off can judge a build wrong with confidence (the eighteenth session: 18 mm
    for 20 gave 2 of 6); measured on 234 photos of 8 sets with the right unit, the medians of
    the 166 that show 3 such stones lie within 0.96–1.027; 18 mm for 20 reads 1.10–1.12 at
    each of NF01's 6 photos, 17 mm for 16 reads 0.915–0.95.

    lum: the front view's lightness, H×W float32 (L, 0–100).
    """
    if spread <= 0:
        return None
    ks = []
    for f in fits:
        if not (f.grooves and f.supported):
            continue
        k = groove_scale(f, lum, view, unit_mm, spread, step)
        if k is not None and abs(k - 1.0) < spread - step / 2:
            ks.append(k)
    if len(ks) < min_fits:
        return None
    m = float(np.median(ks))
    if sum(abs(k - m) <= agree for k in ks) < min_fits or abs(m - 1.0) <= max_off:
        return None
    return m


def groove_scale(fit: BarFit, lum: np.ndarray, view: FrontView, unit_mm: float,
                 spread: float = 0.06, step: float = 0.005, reach_u: float = 0.45
                 ) -> float | None:
    """How much larger (> 1) or smaller than 1 u the grooves of a bar stand apart in the
    front view: the bar's apparent scale, or None when no clear groove pattern shows.

    A structure nearer the camera than the build line looks larger in the front view (the
    plane of the line), one behind it smaller (about ±1–4 % for ±10 mm at 0.4–0.9 m), which
    tells apart the depths that stand its stones at whole units alike (`depth`). Scales within
    ±`spread` in steps of `step` are tried, each with its own phase within ±`reach_u` u.
    """
    s = view.px_per_mm
    u = unit_mm * s
    col, row = view.to_px(fit.x_mm, fit.h_mm)
    col, row = float(col), float(row)
    reach = reach_u * u
    far = (1 + spread) * 5 * u + reach + 2
    if fit.orientation == "V":
        c0, c1 = int(col + 0.3 * u), int(col + 0.7 * u)
        top = int(max(row - far, 0))
        prof = _profile(lum, slice(top, int(row + reach + 2)), slice(c0, c1), axis=1)[::-1]
        start = (len(prof) - 1) - (row - top)
    else:
        r0, r1 = int(row - 0.7 * u), int(row - 0.3 * u)
        left = int(max(col - reach - 2, 0))
        prof = _profile(lum, slice(r0, r1), slice(left, int(col + far)), axis=0)
        start = col - left
    if len(prof) < 8:
        return None
    smooth = cv2.GaussianBlur(prof.reshape(-1, 1).astype(np.float32), (1, 0), sigmaX=0,
                              sigmaY=u / 4).ravel()
    dark = smooth - prof  # grooves stand out as positive peaks, as in `_groove_phase`
    xs = np.arange(len(dark), dtype=np.float64)
    scales = np.arange(1 - spread, 1 + spread + step / 2, step)
    shifts = np.arange(-reach, reach + 0.01, 0.25)
    # positions (scale, shift, groove k = 1..4), all scored at once
    pos = start + shifts[None, :, None] + (u * scales)[:, None, None] * np.arange(1, 5)
    inside = (pos.min(axis=2) >= 0) & (pos.max(axis=2) <= len(dark) - 1)
    score = np.where(inside, np.interp(pos, xs, dark).sum(axis=2), -np.inf)
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    noise = float(np.median(np.abs(dark))) + 1e-6
    if not np.isfinite(score[i, j]) or score[i, j] / 4.0 < 2.5 * noise:
        return None
    return float(scales[i])


def _front_top_edge(lum: np.ndarray, col: float, row: float, u: float, reach: float,
                    mask: np.ndarray | None = None) -> float | None:
    """Row of an H bar's bottom edge from the lightness step between its front and top faces
    (1 u above the bottom), searched within ±reach of the mask's estimate.

    mask: the bar's colour (H×W bool). That step has the bar's colour on both sides, its
    top face above; a step with no colour above it is the top of the colour, which is the
    far edge of a top face as lit as the front (E03-01: 0.28 u too high), or the front
    face's own top where something covers it, and the template placed that already: None.
    """
    c0, c1 = int(col + 0.5 * u), int(col + 4.5 * u)
    top = int(max(row - u - reach - 2, 0))
    prof = _profile(lum, slice(top, int(row - u + reach + 3)), slice(c0, c1), axis=1)
    if len(prof) < 5:
        return None
    smooth = cv2.GaussianBlur(prof.reshape(-1, 1).astype(np.float32), (1, 0), sigmaX=0,
                              sigmaY=1.0).ravel()
    grad = np.abs(np.diff(smooth))
    k = int(np.argmax(grad))
    if grad[k] < 1.5 or grad[k] < 3.0 * float(np.median(grad)):
        return None
    new_row = top + k + 1.0 + u
    if mask is not None and new_row < row - 1.0:
        edge = int(round(new_row - u))
        above = mask[max(edge - 3, 0):max(edge - 1, 0), c0:c1]
        if above.size == 0 or float(above.mean()) < 0.5:
            return None
    return new_row if abs(new_row - row) <= reach else None


def refine(fit: BarFit, lum: np.ndarray, view: FrontView, unit_mm: float,
           reach_u: float = 0.45, edge_reach_u: float = 0.2,
           mask: np.ndarray | None = None, notch_u: float = 0.125,
           notch_blur_mm: float = 0.75) -> BarFit:
    """The fit moved onto its grooves (and, for H bars, its front/top edge) where they show.

    lum: the front view's lightness, view.height × view.width float32. Where an H bar's
    front/top edge does not show, its bottom edge in the colour mask places it. notch_u,
    notch_blur_mm: the grooves' phase is then centred on them within ±notch_u u
    (`_groove_phase`).
    """
    s = view.px_per_mm
    u = unit_mm * s
    col, row = view.to_px(fit.x_mm, fit.h_mm)
    col, row = float(col), float(row)
    reach = reach_u * u
    notch = {"notch": notch_u * u, "notch_blur": notch_blur_mm * s}
    if fit.orientation == "V":
        c0, c1 = int(col + 0.3 * u), int(col + 0.7 * u)
        top = int(max(row - 5 * u - reach - 2, 0))
        prof = _profile(lum, slice(top, int(row + reach + 2)), slice(c0, c1), axis=1)
        # grooves above the bottom edge at rows row - k·u → in profile coords, going up;
        # flip so that k counts forward
        flipped = prof[::-1]
        start = (len(prof) - 1) - (row - top)
        sh = _groove_phase(flipped, start, u, reach, **notch)
        if sh is not None:
            row = row - sh
        _, h_mm = view.to_plane(np.float64(col), np.float64(row))
        return replace(fit, h_mm=float(h_mm), grooves=sh is not None)
    # H: grooves along x
    r0, r1 = int(row - 0.7 * u), int(row - 0.3 * u)
    left = int(max(col - reach - 2, 0))
    prof = _profile(lum, slice(r0, r1), slice(left, int(col + 5 * u + reach + 2)), axis=0)
    sh = _groove_phase(prof, col - left, u, reach, **notch)
    if sh is not None:
        col = col + sh
    edge = _front_top_edge(lum, col, row, u, edge_reach_u * u, mask)
    x_mm, h_mm = view.to_plane(np.float64(col), np.float64(row if edge is None else edge))
    return replace(fit, x_mm=float(x_mm), h_mm=float(h_mm), grooves=sh is not None,
                   edge=edge is not None)


def anchor_top(fit: BarFit, mask: np.ndarray, lum: np.ndarray, others: np.ndarray,
               view: FrontView, unit_mm: float, band_mm: tuple[float, float],
               neutral: np.ndarray | None = None, beside: np.ndarray | None = None,
               stone_only: bool = False) -> BarFit | None:
    """A vertical bar placed from its top end, when its lower end is hidden or lost.

    A piece lying in front of the build hides a standing bar from the bottom up, and a pale
    stone's lowest segment may blend into what is under it; its top end stays in view. The
    top end is real where the edge between its front and top faces shows (a lightness step
    `band_mm[1]` below the top of its colour), or where another stone sits right on it
    (`others`: H×W bool, the other stones' colours), or a snow piece (`neutral` right above
    the colour): then the top face is covered and the front face ends at the strongest step
    near the top of the colour. Returns the fit with its front face
    hanging 5 u from that top, or None when the top end cannot be told. A lightness step
    is no top end where the bar's sides run on above it in a colour (`_sides_run_on`): a lamp
    lighting the top segment otherwise than the rest makes such a step within the bar.
    Above a white snow piece sitting on the bar (`neutral`: H×W bool, pixels without hue)
    the sides run on too, and the step is the end. beside: H×W bool, the faces of the stones
    measured already; a side along which one of them rises higher tells nothing of the bar.
    stone_only: the top end counts only where another stone sits on it (a grey bar: snow in
    shade takes its colour, so a step or snow above the colour may lie above snow on it).
    """
    s = view.px_per_mm
    u = unit_mm * s
    col, row = (float(v) for v in view.to_px(fit.x_mm, fit.h_mm))
    c0, c1 = int(round(col + 0.25 * u)), int(round(col + 0.75 * u))
    if c1 <= c0 or c0 < 0 or c1 > mask.shape[1]:
        return None
    frac = mask[:, c0:c1].mean(axis=1)
    r = int(round(row - 2.5 * u))  # the face's middle
    if not 0 <= r < len(frac) or frac[r] < 0.5:
        return None
    gap = max(2, int(round(0.3 * u)))  # a groove may break the colour for a few rows
    while r > 0:
        nxt = [k for k in range(max(r - gap, 0), r) if frac[k] >= 0.5]
        if not nxt:
            break
        r = min(nxt)
    run_top = float(r)
    band = max(band_mm[1] * s, 0.0)
    top = None
    reach = int(round(max(0.5 * u, band)))  # a stone on it, past a bevel's thin shadow
    above = others[max(int(run_top) - reach, 0):int(run_top), c0:c1]
    snow_on = neutral[max(int(run_top) - reach, 0):int(run_top), c0:c1] \
        if neutral is not None else np.zeros((0, 0), bool)
    w = max(2, int(round(min(band, 0.4 * u) * 0.6)))
    prof = _profile(lum, slice(0, lum.shape[0]), slice(c0, c1), axis=1)

    def strongest_step(lo: float, hi: float) -> tuple[float, int | None]:
        best, where = 0.0, None
        for k in range(int(lo), int(hi) + 1):
            if k - w < 0 or k + w > len(prof):
                continue
            step = abs(float(prof[k - w:k].mean()) - float(prof[k:k + w].mean()))
            if step > best:
                best, where = step, k
        return best, where

    if above.size and float(above.mean()) >= 0.3:
        top = run_top  # a stone sits on it: its top face is covered
    elif stone_only:
        return None
    elif snow_on.size and float(snow_on.mean()) >= 0.5:
        # so does a snow piece: the front face ends where the snow starts, at the top of
        # the colour or (snow tinted at its foot) a little below it; never as far down as a
        # segment (G04-01: a step a unit down was a lamp-lit top segment's edge)
        best, where = strongest_step(run_top - 0.3 * band, run_top + min(1.3 * band, 0.6 * u))
        if where is not None and best >= 4.0:
            top = float(where)
    elif band >= 2:
        # a step in lightness between the top face (above) and the front face (below); a
        # groove is a thin dark line with the same lightness on both sides, never a step
        best, where = strongest_step(run_top + 0.7 * band, run_top + 1.3 * band)
        if where is not None and best >= 4.0:
            over = slice(max(int(where - band - 0.6 * u), 0), max(int(where - band), 0))
            # snow on the bar, not a pale top segment of the bar itself (a segment lit by
            # a lamp may have hardly any hue, but it is of the colour)
            snow = neutral is not None and neutral[over, c0:c1].size > 0 and \
                float(neutral[over, c0:c1].mean()) >= 0.5 and \
                float(mask[over, c0:c1].mean()) < 0.5
            if snow or not _sides_run_on(lum, col, where - band, u, others=beside):
                top = float(where)
    if top is None:
        return None
    _, h_mm = view.to_plane(np.float64(col), np.float64(top + 5 * u))
    return replace(fit, h_mm=float(h_mm))


def _side_steps(lum: np.ndarray, col: float, rows: range, u: float, reach_u: float = 0.15,
                sides: tuple[bool, bool] = (True, True)) -> np.ndarray:
    """Per row, the larger lightness step across a standing bar's left or right side (the
    columns `col` and `col + u`, each within ±`reach_u` u, the `sides` (left, right)
    asked for): 2 columns out against 2 in."""
    out = np.zeros(len(rows), np.float32)
    r0, r1 = max(rows.start, 0), min(rows.stop, lum.shape[0])
    if r1 <= r0:
        return out
    reach = int(round(reach_u * u))
    for side in (x for x, asked in zip((col, col + u), sides, strict=True) if asked):
        for c in range(int(round(side)) - reach, int(round(side)) + reach + 1):
            if c - 3 < 0 or c + 3 > lum.shape[1]:
                continue
            step = np.abs(lum[r0:r1, c - 3:c - 1].mean(axis=1) -
                          lum[r0:r1, c + 1:c + 3].mean(axis=1))
            part = slice(r0 - rows.start, r1 - rows.start)
            out[part] = np.maximum(out[part], step)
    return out


def _sides_run_on(lum: np.ndarray, col: float, top: float, u: float,
                  min_step: float = 6.0, share: float = 0.5,
                  others: np.ndarray | None = None) -> bool:
    """Whether a standing bar's sides run on above `top` (the row where its top face ends):
    a bar's sides show an edge along its whole height, so where the edge goes on above a
    top end found by a lightness step, that step was within the bar (a lamp lighting its
    top segment otherwise than the rest, X04-03), not its end. No evidence (sides with no
    edge of their own) is no. A side beside which another stone (`others`: H×W bool, the
    faces of stones measured already) rises above `top` is no evidence either: the edge
    there is that stone's (N8 G04-05: an orange bar standing against a grey one that
    reaches higher)."""
    above_rows = range(int(top - 0.6 * u), int(top - 0.1 * u))
    sides = (True, True)
    if others is not None:
        r0, r1 = max(above_rows.start, 0), max(above_rows.stop, 0)
        near = [others[r0:r1, max(int(round(a)), 0):max(int(round(b)), 0)]
                for a, b in ((col - 0.4 * u, col - 0.1 * u),
                             (col + 1.1 * u, col + 1.4 * u))]
        sides = (not (near[0].size and float(near[0].mean()) >= 0.5),
                 not (near[1].size and float(near[1].mean()) >= 0.5))
        if not any(sides):
            return False
    below = _side_steps(lum, col, range(int(top + 0.5 * u), int(top + 2.5 * u)), u,
                        sides=sides)
    above = _side_steps(lum, col, above_rows, u, sides=sides)
    if not below.size or not above.size:
        return False
    own = float(np.median(below))
    return own >= min_step and float(np.median(above)) >= share * own


def comb_along(lum: np.ndarray, view: FrontView, unit_mm: float, orientation: str,
               hs_mm: np.ndarray, x0_mm: float, x1_mm: float, step_mm: float = 0.5
               ) -> tuple[np.ndarray, np.ndarray]:
    """How clearly a bar's four grooves show, and only on its face, for a bar of
    `orientation` whose front face's bottom is at each of `hs_mm` (H,), at each lower-left x
    from `x0_mm` to `x1_mm` (every `step_mm`, N places).

    Strength: the grooves' mean darkness (L under the profile smoothed over a quarter unit,
    as `_groove_phase` reads it) over the profile's median darkness (plus 0.5 L), on the
    face, less the same beside it (1.3 u to each side for a standing bar, 1.3 u above and
    below for a lying one: a grooved bar's lines end with it, a table's grain or a wall's
    pattern runs on). Returns (xs mm (N,), strengths (H, N)), float64; 0 where the face or
    what is beside it leaves the view.
    """
    s = view.px_per_mm
    u = unit_mm * s
    hs = np.atleast_1d(np.asarray(hs_mm, np.float64))
    xs = np.arange(x0_mm, x1_mm + step_mm / 2, step_mm)
    out = np.zeros((len(hs), len(xs)))
    cols = np.asarray(view.to_px(xs, 0.0)[0], np.float64)
    rows_at = np.asarray(view.to_px(0.0, hs)[1], np.float64).reshape(-1)
    h, w = lum.shape
    # every height at once (a hot spot of `choose.resting`, which asks hundreds of heights):
    # the same arithmetic, in the same dtypes, as one height at a time
    if orientation == "V":  # grooves across the bar at rows row − k·u, in its middle columns
        top, bottom = int(rows_at.min() - 5 * u - 2), int(rows_at.max() + 2)
        c0, c1 = int(max(cols.min() - 1.8 * u, 0)), int(min(cols.max() + 2.8 * u, w))
        if top < 0 or bottom > h or c1 <= c0:
            return xs, out
        band = lum[top:bottom, c0:c1].astype(np.float32)
        dark = cv2.GaussianBlur(band, (1, 0), sigmaX=0.1, sigmaY=u / 4) - band
        noise = np.median(np.abs(dark), axis=0) + 0.5
        idx = np.round(rows_at[:, None] - u * np.arange(1, 5)[None, :] - top).astype(int)
        per_col = dark[idx].mean(axis=1) / noise                    # heights × columns
        cum = np.concatenate([np.zeros((len(rows_at), 1), per_col.dtype),
                              np.cumsum(per_col, axis=1)], axis=1)

        def window(a_u: float, b_u: float) -> np.ndarray:
            a = np.round(cols + a_u * u).astype(int) - c0
            b = np.round(cols + b_u * u).astype(int) - c0
            ok = (a >= 0) & (b < cum.shape[1]) & (b > a)
            v = np.full((len(rows_at), len(cols)), np.nan)
            v[:, ok] = (cum[:, b[ok]] - cum[:, a[ok]]) / (b[ok] - a[ok])
            return v

        inside = window(0.3, 0.7)
        beside = np.fmax(window(-1.7, -1.3), window(2.3, 2.7))
        return xs, _less(inside, beside)
    # grooves along the bar at columns col + k·u, read on row bands of its face (inside)
    # and 1.3 u above and below it (beside)
    pos = cols[:, None] + u * np.arange(1, 5)[None, :]
    ok = (cols >= 0) & (cols + 5 * u < w)
    seen = [i for i, row in enumerate(rows_at) if row - 2.7 * u >= 0 and row + 1.7 * u <= h]
    if not seen:
        return xs, out
    prof = np.asarray([lum[int(round(r0)):int(round(r1))].mean(axis=0)
                       for row in rows_at[seen]
                       for r0, r1 in ((row - 0.7 * u, row - 0.3 * u),
                                      (row - 2.7 * u, row - 2.3 * u),
                                      (row + 1.3 * u, row + 1.7 * u))], np.float32)
    dark = cv2.GaussianBlur(prof, (0, 1), sigmaX=u / 4, sigmaY=0.1) - prof   # per row band
    noise = np.median(np.abs(dark), axis=1).astype(np.float64) + 0.5
    at = _interp_columns(dark.astype(np.float64), pos)              # bands × N × 4
    comb = (at.mean(axis=2) / noise[:, None]).reshape(len(seen), 3, -1)
    inside = np.where(ok, comb[:, 0], np.nan)
    out[seen] = _less(inside, np.fmax(comb[:, 1], comb[:, 2]))
    return xs, out


def _interp_columns(rows: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """`np.interp(pos, arange(W), row)` for each of the R rows of `rows` (R×W float64) at
    once: R × pos.shape, the same values (held at the first and last column outside)."""
    w = rows.shape[1]
    j = np.clip(np.floor(pos).astype(int), 0, w - 2)
    lo, hi = rows[:, j], rows[:, j + 1]
    v = (hi - lo) * (pos - j) + lo
    return np.where((pos >= 0) & (pos < w - 1), v,
                    np.where(pos < 0, rows[:, :1, None], rows[:, -1:, None]))


def _less(inside: np.ndarray, beside: np.ndarray) -> np.ndarray:
    """inside − max(beside, 0), at least 0, and 0 where inside is unknown."""
    v = inside - np.where(np.isfinite(beside), np.maximum(beside, 0.0), 0.0)
    return np.where(np.isfinite(v), np.maximum(v, 0.0), 0.0)
