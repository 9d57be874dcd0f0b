"""Stage 5 (fit) after the templates: each colour's stone among its candidates, held up, and
pinned along its length (issue 11: a measured build must be able to stand; a piece in front).

- `choose`: the best candidate that is supported and full enough, grooves counting for it;
- `ground`: a stone neither grounded (a chain of snow or stones down to the table) nor
  touching another is chosen again under that constraint, else marked unsupported;
- `pin`: how far a bar can slide along its length (`ends.length_slack_u`); a coloured
  standing bar whose foot is hidden is placed from its top end (`grooves.anchor_top`);
- `unheld_parts`: a part of a coloured stone that nothing holds up is not the stone.

refit.py builds on these: a stone fitted again with the pixels another class took;
lookalike.py too: whether a stone not found may be there in another look.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import cv2
import numpy as np

from referee.build import Orientation, rect_gap_u
from referee.vision.ends import edge_pinned, length_slack_u, lightness_pinned
from referee.vision.fit import BarFit, face_fill, face_slice
from referee.vision.grooves import anchor_top, comb_along, refine
from referee.vision.rectify import FrontView
from referee.vision.settings import VisionSettings


def template_settings(s: VisionSettings) -> dict[str, Any]:
    """The bar template's settings, as `fit.bar_candidates` takes them."""
    f = s.fit
    return {"min_support": f.min_support, "per_orientation": f.per_orientation,
            "strip_mm": f.strip_mm, "min_peak": f.min_peak}


def pin(f: BarFit, masks: dict[str, np.ndarray], lum: np.ndarray, view: FrontView,
        unit: float, band: tuple[float, float], chromatic: str, s: VisionSettings,
        floor_mm: float | None = None, neutral: np.ndarray | None = None) -> BarFit:
    """The fit with its slack along its length (`length_slack_u`), none past an end that
    is pinned: a bar's by the lightness beyond it (`lightness_pinned`; a lying bar's only
    with `fit.light_lying`), a lying bar's also by its top edge (`edge_pinned`); a
    vertical bar that can slide is placed from its top end where that end shows
    (`from_top`); a grey one only where a coloured stone sits on it: snow in shade takes its
    colour, so the top of its colour may be snow.

    masks: per colour letter, the front view's H×W bool mask; lum: its lightness, H×W
    float32; unit: u in mm; band: `fit.band_vector_mm`; chromatic: the letters with a hue;
    floor_mm: the lowest front-view height a face can have (`length_slack_u`); neutral:
    H×W bool, the pixels without hue (snow, paper), for `grooves.anchor_top`.
    """
    mask = masks[f.colour]
    pinned = lightness_pinned(mask, lum, view, unit, f, s.fit.light_min_step,
                              s.fit.light_spread_k, s.fit.light_min_fill, s.fit.light_lying)
    if f.orientation == "H":
        edge = edge_pinned(mask, lum, view, unit, f, band, s.fit.edge_min_step,
                           s.fit.edge_share)
        pinned = (pinned[0] or edge[0], pinned[1] or edge[1])
    f = replace(f, slack_u=length_slack_u(mask, view, unit, f, band, s.fit.slack_fill_tolerance,
                                          floor_mm=floor_mm, pinned=pinned))
    return from_top(f, masks, lum, view, unit, band, chromatic, s, neutral) or f


