"""When a fit is weak (issue 11): its colour fits a stone's shape, but something says it may
sit a unit off (an end unit unlike the rest, light between it and the bar on it, its top
face missing, a groove-less grey as light as snow), so where it agrees with the card it
counts and no fault rests on it alone. Each rule on crafted front views (16 mm units) or
the fixture photo it failed on (split from test_vision_bar_ends.py)."""

from dataclasses import replace

import numpy as np

from referee.paths import FIXTURES
from referee.vision.assemble import assemble
from referee.vision.fit import BarFit
from referee.vision.photo import read_photo
from referee.vision.settings import default_settings

from .test_vision_trust import U, fit


def test_a_face_whose_end_unit_is_unlike_the_rest_is_odd():
    """NO04-05: a dark grey bar's left unit behind a snow piece in front, the shadow under
    the blue's overhang beside its right end as dark: fitted a unit right, its last unit
    on the shadow (L 28 against its own 12–20). An end segment stepping away from its
    neighbour by more than twice the steps inside is odd (the fit is then weak); a lamp's
    gradient along a bar, or an even bar, is not."""
    from referee.vision.ends import odd_end
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    u = int(U * 2)
    col, bottom = (int(round(float(v))) for v in view.to_px(100.0, 0.0))
    bar = BarFit("G", "H", 100.0, 0.0, 0.94, 0.78)

    def lying(levels: list[float]) -> np.ndarray:
        lum = np.full((view.height, view.width), 90.0, np.float32)
        for k, level in enumerate(levels):
            lum[bottom - u:bottom, col + k * u:col + (k + 1) * u] = level
        return lum

    s = default_settings().fit
    args = (s.light_min_step, s.odd_end_k)
    assert odd_end(lying([12, 20, 20, 13, 28]), view, U, bar, *args)
    assert odd_end(lying([40, 20, 20, 13, 14]), view, U, bar, *args)  # the other end
    assert not odd_end(lying([48, 46, 44, 43, 41]), view, U, bar, *args)  # a gradient
    assert not odd_end(lying([20, 21, 20, 19, 20]), view, U, bar, *args)
    assert not odd_end(lying([12, 30, 12, 30, 24]), view, U, bar, *args)  # steps inside too
    standing = replace(bar, orientation="V", h_mm=20.0)  # the same along a standing bar
    lum = np.full((view.height, view.width), 90.0, np.float32)
    c, b = (int(round(float(v))) for v in view.to_px(100.0, 20.0))
    for k, level in enumerate([12, 20, 20, 13, 28]):
        lum[b - (k + 1) * u:b - k * u, c:c + u] = level
    assert odd_end(lum, view, U, standing, *args)


def test_light_between_a_lying_bar_and_the_bar_on_it_makes_the_lower_fit_weak():
    """M03-05 saved again as a JPEG: the grey bar fitted 3 u left, under the purple bar's
    overhang, the paper lit between them over two units (L 65–70 above both faces). Where
    the lower bar's own lit top face shows there instead (its colour), or the seam is dark,
    or only a glint lights it, or the bar on it is lifted off it, the fit stays as it was."""
    from referee.vision.ends import lit_seam
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    u = int(U * 2)
    col, bottom = (int(round(float(v))) for v in view.to_px(100.0, 0.0))
    grey, purple = BarFit("G", "H", 100.0, 0.0, 0.74, 0.72), BarFit("P", "H", 100.0, U, .9, .8)
    s = default_settings().fit

    def seam(level: float, units: range, coloured: bool = False, rows: int = u // 8
             ) -> tuple[np.ndarray, ...]:
        lum = np.full((view.height, view.width), 90.0, np.float32)
        lum[bottom - u:bottom, col:col + 5 * u] = 30.0  # the grey's face
        lum[bottom - 2 * u:bottom - u, col:col + 5 * u] = 25.0  # the purple's, on it
        mask = np.zeros(lum.shape, bool)
        mask[bottom - u:bottom, col:col + 5 * u] = True
        for j in units:  # a band 2 × `rows` tall across the seam (0.25 u)
            cs = slice(col + j * u, col + (j + 1) * u)
            lum[bottom - u - rows:bottom - u + rows, cs] = level
            mask[bottom - u - rows:bottom - u + rows, cs] = coloured
        return lum, mask

    args = (s.lit_seam_l, s.lit_seam_fill)
    assert lit_seam(*seam(95.0, range(1, 3)), view, U, grey, [purple], *args)
    assert not lit_seam(*seam(95.0, range(1, 3)), view, U, purple, [grey], *args)  # on top
    assert not lit_seam(*seam(60.0, range(5)), view, U, grey, [purple], *args)  # a top face
    assert not lit_seam(*seam(95.0, range(5), coloured=True), view, U, grey, [purple], *args)
    assert not lit_seam(*seam(12.0, range(5)), view, U, grey, [purple], *args)  # a dark seam
    # a glint on a bevel, 2 px tall (a second break-it trial): no gap of light
    assert not lit_seam(*seam(100.0, range(5), rows=1), view, U, grey, [purple], *args)
    lifted = replace(purple, h_mm=1.7 * U)  # on snow: the snow's face between them is no seam
    assert not lit_seam(*seam(95.0, range(1, 3)), view, U, grey, [lifted], *args)
    standing = replace(grey, orientation="V")
    assert not lit_seam(*seam(95.0, range(1, 3)), view, U, standing, [purple], *args)


