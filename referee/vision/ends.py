"""Where a bar ends (stage 5, fit): whether a fitted face can slide along its length, and
what tells that it cannot (issue 11: a piece in front, a pale background, a look-alike of
its colour beyond an end).

- `edge_pinned`: a lying bar's top edge stops at its ends;
- `lightness_pinned`: what lies beyond an end is lit otherwise than the even face;
- `length_slack_u`: how far the face slides, losing little of its colour;
- `odd_end`: an end segment unlike the other four (the fit is weak);
- `lit_seam`: light shows between a lying bar and the bar lying on it (the fit is weak);
- `bare_top`: a bar's top face is not there (the fit is weak; a lying bar's only while its
  colour runs on below the fit, `run_below`);
- `snow_like`: a groove-less grey face as light as the snow (the fit is weak);
- `face_below`: a lying bar's face, grooves and all, runs on below its fitted bottom (weak).

Each takes the front view (`rectify.FrontView`) and its H×W masks or lightness.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from referee.vision.colour import hue_deg, point_distance
from referee.vision.fit import BarFit, face_fill, face_slice
from referee.vision.rectify import FrontView


def top_edge_steps(lum: np.ndarray, view: FrontView, unit_mm: float, fit: BarFit,
                   reach_u: float = 0.15, extra_u: float = 3.0) -> tuple[np.ndarray, int]:
    """The lightness step (L units, ≥ 0) across the top edge of a horizontal bar's front
    face, per column, from `extra_u` before its left end to `extra_u` past its right end,
    and the column of the left end in that array.

    A bar's front face ends at the top in an edge along its whole length: its top face, or
    what stands on it, is lit otherwise. A table or paper of the bar's colour, seen beyond
    its end, runs on smoothly there. Each column's step is the largest difference between
    the 2 rows above and the 2 rows below a row within `reach_u` of the face's top.
    """
    u = unit_mm * view.px_per_mm
    col, row = view.to_px(fit.x_mm, fit.h_mm)
    top = float(row) - u
    c0 = int(round(float(col) - extra_u * u))
    c1 = int(round(float(col) + (5 + extra_u) * u))
    a0, a1 = max(c0, 0), min(c1, lum.shape[1])
    steps = np.zeros(max(c1 - c0, 0), np.float32)
    r0, r1 = int(top - reach_u * u), int(top + reach_u * u) + 1
    if a1 <= a0 or r0 - 3 < 0 or r1 + 3 > lum.shape[0]:
        return steps, int(round(float(col))) - c0
    best = np.zeros(a1 - a0, np.float32)
    for r in range(r0, r1 + 1):
        above = lum[r - 3:r - 1, a0:a1].mean(axis=0)
        below = lum[r + 1:r + 3, a0:a1].mean(axis=0)
        best = np.maximum(best, np.abs(above - below))
    steps[a0 - c0:a1 - c0] = best
    return steps, int(round(float(col))) - c0


def edge_pinned(mask: np.ndarray, lum: np.ndarray, view: FrontView, unit_mm: float,
                fit: BarFit, band_mm: tuple[float, float], min_step: float, share: float
                ) -> tuple[bool, bool]:
    """Whether a horizontal bar cannot slide left, right: its face's top edge, which runs
    along the whole of a bar (`top_edge_steps`), stops at that end, strong just inside it and
    gone in the half unit beyond. What lies beyond is then no more of the bar, whatever its
    colour: a patch of the bar's colour (paper in shade), or what a piece lying in front
    would cover (such a piece looks lower in the front view than it is, so it leaves the
    bar's top edge in sight). A fit placed off the bar's end, where the edge stops elsewhere,
    is not pinned. The
    half unit looked at starts past the bar's own side face (`band_mm`, see
    `length_slack_u`).

    min_step: the least median step (L) over the bar's own columns of its colour for the
    edge to count as evidence; share: the step beyond the end, as a share of the bar's own,
    below which it is no bar. A vertical bar is never pinned so (its sides run on along a
    column of snow under it).
    """
    if fit.orientation != "H":
        return False, False
    steps, start = top_edge_steps(lum, view, unit_mm, fit)
    u = unit_mm * view.px_per_mm
    col, row = view.to_px(fit.x_mm, fit.h_mm)
    c0 = int(round(float(col))) - start
    rows = slice(max(int(float(row) - u), 0), max(int(float(row)), 0))
    cols = np.arange(len(steps)) + c0
    ok = (cols >= 0) & (cols < mask.shape[1])
    coloured = np.zeros(len(steps), bool)
    coloured[ok] = mask[rows, cols[ok]].mean(axis=0) > 0.6
    idx = np.arange(len(steps))
    own = (idx >= start) & (idx < start + int(5 * u))
    if np.count_nonzero(own & coloured) < 2 * u:
        return False, False
    own_step = float(np.median(steps[own & coloured]))
    if own_step < min_step:
        return False, False
    half, quarter = int(0.5 * u), max(int(0.25 * u), 1)
    left = start - int(max(0.0, -band_mm[0]) * view.px_per_mm)
    right = start + int(5 * u) + int(max(0.0, band_mm[0]) * view.px_per_mm)
    end = start + int(5 * u)
    out = []
    for (lo, hi), (a, b) in (((left - half, left), (start, start + quarter)),
                             ((right, right + half), (end - quarter, end))):
        lo, hi = max(lo, 0), min(hi, len(steps))
        # the edge stops at the fitted end: strong just inside it, gone just beyond it
        out.append(bool(hi > lo and b > a and
                        float(np.median(steps[a:b])) >= 0.5 * own_step and
                        float(np.median(steps[lo:hi])) < share * own_step))
    return out[0], out[1]


Region = tuple[slice, slice]


def along_regions(shape: tuple[int, ...], view: FrontView, unit_mm: float, fit: BarFit
                  ) -> Callable[[float, float], Region | None] | None:
    """For a fitted bar, a function (a_u, b_u) → the front view's (rows, cols) region from
    a_u to b_u units along its length from its lower-left corner (upward for a standing
    bar, rightward for a lying one) and over the middle half of its face across it, clipped
    to a view of `shape` (None when under 2 px either way); None when the middle half lies
    outside the view."""
    u = unit_mm * view.px_per_mm
    col, row = (float(v) for v in view.to_px(fit.x_mm, fit.h_mm))

    def span(a: float, b: float, size: int) -> slice | None:
        lo, hi = max(int(round(a)), 0), min(int(round(b)), size)
        return slice(lo, hi) if hi - lo >= 2 else None

    standing = fit.orientation == "V"
    # across: the middle columns of a standing bar, the middle rows of a lying one
    mid = span(col + 0.25 * u, col + 0.75 * u, shape[1]) if standing else \
        span(row - 0.75 * u, row - 0.25 * u, shape[0])
    if mid is None:
        return None
    across: slice = mid

    def region(a_u: float, b_u: float) -> Region | None:
        if standing:  # along: rows, upward
            along = span(row - b_u * u, row - a_u * u, shape[0])
            return None if along is None else (along, across)
        along = span(col + a_u * u, col + b_u * u, shape[1])  # columns, rightward
        return None if along is None else (across, along)
    return region


def odd_end(lum: np.ndarray, view: FrontView, unit_mm: float, fit: BarFit, min_step: float,
            k: float) -> bool:
    """Whether the segment at one end of the fitted face is unlike the other four: its
    lightness steps from its neighbour's by at least `min_step` (L) and `k` times the
    largest step between the three middle ones. The bar may then end a unit short, a look-alike of
    its colour filling that unit: NO04-05, a dark grey bar under the blue, its left unit
    behind a snow piece in front, fitted a unit right onto the shadow under the blue's
    overhang (L 28 against its own 12–20, the segments' inner steps at most 7), its
    ends pinned by the snow and the lit table, judged 0.9 u off for certain.

    lum: the front view's lightness, H×W float32 (L, 0–100).
    """
    region = along_regions(lum.shape, view, unit_mm, fit)
    if region is None:
        return False
    parts = [region(j + 0.2, j + 0.8) for j in range(5)]
    if any(r is None for r in parts):
        return False
    segs = np.array([float(np.median(lum[r])) for r in parts if r is not None])
    steps = np.abs(np.diff(segs))
    inner = float(steps[1:3].max())
    return any(s >= min_step and s >= k * inner for s in (steps[0], steps[3]))


def lit_seam(lum: np.ndarray, mask: np.ndarray, view: FrontView, unit_mm: float, fit: BarFit,
             others: list[BarFit], min_l: float, max_fill: float) -> bool:
    """Whether light shows between a lying bar and a lying bar fitted on it: over some
    whole unit where the other lies on the fit (its bottom within 0.35 u of the fit's top),
    the seam between them (0.2 u either side of the fit's top edge), over at least half its
    height (each column's median row, then their median: a gap of light 0.2 u tall, not a
    glint on a bevel), is at least `min_l` (L) lighter than both faces' middles there, and
    shows the fit's colour (`mask`) over less than `max_fill` of it. What shows there is
    then the paper behind, and nothing holds the upper bar up. M03-05 saved again as a JPEG
    (a break-it trial): the grey bar fitted 3 u left, under the purple bar's overhang, on its
    shadow and on a snow piece behind it, the paper lit between them (L 65–70 above both
    faces over two units; on true contacts of our sets at most 13, a lower bar's lit top
    face; 26 where a snow piece lifts the upper bar; a second trial's 1–2 px glint drawn
    along true seams passed the brightest row alone, not half the seam).

    lum: the front view's lightness, H×W float32 (L, 0–100); mask: the fit's colour, H×W
    bool. False for a standing bar, or with no lying bar on it.
    """
    if fit.orientation != "H":
        return False
    u = unit_mm * view.px_per_mm
    col, row = (float(v) for v in view.to_px(fit.x_mm, fit.h_mm))
    top = row - u  # the fit's top edge, in rows
    seam = slice(max(int(top - 0.2 * u), 0), max(int(top + 0.2 * u), 0))
    own = slice(max(int(row - 0.75 * u), 0), max(int(row - 0.25 * u), 0))
    for o in others:
        if o.orientation != "H" or abs(o.h_mm - (fit.h_mm + unit_mm)) > 0.35 * unit_mm:
            continue
        ocol, orow = (float(v) for v in view.to_px(o.x_mm, o.h_mm))
        on = slice(max(int(orow - 0.75 * u), 0), max(int(orow - 0.25 * u), 0))
        for j in range(5):
            c0, c1 = col + (j + 0.2) * u, col + (j + 0.8) * u
            if c0 < ocol or c1 > ocol + 5 * u or c0 < 0 or c1 > lum.shape[1]:
                continue
            cs = slice(int(c0), int(c1))
            band, a, b = lum[seam, cs], lum[own, cs], lum[on, cs]
            if band.size == 0 or a.size == 0 or b.size == 0:
                continue
            lit = float(np.median(np.median(band, axis=0))) - max(float(np.median(a)),
                                                                  float(np.median(b)))
            if lit >= min_l and float(mask[seam, cs].mean()) < max_fill:
                return True
    return False


def snow_like(mask: np.ndarray, lum: np.ndarray, view: FrontView, unit_mm: float, fit: BarFit,
              grey_l: float, snow_l: float, split: float) -> bool:
    """Whether a groove-less fit's face, where it shows its colour, is nearer the snow's
    lightness than its own colour's: its median L lies past `split` of the way from `grey_l`
    (the colour's centre) to `snow_l` (the snow's). Grey and snow differ only in lightness,
    and a stone shows its grooves where a snow pillar shows none: such a fit may be a snow
    pillar in shade (OL01-02, measured unseen: a light grey learned at L 73 from a clipped
    colour photo, a snow pillar tinted by a red-clipped paper at L 90 taken for the grey
    stone, 4 u from where it stood; of 130 groove-less grey fits on 38 render sets and the
    dev scenes, the 4 others past half the way all scored under the sure score).

    mask: the colour's front-view mask, H×W bool; lum: the front view's lightness, H×W
    float32 (L, 0–100). False for a fit with grooves, or with no pixel of its colour.
    """
    if fit.grooves:
        return False
    sl, _ = face_slice(view, unit_mm, fit.orientation, fit.x_mm, fit.h_mm)
    seen = lum[sl][mask[sl]]
    if seen.size == 0:
        return False
    return float(np.median(seen)) > grey_l + split * (snow_l - grey_l)


def face_below(mask: np.ndarray, lum: np.ndarray, view: FrontView, unit_mm: float,
               fit: BarFit, min_run_u: float, share: float, shift_u: float) -> bool:
    """Whether a lying bar's front face runs on below its fitted bottom: its colour goes on
    down for at least `min_run_u` (the median over its middle columns), and the grooves show
    there at least `share` as clearly as on the face (and clearly: above 1), each read where
    it is clearest within `shift_u` u sideways. Then the fit may sit too high, its face taken
    partly from its top face. PP02-05, measured unseen: an orange bar whose foot a snow piece
    standing in front hid, fitted 0.58 u high onto its top face, a correct build judged wrong
    for certain. PR03-05, measured unseen: a grey bar on snow fitted a whole unit high onto
    its top face (L 39 under a low lamp) and the paper's shade above it, its real face below
    it lighter (L 52), its grooves 0.17 u to the side of the top face's (they lie a unit
    further from the camera). So neither the lightness nor the grooves' exact place is asked
    of the face below; the grooves are: a shadow of the bar's colour below it shows none
    (F02-05, NC04-04: a blue and a grey bar on the table above their shade). False for a
    standing bar, or one at the view's edge.

    mask: the colour's front-view mask, H×W bool; lum: its lightness, H×W float32 (L).
    """
    run = run_below(mask, view, unit_mm, fit)
    u = unit_mm * view.px_per_mm
    if run is None or run < min_run_u * u:
        return False
    col, row = (float(v) for v in view.to_px(fit.x_mm, fit.h_mm))
    shifts = np.linspace(-shift_u, shift_u, 2 * int(round(shift_u / 0.05)) + 1) * u
    on_face = max(_groove_strength(lum, col + d, row - 0.7 * u, row - 0.3 * u, u)
                  for d in shifts)
    grooved = max(_groove_strength(lum, col + d, row + 0.05 * u, row + max(run, 0.15 * u), u)
                  for d in shifts)
    return grooved > 1.0 and grooved >= share * on_face


def run_below(mask: np.ndarray, view: FrontView, unit_mm: float, fit: BarFit) -> float | None:
    """How far (px) a lying bar's colour (`mask`, H×W bool) runs on below its fitted bottom:
    the median over its middle columns, up to a unit. None for a standing bar, or one at the
    view's edge."""
    if fit.orientation != "H":
        return None
    u = unit_mm * view.px_per_mm
    col, row = (float(v) for v in view.to_px(fit.x_mm, fit.h_mm))
    c0, c1 = int(round(col + 0.25 * u)), int(round(col + 4.75 * u))
    r0, r1 = int(round(row)) + 1, int(round(row + u))
    if c0 < 0 or c1 > mask.shape[1] or row - 0.7 * u < 0 or r1 > mask.shape[0]:
        return None
    below = mask[r0:r1, c0:c1]
    runs = np.where(below.all(axis=0), below.shape[0], np.argmin(below, axis=0))
    return float(np.median(runs))


def _groove_strength(lum: np.ndarray, col: float, r0: float, r1: float, u: float) -> float:
    """How dark a lying bar's four grooves (columns col + k·u) are in rows [r0, r1): their
    mean darkness under the row band's profile smoothed over a quarter unit, over the
    profile's median darkness (plus 0.5 L), as `grooves.comb_along` reads them."""
    a, b = int(round(r0)), int(round(r1))
    c0, c1 = max(int(round(col - 0.5 * u)), 0), min(int(round(col + 5.5 * u)), lum.shape[1])
    if b <= a or c1 - c0 < 4:
        return 0.0
    prof = lum[a:b, c0:c1].mean(axis=0).astype(np.float32)
    dark = cv2.GaussianBlur(prof.reshape(1, -1), (0, 1), sigmaX=u / 4, sigmaY=0.1).ravel() - prof
    at = np.interp(col - c0 + u * np.arange(1, 5), np.arange(len(dark)), dark)
    return float(at.mean()) / (float(np.median(np.abs(dark))) + 0.5)


def bare_top(mask: np.ndarray, cover: np.ndarray, lab: np.ndarray, view: FrontView,
             unit_mm: float, fit: BarFit, band_mm: tuple[float, float], max_fill: float,
             min_band_u: float, max_hue_off: float, min_chroma: float, max_alike: float,
             lightness_weight: float, max_cover: float = 0.3, lying: bool = False) -> bool:
    """Whether a standing bar's top face, which the camera sees above its front face (the
    band `band_vector_mm` gives for a depth of 1 u at its top), is not there: the band shows
    neither the bar's colour nor its hue, nothing covers it, and it looks like what lies
    beyond it. The top face is then inside the fitted face: a piece in front hides the foot,
    and the template, which neither asks nor forbids colour in the band, slid the face up
    onto the top face (NS03-01: a lavender bar fitted 0.7 u high, standing on the piece in
    front as on snow; the band and what lies above it are the same tan table, 0 apart).

    A top face is lit otherwise than the front, so it may fall outside its colour's class
    (a lamp above makes it pale: D01-04, L 94 over an orange face of L 59) and even its hue
    may turn (a dark blue's top face lit sky blue, 69° off: NU02-03); it still differs from
    what lies behind it. The band shows the bar when more than `max_fill` of it is of the
    colour (`mask`, H×W bool) or of the front face's hue (within `max_hue_off` degrees, at a
    chroma of `min_chroma` or more; `lab`, H×W×3 float32, the front face's hue that of the
    median a and b over its mask), or when its median lies `max_alike` or more
    (`colour.point_distance`, with `lightness_weight`) from the median of as tall a band
    just above it. Covered: `cover` (H×W bool: other stones' colours and snow) over
    `max_cover` of it. False where the band is under `min_band_u` u tall (a camera level
    with the top), or outside the view. The middle 70 % of the band's height and the middle
    of its width are looked at.

    A lying bar is asked only when `lying`, over the columns that `cover` leaves (at least a
    unit of them; there `cover` marks what stands on it, `pipeline._stood_on`, not snow's
    white, which a white wall behind matches). Its top face, five units long and lit from
    above, may look like a pale or dark wall behind it (QI01-06, QB04-04: fitted where they
    stand), so the pipeline asks also that its colour run on below the fit (`run_below`):
    the front face, one face lower (QD04-04 as a phone photo: a lying blue bar whose front
    face a snow piece standing in front broke up, fitted a unit high on its top face, a
    correct build judged wrong for certain).
    """
    if fit.orientation != "V" and not lying:
        return False
    s = view.px_per_mm
    u = unit_mm * s
    bx, bh = band_mm[0] * s, band_mm[1] * s
    if bh < min_band_u * u:
        return False
    col, row = (float(v) for v in view.to_px(fit.x_mm, fit.h_mm))
    long = fit.orientation == "H"
    top = row - (u if long else 5 * u)
    r0, r1 = int(round(top - 0.85 * bh)), int(round(top - 0.15 * bh))
    a0, a1 = int(round(top - 1.85 * bh)), int(round(top - 1.15 * bh))  # beyond the band
    c0 = int(round(col + 0.2 * u + max(0.0, bx)))
    c1 = int(round(col + (4.8 if long else 0.8) * u + min(0.0, bx)))
    if a0 < 0 or r1 - r0 < 2 or c1 - c0 < 2 or c0 < 0 or c1 > mask.shape[1]:
        return False
    if long:  # the columns that nothing standing on the bar covers, a unit of them at least
        cols = np.nonzero(cover[r0:r1, c0:c1].mean(axis=0) < max_cover)[0] + c0
        if len(cols) < u:
            return False
    else:
        if float(cover[r0:r1, c0:c1].mean()) >= max_cover:
            return False
        cols = np.arange(c0, c1)
    (fr, fc), _ = face_slice(view, unit_mm, fit.orientation, fit.x_mm, fit.h_mm)
    own = lab[fr, fc][mask[fr, fc]]
    if not len(own):
        return False

    band = lab[r0:r1][:, cols]
    # the front face's hue: that of its pixels' median a and b (a median of angles breaks
    # where they wrap round)
    ref = float(hue_deg((0.0, float(np.median(own[:, 1])), float(np.median(own[:, 2])))))
    off = np.abs((hue_deg(band) - ref + 180.0) % 360.0 - 180.0)
    alike = (off <= max_hue_off) & (np.hypot(band[..., 1], band[..., 2]) >= min_chroma)
    if float((mask[r0:r1][:, cols] | alike).mean()) > max_fill:
        return False
    beyond = np.median(lab[a0:a1][:, cols].reshape(-1, 3), axis=0)
    return float(point_distance(np.median(band.reshape(-1, 3), axis=0), beyond,
                                lightness_weight)) < max_alike


def lightness_pinned(mask: np.ndarray, lum: np.ndarray, view: FrontView, unit_mm: float,
                     fit: BarFit, min_step: float, spread_k: float, min_fill: float,
                     lying: bool = False) -> tuple[bool, bool]:
    """Whether a bar cannot slide toward either end (down, up for a standing bar; left,
    right for a lying one): its fitted front face is one even surface, and what lies just
    beyond that end is clearly lighter or darker.

    Snow in shade, or a shadow, may take a grey stone's colour, so its colour mask runs on
    past its end; its lightness does not (G03-03: a dark grey bar, L 21, on a snow pillar in
    shade, L 46, both "grey"; NH03-04: a light grey bar lying on the blue, a unit-wide
    shadow of its shade beyond its right end, L 20 darker). The face is the bar's own only
    where its five segments (the middle half of the face across its length, grooves left
    out) have alike median lightness: a face placed partly on something else (a unit off, a
    piece in front) is not even, unless that thing is as light as the bar, and then nothing
    beyond differs either; and each segment shows the bar's colour (`mask`, H×W bool) over
    at least `min_fill` of it (G04-07: a blue bar whose foot a snow piece in front hides,
    fitted 0.6 u high, reached into a green wall as light as the blue). Beyond an end lies
    the bar's end or top face, or what stands on it, or what is behind: lit otherwise than
    the front face. min_step: the least difference (L) between what lies beyond an end and
    the segment at that end or the face as a whole (their medians), and at least `spread_k`
    times the largest difference between neighbouring segments. A horizontal bar is looked at
    only when `lying` (else (False, False): its top edge pins it, `edge_pinned`).

    lum: the front view's lightness, H×W float32 (L, 0–100).
    """
    if fit.orientation == "H" and not lying:
        return False, False
    region = along_regions(lum.shape, view, unit_mm, fit)
    if region is None:
        return False, False
    parts = [region(k + 0.2, k + 0.8) for k in range(5)]
    segs = [float(np.median(lum[r])) for r in parts
            if r is not None and mask[r].mean() >= min_fill]
    if len(segs) < 5:  # a segment outside the view, or without the bar's colour
        return False, False
    # even: no step between neighbouring segments (a light's gradient along the bar is
    # allowed, so an end is told from the segment beside it too: NC04-04, a lying bar L 48
    # at one end and 41 at the other, shade of L 25–28 beyond both ends)
    need = max(min_step, spread_k * float(np.abs(np.diff(segs)).max()))
    face = float(np.median(segs))

    def differs(r: tuple[slice, slice] | None, end: float) -> bool:
        if r is None:
            return False
        beyond = float(np.median(lum[r]))
        return max(abs(beyond - end), abs(beyond - face)) >= need

    return differs(region(-0.85, -0.15), segs[0]), differs(region(5.15, 5.85), segs[-1])


def length_slack_u(mask: np.ndarray, view: FrontView, unit_mm: float, fit: BarFit,
                   band_mm: tuple[float, float], tolerance: float,
                   steps_u: tuple[float, ...] = (0.5, 1.0, 1.5, 2.0, 2.5),
                   floor_mm: float | None = None,
                   pinned: tuple[bool, bool] = (False, False)) -> float:
    """How far (u) the fitted face can slide along its length, either way, losing less
    than `tolerance` (a share, 0–1) of the colour that a bar seen whole would lose: 0 when
    both ends are pinned.

    A bar seen whole loses a tenth of its fill per half unit of slide; one whose end is
    hidden (a piece in front, a pale background behind) loses nothing until the slide
    uncovers its visible part. The bar's own top or side face (`band_mm`, see
    `band_vector_mm`) shows its colour beyond the front face, so a slide toward it is free
    for that far. floor_mm: the lowest front-view height (mm) a face can have, a stone on
    the table as far in front of the line as allowed; a standing bar cannot slide below it
    (what shows there is the table in front, its shadow say, not more of the bar).
    """
    own = face_fill(mask, view, unit_mm, fit.orientation, fit.x_mm, fit.h_mm)
    axis = 0 if fit.orientation == "H" else 1
    slack = 0.0
    for sign, stop in zip((-1.0, 1.0), pinned, strict=True):
        if stop:  # what lies beyond that end is no more of the bar (`edge_pinned`)
            continue
        free_u = max(0.0, sign * band_mm[axis]) / unit_mm  # the band on this side
        for d in steps_u:
            if d <= free_u:
                continue
            dx, dh = (sign * d * unit_mm, 0.0) if axis == 0 else (0.0, sign * d * unit_mm)
            if floor_mm is not None and fit.h_mm + dh < floor_mm:
                break
            lost = own - face_fill(mask, view, unit_mm, fit.orientation, fit.x_mm + dx,
                                   fit.h_mm + dh)
            # a pinned bar, seen whole, loses (d − free) / 5 of its face
            if lost >= tolerance * own * (d - free_u) / 5.0:
                break
            slack = max(slack, d - free_u)
    return slack
