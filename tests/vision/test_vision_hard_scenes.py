"""End to end on photos of the harder sets (fixtures/hard-scenes): every photo's verdict as
it is today, never a confident wrong one, and the cases first met on them."""

import json
from dataclasses import replace

import pytest

from referee.vision.photo import read_photo
from referee.vision.settings import default_settings

from .test_vision_trust import HARD

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
# A pink wall tints that grey bar's shaded half purple, and F05-02's (correct) too (hidden):
# found where the pixels purple's class took outside the purple stone's face go back to the
# grey (colour.tinted_grey), as NC01-01's grey bar, tinted by a blue wall, which a snow pillar
# in shade had fitted better (hidden). A stone found so is weak: M03-05's shadow under the
# purple bar is tinted as much, and fitted there its grey stone was 3 u off, judged wrong.
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
# NH03-04 (correct, the twelfth session's unseen NH) and NC04-04 (wrong, the eleventh's NC):
# a lying grey bar whose class runs on into a shadow of its shade beyond an end was an end
# hidden (unsure) until a lying bar too was pinned where the lightness beyond its end steps
# away from its own, a lamp's gradient along it allowed (`ends.lightness_pinned`).
# NH04-04 (correct, NH) and NM01-01 (wrong, the thirteenth session's unseen NM): under a
# hard lamp the orange face's red clips and it reads yellow, outside every class, so the
# orange stone was hidden (unsure) until a clipped channel was read as "at least this
# bright" (`colour.unclipped`).
# OA03-03 (correct, the sixteenth session's unseen OA): a dark grey bar's end fitted 0.21 u
# into the dark purple bar beside it, unsure (grey band) until overlapping faces were pushed
# apart (`assemble.part`).
# NO04-05 (correct, the thirteenth session's unseen NO, judged wrong there, also by the
# session's start code): a dark grey bar's left unit behind a snow piece in front, the
# shadow under the blue's overhang as dark beside its right end; fitted a unit right, it
# was 0.9 u off for certain. A face whose end unit is unlike the other four is weak now.
# OL01-02 (correct, the eighteenth session's unseen OL): its clipped colour photo, read
# enlarged, learns a light grey; a snow pillar as light as snow, groove-less, fitted as the
# grey stone 4 u off, was judged wrong. A groove-less grey fit nearer the snow's lightness
# than the grey's is weak now (`ends.snow_like`).
# OS04-03 and OV03-02 (correct, the twentieth session's unseen OS and OV): a grey bar on snow
# in a hard lamp's shade (L 29), and on snow pillars tinted yellow by warm light thrown back
# (b* +24): neither counted as snow, nothing held the real stone up, and a grey patch of the
# wall high above was taken (hidden, unsure) until snow could be that dark or that tinted
# (`colour.may_hold`).
# OV02-03 and OT02-05 (correct, the twentieth session's unseen OV and OT, the paper clipped):
# their stations' colour photos were refused (an over-exposed blue gone cyan, a grey under an
# orange cast), so the stations judged on default colours and said `photo:bright`; learnt,
# both are correct.
# OX04-01 (correct, the twentieth session's unseen OX): a mat at a grazing angle on a white
# table, 2 markers read (`mat:partly-hidden`) until they were read at finer cells
# (`pose.fine_cell_px`); its grey stone lost to a grey candidate 12 u up on the wall, held up
# through the table behind, as grey (hidden: unsure), until no stone could stand on a patch of
# its own colour wider than any stone (`fit.wide_own_u`): correct. Its grey lies 3 of 22 from
# snow's white, and it stands on a snow pillar of its look: placed from its top end (a pink
# box behind it passed for a coloured stone on it) it was right by luck; at a station whose
# grey is as light as snow no grey bar is placed from its top (`fit.anchor_grey_apart`, the
# twenty-sixth session, PO03-06 below): unsure.
# PO03-06, G04-04, PY04-04 and QA04-04: see fixtures/hard-scenes/README.md and the tests at
# the end. QD01-05, QH02-01 and E03-02: a piece lying in front
# (tests/vision/test_vision_in_front.py); QD01-05 stays unsure for its grey bar, whose end is
# hidden.
# OU04-05 (correct, the twentieth session's unseen OU): a blue bar on a grey one whose foot a
# piece in front hides; the grey slid a unit up into the blue (unsure) until a grey bar was
# hung from a coloured stone sitting on it where its grooves show (`fit.anchor_grey`).
# PE04-06 (correct, the twenty-first session's unseen PE): the same rule's guard, a 6 u snow
# pillar in shade under the purple, as grey as the stone and without grooves: not hung from
# the purple (it was, before the grooves were asked for: wrong), so hidden (unsure).
# PL01-02 and PL01-03 (correct, the twenty-third session's unseen PL, 12 mm units, the
# structure 6.6 and 8.4 mm off the line): each stone's height rounded to a whole unit alone
# took two bars on equal snow, measured 1.33 and 1.66 u up, to 1 and 2, and both builds were
# judged wrong for certain; stones that settling moves apart by more than half a unit are
# weak (`assemble.settled_apart`), so unsure.
# PP02-05 (correct, the twenty-fourth session's unseen PP, 20 mm units, 8.8 mm off the line):
# a snow piece standing in front of the orange bar hid its foot, the template took its top
# face for part of its front face, and fitted 0.58 u high it was judged wrong for certain
# (position:O). Its face, grooves and all, running on below the fit makes it weak
# (`ends.face_below`): unsure.
# PR03-05 (correct, the twenty-fourth session's unseen PR, measured with its final code, 12 mm
# units, 9.6 mm off the line): a grey bar on two snow pieces under a low lamp, its top face
# darker than its front face, fitted a whole unit high on the top face and the paper's shade
# above it (position:G); its real face, lighter, its grooves 0.17 u aside, runs on below the
# fit: weak, as neither the face's lightness nor the grooves' exact column is asked: unsure.
HARD_VERDICTS = {"E01-01": "correct", "E01-04": "wrong", "E02-02": "unsure",
                 "E02-04": "wrong", "E05-01": "wrong", "E05-03": "correct",
                 "F05-01": "unsure", "F05-02": "correct", "NC01-01": "correct",
                 "F05-05": "correct", "F05-07": "correct",
                 "G03-03": "correct", "G04-01": "wrong",
                 "W05-04": "correct", "V03-06": "correct", "E03-01": "correct",
                 "Z03-04": "correct", "G01-07": "correct", "W01-04": "correct",
                 "R01-03": "unsure", "S03-01": "wrong", "P01-02": "correct",
                 "M01-05": "unsure", "M03-05": "unsure", "Q01-04": "correct",
                 "L03-02": "wrong", "I03-02": "correct", "H03-06": "unsure",
                 "J03-06": "wrong", "S01-02": "correct", "B01-04": "unsure",
                 "NH03-04": "correct", "NC04-04": "wrong",
                 "NH04-04": "correct", "NM01-01": "wrong", "NO04-05": "unsure",
                 "NH04-05": "correct", "NC01-05": "unsure", "NS03-01": "unsure",
                 "NS01-04": "correct", "NX02-03": "unsure", "OA02-05": "unsure",
                 "OA03-03": "correct", "OC03-01": "wrong",
                 "OL01-02": "unsure", "OL02-01": "wrong", "OX02-02": "correct",
                 "OS04-03": "correct", "OV03-02": "correct", "OV02-03": "correct",
                 "OT02-05": "correct", "OX04-01": "unsure",
                 "OU04-05": "correct", "PE04-06": "unsure",
                 "PL01-02": "unsure", "PL01-03": "unsure", "PP02-05": "unsure",
                 "PR03-05": "unsure", "PO03-06": "unsure", "G04-04": "unsure",
                 "F01-02": "correct", "PY04-04": "correct", "QA04-04": "correct",
                 "QD01-05": "unsure", "E03-02": "correct", "QH02-01": "correct",
                 "QD04-04": "unsure", "QN01-02": "correct"}


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


