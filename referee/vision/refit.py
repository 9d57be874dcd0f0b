"""Stage 5 (fit), a second look: a stone fitted again with the pixels another class took
(issue 11: a lamp or a wall moves a stone's colour into another class).

- `refit_tinted`: a grey stone not seen clearly fitted again with the pixels a coloured
  wall or table tinted into a coloured stone's class;
- `refit_lent`: a coloured stone not seen whole fitted again with the pixels of its face
  that a table class of nearly its hue took.

Either refit is `tinted` (weak): those pixels are a look-alike's class too.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from referee.build import Orientation
from referee.vision.choose import choose, held_up, pin, template_settings
from referee.vision.colour import TABLE, ColourModel, near_colour, tinted_grey
from referee.vision.fit import BarFit, bar_candidates, face_slice
from referee.vision.rectify import FrontView
from referee.vision.settings import VisionSettings


def _grown(f: BarFit, view: FrontView, unit: float, by_u: float) -> tuple[slice, slice]:
    """The front-view (rows, cols) slices of f's front face grown by `by_u` u each way."""
    (rows, cols), _ = face_slice(view, unit, f.orientation, f.x_mm, f.h_mm)
    k = int(round(by_u * unit * view.px_per_mm))
    return (slice(max(rows.start - k, 0), rows.stop + k),
            slice(max(cols.start - k, 0), cols.stop + k))


def refit_tinted(fits: list[BarFit], all_cands: dict[str, list[BarFit]],
                 masks: dict[str, np.ndarray], lab: np.ndarray, labels: np.ndarray,
                 colours: str, model: ColourModel, view: FrontView, unit: float,
                 band: tuple[float, float], regions: dict[Orientation, tuple[float, ...]],
                 supports: tuple[np.ndarray, np.ndarray, np.ndarray], table_band: float,
                 s: VisionSettings) -> list[BarFit]:
    """The fits (held up or not by `ground`) with a grey stone whose first fit is not
    seen clearly (a template score under `fit.tinted_below`) fitted again on its mask
    widened by the pixels its surroundings tinted into a coloured stone's class
    (`colour.tinted_grey`, outside that stone's clearly seen face, `fit.tinted_grey`), within
    a bar's length of the stones held up: where a candidate there, held up (`held_up`), fits
    a stone better than the first fit, and is not the first fit's place seen clearly, it is
    the stone, `tinted` (so weak: no fault rests on it alone). `masks` and `all_cands` are
    updated to match (the pixels move to the grey).

    supports: the template's support mask, and `ground`'s support and chain masks (H×W
    bool each).
    """
    fs = s.fit
    first = {f.colour: f for f in fits}

    def seen_clearly(c: str) -> bool:  # nothing to take back (most photos; saves a search)
        old = first.get(c)
        return old is not None and old.supported and old.fill >= fs.min_stone_fill and \
            old.score >= fs.tinted_below

    if all(seen_clearly(c) for c in colours if c not in model.chromatic(colours)):
        return fits
    support, held_by, chain = supports
    reach = fs.touch_reach_u * unit
    px = unit * view.px_per_mm

    clean = [f for f in fits if f.supported and f.fill >= fs.min_stone_fill]
    faces = {}
    for f in clean:
        faces[f.colour] = np.zeros(labels.shape, bool)
        faces[f.colour][_grown(f, view, unit, 0.25)] = True
    out = list(fits)
    for c, extra in tinted_grey(lab, labels, model, colours, faces, fs.tinted_grey).items():
        if seen_clearly(c):
            continue
        old = first.get(c)
        held = [f for f in clean if f.colour != c]
        near = np.zeros(labels.shape, bool)  # a grey stone of the build lies near the rest
        for f in held:
            near[_grown(f, view, unit, 5.0)] = True
        extra &= near
        if np.count_nonzero(extra) < 0.5 * px * px:  # not half a unit's face: no stone
            continue
        # only candidates that take some of those pixels can differ from the first fit
        rows, cols = np.nonzero(extra)
        xl, ht = view.to_plane(np.float64(cols.min()), np.float64(rows.min()))
        xr, hb = view.to_plane(np.float64(cols.max()), np.float64(rows.max()))
        where: dict[Orientation, tuple[float, ...]] = {}
        for o, (x0, x1, h0, h1) in regions.items():
            w, h = (5 * unit, unit) if o == "H" else (unit, 5 * unit)
            where[o] = (max(x0, xl - w), min(x1, xr), max(h0, hb - h), min(h1, ht))
        wide = masks[c] | extra
        cands = bar_candidates(wide, c, view, unit, band, where, support,
                               table_band_mm=table_band, **template_settings(s))
        good = [k for k in cands if k.fill >= fs.min_stone_fill and
                held_up(k, held, held_by, chain, view, unit, table_band, reach)]
        new = choose(good, lab[..., 0], view, unit, s, wide)
        if new is None or (old is not None and old.supported and new.score <= old.score):
            continue
        if old is not None and old.fill >= fs.min_stone_fill and \
                old.score >= s.build.sure_score and new.orientation == old.orientation and \
                max(abs(new.x_mm - old.x_mm), abs(new.h_mm - old.h_mm)) < 0.5 * unit:
            continue  # seen clearly where it was found: its own mask placed it
        # weak: a shadow under a stone of that colour is tinted so too (M03-05: a dark
        # shadow under the purple bar, the grey stone behind a piece in front, fitted 3 u
        # off with the shadow's pixels; judged wrong, a correct build)
        new = replace(new, supported=True, tinted=True)
        out = [new if f.colour == c else f for f in out] if old is not None else [*out, new]
        # rivals of both searches (rivals.rivalled): the first may hold the other
        # orientation's
        all_cands[c] = sorted([*all_cands.get(c, []), *cands], key=lambda k: -k.score)
        masks[c] = wide
        for d in masks:
            if d != c:
                masks[d] = masks[d] & ~extra
    return out


