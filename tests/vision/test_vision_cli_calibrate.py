"""The calibration commands as a user runs them: `referee calibrate camera` and `calibrate
colours`, their plain refusals, and the profiles they write (split from test_vision_cli.py)."""

import json

import pytest
from typer.testing import CliRunner

from referee.cli import app

from .conftest import DEV
from .test_vision_cli import _run

runner = CliRunner()


def test_calibrate_camera_names_a_missing_photo(tmp_path):
    r = _run("calibrate", "camera", "kitchen", str(tmp_path / "nophoto1.jpg"),
             str(tmp_path / "nophoto2.jpg"))
    err = r.stderr.replace("\n", "")  # rich wraps a long path
    assert r.returncode == 2 and "nophoto1.jpg" in err and "Traceback" not in err
    assert "show the mat" not in err
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    r = _run("calibrate", "camera", "kitchen", str(notes))
    err = r.stderr.replace("\n", "")
    assert r.returncode == 2 and "notes.jpg" in err and "not a photo" in err


def test_calibrate_colours_writes_back_to_the_profile_path_given(tmp_path):
    """`referee calibrate colours PATH.json PHOTO` updates PATH itself (not a copy under
    calibration/stations/), keeping the colours, the mat's pose and the photo's source."""
    import json
    import shutil

    station = tmp_path / "kitchen"
    shutil.copytree(DEV / "stations" / "D03", station)
    before = json.loads((station / "station.json").read_text())
    r = _run("calibrate", "colours", str(station / "station.json"),
             str(station / "colours.jpg"), "--order", "GBP")
    assert r.returncode == 0, r.stderr
    after = json.loads((station / "station.json").read_text())
    assert set(after["colour_model"]["centres"]) >= {"G", "B", "P"}
    assert len(after["mat_pose"]["tvec"]) == 3
    assert after["colour_source"] == {"kind": "file", "path": "colours.jpg"}
    import numpy as np

    assert np.allclose(after["camera_matrix"], before["camera_matrix"], atol=1e-5)
    assert str(station / "station.json") in r.stdout.replace("\n", "")  # rich wraps it
    # D03's light grey (L 84) lies 9.7 from the snow: said in words, with what to do
    out = " ".join(r.stdout.split())
    assert "gray and snow (white) look alike in this light" in out
    assert "purple 61 51 -52 blue 37.4 well apart" in out
    assert "lightness" in out and "nearest" not in out  # plain headers


def test_calibrate_camera_never_writes_a_profile_that_does_not_load(tmp_path, monkeypatch):
    """`--unit-mm nan` wrote a profile every later command refused, and a profile already
    there with `unit_mm: abc` (or nested too deep) stopped the command with a traceback.
    Each is now one sentence, exit 2, and the profile there is left as it was."""
    import referee.paths

    monkeypatch.setattr(referee.paths, "CALIBRATION", tmp_path)
    photos = [str(p) for p in sorted((DEV / "stations" / "D01").glob("calib*.jpg"))]
    r = runner.invoke(app, ["calibrate", "camera", "kitchen", *photos, "--unit-mm", "nan"])
    assert r.exit_code != 0 and "unit" in str(r.exception)
    assert not (tmp_path / "stations" / "kitchen.yaml").exists()
    (tmp_path / "stations").mkdir()
    for text, words in (("id: kitchen\nlevel: normal\nunit_mm: abc\n", "unit_mm"),
                        ("[" * 100_000 + "]" * 100_000, "nested too deep")):
        (tmp_path / "stations" / "kitchen.yaml").write_text(text)
        r = runner.invoke(app, ["calibrate", "camera", "kitchen", *photos])
        assert type(r.exception).__name__ in ("RefereeError", "StationError"), r.exception
        assert words in str(r.exception)
        assert (tmp_path / "stations" / "kitchen.yaml").read_text() == text