def from_top(f: BarFit, masks: dict[str, np.ndarray], lum: np.ndarray, view: FrontView,
             unit: float, band: tuple[float, float], chromatic: str, s: VisionSettings,
             neutral: np.ndarray | None = None, beside: Sequence[BarFit] = ()
             ) -> BarFit | None:
    """A vertical bar that slides along its length (its `slack_u`, from `pin`, at least
    `max_slack_u`) placed from its top end where that end shows (`grooves.anchor_top`; a
    grey bar's only where a coloured stone sits on it, `fit.anchor_grey`), within its slack
    and never under the table; None otherwise.
    beside: the other stones measured already (pinned), whose faces tell their edges from
    its sides' (asked again once they are pinned). Arguments as for `pin`."""
    grey = f.colour not in chromatic
    if not (f.slack_u >= s.fit.max_slack_u and f.orientation == "V" and s.fit.anchor_top and
            (not grey or s.fit.anchor_grey)):
        return None
    mask = masks[f.colour]
    # a grey bar's top end only where a coloured stone sits on it, and only where its grooves
    # show: snow in shade takes the grey's colour, a coloured stone never does, and a shaded
    # snow pillar under a stone has no grooves (OU04-05: the blue on a grey whose foot a snow
    # piece in front hides, fitted a unit up into the blue; PE04-06: a 6 u pillar in shade)
    a = _top_end(f, masks, lum, view, unit, band, chromatic, neutral, beside)
    # the top end can only move the bar within its slack, and never under the table
    if a is None or abs(a.h_mm - f.h_mm) > (f.slack_u + 0.5) * unit or \
            a.h_mm < -s.build.depth_doubt_mm - s.fit.table_band_mm:
        return None
    a = _refined(a, lum, view, unit, s, mask)
    if grey and not a.grooves:
        return None
    return replace(a, slack_u=0.0, anchored=True)


def _top_end(f: BarFit, masks: dict[str, np.ndarray], lum: np.ndarray, view: FrontView,
             unit: float, band: tuple[float, float], chromatic: str,
             neutral: np.ndarray | None, beside: Sequence[BarFit]) -> BarFit | None:
    """`grooves.anchor_top` for a standing bar among the other stones: a grey bar's top end
    only where a coloured stone sits on it; `beside`'s faces tell their edges from its
    sides'. None where its top end cannot be told."""
    grey = f.colour not in chromatic
    mask = masks[f.colour]
    faces = None
    if beside:
        faces = np.zeros(mask.shape, bool)
        for o in beside:
            faces[face_slice(view, unit, o.orientation, o.x_mm, o.h_mm)[0]] = True
    others = other_stones({c: m for c, m in masks.items() if c in chromatic or c == f.colour}
                          if grey else masks, f.colour)
    return anchor_top(f, mask, lum, others, view, unit, band, neutral, faces, stone_only=grey)


def _held_above(f: BarFit, others: Sequence[BarFit], unit: float, min_fill: float,
                reach_u: float = 0.25) -> bool:
    """Whether one of `others`, a stone (held up, its face showing `min_fill` of its colour
    or more), lies over the standing bar `f`'s column (half a unit of it or more) with its
    bottom 1 to 3 whole units (within `reach_u`) above `f`'s top: held up by snow on `f`,
    which then is no white thing far behind."""
    top = f.h_mm + 5 * unit
    for g in others:
        if not g.supported or g.fill < min_fill:
            continue
        k = (g.h_mm - top) / unit
        w = 5 * unit if g.orientation == "H" else unit
        if (1 - reach_u <= k <= 3 + reach_u and abs(k - round(k)) <= reach_u
                and min(g.x_mm + w, f.x_mm + unit) - max(g.x_mm, f.x_mm) >= 0.5 * unit):
            return True
    return False


