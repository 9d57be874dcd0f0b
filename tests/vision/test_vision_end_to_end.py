"""Photo → verdict on fixture scenes, the no-mat photos, and bad input (issue 3)."""

import json

import cv2
import numpy as np
import pytest

from referee.check import check_photo
from referee.evaluate import evaluate
from referee.tuki.die import DieFace
from referee.vision.colour import ColourModel
from referee.vision.errors import PhotoError, StationError
from referee.vision.photo import decode_photo, read_photo
from referee.vision.station import load_station

from .conftest import DEV, NOMAT, die_text, label, photo, station

# one or more per station, correct and wrong builds, every kind of fault the labels hold
SUBSET = ["D01-02", "D01-04", "D01-05", "D02-03", "D02-07", "D03-05", "D04-02", "D04-05",
          "D04-07", "D05-03", "D05-04", "D06-01", "D06-03", "D06-06"]


@pytest.mark.parametrize("scene", SUBSET)
def test_verdict_matches_the_label(scene):
    lab = label(scene)
    chk = check_photo(photo(scene), station(scene[:3]), lab["target"], die_text(lab),
                      lab["level"])
    assert chk.verdict.verdict == lab["verdict"], chk.verdict.to_dict()
    if lab["verdict"] == "wrong":
        codes = [f.code for f in chk.verdict.faults]
        assert lab["faults"][0] in codes, codes
    assert chk.overlay_bgr.shape == photo(scene).shape


def test_whole_dev_set_never_confidently_wrong():
    s = evaluate(DEV).to_dict()
    assert s["scenes"] == 42
    assert s["confidently_wrong"] == 0
    assert s["accuracy"] >= 0.8  # measured 0.83; a floor against regressions


@pytest.mark.parametrize("name", ["red_0.jpg", "blue_3.jpg", "nightcolours_5.jpg",
                                  "stickers_7.jpg", "green_9.jpg"])
def test_real_photos_without_the_mat_are_unsure(name):
    st = load_station(NOMAT / "station.json")
    chk = check_photo(read_photo(NOMAT / name), st, ["GGGGG", "BBBBB", "PPPPP"],
                      DieFace.parse("bear"), "normal")
    assert chk.verdict.verdict == "unsure"
    assert [r.code for r in chk.verdict.reasons] == ["mat:not-found"]


def test_every_real_nomat_photo_is_unsure_and_fast():
    st = load_station(NOMAT / "station.json")
    for p in sorted(NOMAT.glob("*.jpg")):
        chk = check_photo(read_photo(p), st, ["GGGGG", "BBBBB", "PPPPP"], "fish+white",
                          "normal", overlay=False)
        assert chk.verdict.verdict == "unsure", p.name
        assert chk.verdict.reasons[0].code.startswith("mat:"), p.name


def test_dark_photo_is_unsure_with_its_reason():
    dark = (photo("D04-01").astype(np.float32) * 0.12).astype(np.uint8)
    lab = label("D04-01")
    v = check_photo(dark, station("D04"), lab["target"], die_text(lab)).verdict
    assert v.verdict == "unsure"
    assert v.reasons[0].code in ("photo:dark", "mat:not-found", "mat:weak")


def test_corrupt_and_non_photos_are_refused(tmp_path):
    with pytest.raises(PhotoError, match="not a photo"):
        decode_photo(b"hello, this is text")
    with pytest.raises(PhotoError, match="empty"):
        decode_photo(b"")
    truncated = (DEV / "scenes" / "D01-01" / "image.jpg").read_bytes()[:300]
    with pytest.raises(PhotoError):
        decode_photo(truncated)
    with pytest.raises(PhotoError, match="cannot read"):
        read_photo(tmp_path / "nope.jpg")
    # an iPhone's HEIC photo is named as such, with how to get a JPEG
    with pytest.raises(PhotoError, match="HEIC.*JPEG"):
        decode_photo(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200))


def test_a_file_too_large_to_be_a_photo_is_refused_unread(huge_file):
    """`referee judge`, `eval` and `calibrate` read a photo file whole, whatever its size: a
    video named .jpg took its size in memory before it was refused."""
    with pytest.raises(PhotoError, match="clip.jpg.* too large a file"):
        read_photo(huge_file("clip.jpg"))


