"""When a stone not found is `missing` (a fault the judge names) and when only
`stone:not-found` (unsure): `missing` needs evidence that the stone could have been seen
(the issue on unseen tables; split from test_vision_trust.py). On crafted fits through
`assemble`, and on fixture photos."""

import json
from dataclasses import replace

import cv2

from referee.check import check_photo
from referee.paths import FIXTURES
from referee.vision.assemble import assemble
from referee.vision.fit import BarFit
from referee.vision.settings import default_settings

from .conftest import die_text, label, photo, station
from .test_vision_trust import U, codes, fit, verdict


def test_a_stone_not_found_beside_a_hidden_one_is_not_missing():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1, fill=0.4)], U, 2.0,
                 default_settings(), "GBP")
    assert "stone:not-found:P" in codes(b) and "stone:hidden:B" in codes(b)
    assert "photo:unclear" in codes(b)


def test_a_stone_not_found_in_a_clipped_photo_is_not_missing():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1)], U, 2.0, default_settings(), "GBP",
                 paper_clipped=True)
    assert codes(b) == ["stone:not-found:P", "photo:bright"]


def test_stones_gone_under_a_paper_clipped_in_one_channel_make_the_photo_too_bright():
    """NL01: a cyan light, the paper 255 255 239 (clipped in two channels, not in all), the
    stones washed out to its tint: three not found is an over-exposed photo (`photo:bright`,
    what to do about it), not a covered build; one stone gone there is still missing."""
    s = default_settings()
    b = assemble([fit("O", "V", 0, 0)], U, 2.0, s, "GBPO", paper_bright=True)
    assert codes(b) == ["stone:not-found:G", "stone:not-found:B", "stone:not-found:P",
                        "photo:bright"]
    b = assemble([fit("O", "V", 0, 0)], U, 2.0, s, "GBPO")
    assert "photo:unclear" in codes(b) and "photo:bright" not in codes(b)
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1)], U, 2.0, s, "GBP",
                 paper_bright=True)
    assert codes(b) == []  # P is missing: the judge names it


def test_a_stone_not_found_without_a_colour_check_is_not_missing():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1)], U, 2.0, default_settings(), "GBP",
                 unexplained=True)
    assert codes(b) == ["stone:not-found:P", "photo:colours"]


def test_a_stone_not_found_beside_a_colour_shown_in_two_shapes_is_not_missing():
    """A break-it trial: OX02-02 through a phone's processing, its grey bar lying on two snow
    pillars taken for orange as well as the orange bar standing under it; fitted on the grey
    (a rival of the other orientation as good, by the build: `rivalled_by_build`), the grey
    was called missing and a correct build judged wrong. The other shape of that colour may
    be the stone not found: not found, never missing. Without the rival, it is missing (the
    judge names it); a rival far from the build (PG01-05: 15 u up, on the wall) is none."""
    from dataclasses import replace

    s = default_settings()
    fits = [fit("B", "H", 0, 0), fit("O", "H", 0, 5)]
    b = assemble([fits[0], replace(fits[1], rivalled=True)], U, 2.0, s, "GBO",
                 doubled=["O"])
    assert codes(b) == ["stone:not-found:G"]
    assert "orange stone's colour shows in another stone's shape" in b.problems[0].text
    assert codes(assemble(fits, U, 2.0, s, "GBO")) == []
    from referee.vision.rivals import rivalled_by_build

    o = replace(fits[1], rivalled=True, score=0.82)
    near = replace(fit("O", "V", 2, 0.5), score=0.82)  # under it, in the build
    far = replace(fit("O", "V", 2, 15), score=0.82)    # on a wall far behind
    assert rivalled_by_build([fits[0], o], {"O": [o, near]}, U, s) == ["O"]
    assert rivalled_by_build([fits[0], o], {"O": [o, far]}, U, s) == []


def test_a_stone_not_found_is_named_once():
    """Two stones not found (more than a builder forgets) were each named twice among the
    reasons: once as not found, and again as not found beside a stone not measured."""
    b = assemble([BarFit("P", "V", 100.0, 0.0, 0.95, 0.95, True)], 16.0, 0.0,
                 default_settings(), "GBP")
    codes = [p.code for p in b.problems]
    assert "stone:not-found:G" in codes and len(codes) == len(set(codes)), codes