def refit_lent(fits: list[BarFit], masks: dict[str, np.ndarray], lab: np.ndarray,
               labels: np.ndarray, model: ColourModel, chromatic: str, view: FrontView,
               unit: float, band: tuple[float, float], supports: tuple[np.ndarray, np.ndarray],
               table_band: float, s: VisionSettings, floor_mm: float | None = None,
               neutral: np.ndarray | None = None) -> list[BarFit]:
    """The fits, each coloured stone that shows too little of its colour to be measured
    (under `min_stone_fill`) or slides along its length (`pin`) fitted again on its mask
    widened by the pixels near its face that a table class took within `max_distance` of
    its colour (`colour.near_colour`): a lamp lights a face into the class of a table or
    box of nearly its hue (NH04-05: an orange bar in plain sight, its lit half in the class
    of a tan box behind, 55 % of it seen, "hidden"). A candidate of the same orientation
    within a unit of the first fit, full enough, held up (`held_up`) and pinned along its
    length on the widened mask is the stone, `tinted` (weak: those pixels are a
    look-alike's class too, so no fault rests on it alone); else the first fit stays.

    lab: H×W×3 float32 white-balanced Lab; labels: `ColourModel.labels`; supports: `ground`'s
    support and chain masks (H×W bool each); floor_mm, neutral: as for `pin`.
    """
    fs = s.fit
    table = labels == TABLE
    if not table.any():
        return fits
    px = unit * view.px_per_mm
    reach = fs.touch_reach_u * unit
    held_by, chain = supports
    out = list(fits)
    for f in fits:
        if f.colour not in chromatic or not f.supported or f.anchored or f.rested or \
                f.tinted or (f.fill >= fs.min_stone_fill and f.slack_u < fs.max_slack_u):
            continue
        near = np.zeros(labels.shape, bool)
        near[_grown(f, view, unit, 1.0)] = True
        extra = near_colour(lab, model, [f.colour], table & near)[f.colour]
        if np.count_nonzero(extra) < 0.5 * px * px:  # not half a unit's face: nothing lent
            continue
        wide = masks[f.colour] | extra
        where: dict[Orientation, tuple[float, ...]] = {"H": (0.0, 0.0, 0.0, 0.0),
                                                       "V": (0.0, 0.0, 0.0, 0.0)}
        where[f.orientation] = (f.x_mm - unit, f.x_mm + unit, f.h_mm - unit, f.h_mm + unit)
        held = [o for o in out if o.colour != f.colour and o.supported and
                o.fill >= fs.min_stone_fill]
        cands = bar_candidates(wide, f.colour, view, unit, band, where, held_by,
                               table_band_mm=table_band, **template_settings(s))
        good = [c for c in cands if c.orientation == f.orientation and
                c.fill >= fs.min_stone_fill and
                held_up(c, held, held_by, chain, view, unit, table_band, reach)]
        new = choose(good, lab[..., 0], view, unit, s, wide)
        if new is None:
            continue
        new = pin(new, {**masks, f.colour: wide}, lab[..., 0], view, unit, band, chromatic,
                  s, floor_mm, neutral)
        if new.slack_u >= fs.max_slack_u and not new.anchored:
            continue
        out = [replace(new, supported=True, tinted=True) if o is f else o for o in out]
    return out