def test_a_grey_bar_fitted_on_the_shadow_under_an_overhang_is_no_ground_for_a_fault():
    """M03-05 (a correct build) as a phone's photo saved again at JPEG quality 90 (a
    break-it trial): the grey fitted 3 u left under the purple's overhang was judged a
    position fault with confidence; the paper lit between them makes that fit weak."""
    import cv2

    from referee.check import check_photo
    from referee.vision.station import load_station

    root = FIXTURES / "hard-scenes"
    image = read_photo(root / "scenes" / "M03-05" / "image.jpg")
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    again = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    station = load_station(root / "stations" / "M03" / "station.json")
    target = ["BBBBB...", "PPPPP...", "...GGGGG"]
    got = check_photo(again, station, target, "bear", overlay=False, intrinsics="from-mat")
    assert got.verdict.verdict == "unsure"
    off = replace(default_settings(), fit=replace(default_settings().fit, lit_seam_l=0.0))
    got = check_photo(again, station, target, "bear", overlay=False, intrinsics="from-mat",
                      settings=off)
    assert got.verdict.verdict == "wrong"  # the fault the rule keeps off the penalty card


def test_a_standing_bar_whose_top_face_does_not_show_is_weak():
    """NS03-01: a piece in front hid a lavender bar's foot, and its face was fitted 0.7 u
    high onto its own top face, standing on the piece as on snow: a correct build judged
    wrong. A standing bar whose top face (the band above its front face) shows neither its
    colour nor its hue while nothing lies on it, and looks like what lies beyond it, is weak;
    its colour there, its hue lit pale (D01-04), a face lit off its hue but unlike what is
    behind (NU02-03), a stone or snow on it, a band too thin to show, or a lying bar, is
    not."""
    from referee.vision.ends import bare_top
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    u = int(U * 2)
    band = (-1.9, 13.0)  # mm for a depth of 1 u: the top face shows 13 mm tall
    bar = BarFit("P", "V", 100.0, 15.0, 0.75, 0.75)
    col, bottom = (int(round(float(v))) for v in view.to_px(100.0, 15.0))
    top = bottom - 5 * u
    lab = np.zeros((view.height, view.width, 3), np.float32)
    lab[...] = (78.0, 10.0, 19.0)  # a tan table (hue 62°)
    lab[top:bottom, col:col + u] = (68.0, 24.0, -37.0)  # the lavender face (hue −57°)
    mask = np.zeros((view.height, view.width), bool)
    mask[top:bottom, col:col + u] = True  # the colour ends at the fitted top
    cover = np.zeros_like(mask)
    s = default_settings()
    args = (s.fit.bare_top_fill, s.fit.bare_top_band_u, s.fit.bare_top_hue_deg,
            s.colour.neutral_chroma, 13.0, 0.4)
    assert bare_top(mask, cover, lab, view, U, bar, band, *args)
    sky = lab.copy()
    sky[top - 26:top, col - 4:col + u] = (93.0, -21.0, -11.0)  # lit off its hue (NU02-03),
    assert not bare_top(mask, cover, sky, view, U, bar, band, *args)  # unlike what is behind
    shown = mask.copy()
    shown[top - 26:top, col - 4:col + u] = True  # its top face, of its colour
    assert not bare_top(shown, cover, lab, view, U, bar, band, *args)
    pale = lab.copy()
    pale[top - 26:top, col - 4:col + u] = (92.0, 9.0, -14.0)  # lit pale, its hue kept
    assert not bare_top(mask, cover, pale, view, U, bar, band, *args)
    on_it = cover.copy()
    on_it[top - 26:top, col - 4:col + u] = True  # snow or a stone sits on it
    assert not bare_top(mask, on_it, lab, view, U, bar, band, *args)
    assert not bare_top(mask, cover, lab, view, U, bar, (-1.9, 3.0), *args)  # level with it
    assert not bare_top(mask, cover, lab, view, U, replace(bar, orientation="H"), band, *args)
    # weak, so that no fault rests on it alone
    b = assemble([fit("G", "V", 0, 0), replace(fit("P", "V", 2, 1), bare_top=True)], U, 2.0,
                 default_settings(), "GP")
    assert [st.weak for st in b.stones] == [False, True]