def behind_piece(f: BarFit, masks: dict[str, np.ndarray], lum: np.ndarray, view: FrontView,
                 unit: float, band: tuple[float, float], chromatic: str, agree_u: float,
                 beside: Sequence[BarFit] = (), neutral: np.ndarray | None = None,
                 min_fill: float = 0.5) -> BarFit:
    """A fit whose foot a piece lying in front may hide (`infront.foot_hidden`), measured
    from what shows (the issue on unseen tables, item 5). A standing bar whose top end shows
    (`grooves.anchor_top`: the edge between its top and front faces, or a stone on it) is
    kept as fitted where its top end agrees within `agree_u` units, and placed from its top
    end where that puts it lower, its foot behind the piece (`behind`: weak); otherwise its
    lower end is not seen (`foot_hidden`: `stone:hidden`). Snow above a bar is not asked for
    its top end here: a white thing far behind looks the same (QD01-05: a white patch behind
    the blue bar's top, taken for snow on it, put its top end 0.9 u high, as the piece's top
    put its foot), unless a stone of `beside` rests on that snow, a whole number of units
    above the top end (`_held_above`; QN01-02, measured unseen: a purple bar on snow, a snow
    cube on its top holding the blue bar up, its top end not told without the snow, was
    `stone:hidden`; min_fill: how much of its colour that stone's face shows at least). A
    grey bar's top end counts only where a coloured stone sits on it (`from_top`). Arguments
    as for `from_top`; neutral: H×W bool, the pixels without hue."""
    if f.orientation == "V":
        a = _top_end(f, masks, lum, view, unit, band, chromatic, None, beside)
        if a is None and neutral is not None:
            b = _top_end(f, masks, lum, view, unit, band, chromatic, neutral, beside)
            if b is not None and _held_above(b, beside, unit, min_fill):
                a = b
        if a is not None:
            if abs(a.h_mm - f.h_mm) <= agree_u * unit:
                return f
            if a.h_mm < f.h_mm:
                return replace(a, slack_u=0.0, anchored=True, behind=True)
    return replace(f, foot_hidden=True)


def pinned_rival(f: BarFit, cands: list[BarFit], others: list[BarFit],
                 masks: dict[str, np.ndarray], lum: np.ndarray, view: FrontView, unit: float,
                 band: tuple[float, float], chromatic: str, s: VisionSettings,
                 floor_mm: float | None = None) -> BarFit:
    """`f` (pinned, `pin`), or a candidate of its colour elsewhere, nearly as good
    (`rival_margin`), held up and full, touching one of the `others` (the other colours'
    fits), whose ends are both pinned, when `f` can slide along its length (`max_slack_u`)
    and is not placed from its top: a patch of the colour larger than a bar (a wall in the
    stones' grey, the edge of a dark backdrop) fits anywhere along it, the stone only where
    it stands in the build (G01-03: a grey backdrop 12 u up and the grey stone on the table,
    against the blue, scored alike). Touching keeps out a shadow or a spare stone that is
    also pinned (G03-02: the dark shadow under a build, with grooves of the bars above)."""
    if f.slack_u < s.fit.max_slack_u or f.anchored:
        return f
    full = s.fit.min_stone_fill
    reach = s.fit.touch_reach_u * unit
    held = [o for o in others if o.supported and o.fill >= full]  # touches skips f's colour
    for c in cands:
        if not (c.supported and c.fill >= full and c.score >= f.score - s.fit.rival_margin
                and touches(c, held, unit, reach)):
            continue
        if rect_gap_u(face_rect(c, unit), face_rect(f, unit)) <= 0:  # the same patch
            continue
        c = _refined(c, lum, view, unit, s, masks[f.colour])
        c = pin(c, masks, lum, view, unit, band, chromatic, s, floor_mm)
        if c.slack_u < s.fit.max_slack_u and not c.anchored:
            return c
    return f


def wide_runs(mask: np.ndarray, width_px: float) -> np.ndarray:
    """The pixels of `mask` (H×W bool) in horizontal runs at least `width_px` px long
    (a morphological opening by a 1 × width_px line, OpenCV `morphologyEx`)."""
    k = max(int(round(width_px)), 1)
    kernel = np.ones((1, k), np.uint8)
    return cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN, kernel).astype(bool)


def other_stones(masks: dict[str, np.ndarray], colour: str) -> np.ndarray:
    """The other stones' colours: the union of every mask in `masks` but `colour`'s."""
    out = np.zeros_like(masks[colour])
    for c, m in masks.items():
        if c != colour:
            out |= m
    return out


class _Place(NamedTuple):
    """A place for a bar of `orientation` (its front face's lower-left corner, mm) and how
    clearly its grooves show there (`grooves.comb_along`); far: searched beyond where it
    would touch the support, only to find rivals along its length."""

    strength: float
    x_mm: float
    h_mm: float
    orientation: Orientation
    far: bool = False


