"""A referee a real table can trust (issues 10 and 11): each kind of fault on a photo made
from a fixture scene, asserting the verdict or the exact reason code, and the measurement
rules on crafted fits."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from referee.check import check_photo
from referee.paths import FIXTURES
from referee.tuki.cards import turn
from referee.vision.assemble import assemble
from referee.vision.fit import BarFit
from referee.vision.photo import read_photo
from referee.vision.settings import default_settings

from .conftest import die_text, label, photo, station


def verdict(img, scene="D03-04"):
    lab = label(scene)
    v = check_photo(img, station(scene[:3]), lab["target"], die_text(lab), lab["level"],
                    overlay=False).verdict
    return v.verdict, [r.code for r in v.reasons], [f.code for f in v.faults]


def test_a_loose_marker_beside_the_mat_changes_nothing():
    case = FIXTURES / "cases" / "stray-marker"
    card = (case / "card.txt").read_text(encoding="utf-8").split()
    v = check_photo(read_photo(case / "photo.jpg"), station("D03"), turn(card, "fish"), "fish",
                    overlay=False).verdict
    assert v.verdict == "correct", v.to_dict()


def test_a_neighbours_mat_further_back_is_not_this_stations():
    img = photo("D03-04").copy()
    h = img.shape[0]
    small = cv2.resize(img[int(0.55 * h):], None, fx=0.45, fy=0.45)
    img[:small.shape[0], :small.shape[1]] = small  # a second, smaller mat up in the corner
    assert verdict(img)[0] == "correct"


def test_two_mats_equally_placed_is_mat_several():
    img = photo("D03-04")
    h, w = img.shape[:2]
    two = cv2.resize(np.hstack([img, img]), (w, h))
    assert verdict(two)[:2] == ("unsure", ["mat:several"])


@pytest.mark.parametrize("make,code", [
    (lambda im: np.ascontiguousarray(np.rot90(im)), "photo:rotated"),
    (lambda im: cv2.flip(im, 1), "photo:mirrored"),
    (lambda im: np.full_like(im, 3), "camera:black"),
    # a thumbnail (a chat app's preview) was "the referee mat was not found: is it in the
    # photo, flat, lit and sharp"; a 1×1 image "the camera sends a black picture"
    (lambda im: cv2.resize(im, (96, 54), interpolation=cv2.INTER_AREA), "photo:small"),
    (lambda im: im[:1, :1].copy(), "photo:small"),
    # a black-and-white photo (a phone's mode, a night camera) was "stone not found" (the
    # break-it trial): no stone can be told from another, and it says why
    (lambda im: cv2.cvtColor(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR),
     "photo:greyscale"),
])
def test_a_refused_photo_names_its_own_fault(make, code):
    v, reasons, _ = verdict(make(photo("D03-04")))
    assert v == "unsure" and reasons == [code]


def test_a_small_photo_that_still_shows_the_mat_is_judged():
    img = photo("D03-04")
    v, reasons, _ = verdict(cv2.resize(img, (240, 135), interpolation=cv2.INTER_AREA))
    assert "photo:small" not in reasons


def test_a_portrait_photo_of_something_else_is_not_called_turned():
    """A new user's trial: a phone's portrait screenshot of something else was told "the
    photo is turned a quarter turn: hold the phone the other way"; turning it would not
    have shown a mat. A portrait photo of the mat still is `photo:rotated` (above)."""
    img = np.ascontiguousarray(np.rot90(photo("D03-04")))
    img[:] = cv2.GaussianBlur(img, (0, 0), 25)  # no marker left, still a picture
    v, reasons, _ = verdict(img)
    assert v == "unsure" and reasons == ["mat:not-found"]
    v, reasons, _ = verdict(np.full_like(img, 3))
    assert v == "unsure" and reasons == ["camera:black"]


def test_a_mat_mostly_covered_is_partly_hidden():
    img = photo("D03-04").copy()
    h, w = img.shape[:2]
    img[int(0.6 * h):, int(0.35 * w):] = 90  # a sheet over most of the board
    v, reasons, _ = verdict(img)
    assert v == "unsure" and reasons == ["mat:partly-hidden"]


@pytest.mark.parametrize("scene", ["D02-03", "D04-05", "D05-03", "D06-03"])
def test_swapped_colour_channels_are_never_judged_with_confidence(scene):
    lab = label(scene)
    for order in ([2, 1, 0], [1, 0, 2], [0, 2, 1]):
        v, reasons, _ = verdict(photo(scene)[:, :, order].copy(), scene)
        assert v in ("unsure", lab["verdict"]), (order, reasons)
        if v == "unsure" and order == [2, 1, 0]:
            assert "photo:colours" in reasons or any(r.startswith("stone:") for r in reasons)


def test_red_and_blue_swapped_say_photo_colours():
    v, reasons, _ = verdict(photo("D05-03")[:, :, ::-1].copy(), "D05-03")
    assert v == "unsure" and "photo:colours" in reasons


# --- the rules of the measurement, on crafted fits (16 mm units, front-view mm) ------------

U = 16.0


def fit(colour, orient, x_u, h_u, **kw):
    return BarFit(colour, orient, x_u * U, h_u * U, kw.pop("fill", 0.95), 0.9,
                  kw.pop("supported", True), kw.pop("grooves", True), **kw)


def codes(build):
    return [p.code for p in build.problems]


def test_a_stone_held_up_by_nothing_is_unsupported_not_a_stone():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1), fit("P", "V", 9, 6, supported=False)],
                 U, 2.0, default_settings(), "GBP")
    assert codes(b) == ["stone:unsupported:P"]
    assert [s.colour for s in b.stones] == ["G", "B"]


def test_a_patch_of_a_colour_held_up_by_nothing_is_no_stone_of_the_build():
    """N3 L03-02: the blue stone lay on the table far behind the mat, and a quarter of a face
    of it, high in the air over the build, was called a hidden stone (unsure). A piece in
    front hides a stone that stands on something; a part-face held up by nothing is not
    the stone, which is absent: missing where nothing else is wrong with the photo."""
    b = assemble([fit("G", "H", 0, 0), fit("P", "V", 4, 1),
                  fit("B", "H", 8, 10, fill=0.25, supported=False)],
                 U, 2.0, default_settings(), "GBP", chromatic="BP")
    assert codes(b) == [] and [s.colour for s in b.stones] == ["G", "P"]
    # a grey stone may be in the build, lit as white as snow: its grey patch is no evidence
    b = assemble([fit("B", "H", 0, 0), fit("P", "V", 4, 1),
                  fit("G", "H", 8, 10, fill=0.25, supported=False)],
                 U, 2.0, default_settings(), "GBP", chromatic="BP")
    assert codes(b) == ["stone:hidden:G"]
    # held up, the same part-face is a stone partly hidden
    b = assemble([fit("G", "H", 0, 0), fit("P", "V", 4, 1), fit("B", "H", 1, 1, fill=0.25)],
                 U, 2.0, default_settings(), "GBP")
    assert codes(b) == ["stone:hidden:B"]
    # and beside a stone that could not be measured, the absent one is only not found
    b = assemble([fit("G", "H", 0, 0), fit("P", "V", 4, 1, fill=0.4),
                  fit("B", "H", 8, 10, fill=0.25, supported=False)],
                 U, 2.0, default_settings(), "GBP", chromatic="BP")
    assert "stone:not-found:B" in codes(b) and "stone:hidden:P" in codes(b)


def test_a_standing_stone_placed_from_its_top_end_counts_though_its_foot_is_hidden():
    """N8 G02-06: the blue bar standing under the purple one, its lower part behind a snow
    pillar in front: placed from its top end (a stone sits on it), 58 % of its face seen,
    it was hidden (unsure). Placed so, its place is known; it counts, weakly (no fault
    rests on it alone). Not placed so, or seen less than `anchored_min_fill`, it is hidden."""
    s = default_settings()
    blue = replace(fit("B", "V", 0, 1, fill=0.58, anchored=True), score=0.58)
    b = assemble([fit("G", "H", 0, 0), blue, fit("P", "V", 4, 1)], U, 2.0, s, "GBP")
    assert codes(b) == []
    (got,) = [st for st in b.stones if st.colour == "B"]
    assert got.weak and got.sigma_u >= s.build.anchored_sigma_u
    for other in (replace(blue, anchored=False),
                  replace(blue, fill=s.build.anchored_min_fill - 0.05, score=0.4)):
        b = assemble([fit("G", "H", 0, 0), other, fit("P", "V", 4, 1)], U, 2.0, s, "GBP")
        assert codes(b) == ["stone:hidden:B"]


def test_a_stone_that_can_slide_along_its_length_is_hidden():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1, slack_u=1.0), fit("P", "V", 4, 1)],
                 U, 2.0, default_settings(), "GBP")
    assert codes(b) == ["stone:hidden:B"]


def test_a_little_slack_widens_the_stones_doubt():
    s = default_settings()
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1, slack_u=0.3), fit("P", "V", 4, 1)],
                 U, 2.0, s, "GBP")
    sigma = {st.colour: st.sigma_u for st in b.stones}
    assert sigma["B"] == pytest.approx(0.15) and sigma["G"] == s.build.base_sigma_u


def test_a_stone_not_found_beside_a_hidden_one_is_not_missing():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1, fill=0.4)], U, 2.0,
                 default_settings(), "GBP")
    assert "stone:not-found:P" in codes(b) and "stone:hidden:B" in codes(b)
    assert "photo:unclear" in codes(b)


def test_a_stone_not_found_in_a_clipped_photo_is_not_missing():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1)], U, 2.0, default_settings(), "GBP",
                 paper_clipped=True)
    assert codes(b) == ["stone:not-found:P", "photo:bright"]


def test_a_stone_not_found_without_a_colour_check_is_not_missing():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1)], U, 2.0, default_settings(), "GBP",
                 unexplained=True)
    assert codes(b) == ["stone:not-found:P", "photo:colours"]


def test_a_stone_not_found_in_a_clean_photo_is_missing():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1)], U, 2.0, default_settings(), "GBP")
    assert codes(b) == [] and [s.colour for s in b.stones] == ["G", "B"]


def test_on_default_colours_a_stone_not_found_is_never_missing(tmp_path):
    """Issue 10: default colours never cost an unfair penalty. A station without its colour
    photo judges on priors; a stone of another edition may be there unseen."""
    import json
    import shutil

    from referee.vision.station import load_station

    raw = json.loads((FIXTURES / "dev-scenes/stations/D01/station.json").read_text())
    raw.pop("colour_calibration")
    (tmp_path / "station.json").write_text(json.dumps(raw))
    st = load_station(tmp_path / "station.json")
    assert st.colour_model.source == "priors"
    shutil.rmtree(tmp_path)
    lab = label("D01-02")  # wrong: the blue stone is missing
    v = check_photo(photo("D01-02"), st, lab["target"], die_text(lab), overlay=False).verdict
    assert "missing:B" not in [f.code for f in v.faults]
    for scene in ("D01-01", "D01-03", "D01-07"):  # correct builds: never judged wrong
        lab = label(scene)
        v = check_photo(photo(scene), st, lab["target"], die_text(lab), overlay=False).verdict
        assert v.verdict in ("correct", "unsure"), (scene, v.to_dict())


# --- end to end on photos of the harder sets (fixtures/hard-scenes) --------------------------

HARD = FIXTURES / "hard-scenes"
# the verdict each gets today. E02-02, where a piece in front hides the orange stone's foot,
# is placed from the top since a snow piece sitting on a stone covers its top face, and
# unsure again since the positions' sigma is honest (0.042 u): P and O in the grey band.
# E05-03's grey stone, in its own shade on the table, was unsure until a fit at the lowest
# height searched counted as the stone on the table. V03-06's orange stone stands on a snow
# pillar tinted blue (paper clipped, so the white balance is the paper's, not the light's):
# unsupported until such snow could hold a grooved stone. G03-03's dark grey stone stands on
# a snow pillar in shade, as "grey" as the stone: hidden (it seemed free to slide down)
# until the pillar's lightness pinned the stone's foot. F05-01 (a wrong build) is unsure
# since a fit the colour matches only weakly (its grey stone: 0.59) is no ground for a verdict.
# G01-07's grey stone is taken by the dark table's class, and W01-04's purple one lies against
# the grey with an end hidden: both hidden until the grooves were looked for there (choose.resting).
# R01-03 (a correct build, measured unseen): its grey bar lies under the blue one, mostly hidden
# by a piece in front; its weak fit (0.67) slid a unit onto its shadow and the build was judged
# wrong. A fault that rests on a weakly seen stone alone is now unsure (judge, `weak`).
# M01-05 and M03-05 (correct builds of the eighth session's unseen set N2) were judged wrong:
# a grey snow pillar in shade, its seams taken for grooves, chosen over the grey bar lying on
# it, which scored higher (now weak: a rival of the other orientation); and a blue bar blamed
# beside a weak grey fit 3 u off on its shadow (now judged without the weak stone).
# Q01-04 (correct): the blue bar's grooves, lit from the side, were read at their one edge,
# and it stood 2 mm into the grey beside it: unsure until the grooves were read at their
# middle. L03-02 (wrong, the blue stone missing): it lay on the table beyond the mat, and a
# quarter of a face of it in the air was called a hidden stone (unsure) until a part-face
# of a colour held up by nothing counted as no stone of the build. I03-02 (correct, paper
# clipped): a grey bar on a snow cube lying on the blue bar was unsupported (the chain under
# it ended in air below the blue) until a chain could end on a stone held up already.
# H03-06 (correct, the ninth session's unseen N7, judged wrong there): the grey bar under the
# blue, its end behind a piece in front, found by its grooves a unit to the left; a stone
# found so (choose.resting) is weak now, and no fault rests on it alone.
# J03-06 (wrong, the blue stone missing; the ninth session's unseen N5): a quarter of a blue
# face 8 u up, on the other builder's stones far behind the mat, was a hidden stone (unsure)
# until a part of a coloured stone had to be held up by the build as a whole stone does.
# S01-02 (correct): the purple bar standing against the grey, its foot behind a piece in
# front; the grey's edge rising beside it was taken for its own side running on above its
# top end, so it was not placed from its top (unsure) until the placed stones' faces told
# their edges from its own.
# B01-04 (correct, the tenth session's unseen N10, judged wrong there and on the session's
# start code): a snow pillar in deep shade beside the blue bar, as dark as the grey stone,
# its top cell the end of the grey bar lying on it, was taken for the grey stone standing
# (orientation:G). A rival of the other orientation sharing a cell and nearly as good makes
# the fit weak, and no fault rests on it alone.
HARD_VERDICTS = {"E01-01": "correct", "E01-04": "wrong", "E02-02": "unsure",
                 "E02-04": "wrong", "E05-01": "wrong", "E05-03": "correct",
                 "F05-01": "unsure", "F05-05": "correct", "F05-07": "correct",
                 "G03-03": "correct", "G04-01": "wrong",
                 "W05-04": "correct", "V03-06": "correct", "E03-01": "correct",
                 "Z03-04": "correct", "G01-07": "correct", "W01-04": "correct",
                 "R01-03": "unsure", "S03-01": "wrong", "P01-02": "correct",
                 "M01-05": "unsure", "M03-05": "unsure", "Q01-04": "correct",
                 "L03-02": "wrong", "I03-02": "correct", "H03-06": "unsure",
                 "J03-06": "wrong", "S01-02": "correct", "B01-04": "unsure"}


def test_the_harder_scenes_get_their_verdicts_and_never_a_confident_wrong_one():
    from referee.evaluate import evaluate

    result = evaluate(HARD)
    got = {r.id: r.got for r in result.results}
    assert got == HARD_VERDICTS
    assert result.to_dict()["confidently_wrong"] == 0
    for r in result.results:  # a wrong verdict names the labelled fault's stone (or kind)
        if r.got == "wrong":
            subject = {f.rsplit(":", 1)[-1] for f in r.expected_faults}
            assert subject & {f.rsplit(":", 1)[-1] for f in r.faults}, (r.id, r.faults)
    clipped = result.groups("condition")["paper-clipped"]
    assert {r.id for r in clipped.results} >= {"F05-01", "F05-05", "F05-07"}


def test_a_standing_stone_whose_foot_a_piece_in_front_hides_is_placed_from_its_top():
    """E01-01: a snow piece lying in front hides the blue stone's two lowest segments; the
    fit alone put it 2 u too high (a confidently wrong verdict before)."""
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    st = load_station(HARD / "stations/E01/station.json")
    m = measure(read_photo(HARD / "scenes/E01-01/image.jpg"), st)
    blue = next(f for f in m.fits if f.colour == "B")
    assert blue.anchored and abs(blue.h_mm / st.unit_mm) < 0.25


def test_a_standing_stone_with_snow_on_it_is_placed_from_the_top_of_its_front_face():
    """G04-01: a snow piece sits on the blue stone, so its top face does not show, and a
    piece in front hides its foot. The step a top face would make was the lamp-lit top
    segment's edge, a unit down: the stone was hung a unit under the table."""
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    st = load_station(HARD / "stations/G04/station.json")
    m = measure(read_photo(HARD / "scenes/G04-01/image.jpg"), st)
    blue = next(s for s in m.build.stones if s.colour == "B")
    assert abs(blue.z_u) < 0.25, blue


