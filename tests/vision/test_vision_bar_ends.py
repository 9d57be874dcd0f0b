"""Where a bar ends (issue 11): a bar's ends pinned by its lightness and its top edge, its
top end found past a lit segment, snow on it or a stone beside it, and candidates that slide
or run off the search region, each rule on crafted front views (16 mm units) or the fixture
photo it failed on."""

from dataclasses import replace

import numpy as np

from referee.paths import FIXTURES
from referee.vision.assemble import assemble
from referee.vision.fit import BarFit
from referee.vision.photo import read_photo
from referee.vision.settings import default_settings

from .test_vision_trust import U, fit


def test_a_standing_bar_is_pinned_where_its_lightness_ends():
    """G03-03: snow in shade takes a grey stone's colour, so the mask runs on below the
    stone's foot; its lightness does not. A face placed a unit low, half on the snow, is not
    even, and pins nothing; a face without the bar's colour in every segment neither."""
    from referee.vision.ends import lightness_pinned
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    u = int(U * 2)
    lum = np.full((view.height, view.width), 62.0, np.float32)  # a wall behind
    grey = np.ones(lum.shape, bool)  # everything "grey": the mask tells nothing
    col, bottom = (int(round(float(v))) for v in view.to_px(100.0, 3 * U))
    lum[bottom - 5 * u:bottom, col:col + u] = 21.0  # the stone, 3 u up to 8 u
    lum[bottom:, col:col + u] = 46.0  # the snow pillar in shade under it
    lum[bottom - 5 * u - 4:bottom - 5 * u, col:col + u] = 28.0  # its top face
    for k in range(1, 5):  # the grooves
        lum[bottom - k * u - 1:bottom - k * u + 1, col:col + u] = 10.0
    s = default_settings().fit
    args = (s.light_min_step, s.light_spread_k, s.light_min_fill)
    bar = BarFit("G", "V", 100.0, 3 * U, 0.99, 0.9)
    assert lightness_pinned(grey, lum, view, U, bar, *args) == (True, True)
    low = replace(bar, h_mm=2 * U)  # half on the snow: uneven
    assert lightness_pinned(grey, lum, view, U, low, *args) == (False, False)
    # a snow pillar as light as the stone: nothing beyond its foot differs
    even = lum.copy()
    even[bottom:, col:col + u] = 22.0
    assert lightness_pinned(grey, even, view, U, bar, *args) == (False, True)
    # a segment without the stone's colour (a wall as light as the stone, G04-07)
    part = grey.copy()
    part[bottom - 5 * u:bottom - 4 * u, :] = False
    assert lightness_pinned(part, lum, view, U, bar, *args) == (False, False)
    # a lying bar is pinned by its top edge instead (`edge_pinned`)
    assert lightness_pinned(grey, lum, view, U, replace(bar, orientation="H"), *args) == \
        (False, False)


def test_a_lying_bar_is_pinned_where_its_lightness_ends_under_a_gradient():
    """NH03-04: a light grey bar lying on the blue, a unit-wide shadow of its shade beyond
    its right end, the stone beside its left; NC04-04: a lamp lights a lying bar L 48 at
    one end and 41 at the other. Both ends are pinned where the lightness steps past
    them; a face placed a unit to the right, one segment on the shadow, is not even and
    pins nothing; without `lying` a lying bar is left to its top edge."""
    from referee.vision.ends import lightness_pinned
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    u = int(U * 2)
    lum = np.full((view.height, view.width), 80.0, np.float32)  # a light wall behind
    grey = np.ones(lum.shape, bool)  # everything "grey": the mask tells nothing
    col, bottom = (int(round(float(v))) for v in view.to_px(100.0, 2 * U))
    for k in range(5):  # the stone, 2 u up, lit 48 at its left end down to 41 at its right
        lum[bottom - u:bottom, col + k * u:col + (k + 1) * u] = 48.0 - 1.75 * k
        if k:
            lum[bottom - u:bottom, col + k * u - 1:col + k * u + 1] = 30.0  # a groove
    lum[bottom - u:bottom, col + 5 * u:col + 7 * u] = 25.0  # its shadow, right of it
    lum[bottom - u:bottom, col - u:col] = 60.0  # the stone beside its left end
    s = default_settings().fit
    args = (s.light_min_step, s.light_spread_k, s.light_min_fill)
    bar = BarFit("G", "H", 100.0, 2 * U, 0.99, 0.9)
    assert lightness_pinned(grey, lum, view, U, bar, *args, lying=True) == (True, True)
    right = replace(bar, x_mm=100.0 + U)  # a unit into the shadow: uneven
    assert lightness_pinned(grey, lum, view, U, right, *args, lying=True) == (False, False)
    assert lightness_pinned(grey, lum, view, U, bar, *args) == (False, False)