def _rest_places(o: BarFit, lum: np.ndarray, view: FrontView, unit: float,
                 s: VisionSettings, floor_mm: float) -> list[_Place]:
    """The places where a bar would rest on the support `o` or hold it up (its face over
    or under `o`'s by half a unit or more), or (`rest_beside`) stand or lie beside it, side
    faces touching by half a unit or more, each within `rest_reach_u` of the contact, whose
    grooves show at `rest_margin` × `rest_min_grooves` or more; beside it also the places
    up to 2 u further along the bar's length (`far`)."""
    fs = s.fit
    r = fs.rest_reach_u * unit
    least = fs.rest_margin * fs.rest_min_grooves
    out: list[_Place] = []

    def comb(orient: Orientation, hs: np.ndarray, x0: float, x1: float,
             touch: tuple[float, float, float, float] | None = None) -> None:
        # touch: the x and h ranges (mm) where it touches; None: everywhere searched
        hs = hs[hs >= floor_mm]
        if not len(hs):
            return
        xs, st = comb_along(lum, view, unit, orient, hs, x0, x1, step_mm=1.0)
        for i, j in zip(*np.nonzero(st >= least), strict=True):
            x, h = float(xs[j]), float(hs[i])
            far = touch is not None and not (touch[0] - 1e-6 <= x <= touch[1] + 1e-6 and
                                             touch[2] - 1e-6 <= h <= touch[3] + 1e-6)
            out.append(_Place(float(st[i, j]), x, h, orient, far))

    wo, ho = (5 * unit, unit) if o.orientation == "H" else (unit, 5 * unit)
    for orient in ("H", "V"):
        wf, hf = (5 * unit, unit) if orient == "H" else (unit, 5 * unit)
        for h in (o.h_mm + ho, o.h_mm - hf):  # on it, or under it
            comb(orient, h + np.arange(-r, r + 0.01, 1.0), o.x_mm - wf + 0.5 * unit,
                 o.x_mm + wo - 0.5 * unit)
        if not fs.rest_beside:
            continue
        lo, hi = o.h_mm - hf + 0.5 * unit, o.h_mm + ho - 0.5 * unit
        ext = 2 * unit  # the grooves repeat every unit: places further along are rivals
        for x in (o.x_mm - wf, o.x_mm + wo):  # left of it, right of it
            touch = (x - r, x + r, lo, hi)
            if orient == "H":  # level with a unit of it: its height, not the top face's
                hs = np.concatenate([o.h_mm + k * unit + np.arange(-r, r + 0.01, 1.0)
                                     for k in range(round(ho / unit))])
                comb(orient, hs, x - r - ext, x + r + ext, touch)
            else:
                comb(orient, np.arange(lo - ext, hi + ext + 0.01, 1.0), x - r, x + r, touch)
    return out