def test_a_lowest_stone_between_the_table_and_a_units_height_is_unsupported():
    """Nothing in the game is thinner than a unit: a stone measured 0.6 u up with nothing
    under it is a build standing off the line (it looks higher), never `table:none`."""
    b = assemble([fit("G", "V", 0, 0.6), fit("B", "H", 1, 2.0), fit("P", "V", 5, 0.6)], U, 2.0,
                 default_settings(), "GBP")
    assert "stone:unsupported:G" in codes(b) and "stone:unsupported:P" in codes(b)
    # a stone resting on another stone's top is held, whatever its height
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1)], U, 2.0, default_settings(), "GB")
    assert codes(b) == []
    # nor can one stand under the table (G04-01: placed from a step a unit below its top)
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 6, -1.0)], U, 2.0, default_settings(),
                 "GB")
    assert codes(b) == ["stone:unsupported:B"] and [st.colour for st in b.stones] == ["G"]
    # within what a build off the line may look lower, it stands on the table
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 6, -0.1)], U, 2.0, default_settings(),
                 "GB")
    assert codes(b) == []


def test_a_stone_that_fits_the_table_and_a_unit_of_snow_alike_is_not_judged_on_the_table():
    """A build up to 10 mm off the line (WORLD.md §5) looks higher or lower by up to
    10 mm × tan(elevation): with a steep camera and small units a stone 0.6 u up may stand on
    the table or on a unit of snow; the table rule must not be judged on it."""
    s = default_settings()
    # doubt_mm is depth_doubt_mm × tan(elevation): 5 mm at 45°, so the allowance is 0.62 u
    b = assemble([fit("G", "V", 0, 0.61), fit("B", "H", 1, 5.0)], U, 5.0, s, "GB")
    assert "stone:unsupported:G" in codes(b)
    # seen from 20° the same offset is small: a stone 0.1 u up stands on the table
    b = assemble([fit("G", "V", 0, 0.1), fit("B", "H", 0, 5.0)], 16.0, 1.8, s, "GB")
    assert codes(b) == [] and b.stones[0].z_u == 0.0