def test_a_stone_on_snow_on_a_stone_rests_whole_units_above_it():
    """V02-06: a purple bar lies on a unit of snow standing on the blue bar, the whole build
    lifted a unit (white square). The blue settled 0.04 u down; the purple, measured 1.24 u
    above the blue's top, is within the doubt of one unit of snow on it, and goes onto it."""
    s = default_settings()
    doubt = 0.276 * U
    b = assemble([fit("B", "H", 0, 3.043), fit("P", "H", 0, 5.283)], U, doubt, s, "BP")
    assert {st.colour: st.z_u for st in b.stones} == {"B": 3.0, "P": 5.0}
    # propped by something thinner than snow (a `contact` fault), it keeps its height
    b = assemble([fit("B", "H", 0, 3.043), fit("P", "H", 0, 4.65)], U, doubt, s, "BP")
    assert {st.colour: st.z_u for st in b.stones} == {"B": 3.0, "P": 4.65}


def test_a_standing_bar_cannot_slide_below_the_table():
    """V08-03: the shadow in front of a grey bar standing on the table is as grey as the bar,
    so the bar seemed free to slide a unit down, under the table, and was called hidden. A
    bar slides only where it could stand (`floor_mm`); upward the shadow does not help it."""
    from referee.vision.ends import length_slack_u
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 120.0)
    mask = np.zeros((view.height, view.width), bool)
    f = BarFit("G", "V", 100.0, 0.0, 0.99, 0.9, True, True)
    c0, r_bottom = view.to_px(100.0, 0.0)
    c1, r_top = view.to_px(100.0 + U, 5 * U)
    c0, c1, r_top, r_bottom = int(c0), int(c1), int(r_top), int(r_bottom)
    mask[r_top:r_bottom, c0:c1] = True  # the bar's face
    mask[r_bottom:, c0:c1] = True  # its shadow on the table in front, down to the view's foot
    band = (0.0, 0.0)
    assert length_slack_u(mask, view, U, f, band, 0.5) >= 0.5  # free to slide down, alone
    assert length_slack_u(mask, view, U, f, band, 0.5, floor_mm=-4.0) == 0.0


def test_a_stone_on_the_table_whose_shadow_runs_below_it_is_found():
    """D01-07: the grey stone lies on the table in the shade of the blue one, and the shade
    on the paper in front is as grey as the stone, so its best fit sat just below the
    lowest height searched. Such a peak is the stone on the table, not a thing beyond the
    search region: the stone is found there, not on a grey box far behind the mat."""
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    dev = FIXTURES / "dev-scenes"
    st = load_station(dev / "stations/D01/station.json")
    m = measure(read_photo(dev / "scenes/D01-07/image.jpg"), st)
    grey = next(f for f in m.fits if f.colour == "G")
    assert grey.orientation == "H" and grey.supported and grey.fill > 0.9
    assert abs(grey.h_mm / st.unit_mm) < 0.25


def _painted(view, rects):
    """A front-view mask with the (x, h, w, height) mm rectangles set."""
    mask = np.zeros((view.height, view.width), bool)
    for x, h, w, hh in rects:
        c0, r1 = view.to_px(x, h)
        c1, r0 = view.to_px(x + w, h + hh)
        mask[max(int(r0), 0):int(r1), max(int(c0), 0):int(c1)] = True
    return mask


