"""Stage 6's evidence for `missing` (WORLD.md §4: a stone is missing only where it could have
been seen): whether a stone not found in its colour may be there in another look.

- `unknown_stone`: a stone-shaped thing of no calibrated colour by the build;
- `hued`: something of a chromatic stone's hue in a stone's shape (a lamp or a camera's tone
  moved it out of its class);
- `greyish`: something grey in a stone's shape within one band of lightness (grey has no hue).

Each fits the bar template (fit.py) to a mask other than the stone's class and reads its fits
as choose.py reads a stone's: held up, full, not spilling around.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.build import Orientation
from referee.vision.choose import grounded, spills, template_settings, touches
from referee.vision.colour import NONE, ColourModel, hue_deg, point_distance
from referee.vision.fit import BarFit, bar_candidates
from referee.vision.rectify import FrontView
from referee.vision.settings import VisionSettings


def unknown_stone(lab: np.ndarray, labels: np.ndarray, view: FrontView, unit: float,
                   band: tuple[float, float], regions: dict[Orientation, tuple[float, ...]],
                   fits: list[BarFit], support: np.ndarray, table_band_mm: float,
                   s: VisionSettings) -> bool:
    """Whether a stone-shaped thing of no stone colour stands in the build's place.

    lab: front-view Lab (H×W×3 float32); labels: its classes (`ColourModel.labels`). The
    chromatic pixels (chroma >= `neutral_chroma`) that no stone colour or snow takes are
    fitted with the bar template (fit.py), as a stone's colour would be; a fit of at least
    `min_unknown_score` that is held up as a stone is (`grounded`, or touching a stone) is a
    bar in a colour the calibration does not know (a photo whose colours came through
    another path, or light that changed): a stone not found may be it. Not so a fit whose
    colour spills around it (fill − score over `build.max_spill`, as `assemble` reads a
    groove-less fit): a patch of a larger thing, a box behind the build (OK04-01, measured
    unseen: a green box 12 u up held the "stone", and a blue stone lying off the mat was
    not called missing).
    """
    odd = (labels == NONE) & (np.hypot(lab[..., 1], lab[..., 2]) >= s.colour.neutral_chroma)
    return _a_held_stone(odd, "?", view, unit, band, regions, fits, support, table_band_mm, s)


def hued(colour: str, colours: str, lab: np.ndarray, labels: np.ndarray,
         centre: tuple[float, float, float], view: FrontView, unit: float,
         band: tuple[float, float], regions: dict[Orientation, tuple[float, ...]],
         fits: list[BarFit], support: np.ndarray, table_band_mm: float,
         s: VisionSettings, veiled: np.ndarray | None = None) -> bool:
    """Whether a stone-shaped thing of `colour`'s hue stands in the build's place, its
    lightness whatever and its chroma at least `build.hued_chroma` of the colour's: a stone
    not found in its class may be it, its colour moved out of the class by a light or a
    camera's tone since the colour photo (a break-it trial: a lamp's hot spot washing an
    orange bar pale, D05-02 and NH04-05; +0.5 EV and a green cast on NH04-05; each judged a
    correct build `missing:O`). WORLD.md §4: missing needs evidence that the stone could
    have been seen. Under a veil of light (`veiled`, H×W bool: near what a hot spot blew
    out, in the columns where the paper in front of the build is blown out,
    `veiled_columns`: a lamp's hot spot or a reflection in
    the lens adds light that washes colours towards white, and the paper that sets the
    white balance clips) a chroma of `build.veiled_chroma` is enough on pixels washed to
    `build.veiled_lightness` or lighter, under the neutral limit, within
    `build.veiled_degrees` of the hue (a break-it trial: a glare of 30 % over the orange
    bars of D06-03 and D06-07 left them chroma 11–14 at L 92–95, the centre's 32, their hue
    up to 27° off; each correct build judged `missing:O` with confidence; a second trial: a
    pink box's top face 11 u above a small hot spot, in the columns it veiled, taken for a
    missing purple stone before only washed pixels counted).

    colours: the station's stone letters, whose index `labels` (H×W, its classes) holds;
    lab: front-view Lab (H×W×3 float32); centre: the colour's Lab centre. The pixels within
    `build.hued_degrees` of its hue that no other found stone's class takes are fitted with
    the bar template and read as `unknown_stone` reads its fits. False for a colour
    without hue.
    """
    own = float(np.hypot(centre[1], centre[2]))
    if own < s.colour.neutral_chroma:
        return False
    off = np.abs((hue_deg(lab) - float(hue_deg(np.asarray(centre))) + 180.0) % 360.0 - 180.0)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    least: float | np.ndarray = max(s.colour.neutral_chroma, s.build.hued_chroma * own)
    within: float | np.ndarray = s.build.hued_degrees
    if veiled is not None and s.build.veiled_chroma > 0:
        washed = veiled & (lab[..., 0] >= s.build.veiled_lightness)
        least = np.where(washed, min(least, s.build.veiled_chroma), least)
        within = np.where(washed, max(within, s.build.veiled_degrees), within)
    mask = (off <= within) & ~_others(colour, colours, labels, fits) & (chroma >= least)
    return _a_held_stone(mask, colour, view, unit, band, regions, fits, support,
                         table_band_mm, s)


def veiled_columns(front: np.ndarray, view: FrontView, unit: float, clipped_level: float,
                   share: float, inside: np.ndarray | None = None, near_u: float = 2.0
                   ) -> np.ndarray | None:
    """Where a veil of light lies over the front view (H×W bool): in the columns where the
    paper in front of the build line is blown out (more than `share` of the strip 2–8 mm
    below the table line, which shows the paper just in front of the build, at
    `clipped_level` in every channel; widened by a unit each way), within `near_u` units of
    a pixel blown out so. There a lamp's hot spot or a reflection lifts every colour towards
    white. None where no column is so.

    front: the rectified H×W×3 uint8 BGR front view (`rectify.rectify`); unit: u in mm;
    inside: H×W bool, where the front view shows the photo (beyond its edges `rectify`
    fills white, which is no blown paper: a break-it trial's phone photo cropped past the
    build had 68–189 columns veiled without a lamp).
    """
    _, r0 = view.to_px(view.x0_mm, -2.0)
    _, r1 = view.to_px(view.x0_mm, -8.0)
    rows = slice(max(int(r0), 0), max(int(r1), 0))
    if front[rows].size == 0:
        return None
    out = np.minimum(np.minimum(front[..., 0], front[..., 1]), front[..., 2]) >= clipped_level
    if inside is not None:
        out &= inside
    cols = out[rows].mean(axis=0) > share
    if not cols.any():
        return None
    reach = max(int(round(unit * view.px_per_mm)), 1)
    cols = cv2.dilate(cols.astype(np.uint8)[None, :], np.ones((1, 2 * reach + 1), np.uint8))
    # the veil is the hot spot's: only within `near_u` units of something it blew out
    k = 2 * int(round(near_u * reach)) + 1
    near = cv2.dilate(out.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                                      (k, k))) > 0
    return near & cols.astype(bool)


def greyish(colour: str, colours: str, lab: np.ndarray, labels: np.ndarray,
            model: ColourModel, view: FrontView, unit: float, band: tuple[float, float],
            regions: dict[Orientation, tuple[float, ...]], fits: list[BarFit],
            support: np.ndarray, table_band_mm: float, s: VisionSettings) -> bool:
    """Whether a stone-shaped thing of a grey stone's look stands in the build's place: a
    grey stone not found in its class may be it. Grey has no hue for `hued` to follow, and a
    tone curve, a lamp or a tint moves it into the table's class or out of every class (a
    break-it trial: gamma 0.75, contrast 0.75, 5 px of motion blur, a cable by the mat, a
    phone's tone curve; eight builds of the dev and hard sets judged `missing:G`, each
    correct). WORLD.md §4: missing needs evidence that the stone could have been seen.

    colours: the station's stone letters, whose index `labels` (H×W, its classes) holds;
    lab: front-view Lab (H×W×3 float32, L 0–100); model: the station's colours. The pixels
    that no other found stone's class nor snow's takes, neutral (chroma under
    `colour.neutral_chroma`) or within the model's `max_distance` of the grey's centre, are
    fitted with the bar template one band of lightness at a time (`build.grey_band_l` wide,
    every half of that): a grey table, wall or shade is as neutral as the stone, and only a
    band that holds the stone's face and not its surroundings shows it whole. Each band's
    fits are read as `unknown_stone` reads its fits (`_a_held_stone`), band after band.
    """
    width = s.build.grey_band_l
    if width <= 0:
        return False
    others = _others(colour, colours, labels, fits) | \
        (labels == len(colours))  # snow and the paper: the white class
    look = (np.hypot(lab[..., 1], lab[..., 2]) < s.colour.neutral_chroma) | \
        (point_distance(lab, model.centres[colour], model.lightness_weight) <
         model.max_distance)
    look &= ~others
    light = lab[..., 0]
    return any(_a_held_stone(look & (light >= low) & (light < low + width), colour, view,
                             unit, band, regions, fits, support, table_band_mm, s)
               for low in np.arange(0.0, 100.0 - width / 2, width / 2))


def _others(colour: str, colours: str, labels: np.ndarray, fits: list[BarFit]) -> np.ndarray:
    """H×W bool: the pixels that another found stone's class took (`labels` indexes
    `colours`): each stone is there once, so they are not `colour`'s."""
    return np.isin(labels, [colours.index(f.colour) for f in fits
                            if f.colour != colour and f.colour in colours])


def _a_held_stone(mask: np.ndarray, colour: str, view: FrontView, unit: float,
                  band: tuple[float, float], regions: dict[Orientation, tuple[float, ...]],
                  fits: list[BarFit], support: np.ndarray, table_band_mm: float,
                  s: VisionSettings) -> bool:
    """Whether the bar template on `mask` (H×W bool, other than a stone class) finds a
    stone of the build: a fit of at least `min_unknown_score`, full, its colour not spilling
    around it (`spills`: a patch of a larger thing, a box behind), and held up as a stone
    is (`grounded`, or touching a well-seen stone among `fits`). As `unknown_stone`, `hued`
    and `greyish` read their masks."""
    cands = bar_candidates(mask, colour, view, unit, band, regions, None,
                           **{**template_settings(s), "per_orientation": 3})
    good = [f for f in fits if f.supported and f.fill >= s.fit.min_stone_fill]
    return any(c.score >= s.fit.min_unknown_score and c.fill >= s.fit.min_stone_fill and
               not spills(c, s.build.max_spill) and
               (grounded(c, support, view, unit, table_band_mm) or
                touches(c, good, unit, s.fit.touch_reach_u * unit)) for c in cands)