def test_a_stone_whose_colour_shows_in_no_stones_shape_is_never_missing():
    """OX02-02 (the twentieth session's unseen OX, a correct build): as a phone photo the
    grey bar, lying on two snow pillars in shade that the grey's class takes too, had no fit
    at all, and the build was judged wrong (`missing:G`). Its colour shows where stones are
    searched, in no stone's shape: not found, unsure. As a station photo it is correct."""
    from .conftest import scene_check

    phone = scene_check(HARD, "OX02-02", intrinsics="from-mat")
    assert phone.verdict.verdict == "unsure"
    assert [r.code for r in phone.verdict.reasons] == ["stone:not-found:G"]
    assert scene_check(HARD, "OX02-02").verdict.verdict == "correct"


def test_a_stone_fitted_a_little_high_over_the_build_is_no_missing_stone():
    """OA02-05 (measured unseen, a correct build judged wrong: `missing:B`): the blue bar
    lies on the grey one under a hard lamp; its lit top face pulled the fit 0.4 u up, held
    up by nothing and 52 % seen, which counted as a patch of blue far from the build. Just
    above a stone that is held up, it is that stone: partly seen, unsure. (Since snow in
    shade may hold a stone up, `colour.may_hold`, the photo's blue fit is held up and the
    photo no longer reaches this rule; it stays unsure in HARD_VERDICTS. The fits as they
    were measured then:)"""
    from referee.vision.assemble import assemble
    from referee.vision.settings import default_settings

    from .test_vision_trust import U, codes, fit

    s = default_settings()
    grey = fit("G", "H", 0, 1)
    blue = fit("B", "H", 0.2, 2.4, fill=0.52, supported=False)  # 0.4 u above the grey's top
    assert codes(assemble([grey, blue], U, 2.0, s, "GB", chromatic="B")) == ["stone:hidden:B"]
    far = fit("B", "H", 0.2, 8.0, fill=0.52, supported=False)   # a patch far above: gone
    build = assemble([grey, far], U, 2.0, s, "GB", chromatic="B")
    assert "stone:hidden:B" not in codes(build) and [st.colour for st in build.stones] == ["G"]