def resting(f: BarFit, fits: list[BarFit], masks: dict[str, np.ndarray], lum: np.ndarray,
            view: FrontView, unit: float, s: VisionSettings, floor_mm: float
            ) -> BarFit | None:
    """The stone of `f`'s colour found by its grooves where it rests on, or holds up, a
    stone that is measured, when its colour's patch is larger than a bar (`f` slides along
    its length: W03-05, a grey stone before a wall that a warm, hard light turns grey too, so
    that the template fits the wall anywhere and the stone nowhere).

    Each stone of another colour that is held up, full and pinned is a support: the bar may
    lie or stand on it, or under it, its face overlapping it by half a unit or more, its
    bottom within `rest_reach_u` of the contact, or beside it (`rest_beside`, W01-04: a
    purple bar lying against the grey one, which a piece in front let slide; see
    `_rest_places`). For a grey stone `masks` may hold the table's shade
    (`colour.table_shade`, G01-07). At each such place the grooves' strength is
    read (`grooves.comb_along`: four lines a unit apart that end with the face, which a
    table's grain does not). The strongest place whose segments show the colour (4 of 5 at
    `light_min_fill` of its colour's mask, `min_stone_fill` of the face, no segment with
    more than `rest_max_other` of the other stones' colours) is the stone when its grooves
    stand out (`rest_min_grooves`) and no place half a unit or more away, or of the other
    orientation, with 2 segments of the colour comes near it (`rest_margin` of its
    strength): the grooves repeat every unit, so a place whole units off shows some of them
    too (W02-05: a purple bar half hidden by a piece in front matched 1.9 u off); a place
    searched past a contact counts only along the stone's length (`rest_line_margin`). It is
    then placed on its grooves and counted as placed from an end (`anchored`: its doubt is
    `anchored_sigma_u`); its score is its face's share of its colour. It is `rested`, and
    so weak: a place whole units off may show as many segments of the colour where part of
    the stone is hidden (N7 H03-06: a grey bar found a unit to the left of where it held the
    blue up, its end behind a piece in front; a correct build judged wrong). None otherwise.

    masks: per colour letter, the front view's H×W bool mask; lum: H×W float32 lightness;
    floor_mm: the lowest front-view height a face can have.
    """
    mask, others = masks[f.colour], other_stones(masks, f.colour)
    fs = s.fit
    full = fs.min_stone_fill
    found: list[_Place] = []
    for o in fits:
        if o.colour != f.colour and o.supported and o.fill >= full and \
                o.slack_u < fs.max_slack_u:
            found += _rest_places(o, lum, view, unit, s, floor_mm)
    found.sort(reverse=True)
    # places of the colour: a stone's (4 of 5 segments), or a rival's (2 of 5: the grooves
    # repeat every unit, so a place whole units off the stone shows some of them too, and
    # where part of the stone is hidden that place may show more of its colour)
    coloured: list[tuple[float, BarFit, int, bool]] = []  # strength, place, segments, far
    near = [p for p in found if not p.far][:150]
    counts = (cv2.integral(mask.view(np.uint8)), cv2.integral(others.view(np.uint8)))
    for p in sorted(near + [p for p in found if p.far][:150], reverse=True):
        cand = BarFit(f.colour, p.orientation, p.x_mm, p.h_mm, 0.0, 0.0, True)
        segs = _segments(cand, counts, view, unit)
        if segs is None or max(other for _, other in segs) > fs.rest_max_other:
            continue
        n = sum(own >= fs.light_min_fill for own, _ in segs)
        if n >= 2:
            coloured.append((p.strength, cand, n, p.far))
    stones = [(v, c, n) for v, c, n, far in coloured if n >= 4 and not far]
    if not stones or stones[0][0] < fs.rest_min_grooves:
        return None
    strength, cand, n_cand = stones[0]
    # the grooves run across the bar, so they place it along its length only: across it
    # (x of a standing bar, height of a lying one) the strength stays level while the face
    # covers them; the middle of that plateau is the bar's place
    across = [(x, h) for v, x, h, o, far in found if o == cand.orientation and not far and
              v >= 0.9 * strength and abs(x - cand.x_mm) <= 0.5 * unit and
              abs(h - cand.h_mm) <= 0.5 * unit and
              (h == cand.h_mm if o == "V" else x == cand.x_mm)]
    if across:
        k = 0 if cand.orientation == "V" else 1
        mid = 0.5 * (min(p[k] for p in across) + max(p[k] for p in across))
        cand = replace(cand, x_mm=mid) if k == 0 else replace(cand, h_mm=mid)

    def apart(c: BarFit) -> bool:  # along its length half a unit, or across it beyond the
        along, over = (c.h_mm - cand.h_mm, c.x_mm - cand.x_mm)  # plateau (0.75 u)
        if cand.orientation == "H":
            along, over = over, along
        return c.orientation != cand.orientation or abs(along) >= 0.5 * unit or \
            abs(over) >= 0.75 * unit

    def on_line(c: BarFit) -> bool:  # along its own length, whole units off
        along, over = (c.h_mm - cand.h_mm, c.x_mm - cand.x_mm)
        if cand.orientation == "H":
            along, over = over, along
        return c.orientation == cand.orientation and abs(over) < 0.75 * unit and \
            abs(along) >= 0.5 * unit

    # a place searched beyond the contacts is a rival only along the stone's own length,
    # as strong (`rest_line_margin`) and of as much of its colour (W03-01: a grey bar found
    # touching the blue one's side, a unit short of where it lay on snow)
    if any((on_line(c) and n >= n_cand and v >= fs.rest_line_margin * strength) if far
           else apart(c) for v, c, n, far in coloured if v >= fs.rest_margin * strength):
        return None
    if face_fill(mask, view, unit, cand.orientation, cand.x_mm, cand.h_mm) < full:
        return None
    placed = _refined(cand, lum, view, unit, s, mask)
    if not placed.grooves or abs(placed.h_mm - cand.h_mm) > 0.5 * unit or \
            abs(placed.x_mm - cand.x_mm) > 0.5 * unit:
        return None
    fill = face_fill(mask, view, unit, placed.orientation, placed.x_mm, placed.h_mm)
    return replace(placed, fill=fill, score=fill, supported=True, slack_u=0.0, anchored=True,
                   rested=True)


