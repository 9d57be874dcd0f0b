"""Refinement of a fitted bar on crafted front views: what moves a fit after its template
(grooves.refine), each rule with the case it failed on."""

import numpy as np

from referee.vision.fit import BarFit
from referee.vision.grooves import refine
from referee.vision.rectify import FrontView

from .test_vision_trust import U, _painted


def _lying_bar(top_face: float, above: float, covered: bool):
    """A lying bar, its front face 5 u × 1 u from (40, 80) mm, its top face 3 mm above it at
    lightness `top_face`, over a backdrop at `above`; grooves every unit. `covered`: a
    stone of another colour lies on it instead (the mask stops at the front face)."""
    view = FrontView.for_settings(2.0, 200.0)
    lum = np.full((view.height, view.width), above, np.float32)
    lum[_painted(view, [(40.0, 80.0, 5 * U, U)])] = 28.0
    lum[_painted(view, [(40.0, 80.0 + U, 5 * U, 3.0)])] = top_face
    for k in range(1, 5):
        lum[_painted(view, [(40.0 + k * U - 0.5, 80.0, 1.0, U)])] = 15.0
    mask = _painted(view, [(40.0, 80.0, 5 * U, U + (0.0 if covered else 3.0))])
    return view, lum, mask


def test_a_top_face_lit_as_the_front_does_not_lift_a_lying_bar():
    """E03-01: a blue bar on two snow pillars, its top face as dark as its front face. The
    strongest step near the fitted top was the top face's far edge, with the backdrop above
    it; the bar was moved up onto it, 0.28 u too high, and a correct build was unsure. A
    step with no colour above it is no edge between the bar's faces."""
    view, lum, mask = _lying_bar(top_face=28.0, above=66.0, covered=False)
    fit = BarFit("B", "H", 40.0, 80.0, 1.0, 0.95)
    got = refine(fit, lum, view, U, mask=mask)
    assert abs(got.h_mm - 80.0) < 0.3 and not got.edge  # its height is the template's
    # without the mask the old reading comes back: the far edge, a top face's depth higher
    assert refine(fit, lum, view, U).h_mm > 82.5


def test_the_edge_between_a_lying_bars_faces_still_places_it():
    """Where the top face is lit otherwise, the step between the faces (colour on both
    sides) places a fit that the template set a little high."""
    view, lum, mask = _lying_bar(top_face=55.0, above=66.0, covered=False)
    got = refine(BarFit("B", "H", 40.0, 81.5, 1.0, 0.95), lum, view, U, mask=mask)
    assert abs(got.h_mm - 80.0) < 0.3 and got.edge


def test_a_lying_bar_covered_by_another_is_placed_by_the_top_of_its_colour():
    """E05-03: a grey bar with the blue on it, so its top face is hidden; the top of its
    colour is its front face's top edge, and a fit set high moves down onto it."""
    view, lum, mask = _lying_bar(top_face=60.0, above=60.0, covered=True)
    got = refine(BarFit("G", "H", 40.0, 82.0, 1.0, 0.95), lum, view, U, mask=mask)
    assert abs(got.h_mm - 80.0) < 0.3


def test_a_stone_on_snow_tinted_like_the_light_stands_by_its_grooves():
    """Z03-04: the paper clipped, so the white balance missed the light's blue; the snow
    pillar under a grey bar came out bluish, and neither the template's strip nor the chain
    to the table took it for snow. The bar's grooves show, and a stone with its grooves may
    stand on anything light (`ground`): but the candidate had never been placed on its
    grooves, since the template saw it unsupported, and it was judged unsupported."""
    from referee.vision.choose import ground
    from referee.vision.settings import default_settings

    view = FrontView.for_settings(2.0, 200.0)
    lum = np.full((view.height, view.width), 73.0, np.float32)
    lum[_painted(view, [(100.0, 3 * U, U, 5 * U)])] = 40.0
    for k in range(1, 5):
        lum[_painted(view, [(100.0, (3 + k) * U - 0.5, U, 1.0)])] = 20.0
    mask = _painted(view, [(100.0, 3 * U, U, 5 * U)])
    snow = _painted(view, [(100.0, 0.0, U, 3 * U)])  # light enough to hold a stone up
    nothing = np.zeros_like(snow)  # no chain of snow or stones that the colours vouch for
    cand = BarFit("G", "V", 100.0, 3 * U + 1.0, 0.97, 0.97, supported=False)
    (got,) = ground([cand], {"G": [cand]}, snow, nothing, lum, view, U, 3.0,
                    default_settings(), {"G": mask})
    assert got.supported and got.grooves and abs(got.h_mm - 3 * U) < 0.5
    # with nothing light under it, it stays unsupported
    (got,) = ground([cand], {"G": [cand]}, nothing, nothing, lum, view, U, 3.0,
                    default_settings(), {"G": mask})
    assert not got.supported
