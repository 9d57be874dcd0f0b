"""Stage 5b: the structure's depth off the build line (referee/vision/depth.py).

The fits here are made by projecting stones of a known build, standing a known distance off
the line, onto the line's plane along the camera's rays: what the front view shows of them.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from referee.vision.depth import fits_at_depth, structure_depth
from referee.vision.fit import BarFit
from referee.vision.pose import Pose
from referee.vision.rectify import FrontView
from referee.vision.settings import default_settings

from .conftest import FIXTURES, die_text

S = default_settings()
VIEW = FrontView.for_settings(S.rectify.px_per_mm, S.rectify.view_height_mm)
MIN_FILL = S.fit.min_stone_fill


def camera_at(elevation_deg: float, distance_mm: float = 450.0, side_mm: float = 30.0) -> Pose:
    """A pose whose camera stands `distance_mm` from the build line's middle, raised by
    `elevation_deg` (only the camera's centre matters to the depth)."""
    e = math.radians(elevation_deg)
    centre = np.array([140.0 + side_mm, -15.0 + distance_mm * math.cos(e),
                       -distance_mm * math.sin(e)])
    return Pose(np.zeros((3, 1)), -centre.reshape(3, 1), np.eye(3), np.zeros(5), 12, 0.3)


def seen(stones: list[tuple[str, str, float, float]], pose: Pose, unit: float, depth_mm: float
         ) -> list[BarFit]:
    """Fits of stones (colour, orientation, x u, z u) whose front faces stand `depth_mm`
    behind the line, as the line's plane shows them."""
    c = pose.camera_centre_mm()
    out = []
    for colour, orient, x_u, z_u in stones:
        q = np.array([x_u * unit, VIEW.plane_y_mm - depth_mm, -z_u * unit])
        t = (VIEW.plane_y_mm - c[1]) / (q[1] - c[1])
        p = c + t * (q - c)
        out.append(BarFit(colour, orient, float(p[0]), float(-p[2]), 1.0, 0.9, True))
    return out


BUILD = [("G", "V", 60 / 16, 0.0), ("B", "H", 60 / 16, 5.0), ("P", "V", 100 / 16, 1.0)]


@pytest.mark.parametrize("depth_mm", [-9.0, -4.0, 0.0, 3.5, 8.0])
def test_the_depth_of_a_structure_off_the_line_is_found_and_undone(depth_mm):
    pose = camera_at(25.0)
    fits = seen(BUILD, pose, 16.0, depth_mm)
    d = structure_depth(fits, VIEW, pose, 16.0, S.depth, MIN_FILL)
    assert d is not None and abs(d - depth_mm) <= S.depth.step_mm
    placed = fits_at_depth(fits, VIEW, pose, d)
    for f, (_, _, x_u, z_u) in zip(placed, BUILD, strict=True):
        assert abs(f.h_mm / 16.0 - z_u) < 0.02 and abs(f.x_mm / 16.0 - x_u) < 0.02
    if abs(depth_mm) >= 4:  # as the plane showed it, the build is off by more than a grey band
        assert max(abs(f.h_mm / 16.0 - b[3]) for f, b in zip(fits, BUILD, strict=True)) > 0.1


def test_a_stone_at_no_whole_units_height_leaves_the_depth_untold():
    """A stone wedged half a unit up (or mis-measured) fits no depth: the build is judged as
    measured, not pushed onto a depth that explains the other stones only."""
    pose = camera_at(25.0)
    fits = seen(BUILD[:2] + [("P", "V", 100 / 16, 1.5)], pose, 16.0, 6.0)
    assert structure_depth(fits, VIEW, pose, 16.0, S.depth, MIN_FILL) is None


def test_two_depths_a_unit_of_parallax_apart_leave_the_depth_untold():
    """A steep camera and 12 mm units: a unit's parallax is 12 mm / tan(50°) ≈ 10 mm, so a
    build 5 mm behind the line looks like one 5 mm in front with every stone a unit lower
    (on the table or on a unit of snow): the photo does not tell, so no depth is given."""
    pose = camera_at(50.0)
    stones = [("G", "V", 4.0, 0.0), ("B", "H", 4.0, 5.0)]
    fits = seen(stones, pose, 12.0, 5.0)
    assert structure_depth(fits, VIEW, pose, 12.0, S.depth, MIN_FILL) is None
    # the same build seen from 20°: a unit's parallax is 33 mm, beyond the range searched
    low = camera_at(20.0)
    d = structure_depth(seen(stones, low, 12.0, 5.0), VIEW, low, 12.0, S.depth, MIN_FILL)
    assert d is not None and abs(d - 5.0) <= S.depth.step_mm


def test_a_depth_that_stands_a_stone_under_the_table_is_no_rival():
    """Y02-03: a build 8 mm in front of the line, the purple bar on the table. The depth a
    unit of parallax away stood every stone a unit lower, the purple bar 1.08 u under the
    table, and rivalled: no depth, and the blue bar, 5 mm up in the front view, floated
    (`stone:unsupported`). Nothing stands under the table: such a depth is no rival."""
    pose = camera_at(50.0)
    stones = [("G", "V", 4.0, 0.0), ("B", "H", 4.0, 5.0)]
    d = structure_depth(seen(stones, pose, 12.0, -5.0), VIEW, pose, 12.0, S.depth, MIN_FILL)
    assert d is not None and abs(d + 5.0) <= S.depth.step_mm
    # a unit higher, on a unit of snow, the alias stands on the table: the photo cannot tell
    up = [(c, o, x, z + 1.0) for c, o, x, z in stones]
    assert structure_depth(seen(up, pose, 12.0, -5.0), VIEW, pose, 12.0, S.depth,
                           MIN_FILL) is None


def test_two_rival_depths_are_told_apart_by_how_large_the_grooves_look():
    """W02-07: a build 8.7 mm in front of the line stood every stone half a unit off whole
    units, as one 9 mm behind it would with every stone a unit lower: no depth, and the
    stone on the table floated (`stone:unsupported`). A structure nearer the camera looks
    larger (its grooves stand further apart in the front view); the rival whose apparent
    scale is the grooves' is the answer, when it is clearly nearer than the other."""
    from referee.vision.depth import apparent_scale

    pose = camera_at(50.0)
    stones = [("G", "V", 4.0, 0.0), ("B", "H", 4.0, 5.0)]
    fits = seen(stones, pose, 12.0, 5.0)
    c = pose.camera_centre_mm()
    behind, front = apparent_scale(fits, VIEW, c, 5.0), apparent_scale(fits, VIEW, c, -5.0)
    assert behind < 1.0 < front  # nearer the camera, larger
    d = structure_depth(fits, VIEW, pose, 12.0, S.depth, MIN_FILL, lambda: behind)
    assert d is not None and abs(d - 5.0) <= S.depth.step_mm
    # grooves that look like neither, or halfway between the two, tell nothing
    for unclear in (None, (behind + front) / 2, behind - 3 * S.depth.scale_tolerance):
        assert structure_depth(fits, VIEW, pose, 12.0, S.depth, MIN_FILL,
                               lambda u=unclear: u) is None
    # and the scale is only asked when depths rival
    def never() -> float:
        raise AssertionError("asked")
    low = camera_at(20.0)
    assert structure_depth(seen(stones, low, 12.0, 5.0), VIEW, low, 12.0, S.depth, MIN_FILL,
                           never) is not None


def test_the_grooves_scale_tells_rival_depths_apart_only_when_clearly_nearer_one():
    """G04-04 (a break-it trial, twenty-sixth session): the grooves' scale lay 0.9 % off the
    right depth's and 2.2 % off its rival's, a unit of parallax away, and 0.2 % colour
    fringing moved it 1.5 %: the rival won and the build, on snow, was judged on the table.
    The scale decides only when its miss is at most `depth.scale_ratio` of the next one's."""
    from referee.vision.depth import apparent_scale

    pose = camera_at(50.0)
    stones = [("G", "V", 4.0, 0.0), ("B", "H", 4.0, 5.0)]
    fits = seen(stones, pose, 12.0, 5.0)
    c = pose.camera_centre_mm()
    behind, front = apparent_scale(fits, VIEW, c, 5.0), apparent_scale(fits, VIEW, c, -5.0)

    def depth(share: float, settings=S.depth) -> float | None:
        """The depth told by a scale `share` of the way from the right depth's to the rival's."""
        return structure_depth(fits, VIEW, pose, 12.0, settings, MIN_FILL,
                               lambda: behind + share * (front - behind))

    # 30 % of the way: within the tolerance and the margin, but its miss 0.43 of the rival's
    assert depth(0.3) is None
    assert depth(0.3, replace(S.depth, scale_ratio=0.0)) == pytest.approx(5.0, abs=0.5)
    # 15 %: its miss 0.18 of the rival's, the depth is told
    assert depth(0.15) == pytest.approx(5.0, abs=0.5)


@pytest.mark.parametrize("scale", [0.97, 1.0, 1.025])
def test_a_bars_grooves_show_its_apparent_scale(scale):
    from referee.vision.grooves import groove_scale

    unit = 16.0
    u = unit * VIEW.px_per_mm
    lum = np.full((VIEW.height, VIEW.width), 60.0, np.float32)
    fit = BarFit("B", "H", 40.0, 20.0, 1.0, 0.9, True)
    col, row = VIEW.to_px(fit.x_mm, fit.h_mm)
    for k in range(1, 5):  # four dark grooves, k·scale units from the left end
        c = int(round(float(col) + k * scale * u))
        lum[int(row - u):int(row), c - 1:c + 1] = 35.0
    got = groove_scale(fit, lum, VIEW, unit)
    assert got is not None and abs(got - scale) <= 0.006
    assert groove_scale(fit, np.full_like(lum, 60.0), VIEW, unit) is None  # no grooves


def test_the_depth_needs_two_stones_seen_whole_and_held_up_and_can_be_turned_off():
    pose = camera_at(25.0)
    fits = seen(BUILD, pose, 16.0, 6.0)
    hidden = [replace(f, fill=0.3) if f.colour != "G" else f for f in fits]
    assert structure_depth(hidden, VIEW, pose, 16.0, S.depth, MIN_FILL) is None
    floating = [replace(f, supported=False) if f.colour != "B" else f for f in fits]
    assert structure_depth(floating, VIEW, pose, 16.0, S.depth, MIN_FILL) is None
    off = replace(S.depth, enabled=False)
    assert structure_depth(fits, VIEW, pose, 16.0, off, MIN_FILL) is None


def test_a_photo_of_a_build_standing_off_the_line_is_judged_where_it_stands():
    """W05-04 (our own `--hard` renders): the structure stands 4.3 mm in front of the line
    (the label's truth, which only this test reads), a random stone edition. Its stones looked
    0.3 u low and the relative positions fell in the grey band (unsure); at the depth found
    they stand on whole units and the build is judged correct."""
    from referee.check import check_photo
    from referee.vision.photo import read_photo
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    root = FIXTURES / "hard-scenes"
    label = json.loads((root / "scenes/W05-04/label.json").read_text())
    st = load_station(root / "stations/W05/station.json")
    image = read_photo(root / "scenes/W05-04/image.jpg")
    m = measure(image, st)
    truth = -label["truth"]["line_offset_mm"]
    assert m.depth_mm is not None and abs(m.depth_mm - truth) < 2.0
    v = check_photo(image, st, label["target"], die_text(label), overlay=False).verdict
    assert v.verdict == "correct", v.to_dict()
