"""A lying bar fitted too high on its top face, its front face running on below the fit with
its grooves (`ends.face_below`): weak, so no fault rests on it alone (PP02-05, PR03-05, both
measured unseen; split from test_vision_bar_ends.py)."""

from dataclasses import replace

import numpy as np

from referee.vision.fit import BarFit

from .test_vision_bar_ends import _painted
from .test_vision_trust import U


def _bar_over(shade_l: float):
    """A lying orange bar's front face 5 u × 1 u from (40, 60) mm (L 70, grooves every unit
    at L 45), its top face 0.5 u above it (L 60), over a shade of its colour without grooves
    from 50 mm up (L `shade_l`: a shadow on the table); its colour mask covers all of it."""
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    lum = np.full((view.height, view.width), 40.0, np.float32)
    lum[_painted(view, [(40.0, 50.0, 5 * U, 10.0)])] = shade_l
    lum[_painted(view, [(40.0, 60.0, 5 * U, U)])] = 70.0
    lum[_painted(view, [(40.0, 60.0 + U, 5 * U, 0.5 * U)])] = 60.0
    for k in range(1, 5):
        lum[_painted(view, [(40.0 + k * U - 0.5, 60.0, 1.0, U)])] = 45.0
    mask = _painted(view, [(40.0, 50.0, 5 * U, 10.0 + 1.5 * U)])
    return view, lum, mask


def test_a_lying_bars_face_running_on_below_it_grooves_and_all_is_weak():
    """PP02-05, measured unseen: a snow piece standing in front of an orange bar hid its foot;
    the template took its top face for part of its front face and fitted it 0.58 u high, a
    correct build judged wrong for certain. Its face, grooves and all, runs on below such a
    fit: the fit is weak, so no fault rests on it alone. Fitted where it stands, over a
    shadow of its colour (F02-05, NC04-04: a blue and a grey bar on the table over their
    shade), as light as its face or darker, nothing is said: a shadow has no grooves."""
    from referee.vision.ends import face_below

    high = BarFit("O", "H", 40.0, 68.0, 0.95, 0.9)
    for shade in (70.0, 50.0, 90.0):
        view, lum, mask = _bar_over(shade)
        assert face_below(mask, lum, view, U, high, 0.25, 0.5, 0.25)
        assert not face_below(mask, lum, view, U, replace(high, h_mm=60.0), 0.25, 0.5, 0.25)
        assert not face_below(mask, lum, view, U, replace(high, orientation="V"), 0.25, 0.5,
                              0.25)
    # a fit a little high (under a quarter unit) is left to the judge's doubt
    assert not face_below(mask, lum, view, U, replace(high, h_mm=63.0), 0.25, 0.5, 0.25)


def test_a_lying_bar_fitted_a_unit_high_on_its_darker_top_face_is_weak():
    """PR03-05, measured unseen: a grey bar on snow, under a low lamp, its top face darker
    (L 39) than its front face (L 52) and its top face's grooves 0.17 u to the side of the
    front face's; the template took the top face and the paper's shade above it for its face,
    a whole unit high, and a correct build was judged wrong for certain. Neither the
    lightness nor the grooves' exact column is asked of the face below the fit: its grooves,
    within a quarter unit sideways, are. Searched at their exact column only, they are
    missed, as they were."""
    from referee.vision.ends import face_below
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    lum = np.full((view.height, view.width), 40.0, np.float32)
    lum[_painted(view, [(40.0, 60.0 + U, 5 * U, 0.8 * U)])] = 39.0   # the top face, dark
    lum[_painted(view, [(40.0, 60.0 + 1.8 * U, 5 * U, 0.8 * U)])] = 66.0  # paper's shade
    lum[_painted(view, [(40.0, 60.0, 5 * U, U)])] = 52.0              # the front face
    for k in range(1, 5):
        lum[_painted(view, [(40.0 + k * U - 0.5, 60.0 + U, 1.0, 0.8 * U)])] = 30.0
        lum[_painted(view, [(40.0 + (k + 0.17) * U - 0.5, 60.0, 1.0, U)])] = 38.0
    mask = _painted(view, [(40.0, 60.0, 5 * U, 2.6 * U)])
    high = BarFit("G", "H", 40.0, 60.0 + U, 0.79, 0.9)
    assert face_below(mask, lum, view, U, high, 0.25, 0.5, 0.25)
    assert not face_below(mask, lum, view, U, high, 0.25, 0.5, 0.0)
    assert not face_below(mask, lum, view, U, replace(high, h_mm=60.0), 0.25, 0.5, 0.25)


