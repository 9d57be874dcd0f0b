"""A piece lying on the mat in front of the build (referee/vision/infront.py; the issue on
unseen tables, item 5): found on the board's black print, and a stone whose face ends on its
top has its foot hidden, never a unit of snow under it."""

import json
from dataclasses import replace

import numpy as np

from referee.vision.assemble import assemble
from referee.vision.infront import Piece, _print, foot_hidden, in_front, light_on_print
from referee.vision.photo import read_photo
from referee.vision.pipeline import measure
from referee.vision.rectify import FrontView
from referee.vision.settings import default_settings
from referee.vision.station import load_station

from .test_vision_trust import HARD, U, codes, fit

TABLE_BAND = 7.0  # mm: a face lower than this stands on the table


def _front(under_lab):
    """A front view's Lab (the paper L 100) that is `under_lab` everywhere."""
    view = FrontView.for_settings(2.0, 260.0)
    return np.broadcast_to(np.float32(under_lab), (view.height, view.width, 3)), view


def test_a_face_ending_a_unit_up_on_what_looks_like_a_piece_has_its_foot_hidden():
    behind = [Piece(0.5 * U, 3.0 * U, np.array([[85.0, 0.0, -2.0]]))]  # white, over 0.5–3 u
    lab, view = _front((95.0, 1.0, -1.0))   # under a face: the piece's top, lighter

    def hidden(f, pieces=behind, lab=lab):
        return foot_hidden(f, pieces, lab, view, U, 0.5, TABLE_BAND, 1.15, 15.0, 25.0)

    on_top = fit("B", "V", 1, 0.9)  # its face ends on the piece's top
    assert hidden(on_top)
    # on the table (within the band), or well above the piece's top: its end is its own
    assert not hidden(fit("B", "V", 1, 0.3)) and not hidden(fit("B", "V", 1, 2.0))
    # beside the piece, or with nothing in front
    assert not hidden(fit("B", "V", 5, 0.9)) and not hidden(on_top, [])
    # a lying bar needs half its width behind the piece
    assert not hidden(fit("G", "H", 2.5, 0.9)) and hidden(fit("G", "H", 0.5, 0.9))
    # under the face, the front of a unit of snow it stands on, in the build's own light
    assert not hidden(on_top, lab=_front((45.0, 0.0, 0.0))[0])
    # ... or something of another colour than the piece (an orange stone lying in front)
    assert not hidden(on_top, [Piece(0.5 * U, 3.0 * U, np.array([[60.0, 12.0, 43.0]]))])


def test_a_hidden_foot_is_stone_hidden_and_no_stone_of_the_build():
    s = default_settings()
    grey, blue = fit("G", "H", 0, 0), fit("B", "V", 6, 0.9, foot_hidden=True)
    build = assemble([grey, blue], U, 2.0, s, "GB", chromatic="B")
    assert codes(build) == ["stone:hidden:B"]
    assert [st.colour for st in build.stones] == ["G"]
    assert "in front of the build" in build.problems[0].text
    # the same fit without the flag rests on a unit of snow, which is what went wrong
    build = assemble([grey, replace(blue, foot_hidden=False)], U, 2.0, s, "GB", chromatic="B")
    assert codes(build) == [] and next(st for st in build.stones if st.colour == "B").z_u == 1


def _qd0105():
    st = load_station(HARD / "stations/QD01/station.json")
    return st, read_photo(HARD / "scenes/QD01-05/image.jpg")


def test_the_piece_in_front_of_qd0105_is_found_and_the_blue_bar_hung_from_its_top():
    """QD01-05 (the twenty-seventh session's unseen QD, a correct build judged wrong): an L
    of snow lies flat in front of the blue bar standing on the table, over the board's first
    row. Its top, seen 0.9 u up the bar, held the bar up as a unit of snow would (both
    paths: position:B for certain). The piece shows light on the black print; the bar's top
    end (its top face's edge) puts it on the table: placed so, and weak."""
    st, image = _qd0105()
    label = json.loads((HARD / "scenes/QD01-05/label.json").read_text())
    m = measure(image, st)
    blue = next(f for f in m.fits if f.colour == "B")
    assert blue.behind and blue.anchored and not blue.foot_hidden
    assert abs(blue.h_mm) < 0.3 * st.unit_mm
    stone = next(s for s in m.build.stones if s.colour == "B")
    assert stone.z_u == 0 and stone.weak
    # the spans lie over the piece's footprint, carried onto the line (WORLD.md §5)
    s = default_settings().in_front
    pieces = in_front(image, m.pose, m.paper_bgr, m.view, st.unit_mm, s.px_per_mm,
                      s.erode_mm, s.light_share, s.min_area_u2, s.reach_u)
    foot = label["truth"]["occluder"]["footprint_board_mm"]
    lo, hi = min(p[0] for p in foot), max(p[0] for p in foot)
    assert pieces and all(lo - 2 * st.unit_mm < p.x0_mm < p.x1_mm < hi + 2 * st.unit_mm
                          for p in pieces)
    assert all(np.median(p.lab[:, 0]) > 70 and np.abs(np.median(p.lab[:, 1:], axis=0)).max() < 5
               for p in pieces)
    # the rule off: the fit held up by the piece, a unit up, as before
    d = default_settings()
    off = measure(image, st, replace(d, in_front=replace(d.in_front, enabled=False)))
    assert next(s for s in off.build.stones if s.colour == "B").z_u == 1