@pytest.mark.parametrize("field,value,words", [
    ("level", "expert", "level must be"),
    ("camera_matrix", [[1, 2], [3, 4]], "camera_matrix"),
    ("image_size", "big", "image_size"),
    ("unit_mm", "sixteen", "unit_mm"),
    ("unit_mm", "16", "unit_mm must be a number, not '16'"),  # text, not taken as 16 mm
    ("unit_mm", True, "unit_mm must be a number"),
    # numbers as text were taken as numbers here, and refused in unit_mm (a break-it trial)
    ("camera_matrix", [["700", 0, 480], [0, 700, 270], [0, 0, 1]], "camera_matrix"),
    ("dist_coeffs", ["0.1", 0, 0, 0, 0], "dist_coeffs"),
    # distortion no lens has: 1e30 ended in solvePnP's traceback, 3e6 took 30 s to load
    ("dist_coeffs", [1e30, 0, 0, 0, 0], "which no lens has"),
    ("dist_coeffs", [3e6, 0, 0, 0, 0], "which no lens has"),
    ("mat_pose", {"rvec": ["0", 0, 0], "tvec": [0, 0, 500]}, "mat_pose"),
    ("colour_model", {**ColourModel.priors().to_dict(), "lightness_weight": 1e30},
     "lightness_weight"),
    ("colour_model", {**ColourModel.priors().to_dict(), "max_distance": "26"}, "max_distance"),
    # a principal point far outside the photo read as "two referee mats are in view"
    ("camera_matrix", [[700, 0, -1e6], [0, 700, 270], [0, 0, 1]], "principal point"),
    ("dist_coeffs", [1, 2, 3], "dist_coeffs"),
    ("image_size", [float("inf"), 480], "image_size"),  # was an OverflowError's traceback
    ("image_size", "12", "image_size"),  # a string was read letter by letter: 1×2 px
    ("image_size", [True, True], "image_size"),
    ("image_size", [10**12, 10**12], "image_size"),
    ("colour_model", {"centres": "x"}, "colour_model needs centres"),  # an AttributeError's
    ("kept_colour_model", {"centres": {"G": [50, 1]}}, "kept_colour_model must hold"),
    ("kept_colour_model", {"centres": "x"}, "kept_colour_model must hold"),
    ("colour_model", {**ColourModel.priors().to_dict(), "lightness_weight": float("nan")},
     "colour_model"),
    # hand edits a break-it trial made: B and P swapped judged the card's build wrong and the
    # swapped card's correct; a grey of booleans, or of L 8300, made the grey stone missing
    ("colour_model", {**ColourModel.priors().to_dict(), "centres": {
        **ColourModel.priors().to_dict()["centres"], "B": ColourModel.priors().centres["P"],
        "P": ColourModel.priors().centres["B"]}}, "does not hold the stones' colours"),
    ("colour_model", {**ColourModel.priors().to_dict(), "centres": {
        **ColourModel.priors().to_dict()["centres"], "G": [True, False, True]}},
     r"G is not three numbers"),
    ("colour_model", {**ColourModel.priors().to_dict(), "centres": {
        **ColourModel.priors().to_dict()["centres"], "G": [8300, 0, 0]}}, "outside Lab"),
    # a camera matrix must be a camera's: [[fx, s, cx], [0, fy, cy], [0, 0, 1]]
    ("camera_matrix", [[700, 0, 480], [0, 700, 270], [0, 0, 0]], "camera_matrix"),
    ("camera_matrix", [[700, 700, 700], [700, 700, 700], [700, 700, 700]], "camera_matrix"),
    # focal lengths no lens has for a 640×480 photo (a break-it trial): named, with the range
    ("camera_matrix", [[1e9, 0, 319.5], [0, 1e9, 239.5], [0, 0, 1]],
     r"camera_matrix's fx is 1e\+09 px, which no real camera has .* 12220 px for a field "
     r"of view of 3° across it, 28 px for 170°"),
    ("camera_matrix", [[0.001, 0, 319.5], [0, 0.001, 239.5], [0, 0, 1]], "fx is 0.001 px"),
    ("camera_matrix", [[600, 0, 319.5], [0, 1e7, 239.5], [0, 0, 1]], "fy is 1e\\+07 px"),
])
def test_a_station_field_that_is_no_camera_setting_is_refused_in_words(tmp_path, field, value,
                                                                       words):
    """A wrong station field is refused naming it, never with a traceback and never taken
    as something it is not (a singular camera matrix made every photo unsure, silently)."""
    raw = json.loads((NOMAT / "station.json").read_text())
    raw[field] = value
    path = tmp_path / "station.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(StationError, match=words):
        load_station(path)