def test_a_stone_not_found_in_a_clean_photo_is_missing():
    b = assemble([fit("G", "H", 0, 0), fit("B", "V", 0, 1)], U, 2.0, default_settings(), "GBP")
    assert codes(b) == [] and [s.colour for s in b.stones] == ["G", "B"]


def test_on_default_colours_a_stone_not_found_is_never_missing(tmp_path):
    """Issue 10: default colours never cost an unfair penalty. A station without its colour
    photo judges on priors; a stone of another edition may be there unseen."""
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


def test_a_stone_not_found_in_a_photo_too_coarse_for_it_is_never_missing():
    """A break-it trial: D06-02 (a correct build) sent at 480×270 showed a unit 10 px wide,
    its grey stone was not found, and the build was judged "missing:G". Where a unit spans
    fewer than `build.min_unit_px` pixels (our sets: 14.9 or more), a stone not found is
    `stone:not-found`, saying why; at full size it is found and judged. (Since a rare table
    colour near a stone is no class, `colour.spare_share`, the grey is found at these sizes
    too and the build judged correct; with that rule off, it is not found, as then.)"""
    lab = label("D06-02")
    img = photo("D06-02")
    s = default_settings()
    before = replace(s, colour=replace(s.colour, spare_share=0.0))
    for size in ((480, 270), (512, 288)):
        small = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        v = check_photo(small, station("D06"), lab["target"], die_text(lab), lab["level"],
                        overlay=False, settings=before).verdict
        assert v.verdict == "unsure" and "missing:G" not in [f.code for f in v.faults], size
        now = check_photo(small, station("D06"), lab["target"], die_text(lab), lab["level"],
                          overlay=False).verdict
        assert now.verdict in ("correct", "unsure"), size
    why = [r.text for r in v.reasons if r.code == "stone:not-found:G"]
    assert why and "small in this photo" in why[0]
    assert verdict(img, "D06-02")[0] == "correct"


def test_a_chromatic_stone_whose_hue_shows_in_a_stones_shape_is_not_found_never_missing():
    """`assemble` asks `hued` of each colour not there (a lamp or a camera's tone may have
    moved a stone out of its class: `lookalike.hued`, for a grey `lookalike.greyish`): where its
    hue (a grey's look) shows in a stone's shape it is not found (unsure), and said so in
    words of its kind; where not, or when nobody asks, missing as before."""
    s = default_settings()
    fits = [fit("G", "H", 0, 0), fit("B", "V", 5, 0)]
    asked: list[str] = []

    def yes(colour: str) -> bool:
        asked.append(colour)
        return True

    b = assemble(fits, U, 2.0, s, "GBO", chromatic="BO", hued=yes)
    assert codes(b) == ["stone:not-found:O"] and asked == ["O"]
    assert codes(assemble(fits, U, 2.0, s, "GBO", chromatic="BO", hued=lambda c: False)) == []
    assert codes(assemble(fits, U, 2.0, s, "GBO", chromatic="BO")) == []  # missing O
    # a grey not there is asked too, and told apart in words: something grey, not its hue
    grey = assemble([fit("B", "V", 5, 0), fit("O", "H", 0, 0)], U, 2.0, s, "GBO",
                    chromatic="BO", hued=yes)
    assert codes(grey) == ["stone:not-found:G"] and asked == ["O", "G"]
    assert "something grey" in grey.problems[0].text
    assert "hue" in b.problems[0].text


def _glared(image, strength: float = 0.3):
    """A lamp's hot spot over the photo, as the break-it trial made it: light added in a
    Gaussian spot (radius 12 % of the width) at 35 % across and 60 % down, saved as a JPEG
    at quality 92."""
    import numpy as np

    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-((x - 0.35 * w) ** 2 + (y - 0.6 * h) ** 2) / (2 * (0.12 * w) ** 2))
    lit = np.clip(image + strength * 255 * spot[..., None], 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", lit, [cv2.IMWRITE_JPEG_QUALITY, 92])[1],
                        cv2.IMREAD_COLOR)


