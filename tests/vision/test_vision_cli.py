"""The vision commands as a user runs them: plain output, JSON, and plain errors."""

import json
import os
import subprocess
import sys

from typer.testing import CliRunner

from referee.cli import app
from referee.cli.echo import clip

from .conftest import DEV, NOMAT, die_text, label

runner = CliRunner()


def _card_file(tmp_path, scene):
    lab = label(scene)
    path = tmp_path / "card.txt"
    path.write_text("\n".join(lab["card"]["grid"]) + "\n")
    return path, die_text(lab)


def test_judge_prints_json_and_writes_the_overlay(tmp_path):
    card, die = _card_file(tmp_path, "D06-01")
    out = tmp_path / "overlay.png"
    r = runner.invoke(app, ["judge", str(DEV / "scenes/D06-01/image.jpg"), "--station",
                            str(DEV / "stations/D06/station.json"), "--card-grid", str(card),
                            "--die", die, "--json", "--overlay", str(out)])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["verdict"] == "wrong" and d["faults"][0]["code"] == "contact:P"
    assert set(d) >= {"verdict", "faults", "reasons", "target"}
    assert d["overlay"] == str(out) and out.stat().st_size > 10_000


def test_judge_never_writes_its_overlay_over_a_file_it_was_given(tmp_path):
    """A break-it trial named the photo itself as --overlay: the photo was overwritten."""
    import shutil

    card, die = _card_file(tmp_path, "D06-01")
    photo = tmp_path / "photo.jpg"
    shutil.copy(DEV / "scenes/D06-01/image.jpg", photo)
    before = photo.read_bytes()
    r = runner.invoke(app, ["judge", str(photo), "--station",
                            str(DEV / "stations/D06/station.json"), "--card-grid", str(card),
                            "--die", die, "--overlay", str(tmp_path / "." / "photo.jpg")])
    assert r.exit_code != 0 and "would be written over" in str(r.exception)
    assert photo.read_bytes() == before


def test_judge_never_writes_its_overlay_over_the_stations_colour_photo_or_a_link(tmp_path):
    """A break-it trial wrote the overlay over the station's colour photo (the station then
    judged on default colours), and through a dangling link over the link's target."""
    import shutil

    card, die = _card_file(tmp_path, "D06-01")
    st = tmp_path / "st"
    shutil.copytree(DEV / "stations/D06", st)
    colours = st / "colours.jpg"
    before = colours.read_bytes()
    args = ["judge", str(DEV / "scenes/D06-01/image.jpg"), "--station",
            str(st / "station.json"), "--card-grid", str(card), "--die", die, "--overlay"]
    r = runner.invoke(app, [*args, str(colours)])
    assert r.exit_code != 0 and "beside the station's profile" in str(r.exception)
    assert colours.read_bytes() == before
    link = tmp_path / "why.png"
    link.symlink_to(tmp_path / "elsewhere.png")
    r = runner.invoke(app, [*args, str(link)])
    assert r.exit_code != 0 and "is a link" in str(r.exception)
    assert not (tmp_path / "elsewhere.png").exists()
    fifo = tmp_path / "pipe.png"  # opening a named pipe to write blocked for good
    os.mkfifo(fifo)
    r = runner.invoke(app, [*args, str(fifo)])
    assert r.exit_code != 0 and "is not a plain file" in str(r.exception)
    r = runner.invoke(app, [*args, str(tmp_path / "new.png")])  # a new file is written
    assert r.exit_code == 0 and (tmp_path / "new.png").stat().st_size > 10_000


