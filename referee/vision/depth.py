"""Stage 5b, the structure's depth: how far its front faces stand off the build line.

WORLD.md §5 and §7: the front faces stand on the build line "within about ±10 mm". One
camera does not see depth directly, and the front view (rectify.py) is the plane of the
build line, so a structure standing d mm behind it shows every stone d·tan(elevation) higher
and a little smaller (nearer the camera's axis) than it is; one in front, lower and larger.
Left alone, a table-standing stone then floats (`stone:unsupported`) and the stones' relative
positions carry the scale error into the grey band.

What shows the depth is that nothing in the game is a fraction of a unit: stones and snow
pieces are whole units (WORLD.md §1), so every stone of a build stands a whole number of
units above the table. The depth is the one, within the allowed range, at which all fitted
stones, taken back along their camera rays to the plane d mm off the line, stand at whole
units. A structure ±10 mm off the line can look alike at two depths a unit of parallax apart
(high cameras, small units); then there is no answer, and the build is judged as measured
(unsure where that matters), never on a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from referee.vision.fit import BarFit
from referee.vision.pose import Pose
from referee.vision.rectify import FrontView
from referee.vision.settings import DepthSettings


def at_depth(x_mm: np.ndarray, h_mm: np.ndarray, view: FrontView, camera_mm: np.ndarray,
             depth_mm: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Front-view plane points (x, h in mm, arrays of N) taken along their camera rays to
    the plane `depth_mm` behind the build line (negative: in front of it): where a thing
    seen there really stands, in (x mm, h mm) of that plane.

    camera_mm: the camera's centre in the board frame (`Pose.camera_centre_mm`, shape (3,)).
    depth_mm: one depth, or an array of D×1 depths, which gives D×N answers.
    """
    p = view.board_points(x_mm, h_mm)                  # N×3 on the build line's plane
    c = np.asarray(camera_mm, np.float64).reshape(3)
    t = (view.plane_y_mm - np.asarray(depth_mm) - c[1]) / (p[:, 1] - c[1])
    return c[0] + t * (p[:, 0] - c[0]), -(c[2] + t * (p[:, 2] - c[2]))