def _lying_scene(high: bool):
    """A lying blue bar's front face 5 u × 1 u from (40, 60) mm (Lab 55, 0, −40), its top
    face 0.5 u above it (Lab 75, 0, −25) when not `high`, over a grey wall (Lab 80, 0, 0).
    `high`: the front face shows from 60 mm up a unit, then the top face (the fit a unit
    high sits on the top face and the wall above it); its colour mask covers both faces."""
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 200.0)
    lab = np.zeros((view.height, view.width, 3), np.float32)
    lab[...] = (80.0, 0.0, 0.0)
    lab[_painted(view, [(40.0, 60.0, 5 * U, U)])] = (55.0, 0.0, -40.0)
    lab[_painted(view, [(40.0, 60.0 + U, 5 * U, 0.5 * U)])] = (75.0, 0.0, -25.0)
    mask = _painted(view, [(40.0, 60.0, 5 * U, 1.5 * U)])
    return view, lab, mask


def test_a_lying_bar_fitted_on_its_top_face_shows_no_top_face_above_it():
    """QD04-04 as a phone photo (measured unseen, a correct build judged wrong for certain):
    a snow piece standing in front broke up the blue bar's front face, and the fit went a
    unit high onto its top face; its face below showed the grooves too faintly for
    `face_below`. Above that fit no top face shows, only the wall beyond, and its colour runs
    on below it: weak. Fitted on its front face, its top face shows above it; a stone
    standing on it covers that band (`cover`), and a standing bar's rule is not asked of a
    lying one unless `lying`."""
    from referee.vision.ends import bare_top, run_below
    from referee.vision.settings import default_settings

    s = default_settings()
    view, lab, mask = _lying_scene(high=True)
    band = (0.0, 0.5 * U)  # a unit deep shows half a unit tall
    args = (s.fit.bare_top_fill, s.fit.bare_top_band_u, s.fit.bare_top_hue_deg,
            s.colour.neutral_chroma, 13.0, 0.4)
    cover = np.zeros(mask.shape, bool)
    high = BarFit("B", "H", 40.0, 60.0 + U, 0.6, 0.8)
    right = replace(high, h_mm=60.0)
    assert bare_top(mask, cover, lab, view, U, high, band, *args, lying=True)
    assert run_below(mask, view, U, high) >= 0.25 * U * view.px_per_mm
    assert not bare_top(mask, cover, lab, view, U, high, band, *args)  # a standing bar's rule
    assert not bare_top(mask, cover, lab, view, U, right, band, *args, lying=True)
    assert run_below(mask, view, U, right) < 0.25 * U * view.px_per_mm
    stood = np.zeros(mask.shape, bool)
    c0, _ = view.to_px(40.0, 0.0)
    stood[:, int(c0):int(c0) + int(4.5 * U * view.px_per_mm)] = True  # a stone on it
    assert not bare_top(mask, stood, lab, view, U, high, band, *args, lying=True)


def test_qd04_04_as_a_phone_photo_is_unsure_not_wrong():
    """The photo itself (fixtures/hard-scenes): unsure for the blue stone, and judged wrong
    for certain with the lying bar's rule off."""
    from referee.vision.settings import default_settings

    from .conftest import scene_check
    from .test_vision_trust import HARD

    got = scene_check(HARD, "QD04-04", intrinsics="from-mat")
    assert got.verdict.verdict == "unsure"
    assert [r.code for r in got.verdict.reasons] == ["stone:unclear:B"]
    s = default_settings()
    off = replace(s, fit=replace(s.fit, bare_top_lying=False))
    got = scene_check(HARD, "QD04-04", intrinsics="from-mat", settings=off)
    assert got.verdict.verdict == "wrong"
    assert [f.code for f in got.verdict.faults] == ["position:B"]