def _segments(f: BarFit, counts: tuple[np.ndarray, np.ndarray], view: FrontView,
              unit: float) -> list[tuple[float, float]] | None:
    """Per segment of f's face (its middle half across, grooves left out): the shares of a
    colour's mask and of the other stones' colours, from `counts`, their integral images
    (`cv2.integral` of each H×W bool mask; `resting` asks thousands of places); None when
    the face leaves the view."""
    u = unit * view.px_per_mm
    col, row = (float(v) for v in view.to_px(f.x_mm, f.h_mm))
    own, others = counts
    h, w = own.shape[0] - 1, own.shape[1] - 1
    out = []
    for k in range(5):
        if f.orientation == "V":
            r0, r1 = row - (k + 1) * u + 0.2 * u, row - k * u - 0.2 * u
            c0, c1 = col + 0.25 * u, col + 0.75 * u
        else:
            r0, r1 = row - 0.75 * u, row - 0.25 * u
            c0, c1 = col + k * u + 0.2 * u, col + (k + 1) * u - 0.2 * u
        a, b, c, d = int(round(r0)), int(round(r1)), int(round(c0)), int(round(c1))
        if a < 0 or c < 0 or b > h or d > w or b <= a or d <= c:
            return None
        n = (b - a) * (d - c)
        mine, theirs = (float(ii[b, d] - ii[a, d] - ii[b, c] + ii[a, c]) / n
                        for ii in (own, others))
        out.append((mine, theirs))
    return out


def _refined(f: BarFit, lum: np.ndarray, view: FrontView, unit: float, s: VisionSettings,
             mask: np.ndarray | None = None) -> BarFit:
    """`f` placed on its grooves (`grooves.refine`) when the settings use them."""
    g = s.grooves
    return refine(f, lum, view, unit, g.reach_u, g.edge_reach_u, mask, g.notch_u,
                  g.notch_blur_mm) if g.use_grooves else f


def spills(f: BarFit, max_spill: float) -> bool:
    """Whether the colour around fit `f` runs on beyond its face: its face's fill exceeds its
    template response (which the colour just outside the face lowers) by more than
    `max_spill` (`build.max_spill`). Such a fit is a stone-sized part of a larger patch, a
    box or a table of that colour, not a stone."""
    return f.fill - f.score > max_spill


def face_rect(f: BarFit, unit: float) -> tuple[float, float, float, float]:
    """(x, h, width, height) mm of a fit's front face; unit: u in mm."""
    w, h = (5 * unit, unit) if f.orientation == "H" else (unit, 5 * unit)
    return f.x_mm, f.h_mm, w, h