def test_stones_measured_touching_stay_touching_when_the_lower_one_settles():
    """G04-07 (dev-scenes-3, as a phone photo): a purple bar settled 0.37 u down onto a unit
    of snow, and the grey bar measured on its top was left behind, 0.6 u above it: `contact`
    faults for a correct build. Both stand at one depth, so the one on top moves with it."""
    s = default_settings()
    doubt = 0.4 * U  # mm: the doubt is 0.4 u here
    b = assemble([fit("P", "H", 0, 2.37), fit("G", "V", 0, 3.59)], U, doubt, s, "PG")
    z = {st.colour: st.z_u for st in b.stones}
    assert z == {"P": 2.0, "G": 3.0}
    assert b.stones[0].gaps_mm["G"] == 0.0
    # a stone measured clearly above another's top (further than the doubt) keeps its height
    b = assemble([fit("P", "H", 0, 2.37), fit("G", "V", 0, 4.0)], U, doubt, s, "PG")
    assert {st.colour: st.z_u for st in b.stones} == {"P": 2.0, "G": 4.0}


def test_a_stone_its_colour_matches_only_weakly_is_no_ground_for_a_verdict():
    """Y01-03, Y03-01 (an unseen set): a purple box behind the build taken for the purple
    stone (template response 0.50), and a purple bar's top face without its lamp-lit front
    face (0.63, no grooves): a wrong orientation and a 0.7 u height, each judged wrong for
    certain. Such fits are `stone:unclear`; a clean fit of the same place is measured."""
    s = default_settings()
    weak = [fit("G", "H", 0, 0), BarFit("B", "V", 0.0, U, 0.7, 0.5, True, True)]
    assert codes(assemble(weak, U, 2.0, s, "GB")) == ["stone:unclear:B"]
    plain = [fit("G", "H", 0, 0), BarFit("B", "V", 0.0, U, 0.7, 0.63, True, False)]
    assert codes(assemble(plain, U, 2.0, s, "GB")) == ["stone:unclear:B"]
    grooved = [fit("G", "H", 0, 0), BarFit("B", "V", 0.0, U, 0.7, 0.63, True, True)]
    assert codes(assemble(grooved, U, 2.0, s, "GB")) == []