def test_a_patch_running_off_the_top_of_the_search_region_is_no_stone():
    """G01-01: a grey backdrop fills the top of the view. Its template peaks sit a pixel or
    two inside the search region's top edge, where the patch runs on beyond it; they took
    every place of the grey candidates, and the grey stone on the build was not among them.
    A peak within a tenth of a unit of the region's edge is no maximum."""
    from referee.vision.fit import bar_candidates
    from referee.vision.mat import PAPER_BEYOND
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 260.0)
    x0, x1 = PAPER_BEYOND[:2]
    regions = {"H": (x0 - 2.5 * U, x1 - 2.5 * U, -3.0, 260.0 - U),
               "V": (x0 - 0.5 * U, x1 - 0.5 * U, -3.0, 260.0 - 5 * U)}
    bar = (x0 + 2 * U, 3 * U, 5 * U, U)  # a grey bar 3 u up
    backdrop = (view.x0_mm, 243.0, 400.0, 60.0)  # 1 mm under the region's top (244 mm) and up
    cands = bar_candidates(_painted(view, [bar, backdrop]), "G", view, U, (0.0, 0.0),
                           regions, None, per_orientation=4)
    hs = sorted(round(c.h_mm / U, 1) for c in cands if c.orientation == "H")
    assert 3.0 in hs
    assert all(h < 260.0 / U - 1.5 for h in hs), hs


def test_a_wall_of_the_colour_leaves_room_among_the_candidates_for_the_stone():
    """R03-02: a purple wall high up in the view; its template peaks (a plateau, all over the
    patch) took every place of the purple candidates, and the purple bar of the build, an end
    hidden by a piece in front (so it scores lower), was not among them: the wall was chosen
    and the stone judged unsupported. The best peak of each patch of the colour comes first."""
    from referee.vision.fit import bar_candidates
    from referee.vision.mat import PAPER_BEYOND
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 260.0)
    x0, x1 = PAPER_BEYOND[:2]
    regions = {"H": (x0 - 2.5 * U, x1 - 2.5 * U, -3.0, 260.0 - U),
               "V": (x0 - 0.5 * U, x1 - 0.5 * U, -3.0, 260.0 - 5 * U)}
    bar = (x0 + 3 * U, 2 * U, 4 * U, U)  # 4 of its 5 units seen, 2 u up
    wall = (x0, 150.0, 14 * U, U)         # a wall's strip, a unit tall, inside the region
    cands = bar_candidates(_painted(view, [bar, wall]), "P", view, U, (0.0, 0.0),
                           regions, None, per_orientation=4)
    lying = [c for c in cands if c.orientation == "H"]
    assert len(lying) == 4
    assert any(abs(c.h_mm / U - 2.0) < 0.2 for c in lying), [(c.x_mm, c.h_mm) for c in lying]


def test_a_candidate_that_slides_gives_way_to_one_pinned_at_both_ends():
    """G01-03: a grey backdrop far up and the grey stone on the table scored alike (0.85);
    the backdrop, a patch wider than a bar, let its fit slide 2.5 u along its length (so
    `stone:hidden:G`, unsure). A candidate nearly as good whose ends are pinned is the stone."""
    from referee.vision.choose import pin, pinned_rival
    from referee.vision.mat import PAPER_BEYOND
    from referee.vision.rectify import FrontView

    s = default_settings()
    view = FrontView.for_settings(2.0, 260.0)
    x0 = PAPER_BEYOND[0]
    bar = (x0 + 2 * U, 0.0, 5 * U, U)  # the stone on the table
    patch = (x0, 8 * U, 15 * U, U)  # a grey band three bars long, 8 u up
    blue = (x0 + 7 * U, 0.0, U, 5 * U)  # a blue bar standing against the stone's end
    masks = {"G": _painted(view, [bar, patch]), "B": _painted(view, [blue])}
    lum = np.full((view.height, view.width), 50.0, np.float32)
    far = BarFit("G", "H", x0 + 5 * U, 8 * U, 1.0, 0.86, True)
    near = BarFit("G", "H", x0 + 2 * U, 0.0, 1.0, 0.84, True)
    b = BarFit("B", "V", x0 + 7 * U, 0.0, 1.0, 0.9, True)
    f = pin(far, masks, lum, view, U, (0.0, 0.0), "", s)
    assert f.slack_u >= s.fit.max_slack_u
    got = pinned_rival(f, [far, near], [f, b], masks, lum, view, U, (0.0, 0.0), "", s)
    assert (round(got.x_mm - x0, 1), round(got.h_mm, 1)) == (round(2 * U, 1), 0.0)
    assert got.slack_u < s.fit.max_slack_u
    # a rival clearly worse (beyond `rival_margin`) does not take the place
    worse = replace(near, score=0.86 - s.fit.rival_margin - 0.02)
    assert pinned_rival(f, [far, worse], [f, b], masks, lum, view, U, (0.0, 0.0), "", s) == f
    # nor one that touches no other stone (a shadow, a spare stone)
    assert pinned_rival(f, [far, near], [f], masks, lum, view, U, (0.0, 0.0), "", s) == f