def touches(f: BarFit, others: list[BarFit], unit: float, reach_mm: float) -> bool:
    """Whether f's face comes within `reach_mm` of another fit's face (front view)."""
    return any(o.colour != f.colour and
               rect_gap_u(face_rect(f, unit), face_rect(o, unit)) <= reach_mm for o in others)


def grounded(f: BarFit, support: np.ndarray, view: FrontView, unit: float, table_band_mm: float,
             min_share: float = 0.7, floors: Sequence[BarFit] = ()) -> bool:
    """Whether a chain of things that can hold a stone up (snow, stones) runs from f's
    bottom face down to the table: in some unit-wide column under it, at least `min_share`
    of the front view's `support` mask (H×W bool) between its bottom and the table.

    A stone in the build stands on the paper, on snow on the paper, or on other stones; a
    look-alike far behind the mat (a box, a wall) stands on the table far back, which the
    front view shows well above the table plane, with table between. floors: stones held up
    already; the chain may end on the top face of one under the column instead of the
    table (a stone on a snow piece lying on a held stone: N6 I03-02).
    """
    if f.h_mm <= table_band_mm:
        return True
    cells = 5 if f.orientation == "H" else 1
    s = view.px_per_mm
    _, r_bottom = view.to_px(f.x_mm, f.h_mm)
    _, r_table = view.to_px(f.x_mm, table_band_mm)
    r0, r1 = int(round(float(r_bottom))), int(round(float(r_table)))
    for k in range(cells):
        x = f.x_mm + (k + 0.5) * unit
        c, _ = view.to_px(x, 0.0)
        c0, c1 = int(round(float(c) - 0.25 * unit * s)), int(round(float(c) + 0.25 * unit * s))
        tops = [h + dh for h, dh in ((o.h_mm, face_rect(o, unit)[3]) for o in floors
                                     if o.x_mm <= x <= o.x_mm + face_rect(o, unit)[2])
                if h + dh <= f.h_mm]
        end = r1 if not tops else int(round(float(view.to_px(x, max(tops))[1])))
        block = support[max(r0, 0):max(end, 0), max(c0, 0):max(c1, 0)]
        if block.size and float(block.mean()) >= min_share:
            return True
    return False


def held_up(f: BarFit, held: Sequence[BarFit], support: np.ndarray, chain: np.ndarray,
            view: FrontView, unit: float, table_band_mm: float, reach_mm: float) -> bool:
    """Whether `f` is held up (see `ground`): grounded through `chain`, touching (within
    `reach_mm`) one of the stones `held` up already, on snow lying on one of them, or, where
    its grooves show, grounded through `support`."""
    if grounded(f, chain, view, unit, table_band_mm) or touches(f, list(held), unit, reach_mm):
        return True
    if held and grounded(f, chain, view, unit, table_band_mm, floors=held):
        return True  # on snow lying on a stone held up already
    # a stone's signature, its grooves, lets it stand on snow as white as the table
    return f.grooves and grounded(f, support, view, unit, table_band_mm)