def test_calibrate_colours_writes_the_profile_it_was_named_by(tmp_path, monkeypatch):
    """A profile copied from the example (README: "an uncalibrated example to start from")
    keeps the example's `id:`; `referee calibrate colours kitchen stack.jpg` then wrote the
    colours over calibration/stations/example-webcam-640.yaml and left kitchen.yaml as it
    was: the kitchen station never got its colours, and the example was overwritten."""
    import yaml

    import referee.paths

    monkeypatch.setattr(referee.paths, "CALIBRATION", tmp_path)
    raw = json.loads((DEV / "stations" / "D03" / "station.json").read_text())
    profile = {k: raw[k] for k in ("level", "unit_mm", "image_size", "camera_matrix",
                                   "dist_coeffs")} | {"id": "example-webcam-640"}
    (tmp_path / "stations").mkdir()
    (tmp_path / "stations" / "kitchen.yaml").write_text(yaml.safe_dump(profile))
    r = runner.invoke(app, ["calibrate", "colours", "kitchen",
                            str(DEV / "stations" / "D03" / "colours.jpg")])
    assert r.exit_code == 0, r.output or r.exception
    assert sorted(p.name for p in (tmp_path / "stations").iterdir()) == ["kitchen.yaml"]
    saved = yaml.safe_load((tmp_path / "stations" / "kitchen.yaml").read_text())
    assert saved["id"] == "kitchen" and saved["colour_source"]["kind"] == "file"


def test_calibrate_camera_again_takes_the_unit_given(tmp_path, monkeypatch):
    """Calibrating a station's camera again with `--unit-mm 12` kept the profile's 16 mm
    without a word (the option was read only for a new profile); without the option, the
    profile's unit stays."""
    import yaml

    import referee.paths

    monkeypatch.setattr(referee.paths, "CALIBRATION", tmp_path)
    photos = [str(p) for p in sorted((DEV / "stations" / "D01").glob("calib*.jpg"))]
    profile = tmp_path / "stations" / "kitchen.yaml"
    for args, unit in (([], 16.0), (["--unit-mm", "12"], 12.0), ([], 12.0)):
        r = runner.invoke(app, ["calibrate", "camera", "kitchen", *photos, *args])
        assert r.exit_code == 0, r.output or r.exception
        assert yaml.safe_load(profile.read_text())["unit_mm"] == unit, args