def test_colour_beyond_a_bars_end_without_its_top_edge_is_no_more_of_the_bar():
    """W07-04: a light grey stone lies on the table; the paper beyond its end, in shade, comes
    out grey too, so the colour alone let the stone slide 2.3 u along its length
    (`stone:hidden:G`, unsure). A bar's front face ends at the top in an edge along its whole
    length (its top face, or snow on it, is lit otherwise); the shaded paper runs on
    smoothly there. Where the bar's own top edge shows and the grey beyond has none, the
    bar cannot slide that way."""
    from referee.vision.choose import pin
    from referee.vision.ends import edge_pinned
    from referee.vision.mat import PAPER_BEYOND
    from referee.vision.rectify import FrontView

    s = default_settings()
    view = FrontView.for_settings(2.0, 260.0)
    x0 = PAPER_BEYOND[0] + 2 * U
    bar = (x0, 0.0, 5 * U, U)
    shade = (x0 + 5 * U, 0.0, 3 * U, U)  # grey paper in shade beyond the right end
    masks = {"G": _painted(view, [bar, shade])}
    lum = np.full((view.height, view.width), 60.0, np.float32)
    lum[_painted(view, [bar])] = 45.0  # the face, darker than what is above its top edge
    lum[_painted(view, [shade])] = 45.0
    lum[_painted(view, [(x0 + 5 * U, U, 3 * U, U)])] = 45.0  # the paper runs on, no edge
    fit = BarFit("G", "H", x0, 0.0, 1.0, 0.9, True)
    # (the paper left of it, lit and without an edge, pins that end too)
    assert edge_pinned(masks["G"], lum, view, U, fit, (0.0, 0.0), s.fit.edge_min_step,
                       s.fit.edge_share) == (True, True)
    assert pin(fit, masks, lum, view, U, (0.0, 0.0), "", s).slack_u < s.fit.max_slack_u
    # where the grey beyond shows a top edge like the bar's, it may be more of the bar
    lum[_painted(view, [(x0 + 5 * U, U, 3 * U, U)])] = 60.0
    assert edge_pinned(masks["G"], lum, view, U, fit, (0.0, 0.0), s.fit.edge_min_step,
                       s.fit.edge_share) == (True, False)
    assert pin(fit, masks, lum, view, U, (0.0, 0.0), "", s).slack_u >= s.fit.max_slack_u
    # and a face with no top edge of its own is no evidence either way
    lum[:] = 45.0
    assert edge_pinned(masks["G"], lum, view, U, fit, (0.0, 0.0), s.fit.edge_min_step,
                       s.fit.edge_share) == (False, False)


def test_a_bar_whose_top_edge_stops_at_its_end_is_pinned_there_whatever_lies_beyond():
    """E06-01: a piece lying in front hid a bar's end, so the colour alone let it slide a unit
    (`stone:hidden`). A piece in front looks lower in the front view than it is, so the bar's
    top edge would still show above it if the bar ran on; where the edge stops at the fitted
    end, the bar ends there. W08-03: a fit placed 0.4 u beyond the bar's end, where the edge
    had already stopped, is not pinned on that side (it stays `stone:hidden`)."""
    from referee.vision.ends import edge_pinned
    from referee.vision.mat import PAPER_BEYOND
    from referee.vision.rectify import FrontView

    s = default_settings()
    view = FrontView.for_settings(2.0, 260.0)
    x0 = PAPER_BEYOND[0] + 2 * U
    mask = _painted(view, [(x0, 0.0, 3.5 * U, U)])  # the right 1.5 u hidden: not its colour
    lum = np.full((view.height, view.width), 60.0, np.float32)
    lum[_painted(view, [(x0, 0.0, 5 * U, U)])] = 45.0  # the bar, its top edge along it all
    lum[_painted(view, [(x0 + 3.5 * U, 0.0, 3 * U, 0.6 * U)])] = 80.0  # the piece in front
    fit = BarFit("G", "H", x0, 0.0, 0.7, 0.7, True)
    args = (view, U, fit, (0.0, 0.0), s.fit.edge_min_step, s.fit.edge_share)
    assert edge_pinned(mask, lum, *args) == (True, True)
    # the same fit 0.4 u left of the bar: its left end is off the bar, so not pinned there
    off = replace(fit, x_mm=x0 - 0.4 * U)
    assert edge_pinned(mask, lum, view, U, off, (0.0, 0.0), s.fit.edge_min_step,
                       s.fit.edge_share)[0] is False