def test_under_a_hot_spot_a_washed_stone_of_its_hue_is_not_found_never_missing():
    """D06-03 and D06-07 (correct builds) under a glare of 30 %: the orange bars, washed to
    chroma 11–14 (the centre's 32) and their hue moved with the clipped paper's balance, were
    judged `missing:O` with confidence. Where the paper in front of the build is blown out
    (`lookalike.veiled_columns`), a stone-shaped thing of about its hue and a little chroma
    is evidence enough that the stone may be there: not found, unsure. The same photos
    without the glare stay correct; with the rule off they are wrong again."""
    s = default_settings()
    off = replace(s, build=replace(s.build, veiled_chroma=0.0))
    for scene in ("D06-03", "D06-07"):
        lab = label(scene)
        args = (station("D06"), lab["target"], die_text(lab), lab["level"])
        glared = _glared(photo(scene))
        got = check_photo(glared, *args, overlay=False)
        assert got.verdict.verdict == "unsure", scene
        assert "stone:not-found:O" in [r.code for r in got.verdict.reasons], scene
        assert check_photo(glared, *args, overlay=False, settings=off).verdict.verdict == \
            "wrong", scene
        assert check_photo(photo(scene), *args, overlay=False).verdict.verdict == "correct"


def test_a_veil_lies_where_the_paper_in_front_is_blown_out_near_what_it_blew_out():
    """`veiled_columns`: a column of the front view is veiled where the strip 2–8 mm below
    the table line (the paper just in front of the build) is blown out in every channel,
    widened by a unit each way, and only within two units of a pixel blown out (a second
    break-it trial: a pink box's top face 11 u above a small hot spot counted); none where
    no column is so, nor for paper bright in one channel only (a tinted light, not a veil),
    nor where the view lies outside the photo (`rectify` fills it white)."""
    import numpy as np

    from referee.vision.lookalike import veiled_columns
    from referee.vision.rectify import FrontView

    view = FrontView.for_settings(2.0, 120.0)
    front = np.full((view.height, view.width, 3), 200, np.uint8)
    assert veiled_columns(front, view, U, 250.0, 0.5) is None
    c, r_top = (int(round(float(v))) for v in view.to_px(100.0, -2.0))
    _, r_bottom = (int(round(float(v))) for v in view.to_px(100.0, -8.0))
    front[r_top:r_bottom, c:c + 20] = 255
    veiled = veiled_columns(front, view, U, 250.0, 0.5)
    assert veiled is not None and veiled.shape == front.shape[:2]
    reach = int(round(U * view.px_per_mm))
    assert veiled[r_top - reach, c] and veiled[r_top - reach, c + 19]
    assert veiled[r_top, c - reach] and veiled[r_top, c + 19 + reach]
    assert not veiled[r_top, c - reach - 2] and not veiled[r_top, c + 19 + reach + 2]
    assert not veiled[r_top - 3 * reach, c]  # three units above what it blew out
    outside = np.ones(front.shape[:2], bool)
    outside[:, c - 5:c + 25] = False  # the photo ends there: white fill, no paper
    assert veiled_columns(front, view, U, 250.0, 0.5, outside) is None
    front[:] = 200
    front[r_top:r_bottom, c:c + 20, 2] = 255  # red clipped only
    assert veiled_columns(front, view, U, 250.0, 0.5) is None


def test_a_small_hot_spot_does_not_hide_a_stone_truly_missing():
    """OC03-01 (a wrong build, its purple stone missing) with a small hot spot on the paper
    in front of the build's right end (a second break-it trial): the pink box's lit top face
    far behind, 11 u up in the veiled columns, was taken for the washed purple stone and the
    build called unsure. The veil reaches only near what it blew out: missing, as without
    the spot."""
    import numpy as np

    from referee.vision.station import load_station

    root = FIXTURES / "hard-scenes"
    lab = json.loads((root / "scenes" / "OC03-01" / "label.json").read_text(encoding="utf-8"))
    image = cv2.imread(str(root / "scenes" / "OC03-01" / "image.jpg"))
    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-((x - 538.3) ** 2 + (y - 345.8) ** 2) / (2 * (0.04 * w) ** 2))
    lit = np.clip(image + 0.5 * 255 * spot[..., None], 0, 255).astype(np.uint8)
    st = load_station(root / "stations" / lab["station"] / "station.json")
    got = check_photo(lit, st, lab["target"], die_text(lab), lab["level"], overlay=False)
    assert got.verdict.verdict == "wrong"
    assert "missing:P" in [f.code for f in got.verdict.faults]