def test_an_over_exposed_photo_says_so_once():
    """NX02-03 (measured unseen): under a yellow lamp two stones are not found in the
    clipped photo (assemble says `photo:bright`), and the faces found are clipped too (the
    colour check said it again): each reason once."""
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    st = load_station(HARD / "stations/NX02/station.json")
    codes = [p.code for p in measure(read_photo(HARD / "scenes/NX02-03/image.jpg"),
                                     st).build.problems]
    assert codes.count("photo:bright") == 1 and len(codes) == len(set(codes)), codes


def test_a_face_lit_into_a_tables_class_is_taken_back_and_weak():
    """NH04-05: a tan box behind the mat makes a table class near the orange's hue, which
    took the lit half of the orange bar's face (55 % seen: "hidden"). The pixels of its
    face that the table's class took within its colour's reach are its own again
    (`refit.refit_lent`); the fit is `tinted`, so weak."""
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    st = load_station(HARD / "stations/NH04/station.json")
    image = read_photo(HARD / "scenes/NH04-05/image.jpg")
    m = measure(image, st)
    orange = next(f for f in m.fits if f.colour == "O")
    assert orange.tinted and orange.fill >= 0.6 and orange.slack_u < 0.5
    assert next(s for s in m.build.stones if s.colour == "O").weak
    s = default_settings()
    off = measure(image, st, replace(s, fit=replace(s.fit, lend_table=False)))
    before = next(f for f in off.fits if f.colour == "O")
    assert before.fill < 0.6 and not before.tinted
    assert "stone:hidden:O" in {p.code for p in off.build.problems}


def _changed_and_judged(scene, change):
    """A judge of HARD's `scene` (its label's target, die and level) once its photo has gone
    through `change` (H×W×3 float32 BGR, changed in place or returned) and a JPEG save at
    quality 92, as a break-it trial made them (tools/robustness): judged(settings) -> Verdict.
    """
    import cv2
    import numpy as np

    from referee.tuki.judge import judge
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    label = json.loads((HARD / f"scenes/{scene}/label.json").read_text())
    st = load_station(HARD / f"stations/{label['station']}/station.json")
    image = read_photo(HARD / f"scenes/{scene}/image.jpg").astype(np.float32)
    image = change(image)
    ok, jpeg = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, 92])
    photo = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    die = label["die"]["animal"] + ("+white" if label["die"]["white_square"] else "")

    def judged(s):
        return judge(label["target"], die, measure(photo, st, s).build, label["level"])

    return judged