def test_a_settled_standing_stone_moves_along_its_camera_ray():
    """D02-04: each bar's front face stands a few mm off the others'; a standing bar that
    looked 0.2 u high stands that much further back, so (camera to its right) it also stands
    further left, and the offsets between stones left the grey band once that was undone."""
    s = default_settings()
    camera = (300.0, 500.0, -400.0)  # mm, board frame: right of the build, 400 mm up
    fits = [fit("G", "V", 5, 0.2), fit("B", "H", 0, 0.0)]
    b = assemble(fits, U, 5.0, s, "GB", camera_mm=camera)
    g = next(st for st in b.stones if st.colour == "G")
    # the ray from (300, -400) through (80 mm, 3.2 mm up) meets the table at x = 78.23 mm
    assert g.z_u == 0.0 and g.x_u == pytest.approx(78.23 / U, abs=1e-3)
    # a lying stone moves so only where the edge between its faces placed it (E06-01);
    # one placed by its template keeps its x; and without the camera nothing moves
    lying = [fit("G", "V", 5, 0.0), replace(fit("B", "H", 0, 0.2), edge=True)]
    b_edge = next(st for st in assemble(lying, U, 5.0, s, "GB", camera_mm=camera).stones
                  if st.colour == "B")
    assert b_edge.z_u == 0.0 and b_edge.x_u != 0.0
    lying[1] = replace(lying[1], edge=False)
    assert next(st for st in assemble(lying, U, 5.0, s, "GB", camera_mm=camera).stones
                if st.colour == "B").x_u == 0.0
    assert next(st for st in b.stones if st.colour == "B").x_u == 0.0
    assert next(st for st in assemble(fits, U, 5.0, s, "GB").stones
                if st.colour == "G").x_u == 5.0


def test_a_standing_bar_is_pinned_where_its_lightness_ends():
    """G03-03: snow in shade takes a grey stone's colour, so the mask runs on below the
    stone's foot; its lightness does not. A face placed a unit low, half on the snow, is not
    even, and pins nothing; a face without the bar's colour in every segment neither."""
    from referee.vision.fit import lightness_pinned
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
    from referee.vision.fit import length_slack_u
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
    from referee.vision.fit import edge_pinned
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
    from referee.vision.fit import edge_pinned
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