def test_a_piece_is_compared_with_what_shows_under_a_face_on_the_front_views_scale():
    """QH02-01 (this session's unseen QH, a correct build judged wrong for certain, as
    QD01-05 was): a flat I of snow in front of the purple bar standing on the table, its
    top seen 0.7 u up the bar. Its lightness on the board was first read against the white
    print around it (0.95) and under the bar against the paper (0.79): not alike, so the
    bar stood on a unit of snow. Both are read on the front view's scale now (white-balanced
    on the paper, `colour.to_lab`): the bar is placed from its top end, on the table."""
    st = load_station(HARD / "stations/QH02/station.json")
    m = measure(read_photo(HARD / "scenes/QH02-01/image.jpg"), st)
    purple = next(f for f in m.fits if f.colour == "P")
    assert purple.behind and abs(purple.h_mm) < 0.3 * st.unit_mm
    assert next(s for s in m.build.stones if s.colour == "P").z_u == 0


def test_a_bar_behind_a_piece_whose_top_end_agrees_is_kept():
    """E03-02 (dev-scenes-2, correct): a standing snow piece in front of the orange bar, by
    the purple bar standing on a unit of snow. The purple's face ends 0.8 u up, over the
    piece's span, but its top end (the blue bar lies on it) agrees with the fit: kept as
    fitted, on its snow, and the build is correct."""
    st = load_station(HARD / "stations/E03/station.json")
    m = measure(read_photo(HARD / "scenes/E03-02/image.jpg"), st)
    purple = next(f for f in m.fits if f.colour == "P")
    assert not purple.behind and not purple.foot_hidden
    assert next(s for s in m.build.stones if s.colour == "P").z_u == 1


def test_a_standing_bar_whose_top_end_is_not_seen_keeps_its_foot_hidden():
    """behind_piece on a blank front view: no top end shows, so the foot stays hidden."""
    from referee.vision.choose import behind_piece

    view = FrontView.for_settings(2.0, 260.0)
    masks = {c: np.zeros((view.height, view.width), bool) for c in "GB"}
    lum = np.full((view.height, view.width), 50.0, np.float32)
    f = fit("B", "V", 6, 0.9)
    assert behind_piece(f, masks, lum, view, U, (0.0, 8.0), "B", 0.25).foot_hidden
    lying = fit("G", "H", 0, 0.9)
    assert behind_piece(lying, masks, lum, view, U, (0.0, 8.0), "B", 0.25).foot_hidden


def test_snow_on_a_bars_top_counts_only_under_a_stone_it_holds_up():
    """`choose._held_above`: a stone lying or standing over the bar's column, its bottom one
    to three whole units over the bar's top, is held up by snow on the bar; a stone at a
    unit and a half, or beside the column, or a patch held up by nothing, is not (a white
    thing far behind may show there)."""
    from referee.vision.choose import _held_above

    bar = fit("P", "V", 2, 1)              # its top at 6 u
    assert _held_above(bar, [fit("B", "V", 2, 7)], U, 0.5)        # a unit of snow under it
    assert _held_above(bar, [fit("G", "H", 0, 8.1)], U, 0.5)      # two units, lying across
    assert not _held_above(bar, [fit("B", "V", 2, 7.5)], U, 0.5)  # not whole units
    assert not _held_above(bar, [fit("B", "V", 4, 7)], U, 0.5)    # beside it
    assert not _held_above(bar, [fit("B", "V", 2, 6)], U, 0.5)    # on it: its top end shows
    assert not _held_above(bar, [], U, 0.5)
    # a patch of colour held up by nothing, or hardly showing, is no stone resting there
    assert not _held_above(bar, [fit("B", "V", 2, 7, supported=False)], U, 0.5)
    assert not _held_above(bar, [fit("B", "V", 2, 7, fill=0.2)], U, 0.5)