def test_a_grey_fit_without_grooves_on_a_tinted_photo_is_no_ground_for_a_fault():
    """A break-it trial (twenty-fifth session): G03-03's dark grey bar stands on a snow
    pillar in shade, told from it by lightness alone; under a 10 % green tint (a fluorescent
    lamp after the colour photo was taken; so too a gamma of 0.75, sharpening, a 2° roll)
    the grey's class took the pillar and not the bar, and the grey fitted on the pillar, 5 u
    low and without grooves, judged a correct build wrong (`position:G`, `table:touching`).
    A groove-less grey fit is weak now (`fit.grooveless_grey`): no fault rests on it alone.
    Without the rule the same photo is judged wrong. (Since a rare table colour near a stone
    is a spare stone, `colour.spare_share`, the tint's table colour near the grey is no
    class either, and the photo is unsure for another stone; with either rule alone, unsure.)
    """
    import numpy as np

    judged = _changed_and_judged(  # B, G, R gains: a green cast
        "G03-03", lambda image: image * np.array([0.95, 1.10, 0.95], np.float32))
    s = default_settings()
    no_spare = replace(s, colour=replace(s.colour, spare_share=0.0))
    off = judged(replace(no_spare, fit=replace(s.fit, grooveless_grey=False)))
    assert off.verdict == "wrong" and "position:G" in [f.code for f in off.faults]
    grooves = judged(no_spare)
    assert grooves.verdict == "unsure"
    assert "stone:unclear:G" in [r.code for r in grooves.reasons]
    assert judged(s).verdict == "unsure"


def test_a_stone_washed_out_of_its_colour_but_in_its_hue_is_never_missing():
    """A break-it trial (twenty-fifth session): a lamp's hot spot (+0.3 of full scale at its
    peak, a Gaussian 12 % of the width across) washed NH04-05's orange bar pale, out of the
    orange's class, and the correct build was judged `missing:O`. Something of its hue
    shows in a stone's shape by the build (`lookalike.hued`): not found (unsure), never
    missing. Without the check the same photo is judged wrong."""
    import numpy as np

    def hot_spot(image):
        h, w = image.shape[:2]
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        spot = np.exp(-((x - 0.35 * w) ** 2 + (y - 0.6 * h) ** 2) / (2 * (0.12 * w) ** 2))
        return image + 0.3 * 255 * spot[..., None]

    judged = _changed_and_judged("NH04-05", hot_spot)
    s = default_settings()
    off = judged(replace(s, build=replace(s.build, hued_degrees=0.0)))
    assert off.verdict == "wrong" and [f.code for f in off.faults] == ["missing:O"]
    now = judged(s)
    assert now.verdict == "unsure" and [r.code for r in now.reasons] == ["stone:not-found:O"]


@pytest.mark.parametrize("scene,change", [
    ("G01-07", "gamma"),      # a grey bar standing in a lamp's light, taken by the table's class
    ("OS04-03", "contrast"),  # a grey bar whose face a flat tone moved out of its class
])
def test_a_grey_stone_out_of_its_class_but_grey_in_a_stones_shape_is_never_missing(scene,
                                                                                     change):
    """A break-it trial (twenty-fifth session): a gamma of 0.75 (G01-07) or a contrast of
    0.75 (OS04-03) after the colour photo moved a grey bar out of the grey's class (into
    the table's, or none), and the correct build was judged `missing:G`. Grey has no hue
    for `lookalike.hued` to follow; something grey shows in a stone's shape within one band of
    lightness by the build (`lookalike.greyish`): not found (unsure), never missing. Without
    the check the same photo is judged wrong."""

    def changed(image):
        if change == "gamma":
            return 255 * (image / 255) ** 0.75
        return (image - 128) * 0.75 + 128

    judged = _changed_and_judged(scene, changed)
    s = default_settings()
    off = judged(replace(s, build=replace(s.build, grey_band_l=0.0)))
    assert off.verdict == "wrong" and [f.code for f in off.faults] == ["missing:G"]
    now = judged(s)
    assert now.verdict == "unsure" and "stone:not-found:G" in [r.code for r in now.reasons]