def test_a_lit_top_segment_is_no_top_end_but_snow_on_the_bar_is():
    """X04-03 (an unseen set): a lamp lit a standing blue bar's top segment far lighter than
    the rest; the step between them was taken for the edge of its top face, the bar was
    hung from there a unit too low, and a correct build was judged wrong. A bar's sides show
    an edge along its whole height, so where they run on above such a step, the step is
    within the bar: no top end (unsure). A white snow piece sitting on the bar runs its
    sides on too, and there the step is the end (E01-01)."""
    from referee.vision.grooves import anchor_top
    from referee.vision.mat import PAPER_BEYOND
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 260.0)
    x0, band = PAPER_BEYOND[0] + 2 * U, 5.0
    fit = BarFit("B", "V", x0, U, 0.8, 0.8, True)  # placed a unit too high: its foot hidden
    nothing = np.zeros((view.height, view.width), bool)

    def scene(top_h, lit_above):
        lum = np.full((view.height, view.width), 20.0, np.float32)  # a dark backdrop
        lum[_painted(view, [(x0, 0.0, U, top_h)])] = 40.0  # the front face
        lum[_painted(view, [(x0, top_h, U, lit_above)])] = 75.0  # lit: a segment, snow
        return lum, _painted(view, [(x0, 0.0, U, top_h + band)])

    # the true top at 5 u (its top face above it, then the backdrop): hung from there
    lum, mask = scene(5 * U, band)
    got = anchor_top(fit, mask, lum, nothing, view, U, (0.0, band))
    assert got is not None and abs(got.h_mm) < 0.1 * U
    # a lit top segment (4–5 u) with the backdrop beside it: the step at 4 u is no end
    lum, mask = scene(4 * U, U)
    assert anchor_top(fit, mask, lum, nothing, view, U, (0.0, band)) is None
    # the same lightness, but white snow (no hue) sitting on the bar from 4 u: the end
    snow = _painted(view, [(x0, 4 * U, U, U)])
    got = anchor_top(fit, mask, lum, nothing, view, U, (0.0, band), neutral=snow)
    assert got is not None and abs(got.h_mm + U) < 0.1 * U


def test_a_stone_rising_beside_a_standing_bar_is_not_its_side_running_on():
    """N8 G04-05: an orange bar standing against a grey one that reaches 2 u higher, its
    foot behind a piece in front. The grey's edge ran on above the orange's top end, was
    taken for the orange's own side, and its top end for a lit segment: unplaced, unsure.
    Once the other stones are placed, a side along which one of them rises is no evidence."""
    from referee.vision.grooves import anchor_top
    from referee.vision.mat import PAPER_BEYOND
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 260.0)
    x0, band = PAPER_BEYOND[0] + 2 * U, 5.0
    fit = BarFit("O", "V", x0, U, 0.8, 0.8, True)  # placed a unit too high: its foot hidden
    nothing = np.zeros((view.height, view.width), bool)
    lum = np.full((view.height, view.width), 20.0, np.float32)  # a dark backdrop
    lum[_painted(view, [(x0, 0.0, U, 5 * U)])] = 40.0  # the front face
    lum[_painted(view, [(x0, 5 * U, U, band)])] = 75.0  # its top face
    grey = _painted(view, [(x0 + U + 1.0, 0.0, U, 7 * U)])
    lum[grey] = 55.0
    mask = _painted(view, [(x0, 0.0, U, 5 * U + band)])
    assert anchor_top(fit, mask, lum, nothing, view, U, (0.0, band)) is None
    got = anchor_top(fit, mask, lum, nothing, view, U, (0.0, band), beside=grey)
    assert got is not None and abs(got.h_mm) < 0.1 * U


