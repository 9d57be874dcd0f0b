"""The `referee` command says back what was typed at most 60 characters long: a 5000-character
--die, card id, name or path made a 5000-character error line (referee/cli/echo.py)."""

from __future__ import annotations

import json
import os

import pytest

from referee.cli import main
from referee.cli.echo import clip, clip_echoes

LONG = "q" * 5000  # no word of a message ends in q ("camera" + "aaa" made one more a)
CLIPPED = "q" * 20 + "…" + "q" * 40


def test_clip_cuts_only_what_is_long():
    assert clip("N01") == "N01" and clip("x" * 60) == "x" * 60
    assert clip(LONG) == CLIPPED
    # a path keeps its end, the file's name
    path = "/home/someone/Pictures/tuki/" + "x" * 40 + "/IMG_20240501_123456.jpg"
    assert clip(path) == path[:20] + "…" + path[-40:] and clip(path).endswith("123456.jpg")


def test_clip_echoes_cuts_every_form_of_a_long_argument():
    args = ["judge", "--card", LONG, "--station", "kitchen"]
    assert clip_echoes(f"no card {LONG!r} in the decks", args) == \
        f"no card '{CLIPPED}' in the decks"
    # the part of an argument a message repeats, in the case the message gives it
    assert clip_echoes(f"unknown bot {LONG!r}", ["--bots", "random," + LONG]) == \
        f"unknown bot '{CLIPPED}'"
    assert clip_echoes(f"unknown die face {LONG.upper()!r}", [f"--die={LONG}"]) == \
        f"unknown die face '{LONG.upper()[:20]}…{LONG.upper()[:40]}'"
    # a path made absolute is cut where it starts
    said = clip_echoes(f"cannot use {os.path.abspath(LONG)}: File name too long", [LONG])
    assert said == f"cannot use {clip(os.path.abspath(LONG))}: File name too long"
    # short values, and long words that nobody typed, stay whole
    assert clip_echoes("no card 'N99'", ["--card", "N99"]) == "no card 'N99'"
    assert clip_echoes("x" * 100, ["y" * 100]) == "x" * 100


def _main(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """`referee ARGS` in-process: (exit code, stdout, stderr)."""
    monkeypatch.setattr("sys.argv", ["referee", *args])
    with pytest.raises(SystemExit) as e:
        main()
    out, err = capsys.readouterr()
    return int(e.value.code or 0), out, err


@pytest.mark.parametrize("args", [
    ["judge", "x.jpg", "--station", "D03", "--card", "N01", "--die", LONG],
    ["judge", "x.jpg", "--station", "D03", "--die", "bear", "--card", LONG],
    ["judge", LONG + ".jpg", "--station", "D03", "--die", "bear", "--card", "N01"],
    ["judge", "x.jpg", "--station", "/tmp/" + LONG, "--die", "bear", "--card", "N01"],
    ["judge", "x.jpg", "--station", "D03", "--die", "bear", "--card", "N01", "--overlay", LONG],
    ["judge-grid", "--card", "N01", "--die", "bear", "--build-grid", LONG],
    ["cards", "show", LONG],
    ["cards", "show", "N01", "--die", LONG],
    ["cards", "list", "--level", LONG],
    ["calibrate", "level", LONG, "normal"],
    ["calibrate", "level", "D03", LONG],
    ["calibrate", "colours", LONG, "x.jpg"],
    ["eval", LONG],
    ["eval", "fixtures/dev-scenes", "--by", LONG],
    ["rules", "score", LONG, "1 2"],
    ["rules", "score", "tukki", LONG],
    ["rules", "score", "tukki", "-1 " + LONG],
    ["play", LONG],
    ["bench", "bots", "taki", "--bot", LONG, "--against", "random"],
    ["mat", "--out", LONG],
    ["admin-key", "--data", LONG],
    [LONG],  # click's own: "No such command"
    ["judge", "--" + LONG],  # "No such option"
])
def test_an_error_says_a_long_value_back_clipped(monkeypatch, capsys, args):
    code, out, err = _main(monkeypatch, capsys, *args)
    assert code == 2, err
    flat = "".join(err.split()).lower()  # click's errors are framed, wrapped at 80 columns
    # said back (a station name is cut shorter still where it is checked), never longer
    # than 60 characters, and cut where it is said whole: the path's folder, "--", "-1 "
    # before it count in the 60
    assert "q" * 20 in flat and "q" * 61 not in flat, err[:300]
    assert max(len(line) for line in err.splitlines()) < 500, err[:300]


def test_a_json_error_is_clipped_too(monkeypatch, capsys):
    code, out, err = _main(monkeypatch, capsys, "cards", "show", LONG, "--json")
    assert code == 2 and json.loads(out)["error"].startswith(f"no card '{CLIPPED}'")


def test_exit_codes_stay_as_they_were(monkeypatch, capsys, tmp_path):
    assert _main(monkeypatch, capsys, "cards", "show", "N01")[0] == 0
    assert _main(monkeypatch, capsys, "--help")[0] == 0
    assert _main(monkeypatch, capsys)[0] == 2  # no command: the help, exit 2
    assert _main(monkeypatch, capsys, "cards", "generate", "--count", "x")[0] == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    code, out, _ = _main(monkeypatch, capsys, "rules", "check", str(bad))
    assert code == 1 and "FAIL" in out  # typer.Exit(1)


def test_a_move_typed_in_play_is_said_back_clipped():
    """`referee play`: a move of 5000 characters is said back clipped, and a number of 5000
    digits (int() refused it with a traceback) or "²" (a digit, no number) is no move."""
    from typer.testing import CliRunner

    from referee.cli import app

    typed = "\n".join(["x" * 5000, "9" * 5000, "²", "q"]) + "\n"
    r = CliRunner().invoke(app, ["play", "taki", "--seed", "1"], input=typed)
    assert r.exit_code == 0 and r.exception is None, r.output[-500:]
    # the test's runner echoes the input typed into the output: the error sentences only
    flat = "".join(r.output.split())
    said = [flat.split(start, 1)[1].split("yourmove", 1)[0]
            for start in ("notaTAKIaction:", "nomove")]
    assert said[0].startswith("'" + "x" * 20 + "…" + "x" * 40 + "';expected"), said[0][:200]
    assert said[1].startswith("9" * 20 + "…" + "9" * 40 + ":choose"), said[1][:200]
    assert "notaTAKIaction:'²'" in flat and "game left" in r.output
