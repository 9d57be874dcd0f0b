"""A penalty card needs a verdict that a slightly changed photo gives too (check.py, the
`steady` settings): a build judged wrong is judged again on the photo a little softer and
saved again; a verdict that changes is unsure (`photo:unclear`)."""

import json
from dataclasses import replace

import cv2
import numpy as np

from referee.check import UNSTEADY, check_photo, slightly_changed
from referee.vision.photo import read_photo
from referee.vision.settings import default_settings
from referee.vision.station import load_station

from .conftest import DEV, die_text
from .conftest import label as dev_label
from .test_vision_trust import HARD

OFF = replace(default_settings(), steady=replace(default_settings().steady, blur_px=0.0,
                                                   jpeg_quality=0))


def test_a_wrong_verdict_that_a_softer_photo_does_not_give_is_unsure():
    """A break-it trial: PP02-05 (a correct build, its orange bar's foot hidden by a snow
    piece in front) scaled to 0.4 and back (a small phone photo enlarged) and saved at JPEG
    92 was judged wrong for certain (`position:O`); the same photo a little softer, or saved
    again, is unsure. Without the check the verdict stands; with it, unsure. (Since the
    twenty-ninth session the lying bar's rule, `fit.bare_top_lying`, makes it unsure by
    itself too: no top face shows above the orange fit, its colour runs on below it.)"""
    label = json.loads((HARD / "scenes/PP02-05/label.json").read_text())
    st = load_station(HARD / f"stations/{label['station']}/station.json")
    image = read_photo(HARD / "scenes/PP02-05/image.jpg")
    h, w = image.shape[:2]
    small = cv2.resize(image, (int(w * 0.4), int(h * 0.4)), interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR),
                            [cv2.IMWRITE_JPEG_QUALITY, 92])
    photo = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    die = label["die"]["animal"] + ("+white" if label["die"]["white_square"] else "")
    bare = replace(OFF.fit, bare_top_lying=False)
    off = check_photo(photo, st, label["target"], die, label["level"], overlay=False,
                      settings=replace(OFF, fit=bare)).verdict
    assert label["verdict"] == "correct"
    assert off.verdict == "wrong" and [f.code for f in off.faults] == ["position:O"]
    lying = check_photo(photo, st, label["target"], die, label["level"], overlay=False,
                        settings=OFF).verdict
    assert lying.verdict == "unsure" and "stone:unclear:O" in [r.code for r in lying.reasons]
    now = check_photo(photo, st, label["target"], die, label["level"], overlay=False,
                      settings=replace(default_settings(), fit=replace(
                          default_settings().fit, bare_top_lying=False)))
    assert now.verdict.verdict == "unsure"
    assert [(r.code, r.text) for r in now.verdict.reasons] == [("photo:unclear", UNSTEADY)]
    assert now.timings_ms["steady"] > 0


def test_a_steady_wrong_verdict_stands_and_other_verdicts_are_not_asked_again():
    """D06-01 (a wrong build, purple off the grey: `contact:P`) is judged wrong however
    softened or saved; a correct verdict is not judged again (no `steady` time)."""
    for scene, verdict in (("D06-01", "wrong"), ("D01-01", "correct")):
        lab = dev_label(scene)
        st = load_station(DEV / f"stations/{lab['station']}/station.json")
        chk = check_photo(read_photo(DEV / f"scenes/{scene}/image.jpg"), st,
                          lab["target"], die_text(lab), lab["level"], overlay=False)
        assert chk.verdict.verdict == verdict == lab["verdict"]
        assert ("steady" in chk.timings_ms) == (verdict == "wrong")


def test_the_slight_changes_are_slight_and_each_can_be_turned_off():
    image = read_photo(HARD / "scenes/PP02-05/image.jpg")
    changed = list(slightly_changed(image, default_settings()))
    assert len(changed) == 2
    for other in changed:
        assert other.shape == image.shape and other.dtype == np.uint8
        diff = np.abs(other.astype(np.int16) - image.astype(np.int16))
        assert 0 < diff.mean() < 3  # a change no one sees
    assert list(slightly_changed(image, OFF)) == []