def test_calibrating_the_camera_again_says_the_colours_were_kept(tmp_path, monkeypatch):
    """A new user's trial calibrated a station's camera again with another camera's photos;
    the colours learnt through the first were kept without a word. Said now, with the
    command that learns them again; a profile on the default colours says nothing."""
    import referee.paths

    monkeypatch.setattr(referee.paths, "CALIBRATION", tmp_path)
    photos = [str(p) for p in sorted((DEV / "stations" / "D01").glob("calib*.jpg"))]
    r = runner.invoke(app, ["calibrate", "camera", "kitchen", *photos, "--level", "advanced"])
    assert r.exit_code == 0 and "colours were kept" not in r.output
    r = runner.invoke(app, ["calibrate", "colours", "kitchen",
                            str(DEV / "stations" / "D01" / "colours.jpg")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["calibrate", "camera", "kitchen", *photos])
    assert r.exit_code == 0 and "colours were kept from before" in r.output
    assert "referee calibrate colours kitchen stack.jpg" in " ".join(r.output.split())


def test_calibrate_camera_refuses_a_focal_length_no_camera_has(tmp_path, monkeypatch):
    """A fit gone wrong (views too alike) gave fx 1e9 px, or 0.001, and the command wrote it
    to the profile as if it were the camera's. It is one sentence that names the focal
    length and says what to do; no profile is written."""
    import numpy as np

    import referee.paths
    from referee.vision import calibration

    monkeypatch.setattr(referee.paths, "CALIBRATION", tmp_path)
    photos = [str(p) for p in sorted((DEV / "stations" / "D01").glob("calib*.jpg"))]
    real = calibration.cv2.calibrateCameraExtended
    for f in (1e9, 0.001):
        def wrong(*a, f=f, **kw):
            rms, k, *rest = real(*a, **kw)
            return (rms, np.diag([f, f, 1.0]) + k * [[0, 0, 1], [0, 0, 1], [0, 0, 0]], *rest)

        monkeypatch.setattr(calibration.cv2, "calibrateCameraExtended", wrong)
        r = runner.invoke(app, ["calibrate", "camera", "kitchen", *photos])
        assert type(r.exception).__name__ == "CalibrationError", r.exception
        assert f"focal length of {f:g} px, which no real camera has" in str(r.exception)
        assert "take the photos again" in str(r.exception)
        assert not (tmp_path / "stations" / "kitchen.yaml").exists()


def test_calibration_refuses_photos_of_several_cameras_and_counts_a_copy_once(tmp_path,
                                                                              monkeypatch):
    """A break-it trial calibrated one station from five photos of four cameras (focal
    lengths 717–976 px): accepted (RMS 1.36 px, as one camera's renders give), and a correct
    build was then judged wrong with it. Five copies of one photo counted as five views.
    Each view's own focal length must agree with the others' (chi²/dof 38 there, 0.4 for
    one camera's views), and a copy is the same view."""
    import pytest

    import referee.paths
    from referee.paths import FIXTURES
    from referee.vision.calibration import calibrate_camera
    from referee.vision.errors import CalibrationError

    monkeypatch.setattr(referee.paths, "CALIBRATION", tmp_path)
    hard = FIXTURES / "hard-scenes" / "scenes"
    mixed = [hard / s / "image.jpg" for s in ("E01-01", "E01-04", "F05-02", "G04-01", "B01-04")]
    with pytest.raises(CalibrationError, match="different cameras or zoom"):
        calibrate_camera(mixed)
    r = runner.invoke(app, ["calibrate", "camera", "mixed", *map(str, mixed)])
    assert r.exit_code != 0 and "different cameras" in str(r.exception)
    assert not (tmp_path / "stations" / "mixed.yaml").exists()
    one = sorted((DEV / "stations" / "D01").glob("calib*.jpg"))
    with pytest.raises(CalibrationError, match=r"only 1 of 5 .*\(4 the same view as another\)"):
        calibrate_camera([one[0]] * 5)
    cal = calibrate_camera(one)  # one camera's own views still calibrate it
    assert cal.views_used == 5 and 950 < cal.camera_matrix[0, 0] < 1080


def test_calibrate_camera_names_each_photo_it_left_out(tmp_path, monkeypatch):
    """A new user read "1 photo(s) left out" and could not tell which to take again: each
    photo left out is named, with why (a copy of another view, a photo whose mat is not seen
    well enough), and the profile is still written under the station's name."""
    import shutil

    import referee.paths

    monkeypatch.setattr(referee.paths, "CALIBRATION", tmp_path)
    photos = [str(p) for p in sorted((DEV / "stations" / "D01").glob("calib*.jpg"))]
    shutil.copy(photos[0], tmp_path / "again.jpg")
    r = runner.invoke(app, ["calibrate", "camera", "kitchen", *photos,
                            str(tmp_path / "again.jpg")])
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    assert f"left out {tmp_path / 'again.jpg'}: the same view as another photo" in said
    assert f"left out {photos[3]}: the mat not seen well enough" in said
    assert f"used {len(photos) - 1} of {len(photos) + 1} photos" in said
    assert (tmp_path / "stations" / "kitchen.yaml").is_file()  # under the station's name
    assert not list((tmp_path / "stations").glob("*.jpg.yaml"))


@pytest.mark.parametrize("station_id, other, said", [
    # another station's colour photo (1280×720) for a camera calibrated at 960×540: the colours
    # of that other camera were learnt and the profile overwritten, with advice about light
    ("D01", "D02", "1280×720 px, but the camera of station D01 was calibrated at 960×540"),
    # the same picture size through a camera of another focal length (NC01's 1046 px for
    # E01's 717 px): "well apart", the colours overwritten, every photo then `photo:colours`
    # ("channels swapped"); the mat in it shows the other camera, as `judge` tells
    ("E01", "NC01", "does not fit the station's camera"),
])
def test_calibrate_colours_refuses_a_photo_of_another_camera(tmp_path, station_id, other,
                                                               said):
    """New users' trials took another station's colour photo: refused now, the profile kept,
    and the station's own colour photo still learnt."""
    import shutil

    from .test_vision_trust import HARD

    sets = DEV if (DEV / "stations" / station_id).is_dir() else HARD
    station = tmp_path / station_id
    shutil.copytree(sets / "stations" / station_id, station)
    before = (station / "station.json").read_text()
    r = _run("calibrate", "colours", str(station / "station.json"),
             str(sets / "stations" / other / "colours.jpg"))
    assert r.returncode == 2, r.stdout
    assert said in r.stderr and "Traceback" not in r.stderr
    assert (station / "station.json").read_text() == before
    r = _run("calibrate", "colours", str(station / "station.json"),
             str(station / "colours.jpg"))
    assert r.returncode == 0 and "wrote" in r.stdout