def test_a_grooveless_grey_face_as_light_as_the_snow_is_weak():
    """OL01-02: a light grey learned at L 73 from a clipped colour photo; a snow pillar at
    L 90, tinted like the grey by a paper clipped in red, was taken for the grey stone 4 u
    from where it stood, and a correct build judged wrong. A groove-less grey face whose
    pixels of its colour lie past half the way from the grey's L to the snow's may be snow:
    weak. With grooves, darker, or without pixels of its colour, it is not."""
    from referee.vision.ends import snow_like
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    u = int(U * 2)
    col, bottom = (int(round(float(v))) for v in view.to_px(100.0, 0.0))
    pillar = BarFit("G", "V", 100.0, 0.0, 0.89, 0.86)
    lum = np.full((view.height, view.width), 60.0, np.float32)
    mask = np.zeros((view.height, view.width), bool)
    mask[bottom - 5 * u:bottom, col:col + u] = True
    lum[bottom - 5 * u:bottom, col:col + u] = 90.0
    split = default_settings().fit.snow_split
    assert snow_like(mask, lum, view, U, pillar, 73.0, 96.0, split)
    assert not snow_like(mask, lum, view, U, replace(pillar, grooves=True), 73.0, 96.0, split)
    assert not snow_like(mask, lum, view, U, pillar, 73.0, 110.0, split)  # nearer the grey
    dark = lum.copy()
    dark[bottom - 5 * u:bottom, col:col + u] = 59.0  # the grey stone itself, in shade
    assert not snow_like(mask, dark, view, U, pillar, 73.0, 96.0, split)
    # only its colour's pixels count: lit snow beside a dark grey face changes nothing
    half = dark.copy()
    half[bottom - 5 * u:bottom, col + u // 2:col + u] = 95.0
    half_mask = mask.copy()
    half_mask[bottom - 5 * u:bottom, col + u // 2:col + u] = False
    assert not snow_like(half_mask, half, view, U, pillar, 73.0, 96.0, split)
    assert not snow_like(np.zeros_like(mask), lum, view, U, pillar, 73.0, 96.0, split)
    # weak, so that no fault rests on it alone
    b = assemble([fit("B", "V", 0, 0), replace(fit("G", "V", 2, 1), snow_like=True)], U, 2.0,
                 default_settings(), "GB")
    assert [(st.colour, st.weak) for st in b.stones] == [("B", False), ("G", True)]


def test_a_top_face_higher_up_shows_thinner():
    """NU04-01: a blue bar's top 146 mm up showed a top face of about 1 mm where the band at
    the build zone's centre (40 mm up) said 5.3 mm, so its top face "did not show" and a
    wrong build's colour faults were set aside. The band is taken where it is asked: a point
    nearer the camera's height shows less of what lies behind it."""
    from referee.vision.fit import band_vector_mm
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    root = FIXTURES / "dev-scenes"
    scene = sorted((root / "scenes").iterdir())[0]
    station = load_station(root / "stations" / scene.name.split("-")[0] / "station.json")
    m = measure(read_photo(scene / "image.jpg"), station)
    assert m.pose is not None and m.view is not None
    low = band_vector_mm(m.pose, m.view, U)
    assert band_vector_mm(m.pose, m.view, U, (140.0, 40.0)) == low  # the zone's centre
    high = band_vector_mm(m.pose, m.view, U, (140.0, 150.0))
    assert 0 < high[1] < low[1]