def test_judge_prints_paths_and_names_with_brackets_as_they_are(tmp_path):
    """A break-it trial: an overlay path with `[/]` in it ended in rich's MarkupError
    traceback (after writing the file); `why[b].png` was printed as `why.png`."""
    card, die = _card_file(tmp_path, "D06-01")
    (tmp_path / "x[").mkdir()
    out = tmp_path / "x[" / "]why[b].png"  # the path holds "[/]" and "[b]"
    r = runner.invoke(app, ["judge", str(DEV / "scenes/D06-01/image.jpg"), "--station",
                            str(DEV / "stations/D06/station.json"), "--card-grid", str(card),
                            "--die", die, "--overlay", str(out)])
    assert r.exit_code == 0, r.output
    assert f"overlay: {out}" in r.output.replace("\n", "")


def test_judge_says_when_the_station_colour_photo_could_not_be_used(tmp_path):
    """A break-it trial: a station.json whose colour photo is missing (or broken) was judged
    on default colours without a word about the file."""
    import shutil

    card, die = _card_file(tmp_path, "D06-01")
    (tmp_path / "st").mkdir()
    shutil.copy(DEV / "stations/D06/station.json", tmp_path / "st" / "station.json")
    args = ["judge", str(DEV / "scenes/D06-01/image.jpg"), "--station",
            str(tmp_path / "st" / "station.json"), "--card-grid", str(card), "--die", die]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "note: default colours" in r.output and "colours.jpg" in r.output
    d = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert d["colours"].startswith("priors (") and "colours.jpg" in d["colours"]


def _run(*args):
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True,
                          text=True, timeout=120)