def _cost(fits: Sequence[BarFit], view: FrontView, camera: np.ndarray, unit: float,
          depths: np.ndarray, clip_u: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate depth (D,): the summed squared distance (u, each clipped at `clip_u`)
    of the stones' bottoms from whole units, the largest of those distances, and the lowest
    stone's bottom (u above the table)."""
    _, h = at_depth(np.array([f.x_mm for f in fits], np.float64),
                    np.array([f.h_mm for f in fits], np.float64), view, camera,
                    depths[:, None])                   # D×N
    z = h / unit
    off = np.abs(z - np.round(z))
    return np.sum(np.minimum(off, clip_u) ** 2, axis=1), off.max(axis=1), z.min(axis=1)


def apparent_scale(fits: Sequence[BarFit], view: FrontView, camera_mm: np.ndarray,
                   depth_mm: float) -> float:
    """How much larger (> 1) the front view shows a thing standing `depth_mm` behind the
    build line (negative: in front) than its true size, at the middle of `fits`."""
    x = float(np.mean([f.x_mm for f in fits]))
    h = float(np.mean([f.h_mm for f in fits]))
    xd, _ = at_depth(np.array([x, x + 10.0]), np.array([h, h]), view, camera_mm, depth_mm)
    return 10.0 / abs(float(xd[1] - xd[0]))


def structure_depth(fits: Sequence[BarFit], view: FrontView, pose: Pose, unit: float,
                    s: DepthSettings, min_fill: float,
                    scale: Callable[[], float | None] | None = None) -> float | None:
    """How far (mm) the structure's front faces stand behind the build line (negative: in
    front), or None when the photo does not tell it.

    fits: the measured stones (those held up and showing at least `min_fill` of their face are
    used; at least `min_stones` of them); unit: u in mm. Depths from −`search_mm` to
    +`search_mm` in steps of `step_mm` are tried. The answer is the depth at which every stone
    used stands within `max_off_u` of a whole unit, provided no other valley of the cost (more
    than `apart_mm` away) comes close: none whose stones all stand within `rival_off_u` of whole
    units, and none whose summed cost is within `rival_cost` per stone of the best. A depth
    at which a stone stands more than `floor_u` under the table is no answer and no rival.
    An answer within `min_shift_mm` of the line is 0.0: the bars' own spread of a few mm. See
    the module docstring.

    scale: the stones' apparent scale as their grooves show it (`grooves.groove_scale`, the
    median over the stones), asked only when depths a unit of parallax apart rival. A
    structure nearer the camera looks larger: the rival whose `apparent_scale` is within
    `scale_tolerance` of it, and nearer by `scale_margin` than every other, is the answer;
    so only when its miss is at most `scale_ratio` of the next one's: the grooves' scale
    moves by a percent or two with the photo's processing (a break-it trial: G04-04's seen
    scale 0.9 % off the right depth's and 2.2 % off its rival's, a unit of parallax away;
    re-saved with a cable beside the mat or 0.2 % colour fringing, 0.7 % off the rival's
    and the whole build judged a unit lower, on the table: `table:touching`).
    """
    use = [f for f in fits if f.supported and f.fill >= min_fill]
    if not s.enabled or len(use) < s.min_stones:
        return None
    depths = np.arange(-s.search_mm, s.search_mm + s.step_mm / 2, s.step_mm)
    cost, worst, lowest = _cost(use, view, pose.camera_centre_mm(), unit, depths, s.clip_u)
    # nothing stands under the table: a depth that puts a stone there is none (Y02-03: at
    # the alias a unit of parallax away the purple bar on the table stood 1.08 u under it)
    possible = lowest >= -s.floor_u
    if not possible.any():
        return None
    cost = np.where(possible, cost, np.inf)
    i = int(np.argmin(cost))
    if worst[i] > s.max_off_u:
        return None
    # another answer is another valley of the cost (an alias a unit of parallax away), not
    # the slope of this one: a low camera's valley is wide
    lower_left = np.r_[True, cost[1:] <= cost[:-1]]
    lower_right = np.r_[cost[:-1] <= cost[1:], True]
    valley = lower_left & lower_right
    far = np.abs(depths - depths[i]) > s.apart_mm
    rivals = valley & far & possible & ((worst <= s.rival_off_u) |
                             (cost <= cost[i] + s.rival_cost * len(use)))
    if rivals.any():
        seen = scale() if scale is not None else None
        if seen is None:
            return None
        camera = pose.camera_centre_mm()
        miss = sorted((abs(apparent_scale(use, view, camera, float(depths[k])) - seen), k)
                      for k in [i, *np.flatnonzero(rivals)])
        if miss[0][0] > s.scale_tolerance or miss[1][0] - miss[0][0] < s.scale_margin or \
                (s.scale_ratio > 0 and miss[0][0] > s.scale_ratio * miss[1][0]) or \
                worst[miss[0][1]] > s.max_off_u:
            return None
        i = int(miss[0][1])
    d = float(depths[i])
    # each bar stands a few mm off the others, so a small answer is within that spread:
    # the line's plane stays (settling handles the rest, assemble.py)
    return d if abs(d) > s.min_shift_mm else 0.0


def fits_at_depth(fits: Sequence[BarFit], view: FrontView, pose: Pose, depth_mm: float
                  ) -> list[BarFit]:
    """The fits with their front faces' lower-left corners moved to where they stand when the
    structure is `depth_mm` behind the build line (`at_depth`)."""
    if not fits:
        return []
    x = np.array([f.x_mm for f in fits], np.float64)
    h = np.array([f.h_mm for f in fits], np.float64)
    xd, hd = at_depth(x, h, view, pose.camera_centre_mm(), depth_mm)
    return [replace(f, x_mm=float(a), h_mm=float(b)) for f, a, b in zip(fits, xd, hd, strict=True)]