def ground(fits: list[BarFit], cands: dict[str, list[BarFit]], support: np.ndarray,
           chain: np.ndarray, lum: np.ndarray, view: FrontView, unit: float,
           table_band_mm: float, s: VisionSettings,
           masks: dict[str, np.ndarray] | None = None) -> list[BarFit]:
    """Each chosen stone held up: grounded (see `grounded`) through `chain` (snow and stones,
    never the table behind), or through `support` (anything neutral and light) where its
    grooves show, or touching a stone that is held up, found in turn until nothing changes
    (a stone on a stone on snow is held).

    A stone held up may also be the floor of such a chain: a stone on a snow piece lying
    on it is held (`grounded`'s floors).

    The thin strip under a face (`BarFit.supported` as the template saw it) only prefers one
    candidate to another; this decides. A fit that is not held is chosen again among its
    colour's candidates under that constraint (issue: a stone found on a purple wall far
    behind the mat, 15 u high); when none is held, it is kept as unsupported
    (`stone:unsupported:X`, unsure). masks: per colour letter, the front view's H×W bool
    mask, for placing candidates on their grooves (`grooves.refine`).
    """
    full = s.fit.min_stone_fill
    reach = s.fit.touch_reach_u * unit
    out = list(fits)
    held: list[BarFit] = []

    # each colour is one stone, so no stone stands on a patch of its own colour wider than
    # any stone or snow piece: a wall or a table behind the mat (PF02-06: a grey bar found on
    # a wall 17 u up, held through the grey table behind the build). A narrow one may be
    # snow in shade, which takes the grey's colour (E04-02: a grey bar on a snow piece).
    own = {c: (support & ~w, chain & ~w) for c, w in
           ((c, wide_runs(m, s.fit.wide_own_u * unit * view.px_per_mm))
            for c, m in (masks or {}).items()) if w.any()} if s.fit.wide_own_u > 0 else {}

    def holds(c: BarFit) -> bool:
        sup, ch = own.get(c.colour, (support, chain))
        return held_up(c, held, sup, ch, view, unit, table_band_mm, reach)

    for others in (False, True):  # first the fits as chosen, then other candidates
        changed = True
        while changed:
            changed = False
            for i, f in enumerate(out):
                if f in held or f.fill < full:
                    continue
                if holds(f):
                    out[i] = replace(f, supported=True)
                elif others:
                    # refined first: a candidate the template's strip saw unsupported was
                    # never placed on its grooves, and its grooves let it stand on snow
                    # tinted like the light (Z03-04: bluish snow, the paper clipped)
                    mask = masks[f.colour] if masks else None
                    alt = [c for c in (_refined(c, lum, view, unit, s, mask)
                                       for c in cands[f.colour] if c.fill >= full) if holds(c)]
                    if not alt:
                        continue
                    out[i] = replace(max(alt, key=lambda c: c.score + s.grooves.groove_bonus *
                                         c.grooves), supported=True)
                else:
                    continue
                held.append(out[i])
                changed = True
    return [f if f in held or f.fill < full else replace(f, supported=False) for f in out]


def unheld_parts(fits: list[BarFit], chromatic: str, support: np.ndarray, chain: np.ndarray,
                 view: FrontView, unit: float, table_band_mm: float, s: VisionSettings
                 ) -> list[BarFit]:
    """The fits, each part of a coloured stone (a `chromatic` colour's fit showing less than
    `min_stone_fill`) that is not held up (`held_up`, by the stones held up among `fits`)
    marked unsupported. `ground` decides only for full fits; a part keeps what the thin
    strip under its face showed, which another builder's structure far behind the mat
    shows too (N5 J03-06: 23 % of a blue face 8 u up, on the other build's stones). The
    stone is then absent (`assemble._gone`), not hidden. Grey is left as it is (see
    `assemble._gone`)."""
    full = s.fit.min_stone_fill
    held = [f for f in fits if f.supported and f.fill >= full]
    reach = s.fit.touch_reach_u * unit
    return [replace(f, supported=False) if f.colour in chromatic and f.supported and
            f.fill < full and not held_up(f, held, support, chain, view, unit, table_band_mm,
                                          reach) else f for f in fits]


def choose(cands: list[BarFit], lum: np.ndarray, view: FrontView, unit: float,
           s: VisionSettings, mask: np.ndarray | None = None) -> BarFit | None:
    """The stone among a colour's candidates: the best-scoring one that is held up and full
    enough, with a bonus where its grooves show (a stone's signature that look-alikes lack).
    mask: the colour's H×W bool front-view mask (`grooves.refine`)."""
    if not cands:
        return None
    good = [c for c in cands if c.supported and c.fill >= s.fit.min_stone_fill]
    if not good:
        # the best look-alike: held up by nothing, or too little of it shows
        return cands[0]
    refined = [_refined(c, lum, view, unit, s, mask) for c in good]
    return max(refined, key=lambda c: c.score + s.grooves.groove_bonus * c.grooves)