def test_a_grey_bar_is_placed_from_a_coloured_stone_on_it_where_its_grooves_show():
    """OU04-05 (an unseen set): a blue bar stood on a grey one whose foot a snow piece in
    front hid; the grey was fitted a unit up, into the blue, and could slide: unsure. Snow in
    shade takes the grey's colour, so a grey bar is never hung from the top of its colour;
    but a coloured stone sitting on it ends it, where its grooves show that it is a stone
    (PE04-06: a 6 u snow pillar in shade under a purple bar, no grooves, stays unplaced)."""
    from referee.vision.choose import from_top
    from referee.vision.mat import PAPER_BEYOND
    from referee.vision.rectify import FrontView

    s = default_settings()
    view = FrontView.for_settings(2.0, 260.0)
    x0 = PAPER_BEYOND[0] + 2 * U
    fit = BarFit("G", "V", x0, U, 0.8, 0.8, True, slack_u=1.0)  # a unit up, sliding

    def scene(grooves: bool, on_top: str):
        lum = np.full((view.height, view.width), 20.0, np.float32)  # a dark backdrop
        lum[_painted(view, [(x0, 0.0, U, 5 * U)])] = 50.0  # the grey's face
        if grooves:
            for k in range(1, 5):
                lum[_painted(view, [(x0, k * U - 0.5, U, 1.0)])] = 30.0
        grey = _painted(view, [(x0, 0.6 * U, U, 4.4 * U)])  # its foot hidden in front
        top = _painted(view, [(x0, 5 * U, U, 5 * U)])
        masks = {"G": grey, "B": top if on_top == "B" else np.zeros_like(grey)}
        neutral = top if on_top == "snow" else np.zeros_like(grey)
        return masks, lum, neutral

    for on_top in ("B", "snow"):
        masks, lum, neutral = scene(True, on_top)
        got = from_top(fit, masks, lum, view, U, (0.0, 0.0), "B", s, neutral)
        if on_top == "B":  # a blue bar on it: hung from its foot, on the grooves
            assert got is not None and got.anchored and got.slack_u == 0.0
            assert abs(got.h_mm) < 0.15 * U
        else:  # snow on it may be snow in shade on top of more grey-looking snow
            assert got is None
    masks, lum, neutral = scene(False, "B")  # no grooves: a shaded snow pillar looks so
    assert from_top(fit, masks, lum, view, U, (0.0, 0.0), "B", s, neutral) is None
    off = replace(s, fit=replace(s.fit, anchor_grey=False))
    masks, lum, neutral = scene(True, "B")
    assert from_top(fit, masks, lum, view, U, (0.0, 0.0), "B", off, neutral) is None


def test_a_colour_shown_in_no_stones_shape_is_not_found_never_missing():
    """OX02-02 as a phone photo (a correct build, measured unseen): the grey bar lies on two
    snow pillars in shade, which the grey's class takes too, so the strips around its face
    hold its colour and no template responds; the stone had no fit at all and was judged
    `missing:G`, a penalty card for a correct build. A colour with no fit whose pixels fill a
    third of a face where stones are searched is not found (unsure); where they do not, it
    is missing as before."""
    from referee.vision.assemble import unshaped
    from referee.vision.fit import BarFit
    from referee.vision.rectify import FrontView

    s = default_settings()
    b = assemble([fit("B", "V", 0, 0), fit("P", "V", 2, 0)], U, 2.0, s, "GBP", unshaped=["G"])
    assert [p.code for p in b.problems] == ["stone:not-found:G"]
    b = assemble([fit("B", "V", 0, 0), fit("P", "V", 2, 0)], U, 2.0, s, "GBP")
    assert b.problems == () and [st.colour for st in b.stones] == ["B", "P"]  # missing
    view = FrontView.for_settings(s.rectify.px_per_mm, s.rectify.view_height_mm)
    regions = {"H": (-40.0, 200.0, -2.0, 150.0), "V": (-8.0, 232.0, -2.0, 90.0)}
    grey = np.zeros((view.height, view.width), bool)
    masks = {"G": grey, "B": np.zeros_like(grey), "P": np.zeros_like(grey)}
    fits: list[BarFit] = [fit("B", "V", 0, 0), fit("P", "V", 2, 0)]
    assert unshaped(fits, masks, view, U, regions, "GBP", s.build.not_found_faces) == []
    col, row = (int(v) for v in view.to_px(40.0, 5 * U))  # shaded snow: grey, stone-less
    u = int(U * view.px_per_mm)
    grey[row - 2 * u:row, col:col + 2 * u] = True  # 4 u², four fifths of a face
    assert unshaped(fits, masks, view, U, regions, "GBP", s.build.not_found_faces) == ["G"]
    assert unshaped(fits, masks, view, U, regions, "GBP", 0.0) == []  # the check off