def test_judge_takes_a_station_by_the_name_calibrate_gave_it(tmp_path, monkeypatch):
    """A new-user trial: `calibrate camera kitchen ...` named the station, then `judge
    --station kitchen` could not read a file "kitchen". A bare name with no such file is
    the profile under calibration/stations/; a card of the other level names the command
    that sets the station's level."""
    import shutil

    import referee.paths
    import referee.server.stations

    monkeypatch.setattr(referee.paths, "CALIBRATION", tmp_path)
    monkeypatch.setattr(referee.server.stations, "CALIBRATION", tmp_path)
    (tmp_path / "stations").mkdir()
    shutil.copy(DEV / "stations/D01/station.json", tmp_path / "stations/kitchen.yaml")
    shutil.copy(DEV / "stations/D01/colours.jpg", tmp_path / "stations/colours.jpg")
    card, die = _card_file(tmp_path, "D01-01")
    r = runner.invoke(app, ["judge", str(DEV / "scenes/D01-01/image.jpg"), "--station",
                            "kitchen", "--card-grid", str(card), "--die", die, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["verdict"] == label("D01-01")["verdict"]
    r = _run("judge", str(DEV / "scenes/D01-01/image.jpg"), "--station", "pantry",
             "--card-grid", str(card), "--die", die)
    assert r.returncode == 2 and "pantry" in r.stderr and "Traceback" not in r.stderr
    r = _run("judge", str(DEV / "scenes/D03-02/image.jpg"), "--station",
             str(NOMAT / "station.json"), "--card-grid", str(card), "--die", die)
    assert r.returncode == 2 and "referee calibrate level" in " ".join(r.stderr.split())
    # a name not set up yet (a typo, or the README's example run before its setup), with
    # the README's --overlay why.png in the current folder: the step to take and the
    # stations there are, never "a photo beside the station's profile" nor "cannot read
    # station file" (a new user's trial)
    (tmp_path / "why.png").write_bytes((DEV / "mat-a4-v2.png").read_bytes())
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["judge", "photo.jpg", "--station", "kitchn", "--card", "N07",
                            "--die", "fish", "--overlay", "why.png"])
    said = " ".join(str(r.exception).split())  # the CLI's entry says it, exit code 2
    assert "'kitchn' is not set up yet" in said, said
    assert "referee calibrate camera kitchn" in said and "Stations set up: D03, D04" in said
    assert "kitchen" in said
    # a demo station, as the new-table page lists it, by its name alone
    (tmp_path / "d03").mkdir()
    d03_card, d03_die = _card_file(tmp_path / "d03", "D03-02")
    r = runner.invoke(app, ["judge", str(DEV / "scenes/D03-02/image.jpg"), "--station", "D03",
                            "--card-grid", str(d03_card), "--die", d03_die, "--json"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["judge", str(DEV / "scenes/D01-01/image.jpg"), "--station",
                            "kitchen", "--card-grid", str(card), "--die", die, "--overlay",
                            "why.png", "--json"])
    assert r.exit_code == 0, r.output  # a file of that name in the folder is no station's
    r = runner.invoke(app, ["judge", "photo.jpg", "--station", "kitchen", "--card-grid",
                            str(card), "--die", die])
    assert "cannot read" in str(r.exception) and "photo.jpg" in str(r.exception)


def test_bad_input_gives_plain_words_and_exit_2(tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    r = _run("judge", str(text), "--station", str(NOMAT / "station.json"), "--card", "N01",
             "--die", "bear")
    assert r.returncode == 2 and "not a photo" in r.stderr and "Traceback" not in r.stderr
    bad = tmp_path / "station.json"
    bad.write_text('{"level": "normal"}')
    r = _run("judge", str(DEV / "scenes/D03-02/image.jpg"), "--station", str(bad), "--card",
             "N01", "--die", "bear")
    assert r.returncode == 2 and "image_size" in r.stderr and "Traceback" not in r.stderr
    r = _run("judge", str(tmp_path / "missing.jpg"), "--station", str(NOMAT / "station.json"),
             "--card", "N01", "--die", "bear")
    assert r.returncode == 2 and "cannot read" in r.stderr
    # a folder as the card grid was "cannot use 3: Is a directory" (the file descriptor's
    # number); it is named by its path (a break-it trial), a long one clipped around "…"
    # with its end kept (referee/cli/echo.py)
    r = _run("judge", str(DEV / "scenes/D03-02/image.jpg"), "--station",
             str(NOMAT / "station.json"), "--card-grid", str(tmp_path), "--die", "bear")
    assert r.returncode == 2 and clip(str(tmp_path)) in r.stderr.replace("\n", "")
    assert "Traceback" not in r.stderr
    # asked for JSON, a script gets JSON on stdout too (a new user's trial: plain text)
    r = _run("judge", str(text), "--station", str(NOMAT / "station.json"), "--card", "N01",
             "--die", "bear", "--json")
    assert r.returncode == 2 and "not a photo" in json.loads(r.stdout)["error"]


def test_nomat_photo_is_unsure_from_the_cli():
    r = _run("judge", str(NOMAT / "red_0.jpg"), "--station", str(NOMAT / "station.json"),
             "--card", "N01", "--die", "bear", "--json")
    assert r.returncode == 0
    d = json.loads(r.stdout)
    assert d["verdict"] == "unsure" and d["reasons"][0]["code"] == "mat:not-found"


def test_judge_says_a_phone_photo_is_judged_with_phone(tmp_path):
    """A new user's trial: a phone's photo of the build (another shape than the station
    camera's) was `photo:cropped` by `referee judge` but judged when sent to a table from a
    phone. Here a 4:3 centre of a 16:9 station's photo (a narrower camera): refused as cropped
    with a note naming --phone; with --phone, judged as the server judges it."""
    import cv2

    card, die = _card_file(tmp_path, "D06-01")
    image = cv2.imread(str(DEV / "scenes/D06-01/image.jpg"))
    h, w = image.shape[:2]
    left = (w - h * 4 // 3) // 2
    photo = tmp_path / "phone.jpg"
    cv2.imwrite(str(photo), image[:, left:left + h * 4 // 3], [cv2.IMWRITE_JPEG_QUALITY, 92])
    args = ["judge", str(photo), "--station", str(DEV / "stations/D06/station.json"),
            "--card-grid", str(card), "--die", die]
    r = runner.invoke(app, args)
    assert r.exit_code == 0 and "not the shape of the station camera" in r.output \
        and "with --phone" in r.output
    r = runner.invoke(app, [*args, "--phone", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["verdict"] == "wrong" and [f["code"] for f in d["faults"]] == ["contact:P"]
    # a photo of the station camera's shape says no such thing
    r = runner.invoke(app, ["judge", str(DEV / "scenes/D06-01/image.jpg"), *args[2:]])
    assert r.exit_code == 0 and "--phone" not in r.output


def test_eval_json_is_one_object():
    r = runner.invoke(app, ["eval", str(DEV), "--json", "--limit", "3"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert set(d) == {"scenes", "accuracy", "confidently_wrong", "unsure", "median_ms",
                      "p95_ms", "intrinsics", "settings"}
    assert d["scenes"] == 3 and d["intrinsics"] == "station"
    assert d["settings"]["rectify"]["px_per_mm"] > 0  # the settings the numbers came from


def test_eval_judges_the_set_as_phone_photos():
    """--intrinsics from-mat: each photo's camera estimated from the mat, as for a phone's
    photo; the same scenes, judged on their own evidence."""
    r = runner.invoke(app, ["eval", str(DEV), "--json", "--limit", "2", "--intrinsics",
                            "from-mat"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["intrinsics"] == "from-mat" and d["scenes"] == 2 and d["confidently_wrong"] == 0
    r = _run("eval", str(DEV), "--intrinsics", "phone")
    assert r.returncode == 2 and "station or from-mat" in r.stderr


def test_eval_by_station_and_by_condition(tmp_path):
    r = runner.invoke(app, ["eval", str(DEV), "--json", "--limit", "9", "--by", "station"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["by"] == "station" and set(d["groups"]) == {"D01", "D02"}
    assert sum(g["scenes"] for g in d["groups"].values()) == 9
    # conditions come from the labels (plain without them) and the photo (paper-clipped)
    r = runner.invoke(app, ["eval", str(DEV), "--json", "--limit", "4", "--by", "condition"])
    d = json.loads(r.output)
    assert d["groups"]["plain"]["scenes"] == 4
    r = _run("eval", str(DEV), "--by", "colour")
    assert r.returncode == 2 and "station or condition" in r.stderr


def test_eval_piped_keeps_each_scene_on_one_line():
    """A new user's trial piped `referee eval` into a file: at 80 columns its lines broke
    inside codes ("band:positio" / "n:O"); the groups of --by condition, which overlap, read
    as parts of the whole. Each scene stays on one line, and the overlap is said."""
    r = _run("eval", str(DEV), "--limit", "7", "--by", "condition")
    assert r.returncode == 0, r.stderr
    d0106 = [ln for ln in r.stdout.splitlines() if "D01-06" in ln]
    assert len(d0106) == 1 and "ms" in d0106[0] and "band:position:O" in d0106[0]
    assert "a scene counts in each of its conditions" in r.stdout


def test_eval_says_once_what_is_wrong_with_a_bad_station_file(tmp_path):
    """A new user's trial: a station file with an absurd focal length made its scenes
    `station:unreadable`, and nothing said which field was wrong."""
    import shutil

    (tmp_path / "scenes").mkdir()
    shutil.copytree(DEV / "stations/D03", tmp_path / "stations/D03")
    for sid in ("D03-01", "D03-02"):
        shutil.copytree(DEV / "scenes" / sid, tmp_path / "scenes" / sid)
    path = tmp_path / "stations/D03/station.json"
    raw = json.loads(path.read_text())
    raw["camera_matrix"][0][0] = 1e9
    path.write_text(json.dumps(raw))
    r = runner.invoke(app, ["eval", str(tmp_path)], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert r.output.count("station:unreadable") == 2
    assert r.output.count("camera_matrix's fx is 1e+09 px") == 1, r.output


def test_eval_says_once_that_a_station_is_on_the_default_colours(tmp_path):
    """A new user's trial: a set whose station's colour photo was missing had its scenes
    unsure (`photo:colours`) without a word of why; `judge` says it. Said once now."""
    import shutil

    (tmp_path / "scenes").mkdir()
    shutil.copytree(DEV / "stations/D03", tmp_path / "stations/D03")
    for sid in ("D03-01", "D03-02"):
        shutil.copytree(DEV / "scenes" / sid, tmp_path / "scenes" / sid)
    (tmp_path / "stations/D03/colours.jpg").unlink()
    r = runner.invoke(app, ["eval", str(tmp_path)], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    assert r.output.count("station D03: default colours, since its colour photo could not "
                          "be used: cannot read photo") == 1, r.output
    r = runner.invoke(app, ["eval", str(tmp_path), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["scenes"] == 2  # JSON alone


def test_eval_refuses_a_folder_that_is_no_photo_set(tmp_path):
    r = _run("eval", str(tmp_path))
    assert r.returncode == 2 and "no scenes/ folder" in r.stderr


def test_eval_says_when_the_folder_does_not_exist(tmp_path):
    r = _run("eval", str(tmp_path / "nosuchset"))
    assert r.returncode == 2 and "does not exist" in r.stderr and "scenes/" not in r.stderr


def test_a_profile_that_is_not_yaml_is_one_sentence(tmp_path):
    bad = tmp_path / "kitchen.yaml"
    bad.write_text("id: kitchen\nlevel: normal\nimage_size: [1, -\n")
    r = _run("judge", str(DEV / "scenes/D03-02/image.jpg"), "--station", str(bad), "--card",
             "N01", "--die", "bear")
    err = " ".join(r.stderr.split())
    assert r.returncode == 2 and "is not valid YAML" in err and "line 3" in err, r.stderr
    assert err.count("error:") == 1 and "unicode string" not in err and "Traceback" not in err


def test_photo_formats_named_as_read(tmp_path):
    r = _run("judge", "--help")
    assert "WebP" in r.stdout and "BMP" in r.stdout
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    r = _run("judge", str(notes), "--station", str(NOMAT / "station.json"), "--card", "N01",
             "--die", "bear")
    assert "JPEG, PNG, WebP or BMP" in " ".join(r.stderr.split())


def test_mat_command_writes_the_pdf(tmp_path):
    r = runner.invoke(app, ["mat", "--out", str(tmp_path / "m.pdf")])
    assert r.exit_code == 0 and (tmp_path / "m.pdf").read_bytes()[:4] == b"%PDF"


def test_more_bad_input_is_one_sentence(tmp_path):
    photo = str(DEV / "scenes/D03-02/image.jpg")
    station = str(DEV / "stations/D03/station.json")
    cases = [
        (["--card", "A01", "--die", "bear"], "advanced level"),
        (["--card", "N01", "--die", "bear", "--overlay", str(tmp_path / "no" / "o.png")],
         "does not exist"),  # said before judging (its verdict was lost after it)
        (["--card", "N01", "--die", "bear", "--overlay", str(tmp_path / "o.txt")],
         ".png or .jpg"),
    ]
    for extra, words in cases:
        r = _run("judge", photo, "--station", station, *extra)
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, r.stderr
    binary = tmp_path / "card.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    r = _run("judge", photo, "--station", station, "--card-grid", str(binary), "--die", "bear")
    assert r.returncode == 2 and "UTF-8" in r.stderr
    r = _run("calibrate", "colours", "x" * 300, str(DEV / "stations/D03/colours.jpg"))
    assert r.returncode == 2 and "station name" in r.stderr
    bad = tmp_path / "s.json"
    bad.write_text('{"level": "normal", "image_size": "big"}')
    r = _run("judge", photo, "--station", str(bad), "--card", "N01", "--die", "bear")
    assert "[width, height]" in r.stderr  # brackets in messages are text, not markup


def test_eval_and_bench_refuse_a_limit_below_one():
    r = _run("eval", str(DEV), "--limit", "0")
    assert r.returncode == 2 and "1 or more" in r.stderr
    r = _run("bench", "vision", str(DEV), "--limit", "-3")
    assert r.returncode == 2 and "1 or more" in r.stderr


def test_bench_vision_times_each_stage_and_the_cpu_time_of_the_whole():
    """`referee bench vision`: a row per pipeline stage, the wall total and the CPU time
    (which programs running beside it do not inflate), each a positive median and p95."""
    r = _run("bench", "vision", str(DEV), "--limit", "2")
    assert r.returncode == 0, r.stderr
    rows = {ln.split()[0]: [float(v) for v in ln.split()[1:]] for ln in r.stdout.splitlines()
            if ln.split() and ln.split()[0] in ("pose", "fit", "total", "cpu")}
    assert set(rows) == {"pose", "fit", "total", "cpu"}
    for name, (median, p95) in rows.items():
        assert 0 < median <= p95, name
    assert rows["cpu"][0] < 5 * rows["total"][0]


def test_an_accuracy_is_rounded_once():
    """A new user's trial: 14 of 17 right printed as 82.3 % (0.8235, rounded to 4 places, then
    to 0.1 %); it is 82.35... %, so 82.4 %."""
    from referee.evaluate import EvalSummary, SceneResult

    results = [SceneResult(f"S{i:02d}", "correct", "correct" if i < 14 else "unsure", [], [],
                           10.0) for i in range(17)]
    assert f"{EvalSummary(results).to_dict()['accuracy']:.1%}" == "82.4%"


def test_a_new_users_slips_are_said_before_any_work(tmp_path):
    """A new user's trial: `calibrate camera … --level expert` printed the calibration's
    success, then refused the level, naming a profile never written; `--overlay` into a
    folder that is not there lost the verdict after judging; a station folder given as
    `--station` was refused ("Is a directory"). The first two are said before any work, in
    one sentence; the folder is read as its station.json."""
    photos = sorted(str(p) for p in (DEV / "stations" / "D01").glob("calib*.jpg"))
    r = _run("calibrate", "camera", "cam1", *photos, "--level", "expert")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == "error: --level is normal or advanced, not 'expert'"
    card, die = _card_file(tmp_path, "D06-01")
    args = ["judge", str(DEV / "scenes/D06-01/image.jpg"), "--card-grid", str(card),
            "--die", die]
    r = _run(*args, "--station", str(DEV / "stations/D06/station.json"), "--overlay",
             str(tmp_path / "no" / "why.png"))
    assert r.returncode == 2 and "does not exist" in r.stderr and r.stdout == ""
    r = _run(*args, "--station", str(DEV / "stations/D06"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["verdict"] == "wrong"


def test_judge_says_each_fault_as_a_sentence_without_its_code(tmp_path):
    """New users' trials read "fault table:none: the die shows ..." and "(table:none)" as
    jargon: the plain output gives the sentences alone, as the table's pages do (--json
    keeps the codes)."""
    grid = tmp_path / "card.txt"
    grid.write_text("..PG.\n..PG.\n..PG.\n..PG.\n..PG.\nBBBBB\n")
    r = _run("judge", str(DEV / "scenes/D03-02/image.jpg"), "--station",
             str(DEV / "stations/D03/station.json"), "--card-grid", str(grid), "--die", "bear")
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and lines[0].startswith("wrong"), r.stdout
    assert lines[1].startswith("  - the die shows no white square, so a stone must touch the "
                               "table") and "table:none" not in r.stdout, r.stdout
    r = _run("judge", str(DEV / "scenes/D03-02/image.jpg"), "--station",
             str(DEV / "stations/D03/station.json"), "--card-grid", str(grid), "--die", "bear",
             "--json")
    assert [f["code"] for f in json.loads(r.stdout)["faults"]] == ["table:none"]