def test_every_real_camera_has_focal_lengths_a_station_takes():
    """The focal-length bound refuses no lens a station may have: a phone's 10x periscope
    telephoto (about 240 mm equivalent: 4.8° across the short side of a 16:9 photo) and an
    ultra-wide (13 mm: 108° across the long side), the photo held either way; nor any
    station of the fixtures, nor the example profile in calibration/."""
    from referee.paths import CALIBRATION, FIXTURES
    from referee.vision.station import check_focal_lengths

    for w, h in ((4000, 2250), (2250, 4000), (4000, 3000)):
        for mm in (240.0, 13.0):  # a 35 mm frame's 36 mm on the photo's long side
            f = max(w, h) * mm / 36.0
            check_focal_lengths(np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]]), (w, h),
                                "phone")
    # the profile this repository ships, never a user's own (a new user's trial: a broken
    # profile of theirs in calibration/stations/ failed this test)
    stations = [*FIXTURES.rglob("station.json"),
                CALIBRATION / "stations" / "example-webcam-640.yaml"]
    assert len(stations) > 20
    for path in stations:
        load_station(path, learn_colours=False)


def test_station_label_and_settings_files_too_large_are_refused_unread(tmp_path):
    """A station file, a photo's label or the vision settings were read whole, whatever
    their size: `--station /dev/zero` filled the memory."""
    from referee.evaluate import DatasetError, _read_json
    from referee.vision.settings import SettingsError, load_settings

    big = tmp_path / "station.json"
    with open(big, "wb") as f:  # sparse: no disk used
        f.truncate(1 << 30)
    with pytest.raises(StationError, match="larger than 1 MB"):
        load_station(big)
    with pytest.raises(DatasetError, match="larger than 1 MB"):
        _read_json(big)
    with pytest.raises(SettingsError, match="larger than 1 MB"):
        load_settings(big)
    (tmp_path / "latin1.yaml").write_bytes("fit: {note: caf\xe9}\n".encode("latin-1"))
    with pytest.raises(SettingsError, match="not UTF-8"):
        load_settings(tmp_path / "latin1.yaml")


