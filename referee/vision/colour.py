"""Colour: white balance from the mat's paper, the stones' colour model, and pixel labels.

Colours are compared in CIE Lab after dividing the photo by the paper's white (von Kries), so a
warm or cool lamp and an off white balance (WORLD.md §7) cancel out. The model is learned per
station from its colour photo (WORLD.md §6) or taken from the default priors in
models/colours.yaml.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import yaml

from referee.paths import MODELS
from referee.vision.mat import WHITE_MARGINS
from referee.vision.pose import Pose

if TYPE_CHECKING:
    from referee.vision.rectify import FrontView

WHITE = "white"
NONE, TABLE = -1, -2  # pixel classes of `ColourModel.labels` besides the colours and white
CHROMATIC = 10.0  # chroma (√(a²+b²)) above which a colour keeps its hue in shade
SHADE_RANGE = (0.6, 1.15)  # how much darker or brighter than calibrated a stone may look


def _lab(v) -> tuple[float, float, float]:
    """Three numbers (L, a, b) as a tuple of floats. :raises ValueError: not three."""
    lab = [float(x) for x in v]
    if len(lab) != 3:
        raise ValueError(f"a Lab colour is three numbers, not {len(lab)}")
    return lab[0], lab[1], lab[2]


def point_distance(lab: np.ndarray, centre, lightness_weight: float) -> np.ndarray:
    """Weighted Lab distance of `lab` (…×3) to one centre (L, a, b): lightness counts
    `lightness_weight` as much as the chroma axes (shade changes it most)."""
    lab = np.asarray(lab, np.float32)
    dl = (lab[..., 0] - centre[0]) * lightness_weight
    return np.sqrt(dl * dl + (lab[..., 1] - centre[1]) ** 2 + (lab[..., 2] - centre[2]) ** 2)


def paper_white(image: np.ndarray, pose: Pose) -> np.ndarray:
    """Median BGR of the mat's plain paper margins in H×W×3 uint8 `image`; shape (3,) float32.

    :raises ValueError: no margin pixel lies inside the photo.
    """
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for r in WHITE_MARGINS:
        corners = np.array([[r.x0, r.y0, 0], [r.x1, r.y0, 0], [r.x1, r.y1, 0], [r.x0, r.y1, 0]])
        poly = pose.project(corners).round().astype(np.int32)
        cv2.fillConvexPoly(mask, poly, 255)
    px = image[mask > 0]
    if len(px) < 20:
        raise ValueError("the mat's paper margins are outside the photo")
    return np.median(px, axis=0).astype(np.float32)


def to_lab(image: np.ndarray, white_bgr: np.ndarray) -> np.ndarray:
    """White-balanced Lab of H×W×3 uint8 BGR: float32, L 0–100 (paper ≈ 100), a, b ±127."""
    f = image.astype(np.float32) / np.maximum(white_bgr.astype(np.float32), 1.0)
    return cv2.cvtColor(np.clip(f, 0, 1.2), cv2.COLOR_BGR2Lab)


@dataclass(frozen=True)
class ColourModel:
    """Lab centre per stone colour (`G B P O`) plus the snow's white, and how it was learned.

    source: `photo` (learned from the station's colour photo) or `priors` (defaults).
    """

    centres: dict[str, tuple[float, float, float]]
    source: str = "priors"
    lightness_weight: float = 0.4
    max_distance: float = 22.0

    def to_dict(self) -> dict:
        return {"source": self.source, "lightness_weight": self.lightness_weight,
                "max_distance": self.max_distance,
                "centres": {k: [round(float(x), 2) for x in v] for k, v in self.centres.items()}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ColourModel:
        """The inverse of `to_dict`; `source` defaults to `photo`.

        :raises KeyError: no `centres`; ValueError, TypeError: a centre that is not three
            numbers, or a weight that is no number.
        """
        return cls({k: _lab(v) for k, v in d["centres"].items()},
                   d.get("source", "photo"), float(d.get("lightness_weight", 0.4)),
                   float(d.get("max_distance", 22.0)))

    @classmethod
    def priors(cls) -> ColourModel:
        """The default priors of models/colours.yaml (used without a colour photo)."""
        raw = yaml.safe_load((MODELS / "colours.yaml").read_text(encoding="utf-8"))
        return cls.from_dict({**raw, "source": "priors"})

    def distances(self, lab: np.ndarray, colours: str) -> dict[str, np.ndarray]:
        """Per class (the given stone colours and white): weighted Lab distance, H×W float32.

        A coloured stone in shade keeps its hue: darker light scales (L+16, a, b) together,
        so a chromatic centre may slide along that line by `SHADE_RANGE` before distance
        counts. Grey and white stay points (shade is all that tells them apart).
        """
        out = {}
        w = self.lightness_weight
        lp = (lab[..., 0] + 16.0) * w
        for c in [*colours, WHITE]:
            lc, ac, bc = self.centres[c]
            if math.hypot(ac, bc) < CHROMATIC:
                out[c] = point_distance(lab, (lc, ac, bc), w)
                continue
            v = np.array([(lc + 16.0) * w, ac, bc], np.float32)
            k = (lp * v[0] + lab[..., 1] * v[1] + lab[..., 2] * v[2]) / float(v @ v)
            k = np.clip(k, *SHADE_RANGE)
            d0, d1, d2 = lp - k * v[0], lab[..., 1] - k * v[1], lab[..., 2] - k * v[2]
            out[c] = np.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        return out

    def separation(self, colours: str) -> list[tuple[str, str, float]]:
        """For each of `colours` and white: (class, its nearest other class, their distance),
        the distance `distances` gives one class's centre from the other class (weighted Lab,
        shade line included). Pixels halfway between two centres go either way, so a small
        distance (light grey and snow under a strong lamp) means unsure stones more often."""
        out = []
        for c in [*colours, WHITE]:
            d = self.distances(np.array([[self.centres[c]]], np.float32), colours)
            near = min((o for o in d if o != c), key=lambda o: float(d[o][0, 0]))
            out.append((c, near, float(d[near][0, 0])))
        return out

    def chromatic(self, colours: str) -> str:
        """The colours among `colours` that have a hue (chroma >= CHROMATIC): not grey."""
        return "".join(c for c in colours if math.hypot(*self.centres[c][1:]) >= CHROMATIC)

    def labels(self, lab: np.ndarray, colours: str,
               others: Sequence[tuple[float, float, float]] = ()) -> np.ndarray:
        """H×W int8 class per pixel: i for colours[i], len(colours) for white, `TABLE` (-2)
        for the table (`others`), `NONE` (-1) for anything farther than `max_distance` from
        every class."""
        best, low = self.nearest(lab, colours, others)
        best[best > len(colours)] = TABLE
        best[low >= self.max_distance] = NONE
        return best

    def nearest(self, lab: np.ndarray, colours: str,
                others: Sequence[tuple[float, float, float]] = ()
                ) -> tuple[np.ndarray, np.ndarray]:
        """The nearest class of each pixel of `lab` (…×3 Lab) and its distance: int8 i for
        colours[i], len(colours) for white, len(colours) + 1 + j for `others[j]`; float32."""
        d = self.distances(lab, colours)
        maps = [d[c] for c in [*colours, WHITE]]
        maps += [point_distance(lab, c, self.lightness_weight) for c in others]
        # the nearest class, the first of equals (np.argmin's answer, without stacking the
        # maps: a hot spot of the segment stage)
        best = np.zeros(maps[0].shape, np.int8)
        low = maps[0].copy()
        for i, m in enumerate(maps[1:], 1):
            best[m < low] = i
            np.minimum(low, m, out=low)
        return best, low


# sRGB (linear) → XYZ, D65, as cv2.cvtColor's Lab conversion (its docs, "RGB ↔ CIE L*a*b*")
_RGB_TO_XYZ = np.array([[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169],
                        [0.019334, 0.119193, 0.950227]], np.float32)
_D65 = np.array([0.950456, 1.0, 1.088754], np.float32)


def _lab_unclamped(bgr: np.ndarray) -> np.ndarray:
    """Lab (N×3 float32) of N×3 white-balanced BGR (1 = the paper), as `to_lab` gives it
    for values up to 1, but going on above 1 where cv2 clamps: what a clipped channel may
    have been."""
    rgb = np.maximum(bgr[:, ::-1].astype(np.float32), 0.0)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = (lin @ _RGB_TO_XYZ.T) / _D65
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16.0 / 116.0)
    return np.stack([116.0 * f[:, 1] - 16.0, 500.0 * (f[:, 0] - f[:, 1]),
                     200.0 * (f[:, 1] - f[:, 2])], axis=1).astype(np.float32)


def unclipped(front: np.ndarray, white_bgr: np.ndarray, labels: np.ndarray,
              model: ColourModel, colours: str,
              others: Sequence[tuple[float, float, float]], level: float,
              scales: Sequence[float]) -> np.ndarray:
    """`labels` (H×W int8, `ColourModel.labels`) with the pixels of no class whose one or
    two brightest channels are clipped (≥ `level` in H×W×3 uint8 BGR `front`), or
    brighter than the paper, given the stone colour they fit once read without that
    clipping: each clipped channel is scaled by each of `scales` (≥ 1) in turn, the
    colours converted to Lab without clamping, and the pixel takes a stone's class where,
    at some scale, that stone is its nearest class (stones, white and the table's
    `others`) within `max_distance`.

    A clipped channel says only "at least this bright" (a censored reading): under a hard
    lamp an orange face's red clips at 255 while its green goes on rising, so it reads
    yellow (NM01-01: BGR 56 162 254, Lab 85 4 67 against the orange's calibrated 71 35 61,
    31 apart), and a reading as it would be with the red 20–30 % higher is orange again;
    NK01-05: an orange face's red at 247, above the paper's 224, which `to_lab` clamps at
    the paper's white (Lab 74 19 60 against the orange's 62 40 55; unclamped 78 37 68,
    10.5 from it). Pixels clipped in every channel stay as they are (white tells nothing of
    a hue); only pixels of no class are asked, so no stone, snow or table pixel changes
    class. A look-alike far behind the build may gain pixels of a stone's class so (a
    pink box in D03's sun, purple in part): what holds a stone up decides (`choose`).
    white_bgr: the paper's BGR (`paper_white`), by which `to_lab` balances the colours.
    """
    none = np.flatnonzero(labels == NONE)  # only these are asked: a fraction of the view
    raw = front.reshape(-1, 3)[none]
    clip = raw >= level
    n = clip.sum(axis=1)
    white = np.maximum(white_bgr.astype(np.float64), 1.0)
    # brighter than the paper in some channel: `to_lab` (cv2) clamps that channel at the
    # paper's white, which bends the hue the same way
    over = (raw > white).any(axis=1)
    keep = ((n >= 1) | over) & (n <= 2)
    if not keep.any():
        return labels
    ask = none[keep]
    px = raw[keep].astype(np.float64) / white
    up = clip[keep]
    stones = len(colours)
    best = np.full(len(px), np.inf)
    cls = np.full(len(px), NONE, np.int8)
    for k in scales:
        q = np.where(up, px * k, px)
        near, low = model.nearest(_lab_unclamped(q), colours, others)
        take = (near < stones) & (low < model.max_distance) & (low < best)
        best[take] = low[take]
        cls[take] = near[take]
    out = labels.copy()
    out.reshape(-1)[ask] = cls
    return out


def learn_from_stack(lab_front: np.ndarray, view: FrontView, stack_bottom_to_top: str,
                     unit_mm: float) -> ColourModel:
    """Learn the colour model from a rectified front view of the colour photo (WORLD.md §6).

    lab_front: the photo's front view in white-balanced Lab, H×W×3 float32 (see `to_lab`);
    the stones lie horizontal on the build line, stacked from the table up in
    `stack_bottom_to_top` order (stone letters, e.g. `GBPO`).

    :raises ValueError: a stone of the stack cannot be found.
    """
    bands = []
    for k, colour in enumerate(stack_bottom_to_top):
        _, r0 = view.to_px(0, (k + 0.7) * unit_mm)
        _, r1 = view.to_px(0, (k + 0.3) * unit_mm)
        band = lab_front[int(r0):int(r1) + 1]
        if band.size == 0:
            raise ValueError(f"stone {colour} of the colour stack is outside the view")
        bands.append(band)
    win = int(round(5 * unit_mm * view.px_per_mm))
    if lab_front.shape[1] < win:
        raise ValueError("the front view is narrower than one stone")
    cut = win // 5
    # where the stack lies: first the window that differs most from the rows' background;
    # where that is no stack (a pale edition of 12 mm stones on paper flanked by a dark
    # table: P01, whose table's edges differ more), the window whose bands differ most
    # from band to band, as the stones of a stack do and a background does not
    refused: list[ValueError] = []
    for a in (_window_off_background(bands, win), _window_of_steps(bands, win)):
        if a is None:
            continue
        centres: dict[str, tuple[float, float, float]] = {}
        uniform: dict[str, float] = {}
        for colour, band in zip(stack_bottom_to_top, bands, strict=True):
            px = band[:, a + cut:a + win - cut].reshape(-1, 3)
            centres[colour] = _lab(np.median(px, axis=0))
            uniform[colour] = float(np.mean(np.linalg.norm(px - centres[colour], axis=1)
                                            < UNIFORM_DE))
        try:
            _check_stack(centres, uniform)
            break
        except ValueError as e:
            refused.append(e)
    else:  # what the first window's stones lacked, or that no window held a stack
        raise refused[0] if refused else ValueError("the colour stack was not found in the "
                                                    "photo")
    ls = [v[0] for v in centres.values()]
    centres[WHITE] = (max(96.0, max(ls) + 8.0), 0.0, 0.0)
    return ColourModel(centres, "photo")


def _window_off_background(bands: list[np.ndarray], win: int) -> int | None:
    """The first column of the `win`-px window (5 u: the stones lie with left ends aligned)
    whose band colours differ most from each row's background (the row median), summed over
    the bands (each scaled by its 99th percentile); None when that is no clear difference."""
    dev = np.zeros(bands[0].shape[1], np.float64)
    for band in bands:
        col = np.median(band, axis=0)
        d = np.linalg.norm(col - np.median(col, axis=0), axis=1)
        dev += d / max(float(np.percentile(d, 99)), 1e-6)
    sums = np.convolve(dev, np.ones(win), mode="valid")
    a = int(np.argmax(sums))
    return a if sums[a] / win >= 0.25 else None


def _window_of_steps(bands: list[np.ndarray], win: int) -> int | None:
    """The first column of the `win`-px window whose bands differ most from the next band
    up (the smallest such step per column, ΔE, capped at `STACK_STEP_CAP`); None with one
    band, or when the steps are under `MIN_APART`."""
    if len(bands) < 2:
        return None
    cols = [np.median(band, axis=0) for band in bands]
    steps = np.min([np.linalg.norm(c1 - c0, axis=1) for c0, c1 in itertools.pairwise(cols)],
                   axis=0)
    sums = np.convolve(np.minimum(steps, STACK_STEP_CAP), np.ones(win), mode="valid")
    a = int(np.argmax(sums))
    return a if sums[a] / win >= MIN_APART else None


MIN_APART = 4.0  # ΔE (Lab) that two stones of a colour stack are at least apart
STACK_STEP_CAP = 20.0  # ΔE: a larger step between bands counts as this much (one edge)
MIN_CHROMA = 8.0  # chroma (√(a² + b²)) that a coloured stone (not the grey) at least has
DARK_LIGHTNESS = 8.0  # a stack stone darker than this (L) without colour lies in shade
# chroma that the grey stone (black to light grey) at most has. Under coloured light with
# the paper clipped (so no white balance) a true stack's grey takes the cast: 16.3 (N9
# C03), 17.8 (NX02), 18.7 (OY04), 27.5 (OT02, an orange cast). A stone with a hue put in
# the grey's place leaves the grey in a coloured one's, where it shows no colour
# (MIN_CHROMA): this check only needs to refuse a band clearly coloured.
MAX_GREY_CHROMA = 30.0
# Purple is redder than blue: its hue angle lies at least this far past blue's (62
# stations: 16 degrees or more). The two families overlap, so this tells a swapped pair.
MIN_PURPLE_PAST_BLUE = 5.0
# Each band of a stack is one stone's face: this share of its pixels (the window's middle
# three fifths) at least lies within UNIFORM_DE (ΔE) of its median. Colour photos of 62
# stations: 0.78 and more; a build photo taken for one: often under 0.5.
MIN_UNIFORM, UNIFORM_DE = 0.6, 15.0
# What a stone's name means at all, as a CIE Lab hue angle (degrees, h = atan2(b, a)):
# editions differ (WORLD.md §1: purple may be mauve, orange yellow), so each family is
# broad; the colour photos of 62 stations (classic, pastel and random editions) lie
# 20 degrees or more inside them (blue 244-297, purple 300-339, orange 42-101). Over-exposed,
# blue's blue channel clips first and it turns cyan (OV02, the paper clipped: 211 degrees),
# so blue's family reaches down to cyan. A band of another hue is no such stone: a build
# photo, or the stack in another order.
HUE_FAMILIES = {"B": ("blue", 195.0, 320.0), "P": ("purple", 275.0, 375.0),
                "O": ("orange", 15.0, 115.0)}
_AGAIN = ("is this a photo of the colour stack, the stones lying on the build line, left ends "
          "together, stacked from the mat up in the order given?")


def hue_deg(lab: Any) -> np.ndarray:
    """The CIE Lab hue angle of (L, a, b) (…×3: one colour or an array of them), degrees in
    [0, 360), float64 of shape …."""
    lab = np.asarray(lab, np.float64)
    return np.degrees(np.arctan2(lab[..., 2], lab[..., 1])) % 360.0


def check_centres(centres: dict[str, Any]) -> None:
    """A colour model's stone centres, as a station profile holds them (`referee calibrate
    colours` wrote them, a hand edit may have changed them): each three numbers, L 0–110,
    a and b within ±128, and the colours the stones are named for (`_check_stack`: hues
    in their families, the grey without colour, blue below purple, no two alike).

    :raises ValueError: saying which.
    """
    for colour, lab in centres.items():
        if not (isinstance(lab, (list, tuple)) and len(lab) == 3 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in lab)):
            raise ValueError(f"{colour} is not three numbers (L, a, b)")
        if not (0.0 <= lab[0] <= 110.0 and abs(lab[1]) <= 128.0 and abs(lab[2]) <= 128.0):
            raise ValueError(f"{colour} = {list(lab)} lies outside Lab (L 0-100, a and b ±128)")
    try:
        _check_stack({c: (float(v[0]), float(v[1]), float(v[2])) for c, v in centres.items()})
    except ValueError as e:  # its words are for a colour photo: say what they mean here
        raise ValueError(str(e).split(":")[0].replace(" of the colour stack", "")) from None


def _check_stack(centres: dict[str, tuple[float, float, float]],
                 uniform: dict[str, float] | None = None) -> None:
    """The stack's colours look like the stones they are named for: each band one colour
    along the stone (`uniform`: the share of its pixels near its median, `MIN_UNIFORM`),
    the coloured ones with colour of their family's hue (`HUE_FAMILIES`), the grey without
    (at any lightness: under a webcam's full exposure it clips to white with the paper, and
    such a station still judges), and no two alike (a picture of the paper, or of a build,
    gives near-equal centres).

    :raises ValueError: naming the stones that do not.
    """
    for colour, share in (uniform or {}).items():
        if share < MIN_UNIFORM:
            raise ValueError(f"stone {colour} of the colour stack is not one colour along its "
                             f"length: {_AGAIN}")
    for colour, (_, a, b) in centres.items():
        chroma = float(np.hypot(a, b))
        if colour == "G":
            if chroma > MAX_GREY_CHROMA:
                # a true stack may be tinted so: a red cloth beside the mat and the paper
                # clipped (N9 C03, chroma 16.3; the other 93 stations' greys 12.7 or less)
                raise ValueError(f"stone G of the colour stack is not grey (chroma "
                                 f"{chroma:.1f}, a grey at most {MAX_GREY_CHROMA:.0f}): "
                                 f"{_AGAIN} If it is, coloured light or a coloured table "
                                 "beside the mat tints it: light the stones with white "
                                 "light, or lower the camera's exposure, and take it again")
            continue
        if chroma < MIN_CHROMA and centres[colour][0] < DARK_LIGHTNESS:
            # NP04: a lamp behind the stack, its front faces in deep shade (B at L 3)
            raise ValueError(f"stone {colour} of the colour stack is too dark to show its "
                             f"colour (lightness {centres[colour][0]:.0f} of 100): its front "
                             "lies in shade; light the stones from the camera's side, or "
                             "raise the camera's exposure, and take it again")
        if chroma < MIN_CHROMA:
            raise ValueError(f"stone {colour} of the colour stack shows no colour: are the "
                             "stones lying on the build line, stacked in the order given?")
        if colour in HUE_FAMILIES:
            name, lo, hi = HUE_FAMILIES[colour]
            hue = float(hue_deg(centres[colour]))
            if not (lo <= hue <= hi or lo <= hue + 360.0 <= hi):
                raise ValueError(f"stone {colour} of the colour stack does not look {name}: "
                                 f"{_AGAIN}")
    if "B" in centres and "P" in centres:
        blue, purple = float(hue_deg(centres["B"])), float(hue_deg(centres["P"]))
        if (purple - blue) % 360.0 > 180.0 or (purple - blue) % 360.0 < MIN_PURPLE_PAST_BLUE:
            raise ValueError(f"stones B and P of the colour stack are not blue below purple: "
                             f"{_AGAIN}")
    keys = list(centres)
    for i, c1 in enumerate(keys):
        for c2 in keys[i + 1:]:
            if float(np.linalg.norm(np.subtract(centres[c1], centres[c2]))) < MIN_APART:
                raise ValueError(f"stones {c1} and {c2} of the colour stack look the same: "
                                 "are the stones lying on the build line, stacked in the "
                                 "order given?")


def as_light_as_snow(model: ColourModel, colours: str, apart: float) -> list[str]:
    """The grey letters among `colours` (no hue: `ColourModel.chromatic`) whose centre lies
    less than `apart` × `max_distance` from white's (weighted Lab, `distances`): a stone
    that colour looks like snow, so only its shape and grooves tell them apart."""
    white = np.array([[model.centres[WHITE]]], np.float32)
    d = model.distances(white, colours)
    chromatic = model.chromatic(colours)
    return [c for c in colours if c not in chromatic and
            float(d[c][0, 0]) < apart * model.max_distance]


# Table around the mat, on the table plane (board mm): left, right and behind the paper.
TABLE_REGIONS = ((-90.0, -25.0, -120.0, 110.0), (305.0, 370.0, -120.0, 110.0),
                 (-40.0, 320.0, -260.0, -110.0))


def table_centres(image: np.ndarray, white_bgr: np.ndarray, pose: Pose, model: ColourModel,
                  k: int, *, min_share: float, drop_near: float, spare_near: float,
                  spare_share: float) -> list[tuple[float, float, float]]:
    """Lab centres of the table around the mat (k-means, `k` colours), as extra non-stone
    classes.

    A centre that holds under `min_share` of the table's pixels is no table colour. One
    within `drop_near` × `max_distance` of a stone colour is dropped: it is that stone's
    colour (a spare stone lying there), and as a class of its own it would hide the real
    stones; so is one within `spare_near` × `max_distance` that holds under `spare_share`
    of the pixels: a spare stone in other light than the build's (a dark grey bar lying
    flat beside the mat took the standing grey's face as table, PY04-04), while a table's
    own shade or pattern nearly as near a stone holds more of the table (PG02-05: 11.5 %,
    0.47 from the grey) or lies farther from it (PR04-06: 0.41).
    """
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for x0, x1, y0, y1 in TABLE_REGIONS:
        corners = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], np.float64)
        poly = pose.project(corners)
        if not np.all(np.isfinite(poly)) or np.abs(poly).max() > 1e5:
            continue
        cv2.fillConvexPoly(mask, poly.round().astype(np.int32), 255)
    mask[::2] = 0
    mask[:, ::2] = 0
    px = image[mask > 0]
    if len(px) < 50:
        return []
    if len(px) > 4000:
        px = px[:: len(px) // 4000]
    px = to_lab(px.reshape(-1, 1, 3), white_bgr).reshape(-1, 3)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(0)  # k-means++ draws its seeds: same photo, same answer
    _, labels, centres = cv2.kmeans(px, k, None, crit, 2,  # type: ignore[call-overload]
                                    cv2.KMEANS_PP_CENTERS)
    keep = []
    stones = [v for c, v in model.centres.items() if c != WHITE]
    for i, c in enumerate(centres):
        share = float(np.mean(labels.ravel() == i))
        near = min(float(point_distance(c, s, model.lightness_weight))
                   for s in stones) / model.max_distance
        if share < min_share or near <= drop_near or (near <= spare_near and
                                                      share < spare_share):
            continue
        keep.append(_lab(c))
    return keep


def may_hold(lab: np.ndarray, labels: np.ndarray, neutral_chroma: float,
             min_snow_lightness: float, tinted_snow_chroma: float,
             tinted_snow_lightness: float, chroma: np.ndarray | None = None,
             shade_chroma: float = 0.0, shade_lightness: float = 100.0) -> np.ndarray:
    """What may hold a stone up (WORLD.md §4: the table, a stone or snow): H×W bool of the
    front view's pixels that some class takes (`labels` >= 0: stones, snow, the paper, the
    table) or that may be snow outside every class.

    lab: H×W×3 float32 Lab, white-balanced on the paper (`to_lab`, L 0-100). Snow has no hue
    of its own, but its light may: in a hard lamp's shade only the room lights it (neutral,
    chroma < `neutral_chroma`, and lighter than `min_snow_lightness`: L 29 beside a lit paper,
    OS04-03), and in light thrown back by a coloured table or wall it takes their tint while
    staying nearly as light as the paper (chroma < `tinted_snow_chroma`, L above
    `tinted_snow_lightness`: b* +24 at L 98 in warm light, OV03-02). A light-tinted pixel
    only ever holds a stone up through `choose.grounded`'s chain down to the table, so a tinted
    wall far behind the mat, above the table in the front view, still holds nothing. In the
    shade of a lamp, lit by a sky or room of another tint, it keeps less of its lightness
    and takes a little of that tint: chroma < `shade_chroma`, L above `shade_lightness`
    (QV04-06: snow pillars at L 76–82, b* −13 to −17 beside a paper at 215 218 208, every
    stone on them called unsupported).
    chroma: the H×W float32 hypot of a and b, if already worked out.
    """
    chroma = np.hypot(lab[..., 1], lab[..., 2]) if chroma is None else chroma
    light = lab[..., 0]
    return (labels >= 0) | ((chroma < neutral_chroma) & (light > min_snow_lightness)) | \
        ((chroma < tinted_snow_chroma) & (light > tinted_snow_lightness)) | \
        ((chroma < shade_chroma) & (light > shade_lightness))


def near_colour(lab: np.ndarray, model: ColourModel, letters: Sequence[str],
                taken: np.ndarray, near: float = 1.0) -> dict[str, np.ndarray]:
    """Per stone letter: the `taken` pixels (H×W bool, another class's) within `near` ×
    `max_distance` of that stone's colour: a grey has no hue, so shade or a tint moves it
    into another class; a lit face moves a coloured stone into a table class of nearly its
    hue (`refit.refit_lent`)."""
    return {c: taken & (point_distance(lab, model.centres[c], model.lightness_weight)
                        < near * model.max_distance) for c in letters}


def table_shade(masks: dict[str, np.ndarray], lab: np.ndarray, labels: np.ndarray,
                model: ColourModel, chromatic: str) -> dict[str, np.ndarray]:
    """`masks` (per stone letter, H×W bool) with each grey stone's widened by the pixels
    that a class of the table took (`labels` == `TABLE`, see `table_centres`) within
    `max_distance` of that stone's colour: a lamp lights a grey stone to the shade of a
    dark table or its shadow, which only shape can tell apart (G01-07). For a search that
    shape decides (`choose.resting`: the grooves), never for the templates.

    lab: H×W×3 float32 white-balanced Lab (`to_lab`); chromatic: the letters with a hue.
    """
    grey = [c for c in masks if c not in chromatic]
    if not grey:
        return masks
    lent = near_colour(lab, model, grey, labels == TABLE)
    return {c: m | lent[c] if c in grey else m for c, m in masks.items()}


def tinted_grey(lab: np.ndarray, labels: np.ndarray, model: ColourModel, colours: str,
                faces: dict[str, np.ndarray], near: float) -> dict[str, np.ndarray]:
    """Per grey stone letter among `colours`: the H×W bool pixels that a coloured stone's
    class took (`labels`) outside that stone's fitted face (`faces[letter]`, H×W bool),
    within `near` × `max_distance` of the grey's colour. Each stone is there once, so such
    pixels are not that stone; a grey stone has no hue of its own and takes on its
    surroundings' (a pink wall behind the build tints its shaded half purple: F05-02).

    lab: H×W×3 float32 white-balanced Lab (`to_lab`).
    """
    chromatic = model.chromatic(colours)
    grey = [c for c in colours if c not in chromatic]
    if not grey or not faces:
        return {}
    taken = np.zeros(labels.shape, bool)
    for d, face in faces.items():
        if d in chromatic:
            taken |= (labels == colours.index(d)) & ~face
    if not taken.any():
        return {}
    return near_colour(lab, model, grey, taken, near)
