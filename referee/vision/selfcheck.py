"""Stage 6b: the colour self-check (issue 10: colours that come through another path).

The found stones' colours are compared with the station's colour calibration under every
channel order. A frame handed over in another byte order (picamera2's "RGB888" is BGR in
memory, drivers differ) fits better under the permutation that undoes it; stones far from
their calibrated colour mean the light or camera changed. Either makes colour faults
guesses: `photo:colours`, unsure.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np

from referee.vision.colour import WHITE, ColourModel, to_lab
from referee.vision.fit import BarFit, face_slice
from referee.vision.rectify import FrontView
from referee.vision.settings import VisionSettings


def colour_doubt(fit: dict[tuple[int, int, int], float], source: str, s: VisionSettings
                 ) -> str | None:
    """Why the stones' colours cannot be trusted (the colour self-check), or None.

    fit: `channel_orders` of the found stones. Another channel order fitting better than
    the photo's own (by `channel_order_ratio`, and by `channel_order_margin` Lab units at
    least) means the frame came through a path with another byte order; stones far from
    every calibrated colour (`max_colour_distance`, only for a station's own colour photo:
    default priors are loose) mean the light or the camera changed since calibration.
    Either way colour faults would be guesses. (Grey, blue and purple look much alike with
    red and green exchanged: another order fitted a photo's stones a little better by
    chance, 1.5 against 3.1, and four photos of a station were `photo:colours`, QA04; a
    photo whose channels are exchanged fits another order by 3.8 or more.)
    """
    own = fit.get((0, 1, 2))
    if own is None:
        return None
    best = min((v for k, v in fit.items() if k != (0, 1, 2)), default=math.inf)
    if best < s.colour.channel_order_ratio * own and own - best >= s.colour.channel_order_margin:
        return ("the photo's colour channels seem swapped (another capture path or camera "
                "driver than at colour calibration); calibrate the colours again through this "
                "camera")
    if source == "photo" and own > s.colour.max_colour_distance:
        return ("the stones' colours are far from the station's colour calibration (other "
                "light, or another camera); calibrate the colours again")
    return None


def _face_pixels(front: np.ndarray, view: FrontView, unit: float, fits: list[BarFit],
                 masks: dict[str, np.ndarray], min_fill: float
                 ) -> Iterator[tuple[str, np.ndarray]]:
    """(colour, N×3 uint8 BGR) of each held-up fitted face's own-colour pixels in `front`,
    for faces that show at least `min_fill` of their colour."""
    for f in fits:
        if f.supported and f.fill >= min_fill:
            sl, _ = face_slice(view, unit, f.orientation, f.x_mm, f.h_mm)
            yield f.colour, front[sl][masks[f.colour][sl]]


def face_colours(front: np.ndarray, view: FrontView, unit: float, fits: list[BarFit],
                 masks: dict[str, np.ndarray], min_fill: float, clip_level: float = 256.0
                 ) -> dict[str, np.ndarray]:
    """Median BGR (3,) float of each held-up fitted face's own-colour pixels in `front`, for
    faces that show at least `min_fill` of their colour. Pixels with a channel at
    `clip_level` or above are left out: a clipped channel reads darker than it was, so its
    hue is off (a lamp's orange face reads yellow, `colour.unclipped`); a face with fewer
    than 20 pixels left is not read."""
    out = {}
    for colour, px in _face_pixels(front, view, unit, fits, masks, min_fill):
        px = px[px.max(axis=1) < clip_level]
        if len(px) >= 20:
            out[colour] = np.median(px, axis=0).astype(np.float32)
    return out


def clipped_faces(front: np.ndarray, view: FrontView, unit: float, fits: list[BarFit],
                  masks: dict[str, np.ndarray], s: VisionSettings) -> list[str]:
    """The held-up fitted stones (showing at least `min_stone_fill` of their colour) whose
    own-colour pixels in H×W×3 uint8 BGR `front` have a channel at `clipped_level` or
    above over at least `max_blown_face` of them: their colours read off because the photo
    clipped them (a hard lamp, an exposure too long), whatever the colour self-check says
    of the calibration."""
    level, share = s.exposure.clipped_level, s.exposure.max_blown_face
    return [colour for colour, px in _face_pixels(front, view, unit, fits, masks,
                                                  s.fit.min_stone_fill)
            if len(px) and float((px.max(axis=1) >= level).mean()) >= share]


PERMUTATIONS = ((0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))  # BGR orders but (0, 1, 2)


def channel_orders(faces: dict[str, np.ndarray], white_bgr: np.ndarray, model: ColourModel
                   ) -> dict[tuple[int, int, int], float]:
    """How well the found stones' colours fit the model under each channel order.

    faces: per found stone colour, its face's median BGR (3,) float. For the photo's own
    order (0, 1, 2) each stone is compared with its own colour; for every other order, with
    the colours assigned to the stones in the way that fits best. Returns the mean Lab
    distance per order. A camera or driver that hands frames over in another byte order
    (picamera2's "RGB888" is BGR in memory) fits far better under the permutation that
    undoes it; a photo in the calibrated order fits best as it is.
    """


    names = list(faces)
    out: dict[tuple[int, int, int], float] = {}
    if not names:
        return out
    for order in ((0, 1, 2), *PERMUTATIONS):
        px = np.array([faces[c][list(order)] for c in names], np.float32).reshape(-1, 1, 3)
        lab = to_lab(np.clip(px, 0, 255).astype(np.uint8), white_bgr[list(order)])
        d = model.distances(lab, "".join(c for c in model.centres if c != WHITE))
        if order == (0, 1, 2):
            out[order] = float(np.mean([d[c][i, 0] for i, c in enumerate(names)]))
            continue
        classes = [c for c in model.centres if c != WHITE]
        out[order] = min(float(np.mean([d[a][i, 0] for i, a in enumerate(assign)]))
                         for assign in itertools.permutations(classes, len(names)))
    return out
