"""The colour stack's sanity: a picture without the stack never becomes a colour model."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.colour import ColourModel, learn_from_stack
from referee.vision.rectify import FrontView
from referee.vision.settings import default_settings


def _view() -> FrontView:
    s = default_settings()
    return FrontView.for_settings(s.rectify.px_per_mm, s.rectify.view_height_mm)


def test_separation_names_each_colours_nearest_and_how_far():
    """A light grey as white as the snow is close to it; the hues of the priors lie apart;
    a chromatic stone in shade (its centre's line) is no nearer for being darker."""
    pale = ColourModel({"G": (90.0, 0.0, 0.0), "B": (55.0, -5.0, -35.0),
                        "P": (55.0, 22.0, -25.0), "white": (96.0, 0.0, 0.0)})
    sep = {c: (near, d) for c, near, d in pale.separation("GBP")}
    assert sep["G"][0] == "white" and sep["white"][0] == "G"
    assert sep["G"][1] == pytest.approx(0.4 * 6.0, abs=1e-3)
    assert sep["B"][0] == "P" and sep["B"][1] > 20
    priors = {c: d for c, _, d in ColourModel.priors().separation("GBPO")}
    assert min(priors.values()) > 12  # the defaults tell every class apart


def test_bare_paper_is_not_a_colour_stack():
    view = _view()
    h, w = view.height, view.width
    lab = np.zeros((h, w, 3), np.float32)
    lab[..., 0] = 97.0  # the mat's paper, nothing on it
    lab[:, w // 3: w // 3 + 5] = (90.0, 1.0, 1.0)  # a crease: something to "find"
    with pytest.raises(ValueError, match="colour stack"):
        learn_from_stack(lab, view, "GBP", 16.0)


def _learnt_from(background, colours: dict, unit: float, x_mm: float, table=None) -> None:
    """A front view of a colour stack (`colours` bottom to top, left ends at `x_mm`) on
    `background`, with `table` beside the paper (25 mm each side) if given, is learnt as
    those colours."""
    view = _view()
    lab = np.zeros((view.height, view.width, 3), np.float32)
    lab[...] = background
    if table is not None:
        edge = int(round(25 * view.px_per_mm))
        lab[:, :edge] = lab[:, -edge:] = table
    for k, c in enumerate(colours):
        x0, y0 = view.to_px(x_mm, (k + 1) * unit)
        x1, y1 = view.to_px(x_mm + 5 * unit, k * unit)
        lab[int(y0):int(y1), int(x0):int(x1)] = colours[c]
    model = learn_from_stack(lab, view, "".join(colours), unit)
    for c, lab_c in colours.items():
        assert np.allclose(model.centres[c], lab_c, atol=1.0)


def test_a_stack_of_distinct_stones_is_learnt():
    _learnt_from((97.0, 0.0, 0.0), {"G": (55.0, 0.0, -2.0), "B": (50.0, -5.0, -35.0),
                                    "P": (45.0, 25.0, -25.0)}, 16.0, 10.0)


def test_a_pale_stack_on_paper_between_a_dark_tables_edges_is_learnt():
    """A pale edition's stack (12 mm stones) on the paper, which a dark table flanks in every
    row: the table's edges differ more from the rows' background (the paper) than the pale
    stones do, and were taken for the stack (P01's colour photo, a station left on the
    default colours). The stack's bands differ from band to band; the table's do not."""
    _learnt_from((95.0, 0.0, 0.0), {"G": (82.0, 3.0, 5.0), "B": (84.0, -3.0, -14.0),
                                    "P": (81.0, 15.0, -10.0)}, 12.0, 110.0,
                 table=(45.0, -40.0, 30.0))


def test_the_pale_edition_station_learns_its_colours_from_its_photo():
    """P01 (our `--hard` renders, fixtures/hard-scenes): its colour photo gives the model."""
    from referee.paths import FIXTURES
    from referee.vision.station import load_station

    st = load_station(FIXTURES / "hard-scenes/stations/P01/station.json")
    assert st.colour_model.source == "photo"
    assert st.colour_model.centres["B"][2] < -10 and st.colour_model.centres["P"][1] > 10


def _stack(colours: dict, unit: float = 16.0, x_mm: float = 60.0):
    view = _view()
    lab = np.zeros((view.height, view.width, 3), np.float32)
    lab[...] = (97.0, 0.0, 0.0)
    for k, c in enumerate(colours):
        x0, y0 = view.to_px(x_mm, (k + 1) * unit)
        x1, y1 = view.to_px(x_mm + 5 * unit, k * unit)
        lab[int(y0):int(y1), int(x0):int(x1)] = colours[c]
    return lab, view


GREY, BLUE, PURPLE = (55.0, 0.0, -2.0), (50.0, -5.0, -35.0), (45.0, 25.0, -25.0)


@pytest.mark.parametrize("colours, why", [
    # blue and purple swapped, each inside both families (a blue-violet and a violet)
    ({"G": GREY, "B": (50.0, 15.0, -26.0), "P": (45.0, 9.0, -33.0)}, "not blue below purple"),
    ({"G": GREY, "B": PURPLE, "P": BLUE}, "does not look purple"),
    ({"G": GREY, "B": (60.0, 30.0, 40.0), "P": PURPLE}, "does not look blue"),
    ({"G": GREY, "B": BLUE, "P": PURPLE, "O": (50.0, 20.0, -30.0)}, "does not look orange"),
    ({"G": (60.0, 30.0, -30.0), "B": BLUE, "P": PURPLE}, "is not grey"),
    # NP04: a lamp behind the stack, its front in deep shade: say so, not "no colour"
    ({"G": (1.0, 0.0, 0.0), "B": (3.3, 1.3, -7.4), "P": PURPLE}, "lies in shade"),
    ({"G": GREY, "B": (50.0, 1.3, -5.0), "P": PURPLE}, "shows no colour"),
])
def test_a_band_that_is_not_the_stone_it_is_named_for_is_refused(colours, why):
    """Stones are named for what they look like (WORLD.md §1: editions differ, within their
    families): a stack whose bands do not look like their names is no colour stack, and
    would teach the referee a wrong colour (a build photo taken for the stack learnt a
    purple "orange", and a correct build was judged wrong)."""
    lab, view = _stack(colours)
    with pytest.raises(ValueError, match=why):
        learn_from_stack(lab, view, "".join(colours), 16.0)


@pytest.mark.parametrize("colours", [
    # OV02 (measured unseen, the paper clipped): over-exposed, blue turns cyan (hue 211)
    {"G": (89.7, -0.5, 3.7), "B": (91.8, -20.1, -12.3), "P": (82.4, 37.1, -24.8),
     "O": (97.0, -16.0, 61.0)},
    # OT02 (measured unseen, the paper clipped): an orange cast tints the grey (chroma 27.5)
    # more than it leaves the blue (18.3)
    {"G": (76.2, 13.5, 23.9), "B": (62.1, 11.8, -14.0), "P": (55.9, 32.8, -3.2)},
])
def test_a_true_stack_over_exposed_or_under_a_colour_cast_is_learnt(colours):
    """Both stations' stacks were refused ("does not look blue", "is not grey"), each left
    on the default colours, and each of their 6 builds was unsure; learnt, all 12 are judged
    right (no wrong verdict). A swap with the grey is still refused where the grey lands."""
    lab, view = _stack(colours)
    model = learn_from_stack(lab, view, "".join(colours), 16.0)
    for c, lab_c in colours.items():
        assert np.allclose(model.centres[c], lab_c, atol=1.0)
    swapped = {"G": colours["B"], "B": colours["G"], "P": colours["P"]}
    lab, view = _stack(swapped)
    with pytest.raises(ValueError, match="does not look blue|shows no colour"):
        learn_from_stack(lab, view, "GBP", 16.0)


def test_a_band_of_two_colours_is_refused():
    colours = {"G": GREY, "B": BLUE, "P": PURPLE}
    lab, view = _stack(colours)
    learn_from_stack(lab, view, "GBP", 16.0)  # the stack itself is learnt
    x0, y0 = view.to_px(60.0 + 40.0, 3 * 16.0)  # the purple band's right half is grey
    x1, y1 = view.to_px(60.0 + 80.0, 2 * 16.0)
    lab[int(y0):int(y1), int(x0):int(x1)] = GREY
    with pytest.raises(ValueError, match="not one colour along its length"):
        learn_from_stack(lab, view, "GBP", 16.0)


@pytest.mark.parametrize("photo, station, order", [("scenes/D01-07/image.jpg", "D01", "GBP"),
                                                   ("scenes/D01-07/image.jpg", "D01", "GBPO"),
                                                   ("scenes/D05-03/image.jpg", "D05", "GBPO"),
                                                   ("stations/D04/colours.jpg", "D04", "GBPO")])
def test_a_photo_that_is_not_the_stations_colour_stack_is_refused(photo, station, order):
    """A new user's trial: a build photo (D01-07), and a three-stone stack for a station of
    four, were taken as colour photos, and correct builds were then judged wrong. D05-03's
    bands looked like a stack with blue and purple swapped. (Each through its own station's
    camera: another camera's photo is refused before, `mats.camera_mismatch`.)"""
    from referee.paths import FIXTURES
    from referee.vision.calibration import learn_colours_from_photo
    from referee.vision.errors import CalibrationError
    from referee.vision.station import load_station

    dev = FIXTURES / "dev-scenes"
    st = load_station(dev / f"stations/{station}/station.json", learn_colours=False)
    with pytest.raises(CalibrationError, match="colour stack"):
        learn_colours_from_photo(dev / photo, st, order)
    model, _ = learn_colours_from_photo(dev / f"stations/{station}/colours.jpg", st,
                                        "GBPO" if station == "D01" else st.colours)
    assert model.source == "photo"


def test_a_colour_photo_through_another_camera_is_refused():
    """A new user's trial learnt another station's colours through a camera of the same
    picture size (D04's photo for D01, the mat 19 % wider): refused, as `judge` refuses a
    photo of another camera (`mats.camera_mismatch`)."""
    from referee.paths import FIXTURES
    from referee.vision.calibration import learn_colours_from_photo
    from referee.vision.errors import CalibrationError
    from referee.vision.station import load_station

    dev = FIXTURES / "dev-scenes"
    st = load_station(dev / "stations/D01/station.json", learn_colours=False)
    with pytest.raises(CalibrationError, match="does not fit the station's camera"):
        learn_colours_from_photo(dev / "stations/D04/colours.jpg", st, "GBPO")


def test_the_printed_mat_keeps_5_mm_clear_of_every_edge_and_its_check_readable():
    """Printers clip near the edge: nothing is printed within 5 mm of it, and the print
    check sits between the board and the edge toward the camera, not under the board."""
    from referee.vision.mat import (
        BOARD_TOP_MM,
        MARGIN_MM,
        PAPER_H_MM,
        SQUARE_MM,
        SQUARES,
        render_sheet,
    )

    s = 10
    dark = render_sheet(s) < 250
    m = round(MARGIN_MM * s)
    assert not dark[:m].any() and not dark[-m:].any()
    assert not dark[:, :m].any() and not dark[:, -m:].any()
    board_bottom = round((BOARD_TOP_MM + SQUARES[1] * SQUARE_MM) * s)
    band = dark[board_bottom + 2:round((PAPER_H_MM - MARGIN_MM) * s)]
    assert band.sum() > 2000  # the line of text is there, below the board


def test_an_overlay_for_phones_has_no_english_captions():
    """The phones show the verdict's words in their own language: the server's overlay
    draws the stones and the mat, and no banner of English words."""
    from referee.check import check_photo, decode_photo, load_station
    from referee.paths import FIXTURES

    scene = FIXTURES / "dev-scenes" / "scenes" / "D03-02"
    import json

    label = json.loads((scene / "label.json").read_text())
    station = load_station(FIXTURES / "dev-scenes" / "stations" / "D03" / "station.json")
    image = decode_photo((scene / "image.jpg").read_bytes())
    die = label["die"]["animal"] + ("+white" if label["die"]["white_square"] else "")
    with_words = check_photo(image, station, label["target"], die, captions=True).overlay_bgr
    bare = check_photo(image, station, label["target"], die, captions=False).overlay_bgr
    top = slice(0, 30)
    assert with_words[top].mean() < 0.6 * image[top].mean()  # the dark strip of words
    assert abs(float(bare[top].mean()) - float(image[top].mean())) < 5


def test_an_overlays_captions_wrap_to_the_photo_and_keep_every_word():
    """A new user's trial: a washed-out photo's advice was cut off at the photo's edge
    ("... lower the ligh"). Each fault or reason is broken between words into lines that fit
    the photo's width."""
    import cv2

    from referee.vision.overlay import _wrap

    text = ("photo:bright: the photo is washed out: nothing in it is dark, not even the mat's "
            "black squares; lower the light, or the camera's exposure or brightness")
    lines = _wrap(text, 300, 0.5)
    assert len(lines) > 2
    assert all(cv2.getTextSize(ln, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)[0][0] <= 300
               for ln in lines)
    assert " ".join(ln.strip() for ln in lines) == text


def test_a_phone_photo_is_judged_with_the_camera_worked_out_from_the_mat():
    """A station whose profile's focal length is 40 % off (a phone is not the station's
    webcam): the photo judged "from-mat" gets the label's verdict; its focal length is within
    a few percent of the true one."""
    import dataclasses
    import json

    import cv2

    from referee.check import check_photo, decode_photo, load_station
    from referee.paths import FIXTURES
    from referee.vision.calibration import intrinsics_from_mat
    from referee.vision.pose import detect_mat

    root = FIXTURES / "dev-scenes"
    right = 0
    scenes = ["D03-02", "D03-05", "D04-01", "D04-06"]
    for name in scenes:
        scene = root / "scenes" / name
        label = json.loads((scene / "label.json").read_text())
        station = load_station(root / "stations" / label["station"] / "station.json")
        image = decode_photo((scene / "image.jpg").read_bytes())
        k, doubt, rms = intrinsics_from_mat(detect_mat(cv2.cvtColor(image,
                                                                    cv2.COLOR_BGR2GRAY)),
                                            (image.shape[1], image.shape[0]))
        true_f = station.camera_for(image.shape)[0, 0]
        assert abs(k[0, 0] / true_f - 1) < max(0.05, 3 * doubt), name
        k_off = station.camera_matrix.copy()
        k_off[:2, :2] *= 1.4
        off = dataclasses.replace(station, camera_matrix=k_off)
        die = label["die"]["animal"] + ("+white" if label["die"]["white_square"] else "")
        v = check_photo(image, off, label["target"], die, overlay=False,
                        intrinsics="from-mat").verdict.verdict
        assert v in (label["verdict"], "unsure"), name  # never confidently wrong
        right += v == label["verdict"]
    assert right >= 3


def test_a_phone_photo_whose_focal_length_is_known_roughly_is_judged_when_the_verdict_holds():
    """S03-01 (a wrong build, our `--hard` renders): the mat in it pins a phone's focal length
    down only to ±6.9 % (1σ), over `max_focal_doubt`. It was refused as `mat:weak`; now it is
    measured again at the focal length ±2σ and, the verdict holding there, judged."""
    import json

    from referee.check import check_photo, load_station, read_photo
    from referee.paths import FIXTURES
    from referee.vision.pipeline import measure
    from referee.vision.settings import default_settings

    root = FIXTURES / "hard-scenes"
    label = json.loads((root / "scenes/S03-01/label.json").read_text())
    station = load_station(root / "stations/S03/station.json")
    image = read_photo(root / "scenes/S03-01/image.jpg")
    m = measure(image, station, intrinsics="from-mat")
    low, high = m.focal_checks
    pose = default_settings().pose
    assert 1 - low == pytest.approx(high - 1)
    assert high - 1 > pose.focal_check_sigmas * pose.max_focal_doubt
    chk = check_photo(image, station, label["target"], "bear", overlay=False,
                      intrinsics="from-mat")
    assert chk.verdict.verdict == "wrong" == label["verdict"]
    assert chk.timings_ms["focal_checks"] > 0
    # the station's own camera needs no such check
    assert measure(image, station).focal_checks == ()


def test_a_verdict_that_changes_with_a_roughly_known_focal_length_is_unsure(monkeypatch):
    """The doubt carried into the verdict: where the build measured at one end of the focal
    length's range breaks the card and at the other end does not, no penalty card."""
    from dataclasses import replace

    from referee.build import MeasuredBuild
    from referee.check import FOCAL_DOUBT, check_photo, load_station
    from referee.paths import FIXTURES
    from referee.tuki.buildgrid import build_from_grid
    from referee.vision import pipeline
    from referee.vision.pipeline import Measurement

    card = ("BBBBB",) + ("G...P",) * 5
    right = build_from_grid(card)
    seen = []

    def fake(image, station, settings=None, intrinsics="station", focal_scale=1.0):
        seen.append(focal_scale)
        # the purple stone drifts with the focal length: a unit off at its long end
        b = right if focal_scale <= 1.0 else MeasuredBuild(tuple(
            s if s.colour != "P" else replace(s, x_u=s.x_u + 1) for s in right.stones),
            right.unit_mm)
        return Measurement(b, focal_checks=(0.9, 1.1) if focal_scale == 1.0 else ())

    monkeypatch.setattr(pipeline, "measure", fake)
    station = load_station(FIXTURES / "dev-scenes/stations/D01/station.json")
    image = np.zeros((60, 80, 3), np.uint8)
    v = check_photo(image, station, card, "bear", "normal", overlay=False,
                    intrinsics="from-mat").verdict
    assert v.verdict == "unsure" and [(r.code, r.text) for r in v.reasons] == [
        ("mat:weak", FOCAL_DOUBT)]
    assert seen == [1.0, 0.9, 1.1]
    # when it holds at both ends, the verdict stands
    seen.clear()
    monkeypatch.setattr(pipeline, "measure", lambda *a, focal_scale=1.0, **k: (
        seen.append(focal_scale), Measurement(right, focal_checks=(0.9, 1.1)))[1])
    v = check_photo(image, station, card, "bear", "normal", overlay=False,
                    intrinsics="from-mat").verdict
    assert v.verdict == "correct" and seen == [1.0, 0.9, 1.1]