def test_a_grey_as_light_as_snow_is_not_placed_from_its_top():
    """PO03-06 re-saved at JPEG quality 92, nothing else (a break-it trial, twenty-fifth
    session): its grey, 3 of 22 from snow's white at this station, stands under the blue bar
    with a snow cube between them; placed from its top end (the cube's), it was fitted a unit
    high and the correct build judged wrong for certain. At a station whose grey is as light
    as snow no grey bar is placed from its top (`fit.anchor_grey_apart`): unsure."""
    judged = _changed_and_judged("PO03-06", lambda image: image)
    s = default_settings()
    off = judged(replace(s, fit=replace(s.fit, anchor_grey_apart=0.0)))
    assert off.verdict == "wrong" and "position:G" in [f.code for f in off.faults]
    now = judged(s)
    assert now.verdict == "unsure" and "stone:hidden:G" in [r.code for r in now.reasons]



def test_a_stone_running_out_of_the_photo_is_not_placed():
    """A break-it trial (twenty-sixth session): F01-02, a correct build, with the top 13 % of
    the photo cut off and judged as a phone's photo (`--phone`): its standing purple bar runs
    out of the frame, what lies beyond reads as paper, and it was fitted a unit low: wrong
    for certain (`position:P`). A fit within a unit of the photo's edge has an end not seen
    (`fit.frame_reach_u`): unsure, `stone:hidden:P`."""
    from referee.tuki.judge import judge
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    label = json.loads((HARD / "scenes/F01-02/label.json").read_text())
    st = load_station(HARD / f"stations/{label['station']}/station.json")
    image = read_photo(HARD / "scenes/F01-02/image.jpg")
    photo = image[int(image.shape[0] * 0.13):]
    die = label["die"]["animal"] + ("+white" if label["die"]["white_square"] else "")
    s = default_settings()

    def judged(settings):
        m = measure(photo, st, settings, intrinsics="from-mat")
        return judge(label["target"], die, m.build, label["level"])

    off = judged(replace(s, fit=replace(s.fit, frame_reach_u=0.0),
                         build=replace(s.build, overlap_weak=False)))
    assert label["verdict"] == "correct"
    assert off.verdict == "wrong" and [f.code for f in off.faults] == ["position:P"]
    # with the frame rule off the purple is weak still: its fit stands in another stone
    # (assemble.stood_in, the twenty-ninth session)
    alone = judged(replace(s, fit=replace(s.fit, frame_reach_u=0.0)))
    assert alone.verdict == "unsure" and "stone:unclear:P" in [r.code for r in alone.reasons]
    now = judged(s)
    assert now.verdict == "unsure" and "stone:hidden:P" in [r.code for r in now.reasons]


def test_a_spare_stone_lying_by_the_mat_is_no_table_colour():
    """PY04-04 (correct, the twenty-sixth session's unseen PY): a spare dark grey bar lying
    flat beside the mat made a table colour near the grey (6 % of the table around the
    mat), which took the standing grey bar's face: hidden, unsure. A table colour that near
    a stone and that rare is a spare stone (`colour.spare_near`, `colour.spare_share`)."""
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    st = load_station(HARD / "stations/PY04/station.json")
    image = read_photo(HARD / "scenes/PY04-04/image.jpg")
    grey = next(f for f in measure(image, st).fits if f.colour == "G")
    assert grey.fill >= 0.6
    s = default_settings()
    off = measure(image, st, replace(s, colour=replace(s.colour, spare_share=0.0)))
    assert "stone:hidden:G" in {p.code for p in off.build.problems}


def test_channels_are_called_swapped_only_where_another_order_fits_clearly_better():
    """QA04-04 (correct, the twenty-seventh session's unseen QA): its grey, blue and purple
    fit their calibrated colours at 3.1, and with red and green exchanged at 1.5 (those three
    look much alike so): it was `photo:colours`. A swap needs another order better by
    `colour.channel_order_margin` (a photo with its channels exchanged: 3.8 or more)."""
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    st = load_station(HARD / "stations/QA04/station.json")
    image = read_photo(HARD / "scenes/QA04-04/image.jpg")
    assert "photo:colours" not in {p.code for p in measure(image, st).build.problems}
    s = default_settings()
    off = measure(image, st, replace(s, colour=replace(s.colour, channel_order_margin=0.0)))
    assert "photo:colours" in {p.code for p in off.build.problems}
    swapped = measure(image[:, :, ::-1].copy(), st)  # red and blue exchanged: still said
    assert "photo:colours" in {p.code for p in swapped.build.problems}