def test_qn0102s_purple_bar_is_placed_from_the_snow_on_its_top():
    """QN01-02 (the twenty-ninth session's unseen QN, a correct build): a snow piece stands in
    front of the purple bar, which stands on a unit of snow with a snow cube on its top under
    the blue bar. Its face ends a unit up over the piece, and its top end shows only as the
    snow on it: `stone:hidden:P` until snow on the top counted where it holds a stone up."""
    from .conftest import scene_check

    assert scene_check(HARD, "QN01-02").verdict.verdict == "correct"
    st = load_station(HARD / "stations/QN01/station.json")
    m = measure(read_photo(HARD / "scenes/QN01-02/image.jpg"), st)
    purple = next(f for f in m.fits if f.colour == "P")
    assert not purple.foot_hidden and abs(purple.h_mm - st.unit_mm) < 0.25 * st.unit_mm


def test_a_board_with_nothing_on_it_shows_no_piece():
    """A clean photo (hard-scenes P01-02: no piece in front, the build's shadow on the
    paper) shows nothing on the black print."""
    st = load_station(HARD / "stations/P01/station.json")
    image = read_photo(HARD / "scenes/P01-02/image.jpg")
    m = measure(image, st)
    s = default_settings().in_front
    assert not light_on_print(image, m.pose, s.px_per_mm, s.erode_mm, s.light_share)[0].any()
    assert in_front(image, m.pose, m.paper_bgr, m.view, st.unit_mm, s.px_per_mm, s.erode_mm,
                    s.light_share, s.min_area_u2, s.reach_u) == []
    assert not any(f.foot_hidden for f in m.fits)


def _synthetic_photo(piece_mm=None):
    """A 1280×720 photo of the board's print on white paper, from a camera 400 mm in front
    of the board and 300 mm up, with a white patch (x0, x1, y0, y1 board mm) on it."""
    import cv2

    from referee.vision.pose import Pose

    k = np.array([[1000.0, 0, 640], [0, 1000.0, 360], [0, 0, 1]])
    centre = np.array([140.0, 450.0, -300.0])    # board mm: in front of the board, up
    look = np.array([140.0, 20.0, 0.0]) - centre
    z = look / np.linalg.norm(look)
    x = np.cross(z, [0.0, 0.0, -1.0])
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    r = np.stack([x, y, z])
    rvec, _ = cv2.Rodrigues(r)
    pose = Pose(rvec, (-r @ centre).reshape(3, 1), k, np.zeros(5), 40, 0.3)
    ppm = 4.0
    paper = np.full((round(200 * ppm), round(300 * ppm)), 255, np.uint8)  # board at (10, 40)
    ref = _print(ppm)
    paper[round(40 * ppm):round(40 * ppm) + ref.shape[0],
          round(10 * ppm):round(10 * ppm) + ref.shape[1]] = ref
    if piece_mm is not None:
        x0, x1, y0, y1 = piece_mm
        paper[round((40 + y0) * ppm):round((40 + y1) * ppm),
              round((10 + x0) * ppm):round((10 + x1) * ppm)] = 235
    src = np.array([[0, 0], [paper.shape[1], 0], [paper.shape[1], paper.shape[0]],
                    [0, paper.shape[0]]], np.float32)
    corners = np.array([[-10, -40, 0], [290, -40, 0], [290, 160, 0], [-10, 160, 0]], float)
    h = cv2.getPerspectiveTransform(src, pose.project(corners).astype(np.float32))
    gray = cv2.warpPerspective(paper, h, (1280, 720), borderValue=90)
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), pose


def test_white_laid_on_the_black_print_is_found_there_only():
    """A synthetic photo of the board with a white patch on the first row's fourth black
    square (x 165–190 mm, y 5–30 mm): found there and nowhere else; and its span on the
    build line lies behind it, as its camera rays carry it."""
    s = default_settings().in_front
    clean, pose = _synthetic_photo()
    assert not light_on_print(clean, pose, s.px_per_mm, s.erode_mm, s.light_share)[0].any()
    photo, pose = _synthetic_photo((165.0, 190.0, 5.0, 30.0))
    light, seen = light_on_print(photo, pose, s.px_per_mm, s.erode_mm, s.light_share)
    ys, xs = np.nonzero(light)
    assert len(ys) > 0.5 * (19 * 19 * s.px_per_mm ** 2)  # most of it, shrunk by erode_mm
    x, y = (xs + 0.5) / s.px_per_mm, (ys + 0.5) / s.px_per_mm  # board mm (a pixel's blur)
    assert 164 <= x.min() and x.max() <= 191 and 4 <= y.min() and y.max() <= 31
    view = FrontView.for_settings(2.0, 260.0)
    assert float(np.median(seen[light])) == 235   # the patch, as painted
    white = np.full(3, 255.0)
    pieces = in_front(photo, pose, white, view, U, s.px_per_mm, s.erode_mm, s.light_share,
                      s.min_area_u2, 0.0)
    # the camera stands at x = 140, so a patch right of it is carried further right
    assert len(pieces) == 1 and 165 < pieces[0].x0_mm < pieces[0].x1_mm < 200
    assert 90 < np.median(pieces[0].lab[:, 0]) < 96   # 235 of 255, white-balanced