def test_a_station_file_nested_too_deep_is_refused_in_words(tmp_path):
    (tmp_path / "a.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(StationError, match="a.json"):
        load_station(tmp_path / "a.json")
    (tmp_path / "b.yaml").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(StationError, match="b.yaml"):
        load_station(tmp_path / "b.yaml")


def test_a_station_file_saved_by_notepad_is_read(tmp_path):
    """A byte order mark first (Windows Notepad's UTF-8) was "not valid JSON"."""
    raw = (NOMAT / "station.json").read_bytes()
    (tmp_path / "station.json").write_bytes(b"\xef\xbb\xbf" + raw)
    assert load_station(tmp_path / "station.json").level == "normal"
    (tmp_path / "latin.json").write_bytes(raw.replace(b'"normal"', b'"n\xe9"'))
    with pytest.raises(StationError, match="not UTF-8"):
        load_station(tmp_path / "latin.json")


def test_a_photo_given_as_the_station_file_is_named_a_photo(tmp_path):
    """A new user's trial passed a photo as --station and read "is not UTF-8 text (byte 0);
    save it as plain text": true, and no help. A photo (JPEG, PNG, HEIC) is named one."""
    jpeg = sorted(NOMAT.glob("*.jpg"))[0]
    with pytest.raises(StationError, match="is a photo, not a station file"):
        load_station(jpeg)
    (tmp_path / "iphone.json").write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00\xff")
    with pytest.raises(StationError, match="is a photo, not a station file"):
        load_station(tmp_path / "iphone.json")


def test_station_file_missing_a_field_or_not_json(tmp_path):
    raw = json.loads((NOMAT / "station.json").read_text())
    del raw["camera_matrix"]
    (tmp_path / "a.json").write_text(json.dumps(raw))
    with pytest.raises(StationError, match="'camera_matrix' is missing"):
        load_station(tmp_path / "a.json")
    (tmp_path / "b.json").write_text("{not json")
    with pytest.raises(StationError, match="line 1, is not valid JSON"):
        load_station(tmp_path / "b.json")


def test_a_colour_photo_without_the_stack_falls_back_to_priors(tmp_path):
    import shutil

    raw = json.loads((DEV / "stations" / "D03" / "station.json").read_text())
    shutil.copy(NOMAT / "red_0.jpg", tmp_path / "colours.jpg")  # no mat, no stack
    (tmp_path / "station.json").write_text(json.dumps(raw))
    st = load_station(tmp_path / "station.json")
    assert st.colour_model.source.startswith("priors (")


def test_eval_goes_on_past_an_unreadable_photo(tmp_path):
    import shutil

    shutil.copytree(DEV / "stations", tmp_path / "stations")
    for sc in ("D03-02", "D03-05"):
        shutil.copytree(DEV / "scenes" / sc, tmp_path / "scenes" / sc)
    (tmp_path / "scenes" / "D03-02" / "image.jpg").write_bytes(b"broken")
    s = evaluate(tmp_path)
    got = {r.id: r.got for r in s.results}
    assert got == {"D03-02": "unsure", "D03-05": "wrong"}


def test_eval_goes_on_past_a_bad_label_and_a_bad_station(tmp_path):
    import shutil

    shutil.copytree(DEV / "stations", tmp_path / "stations")
    for sc in ("D03-05", "D03-02", "D04-01"):
        shutil.copytree(DEV / "scenes" / sc, tmp_path / "scenes" / sc)
    (tmp_path / "scenes" / "D03-02" / "label.json").write_text('{"id": "D03-02"}')
    (tmp_path / "stations" / "D04" / "station.json").write_text("{")
    got = {r.id: (r.got, r.reasons) for r in evaluate(tmp_path).results}
    assert got["D03-05"][0] == "wrong"
    assert got["D03-02"] == ("unsure", ["label:unreadable"])
    assert got["D04-01"] == ("unsure", ["station:unreadable"])


def test_eval_goes_on_past_a_label_nested_too_deep(tmp_path):
    """A label.json of brackets nested thousands deep stopped `referee eval` with a
    RecursionError's traceback."""
    import shutil

    shutil.copytree(DEV / "stations" / "D03", tmp_path / "stations" / "D03")
    for sc in ("D03-05", "D03-02"):
        shutil.copytree(DEV / "scenes" / sc, tmp_path / "scenes" / sc)
    (tmp_path / "scenes" / "D03-02" / "label.json").write_text("[" * 100_000 + "]" * 100_000)
    got = {r.id: (r.got, r.reasons) for r in evaluate(tmp_path).results}
    assert got["D03-05"][0] == "wrong"
    assert got["D03-02"] == ("unsure", ["label:unreadable"])


@pytest.mark.parametrize("field,value", [
    ("station", 5), ("station", None), ("station", "../D03"), ("level", "expert"),
    ("die", {"animal": "lion"}), ("target", ["GGGGX"]), ("verdict", "maybe"),
    ("die", {"animal": "bear", "white_square": "false"}), ("die", "bear"),
    # a target that is not the card turned by the die: judged, it gave a confident "wrong"
    ("target", [".GP..", ".GP..", ".GP..", ".GP..", ".GP..", "BBBBB"])])
def test_eval_goes_on_past_a_label_with_a_wrong_field(tmp_path, field, value):
    """A break-it trial: a label whose station was a number stopped `referee eval` with a
    TypeError's traceback; an unknown die, level or a malformed target stopped the run in
    words, without the summary; a station may not be a path out of the set."""
    import json
    import shutil

    shutil.copytree(DEV / "stations" / "D03", tmp_path / "stations" / "D03")
    for sc in ("D03-05", "D03-02"):
        shutil.copytree(DEV / "scenes" / sc, tmp_path / "scenes" / sc)
    path = tmp_path / "scenes" / "D03-02" / "label.json"
    lab = json.loads(path.read_text())
    lab[field] = value
    path.write_text(json.dumps(lab))
    got = {r.id: (r.got, r.reasons) for r in evaluate(tmp_path).results}
    assert got["D03-05"][0] == "wrong"
    assert got["D03-02"] == ("unsure", ["label:unreadable"])


def test_eval_refuses_a_label_of_another_level_than_its_stations(tmp_path):
    """A break-it trial: an advanced card labelled at a normal station was judged wrong
    (`missing:O`: the station never looks for orange), where `judge` refuses it."""
    import json
    import shutil

    shutil.copytree(DEV / "stations" / "D03", tmp_path / "stations" / "D03")
    for sc in ("D03-05", "D03-02"):
        shutil.copytree(DEV / "scenes" / sc, tmp_path / "scenes" / sc)
    path = tmp_path / "scenes" / "D03-02" / "label.json"
    lab = json.loads(path.read_text())
    lab["level"], lab["target"] = "advanced", ["GGGGG", "BBBBB", "PPPPP", "OOOOO"]
    lab["card"] = {"grid": lab["target"]}  # the bear turns nothing
    path.write_text(json.dumps(lab))
    res = {r.id: r for r in evaluate(tmp_path).results}
    assert res["D03-05"].got == "wrong"
    assert (res["D03-02"].got, res["D03-02"].reasons) == ("unsure", ["label:unreadable"])
    assert "set up for the normal level" in res["D03-02"].stage_ms["error"]


def test_station_files_with_aliases_or_numbers_too_large_are_refused(tmp_path):
    """A break-it trial: 828 bytes of nested YAML aliases ("billion laughs") as a station
    profile ran past 60 s and 2.4 GB; a 401-digit integer in camera_matrix or unit_mm, or one
    of 5001 digits anywhere, ended in a traceback."""
    import json

    lines = ["a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    (tmp_path / "laughs.yaml").write_text("\n".join(lines) + "\nlevel: normal\n"
                                          "camera_matrix: *a9\n")
    with pytest.raises(StationError, match="alias"):
        load_station(tmp_path / "laughs.yaml")
    raw = json.loads((NOMAT / "station.json").read_text())
    for field, value in (("unit_mm", 10 ** 400), ("image_size", [10 ** 400, 540])):
        (tmp_path / "big.json").write_text(json.dumps({**raw, field: value}))
        with pytest.raises(StationError, match="far too large"):
            load_station(tmp_path / "big.json")
    k = raw["camera_matrix"]
    (tmp_path / "big.json").write_text(json.dumps({**raw, "camera_matrix":
                                                   [[10 ** 400, 0, k[0][2]], *k[1:]]}))
    with pytest.raises(StationError, match="far too large"):
        load_station(tmp_path / "big.json")
    (tmp_path / "huge.json").write_text(json.dumps(raw)[:-1] + ', "unit_mm": ' + "9" * 5001 +
                                        "}")
    with pytest.raises(StationError, match="far too long"):
        load_station(tmp_path / "huge.json")


def test_a_huge_image_is_refused_before_it_is_decoded():
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("L", (20000, 20000)).save(buf, "PNG")  # ~400 KB of file, 400 megapixels
    with pytest.raises(PhotoError, match="too large"):
        decode_photo(buf.getvalue())


def test_a_deep_png_too_large_to_decode_is_refused_before_it_is_decoded():
    """A break-it trial: a 300 KB 16-bit RGBA PNG of 6300×6300 px (under the megapixel
    limit) peaked at 558 MB while decoding, too much for a Raspberry Pi. Its header says
    so: refused before decoding. The same size at 8 bits per sample stays within bounds."""
    import struct

    def png(depth_dtype, channels):
        ok, buf = cv2.imencode(".png", np.zeros((8, 8, channels), depth_dtype))
        data = bytearray(buf.tobytes())
        data[16:24] = struct.pack(">II", 6300, 6300)  # the size the header declares
        return bytes(data)

    with pytest.raises(PhotoError, match="16-bit PNG"):
        decode_photo(png(np.uint16, 4))
    with pytest.raises(PhotoError) as e:  # decoded (and refused by libpng's own checks)
        decode_photo(png(np.uint8, 3))
    assert "too large" not in str(e.value)


def test_a_colourless_photo_is_unsure_not_wrong():
    import cv2

    lab = label("D01-01")
    grey = cv2.cvtColor(cv2.cvtColor(photo("D01-01"), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    v = check_photo(grey, station("D01"), lab["target"], die_text(lab), overlay=False).verdict
    assert v.verdict == "unsure"
    # it says why (it was photo:unclear with each stone not found: true, but no help)
    assert [r.code for r in v.reasons] == ["photo:greyscale"]


@pytest.mark.parametrize("order", ["GGGG", "XYZ", "GBP"])
def test_a_wrong_colour_stack_order_is_refused(tmp_path, order):
    raw = json.loads((DEV / "stations" / "D01" / "station.json").read_text())
    raw["colour_calibration"]["stack_bottom_to_top"] = order
    (tmp_path / "station.json").write_text(json.dumps(raw))
    with pytest.raises(StationError, match="colour stack"):
        load_station(tmp_path / "station.json")


def test_non_finite_or_partial_station_values_are_refused(tmp_path):
    raw = json.loads((NOMAT / "station.json").read_text())
    raw["dist_coeffs"] = [float("nan"), 0, 0, 0, 0]
    (tmp_path / "a.json").write_text(json.dumps(raw))
    with pytest.raises(StationError, match="finite"):
        load_station(tmp_path / "a.json")
    raw["dist_coeffs"] = [0, 0, 0, 0, 0]
    raw["colour_model"] = {"centres": {"G": [50, 0, 0]}}
    (tmp_path / "b.json").write_text(json.dumps(raw))
    with pytest.raises(StationError, match="colour_model needs centres"):
        load_station(tmp_path / "b.json")


def test_an_over_exposed_photo_is_unsure_with_its_reason():
    lab = label("D03-04")
    bright = np.clip(photo("D03-04").astype(np.float32) * 1.5, 0, 255).astype(np.uint8)
    v = check_photo(bright, station("D03"), lab["target"], die_text(lab), overlay=False).verdict
    assert v.verdict == "unsure" and "photo:bright" in [r.code for r in v.reasons]



def test_a_named_pipe_with_no_writer_is_an_empty_photo_not_a_hang(tmp_path):
    """A break-it trial: a FIFO given as the photo (or a colour photo, or a label) blocked
    `referee judge` at open() until killed. It now reads as empty, at once."""
    import os
    import threading

    fifo = tmp_path / "photo.jpg"
    os.mkfifo(fifo)
    said: list[str] = []

    def read() -> None:
        try:
            read_photo(fifo)
        except PhotoError as e:
            said.append(str(e))

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(20)
    assert not t.is_alive() and said and "empty" in said[0]


def test_eval_reads_a_label_saved_with_a_byte_order_mark(tmp_path):
    """A break-it trial: a label.json an editor saved with a BOM was label:unreadable, where
    station and card grid files with one are read."""
    import shutil

    shutil.copytree(DEV / "stations" / "D03", tmp_path / "stations" / "D03")
    shutil.copytree(DEV / "scenes" / "D03-05", tmp_path / "scenes" / "D03-05")
    path = tmp_path / "scenes" / "D03-05" / "label.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert [r.got for r in evaluate(tmp_path).results] == ["wrong"]


def test_a_jpeg_saved_at_a_very_low_quality_is_refused_in_plain_words():
    """`photo.jpeg_quality` reads the quality a JPEG was saved at from its luminance table
    (libjpeg's own scale); under `MIN_JPEG_QUALITY` the photo is refused as such (a break-it
    trial: D06-03 re-saved at quality 8 was judged "missing:O", a correct build), and the
    quality of every other JPEG, and any PNG, decodes as before."""
    import cv2
    import pytest

    from referee.paths import FIXTURES
    from referee.vision.errors import PhotoError
    from referee.vision.photo import MIN_JPEG_QUALITY, decode_photo, jpeg_quality, read_photo

    img = read_photo(FIXTURES / "dev-scenes/scenes/D06-03/image.jpg")
    for q in (20, 30, 50, 75, 95):
        data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])[1].tobytes()
        assert abs(jpeg_quality(data) - q) <= 1.5, q
    low = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 10])[1].tobytes()
    assert jpeg_quality(low) < MIN_JPEG_QUALITY
    with pytest.raises(PhotoError, match="very low quality"):
        decode_photo(low)
    ok = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 40])[1].tobytes()
    assert decode_photo(ok).shape == img.shape
    png = cv2.imencode(".png", img)[1].tobytes()
    assert jpeg_quality(png) is None and decode_photo(png).shape == img.shape
